# SPDX-License-Identifier: GPL-2.0-only
# The network: lwIP (lib/lwip/lwip.mk) on the firmware's NIC for the network boot (a TFTP
# and an HTTP client), then on the hypervisor's own NIC for the telemetry (an HTTP server).
objs-y += net/boot_nic.o net/netboot.o net/snp_netif.o net/tftp_client.o \
	net/tftp_proto.o net/tftp_xfer.o net/boot_server.o net/http_client.o net/http_proto.o \
	net/progress.o net/http_request.o net/http_server.o net/telemetry.o net/virtio_netif.o net/live_page.o
