/* SPDX-License-Identifier: GPL-2.0-only */
/* The guest's debug, PMU, RAS, ACTLR and IMPLEMENTATION DEFINED registers
 * (arch/arm64/vsysreg.c): which class an access is, what it reads, what a write keeps,
 * when the hardware must follow, and the trap bits. */
#include "../test.h"
#include "arch/arm64/vsysreg.c"

#define R ESR_SYSREG

/* QEMU -cpu max: DebugVer 9, PMUVer 6, BRPs 5 (6 breakpoints), WRPs 3 (4 watchpoints),
 * CTX_CMPs 1. */
#define DFR0_QEMU_MAX 0x10305609ull

static struct vsysreg s;

static void reset(void)
{
	struct vsysreg_host h = { .dfr0 = DFR0_QEMU_MAX, .actlr = 0x1234, .authstatus = 0xF };
	memset(&s, 0xa5, sizeof s);
	vsysreg_reset(&s, &h);
}

static enum vsysreg_result rd(u32 reg, u64 *v)
{
	*v = 0xdeadbeef;
	return vsysreg_access(&s, reg, true, v);
}

static enum vsysreg_result wr(u32 reg, u64 v) { return vsysreg_access(&s, reg, false, &v); }

/* Each register takes writes and reads 0. */
static void check_raz_wi(const u32 *regs, size_t n)
{
	u64 v;

	for (size_t i = 0; i < n; i++) {
		CHECK_EQ(wr(regs[i], 0x80000001), VSYS_DONE);
		CHECK_EQ(rd(regs[i], &v), VSYS_DONE);
		CHECK_EQ(v, 0);
	}
}

/* A read-only register: reads `want`, a write is UNDEFINED. */
static void check_read_only(u32 reg, u64 want)
{
	u64 v;

	CHECK_EQ(rd(reg, &v), VSYS_DONE);
	CHECK_EQ(v, want);
	CHECK_EQ(wr(reg, 1), VSYS_UNDEF);
}

