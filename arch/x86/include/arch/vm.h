/* SPDX-License-Identifier: GPL-2.0-only */
/* The x86 backend's part of struct vm and struct vcpu. */
#ifndef ARCH_X86_VM_H
#define ARCH_X86_VM_H

#include "hv/types.h"
#include "arch/x86/svm/svm_state.h"
#include "arch/x86/vmx/vmx_state.h"
#include "arch/x86/irq/vlapic.h"
#include "arch/x86/irq/vioapic.h"
#include "hv/dev/vuart.h"

enum {
	GPR_RAX,
	GPR_RCX,
	GPR_RDX,
	GPR_RBX,
	GPR_RSP,
	GPR_RBP,
	GPR_RSI,
	GPR_RDI,
	GPR_R8,
	GPR_R9,
	GPR_R10,
	GPR_R11,
	GPR_R12,
	GPR_R13,
	GPR_R14,
	GPR_R15
};

struct arch_vcpu {
	u64 gpr[16]; /* x86 encoding order, all 16 (the vendor copies RAX and RSP to and
		      * from its VMCB around each entry) */
	union {	     /* the vendor's own (vendor.h) */
		struct svm_vcpu svm;
		struct vmx_vcpu vmx;
	};
	struct vlapic lapic;
	u8 *xsave;	 /* XSAVE area (xstate.c) while another vCPU uses the pCPU */
	u64 xcr0;	 /* the guest's XCR0 */
	u64 spec_ctrl;	 /* IA32_SPEC_CTRL as the guest set it, in force while it runs */
	u32 tsc_aux;	 /* IA32_TSC_AUX, in the CPU's register while it is loaded */
	u64 misc_enable; /* IA32_MISC_ENABLE as the guest reads it (msr.c) */
	u64 dr[4];
	u32 nmi_pending;       /* NMIs sent to it and not injected: senders add (atomic) */
	bool init_pending;     /* INIT IPI received (atomic) */
	s32 sipi_vector;       /* STARTUP vector received (atomic), -1 none */
	bool flush_tlb;	       /* flush this ASID's TLB at next entry */
	u32 ran_on;	       /* the pCPU it last ran on (+1; 0: none yet) */
	u64 kvmclock_msr;      /* MSR_KVM_SYSTEM_TIME_NEW as the guest wrote it */
	u64 steal_msr;	       /* MSR_KVM_STEAL_TIME */
	u64 steal_published;   /* steal_ns last written to the guest's record */
	bool steal_preempted;  /* we set `preempted` in the guest's record */
	u64 pv_eoi_msr;	       /* MSR_KVM_PV_EOI_EN */
	bool pv_eoi_armed;     /* we told the guest it may skip the EOI of its highest ISR vector */
	bool pv_unhalt;	       /* KVM_HC_KICK_CPU: leave the next (or current) HLT (atomic) */
	u64 pv_kicks;	       /* KVM_HC_KICK_CPU calls that named it (atomic) */
	u64 pv_unhalts;	       /* kicks it consumed: a HLT ended or skipped for one */
	u64 preempt_count_msr; /* HV_MSR_PREEMPT_COUNT */
};

/* How vCPU 0 starts (arch/x86/linux_*.c, multiboot_boot.c): at entry in PVH's 32-bit
 * flat protected mode, paging off, RBX = arg, RAX = eax (multiboot's magic); or, with
 * long_mode, in the 64-bit mode of the Linux boot protocol: identity paging at cr3, the
 * GDT at GPA_BOOT_GDT, RSI = arg. */
struct x86_boot {
	bool long_mode;
	u64 entry, arg, cr3;
	u32 eax;
};

struct arch_vm {
	union { /* the vendor's own (vendor.h) */
		struct svm_vm svm;
		struct vmx_vm vmx;
	};
	struct vioapic ioapic;
	struct vuart uart; /* COM1, the VM's console */
	u16 pm1_en, pm1_sts, pm1_cnt;
	struct x86_boot boot;
	u64 boot_tsc;  /* TSC when the VM was created: its kvmclock and PM timer zero */
	u16 exit_port; /* the test exit port's first port (exit_port.c); 0: none */
};

#endif
