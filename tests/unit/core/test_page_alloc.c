/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for hv/page_alloc.c, with pools backed by aligned host buffers (the
 * host address stands in for the identity-mapped physical address). */
#include <stdlib.h>
#include "../../../hv/page_alloc.c"
#include "../test.h"

#define P PAGE_SIZE

static struct page_pool pool;

static u8 *buffer(u64 align, u64 bytes)
{
	u8 *b = aligned_alloc(align, bytes);

	memset(b, 0xa5, bytes);
	return b;
}

static bool zeroed(u64 addr, u64 npages)
{
	const u8 *b = (const u8 *)(uintptr_t)addr;
	u64 i;

	for (i = 0; i < npages * P; i++)
		if (b[i])
			return false;
	return true;
}

static void test_basic(void)
{
	u8 *buf = buffer(16 * MiB, 16 * MiB); /* 16 MiB aligned; the pool uses 8 */
	u64 base = (uintptr_t)buf, a, b, c, i, n;

	page_pool_init(&pool, base, 8 * MiB);
	CHECK_EQ(pool.base, base);
	CHECK_EQ(pool.npages, 2048);
	CHECK_EQ((uintptr_t)pool.bitmap, base);
	CHECK_EQ(pool.free, 2047); /* 256-byte bitmap in page 0 */
	CHECK_EQ(pool.bitmap[0], 1);
	CHECK_EQ(pool.bitmap[31], 0);

	/* Lowest free pages first, zeroed, contiguous. */
	a = page_alloc(&pool, 1, 0);
	CHECK_EQ(a, base + P);
	CHECK(zeroed(a, 1));
	b = page_alloc(&pool, 3, 1);
	CHECK_EQ(b, base + 2 * P);
	CHECK(zeroed(b, 3));
	CHECK_EQ(pool.free, 2043);
	CHECK_EQ(pool.bitmap[0], 0x1f);

	/* 2 MiB alignment: the next 2 MiB boundary in the region. */
	c = page_alloc(&pool, 1, 512);
	CHECK_EQ(c, base + 2 * MiB);
	CHECK(zeroed(c, 1));
	memset((void *)(uintptr_t)c, 0xff, P);
	/* Small allocations still fill the gap below it. */
	CHECK_EQ(page_alloc(&pool, 2, 0), base + 5 * P);
	CHECK_EQ(page_alloc(&pool, 1, 8), base + 8 * P);
	CHECK_EQ(page_alloc(&pool, 1, 0), base + 7 * P);

	/* Free and reuse: the same address comes back, zeroed again. */
	memset((void *)(uintptr_t)b, 0x5a, 3 * P);
	n = pool.free;
	page_free(&pool, b, 3);
	CHECK_EQ(pool.free, n + 3);
	CHECK_EQ(pool.hint, 2);
	CHECK_EQ(page_alloc(&pool, 2, 0), b);
	CHECK(zeroed(b, 2));
	CHECK_EQ(((u8 *)(uintptr_t)b)[2 * P], 0x5a); /* the third page was not handed out */
	CHECK_EQ(page_alloc(&pool, 1, 0), b + 2 * P);
	CHECK(zeroed(b + 2 * P, 1));
	page_free(&pool, c, 1);
	CHECK_EQ(page_alloc(&pool, 1, 512), c);
	CHECK(zeroed(c, 1));

	/* Invalid requests. */
	n = pool.free;
	CHECK_EQ(page_alloc(&pool, 0, 0), 0);
	CHECK_EQ(page_alloc(&pool, 1, 3), 0);
	CHECK_EQ(page_alloc(&pool, 1, 6), 0);
	CHECK_EQ(page_alloc(&pool, 1, 1ull << 40), 0);
	CHECK_EQ(page_alloc(&pool, 1, 1ull << 63), 0);
	CHECK_EQ(page_alloc(&pool, n + 1, 0), 0);
	CHECK_EQ(page_alloc(&pool, UINT64_MAX, 0), 0);
	CHECK_EQ(page_alloc(&pool, 1, 4096), 0); /* 16 MiB alignment: none in 8 MiB */
	CHECK_EQ(pool.free, n);

	/* Frees that are not ours are ignored; double frees are not counted twice. */
	page_free(&pool, base, 1); /* the bitmap page */
	page_free(&pool, base - P, 2);
	page_free(&pool, base + 8 * MiB, 1);
	page_free(&pool, base + 8 * MiB - P, 2);
	page_free(&pool, base + P + 1, 1);
	page_free(&pool, base + P, UINT64_MAX);
	CHECK_EQ(pool.free, n);
	CHECK_EQ(pool.bitmap[0] & 1, 1);
	page_free(&pool, a, 1);
	page_free(&pool, a, 1);
	CHECK_EQ(pool.free, n + 1);
	CHECK_EQ(page_alloc(&pool, 1, 0), a);

	/* Exhaustion: every remaining page one by one, then nothing. */
	n = pool.free;
	for (i = 0; i < n; i++)
		if (!page_alloc(&pool, 1, 0))
			break;
	CHECK_EQ(i, n);
	CHECK_EQ(pool.free, 0);
	CHECK_EQ(page_alloc(&pool, 1, 0), 0);
	CHECK_EQ(pool.hint, 2048);

	/* Free every other page: plenty free, but no run of two. */
	for (i = 1; i < 2048; i += 2)
		page_free(&pool, base + i * P, 1);
	CHECK_EQ(pool.free, 1024);
	CHECK_EQ(page_alloc(&pool, 2, 0), 0);
	CHECK_EQ(page_alloc(&pool, 1, 2), 0); /* odd pages only */
	CHECK_EQ(page_alloc(&pool, 1, 0), base + P);
	page_free(&pool, base + 2 * P, 1);
	CHECK_EQ(page_alloc(&pool, 2, 0), base + 2 * P);

	/* Everything back: one run of all usable pages. */
	page_free(&pool, base + P, 2047);
	CHECK_EQ(pool.free, 2047);
	CHECK_EQ(page_alloc(&pool, 2048, 0), 0);
	CHECK_EQ(page_alloc(&pool, 2047, 0), base + P);
	CHECK(zeroed(base + P, 2047));
	CHECK_EQ(pool.free, 0);
	page_free(&pool, base + P, 2047);
	CHECK_EQ(page_alloc(&pool, 1024, 1024), base + 4 * MiB); /* not at page 0 */
	CHECK_EQ(page_alloc(&pool, 512, 512), base + 2 * MiB);
	CHECK_EQ(page_alloc(&pool, 512, 512), 0);
	CHECK_EQ(page_alloc(&pool, 511, 1), base + P);
	CHECK_EQ(pool.free, 0);
	free(buf);
}

