/* SPDX-License-Identifier: GPL-2.0-only */
/* Guest page walk: page tables built in a fake guest memory, every paging mode and
 * page size, not-present at every level, reserved bits and callback failures. */
#include "../../../arch/x86/guest_walk.c"
#include "../test.h"

#define MEM_SIZE (256 * 1024)

static u8 mem[MEM_SIZE];

struct fake {
	int reads;   /* reads so far */
	int fail_at; /* fail the read with this number (1-based); 0: never */
};

static bool fake_read(void *ctx, u64 gpa, void *buf, size_t len)
{
	struct fake *f = ctx;

	f->reads++;
	if (f->fail_at == f->reads)
		return false;
	if (gpa >= MEM_SIZE || len > MEM_SIZE - gpa)
		return false;
	memcpy(buf, mem + gpa, len);
	return true;
}

static void put64(u64 gpa, u64 v) { memcpy(mem + gpa, &v, 8); }

static void put32(u64 gpa, u32 v) { memcpy(mem + gpa, &v, 4); }

/* Index of va in a table at `level` (1 PT .. 5 PML5) of PAE/long-mode paging. */
static u64 idx(u64 va, int level) { return (va >> (12 + 9 * (level - 1))) & 511; }

#define P BIT(0)
#define RW BIT(1)
#define US BIT(2)
#define PS BIT(7)
#define NX BIT(63)

#define CR0_PE BIT(0)
#define CR0_PG BIT(31)
#define CR4_PSE BIT(4)
#define CR4_PAE BIT(5)
#define CR4_LA57 BIT(12)
#define EFER_LME BIT(8)
#define EFER_LMA BIT(10)
#define EFER_NXE BIT(11)

static struct fake f;
static u64 out;

/* Walk with a fresh fake; the result is in `out`, the number of reads in f.reads. */
static int walk(const struct x86_paging *pg, u64 gva)
{
	f.reads = 0;
	out = 0xdead;
	return x86_gva_to_gpa(pg, gva, fake_read, &f, &out);
}

static void test_no_paging(void)
{
	struct x86_paging pg = { .cr0 = CR0_PE, .cr3 = 0x1000 };

	memset(mem, 0, sizeof(mem));
	CHECK_EQ(walk(&pg, 0x12345678), WALK_OK);
	CHECK_EQ(out, 0x12345678);
	CHECK_EQ(f.reads, 0);
	/* the linear address is 32 bits */
	CHECK_EQ(walk(&pg, 0x100000fff0ull), WALK_OK);
	CHECK_EQ(out, 0xfff0);
	/* real mode (PE=0) too; PG=0 wins over PAE/LMA bits */
	pg.cr0 = 0;
	pg.cr4 = CR4_PAE;
	CHECK_EQ(walk(&pg, 0xffff0), WALK_OK);
	CHECK_EQ(out, 0xffff0);
}

