/* SPDX-License-Identifier: GPL-2.0-only */
/* TFTP packets from an untrusted server (net/boot/tftp_proto.c): the input is a 2-byte block
 * size in force, a 2-byte block size asked for, then the packet, parsed from a heap copy
 * of exactly its length. Checked: a DATA payload lies inside the packet and within the
 * block size; an ERROR text is terminated and printable; an OACK grants a block size of
 * 8..asked (or none) and a transfer size within bounds. A request for a path made of the
 * packet's bytes fits its buffer or is refused. */
#include "../../net/boot/tftp_proto.c"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	u32 blksize = (u32)take_bytes(&in, 2), asked = (u32)take_bytes(&in, 2);
	u8 *p = fuzz_copy(in.p, in.n);
	struct tftp_msg m;
	const char *why = tftp_parse(p, in.n, blksize, asked, &m);

	if (why) {
		FUZZ_CHECK(*why);
	} else if (m.op == TFTP_DATA) {
		FUZZ_CHECK(m.data == p + 4 && m.len == in.n - 4 && m.len <= blksize);
	} else if (m.op == TFTP_ERROR) {
		FUZZ_CHECK(memchr(m.text, 0, sizeof m.text));
		for (const char *t = m.text; *t; t++)
			FUZZ_CHECK(*t >= ' ' && *t < 0x7f);
	} else {
		FUZZ_CHECK(m.op == TFTP_OACK);
		FUZZ_CHECK(!m.blksize || (m.blksize >= TFTP_BLKSIZE_MIN && m.blksize <= asked));
		FUZZ_CHECK(!m.has_tsize || m.tsize <= TFTP_TSIZE_MAX);
	}
	char path[64];
	size_t k = MIN(in.n, sizeof path - 1);
	memcpy(path, p, k);
	path[k] = 0;
	u8 rrq[80];
	size_t n = tftp_make_rrq(rrq, sizeof rrq, path, blksize);
	FUZZ_CHECK(n <= sizeof rrq);
	FUZZ_CHECK(!n || (rrq[0] == 0 && rrq[1] == TFTP_RRQ && rrq[n - 1] == 0));
	free(p);
	return 0;
}