static void test_shapes(void)
{
	u8 *buf = buffer(2 * MiB, 136 * MiB);
	u64 base = (uintptr_t)buf, i;
	static u64 bm[64];

	/* A region that is not 2 MiB aligned: alignment is by address, not index. */
	page_pool_init(&pool, base + 3 * P, 4 * MiB);
	CHECK_EQ(pool.npages, 1024);
	CHECK_EQ(pool.free, 1023);
	CHECK_EQ(page_alloc(&pool, 1, 512), base + 2 * MiB);
	CHECK_EQ(page_alloc(&pool, 1, 4), base + 4 * P);
	CHECK_EQ(page_alloc(&pool, 2, 2), base + 6 * P);

	/* An unaligned base is rounded up; a partial last page is dropped. */
	page_pool_init(&pool, base + 100, 10 * P);
	CHECK_EQ(pool.base, base + P);
	CHECK_EQ(pool.npages, 9);
	CHECK_EQ(pool.free, 8);
	page_pool_init(&pool, base, 10 * P + 4095);
	CHECK_EQ(pool.npages, 10);

	/* Page count not a multiple of 64: pages past the end are never handed out. */
	page_pool_init(&pool, base, 100 * P);
	CHECK_EQ(pool.free, 99);
	CHECK_EQ(page_alloc(&pool, 100, 0), 0);
	CHECK_EQ(page_alloc(&pool, 99, 0), base + P);
	CHECK_EQ(page_alloc(&pool, 1, 0), 0);
	page_free(&pool, base + P, 99);
	for (i = 0; i < 99; i++)
		CHECK_EQ(page_alloc(&pool, 1, 0), base + (i + 1) * P);
	CHECK_EQ(page_alloc(&pool, 1, 0), 0);
	page_free(&pool, base + 99 * P, 2); /* runs past the end: ignored */
	CHECK_EQ(pool.free, 0);
	page_free(&pool, base + 99 * P, 1);
	CHECK_EQ(page_alloc(&pool, 1, 0), base + 99 * P);

	/* Tiny regions. */
	page_pool_init(&pool, base, 0);
	CHECK_EQ(pool.npages, 0);
	CHECK_EQ(pool.free, 0);
	CHECK_EQ(page_alloc(&pool, 1, 0), 0);
	page_free(&pool, base, 1);
	page_pool_init(&pool, base, P - 1);
	CHECK_EQ(pool.npages, 0);
	CHECK_EQ(page_alloc(&pool, 1, 0), 0);
	page_pool_init(&pool, base, P);
	CHECK_EQ(pool.npages, 1);
	CHECK_EQ(pool.free, 0);
	CHECK_EQ(page_alloc(&pool, 1, 0), 0);
	page_pool_init(&pool, base, 2 * P);
	CHECK_EQ(pool.free, 1);
	CHECK_EQ(page_alloc(&pool, 1, 0), base + P);

	/* A bitmap bigger than one page: 129 MiB = 33024 pages = 4128 bytes. */
	page_pool_init(&pool, base, 129 * MiB);
	CHECK_EQ(pool.npages, 33024);
	CHECK_EQ(page_pool_bitmap_bytes(129 * MiB), 4128);
	CHECK_EQ(pool.free, 33022);
	CHECK_EQ(page_alloc(&pool, 1, 0), base + 2 * P);
	page_free(&pool, base + P, 1);
	CHECK_EQ(pool.free, 33021);
	CHECK_EQ(page_alloc(&pool, 32513, 512), 0);
	CHECK_EQ(page_alloc(&pool, 32512, 512), base + 2 * MiB);
	CHECK(zeroed(base + 2 * MiB, 32512));
	CHECK_EQ(page_alloc(&pool, 510, 0), 0);
	CHECK_EQ(page_alloc(&pool, 509, 0), base + 3 * P);
	CHECK_EQ(pool.free, 0);

	/* Caller-provided bitmap: every page of the region is usable. */
	CHECK_EQ(page_pool_bitmap_bytes(4 * MiB), 128);
	page_pool_init_bitmap(&pool, base, 4 * MiB, bm);
	CHECK(pool.bitmap == bm);
	CHECK_EQ(pool.free, 1024);
	CHECK_EQ(page_alloc(&pool, 1024, 512), base);
	CHECK(zeroed(base, 1024));
	CHECK_EQ(page_alloc(&pool, 1, 0), 0);
	page_free(&pool, base, 1);
	CHECK_EQ(pool.free, 1);
	CHECK_EQ(page_alloc(&pool, 1, 0), base);
	free(buf);
}

