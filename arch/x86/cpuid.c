/* SPDX-License-Identifier: GPL-2.0-only */
/* The CPUID a guest sees: the KVM signature and features at 0x40000000 (Linux keeps
 * x2APIC on without interrupt remapping only under a hypervisor it recognises), this
 * project's own leaves at 0x40000100 (guest_abi/hv_para.h), and the CPU's leaves
 * through the allow-list of cpuid_policy.c. */
#include "arch/cpu.h"
#include "arch/x86/cpuid_policy.h"
#include "arch/x86/guest.h"
#include "arch/x86/vendor.h"
#include "guest_abi/hv_para.h"
#include "guest_abi/kvm_para.h"
#include "hv/pv_features.h"

/* CPUID 0x40000001 EAX bits of each feature (Linux Documentation/virt/kvm/x86/cpuid.rst). */
static const u32 kvm_feature_bits[PV_FEATURES] = {
	[PV_CLOCK] = BIT(KVM_FEATURE_CLOCKSOURCE2),
	[PV_STEAL] = BIT(KVM_FEATURE_STEAL_TIME),
	[PV_EOI] = BIT(KVM_FEATURE_PV_EOI),
	[PV_UNHALT] = BIT(KVM_FEATURE_PV_UNHALT),
	[PV_TLB_FLUSH] = BIT(KVM_FEATURE_PV_TLB_FLUSH),
	[PV_IPI] = BIT(KVM_FEATURE_PV_SEND_IPI),
	[PV_YIELD] = BIT(KVM_FEATURE_PV_SCHED_YIELD),
};

void x86_cpuid(struct vcpu *v, u32 leaf, u32 sub, u32 r[4])
{
	if (leaf == KVM_CPUID_SIGNATURE) {
		r[0] = KVM_CPUID_FEATURES;
		r[1] = 0x4b4d564b; /* "KVMK" */
		r[2] = 0x564b4d56; /* "VMKV" */
		r[3] = 0x0000004d; /* "M\0\0\0" */
		return;
	}
	if (leaf == KVM_CPUID_FEATURES) {
		r[0] = r[1] = r[2] = r[3] = 0;
		for (int f = 0; f < PV_FEATURES; f++)
			if (v->vm->pv & BIT(f))
				r[0] |= kvm_feature_bits[f];
		if ((v->vm->pv & BIT(PV_CLOCK)) && kvmclock_tsc_stable())
			r[0] |= BIT(KVM_FEATURE_CLOCKSOURCE_STABLE_BIT);
		return;
	}
	if (leaf == HV_CPUID_SIGNATURE) {
		r[0] = HV_CPUID_FEATURES;
		r[1] = r[2] = r[3] = HV_CPUID_SIGNATURE_EBX;
		return;
	}
	if (leaf == HV_CPUID_FEATURES) {
		r[0] = r[1] = r[2] = r[3] = 0;
		if (v->vm->pv & BIT(PV_PREEMPT))
			r[0] |= BIT(HV_FEATURE_PREEMPT_COUNT);
		return;
	}
	if (leaf >= 0x40000000 && leaf < 0x80000000) {
		r[0] = r[1] = r[2] = r[3] = 0;
		return;
	}
	struct cpuid_guest g = {
		.nvcpus = v->vm->nvcpus,
		.id = v->id,
		.xcr0_mask = xstate_guest_mask(),
		.xcr0 = xstate_guest_xcr0(v),
		.osxsave = x86_get(v, X86_CR4) & X86_CR4_OSXSAVE,
		.apic = vlapic_enabled(&v->arch.lapic),
	};
	cpuid_policy(cpu_cpuid, &g, leaf, sub, r);
	if (x86_vendor->cpuid_filter)
		x86_vendor->cpuid_filter(leaf, sub, r);
}
