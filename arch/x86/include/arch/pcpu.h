/* SPDX-License-Identifier: GPL-2.0-only */
/* The x86 backend's part of struct pcpu (hv/sched.h). */
#ifndef ARCH_X86_ARCH_PCPU_H
#define ARCH_X86_ARCH_PCPU_H

#include "arch/x86/svm/svm_state.h"
#include "hv/types.h"

struct vcpu;
struct vm;

struct arch_pcpu {
	u32 apic_id;
	struct svm_pcpu svm;	/* the vendor's own (vendor.h) */
	struct vcpu *last_vcpu; /* the vCPU whose TLB entries this pCPU may hold */
	struct vm *last_vm;	/* the VM whose branch predictions it may hold */
	u64 timer_irqs, kick_irqs, nmis;
	u64 gif_violations; /* host interrupts taken with GIF=0 (pcpu.c, x86_trap) */
};

#endif
