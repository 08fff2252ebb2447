/* SPDX-License-Identifier: GPL-2.0-only */
/* The ID registers the guest sees (arch/arm64/id_regs.c). */
#include "../test.h"
#include "arch/arm64/id_regs.c"

#define REG(crm, op2) ESR_SYSREG(3, 0, 0, crm, op2)

int main(void)
{
	/* The TID3 group: op0 3, op1 0, CRn 0, CRm 1-7, any op2. */
	CHECK(id_reg_is_trapped(REG(1, 0)));
	CHECK(id_reg_is_trapped(REG(4, 0)));
	CHECK(id_reg_is_trapped(REG(7, 7)));
	CHECK(!id_reg_is_trapped(REG(0, 0))); /* MIDR_EL1: VPIDR_EL2 answers */
	CHECK(!id_reg_is_trapped(REG(0, 5))); /* MPIDR_EL1: VMPIDR_EL2 answers */
	CHECK(!id_reg_is_trapped(REG(8, 0)));
	CHECK(!id_reg_is_trapped(ESR_SYSREG(3, 0, 12, 11, 5))); /* ICC_SGI1R_EL1 */
	CHECK(!id_reg_is_trapped(ESR_SYSREG(3, 1, 0, 0, 0)));	/* CCSIDR_EL1 */
	CHECK(!id_reg_is_trapped(ESR_SYSREG(3, 3, 0, 0, 1)));	/* CTR_EL0 */

	/* QEMU -cpu max's ID_AA64PFR0_EL1: SVE (1 at [35:32]) and EL2 go, GIC, FP, AdvSIMD,
	 * RAS, EL0/EL1/EL3 stay. */
	u64 pfr0 = 0x1201111123111112ull;
	u64 g = id_reg_sanitise(REG(4, 0), pfr0);
	CHECK_EQ((g >> 32) & 0xF, 0);			 /* SVE */
	CHECK_EQ((g >> 8) & 0xF, 0);			 /* EL2 */
	CHECK_EQ((g >> 44) & 0xF, 0);			 /* AMU */
	CHECK_EQ((g >> 40) & 0xF, 0);			 /* MPAM */
	CHECK_EQ((g >> 24) & 0xF, (pfr0 >> 24) & 0xF);	 /* GIC */
	CHECK_EQ((g >> 16) & 0xFF, (pfr0 >> 16) & 0xFF); /* FP, AdvSIMD */
	CHECK_EQ(g & 0xFF, pfr0 & 0xFF);		 /* EL0, EL1 */
	/* PFR1: BT and SSBS only (no MTE, SME, NMI). */
	CHECK_EQ(id_reg_sanitise(REG(4, 1), 0x1000000001000321ull), 0x21);
	/* SVE and SME feature registers, DFR1, MMFR3: nothing. */
	CHECK_EQ(id_reg_sanitise(REG(4, 4), ~0ull), 0);
	CHECK_EQ(id_reg_sanitise(REG(4, 5), ~0ull), 0);
	CHECK_EQ(id_reg_sanitise(REG(5, 1), ~0ull), 0);
	CHECK_EQ(id_reg_sanitise(REG(7, 3), ~0ull), 0);
	/* DFR0: debug version and breakpoint/watchpoint counts only (no PMU, SPE, trace). */
	CHECK_EQ(id_reg_sanitise(REG(5, 0), 0x1000000F0F10F509ull), 0x0010F009ull);
	/* ID_DFR0 (AArch32): no PMU or trace (CopTrc, MMapTrc, PerfMon, TraceFilt), the
	 * debug fields (CopDbg, CopSDbg, MMapDbg, MProfDbg) stay; ID_DFR1: nothing. */
	CHECK_EQ(id_reg_sanitise(REG(1, 2), 0x13F11666ull), 0x00F00666ull);
	CHECK_EQ(id_reg_sanitise(REG(3, 5), 0x11ull), 0);
	/* ISAR1: LS64 hidden; the rest (pointer authentication, ...) kept. */
	CHECK_EQ(id_reg_sanitise(REG(6, 1), 0x1000000000000110ull), 0x110);
	/* MMFR1: no VH, TWED, HCX; MMFR2: no NV. */
	CHECK_EQ(id_reg_sanitise(REG(7, 1), 0x0000011100101122ull), 0x0000001000101022ull);
	CHECK_EQ(id_reg_sanitise(REG(7, 2), 0x0000000001000000ull), 0);
	/* Others pass through (ISAR0, MMFR0, the AArch32 registers). */
	CHECK_EQ(id_reg_sanitise(REG(6, 0), 0x1234ull), 0x1234);
	CHECK_EQ(id_reg_sanitise(REG(7, 0), 0x55ull), 0x55);
	CHECK_EQ(id_reg_sanitise(REG(1, 0), 0x131ull), 0x131);
	return test_summary();
}
