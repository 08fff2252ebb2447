/* SPDX-License-Identifier: GPL-2.0-only */
/* Guest MSRs that exit (everything the vendor does not switch: svm_vm_init). The local
 * APIC ones go to the virtual x2APIC; a few architectural ones are emulated; anything
 * else gets #GP, as on a CPU that lacks the MSR, and is counted by the caller. */
#include "arch/cpu.h"
#include "arch/x86/cpuid_policy.h"
#include "arch/x86/guest.h"
#include "arch/x86/irq/pv_eoi.h"
#include "arch/x86/vendor.h"
#include "guest_abi/hv_para.h"
#include "guest_abi/kvm_para.h"
#include "hv/pv_features.h"

#define MSR_TSC 0x10
#define MSR_PLATFORM_ID 0x17
#define MSR_MISC_ENABLE 0x1A0
#define MSR_MTRRCAP 0xFE
#define MSR_MCG_CAP 0x179
#define MSR_MCG_STATUS 0x17A
#define MSR_K7_HWCR 0xC0010015
#define MSR_AMD64_PATCH_LEVEL 0x8B
#define MSR_K8_INT_PENDING_MSG 0xC0010055
#define MSR_AMD64_DE_CFG 0xC0011029

/* IA32_MISC_ENABLE (SDM vol. 4, table 2-2) as KVM keeps it: what the guest writes reads
 * back, except EMON (7), read-only, and BTS and PEBS unavailable (11, 12), set at power-up
 * (there is no PMU) and a #GP to change. */
#define MISC_ENABLE_EMON BIT(7)
#define MISC_ENABLE_BTS_UNAVAIL BIT(11)
#define MISC_ENABLE_PEBS_UNAVAIL BIT(12)
#define MISC_ENABLE_RO (MISC_ENABLE_BTS_UNAVAIL | MISC_ENABLE_PEBS_UNAVAIL)

/* The legacy performance-counter MSRs that every AMD64 CPU (PerfEvtSel0-3 at 0xC0010000,
 * PerfCtr0-3 at 0xC0010004; APM vol. 2, 13.2.1) and every P6-family Intel CPU (PerfCtr0-1 at
 * 0xC1, PerfEvtSel0-1 at 0x186) has, so guests touch them without asking CPUID: Linux's perf
 * on AMD, kvm-unit-tests' start-up code. The guest has no PMU; as KVM without one, they read
 * 0 and writes are dropped. */
static bool legacy_pmu_msr(u32 msr)
{
	return (msr >= 0xC0010000 && msr <= 0xC0010007) || msr == 0xC1 || msr == 0xC2 ||
	       msr == 0x186 || msr == 0x187;
}

void x86_msr_vcpu_init(struct vcpu *v) { v->arch.misc_enable = MISC_ENABLE_RO; }

struct x86_msr_caps x86_msr_caps;

void x86_msr_probe(void)
{
	x86_msr_caps.spec_ctrl_bits = cpuid_spec_ctrl_bits(cpu_cpuid);
	x86_msr_caps.ibpb = cpuid_has_ibpb(cpu_cpuid);
	x86_msr_caps.tsc_aux = cpuid_has_tsc_aux(cpu_cpuid);
}

/* The PV feature an MSR belongs to; with the feature off the MSR does not exist. */
static bool pv_msr_enabled(struct vcpu *v, u32 msr)
{
	switch (msr) {
	case MSR_KVM_WALL_CLOCK_NEW:
	case MSR_KVM_SYSTEM_TIME_NEW:
		return v->vm->pv & BIT(PV_CLOCK);
	case MSR_KVM_STEAL_TIME:
		return v->vm->pv & BIT(PV_STEAL);
	case MSR_KVM_PV_EOI_EN:
		return v->vm->pv & BIT(PV_EOI);
	case HV_MSR_PREEMPT_COUNT:
		return v->vm->pv & BIT(PV_PREEMPT);
	}
	return true;
}

int x86_rdmsr(struct vcpu *v, u32 msr, u64 *val)
{
	struct vlapic *l = &v->arch.lapic;
	if (!pv_msr_enabled(v, msr))
		return -1;
	if (msr == MSR_IA32_APIC_BASE || msr == MSR_IA32_TSC_DEADLINE ||
	    (msr >= MSR_X2APIC_FIRST && msr <= MSR_X2APIC_LAST))
		return vlapic_rdmsr(l, msr, val, rdtsc());
	if (legacy_pmu_msr(msr)) {
		*val = 0;
		return 0;
	}
	switch (msr) {
	case MSR_KVM_SYSTEM_TIME_NEW:
		*val = v->arch.kvmclock_msr;
		return 0;
	case MSR_KVM_WALL_CLOCK_NEW:
		*val = 0;
		return 0;
	case MSR_KVM_STEAL_TIME:
		*val = v->arch.steal_msr;
		return 0;
	case MSR_KVM_PV_EOI_EN:
		*val = v->arch.pv_eoi_msr;
		return 0;
	case HV_MSR_PREEMPT_COUNT:
		*val = v->arch.preempt_count_msr;
		return 0;
	case MSR_TSC:
		*val = x86_guest_tsc(v, rdtsc());
		return 0;
	case MSR_IA32_SPEC_CTRL:
		*val = v->arch.spec_ctrl;
		return x86_msr_caps.spec_ctrl_bits ? 0 : -1;
	case MSR_TSC_AUX:
		*val = v->arch.tsc_aux;
		return x86_msr_caps.tsc_aux ? 0 : -1;
	case MSR_MTRRCAP:
	case MSR_MCG_CAP:
	case MSR_MCG_STATUS:
	case MSR_AMD64_PATCH_LEVEL:
	case MSR_PLATFORM_ID:
	case MSR_K8_INT_PENDING_MSG:
	case MSR_AMD64_DE_CFG:
		*val = 0;
		return 0;
	case MSR_K7_HWCR:
		*val = BIT(24); /* TscFreqSel: the TSC counts at the P0 frequency */
		return 0;
	case MSR_MISC_ENABLE:
		*val = v->arch.misc_enable;
		return 0;
	}
	return -1;
}

