/* SPDX-License-Identifier: GPL-2.0-only */
/* What the SVM backend keeps per vCPU, per VM and per pCPU (the `svm` members of
 * struct arch_vcpu, arch_vm and arch_pcpu): nothing outside arch/x86/svm/ reads it. */
#ifndef ARCH_X86_SVM_STATE_H
#define ARCH_X86_SVM_STATE_H

#include "arch/x86/irq/vlapic.h"
#include "hv/types.h"

/* One guest entry and the exit that ended it; a vCPU keeps its last few for the report of
 * a fault that stops it (which state the hypervisor resumed it with, what came next). */
#define ENTRY_TRACE_LEN 4
struct entry_trace {
	u64 rip, eventinj, int_shadow;	     /* as the entry found them in the VMCB */
	u8 irq;				     /* the interrupt offered (V_IRQ), 0: none */
	u64 exit_code, exit_info1, exit_rip; /* the exit that ended it */
};

struct svm_vcpu {
	u8 *vmcb; /* page, identity-mapped (host address == physical address) */
	/* NMI blocking (APM 15.20): from the injection of an NMI until its handler's IRET
	 * has executed, no further NMI is injected. The IRET is intercepted; it has run once
	 * RIP has left the IRET (nmi_iret_rip). */
	bool nmi_masked;
	bool nmi_iret_seen;
	u64 nmi_iret_rip;
	/* An NMI waits for that IRET, or an NMI or interrupt for an interrupt shadow to end:
	 * the instruction is single-stepped (step_over), the guest's own TF and its DR6 kept
	 * here. */
	bool window_step, window_step_tf;
	u64 window_step_dr6;
	/* The last entry offered the guest an interrupt through V_IRQ (V_INTR_VECTOR holds
	 * it, acknowledged in the vLAPIC): svm.c, offer_irq. */
	bool irq_offered;
	struct entry_trace trace[ENTRY_TRACE_LEN];
	u32 trace_next;		    /* the slot of the next entry */
	bool avic;		    /* it has AVIC (avic.h)... */
	bool avic_on;		    /* ...and its next / last entry runs with it (choose_avic) */
	struct vlapic_run avic_run; /* its IRR and ISR at the entry */
};

struct svm_vm {
	u64 *npt_root; /* nested page table (PML4) */
	u32 asid;
	u64 *avic_physical; /* AVIC's tables (avic.h); NULL: its vCPUs' APICs are emulated */
	u32 *avic_logical;
};

struct svm_pcpu {
	u8 *hsave;     /* VM_HSAVE_PA page */
	u8 *host_save; /* VMSAVE area for host FS/GS/TR... */
};

#endif
