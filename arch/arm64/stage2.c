/* SPDX-License-Identifier: GPL-2.0-only */
/* Stage-2 translation tables (DDI 0487 D8, VMSAv8-64 stage 2): 4 KiB granule, 39-bit IPA
 * space (VTCR_EL2.T0SZ = 25) starting at level 1, 2 MiB blocks where the range allows and
 * 4 KiB pages elsewhere. Descriptor attributes (D8.5): MemAttr [5:2] (0b1111 normal
 * write-back, 0b0001 Device-nGnRE), S2AP [7:6] = read/write, SH [9:8] = inner shareable,
 * AF [10]. */
#include "arch/arm64/guest.h"
#include "hv/lib.h"
#include "hv/mem.h"

#define DESC_VALID BIT(0)
#define DESC_TABLE BIT(1) /* at levels 1-2; at level 3 bit 1 marks a page */
#define ATTR_NORMAL (0xFull << 2)
#define ATTR_DEVICE (0x1ull << 2)
#define ATTR_RW (3ull << 6)
#define ATTR_ISH (3ull << 8)
#define ATTR_AF BIT(10)
#define IPA_BITS 39
#define ADDR_MASK 0x0000FFFFFFFFF000ull

u64 *stage2_create(void) { return alloc_pages(1); }

static u64 *next_table(u64 *entry)
{
	if (!(*entry & DESC_VALID)) {
		u64 *t = alloc_pages(1);
		*entry = (u64)(uintptr_t)t | DESC_TABLE | DESC_VALID;
	}
	return (u64 *)(uintptr_t)(*entry & ADDR_MASK);
}

int stage2_map(u64 *root, u64 ipa, u64 pa, u64 len, bool device)
{
	u64 attr = (device ? ATTR_DEVICE : ATTR_NORMAL) | ATTR_RW | ATTR_ISH | ATTR_AF;
	if ((ipa | pa | len) & (PAGE_SIZE - 1) || ipa + len > BIT(IPA_BITS))
		return -1;
	while (len) {
		u64 *l2 = next_table(&root[(ipa >> 30) & 511]);
		u64 *e2 = &l2[(ipa >> 21) & 511];
		if (!((ipa | pa) & (2 * MiB - 1)) && len >= 2 * MiB && !(*e2 & DESC_VALID)) {
			*e2 = pa | attr | DESC_VALID; /* block */
			ipa += 2 * MiB, pa += 2 * MiB, len -= 2 * MiB;
			continue;
		}
		u64 *l3 = next_table(e2);
		l3[(ipa >> 12) & 511] = pa | attr | DESC_TABLE | DESC_VALID;
		ipa += PAGE_SIZE, pa += PAGE_SIZE, len -= PAGE_SIZE;
	}
	return 0;
}
