/* SPDX-License-Identifier: GPL-2.0-only */
/* APIC virtualization on VMX (Intel SDM vol. 3C, chapter 30), per vCPU: the vLAPIC's
 * register page is the virtual-APIC page; with "virtualize x2APIC mode", "APIC-register
 * virtualization" and "virtual-interrupt delivery" the guest reads most x2APIC registers,
 * writes the TPR and EOI registers, and takes its interrupts without exits. SELF IPI writes
 * exit (as ICR writes do): every request then reaches the IRR through the hypervisor, and
 * Bochs 2.7 is spared a virtual interrupt raised while the guest has interrupts off (below).
 *
 * Without posted interrupts (Bochs has none) the CPU's IRR updates would race with other
 * CPUs setting IRR bits in the page while the guest runs: senders post into the vLAPIC's
 * software PIR instead (vlapic.h, cpu_delivers) and kick; before each entry the owner moves
 * them into the IRR and tells the CPU the highest one (RVI) and the highest in service (SVI).
 * Level-triggered vectors (TMR) are set in the EOI-exit bitmap so that their EOI exits for
 * the IOAPIC. PV EOI is not armed for such vCPUs: their EOIs exit no more than its.
 *
 * What the CPU delivered and completed between an entry and the next exit is counted
 * from the IRR and ISR around the run: exactly without posted interrupts (no request
 * reaches the IRR while the guest runs: SELF IPI writes exit); with them, an interrupt
 * posted, delivered and EOIed within one run leaves no trace there, and is not counted. */
#ifndef ARCH_X86_VMX_VMX_APICV_H
#define ARCH_X86_VMX_VMX_APICV_H

#include "arch/x86/irq/vlapic.h"

/* The x2APIC MSRs a guest reads from the virtual-APIC page without an exit: those the
 * vLAPIC keeps in the page as a read returns them (vlapic_page_read), and PPR, which
 * APIC-register virtualization keeps there itself (30.5). */
bool vmx_apicv_read_passthrough(u32 msr);
/* The ones a guest writes without an exit, with virtual-interrupt delivery (30.5): TPR and
 * EOI. */
bool vmx_apicv_write_passthrough(u32 msr);

/* The state the CPU needs at an entry, and the IRR and ISR the run starts from. */
struct vmx_apicv_entry {
	u16 intr_status;       /* the guest interrupt status: RVI in 7:0, SVI in 15:8 */
	u64 eoi_exit[4];       /* the EOI-exit bitmap: vectors 0-63, 64-127, ... */
	struct vlapic_run run; /* the IRR and ISR at the entry */
};

/* Before an entry (the owner): posted requests into the IRR, then *e. */
void vmx_apicv_prepare(struct vlapic *l, struct vmx_apicv_entry *e);

#endif
