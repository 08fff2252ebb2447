/* SPDX-License-Identifier: GPL-2.0-only */
/* A VM's second-level page tables (nested_paging.h). */
#include "arch/x86/nested_paging.h"
#include "arch/x86/guest.h"
#include "hv/mem.h"

#define ADDR_MASK 0x000FFFFFFFFFF000ull /* bits 51:12 of an entry */

static void map_2m(u64 *root, u64 gpa, u64 hpa, struct nested_paging_bits bits)
{
	u64 *table = root;
	for (int level = 3; level > 1; level--) {
		u64 *e = &table[(gpa >> (12 + 9 * level)) & 511];
		if (!*e)
			*e = (u64)(uintptr_t)alloc_pages(1) | bits.table;
		table = (u64 *)(uintptr_t)(*e & ADDR_MASK);
	}
	table[(gpa >> 21) & 511] = hpa | bits.leaf_2m;
}

u64 *nested_paging_map_ram(struct vm *vm, struct nested_paging_bits bits)
{
	u64 *root = alloc_pages(1);
	for (u64 off = 0; off < vm->ram_size; off += 2 * MiB)
		map_2m(root, off < x86_low_ram_end(vm) ? off : off + vm->hole_size,
		       (u64)(uintptr_t)vm->ram + off, bits);
	return root;
}
