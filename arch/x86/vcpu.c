/* SPDX-License-Identifier: GPL-2.0-only */
/* A vCPU on a pCPU, whichever the vendor: its run (the vendor's loop), and the host state
 * it puts in place while it holds the pCPU (load) and takes back when it leaves (put). */
#include "arch/cpu.h"
#include "arch/x86/guest.h"
#include "arch/x86/pcpu.h"
#include "arch/x86/vendor.h"
#include "arch/x86/xstate.h"
#include "hv/arch.h"
#include "hv/sched.h"

enum run_result arch_vcpu_run(struct vcpu *v) { return x86_vendor->run(v); }

void arch_vcpu_load(struct vcpu *v)
{
	struct arch_pcpu *p = &pcpus[v->pcpu].arch;
	/* No branch predictions trained by another VM steer this one (Spectre v2). */
	if (x86_msr_caps.ibpb && p->last_vm != v->vm)
		wrmsr(MSR_IA32_PRED_CMD, PRED_CMD_IBPB);
	p->last_vm = v->vm;
	xstate_load(v);
	if (x86_msr_caps.tsc_aux) /* what the guest's RDTSCP and RDPID read */
		wrmsr(MSR_TSC_AUX, v->arch.tsc_aux);
	__asm__ volatile("mov %0, %%db0\n\tmov %1, %%db1\n\tmov %2, %%db2\n\tmov %3, %%db3" ::"r"(
				 v->arch.dr[0]),
			 "r"(v->arch.dr[1]), "r"(v->arch.dr[2]), "r"(v->arch.dr[3]));
}

void arch_vcpu_put(struct vcpu *v)
{
	if (v->state == VCPU_RUNNABLE)
		steal_time_preempted(v);
	xstate_put(v);
	__asm__ volatile("mov %%db0, %0\n\tmov %%db1, %1\n\tmov %%db2, %2\n\tmov %%db3, %3"
			 : "=r"(v->arch.dr[0]), "=r"(v->arch.dr[1]), "=r"(v->arch.dr[2]),
			   "=r"(v->arch.dr[3]));
}
