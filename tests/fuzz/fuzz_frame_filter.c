/* SPDX-License-Identifier: GPL-2.0-only */
/* The allow list's verdict on a received frame (net/telemetry/frame_filter.c), from any
 * bytes: it reads nothing past the frame (ASan, the frame copied to a buffer of its own
 * length), a frame whose sender is on the list passes, one whose sender is not passes only
 * as ARP or (with DHCP) a DHCP server's answer, and without a list everything passes. */
#include "../../net/telemetry/frame_filter.c"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct cfg_cidr allow[2] = { { { 10, 0, 0, 0 }, (u8)(take_u8(&in) % 33) },
				     { { 192, 0, 2, 7 }, 32 } };
	u8 how = take_u8(&in);
	u32 n = how % 3;
	struct frame_rules r = { allow, n, how & 4, 80 };
	uint8_t *frame = fuzz_copy(in.p, in.n);
	enum frame_verdict v = frame_filter(&r, frame, in.n);
	FUZZ_CHECK(v == FRAME_DENY || v == FRAME_PASS || v == FRAME_PASS_SYN);
	if (!n)
		FUZZ_CHECK(v != FRAME_DENY);
	bool arp = in.n >= 14 && frame[12] == 0x08 && frame[13] == 0x06;
	bool v4 = in.n >= 34 && frame[12] == 0x08 && frame[13] == 0x00 && frame[14] >> 4 == 4 &&
		  (frame[14] & 0xF) >= 5 && (size_t)(frame[14] & 0xF) * 4 <= in.n - 14;
	if (n && v != FRAME_DENY && !arp) {
		FUZZ_CHECK(v4);
		bool listed = in_list(allow, n, frame + 26);
		/* the rest of the DHCP rule: the unit test */
		bool dhcp = r.dhcp && frame[23] == 17;
		FUZZ_CHECK(listed || dhcp);
	}
	free(frame);
	return 0;
}