static void test_classify(void)
{
	CHECK_EQ(vsysreg_classify(R(2, 0, 0, 0, 4)), VSYS_DEBUG);  /* DBGBVR0_EL1 */
	CHECK_EQ(vsysreg_classify(R(2, 0, 0, 15, 7)), VSYS_DEBUG); /* DBGWCR15_EL1 */
	CHECK_EQ(vsysreg_classify(R(2, 0, 0, 2, 2)), VSYS_DEBUG);  /* MDSCR_EL1 */
	CHECK_EQ(vsysreg_classify(R(2, 0, 1, 0, 4)), VSYS_DEBUG);  /* OSLAR_EL1 */
	CHECK_EQ(vsysreg_classify(R(2, 3, 0, 5, 0)), VSYS_DEBUG);  /* DBGDTRRX_EL0 */
	CHECK_EQ(vsysreg_classify(R(2, 1, 0, 1, 0)), VSYS_TRACE);  /* TRCPRGCTLR */
	CHECK_EQ(vsysreg_classify(R(2, 1, 9, 0, 0)), VSYS_TRACE);  /* BRBCR_EL1 */
	CHECK_EQ(vsysreg_classify(R(3, 0, 1, 2, 1)), VSYS_TRACE);  /* TRFCR_EL1 */
	CHECK_EQ(vsysreg_classify(R(3, 0, 9, 11, 0)), VSYS_TRACE); /* TRBLIMITR_EL1 */
	/* PMU: PMCR_EL0, PMCCNTR_EL0, PMUSERENR_EL0, PMOVSSET_EL0, PMINTENSET_EL1,
	 * PMMIR_EL1, PMEVCNTR0_EL0, PMEVTYPER30_EL0, PMCCFILTR_EL0 */
	CHECK_EQ(vsysreg_classify(R(3, 3, 9, 12, 0)), VSYS_PMU);
	CHECK_EQ(vsysreg_classify(R(3, 3, 9, 13, 0)), VSYS_PMU);
	CHECK_EQ(vsysreg_classify(R(3, 3, 9, 14, 0)), VSYS_PMU);
	CHECK_EQ(vsysreg_classify(R(3, 3, 9, 14, 3)), VSYS_PMU);
	CHECK_EQ(vsysreg_classify(R(3, 0, 9, 14, 1)), VSYS_PMU);
	CHECK_EQ(vsysreg_classify(R(3, 0, 9, 14, 6)), VSYS_PMU);
	CHECK_EQ(vsysreg_classify(R(3, 3, 14, 8, 0)), VSYS_PMU);
	CHECK_EQ(vsysreg_classify(R(3, 3, 14, 15, 6)), VSYS_PMU);
	CHECK_EQ(vsysreg_classify(R(3, 3, 14, 15, 7)), VSYS_PMU);
	/* SPE: PMSCR_EL1, PMBLIMITR_EL1 */
	CHECK_EQ(vsysreg_classify(R(3, 0, 9, 9, 0)), VSYS_PROFILING);
	CHECK_EQ(vsysreg_classify(R(3, 0, 9, 10, 0)), VSYS_PROFILING);
	/* IMPLEMENTATION DEFINED: CRn 11 and 15, any op1 */
	CHECK_EQ(vsysreg_classify(R(3, 1, 15, 2, 0)), VSYS_IMPDEF);
	CHECK_EQ(vsysreg_classify(R(3, 0, 11, 0, 0)), VSYS_IMPDEF);
	CHECK_EQ(vsysreg_classify(R(3, 7, 15, 15, 7)), VSYS_IMPDEF);
	CHECK_EQ(vsysreg_classify(R(3, 0, 1, 0, 1)), VSYS_ACTLR);
	/* RAS: ERRIDR_EL1, ERRSELR_EL1, ERXFR..ERXPFGCDN, ERXMISC0-3 */
	CHECK_EQ(vsysreg_classify(R(3, 0, 5, 3, 0)), VSYS_RAS);
	CHECK_EQ(vsysreg_classify(R(3, 0, 5, 3, 1)), VSYS_RAS);
	for (u32 op2 = 0; op2 <= 6; op2++)
		CHECK_EQ(vsysreg_classify(R(3, 0, 5, 4, op2)), VSYS_RAS);
	for (u32 op2 = 0; op2 <= 3; op2++)
		CHECK_EQ(vsysreg_classify(R(3, 0, 5, 5, op2)), VSYS_RAS);
	/* Not these: ESR_EL1, AFSR0_EL1, DISR_EL1, the timers, SCTLR_EL1, the GIC, ID regs */
	CHECK_EQ(vsysreg_classify(R(3, 0, 5, 2, 0)), VSYS_OTHER);
	CHECK_EQ(vsysreg_classify(R(3, 0, 5, 1, 0)), VSYS_OTHER);
	CHECK_EQ(vsysreg_classify(R(3, 0, 12, 1, 1)), VSYS_OTHER);
	CHECK_EQ(vsysreg_classify(R(3, 3, 14, 2, 1)), VSYS_OTHER);
	CHECK_EQ(vsysreg_classify(R(3, 0, 1, 0, 0)), VSYS_OTHER);
	CHECK_EQ(vsysreg_classify(R(3, 0, 12, 11, 5)), VSYS_OTHER);
	CHECK_EQ(vsysreg_classify(R(3, 0, 0, 5, 0)), VSYS_OTHER);
	CHECK_STR(vsysreg_class_name(VSYS_PMU), "PMU");
	CHECK_STR(vsysreg_class_name(VSYS_IMPDEF), "IMPLEMENTATION DEFINED");
	CHECK_STR(vsysreg_class_name(VSYS_OTHER), "system");
}

