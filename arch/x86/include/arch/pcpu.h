/* SPDX-License-Identifier: GPL-2.0-only */
/* The x86 backend's part of struct pcpu (hv/sched.h). */
#ifndef ARCH_X86_ARCH_PCPU_H
#define ARCH_X86_ARCH_PCPU_H

#include "arch/x86/svm/svm_state.h"
#include "arch/x86/vmx/vmx_state.h"
#include "hv/types.h"

struct vcpu;
struct vm;

/* The 64-bit task-state segment (SDM vol. 3A, 8.7): unused but for the selector that VMX
 * wants in TR (no stack switches). */
struct x86_tss {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3, iomap_base;
} __attribute__((packed, aligned(16)));

struct arch_pcpu {
	u32 apic_id;
	union { /* the vendor's own (vendor.h) */
		struct svm_pcpu svm;
		struct vmx_pcpu vmx;
	};
	/* Its descriptor tables: null, code 0x08, data 0x10, its TSS at 0x18 (pcpu.c) */
	u64 gdt[5];
	struct x86_tss tss;
	struct vcpu *last_vcpu; /* the vCPU whose TLB entries this pCPU may hold */
	struct vm *last_vm;	/* the VM whose branch predictions it may hold */
	u64 timer_irqs, kick_irqs, nmis;
	/* Posted-interrupt notifications its host handled: they found it out of guest mode,
	 * or running a vCPU without posted interrupts. */
	u64 notify_irqs;
	u64 world_switch_traps; /* host interrupts taken where the CPU holds them (x86_trap) */
};

#endif
