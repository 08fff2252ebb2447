# SPDX-License-Identifier: GPL-2.0-only
# Network boot: lwIP (lib/lwip/lwip.mk) on the firmware's NIC, a TFTP and an HTTP client.
objs-y += net/boot_nic.o net/lwip_port.o net/netboot.o net/snp_netif.o net/tftp_client.o \
	net/tftp_proto.o net/tftp_xfer.o net/boot_server.o net/http_client.o net/http_proto.o \
	net/progress.o