static void test_breakpoints(void)
{
	u64 v;

	reset();
	CHECK_EQ(s.nbrps, 6);
	CHECK_EQ(s.nwrps, 4);
	/* Reset: all 0, nothing armed. */
	CHECK_EQ(rd(R(2, 0, 0, 5, 4), &v), VSYS_DONE);
	CHECK_EQ(v, 0);
	CHECK_EQ(rd(R(2, 0, 0, 3, 7), &v), VSYS_DONE);
	CHECK_EQ(v, 0);
	CHECK(!vsysreg_armed(&s));
	/* Each of the four kinds keeps what was written, per number. */
	CHECK_EQ(wr(R(2, 0, 0, 1, 4), 0x40201000), VSYS_DONE_BPWP); /* DBGBVR1 */
	CHECK_EQ(wr(R(2, 0, 0, 1, 5), 0x1E6), VSYS_DONE_BPWP);	    /* DBGBCR1, disabled */
	CHECK_EQ(wr(R(2, 0, 0, 3, 6), 0x40300008), VSYS_DONE_BPWP); /* DBGWVR3 */
	CHECK_EQ(wr(R(2, 0, 0, 3, 7), 0x1FFE), VSYS_DONE_BPWP);	    /* DBGWCR3, disabled */
	CHECK_EQ(rd(R(2, 0, 0, 1, 4), &v), VSYS_DONE);
	CHECK_EQ(v, 0x40201000);
	CHECK_EQ(rd(R(2, 0, 0, 1, 5), &v), VSYS_DONE);
	CHECK_EQ(v, 0x1E6);
	CHECK_EQ(rd(R(2, 0, 0, 3, 6), &v), VSYS_DONE);
	CHECK_EQ(v, 0x40300008);
	CHECK_EQ(rd(R(2, 0, 0, 3, 7), &v), VSYS_DONE);
	CHECK_EQ(v, 0x1FFE);
	CHECK_EQ(rd(R(2, 0, 0, 0, 4), &v), VSYS_DONE);
	CHECK_EQ(v, 0);
	CHECK(!vsysreg_armed(&s));
	/* Enabling one (E, bit 0) arms the vCPU; disabling it again disarms. */
	CHECK_EQ(wr(R(2, 0, 0, 1, 5), 0x1E7), VSYS_DONE_BPWP);
	CHECK(vsysreg_armed(&s));
	CHECK_EQ(wr(R(2, 0, 0, 1, 5), 0x1E6), VSYS_DONE_BPWP);
	CHECK(!vsysreg_armed(&s));
	CHECK_EQ(wr(R(2, 0, 0, 0, 7), 0x1FFF), VSYS_DONE_BPWP);
	CHECK(vsysreg_armed(&s));
	CHECK_EQ(wr(R(2, 0, 0, 0, 7), 0), VSYS_DONE_BPWP);
	CHECK(!vsysreg_armed(&s));
	/* The last ones that exist, and the first that do not: UNDEFINED, nothing kept. */
	CHECK_EQ(wr(R(2, 0, 0, 5, 5), 0x1E6), VSYS_DONE_BPWP);
	CHECK_EQ(wr(R(2, 0, 0, 3, 7), 0x1FFE), VSYS_DONE_BPWP);
	CHECK_EQ(rd(R(2, 0, 0, 6, 4), &v), VSYS_UNDEF);
	CHECK_EQ(wr(R(2, 0, 0, 6, 5), 1), VSYS_UNDEF);
	CHECK_EQ(wr(R(2, 0, 0, 4, 6), 1), VSYS_UNDEF);
	CHECK_EQ(rd(R(2, 0, 0, 15, 7), &v), VSYS_UNDEF);
	CHECK_EQ(s.bcr[6], 0);
	CHECK(!vsysreg_armed(&s));
	/* An enabled control register beyond the count (storage left over) never arms. */
	s.wcr[5] = 1;
	CHECK(!vsysreg_armed(&s));
	/* 16 of each with BRPs = WRPs = 15. */
	struct vsysreg_host h = { .dfr0 = 0xF0F000ull };
	vsysreg_reset(&s, &h);
	CHECK_EQ(wr(R(2, 0, 0, 15, 4), 0x1000), VSYS_DONE_BPWP);
	CHECK_EQ(rd(R(2, 0, 0, 15, 4), &v), VSYS_DONE);
	CHECK_EQ(v, 0x1000);
	CHECK_EQ(wr(R(2, 0, 0, 15, 7), 1), VSYS_DONE_BPWP);
	CHECK(vsysreg_armed(&s));
	/* Reset forgets everything. */
	reset();
	CHECK(!vsysreg_armed(&s));
	CHECK_EQ(s.bvr[1], 0);
}

