/* SPDX-License-Identifier: GPL-2.0-only */
/* A VM's second-level page tables (arch/x86/nested_paging.c), walked here as the CPU walks
 * them: the RAM below GPA_LOW_RAM_END at its own addresses, the rest from 4 GiB on, the
 * hole between and everything past the RAM unmapped; the vendor's bits in every entry. */
#include "../../../arch/x86/nested_paging.c"
#include "../test.h"

static u8 pool[32][PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));
static u32 pool_used;
void *alloc_pages(u64 n) /* zeroed, as the hypervisor's */
{
	CHECK(pool_used + n <= ARRAY_SIZE(pool));
	void *p = pool[pool_used];
	pool_used += (u32)n;
	return p;
}

static u64 table_bits_seen, leaf_bits_seen;

/* The host address of gpa, or 0: a 4-level walk down to a 2 MiB leaf. */
static u64 walk(const u64 *root, u64 gpa, struct nested_paging_bits bits)
{
	const u64 *table = root;
	for (int level = 3; level > 1; level--) {
		u64 e = table[(gpa >> (12 + 9 * level)) & 511];
		if (!e)
			return 0;
		CHECK_EQ(e & 0xFFF, bits.table);
		table_bits_seen++;
		table = (const u64 *)(uintptr_t)(e & ADDR_MASK);
	}
	u64 leaf = table[(gpa >> 21) & 511];
	if (!leaf)
		return 0;
	CHECK_EQ(leaf & 0xFFF, bits.leaf_2m);
	leaf_bits_seen++;
	return (leaf & ADDR_MASK) + (gpa & (2 * MiB - 1));
}

static void test_layout(struct nested_paging_bits bits)
{
	static struct vm vm;
	const u64 ram = 0x200000000ull; /* where the host put it (never touched) */
	vm.ram = (void *)(uintptr_t)ram;
	vm.ram_size = GPA_LOW_RAM_END + 4 * MiB;
	vm.hole_gpa = GPA_LOW_RAM_END;
	vm.hole_size = 4 * GiB - GPA_LOW_RAM_END;
	u64 *root = nested_paging_map_ram(&vm, bits);
	CHECK_EQ(walk(root, 0, bits), ram);
	CHECK_EQ(walk(root, 0x12345678, bits), ram + 0x12345678);
	CHECK_EQ(walk(root, GPA_LOW_RAM_END - 1, bits), ram + GPA_LOW_RAM_END - 1);
	CHECK_EQ(walk(root, GPA_LOW_RAM_END, bits), 0); /* the devices' hole */
	CHECK_EQ(walk(root, GPA_IOAPIC, bits), 0);
	CHECK_EQ(walk(root, 4 * GiB, bits), ram + GPA_LOW_RAM_END);
	CHECK_EQ(walk(root, 4 * GiB + 4 * MiB - 1, bits), ram + GPA_LOW_RAM_END + 4 * MiB - 1);
	CHECK_EQ(walk(root, 4 * GiB + 4 * MiB, bits), 0); /* past the RAM */
	CHECK(table_bits_seen && leaf_bits_seen);
}

int main(void)
{
	test_layout(NPT_BITS);
	/* EPT's shape (SDM vol. 3C, 29.3.2): read, write, execute; a leaf also with its
	 * memory type (write-back, 6 << 3) and the page-size bit. */
	test_layout((struct nested_paging_bits){ 0x7, 0x7 | 6 << 3 | BIT(7) });
	return test_summary();
}
