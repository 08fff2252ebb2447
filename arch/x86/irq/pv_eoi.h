/* SPDX-License-Identifier: GPL-2.0-only */
/* KVM's PV EOI (MSR_KVM_PV_EOI_EN, pv_eoi.c): an EOI the guest does without an exit where
 * no other interrupt waits. */
#ifndef ARCH_X86_IRQ_PV_EOI_H
#define ARCH_X86_IRQ_PV_EOI_H

#include "hv/vm.h"

/* The guest's MSR write: 0, or -1 for #GP. */
int pv_eoi_wrmsr(struct vcpu *v, u64 val);
/* Around each guest run: arm it where it can be used; take what the guest did. */
void pv_eoi_enter(struct vcpu *v);
void pv_eoi_exit(struct vcpu *v);

#endif
