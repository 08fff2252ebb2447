/* SPDX-License-Identifier: GPL-2.0-only */
/* See frame_filter.h. Ethernet II without VLAN tags (lwIP here has none either), IPv4
 * (RFC 791), UDP and TCP headers (RFC 768, 793): the fields read are checked to lie
 * within the frame; a frame too short to say is denied where a list is set. */
#include "net/telemetry/frame_filter.h"

#define ETH_HLEN 14
#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_ARP 0x0806
#define IP_PROTO_TCP 6
#define IP_PROTO_UDP 17
#define TCPF_SYN 0x02
#define TCPF_RST 0x04
#define TCPF_ACK 0x10

static u16 be16(const u8 *p) { return (u16)(p[0] << 8 | p[1]); }

static bool in_list(const struct cfg_cidr *allow, u32 n, const u8 ip[4])
{
	u32 a = (u32)ip[0] << 24 | (u32)ip[1] << 16 | (u32)ip[2] << 8 | ip[3];
	for (u32 i = 0; i < n; i++) {
		const u8 *net = allow[i].ip;
		u32 b = (u32)net[0] << 24 | (u32)net[1] << 16 | (u32)net[2] << 8 | net[3];
		u32 mask = allow[i].prefix ? ~0u << (32 - allow[i].prefix) : 0;
		if (((a ^ b) & mask) == 0)
			return true;
	}
	return false;
}

enum frame_verdict frame_filter(const struct frame_rules *r, const u8 *frame, size_t len)
{
	const struct cfg_cidr *allow = r->allow;
	u32 n = r->nallow;
	if (len < ETH_HLEN)
		return n ? FRAME_DENY : FRAME_PASS;
	u16 type = be16(frame + 12);
	if (type == ETHERTYPE_ARP)
		return FRAME_PASS; /* who has an address: lwIP answers only for its own */
	const u8 *ip = frame + ETH_HLEN;
	size_t iplen = len - ETH_HLEN, ihl = iplen ? (size_t)(ip[0] & 0xF) * 4 : 0;
	bool v4 = type == ETHERTYPE_IPV4 && iplen >= 20 && ip[0] >> 4 == 4 && ihl >= 20 &&
		  ihl <= iplen;
	/* The transport header, where the fragment is the first (offset 0). */
	const u8 *l4 = v4 && !(be16(ip + 6) & 0x1FFF) ? ip + ihl : NULL;
	size_t l4len = l4 ? iplen - ihl : 0;
	enum frame_verdict pass = FRAME_PASS;
	if (l4 && ip[9] == IP_PROTO_TCP && l4len >= 14 && be16(l4 + 2) == r->syn_port &&
	    (l4[13] & (TCPF_SYN | TCPF_ACK | TCPF_RST)) == TCPF_SYN)
		pass = FRAME_PASS_SYN;
	if (!n)
		return pass;
	if (!v4)
		return FRAME_DENY;
	if (in_list(allow, n, ip + 12))
		return pass;
	/* A DHCP server's answer (UDP from port 67 to 68): the address comes from it. */
	if (r->dhcp && l4 && ip[9] == IP_PROTO_UDP && l4len >= 8 && be16(l4) == 67 &&
	    be16(l4 + 2) == 68)
		return FRAME_PASS;
	return FRAME_DENY;
}
