/* SPDX-License-Identifier: GPL-2.0-only */
/* Which received frames reach lwIP: with an `allow` list under [net], only IPv4 frames
 * from its networks (and ARP, and a DHCP server's answers where the address comes by
 * DHCP); every other frame is dropped before lwIP sees it. A TCP SYN to the telemetry's
 * port that passes is said, so that room is made for it (lib/lwip/half_open.h). */
#ifndef NET_TELEMETRY_FRAME_FILTER_H
#define NET_TELEMETRY_FRAME_FILTER_H

#include "boot/config.h"

enum frame_verdict {
	FRAME_DENY, /* dropped: its sender is not on the allow list */
	FRAME_PASS,
	FRAME_PASS_SYN, /* a TCP SYN (without ACK or RST) to syn_port: a connection asked for */
};

struct frame_rules {
	const struct cfg_cidr *allow; /* the allow list; nallow = 0: everyone may */
	u32 nallow;
	bool dhcp;    /* the address comes by DHCP: a DHCP server's answers pass */
	u16 syn_port; /* the TCP port whose SYNs are said */
};

/* The verdict on an Ethernet frame of len bytes. */
enum frame_verdict frame_filter(const struct frame_rules *r, const u8 *frame, size_t len);

#endif
