/* SPDX-License-Identifier: GPL-2.0-only */
/* A guest access that crosses a page boundary (arch/x86/split_access.c): where it is
 * split, and each part done where the guest's page tables put it (guest RAM, a device
 * on the real MMIO bus, or no device: all-ones and counted), in both orders, with the
 * real guest page walk; a part that does not translate stops the whole access. */
#include "../../../arch/x86/split_access.c"
#include "../../../arch/x86/guest_walk.c"
#include "../../../hv/iobus.c"
#include "../test.h"

void printk(const char *fmt, ...) { (void)fmt; }

#define RAM_SIZE 0x10000ull
#define DEV_GPA 0x10000ull  /* a device page right after the RAM */
#define NONE_GPA 0x30000ull /* nothing there */

static u8 ram[RAM_SIZE] __attribute__((aligned(4096)));
static struct vm vm;

/* The device: a page of bytes behind the bus, and what was done to it. */
static u8 dev_mem[PAGE_SIZE];
static int dev_accesses;
static u64 dev_off;
static unsigned dev_size;

static u64 dev_read(void *opaque, u64 off, unsigned size)
{
	u64 v = 0;
	(void)opaque;
	dev_accesses++, dev_off = off, dev_size = size;
	memcpy(&v, dev_mem + off, size);
	return v;
}

static void dev_write(void *opaque, u64 off, unsigned size, u64 v)
{
	(void)opaque;
	dev_accesses++, dev_off = off, dev_size = size;
	memcpy(dev_mem + off, &v, size);
}

static void machine(void)
{
	memset(&vm, 0, sizeof vm);
	memset(ram, 0xa5, sizeof ram);
	for (unsigned i = 0; i < PAGE_SIZE; i++)
		dev_mem[i] = (u8)i;
	dev_accesses = 0;
	vm.ram = ram;
	vm.ram_size = RAM_SIZE;
	iobus_register(&vm.bus, &(struct io_region){ IO_MMIO, DEV_GPA, PAGE_SIZE, dev_read,
						     dev_write, NULL, NULL });
}

static bool read_ram(void *ctx, u64 gpa, void *buf, size_t len)
{
	void *p = gpa_to_hva(ctx, gpa, len);
	if (p)
		memcpy(buf, p, len);
	return p != NULL;
}

static struct x86_access_part part[2];
static u64 fault_la;

/* The access of size bytes at la, in 64-bit mode with paging pg. */
static int access(const struct x86_paging *pg, u64 la, unsigned size, bool write, u64 *value)
{
	unsigned n = x86_split_at_page(la, size, 64, part);
	fault_la = 0;
	return x86_access_parts(&vm, pg, read_ram, part, n, write, value, &fault_la);
}

#define CHECK_PART(p, la_, offset_, len_)      \
	do {                                   \
		CHECK_EQ((p).la, la_);         \
		CHECK_EQ((p).offset, offset_); \
		CHECK_EQ((p).len, len_);       \
	} while (0)

static void test_split_at_page(void)
{
	CHECK_EQ(x86_split_at_page(0x1ff8, 8, 64, part), 1);
	CHECK_PART(part[0], 0x1ff8, 0, 8);
	CHECK_EQ(x86_split_at_page(0x1fff, 1, 64, part), 1);
	CHECK_EQ(x86_split_at_page(0x1ffc, 8, 64, part), 2);
	CHECK_PART(part[0], 0x1ffc, 0, 4);
	CHECK_PART(part[1], 0x2000, 4, 4);
	CHECK_EQ(x86_split_at_page(0x1ff9, 8, 64, part), 2);
	CHECK_PART(part[0], 0x1ff9, 0, 7);
	CHECK_PART(part[1], 0x2000, 7, 1);
	CHECK_EQ(x86_split_at_page(0x7fff, 2, 16, part), 2);
	CHECK_PART(part[0], 0x7fff, 0, 1);
	CHECK_PART(part[1], 0x8000, 1, 1);
	/* the linear address wraps at 4 GiB outside 64-bit mode */
	CHECK_EQ(x86_split_at_page(0xfffffffe, 4, 32, part), 2);
	CHECK_PART(part[1], 0, 2, 2);
	CHECK_EQ(x86_split_at_page(0xfffffffe, 4, 64, part), 2);
	CHECK_PART(part[1], 0x100000000, 2, 2);
}

/* Without paging: RAM up to DEV_GPA, the device page after it, nothing after that. */
static void test_ram_then_mmio(void)
{
	const struct x86_paging flat = { 0 };
	u64 v = 0;

	machine();
	CHECK_EQ(access(&flat, DEV_GPA - 4, 8, false, &v), WALK_OK);
	CHECK_EQ(v, 0x03020100a5a5a5a5ull); /* RAM half, then the device's first 4 bytes */
	CHECK_EQ(dev_accesses, 1);
	CHECK_EQ(dev_off, 0);
	CHECK_EQ(dev_size, 4);

	v = 0x8877665544332211ull;
	CHECK_EQ(access(&flat, DEV_GPA - 3, 8, true, &v), WALK_OK);
	CHECK_EQ(memcmp(ram + RAM_SIZE - 4, "\xa5\x11\x22\x33", 4), 0);
	CHECK_EQ(memcmp(dev_mem, "\x44\x55\x66\x77\x88\x05", 6), 0);
	CHECK_EQ(dev_size, 5);
	CHECK_EQ(vm.bus.unclaimed, 0);

	/* the device's last 2 bytes and 2 where nothing is: two bus accesses, one counted */
	v = 0;
	CHECK_EQ(access(&flat, DEV_GPA + PAGE_SIZE - 2, 4, false, &v), WALK_OK);
	CHECK_EQ(v, 0xfffffffeull);
	CHECK_EQ(dev_accesses, 3);
	CHECK_EQ(vm.bus.unclaimed, 1);
	/* and within RAM it is just memory */
	v = 0x1122;
	CHECK_EQ(access(&flat, 0x0fff, 2, true, &v), WALK_OK);
	CHECK_EQ(ram[0xfff], 0x22);
	CHECK_EQ(ram[0x1000], 0x11);
	CHECK_EQ(dev_accesses, 3);
}