static void test_32bit(void)
{
	struct x86_paging pg = { .cr0 = CR0_PE | CR0_PG, .cr3 = 0x1000 };

	memset(mem, 0, sizeof(mem));
	/* 0x12345678: PD index 0x48, PT index 0x345 */
	put32(0x1000 + 0x48 * 4, 0x2000 | P | RW);
	put32(0x2000 + 0x345 * 4, 0xabcde000 | P | RW | US);
	CHECK_EQ(walk(&pg, 0x12345678), WALK_OK);
	CHECK_EQ(out, 0xabcde678);
	CHECK_EQ(f.reads, 2);
	/* bits 63:32 of the gva and the flag bits of CR3 are ignored */
	pg.cr3 = 0x1018;
	CHECK_EQ(walk(&pg, 0xffffffff12345678ull), WALK_OK);
	CHECK_EQ(out, 0xabcde678);
	/* the neighbouring pages are not mapped: PTE and PDE not present */
	CHECK_EQ(walk(&pg, 0x12346678), WALK_NOT_PRESENT);
	CHECK_EQ(f.reads, 2);
	CHECK_EQ(walk(&pg, 0x12745678), WALK_NOT_PRESENT);
	CHECK_EQ(f.reads, 1);

	/* 4 MiB page at 0x5_12c00000 (PSE-36: PA[39:32] in PDE bits 20:13) for 0x80400000 */
	put32(0x1000 + 0x201 * 4, 0x12c00000 | (0x05 << 13) | PS | P);
	pg.cr4 = CR4_PSE;
	CHECK_EQ(walk(&pg, 0x80400123), WALK_OK);
	CHECK_EQ(out, 0x512c00123ull);
	CHECK_EQ(f.reads, 1);
	CHECK_EQ(walk(&pg, 0x807fffff), WALK_OK);
	CHECK_EQ(out, 0x512ffffffull);
	/* the 4 KiB mapping still works with PSE on */
	CHECK_EQ(walk(&pg, 0x12345678), WALK_OK);
	CHECK_EQ(out, 0xabcde678);
	/* without CR4.PSE, PS is ignored: the PDE points at a PT at 0x12c0a000, outside RAM */
	pg.cr4 = 0;
	CHECK_EQ(walk(&pg, 0x80400123), WALK_BAD_GPA);
	/* bit 21 of a 4 MiB PDE is reserved */
	pg.cr4 = CR4_PSE;
	put32(0x1000 + 0x201 * 4, 0x12c00000 | BIT(21) | PS | P);
	CHECK_EQ(walk(&pg, 0x80400123), WALK_RESERVED);
	/* reserved bits do not matter when P=0 */
	put32(0x1000 + 0x201 * 4, 0x12c00000 | BIT(21) | PS);
	CHECK_EQ(walk(&pg, 0x80400123), WALK_NOT_PRESENT);

	/* callback failures: CR3 outside RAM, PT outside RAM, failing each read */
	pg.cr3 = 0x7f000000;
	CHECK_EQ(walk(&pg, 0x12345678), WALK_BAD_GPA);
	pg.cr3 = 0x1000;
	put32(0x1000 + 0x48 * 4, 0x7f000000 | P);
	CHECK_EQ(walk(&pg, 0x12345678), WALK_BAD_GPA);
	put32(0x1000 + 0x48 * 4, 0x2000 | P);
	for (f.fail_at = 1; f.fail_at <= 2; f.fail_at++)
		CHECK_EQ(walk(&pg, 0x12345678), WALK_BAD_GPA);
	f.fail_at = 0;
	CHECK_EQ(walk(&pg, 0x12345678), WALK_OK);
}

