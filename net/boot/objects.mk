# SPDX-License-Identifier: GPL-2.0-only
# The network boot, before the takeover: lwIP (lib/lwip/) on the firmware's NIC, DHCP, a TFTP
# and an HTTP client.
objs-y += net/boot/boot_nic.o net/boot/netboot.o net/boot/snp_netif.o net/boot/tftp_client.o \
	net/boot/tftp_proto.o net/boot/tftp_xfer.o net/boot/boot_server.o net/boot/http_client.o \
	net/boot/http_proto.o net/boot/progress.o
