# SPDX-License-Identifier: GPL-2.0-only
# The telemetry, after the takeover: lwIP (lib/lwip/) on the hypervisor's own NIC, an HTTP
# server, the counters as Prometheus text and JSON (metrics.c).
objs-y += net/telemetry/snapshot.o net/telemetry/http_request.o net/telemetry/http_server.o net/telemetry/telemetry.o \
	net/telemetry/virtio_netif.o net/telemetry/live_page.o net/telemetry/metrics.o \
	net/telemetry/console_page.o net/telemetry/frame_filter.o net/telemetry/time_budget.o