static void test_pae(void)
{
	/* CR3 only needs 32-byte alignment in PAE mode */
	struct x86_paging pg = { .cr0 = CR0_PE | CR0_PG, .cr3 = 0x3020, .cr4 = CR4_PAE };
	const u64 va = 0xc0201234, va2m = 0xc0412345;

	memset(mem, 0, sizeof(mem));
	/* 0xc0201234: PDPT index 3, PD index 1, PT index 1 */
	put64(0x3020 + 3 * 8, 0x4000 | P);
	put64(0x4000 + 1 * 8, 0x5000 | P | RW);
	put64(0x5000 + 1 * 8, 0x123456000ull | P | RW);
	CHECK_EQ(walk(&pg, va), WALK_OK);
	CHECK_EQ(out, 0x123456234ull);
	CHECK_EQ(f.reads, 3);
	/* bits 63:32 of the gva are ignored; so is CR4.LA57 without long mode */
	pg.cr4 |= CR4_LA57;
	CHECK_EQ(walk(&pg, 0xabcd000000000000ull | va), WALK_OK);
	CHECK_EQ(out, 0x123456234ull);
	pg.cr4 &= ~CR4_LA57;

	/* 2 MiB page at 0x7fe00000 for 0xc0400000 (PD index 2); bit 12 (PAT) is allowed */
	put64(0x4000 + 2 * 8, 0x7fe00000 | BIT(12) | PS | P);
	CHECK_EQ(walk(&pg, va2m), WALK_OK);
	CHECK_EQ(out, 0x7fe12345);
	CHECK_EQ(f.reads, 2);
	/* bits 20:13 of a 2 MiB PDE are reserved */
	put64(0x4000 + 2 * 8, 0x7fe00000 | BIT(13) | PS | P);
	CHECK_EQ(walk(&pg, va2m), WALK_RESERVED);
	put64(0x4000 + 2 * 8, 0x7fe00000 | BIT(20) | PS | P);
	CHECK_EQ(walk(&pg, va2m), WALK_RESERVED);
	put64(0x4000 + 2 * 8, 0x7fe00000 | PS | P);

	/* not present at each level */
	CHECK_EQ(walk(&pg, 0x00201234), WALK_NOT_PRESENT); /* PDPTE 0 */
	CHECK_EQ(f.reads, 1);
	CHECK_EQ(walk(&pg, 0xc0601234), WALK_NOT_PRESENT); /* PDE 3 */
	CHECK_EQ(f.reads, 2);
	CHECK_EQ(walk(&pg, 0xc0202234), WALK_NOT_PRESENT); /* PTE 2 */
	CHECK_EQ(f.reads, 3);

	/* NX needs EFER.NXE, else it is a reserved bit */
	put64(0x5000 + 1 * 8, NX | 0x123456000ull | P);
	CHECK_EQ(walk(&pg, va), WALK_RESERVED);
	pg.efer = EFER_NXE;
	CHECK_EQ(walk(&pg, va), WALK_OK);
	CHECK_EQ(out, 0x123456234ull);

	/* PDPTE reserved bits (RW, PS, ...) and NX, even with NXE */
	put64(0x3020 + 3 * 8, 0x4000 | RW | P);
	CHECK_EQ(walk(&pg, va), WALK_RESERVED);
	put64(0x3020 + 3 * 8, 0x4000 | PS | P);
	CHECK_EQ(walk(&pg, va), WALK_RESERVED);
	put64(0x3020 + 3 * 8, 0x4000 | NX | P);
	CHECK_EQ(walk(&pg, va), WALK_RESERVED);
	/* PWT/PCD and the ignored bits 11:9 are fine */
	put64(0x3020 + 3 * 8, 0x4000 | 0xe18 | P);
	CHECK_EQ(walk(&pg, va), WALK_OK);

	/* callback failures */
	for (f.fail_at = 1; f.fail_at <= 3; f.fail_at++)
		CHECK_EQ(walk(&pg, va), WALK_BAD_GPA);
	f.fail_at = 0;
	put64(0x4000 + 1 * 8, 0x100000000ull | P);
	CHECK_EQ(walk(&pg, va), WALK_BAD_GPA);
	/* in PAE mode CR3 is 32 bits: 0x1_0000_3020 means 0x3020 */
	put64(0x4000 + 1 * 8, 0x5000 | P);
	pg.cr3 = 0x100003020ull;
	CHECK_EQ(walk(&pg, va), WALK_OK);
}

