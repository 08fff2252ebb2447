/* SPDX-License-Identifier: GPL-2.0-only */
/* The hardware side of vsysreg.h: the trap configuration (MDCR_EL2, the HCR_EL2 bits) and
 * a vCPU's breakpoints, watchpoints, OS lock and DISR_EL1 in the pCPU's registers.
 *
 * Invariant: while the vCPU loaded on a pCPU has no breakpoint or watchpoint enabled
 * (hw_armed false), every DBGBCR/DBGWCR<n>_EL1 of that pCPU is 0 (disabled); their value
 * registers may hold anything, since every guest read of them traps. A vCPU that enables
 * one gets all of its own loaded first (a linked breakpoint may refer to another), and
 * they are disabled again when it is put. So a breakpoint fires only in the vCPU that set
 * it, and only the first arming and each switch of an armed vCPU cost more than a trap. */
#include "arch/arm64/vsysreg.h"
#include "arch/cpu.h"

#define MDCR_EL2 mdcr_el2
#define OSLAR_EL1 S2_0_C1_C0_4
#define PMCR_EL0 S3_3_C9_C12_0
#define VDISR_EL2 S3_4_C12_C1_1

/* DBGBVR<n>_EL1 (op2 4), DBGBCR (5), DBGWVR (6), DBGWCR (7). */
/* clang-format off */
#define WB_CASE(n, op2) case (n) * 4 + (op2) - 4: write_sysreg(S2_0_C0_C##n##_##op2, v); break;
#define WB_ROW(n) WB_CASE(n, 4) WB_CASE(n, 5) WB_CASE(n, 6) WB_CASE(n, 7)
static void wb_write(u32 n, u32 op2, u64 v)
{
	switch (n * 4 + op2 - 4) {
		WB_ROW(0) WB_ROW(1) WB_ROW(2) WB_ROW(3) WB_ROW(4) WB_ROW(5) WB_ROW(6)
		WB_ROW(7) WB_ROW(8) WB_ROW(9) WB_ROW(10) WB_ROW(11) WB_ROW(12) WB_ROW(13)
		WB_ROW(14) WB_ROW(15)
	}
}
/* clang-format on */

static void disable_all(u32 nbrps, u32 nwrps)
{
	for (u32 i = 0; i < nbrps; i++)
		wb_write(i, 5, 0);
	for (u32 i = 0; i < nwrps; i++)
		wb_write(i, 7, 0);
}

static void load_all(const struct vsysreg *s)
{
	for (u32 i = 0; i < s->nbrps; i++) {
		wb_write(i, 4, s->bvr[i]);
		wb_write(i, 5, s->bcr[i]);
	}
	for (u32 i = 0; i < s->nwrps; i++) {
		wb_write(i, 6, s->wvr[i]);
		wb_write(i, 7, s->wcr[i]);
	}
}

/* FEAT_RAS: DISR_EL1 of a guest (HCR_EL2.AMO set) is VDISR_EL2, switched with the vCPU. */
static bool has_ras(void)
{
	static int known = -1;
	if (known < 0)
		known = (read_sysreg(id_aa64pfr0_el1) >> 28 & 0xF) != 0;
	return known;
}

void vsysreg_hw_init_cpu(void)
{
	u64 dfr0 = read_sysreg(id_aa64dfr0_el1), pmuver = (dfr0 >> 8) & 0xF;
	u64 pmcr = pmuver && pmuver != 0xF ? read_sysreg(PMCR_EL0) : 0;

	write_sysreg(MDCR_EL2, vsysreg_mdcr_el2(dfr0, pmcr));
	disable_all(((dfr0 >> 12) & 0xF) + 1, ((dfr0 >> 20) & 0xF) + 1);
	isb();
}

void vsysreg_hw_host(struct vsysreg_host *h)
{
	h->dfr0 = read_sysreg(id_aa64dfr0_el1);
	h->actlr = read_sysreg(actlr_el1);
	/* Not the hardware's DBGAUTHSTATUS_EL1: QEMU's CPUs (7.2 and 10) do not have it and
	 * reading it would be fatal here. What the guest has: Non-secure invasive and
	 * non-invasive debug, implemented and enabled (NSID, NSNID 0b11); no Secure state. */
	h->authstatus = 0xF;
}

u64 vsysreg_hw_hcr(void)
{
	static u64 hcr = ~0ull;
	if (hcr == ~0ull)
		hcr = vsysreg_hcr_el2(read_sysreg(id_aa64pfr0_el1));
	return hcr;
}

void vsysreg_hw_load(struct vsysreg *s)
{
	write_sysreg(OSLAR_EL1, s->oslk);
	if (has_ras())
		write_sysreg(VDISR_EL2, s->vdisr);
	s->hw_armed = vsysreg_armed(s);
	if (s->hw_armed)
		load_all(s);
}

void vsysreg_hw_put(struct vsysreg *s)
{
	if (has_ras())
		s->vdisr = read_sysreg(VDISR_EL2);
	if (s->hw_armed)
		disable_all(s->nbrps, s->nwrps);
	s->hw_armed = false;
}

void vsysreg_hw_write(struct vsysreg *s, enum vsysreg_result what, u32 sysreg)
{
	if (what == VSYS_DONE_OSLK) {
		write_sysreg(OSLAR_EL1, s->oslk);
		return;
	}
	u32 n = (sysreg >> 1) & 15, op2 = (sysreg >> 17) & 7;
	bool armed = vsysreg_armed(s);
	if (armed && !s->hw_armed) {
		load_all(s);
	} else if (s->hw_armed) {
		/* The hardware has all of them: this one changed. */
		u64 *reg = op2 == 4 ? s->bvr : op2 == 5 ? s->bcr : op2 == 6 ? s->wvr : s->wcr;
		wb_write(n, op2, reg[n]);
	}
	s->hw_armed = armed;
}
