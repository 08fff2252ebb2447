/* SPDX-License-Identifier: GPL-2.0-only */
/* What reaches lwIP (net/telemetry/frame_filter.c): without a list everything, a TCP SYN
 * said; with one, IPv4 from its networks only, ARP and a DHCP server's answers always,
 * anything else (other senders, IPv6, a truncated header) dropped. */
#include "../../../net/telemetry/frame_filter.c"
#include "../test.h"

static u8 f[64];

/* An Ethernet frame of an IPv4 packet from src, protocol proto, ports and TCP flags. */
static size_t ipv4(const u8 src[4], u8 proto, u16 sport, u16 dport, u8 flags)
{
	memset(f, 0, sizeof f);
	f[12] = 0x08, f[13] = 0x00;
	u8 *ip = f + 14, *l4 = ip + 20;
	ip[0] = 0x45, ip[9] = proto;
	memcpy(ip + 12, src, 4);
	l4[0] = (u8)(sport >> 8), l4[1] = (u8)sport, l4[2] = (u8)(dport >> 8), l4[3] = (u8)dport;
	l4[13] = flags;
	return 14 + 20 + 20;
}

int main(void)
{
	const u8 lab[4] = { 10, 1, 2, 3 }, other[4] = { 192, 0, 2, 99 }, host[4] = { 192, 0, 2, 7 };
	const struct cfg_cidr allow[2] = { { { 10, 0, 0, 0 }, 8 }, { { 192, 0, 2, 7 }, 32 } };
	const struct frame_rules none = { .syn_port = 80 }, list = { allow, 2, false, 80 },
				 one = { allow, 1, false, 80 }, dhcp = { allow, 2, true, 80 };

	/* No list: everything passes, a SYN to port 80 is said (not a SYN-ACK, a bare ACK, a
	 * SYN with RST, or a SYN to another port). */
	CHECK_EQ(frame_filter(&none, f, ipv4(other, 6, 1234, 80, 0x02)), FRAME_PASS_SYN);
	CHECK_EQ(frame_filter(&none, f, ipv4(other, 6, 1234, 80, 0x12)), FRAME_PASS);
	CHECK_EQ(frame_filter(&none, f, ipv4(other, 6, 1234, 80, 0x10)), FRAME_PASS);
	CHECK_EQ(frame_filter(&none, f, ipv4(other, 6, 1234, 80, 0x06)), FRAME_PASS);
	CHECK_EQ(frame_filter(&none, f, ipv4(other, 6, 1234, 81, 0x02)), FRAME_PASS);
	CHECK_EQ(frame_filter(&none, f, 10), FRAME_PASS);

	/* A list: its networks and hosts pass, others are dropped. */
	CHECK_EQ(frame_filter(&list, f, ipv4(lab, 6, 1234, 80, 0x02)), FRAME_PASS_SYN);
	CHECK_EQ(frame_filter(&list, f, ipv4(host, 17, 5353, 5353, 0)), FRAME_PASS);
	CHECK_EQ(frame_filter(&list, f, ipv4(other, 6, 1234, 80, 0x02)), FRAME_DENY);
	CHECK_EQ(frame_filter(&one, f, ipv4(host, 6, 1234, 80, 0x10)), FRAME_DENY);
	/* A DHCP server's answer from anywhere where the address comes by DHCP, not with a
	 * static one; a DHCP request (to 67) is not one. */
	CHECK_EQ(frame_filter(&dhcp, f, ipv4(other, 17, 67, 68, 0)), FRAME_PASS);
	CHECK_EQ(frame_filter(&list, f, ipv4(other, 17, 67, 68, 0)), FRAME_DENY);
	CHECK_EQ(frame_filter(&dhcp, f, ipv4(other, 17, 68, 67, 0)), FRAME_DENY);
	/* /0 lets everyone in. */
	const struct cfg_cidr all = { { 0, 0, 0, 0 }, 0 };
	const struct frame_rules everyone = { &all, 1, false, 80 };
	CHECK_EQ(frame_filter(&everyone, f, ipv4(other, 6, 1, 80, 0x02)), FRAME_PASS_SYN);

	/* ARP passes; IPv6 and a truncated IPv4 header do not. */
	size_t n = ipv4(other, 6, 1, 80, 0);
	f[12] = 0x08, f[13] = 0x06;
	CHECK_EQ(frame_filter(&list, f, n), FRAME_PASS);
	f[12] = 0x86, f[13] = 0xDD;
	CHECK_EQ(frame_filter(&list, f, n), FRAME_DENY);
	CHECK_EQ(frame_filter(&list, f, ipv4(lab, 6, 1, 80, 0) - 30), FRAME_DENY);
	CHECK_EQ(frame_filter(&list, f, 13), FRAME_DENY);
	/* A header length past the frame; a fragment that is not the first (no ports: a
	 * SYN is not seen in it). */
	ipv4(lab, 6, 1, 80, 0x02);
	f[14] = 0x4F;
	CHECK_EQ(frame_filter(&list, f, 14 + 40), FRAME_DENY);
	ipv4(lab, 6, 1, 80, 0x02);
	f[14 + 6] = 0x00, f[14 + 7] = 0x10;
	CHECK_EQ(frame_filter(&list, f, 14 + 40), FRAME_PASS);
	return test_summary();
}
