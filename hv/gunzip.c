/* SPDX-License-Identifier: GPL-2.0-only */
/* gzip files through zlib's inflate (gunzip.h), which is built with Z_SOLO: no allocator
 * of its own, so it gets one here, from a static arena (inflate needs its state and a 32
 * KiB window, some 40 KiB in all, once per file). */
#include "hv/gunzip.h"
#include "hv/lib.h"
#include <zlib.h>

#define ARENA_SIZE (64 * KiB)

static u8 arena[ARENA_SIZE] __attribute__((aligned(16)));
static size_t arena_used;

static voidpf arena_alloc(voidpf opaque, uInt items, uInt size)
{
	(void)opaque;
	size_t n = ALIGN_UP((size_t)items * size, 16);
	if ((u64)items * size > ARENA_SIZE || n > ARENA_SIZE - arena_used)
		return Z_NULL;
	void *p = arena + arena_used;
	arena_used += n;
	return p;
}

static void arena_free(voidpf opaque, voidpf p)
{
	(void)opaque;
	(void)p; /* all of it goes at the end of gunzip() */
}

bool gzip_is(const void *in, u64 len)
{
	const u8 *b = in;
	return len >= 3 && b[0] == 0x1f && b[1] == 0x8b && b[2] == 8;
}

u64 gzip_size(const void *in, u64 len)
{
	const u8 *t = (const u8 *)in + len - 4;
	if (len < 18) /* a 10-byte header, an empty deflate block, the 8-byte trailer */
		return 0;
	return (u64)t[0] | (u64)t[1] << 8 | (u64)t[2] << 16 | (u64)t[3] << 24;
}

int gunzip(const void *in, u64 len, void *out, u64 cap, u64 *out_len, const char **why)
{
	z_stream s;
	int ret;

	*out_len = 0;
	if (!gzip_is(in, len)) {
		*why = "not a gzip file";
		return -1;
	}
	memset(&s, 0, sizeof s);
	s.zalloc = arena_alloc;
	s.zfree = arena_free;
	arena_used = 0;
	/* 16 + 15: a gzip wrapper (header and trailer checked), the largest window. */
	if (inflateInit2(&s, 16 + MAX_WBITS) != Z_OK) {
		*why = "gzip: no memory for the decompressor";
		return -1;
	}
	const u8 *src = in;
	u8 *dst = out;
	u64 in_left = len, out_left = cap;
	do {
		/* avail_in and avail_out are 32 bits wide: feed and drain in pieces. */
		if (!s.avail_in) {
			s.next_in = (Bytef *)(uintptr_t)src;
			s.avail_in = (uInt)MIN(in_left, 0x40000000ull);
			src += s.avail_in;
			in_left -= s.avail_in;
		}
		if (!s.avail_out) {
			s.next_out = dst;
			s.avail_out = (uInt)MIN(out_left, 0x40000000ull);
			dst += s.avail_out;
			out_left -= s.avail_out;
		}
		ret = inflate(&s, Z_NO_FLUSH);
	} while (ret == Z_OK && (s.avail_in || in_left) && (s.avail_out || out_left));
	*out_len = cap - out_left - s.avail_out;
	inflateEnd(&s);
	/* Bytes after the first member (a second member, padding) are refused: gzip_size()
	 * reads the file's last 4 bytes as the trailer, so they would be taken for it. */
	if (ret == Z_STREAM_END && (s.avail_in || in_left)) {
		*why = "gzip: data after the end of the compressed stream (a second member, or "
		       "padding)";
		return -1;
	}
	if (ret == Z_STREAM_END)
		return 0;
	*why = ret == Z_DATA_ERROR  ? "gzip: corrupt data (or a CRC or length mismatch)"
	       : ret == Z_MEM_ERROR ? "gzip: no memory for the decompressor"
	       : ret == Z_BUF_ERROR || ret == Z_OK
		       ? (s.avail_out || out_left ? "gzip: the file ends early (truncated)"
						  : "gzip: inflates to more than its trailer says")
		       : "gzip: cannot be decompressed";
	return -1;
}
