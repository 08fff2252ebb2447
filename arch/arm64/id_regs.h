/* SPDX-License-Identifier: GPL-2.0-only */
/* The ID registers a guest reads (DDI 0487 D17.2: ID_AA64*_EL1 and the AArch32 ID
 * registers, op0 3, op1 0, CRn 0, CRm 1-7), trapped with HCR_EL2.TID3 so that the guest
 * sees only what the hypervisor virtualizes: no SVE, SME, MTE, PMU, SPE, trace, nested
 * virtualization, AMU, MPAM, or EL1 state it does not switch (TCR2, permission
 * indirection). The hardware value is kept for everything else. */
#ifndef ARCH_ARM64_ID_REGS_H
#define ARCH_ARM64_ID_REGS_H

#include "hv/types.h"

/* Whether the trapped register (ESR_SYSREG encoding) is in the TID3 group. */
bool id_reg_is_trapped(u32 sysreg);
/* What the guest reads, given the hardware's value `hw` of that register. */
u64 id_reg_sanitise(u32 sysreg, u64 hw);

#endif