/* A write to the TSC (SDM vol. 3B, 18.17): the vCPU's TSC reads val now and counts on from
 * there, through the offset the CPU adds; what counts in the guest's TSC follows it (its
 * TSC-deadline timer, its kvmclock record, which KVM rewrites too). */
static void write_tsc(struct vcpu *v, u64 val)
{
	u64 now = rdtsc();
	vlapic_set_tsc_offset(&v->arch.lapic, val - now, now);
	x86_vendor->set_tsc_offset(v, val - now);
	if (v->arch.kvmclock_msr & 1)
		kvmclock_wrmsr(v, MSR_KVM_SYSTEM_TIME_NEW, v->arch.kvmclock_msr);
	vcpu_kick(v); /* the pCPU re-arms its host timer for the deadline */
}

int x86_wrmsr(struct vcpu *v, u32 msr, u64 val)
{
	struct vlapic *l = &v->arch.lapic;
	if (!pv_msr_enabled(v, msr))
		return -1;
	if (msr == MSR_IA32_APIC_BASE || msr == MSR_IA32_TSC_DEADLINE ||
	    (msr >= MSR_X2APIC_FIRST && msr <= MSR_X2APIC_LAST)) {
		int r = vlapic_wrmsr(l, msr, val, rdtsc());
		if (msr == 0x83F && !r)
			v->stats.ipi_self++;
		if (msr == MSR_IA32_TSC_DEADLINE || msr == 0x838)
			vcpu_kick(v); /* the pCPU re-arms its host timer for the new deadline */
		return r;
	}
	if (legacy_pmu_msr(msr))
		return 0;
	switch (msr) {
	case MSR_TSC:
		write_tsc(v, val);
		return 0;
	case MSR_MISC_ENABLE:
		if ((val ^ v->arch.misc_enable) & MISC_ENABLE_RO)
			return -1;
		v->arch.misc_enable = (val & ~MISC_ENABLE_EMON) |
				      (v->arch.misc_enable & MISC_ENABLE_EMON);
		return 0;
	case MSR_KVM_SYSTEM_TIME_NEW:
	case MSR_KVM_WALL_CLOCK_NEW:
		if (kvmclock_wrmsr(v, msr, val))
			v->stats.bad_accesses++; /* KVM ignores an unusable address too */
		return 0;
	case MSR_KVM_STEAL_TIME:
		return steal_time_wrmsr(v, val);
	case MSR_KVM_PV_EOI_EN:
		return pv_eoi_wrmsr(v, val);
	case HV_MSR_PREEMPT_COUNT:
		return preempt_count_wrmsr(v, val);
	case MSR_IA32_SPEC_CTRL:
		/* In force from the next entry on (svm.c); only the bits CPUID offers. */
		if (!x86_msr_caps.spec_ctrl_bits || (val & ~x86_msr_caps.spec_ctrl_bits))
			return -1;
		v->arch.spec_ctrl = val;
		return 0;
	case MSR_IA32_PRED_CMD:
		if (!x86_msr_caps.ibpb || (val & ~PRED_CMD_IBPB))
			return -1;
		if (val)
			wrmsr(MSR_IA32_PRED_CMD, PRED_CMD_IBPB);
		return 0;
	case MSR_TSC_AUX:
		if (!x86_msr_caps.tsc_aux || (val >> 32))
			return -1;
		v->arch.tsc_aux = (u32)val;
		wrmsr(MSR_TSC_AUX, val); /* the vCPU is loaded here */
		return 0;
	case MSR_MCG_STATUS:
	case MSR_K7_HWCR:
	case MSR_AMD64_DE_CFG:
	/* Intel's microcode signature (IA32_BIOS_SIGN_ID, the index of AMD's patch level):
	 * 0 is written before a CPUID(1) to read the revision (SDM vol. 3A, 10.11.7.1). */
	case MSR_AMD64_PATCH_LEVEL:
		return 0; /* accepted and ignored */
	}
	return -1;
}
