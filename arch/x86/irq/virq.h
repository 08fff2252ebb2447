/* SPDX-License-Identifier: GPL-2.0-only */
/* Interrupt routing between the vCPUs' local APICs and the IOAPIC (virq.c): the messages
 * of an ICR write, a PV IPI or an IOAPIC pin to their targets, and each vCPU's and VM's
 * interrupt controllers. */
#ifndef ARCH_X86_IRQ_VIRQ_H
#define ARCH_X86_IRQ_VIRQ_H

#include "hv/vm.h"

/* Fixed or NMI message from src to the vCPUs with the listed APIC IDs (valid ones);
 * returns how many accepted it. */
u32 x86_deliver_to(struct vcpu *src, const u32 *ids, u32 n, u8 mode, u8 vector);
/* Whether t is a target of a message from src (NULL: the IOAPIC) with that shorthand and
 * destination (SDM 11.6.2.3, 11.12.10). */
bool x86_ipi_target(const struct vcpu *t, const struct vcpu *src, u8 shorthand, u32 dest,
		    bool logical);
void x86_vcpu_irq_init(struct vcpu *v);
void x86_vm_irq_init(struct vm *vm);

#endif
