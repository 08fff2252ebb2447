/* SPDX-License-Identifier: GPL-2.0-only */
/* AMD AVIC with x2APIC virtualization (x2AVIC), per vCPU (AMD APM vol. 2, 15.29).
 *
 * The vLAPIC's register page is the vCPU's AVIC backing page; a per-VM physical APIC ID
 * table gives, for each x2APIC ID (= vCPU id), that page, the host APIC ID of the pCPU
 * that runs the vCPU and IsRunning. The guest then takes its interrupts from the page's
 * IRR, writes TPR and EOI, and sends fixed edge-triggered IPIs without exits: the
 * sender's CPU sets the IRR bit in the target's page itself and, if the target runs in
 * guest mode (IsRunning), rings its pCPU's doorbell; an edge EOI completes without an
 * exit. IsRunning is set only around each VMRUN (exact: a vCPU halted, preempted or in
 * the hypervisor is not running), so an IPI to a vCPU outside guest mode exits on the
 * sender (AVIC_INCOMPLETE_IPI, "target not running") after the CPU set the IRR bits,
 * and the hypervisor only wakes or kicks those targets. Interrupts the hypervisor sends
 * (IOAPIC, timer, PV IPIs, emulated IPIs) set the IRR bit as well and ring the doorbell
 * for a target in guest mode (arch_notify_running), else kick it.
 *
 * What exits: IPIs that are not fixed and edge-triggered (NMI, INIT, STARTUP, lowest
 * priority, level) or that name an ID without a valid entry, emulated by the vLAPIC;
 * the EOI of a level-triggered vector (its TMR bit set: a trap, for the IOAPIC); every
 * x2APIC register access this backend does not hand to the CPU (avic_msr_*_passthrough:
 * the ones the vLAPIC computes, the timer, SELF IPI) as a plain MSR intercept.
 *
 * Used where the CPU has AVIC and x2AVIC (CPUID 8000_000Ah EDX[13], EDX[18]) and the
 * VM's `apicv` is not off: the vLAPIC here is x2APIC only, and without x2AVIC every
 * x2APIC register access would exit. Elsewhere the vLAPIC is emulated (interrupts
 * offered through V_IRQ, svm.c offer_irq), which the console says per VM with the reason.
 *
 * Under AVIC the CPU ignores V_IRQ (APM 15.29.2), and with it the interrupt-window
 * exit: an entry that wants the window (an NMI waiting behind an NMI handler's IRET, the
 * end of a turn extended for a guest critical section, hv/sched.h), or whose guest's APIC
 * is out of x2APIC mode, runs with the vCPU's APIC emulated (svm.c, choose_avic). The
 * level-EOI trap is completed here as a whole EOI (the in-service bit is cleared here:
 * KVM's handling of that trap, arch/x86/kvm/svm/avic.c, does the same). */
#ifndef ARCH_X86_SVM_AVIC_H
#define ARCH_X86_SVM_AVIC_H

#include "hv/vm.h"

#define MSR_AVIC_DOORBELL 0xC001011Bu /* the host APIC ID of the pCPU to tell */

/* Physical APIC ID table entry (APM 15.29.3.2). */
#define AVIC_ENTRY_HOST_ID 0xFFFull
#define AVIC_ENTRY_PAGE 0x000FFFFFFFFFF000ull
#define AVIC_ENTRY_RUNNING BIT(62)
#define AVIC_ENTRY_VALID BIT(63)
/* x2APIC IDs the table holds (one page of entries); vCPUs with a higher one are emulated. */
#define AVIC_MAX_ID 511

/* AVIC_INCOMPLETE_IPI: why, in EXITINFO2[63:32] (EXITINFO1 holds the ICR). */
enum avic_ipi_failure {
	AVIC_IPI_INVALID_TYPE,	 /* not fixed edge-triggered: to be emulated */
	AVIC_IPI_NOT_RUNNING,	 /* the IRR bits are set; a target is not in guest mode */
	AVIC_IPI_INVALID_TARGET, /* an ID without a valid entry */
	AVIC_IPI_INVALID_BACKING_PAGE,
	AVIC_IPI_INVALID_VECTOR, /* a vector below 16 */
};
/* AVIC_NOACCEL: EXITINFO1 bits 11:4 the register's offset, bit 32 a write. */
#define AVIC_NOACCEL_OFFSET 0xFF0ull
#define AVIC_NOACCEL_WRITE BIT(32)

/* The CPU's CPUID 8000_000Ah EDX, once. */
void avic_probe(u32 edx);
/* The CPU has AVIC and x2AVIC: VMs use them unless `apicv = off`. */
bool avic_available(void);
/* Whether the VM's vCPUs use AVIC; if not, the console says why. */
bool avic_vm_init(struct vm *vm);
/* The x2APIC MSRs an AVIC vCPU reads / writes without an intercept. */
bool avic_msr_read_passthrough(u32 msr);
bool avic_msr_write_passthrough(u32 msr);
/* A vCPU of an AVIC VM (avic_vm_init): its VMCB fields and table entry; false for a vCPU
 * whose ID the table cannot hold (then emulated). */
bool avic_vcpu_init(struct vcpu *v);
/* Around each VMRUN of an AVIC vCPU, on its pCPU: IsRunning and the run's counts. */
void avic_enter(struct vcpu *v);
void avic_exit(struct vcpu *v);
/* arch_notify_running for an AVIC vCPU: the doorbell. */
bool avic_notify(struct vcpu *v, u32 pcpu);
/* The exits, from their EXITINFO1 and 2. AVIC_NOACCEL that is not a trap (the access
 * has not happened) is an x2APIC MSR access for vcpu.c: true, with *write set. */
void avic_incomplete_ipi(struct vcpu *v, u64 info1, u64 info2);
bool avic_unaccelerated(struct vcpu *v, u64 info1, bool *write);

#endif