static void test_long4(void)
{
	struct x86_paging pg = {
		.cr0 = CR0_PE | CR0_PG,
		.cr3 = 0x6000,
		.cr4 = CR4_PAE,
		.efer = EFER_LME | EFER_LMA | EFER_NXE,
	};
	/* Linux's kernel text: PML4 511, PDPT 510, PD 8, PT 0 */
	const u64 ktext = 0xffffffff81000abcull;
	const u64 va = 0x00007f123456789aull, va2m = 0x00007f1234a5678aull;
	const u64 va1g = 0x00007f1300000000ull + 0x2345678;

	memset(mem, 0, sizeof(mem));
	CHECK_EQ(idx(ktext, 4), 511);
	CHECK_EQ(idx(ktext, 3), 510);
	CHECK_EQ(idx(ktext, 2), 8);
	CHECK_EQ(idx(ktext, 1), 0);
	put64(0x6000 + 511 * 8, 0x7000 | P | RW);
	put64(0x7000 + 510 * 8, 0x8000 | P | RW);
	put64(0x8000 + 8 * 8, 0x9000 | P | RW);
	put64(0x9000 + 0 * 8, 0x1000000 | P | NX);
	CHECK_EQ(walk(&pg, ktext), WALK_OK);
	CHECK_EQ(out, 0x1000abc);
	CHECK_EQ(f.reads, 4);
	/* PCID bits of CR3 are ignored */
	pg.cr3 = 0x6000 | 0x123;
	CHECK_EQ(walk(&pg, ktext), WALK_OK);
	CHECK_EQ(out, 0x1000abc);
	pg.cr3 = 0x6000;

	/* a user address with tables at different indexes, mapping above 4 GiB */
	put64(0x6000 + idx(va, 4) * 8, 0xa000 | P);
	put64(0xa000 + idx(va, 3) * 8, 0xb000 | P);
	put64(0xb000 + idx(va, 2) * 8, 0xc000 | P);
	put64(0xc000 + idx(va, 1) * 8, 0xfedcba987000ull | P);
	CHECK_EQ(walk(&pg, va), WALK_OK);
	CHECK_EQ(out, 0xfedcba98789aull);
	/* bit 7 of a PTE is PAT, not PS */
	put64(0xc000 + idx(va, 1) * 8, 0xfedcba987000ull | PS | P);
	CHECK_EQ(walk(&pg, va), WALK_OK);
	CHECK_EQ(out, 0xfedcba98789aull);
	/* the top bits of an entry (available, protection key, NX) are not address */
	put64(0xc000 + idx(va, 1) * 8, 0x7ff0000000000000ull | 0xfedcba987000ull | P);
	CHECK_EQ(walk(&pg, va), WALK_OK);
	CHECK_EQ(out, 0xfedcba98789aull);

	/* 2 MiB page: same PML4/PDPT, another PD entry */
	CHECK_EQ(idx(va2m, 3), idx(va, 3));
	CHECK(idx(va2m, 2) != idx(va, 2));
	put64(0xb000 + idx(va2m, 2) * 8, 0x3fe00000ull | PS | P);
	CHECK_EQ(walk(&pg, va2m), WALK_OK);
	CHECK_EQ(out, 0x3fe00000ull | (va2m & 0x1fffff));
	CHECK_EQ(f.reads, 3);
	put64(0xb000 + idx(va2m, 2) * 8, 0x3fe00000ull | BIT(16) | PS | P);
	CHECK_EQ(walk(&pg, va2m), WALK_RESERVED);

	/* 1 GiB page at 0x40_c0000000 */
	CHECK_EQ(idx(va1g, 4), idx(va, 4));
	put64(0xa000 + idx(va1g, 3) * 8, 0x40c0000000ull | BIT(12) | PS | P);
	CHECK_EQ(walk(&pg, va1g), WALK_OK);
	CHECK_EQ(out, 0x40c2345678ull);
	CHECK_EQ(f.reads, 2);
	/* bits 29:13 of a 1 GiB PDPTE are reserved */
	put64(0xa000 + idx(va1g, 3) * 8, 0x40c0000000ull | BIT(29) | PS | P);
	CHECK_EQ(walk(&pg, va1g), WALK_RESERVED);
	put64(0xa000 + idx(va1g, 3) * 8, 0x40c0000000ull | BIT(21) | PS | P);
	CHECK_EQ(walk(&pg, va1g), WALK_RESERVED);
	put64(0xa000 + idx(va1g, 3) * 8, 0x40c0000000ull | PS | P);

	/* PS in a PML4E is reserved */
	put64(0x6000 + idx(va, 4) * 8, 0xa000 | PS | P);
	CHECK_EQ(walk(&pg, va), WALK_RESERVED);
	put64(0x6000 + idx(va, 4) * 8, 0xa000 | P);

	/* NX without EFER.NXE is reserved at any level */
	pg.efer &= ~EFER_NXE;
	CHECK_EQ(walk(&pg, ktext), WALK_RESERVED);
	put64(0x6000 + idx(va, 4) * 8, 0xa000 | NX | P);
	CHECK_EQ(walk(&pg, va), WALK_RESERVED);
	pg.efer |= EFER_NXE;
	CHECK_EQ(walk(&pg, va), WALK_OK);

	/* not present at every level */
	put64(0xc000 + idx(va, 1) * 8, 0xfedcba987000ull);
	CHECK_EQ(walk(&pg, va), WALK_NOT_PRESENT);
	CHECK_EQ(f.reads, 4);
	put64(0xb000 + idx(va, 2) * 8, 0xc000);
	CHECK_EQ(walk(&pg, va), WALK_NOT_PRESENT);
	CHECK_EQ(f.reads, 3);
	put64(0xa000 + idx(va, 3) * 8, 0xb000);
	CHECK_EQ(walk(&pg, va), WALK_NOT_PRESENT);
	CHECK_EQ(f.reads, 2);
	put64(0x6000 + idx(va, 4) * 8, 0xa000);
	CHECK_EQ(walk(&pg, va), WALK_NOT_PRESENT);
	CHECK_EQ(f.reads, 1);
	/* ... with everything else intact, the kernel mapping still works */
	CHECK_EQ(walk(&pg, ktext), WALK_OK);

	/* callback failures at each level, and tables outside RAM */
	for (f.fail_at = 1; f.fail_at <= 4; f.fail_at++)
		CHECK_EQ(walk(&pg, ktext), WALK_BAD_GPA);
	f.fail_at = 0;
	put64(0x8000 + 8 * 8, 0x80000000ull | P);
	CHECK_EQ(walk(&pg, ktext), WALK_BAD_GPA);
	put64(0x8000 + 8 * 8, 0x9000 | P);
	pg.cr3 = 0x10000000;
	CHECK_EQ(walk(&pg, ktext), WALK_BAD_GPA);
	CHECK_EQ(f.reads, 1);
}

