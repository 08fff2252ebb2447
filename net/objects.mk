# SPDX-License-Identifier: GPL-2.0-only
# The telemetry, after the takeover: lwIP (lib/lwip/) on the hypervisor's own NIC, an HTTP
# server.
objs-y += net/http_request.o net/http_server.o net/telemetry.o net/virtio_netif.o net/live_page.o
