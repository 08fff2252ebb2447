/* SPDX-License-Identifier: GPL-2.0-only */
/* SipHash-2-4 as its paper defines it (section 2): the key and the message as
 * little-endian 64-bit words, two rounds a word, four to finish. */
#include "hv/siphash.h"

static inline u64 rotl(u64 x, unsigned b) { return x << b | x >> (64 - b); }

static void sip_round(u64 v[4])
{
	v[0] += v[1];
	v[1] = rotl(v[1], 13) ^ v[0];
	v[0] = rotl(v[0], 32);
	v[2] += v[3];
	v[3] = rotl(v[3], 16) ^ v[2];
	v[0] += v[3];
	v[3] = rotl(v[3], 21) ^ v[0];
	v[2] += v[1];
	v[1] = rotl(v[1], 17) ^ v[2];
	v[2] = rotl(v[2], 32);
}

static void compress(u64 v[4], u64 m)
{
	v[3] ^= m;
	sip_round(v);
	sip_round(v);
	v[0] ^= m;
}

u64 siphash24(const u64 key[2], const void *msg, size_t len)
{
	const u8 *p = msg;
	u64 v[4] = { key[0] ^ 0x736f6d6570736575ull, key[1] ^ 0x646f72616e646f6dull,
		     key[0] ^ 0x6c7967656e657261ull, key[1] ^ 0x7465646279746573ull };
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		u64 m = 0;
		for (int b = 0; b < 8; b++)
			m |= (u64)p[i + b] << (8 * b);
		compress(v, m);
	}
	/* The last word: the bytes left, and the length's low byte at the top. */
	u64 m = (u64)(len & 0xFF) << 56;
	for (int b = 0; i + (size_t)b < len; b++)
		m |= (u64)p[i + b] << (8 * b);
	compress(v, m);
	v[2] ^= 0xFF;
	for (int r = 0; r < 4; r++)
		sip_round(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}