static void test_long5(void)
{
	struct x86_paging pg = {
		.cr0 = CR0_PE | CR0_PG,
		.cr3 = 0x10000,
		.cr4 = CR4_PAE | CR4_LA57,
		.efer = EFER_LME | EFER_LMA,
	};
	const u64 va = 0xff23456789abcdefull;

	memset(mem, 0, sizeof(mem));
	CHECK_EQ(idx(va, 5), 0x123);
	put64(0x10000 + idx(va, 5) * 8, 0x11000 | P);
	put64(0x11000 + idx(va, 4) * 8, 0x12000 | P);
	put64(0x12000 + idx(va, 3) * 8, 0x13000 | P);
	put64(0x13000 + idx(va, 2) * 8, 0x14000 | P);
	put64(0x14000 + idx(va, 1) * 8, 0x55555000 | P);
	CHECK_EQ(walk(&pg, va), WALK_OK);
	CHECK_EQ(out, 0x55555def);
	CHECK_EQ(f.reads, 5);

	/* without LA57 the same CR3 is a PML4: index idx(va, 4) there is empty */
	pg.cr4 &= ~CR4_LA57;
	CHECK_EQ(walk(&pg, va), WALK_NOT_PRESENT);
	CHECK_EQ(f.reads, 1);
	pg.cr4 |= CR4_LA57;

	/* 1 GiB and 2 MiB pages below a PML5 */
	put64(0x12000 + idx(va, 3) * 8, 0x80000000ull | PS | P);
	CHECK_EQ(walk(&pg, va), WALK_OK);
	CHECK_EQ(out, 0x80000000ull | (va & (GiB - 1)));
	CHECK_EQ(f.reads, 3);
	put64(0x12000 + idx(va, 3) * 8, 0x13000 | P);
	put64(0x13000 + idx(va, 2) * 8, 0x200000 | PS | P);
	CHECK_EQ(walk(&pg, va), WALK_OK);
	CHECK_EQ(out, 0x200000 | (va & (2 * MiB - 1)));
	CHECK_EQ(f.reads, 4);
	put64(0x13000 + idx(va, 2) * 8, 0x14000 | P);

	/* PS in a PML5E is reserved; PML5E not present */
	put64(0x10000 + idx(va, 5) * 8, 0x11000 | PS | P);
	CHECK_EQ(walk(&pg, va), WALK_RESERVED);
	put64(0x10000 + idx(va, 5) * 8, 0x11000);
	CHECK_EQ(walk(&pg, va), WALK_NOT_PRESENT);
	CHECK_EQ(f.reads, 1);
	put64(0x10000 + idx(va, 5) * 8, 0x11000 | P);

	for (f.fail_at = 1; f.fail_at <= 5; f.fail_at++)
		CHECK_EQ(walk(&pg, va), WALK_BAD_GPA);
	f.fail_at = 0;
	CHECK_EQ(walk(&pg, va), WALK_OK);
	CHECK_EQ(out, 0x55555def);
}

int main(void)
{
	test_no_paging();
	test_32bit();
	test_pae();
	test_long4();
	test_long5();
	return test_summary();
}
