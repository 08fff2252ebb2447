/* SPDX-License-Identifier: GPL-2.0-only */
/* Allocator of 4 KiB pages from one contiguous, identity-mapped region. One bit per
 * page (1 = used) in a bitmap kept in the region's first pages, or supplied by the
 * caller. Allocation is first fit (lowest address), starting from a hint.
 *
 * Not thread-safe: callers serialize access to a pool (e.g. with a spinlock). */
#ifndef HV_PAGE_ALLOC_H
#define HV_PAGE_ALLOC_H

#include "hv/types.h"

struct page_pool {
	u64 base;   /* physical (= virtual) address of page 0 */
	u64 npages; /* pages in the region, including the bitmap's */
	u64 *bitmap;
	u64 free; /* free pages */
	u64 hint; /* page index where the next search starts */
};

/* Bytes of bitmap needed for a region of the given size (a multiple of 8). */
u64 page_pool_bitmap_bytes(u64 bytes);

/* Sets up a pool over [base, base + bytes), base non-zero. The bitmap is carved
 * from the start of the region and marked used. An unaligned base is rounded up
 * and a partial last page ignored. */
void page_pool_init(struct page_pool *p, u64 base, u64 bytes);

/* Same, with the bitmap (page_pool_bitmap_bytes(bytes) bytes) outside the region,
 * so that every page of the region is available. */
void page_pool_init_bitmap(struct page_pool *p, u64 base, u64 bytes, u64 *bitmap);

/* Returns the address of npages zeroed, contiguous pages whose address is a
 * multiple of align_pages pages (a power of two; 0 means 1), or 0 when there is
 * no such run or the arguments are invalid. */
u64 page_alloc(struct page_pool *p, u64 npages, u64 align_pages);

/* Returns npages pages at addr to the pool. Ranges outside the pool or covering
 * the bitmap are ignored; pages already free are not counted twice. */
void page_free(struct page_pool *p, u64 addr, u64 npages);

#endif
