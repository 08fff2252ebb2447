/* SPDX-License-Identifier: GPL-2.0-only */
/* What the pCPUs do against speculative-execution leaks from the hypervisor and between
 * VMs (speculation.c), decided once at boot from the CPU's CPUID and
 * IA32_ARCH_CAPABILITIES, with the rules Linux and KVM apply. Always, on every CPU: the
 * hypervisor's indirect branches are retpolines (retpoline.asm), the return stack buffer
 * is filled and the guest's registers cleared after each exit (svm_run.asm,
 * vmx_run.asm), and a guest's IA32_SPEC_CTRL (its IBRS, STIBP, SSBD) is in force only
 * while it runs (vcpu.c). */
#ifndef ARCH_X86_SPECULATION_H
#define ARCH_X86_SPECULATION_H

#include "arch/x86/cpuid_policy.h"

#define MSR_IA32_ARCH_CAPABILITIES 0x10A
#define ARCH_CAP_RDCL_NO BIT(0)		   /* not affected by Meltdown or L1TF */
#define ARCH_CAP_IBRS_ALL BIT(1)	   /* enhanced IBRS */
#define ARCH_CAP_RSBA BIT(2)		   /* RET may be predicted from the BTB */
#define ARCH_CAP_SKIP_L1DFL_VMENTRY BIT(3) /* no L1D flush needed before VM entry */
#define ARCH_CAP_MDS_NO BIT(5)
#define ARCH_CAP_TSX_CTRL BIT(7)
#define ARCH_CAP_TAA_NO BIT(8)
#define ARCH_CAP_BHI_NO BIT(20)
#define ARCH_CAP_RFDS_NO BIT(27)
#define ARCH_CAP_RFDS_CLEAR BIT(28)

struct x86_speculation {
	bool ibpb;	    /* IBPB when a pCPU switches VMs (Spectre v2 between VMs) */
	bool verw;	    /* VERW clears the CPU's buffers before each entry (MDS, TAA) */
	bool l1d_flush;	    /* the L1D is flushed before an entry that follows hypervisor
			     * work (L1TF) */
	bool flush_cmd;	    /* ... by IA32_FLUSH_CMD, else by reading 64 KiB */
	u64 host_spec_ctrl; /* IA32_SPEC_CTRL while the hypervisor runs: IBRS with enhanced
			     * IBRS, BHI_DIS_S where the CPU has it */
	char text[400];	    /* the set, as the console says it */
};

/* Decides for the CPU whose CPUID is `host`; read_msr reads IA32_ARCH_CAPABILITIES where
 * CPUID says the CPU has it. */
void x86_speculation_decide(cpuid_fn host, u64 (*read_msr)(u32 msr), struct x86_speculation *s);

/* The set in force (decided by x86_speculation_init, in arch_boot_probe); vmx_run.asm
 * reads x86_verw_before_entry (1: x86_speculation.verw). */
extern struct x86_speculation x86_speculation;
extern u8 x86_verw_before_entry;
void x86_speculation_init(void);
/* On each pCPU as it starts: the hypervisor's IA32_SPEC_CTRL. */
void x86_speculation_pcpu_init(void);
/* Before an entry: flushes the L1D where the set says so (the caller knows whether the
 * hypervisor did more since the last entry than handle a fast exit). */
void x86_speculation_before_entry(void);

#endif
