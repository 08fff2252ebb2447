/* SPDX-License-Identifier: GPL-2.0-only */
/* The guest's virtual timer (CNTV_*, DDI 0487 D11.2.4): its interrupt, PPI 27, is a
 * level-sensitive input of the vGIC, sampled on every exit and while the vCPU is off
 * the pCPU, so it fires on time even for a descheduled or halted vCPU. */
#ifndef ARCH_ARM64_VTIMER_H
#define ARCH_ARM64_VTIMER_H

#include "hv/types.h"

struct vcpu;

void vtimer_sync(struct vcpu *v, u64 now);    /* feed the line to the vGIC */
u64 vtimer_deadline(struct vcpu *v, u64 now); /* host counter value when it fires next, 0: none */

#endif