/* Random allocations and frees against a shadow map; every failure is checked to
 * be real by a brute-force search for a fitting run. */
#define SN 1000
static u8 shadow[SN]; /* 1 = used */
static struct {
	u64 addr, n;
} live[SN];
static int nlive;

static bool fits_somewhere(u64 base, u64 n, u64 align)
{
	u64 i, j;

	for (i = 0; i + n <= SN; i++) {
		if (((base / P + i) & (align - 1)))
			continue;
		for (j = 0; j < n && !shadow[i + j]; j++)
			;
		if (j == n)
			return true;
	}
	return false;
}

static void test_random(void)
{
	u8 *buf = buffer(P, SN * P);
	u64 base = (uintptr_t)buf, i;
	int iter, bad = 0, fails = 0;

	page_pool_init(&pool, base, SN * P);
	memset(shadow, 0, sizeof(shadow));
	shadow[0] = 1;
	srand(7);
	for (iter = 0; iter < 20000; iter++) {
		if (nlive && (rand() % 100 < 45 || nlive == SN)) {
			int k = rand() % nlive;
			u8 *m = (u8 *)(uintptr_t)live[k].addr;

			for (i = 0; i < live[k].n * P; i += 512)
				if (m[i] != (u8)(live[k].addr >> 12))
					bad++;
			page_free(&pool, live[k].addr, live[k].n);
			memset(shadow + (live[k].addr - base) / P, 0, live[k].n);
			live[k] = live[--nlive];
		} else {
			u64 n = 1 + (rand() % 4 ? rand() % 4 : rand() % 64);
			u64 align = 1ull << (rand() % 4 ? 0 : rand() % 7);
			u64 a = page_alloc(&pool, n, align);

			if (!a) {
				fails++;
				if (fits_somewhere(base, n, align))
					bad++;
				continue;
			}
			if (a < base + P || a + n * P > base + SN * P || (a / P) % align ||
			    !zeroed(a, n))
				bad++;
			for (i = 0; i < n; i++) {
				if (shadow[(a - base) / P + i])
					bad++;
				shadow[(a - base) / P + i] = 1;
			}
			memset((void *)(uintptr_t)a, (u8)(a >> 12), n * P);
			live[nlive].addr = a;
			live[nlive++].n = n;
		}
		{
			u64 f = 0;

			for (i = 0; i < SN; i++)
				f += !shadow[i];
			if (f != pool.free)
				bad++;
		}
	}
	CHECK_EQ(bad, 0);
	CHECK(fails > 0);
	free(buf);
}

int main(void)
{
	test_basic();
	test_shapes();
	test_random();
	return test_summary();
}
