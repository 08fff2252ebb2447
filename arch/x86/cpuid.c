/* SPDX-License-Identifier: GPL-2.0-only */
/* The CPUID a guest sees: the host's, with a deliberate policy on top.
 * Hidden: SVM/VMX (no nested virtualization), MONITOR/MWAIT, XSAVE and everything that
 * needs it (AVX...; the FPU state is switched with FXSAVE), RDTSCP/RDPID (TSC_AUX is not
 * switched), PKU, MTRR, MCE/MCA, performance counters, topology extensions.
 * Offered: x2APIC, TSC-deadline timer, ARAT, the hypervisor bit, and the KVM signature at
 * 0x40000000 (Linux keeps x2APIC on without interrupt remapping only under a hypervisor it
 * recognises), and this project's own leaves at 0x40000100 (guest_abi/hv_para.h).
 * Topology: one core per vCPU, x2APIC ID = vCPU index. */
#include "arch/cpu.h"
#include "arch/x86/guest.h"
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

static u32 bits_for(u32 n)
{
	u32 b = 0;
	while ((1u << b) < n)
		b++;
	return b;
}

void x86_cpuid(struct vcpu *v, u32 leaf, u32 sub, u32 r[4])
{
	u32 n = v->vm->nvcpus;
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
	u32 max_basic, max_ext, dummy;
	cpuid(0, 0, &max_basic, &dummy, &dummy, &dummy);
	cpuid(0x80000000, 0, &max_ext, &dummy, &dummy, &dummy);
	if ((leaf < 0x80000000 && leaf > max_basic) || (leaf >= 0x80000000 && leaf > max_ext) ||
	    (leaf > 0x40000001 && leaf < 0x80000000 && leaf >= 0x40000000)) {
		r[0] = r[1] = r[2] = r[3] = 0;
		return;
	}
	cpuid(leaf, sub, &r[0], &r[1], &r[2], &r[3]);
	switch (leaf) {
	case 0:
		r[0] = MIN(r[0], 0xDu);
		break;
	case 1:
		r[1] = (r[1] & 0xFFFF) | (MIN(n, 255u) << 16) | (v->id << 24);
		r[2] &= ~(BIT(3) | BIT(5) | BIT(12) | BIT(26) | BIT(27) | BIT(28) |
			  BIT(29));		     /* MONITOR VMX FMA XSAVE OSXSAVE AVX F16C */
		r[2] |= BIT(21) | BIT(24) | BIT(31); /* x2APIC TSC-DEADLINE HYPERVISOR */
		r[3] &= ~(BIT(7) | BIT(12) | BIT(14) | BIT(22) |
			  BIT(29)); /* MCE MTRR MCA ACPI-thermal TM */
		r[3] |= BIT(28);    /* HTT: multiple logical CPUs */
		break;
	case 5:
		r[0] = r[1] = r[2] = r[3] = 0;
		break;
	case 6:
		r[0] = BIT(2); /* ARAT: the APIC timer keeps running in deep C-states */
		r[1] = r[2] = r[3] = 0;
		break;
	case 7:
		if (sub == 0) {
			r[1] &= ~(BIT(5) | BIT(16) | BIT(17) | BIT(21) | BIT(26) | BIT(27) |
				  BIT(28) | BIT(30) | BIT(31)); /* AVX2, AVX-512 */
			r[2] &= ~(BIT(1) | BIT(3) | BIT(4) | BIT(5) |
				  BIT(22)); /* AVX512VBMI PKU OSPKE WAITPKG RDPID */
		} else {
			r[0] = r[1] = r[2] = r[3] = 0;
		}
		break;
	case 0xA:
		r[0] = r[1] = r[2] = r[3] = 0;
		break;
	case 0xB:
		/* x2APIC topology (SDM vol. 2, CPUID leaf 0Bh): SMT level, then core level. */
		if (sub == 0) {
			r[0] = 0;
			r[1] = 1;
			r[2] = (1u << 8) | sub;
		} else if (sub == 1) {
			r[0] = bits_for(n);
			r[1] = n;
			r[2] = (2u << 8) | sub;
		} else {
			r[0] = r[1] = 0;
			r[2] = sub;
		}
		r[3] = v->id;
		break;
	case 0xD:
		r[0] = r[1] = r[2] = r[3] = 0;
		break;
	case 0x80000001:
		r[2] &= ~(BIT(2) | BIT(3) | BIT(11) | BIT(16) | BIT(22) |
			  BIT(23)); /* SVM ExtApicSpace XOP FMA4 TOPOEXT PerfCtrExtCore */
		r[3] &= ~BIT(27);   /* RDTSCP */
		r[1] = 0;
		break;
	case 0x80000008:
		r[2] = (bits_for(n) << 12) | (n - 1); /* ApicIdSize, NC */
		break;
	case 0x8000000A:
		r[0] = r[1] = r[2] = r[3] = 0;
		break;
	}
}
