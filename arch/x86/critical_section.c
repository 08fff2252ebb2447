/* SPDX-License-Identifier: GPL-2.0-only */
/* Whether a vCPU is inside a guest critical section, for the scheduler's boost
 * (hv/sched.c): interrupts masked in kernel mode, or a non-zero preempt count that the
 * guest published through HV_MSR_PREEMPT_COUNT (`pv = preempt`, guest_abi/hv_para.h;
 * the module guest_abi/module/hvpreempt.c registers Linux's per-CPU __preempt_count). */
#include "arch/x86/guest.h"
#include "hv/arch.h"
#include "arch/x86/vendor.h"
#include "guest_abi/hv_para.h"
#include "guest_abi/kvm_para.h"

int preempt_count_wrmsr(struct vcpu *v, u64 val)
{
	/* Reserved bit 1 (the word is 4-byte aligned), or a word outside the VM's RAM (as
	 * KVM answers for MSR_KVM_PV_EOI_EN). */
	if ((val & 2) || ((val & KVM_MSR_ENABLED) && !gpa_to_hva(v->vm, val & ~3ull, 4)))
		return -1;
	v->arch.preempt_count_msr = val;
	return 0;
}

/* The count the guest published, 0 when it published none. */
static u32 preempt_count(struct vcpu *v)
{
	u64 msr = v->arch.preempt_count_msr;
	if (!(msr & KVM_MSR_ENABLED))
		return 0;
	const volatile u32 *word = gpa_to_hva(v->vm, msr & ~3ull, sizeof(u32));
	return *word & HV_PREEMPT_COUNT_MASK;
}

/* The interrupt window ends a section with interrupts masked (the vendor's inject); a
 * preempt count going back to 0 gives no exit. */
bool arch_vcpu_sees_section_end(struct vcpu *v)
{
	return !(x86_get(v, X86_RFLAGS) & X86_RFLAGS_IF);
}

enum critical_section arch_vcpu_in_critical_section(struct vcpu *v)
{
	if (x86_get(v, X86_CPL) == 0 && !(x86_get(v, X86_RFLAGS) & X86_RFLAGS_IF))
		return CS_IRQS_MASKED;
	return preempt_count(v) ? CS_PREEMPT_COUNT : CS_NONE;
}