static void test_debug_others(void)
{
	u64 v;

	reset();
	/* MDSCR_EL1: the hardware's (EL1 state switched with the vCPU). */
	CHECK_EQ(rd(R(2, 0, 0, 2, 2), &v), VSYS_MDSCR);
	CHECK_EQ(wr(R(2, 0, 0, 2, 2), 0x1000), VSYS_MDSCR);
	/* OS lock: unlocked at reset; OSLAR_EL1 sets and clears it, OSLSR_EL1 shows it with
	 * OSLM = 0b10 (implemented); OSLAR is write-only, OSLSR read-only. */
	CHECK_EQ(rd(R(2, 0, 1, 1, 4), &v), VSYS_DONE);
	CHECK_EQ(v, 0x8);
	CHECK_EQ(wr(R(2, 0, 1, 0, 4), 1), VSYS_DONE_OSLK);
	CHECK(s.oslk);
	CHECK_EQ(rd(R(2, 0, 1, 1, 4), &v), VSYS_DONE);
	CHECK_EQ(v, 0xA);
	CHECK_EQ(wr(R(2, 0, 1, 0, 4), 0xFFFFFFFE), VSYS_DONE_OSLK);
	CHECK(!s.oslk);
	CHECK_EQ(rd(R(2, 0, 1, 0, 4), &v), VSYS_UNDEF);
	CHECK_EQ(wr(R(2, 0, 1, 1, 4), 0), VSYS_UNDEF);
	/* Claim tags: SET reads the 8 implemented, CLR the ones set. */
	CHECK_EQ(rd(R(2, 0, 7, 8, 6), &v), VSYS_DONE);
	CHECK_EQ(v, 0xFF);
	CHECK_EQ(wr(R(2, 0, 7, 8, 6), 0x105), VSYS_DONE);
	CHECK_EQ(rd(R(2, 0, 7, 9, 6), &v), VSYS_DONE);
	CHECK_EQ(v, 0x05);
	CHECK_EQ(wr(R(2, 0, 7, 9, 6), 0x1), VSYS_DONE);
	CHECK_EQ(rd(R(2, 0, 7, 9, 6), &v), VSYS_DONE);
	CHECK_EQ(v, 0x04);
	/* MDCCINT_EL1 is kept; DBGAUTHSTATUS_EL1 reads what the host gave. */
	CHECK_EQ(wr(R(2, 0, 0, 2, 0), BIT(30)), VSYS_DONE);
	CHECK_EQ(rd(R(2, 0, 0, 2, 0), &v), VSYS_DONE);
	CHECK_EQ(v, BIT(30));
	check_read_only(R(2, 0, 7, 14, 6), 0xF);
	/* RAZ/WI: OSDTRRX, OSDTRTX, OSECCR, OSDLR, DBGPRCR, DBGDTR, DBGDTRRX/TX. */
	static const u32 raz_wi[] = { R(2, 0, 0, 0, 2), R(2, 0, 0, 3, 2), R(2, 0, 0, 6, 2),
				      R(2, 0, 1, 3, 4), R(2, 0, 1, 4, 4), R(2, 3, 0, 4, 0),
				      R(2, 3, 0, 5, 0) };
	check_raz_wi(raz_wi, sizeof raz_wi / sizeof raz_wi[0]);
	/* Read-only, read 0: MDRAR_EL1 (no memory-mapped debug), MDCCSR_EL0. */
	check_read_only(R(2, 0, 1, 0, 0), 0);
	check_read_only(R(2, 3, 0, 1, 0), 0);
	/* Trace and anything unallocated in op0 2: UNDEFINED. */
	CHECK_EQ(rd(R(2, 1, 0, 1, 0), &v), VSYS_UNDEF);
	CHECK_EQ(rd(R(2, 4, 0, 7, 0), &v), VSYS_UNDEF); /* DBGVCR32_EL2 */
	CHECK_EQ(rd(R(2, 0, 7, 7, 7), &v), VSYS_UNDEF);
}

