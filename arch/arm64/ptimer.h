/* SPDX-License-Identifier: GPL-2.0-only */
/* The guest's EL1 physical timer (CNTP_*, DDI 0487 D11.2.4), emulated: its registers trap
 * (CNTHCTL_EL2.EL1PCEN = 0) and live in the vCPU; its interrupt, PPI 30, is a level input
 * of the vGIC, sampled on every exit and while the vCPU is off the pCPU (as the virtual
 * timer's), and its deadline wakes the vCPU. It counts the physical counter, which the
 * guest reads untrapped (no offset). Pure logic apart from the vGIC line. */
#ifndef ARCH_ARM64_PTIMER_H
#define ARCH_ARM64_PTIMER_H

#include "hv/types.h"

#define INTID_PTIMER 30 /* PPI 14: the EL1 physical timer */

struct vcpu;
struct vgic;

struct ptimer {
	u64 ctl; /* ENABLE [0], IMASK [1] as written (ISTATUS is computed) */
	u64 cval;
};

/* A trapped access to CNTP_CTL_EL0, CNTP_CVAL_EL0 or CNTP_TVAL_EL0 (the ESR_SYSREG id);
 * false for any other register. */
bool ptimer_access(struct ptimer *t, u32 sysreg, bool read, u64 *val, u64 now);
bool ptimer_line(const struct ptimer *t, u64 now);    /* its interrupt's level */
u64 ptimer_deadline(const struct ptimer *t, u64 now); /* when it fires next, 0: none */

#endif