#define PTE_P BIT(0)
#define PTE_RW BIT(1)
#define PTE_XD BIT(63) /* reserved without EFER.NXE */
#define VA 0x400000ull

static void put64(u64 gpa, u64 v) { memcpy(ram + gpa, &v, 8); }

/* 4-level paging, tables at 0x1000-0x4fff: VA -> the device page, VA + 0x1000 -> RAM at
 * 0x8000 (the reverse of their physical order), VA + 0x2000 not present, VA + 0x3000 ->
 * nothing, VA + 0x4000 -> RAM at 0x9000 with a reserved bit, VA + 0x1ff000 -> RAM at
 * 0xa000, and the page table for VA + 0x200000 where there is no RAM. */
static struct x86_paging long_paging(void)
{
	memset(ram + 0x1000, 0, 0x4000);
	put64(0x1000, 0x2000 | PTE_P | PTE_RW);
	put64(0x2000, 0x3000 | PTE_P | PTE_RW);
	put64(0x3000 + 2 * 8, 0x4000 | PTE_P | PTE_RW); /* VA is in the PD's entry 2 */
	put64(0x4000, DEV_GPA | PTE_P | PTE_RW);
	put64(0x4008, 0x8000 | PTE_P | PTE_RW);
	put64(0x4010, 0);
	put64(0x4018, NONE_GPA | PTE_P | PTE_RW);
	put64(0x4020, 0x9000 | PTE_P | PTE_RW | PTE_XD);
	put64(0x4000 + 511 * 8, 0xa000 | PTE_P | PTE_RW);
	put64(0x3000 + 3 * 8, NONE_GPA | PTE_P | PTE_RW);
	return (struct x86_paging){
		.cr0 = BIT(31) | BIT(0), .cr3 = 0x1000, .cr4 = BIT(5), .efer = BIT(8) | BIT(10)
	};
}

static void test_mmio_then_ram(void)
{
	machine();
	struct x86_paging pg = long_paging();
	u64 v = 0;

	ram[0x8000] = 0x11, ram[0x8001] = 0x22;
	CHECK_EQ(access(&pg, VA + PAGE_SIZE - 6, 8, false, &v), WALK_OK);
	CHECK_EQ(v, 0x2211fffefdfcfbfaull);
	CHECK_EQ(dev_off, PAGE_SIZE - 6);
	CHECK_EQ(dev_size, 6);

	v = 0x0123456789abcdefull;
	CHECK_EQ(access(&pg, VA + PAGE_SIZE - 1, 8, true, &v), WALK_OK);
	CHECK_EQ(dev_mem[PAGE_SIZE - 1], 0xef);
	CHECK_EQ(memcmp(ram + 0x8000, "\xcd\xab\x89\x67\x45\x23\x01\xa5", 8), 0);
	CHECK_EQ(vm.bus.unclaimed, 0);
}

/* A part that does not translate: the guest's #PF at that part, nothing done at all. */
static void test_fault(void)
{
	machine();
	struct x86_paging pg = long_paging();
	u64 v = 0x0123456789abcdefull;

	CHECK_EQ(access(&pg, VA + 2 * PAGE_SIZE - 4, 8, true, &v), WALK_NOT_PRESENT);
	CHECK_EQ(fault_la, VA + 2 * PAGE_SIZE);
	CHECK_EQ(ram[0x8ffc], 0xa5);
	CHECK_EQ(access(&pg, VA + 2 * PAGE_SIZE - 4, 8, false, &v), WALK_NOT_PRESENT);
	CHECK_EQ(access(&pg, VA + 5 * PAGE_SIZE - 4, 8, false, &v), WALK_RESERVED);
	CHECK_EQ(fault_la, VA + 5 * PAGE_SIZE - 4);
	/* the MMIO part comes first: it is not made either */
	CHECK_EQ(access(&pg, VA + 4 * PAGE_SIZE - 4, 8, true, &v), WALK_RESERVED);
	CHECK_EQ(fault_la, VA + 4 * PAGE_SIZE);
	CHECK_EQ(dev_accesses, 0);
	CHECK_EQ(vm.bus.unclaimed, 0);
	/* a page table where there is no RAM */
	CHECK_EQ(access(&pg, VA + 0x200000 - 4, 8, true, &v), WALK_BAD_GPA);
	CHECK_EQ(fault_la, VA + 0x200000);
	CHECK_EQ(ram[0xaffc], 0xa5);
}

int main(void)
{
	test_split_at_page();
	test_ram_then_mmio();
	test_mmio_then_ram();
	test_fault();
	return test_summary();
}