static void test_pmu_impdef_actlr_ras(void)
{
	u64 v;

	reset();
	/* No PMU, profiling, trace or IMPLEMENTATION DEFINED registers. */
	CHECK_EQ(rd(R(3, 3, 9, 12, 0), &v), VSYS_UNDEF); /* PMCR_EL0 */
	CHECK_EQ(wr(R(3, 3, 9, 12, 0), 1), VSYS_UNDEF);
	CHECK_EQ(rd(R(3, 3, 9, 13, 0), &v), VSYS_UNDEF); /* PMCCNTR_EL0 */
	CHECK_EQ(wr(R(3, 3, 9, 14, 0), 1), VSYS_UNDEF);	 /* PMUSERENR_EL0 */
	CHECK_EQ(rd(R(3, 3, 14, 8, 0), &v), VSYS_UNDEF); /* PMEVCNTR0_EL0 */
	CHECK_EQ(rd(R(3, 0, 9, 9, 0), &v), VSYS_UNDEF);	 /* PMSCR_EL1 */
	CHECK_EQ(wr(R(3, 0, 1, 2, 1), 0), VSYS_UNDEF);	 /* TRFCR_EL1 */
	CHECK_EQ(rd(R(3, 1, 15, 2, 0), &v), VSYS_UNDEF); /* CPUACTLR_EL1 of a Cortex-A57 */
	CHECK_EQ(wr(R(3, 1, 11, 0, 2), 0), VSYS_UNDEF);	 /* L2CTLR_EL1 of a Cortex-A57 */
	CHECK_EQ(v, 0xdeadbeef);			 /* nothing read */
	/* ACTLR_EL1: the host's value at reset, then what the guest wrote. */
	CHECK_EQ(rd(R(3, 0, 1, 0, 1), &v), VSYS_DONE);
	CHECK_EQ(v, 0x1234);
	CHECK_EQ(wr(R(3, 0, 1, 0, 1), 0x12345678), VSYS_DONE);
	CHECK_EQ(rd(R(3, 0, 1, 0, 1), &v), VSYS_DONE);
	CHECK_EQ(v, 0x12345678);
	/* RAS: no error records (ERRIDR_EL1.NUM 0); the rest RAZ/WI, fault injection
	 * (ERXPFGCTL, ERXPFGCDN) included; the read-only ones refuse writes. */
	check_read_only(R(3, 0, 5, 3, 0), 0);
	check_read_only(R(3, 0, 5, 4, 0), 0); /* ERXFR_EL1 */
	check_read_only(R(3, 0, 5, 4, 4), 0); /* ERXPFGF_EL1 */
	static const u32 rw[] = { R(3, 0, 5, 3, 1), R(3, 0, 5, 4, 1), R(3, 0, 5, 4, 2),
				  R(3, 0, 5, 4, 3), R(3, 0, 5, 4, 5), R(3, 0, 5, 4, 6),
				  R(3, 0, 5, 5, 0), R(3, 0, 5, 5, 3) };
	check_raz_wi(rw, sizeof rw / sizeof rw[0]);
	/* Anything else is the caller's. */
	CHECK_EQ(rd(R(3, 0, 1, 0, 0), &v), VSYS_NOT_MINE);  /* SCTLR_EL1 */
	CHECK_EQ(rd(R(3, 0, 12, 1, 1), &v), VSYS_NOT_MINE); /* DISR_EL1 */
}

static void test_trap_bits(void)
{
	/* QEMU -cpu max (PMUv3, PMCR_EL0 0x41013000: N = 6): TDA, TDOSA, TDRA, TPM, TPMCR,
	 * HPMN = N; no SPE or trace filter. */
	CHECK_EQ(vsysreg_mdcr_el2(DFR0_QEMU_MAX, 0x41013000), 0xE60 | 6);
	CHECK_EQ(vsysreg_mdcr_el2(DFR0_QEMU_MAX, 0x41013000 | (31 << 11)), 0xE60 | 31);
	/* No PMU (PMUVer 0) or an IMPLEMENTATION DEFINED one (0xF): only the debug traps,
	 * PMCR_EL0 ignored. */
	CHECK_EQ(vsysreg_mdcr_el2(0x10305009, ~0ull), 0xE00);
	CHECK_EQ(vsysreg_mdcr_el2(0x10305F09, ~0ull), 0xE00);
	/* SPE (PMSVer [35:32]) adds TPMS; TraceFilt [43:40] adds TTRF; TraceBuffer
	 * [47:44] needs nothing (E2TB 0 traps). Never TDE, HPME, E2PB. */
	CHECK_EQ(vsysreg_mdcr_el2(0x1ull << 32 | 0x10305009, 0), 0xE00 | BIT(14));
	CHECK_EQ(vsysreg_mdcr_el2(0x1ull << 40 | 0x10305009, 0), 0xE00 | BIT(19));
	CHECK_EQ(vsysreg_mdcr_el2(0x1ull << 44 | 0x10305009, 0), 0xE00);
	/* HCR_EL2: TIDCP, TACR; TERR only with FEAT_RAS (ID_AA64PFR0_EL1.RAS [31:28]). */
	CHECK_EQ(vsysreg_hcr_el2(0x1201001121110022ull), BIT(20) | BIT(21) | BIT(36));
	CHECK_EQ(vsysreg_hcr_el2(0x0000000001000022ull), BIT(20) | BIT(21));
}

int main(void)
{
	test_classify();
	test_breakpoints();
	test_debug_others();
	test_pmu_impdef_actlr_ras();
	test_trap_bits();
	return test_summary();
}
