/* SPDX-License-Identifier: GPL-2.0-only */
/* A TFTP read transfer (net/boot/tftp_xfer.c) driven by an untrusted server: the input is the
 * largest file taken (2 bytes, plus 1), then events until it ends: a byte k; k odd: time
 * passes (2 bytes of ms); k even: a packet from port 3000 + k / 2 % 4 (the first answer
 * fixes the server's port) of 2 bytes of length (below 1500), its bytes, each parsed from
 * a heap copy of exactly its length. Checked after each event: the file stays within its
 * buffer and the limit; a packet goes out at most TFTP_XFER_TRIES times; nothing is sent
 * after the end; a transfer that ends well has the size announced, one that fails says
 * why; silence ends it within 15 s; every buffer is freed. */
#include "../../net/boot/tftp_proto.c"
#include "../../net/boot/tftp_xfer.c"
#include "fuzz.h"

static int sends, allocs;

static void send_pkt(void *ctx, const u8 *pkt, size_t n, u16 port)
{
	(void)ctx, (void)port;
	FUZZ_CHECK(n >= 4 && n <= 600 && pkt[0] == 0);
	sends++;
}

static void *alloc(void *ctx, u64 n)
{
	(void)ctx;
	allocs++;
	return malloc(n);
}

static void release(void *ctx, void *p)
{
	(void)ctx;
	allocs--;
	free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct tftp_xfer_io io = { NULL, send_pkt, alloc, release };
	static struct tftp_xfer x;
	struct fuzz_in in = { data, size };
	u64 max = (u64)take_u16(&in) + 1;
	u32 now = 0, silent_since = 0;
	bool silent = false;
	sends = allocs = 0;
	FUZZ_CHECK(!tftp_xfer_start(&x, &io, "/guests/vmlinuz", 1468, max, now));
	while (!x.done) {
		u8 k = take_u8(&in);
		int before = sends;
		if (!in.n) { /* the input is used up: the server falls silent */
			if (!silent)
				silent_since = now;
			silent = true;
			now += 100;
			tftp_xfer_tick(&x, now);
			FUZZ_CHECK(x.done || now - silent_since <= 15100);
		} else if (k & 1) {
			now += take_u16(&in);
			tftp_xfer_tick(&x, now);
		} else {
			size_t n = take_u16(&in) % 1500;
			n = MIN(n, in.n);
			u8 *p = fuzz_copy(in.p, n);
			in.p += n, in.n -= n;
			tftp_xfer_input(&x, p, n, true, (u16)(3000 + k / 2 % 4), now);
			free(p);
		}
		FUZZ_CHECK(x.tries <= TFTP_XFER_TRIES);
		FUZZ_CHECK(x.len <= x.max && (!x.len || x.len <= x.cap));
		if (x.done && !x.why[0])
			FUZZ_CHECK(!x.has_tsize || x.len == x.tsize);
		FUZZ_CHECK(sends - before <= 2);
	}
	int after = sends;
	tftp_xfer_tick(&x, now + 100000);
	tftp_xfer_input(&x, (const u8 *)"\0\3\0\1", 4, true, x.tid, now);
	FUZZ_CHECK(sends == after);
	tftp_xfer_drop(&x);
	FUZZ_CHECK(allocs == 0);
	return 0;
}
