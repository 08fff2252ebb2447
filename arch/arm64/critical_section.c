/* SPDX-License-Identifier: GPL-2.0-only */
/* Whether a vCPU is inside a guest critical section, for the scheduler's boost
 * (hv/sched.c): interrupts masked at EL1, or a non-zero preempt count of the task it
 * runs. arm64 Linux keeps that count in each task's thread_info, an address that changes
 * at every task switch, so the guest registers (HV_SMCCC_PREEMPT_COUNT, `pv = preempt`,
 * guest_abi/hv_para.h) a word of its own that holds the running task's count address:
 * the module guest_abi/module/hvpreempt.c rewrites it at every task switch. */
#include "arch/arm64/guest.h"
#include "hv/arch.h"
#include "hv/printk.h"
#include "hv/vm.h"
#include "guest_abi/hv_para.h"

#define REG_ENABLED 1ull
#define REG_WORD (~7ull) /* the registered word is 8-byte aligned */

int arm64_preempt_count_register(struct vcpu *v, u64 reg)
{
	if ((reg & REG_ENABLED) && !gpa_to_hva(v->vm, reg & REG_WORD, sizeof(u64)))
		return -1;
	v->arch.preempt_count_reg = reg;
	return 0;
}

/* The running task's count as the guest published it, 0 when it published none. Both
 * words are the guest's and may change under us: each is read once. */
static u32 preempt_count(struct vcpu *v)
{
	u64 reg = v->arch.preempt_count_reg;
	if (!(reg & REG_ENABLED))
		return 0;
	const volatile u64 *word = gpa_to_hva(v->vm, reg & REG_WORD, sizeof(u64));
	if (!word) /* checked when registered; RAM does not move */
		return 0;
	u64 at = *word;
	if (!at)
		return 0;
	const volatile u32 *count = at & 3 ? NULL : gpa_to_hva(v->vm, at, sizeof(u32));
	/* Not counted as a bad access: the guest cannot know when (or whether) a scheduling
	 * decision read the word, so a count would say nothing it could check; the module
	 * author gets one line per vCPU. */
	if (!count) {
		if (!v->arch.preempt_count_warned)
			printk("hv: VM '%s' vcpu%u: its preempt count word holds IPA %#llx, not an "
			       "aligned word of RAM: taken as 0 (said once)\n",
			       v->vm->name, v->id, (unsigned long long)at);
		v->arch.preempt_count_warned = true;
		return 0;
	}
	return *count & HV_PREEMPT_COUNT_MASK;
}

/* Interrupts masked at EL1: SPSR_EL2 M[4:2] = 0b001 is AArch64 EL1, I is bit 7 (Arm ARM
 * C5.2.19). */
enum critical_section arch_vcpu_in_critical_section(struct vcpu *v)
{
	u64 spsr = v->arch.regs.spsr;
	if ((spsr & 0x1c) == 0x4 && (spsr & BIT(7)))
		return CS_IRQS_MASKED;
	return preempt_count(v) ? CS_PREEMPT_COUNT : CS_NONE;
}

/* No trap when the guest unmasks interrupts (a pending virtual IRQ is taken by the
 * guest, not by EL2) or its count drops to 0: a section's end is seen only at the next
 * exit. */
bool arch_vcpu_sees_section_end(struct vcpu *v)
{
	(void)v;
	return false;
}
