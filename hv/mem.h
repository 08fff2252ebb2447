/* SPDX-License-Identifier: GPL-2.0-only */
/* The hypervisor's own memory: one pool of identity-mapped pages set aside before the
 * firmware hands over the machine. */
#ifndef HV_MEM_H
#define HV_MEM_H

#include "types.h"

void hv_mem_init(u64 base, u64 bytes); /* hv_: lwIP has a mem_init of its own */
/* Zeroed, page-aligned memory; never returns NULL (running out is fatal and reported). */
void *alloc_pages(u64 npages);
void *alloc_zeroed(u64 bytes);
u64 mem_free_bytes(void);

#endif
