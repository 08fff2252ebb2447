/* SPDX-License-Identifier: GPL-2.0-only */
/* Sanitised ID registers. Field positions: DDI 0487 D17.2 (ID_AA64PFR0_EL1 D17.2.67,
 * ID_AA64PFR1_EL1 D17.2.68, ID_AA64DFR0_EL1 D17.2.59, ID_AA64MMFR1_EL1 D17.2.65,
 * ID_AA64MMFR2_EL1 D17.2.66, ID_AA64MMFR3_EL1, ID_AA64ISAR1_EL1 D17.2.62). A field is
 * hidden by clearing it: 0 means "not implemented" for every field cleared here. */
#include "arch/arm64/id_regs.h"
#include "arch/arm64/esr.h"

#define ID_REG(crm, op2) ESR_SYSREG(3, 0, 0, crm, op2)
#define FIELD(lsb) (0xFull << (lsb))

#define ID_DFR0 ID_REG(1, 2)
#define ID_DFR1 ID_REG(3, 5)
#define ID_AA64PFR0 ID_REG(4, 0)
#define ID_AA64PFR1 ID_REG(4, 1)
#define ID_AA64ZFR0 ID_REG(4, 4)
#define ID_AA64SMFR0 ID_REG(4, 5)
#define ID_AA64DFR0 ID_REG(5, 0)
#define ID_AA64DFR1 ID_REG(5, 1)
#define ID_AA64ISAR1 ID_REG(6, 1)
#define ID_AA64MMFR1 ID_REG(7, 1)
#define ID_AA64MMFR2 ID_REG(7, 2)
#define ID_AA64MMFR3 ID_REG(7, 3)

bool id_reg_is_trapped(u32 sysreg)
{
	u32 crm = (sysreg >> 1) & 0xF;
	return (sysreg & ~(ESR_SYSREG(0, 0, 0, 0xF, 7))) == ESR_SYSREG(3, 0, 0, 0, 0) && crm >= 1 &&
	       crm <= 7;
}

u64 id_reg_sanitise(u32 sysreg, u64 hw)
{
	switch (sysreg) {
	case ID_AA64PFR0:
		/* EL2 [11:8] (no nested virtualization), SVE [35:32], MPAM [43:40], AMU [47:44] */
		return hw & ~(FIELD(8) | FIELD(32) | FIELD(40) | FIELD(44));
	case ID_AA64PFR1:
		/* Keep BT [3:0] and SSBS [7:4]: their state is in PSTATE and SCTLR_EL1. MTE,
		 * RAS_frac, MPAM_frac, SME, RNDR_trap, CSV2_frac, NMI and anything newer go. */
		return hw & (FIELD(0) | FIELD(4));
	case ID_AA64ZFR0:
	case ID_AA64SMFR0:
	case ID_AA64DFR1:
	case ID_AA64MMFR3:
	case ID_DFR1: /* MTPMU, HPMN0: PMU */
		return 0;
	case ID_DFR0:
		/* The AArch32 view (D17.2.31): no CopTrc [15:12], MMapTrc [19:16], PerfMon
		 * [27:24] or TraceFilt [31:28]; the debug fields stay. */
		return hw & ~(FIELD(12) | FIELD(16) | FIELD(24) | FIELD(28));
	case ID_AA64DFR0:
		/* Keep DebugVer [3:0], BRPs [15:12], WRPs [23:20], CTX_CMPs [31:28]; no trace,
		 * PMU, SPE, BRBE, TRBE, ... */
		return hw & (FIELD(0) | FIELD(12) | FIELD(20) | FIELD(28));
	case ID_AA64ISAR1:
		return hw & ~FIELD(60); /* LS64 [63:60]: needs HCRX_EL2 */
	case ID_AA64MMFR1:
		/* VH [11:8] (no nested virtualization), TWED [35:32], HCX [43:40] */
		return hw & ~(FIELD(8) | FIELD(32) | FIELD(40));
	case ID_AA64MMFR2:
		return hw & ~FIELD(24); /* NV [27:24] */
	}
	return hw;
}
