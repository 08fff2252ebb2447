/* SPDX-License-Identifier: GPL-2.0-only */
/* Bitmap page allocator (see page_alloc.h). First fit: p->hint is a page index
 * below which every page is used, so searches start there. */
#include "hv/page_alloc.h"
#include "hv/lib.h"

#define NONE UINT64_MAX

static u64 words(u64 npages) { return ALIGN_UP(npages, 64) / 64; }

/* Pages at the start of the region that hold the bitmap (0 if caller-provided). */
static u64 reserved_pages(const struct page_pool *p)
{
	if ((uintptr_t)p->bitmap != p->base)
		return 0;
	return ALIGN_UP(words(p->npages) * 8, PAGE_SIZE) / PAGE_SIZE;
}

/* Marks pages [i, i + n) used or free; returns how many changed state. */
static u64 mark(struct page_pool *p, u64 i, u64 n, bool used)
{
	u64 changed = 0;

	while (n) {
		u64 bit = i % 64, cnt = MIN(n, 64 - bit);
		u64 mask = (cnt == 64 ? ~0ull : BIT(cnt) - 1) << bit;
		u64 *w = &p->bitmap[i / 64];

		changed += popcount64(used ? mask & ~*w : mask & *w);
		if (used)
			*w |= mask;
		else
			*w &= ~mask;
		i += cnt;
		n -= cnt;
	}
	return changed;
}

/* First page in [i, end) that is free (want_used false) or used; end if none. */
static u64 next_page(const struct page_pool *p, u64 i, u64 end, bool want_used)
{
	while (i < end) {
		u64 w = p->bitmap[i / 64];

		w = (want_used ? w : ~w) >> (i % 64);
		if (w)
			return MIN(i + (u64)__builtin_ctzll(w), end);
		i = ALIGN_DOWN(i, 64) + 64;
	}
	return end;
}

static void setup(struct page_pool *p, u64 base, u64 npages, u64 *bitmap, bool carve)
{
	u64 n = words(npages), reserved;

	p->base = base;
	p->npages = npages;
	p->bitmap = npages ? bitmap : NULL;
	p->free = 0;
	p->hint = 0;
	if (!npages)
		return;
	memset(bitmap, 0, n * 8);
	if (npages % 64)
		bitmap[n - 1] = ~0ull << (npages % 64); /* past the end: never free */
	reserved = carve ? MIN(reserved_pages(p), npages) : 0;
	mark(p, 0, reserved, true);
	p->free = npages - reserved;
	p->hint = reserved;
}

u64 page_pool_bitmap_bytes(u64 bytes) { return words(bytes / PAGE_SIZE) * 8; }

void page_pool_init(struct page_pool *p, u64 base, u64 bytes)
{
	u64 start = ALIGN_UP(base, PAGE_SIZE), skip = start - base;
	u64 npages = bytes > skip ? (bytes - skip) / PAGE_SIZE : 0;

	setup(p, start, npages, (u64 *)(uintptr_t)start, true);
}

void page_pool_init_bitmap(struct page_pool *p, u64 base, u64 bytes, u64 *bitmap)
{
	u64 start = ALIGN_UP(base, PAGE_SIZE), skip = start - base;
	u64 npages = bytes > skip ? (bytes - skip) / PAGE_SIZE : 0;

	setup(p, start, npages, bitmap, false);
}

/* First index >= hint of n free pages whose address is a multiple of align pages. */
static u64 find_run(const struct page_pool *p, u64 n, u64 align)
{
	u64 bp = p->base / PAGE_SIZE, i = p->hint, end = p->npages, u;

	for (;;) {
		i = next_page(p, i, end, false);
		i = ALIGN_UP(bp + i, align) - bp;
		if (i >= end || n > end - i)
			return NONE;
		u = next_page(p, i, i + n, true);
		if (u == i + n)
			return i;
		i = u + 1;
	}
}

u64 page_alloc(struct page_pool *p, u64 npages, u64 align_pages)
{
	u64 i, addr;

	if (!align_pages)
		align_pages = 1;
	if (!npages || npages > p->free || (align_pages & (align_pages - 1)))
		return 0;
	/* No multiple of a larger alignment lies in the region (and this bounds the math). */
	if (align_pages > p->base / PAGE_SIZE + p->npages)
		return 0;
	i = find_run(p, npages, align_pages);
	if (i == NONE)
		return 0;
	mark(p, i, npages, true);
	p->free -= npages;
	p->hint = next_page(p, p->hint, p->npages, false);
	addr = p->base + i * PAGE_SIZE;
	memset((void *)(uintptr_t)addr, 0, npages * PAGE_SIZE);
	return addr;
}

void page_free(struct page_pool *p, u64 addr, u64 npages)
{
	u64 i;

	if (addr < p->base || addr % PAGE_SIZE)
		return;
	i = (addr - p->base) / PAGE_SIZE;
	if (i < reserved_pages(p) || i >= p->npages || npages > p->npages - i)
		return;
	p->free += mark(p, i, npages, false);
	p->hint = MIN(p->hint, i);
}
