/* SPDX-License-Identifier: GPL-2.0-only */
/* Guest page walk: see guest_walk.h. */
#include "hv/types.h"
#include "hv/lib.h"
#include "arch/x86/guest_walk.h"

#define GW_CR0_PG BIT(31)
#define GW_CR4_PSE BIT(4)
#define GW_CR4_PAE BIT(5)
#define GW_CR4_LA57 BIT(12)
#define GW_EFER_LMA BIT(10)
#define GW_EFER_NXE BIT(11)

#define GW_P BIT(0)
#define GW_PS BIT(7)
#define GW_XD BIT(63)
/* Physical-address field of PAE/long-mode entries and CR3: bits 51:12 */
#define GW_ADDR_MASK 0x000ffffffffff000ull
/* PAE PDPTE reserved bits 2:1 and 8:5 (SDM Vol. 3 Table 4-8);
 * bit 63 too, as PDPTEs have no XD bit */
#define GW_PDPTE_RSVD (BIT(63) | 0x1e6ull)

static int read_entry(gpa_read_fn read, void *ctx, u64 gpa, void *e, size_t len)
{
	return read(ctx, gpa, e, len) ? WALK_OK : WALK_BAD_GPA;
}

/*
 * Walks 8-byte entries from the table at `table`, whose entries each map
 * 2^(12 + 9 * (level - 1)) bytes: level 5 PML5, 4 PML4, 3 PDPT, 2 PD, 1 PT.
 */
static int walk64(const struct x86_paging *pg, u64 table, int level, u64 gva, gpa_read_fn read,
		  void *ctx, u64 *gpa)
{
	for (; level >= 1; level--) {
		unsigned int shift = 12 + 9 * (level - 1);
		u64 e = 0, size = BIT(shift);
		int rc;

		rc = read_entry(read, ctx, table + ((gva >> shift) & 511) * 8, &e, 8);
		if (rc)
			return rc;
		if (!(e & GW_P))
			return WALK_NOT_PRESENT;
		/* XD is reserved unless EFER.NXE (SDM Vol. 3 Tables 4-14..4-20) */
		if ((e & GW_XD) && !(pg->efer & GW_EFER_NXE))
			return WALK_RESERVED;
		if (level == 1) {
			/* bit 7 of a PTE is PAT, not PS */
			*gpa = (e & GW_ADDR_MASK) | (gva & (size - 1));
			return WALK_OK;
		}
		if (e & GW_PS) {
			/* PS is reserved in PML5Es and PML4Es (SDM Vol. 3 Tables 4-14/4-15) */
			if (level > 3)
				return WALK_RESERVED;
			/*
			 * 1 GiB / 2 MiB page: bit 12 is PAT, bits shift-1:13 are reserved
			 * (SDM Vol. 3 Tables 4-16/4-18).
			 */
			if (e & (size - 1) & ~0x1fffull)
				return WALK_RESERVED;
			*gpa = (e & GW_ADDR_MASK & ~(size - 1)) | (gva & (size - 1));
			return WALK_OK;
		}
		table = e & GW_ADDR_MASK;
	}
	return WALK_NOT_PRESENT; /* not reached: level 1 always returns */
}

/* 32-bit paging: 4-byte entries, 10+10+12 bits (SDM Vol. 3 4.3). */
static int walk32(const struct x86_paging *pg, u32 gva, gpa_read_fn read, void *ctx, u64 *gpa)
{
	u32 pde = 0, pte = 0;
	int rc;

	rc = read_entry(read, ctx, (pg->cr3 & 0xfffff000u) + (gva >> 22) * 4, &pde, 4);
	if (rc)
		return rc;
	if (!(pde & GW_P))
		return WALK_NOT_PRESENT;
	if ((pg->cr4 & GW_CR4_PSE) && (pde & GW_PS)) {
		/*
		 * 4 MiB page: PA[31:22] from bits 31:22; PSE-36/PSE-40 put PA[39:32] in
		 * bits 20:13; bit 21 is reserved (SDM Vol. 3 Table 4-4).
		 */
		if (pde & BIT(21))
			return WALK_RESERVED;
		*gpa = (pde & 0xffc00000u) | ((u64)((pde >> 13) & 0xff) << 32) | (gva & 0x3fffffu);
		return WALK_OK;
	}
	rc = read_entry(read, ctx, (pde & 0xfffff000u) + ((gva >> 12) & 1023) * 4, &pte, 4);
	if (rc)
		return rc;
	if (!(pte & GW_P))
		return WALK_NOT_PRESENT;
	*gpa = (pte & 0xfffff000u) | (gva & 0xfffu);
	return WALK_OK;
}

bool x86_pdpte_valid(u64 pdpte, u32 maxphyaddr)
{
	u64 above = maxphyaddr < 63 ? ~0ull << maxphyaddr : 0;
	return !(pdpte & GW_P) || !(pdpte & (GW_PDPTE_RSVD | above));
}

/*
 * PAE paging: CR3[31:5] points at 4 PDPTEs selected by gva[31:30] (SDM Vol. 3 4.4).
 * Intel CPUs load the PDPTEs into registers at MOV CR3 (SDM Vol. 3 4.4.1); reading them
 * from memory here differs only if the guest edits them without reloading CR3.
 */
static int walk_pae(const struct x86_paging *pg, u32 gva, gpa_read_fn read, void *ctx, u64 *gpa)
{
	u64 pdpte = 0;
	int rc;

	rc = read_entry(read, ctx, (pg->cr3 & 0xffffffe0u) + (gva >> 30) * 8, &pdpte, 8);
	if (rc)
		return rc;
	if (!(pdpte & GW_P))
		return WALK_NOT_PRESENT;
	if (!x86_pdpte_valid(pdpte, 52)) /* bits 62:52 lie above any MAXPHYADDR */
		return WALK_RESERVED;
	return walk64(pg, pdpte & GW_ADDR_MASK, 2, gva, read, ctx, gpa);
}

int x86_gva_to_gpa(const struct x86_paging *pg, u64 gva, gpa_read_fn read, void *ctx, u64 *gpa)
{
	/* Without paging the linear address is the physical one (32 bits: long mode
	 * needs paging). */
	if (!(pg->cr0 & GW_CR0_PG)) {
		*gpa = (u32)gva;
		return WALK_OK;
	}
	if (pg->efer & GW_EFER_LMA) {
		/* Bits above 47 (56 with LA57) only need to be canonical: ignored. */
		bool la57 = pg->cr4 & GW_CR4_LA57;

		return walk64(pg, pg->cr3 & GW_ADDR_MASK, la57 ? 5 : 4, gva, read, ctx, gpa);
	}
	if (pg->cr4 & GW_CR4_PAE)
		return walk_pae(pg, (u32)gva, read, ctx, gpa);
	return walk32(pg, (u32)gva, read, ctx, gpa);
}
