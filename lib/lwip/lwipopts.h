/* SPDX-License-Identifier: GPL-2.0-only */
/* lwIP's options for the hypervisor (lwIP 2.1.3, src/include/lwip/opt.h lists them all):
 * no OS (NO_SYS: one thread polls the stack, the raw callback API only), IPv4 with ARP,
 * UDP, TCP and DHCP; no IPv6, DNS or sockets. Memory comes from lwIP's own static heap
 * and pools, sized for one transfer at a time during the network boot (a TFTP client in
 * lock step, or one HTTP connection) and the telemetry's few connections after it. */
#ifndef LWIP_LWIPOPTS_H
#define LWIP_LWIPOPTS_H

#define NO_SYS 1
#define SYS_LIGHTWEIGHT_PROT 0 /* polled from one CPU, never from an interrupt */
#define LWIP_NETCONN 0
#define LWIP_SOCKET 0

#define LWIP_IPV4 1
#define LWIP_IPV6 0
#define LWIP_ARP 1
#define LWIP_ETHERNET 1
#define LWIP_ICMP 1
#define LWIP_UDP 1
#define LWIP_TCP 1
#define LWIP_RAW 0
#define LWIP_DNS 0
#define LWIP_IGMP 0
#define LWIP_AUTOIP 0
#define IP_REASSEMBLY 0 /* a TFTP block fits in one frame (its blksize is chosen so) */
#define IP_FRAG 0

#define LWIP_DHCP 1
#define LWIP_DHCP_BOOTP_FILE 1 /* keeps the offer's siaddr: the boot (TFTP) server */
#define DHCP_DOES_ARP_CHECK 0  /* no 2 s wait for an ARP probe (RFC 2131 4.4.1: "SHOULD") */
/* The options lwIP does not keep itself (66 and 150, the TFTP server: net/boot/boot_server.h)
 * are handed to net/boot/netboot.c as lwIP parses them. */
struct pbuf;
void netboot_dhcp_option(unsigned char msg_type, unsigned char option, unsigned char len,
			 struct pbuf *p, unsigned short offset);
#define LWIP_HOOK_DHCP_PARSE_OPTION(netif, dhcp, state, msg, msg_type, option, len, p, off) \
	((void)(msg), netboot_dhcp_option(msg_type, option, len, p, off))

#define LWIP_NETIF_HOSTNAME 0
#define LWIP_NETIF_STATUS_CALLBACK 0
#define LWIP_SINGLE_NETIF 1
#define LWIP_STATS 0
#define LWIP_CHECKSUM_CTRL_PER_NETIF 0

#define MEM_ALIGNMENT 8
#define MEM_SIZE (32 * 1024)
#define MEMP_NUM_PBUF 64 /* the server's answers go out by reference: one per segment */
#define MEMP_NUM_UDP_PCB 4
#define PBUF_POOL_SIZE 16
#define PBUF_POOL_BUFSIZE 1536 /* a whole Ethernet frame per pbuf */

/* TCP: the network boot's client (net/boot/http_client.c), one connection, then the
 * telemetry's server (net/telemetry/http_server.c), HTTP_SERVER_CONNS of them and its
 * listener, beside at most TCP_HALF_OPEN_MAX (8) half-open ones (lib/lwip/half_open.h); a
 * connection in TIME_WAIT gives its pcb to a new one. The receive window is what the pbuf
 * pool holds with room to spare (lwIP's init.c checks these against each other). */
#define MEMP_NUM_TCP_PCB 16
#define MEMP_NUM_TCP_PCB_LISTEN 1
#define TCP_MSS 1460
#define TCP_WND (8 * TCP_MSS)
#define TCP_SND_BUF (4 * TCP_MSS)
#define TCP_SND_QUEUELEN 16
#define MEMP_NUM_TCP_SEG 64
#define LWIP_TCP_KEEPALIVE 0
#define TCP_QUEUE_OOSEQ 0 /* a segment out of order is dropped and sent again */
/* Initial sequence numbers as RFC 6528 has them (lib/lwip/tcp_isn.h), not lwIP's
 * counter, which another host on the network could predict. */
#include "lib/lwip/tcp_isn.h"
#define LWIP_HOOK_TCP_ISN(local_ip, local_port, remote_ip, remote_port) \
	tcp_isn(ip4_addr_get_u32(local_ip), local_port, ip4_addr_get_u32(remote_ip), remote_port)

#endif
