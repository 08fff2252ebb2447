/* SPDX-License-Identifier: GPL-2.0-only */
#include "mem.h"
#include "arch.h"
#include "printk.h"
#include "page_alloc.h"
#include "spinlock.h"
#include "on_exit.h"

static struct page_pool pool;
static struct spinlock lock;

void hv_mem_init(u64 base, u64 bytes) { page_pool_init(&pool, base, bytes); }

void *alloc_pages(u64 npages)
{
	spin_lock(&lock);
	u64 pa = page_alloc(&pool, npages, 1);
	spin_unlock(&lock);
	if (!pa) {
		printk("hv: FATAL: out of hypervisor memory (%llu pages wanted, %llu free)\n",
		       (unsigned long long)npages, (unsigned long long)pool.free);
		hv_exit();
	}
	return (void *)(uintptr_t)pa;
}

void *alloc_zeroed(u64 bytes) { return alloc_pages((bytes + PAGE_SIZE - 1) / PAGE_SIZE); }

u64 mem_free_bytes(void) { return pool.free * PAGE_SIZE; }
