/* SPDX-License-Identifier: GPL-2.0-only */
/* Which of the CPU's features a guest sees in CPUID: an allow-list, every bit of which
 * the hypervisor implements (cpuid_policy.c). The hypervisor's own leaves at
 * 0x40000000 are cpuid.c's. */
#ifndef ARCH_X86_CPUID_POLICY_H
#define ARCH_X86_CPUID_POLICY_H

#include "arch/x86/xstate.h"

/* What of one vCPU the policy needs. */
struct cpuid_guest {
	u32 nvcpus, id; /* the VM's vCPUs; this one's index (= its APIC ID) */
	u64 xcr0_mask;	/* XSAVE components offered (xstate_guest_xcr0_mask) */
	u64 xcr0;	/* the guest's XCR0 now */
	bool osxsave;	/* the guest's CR4.OSXSAVE now */
	bool apic;	/* its local APIC is enabled (IA32_APIC_BASE.EN): CPUID.1:EDX.APIC */
};

/* CPUID leaf `leaf`, sub-leaf `sub`, as the guest sees it, for leaves below 0x40000000
 * and from 0x80000000. */
void cpuid_policy(cpuid_fn host, const struct cpuid_guest *g, u32 leaf, u32 sub, u32 r[4]);

/* The CPU's flag `bit` in register reg (0-3: EAX-EDX) of leaf, false where the leaf is
 * beyond the last one of its range (basic, or extended from 0x80000000). */
bool cpuid_has(cpuid_fn host, u32 leaf, int reg, u32 bit);

/* Speculation control as the CPU has it, Intel's or AMD's enumeration (SDM vol. 2
 * CPUID leaf 07h EDX; AMD's "Indirect Branch Control Extension" and SSBD white
 * papers, CPUID 8000_0008h EBX). The policy offers these where the CPU has them, and
 * msr.c implements IA32_SPEC_CTRL (0x48) and IA32_PRED_CMD (0x49) for them. */
#define SPEC_CTRL_IBRS BIT(0)
#define SPEC_CTRL_STIBP BIT(1)
#define SPEC_CTRL_SSBD BIT(2)
u64 cpuid_spec_ctrl_bits(cpuid_fn host); /* the IA32_SPEC_CTRL bits a guest may set */
bool cpuid_has_ibpb(cpuid_fn host);
/* RDTSCP or RDPID offered: IA32_TSC_AUX is then the guest's (msr.c, vcpu.c). */
bool cpuid_has_tsc_aux(cpuid_fn host);

#endif
