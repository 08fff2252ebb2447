/* SPDX-License-Identifier: GPL-2.0-only */
/* Which received frames reach lwIP: with an `allow` list under [net], only IPv4 frames
 * from its networks (and ARP, and a DHCP server's answers); every other frame is dropped
 * before lwIP sees it. A TCP SYN that passes is said, so that room is made for it
 * (lib/lwip/half_open.h). */
#ifndef NET_TELEMETRY_FRAME_FILTER_H
#define NET_TELEMETRY_FRAME_FILTER_H

#include "boot/config.h"

enum frame_verdict {
	FRAME_DENY, /* dropped: its sender is not on the allow list */
	FRAME_PASS,
	FRAME_PASS_SYN, /* a TCP SYN (without ACK): a connection asked for */
};

/* The verdict on an Ethernet frame of len bytes; n = 0: no list, everything passes. */
enum frame_verdict frame_filter(const struct cfg_cidr *allow, u32 n, const u8 *frame, size_t len);

#endif
