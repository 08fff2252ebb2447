/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* This project's own additions to the paravirtual interface (not part of KVM's ABI).
 * Documented in guest_abi/ABI.md. Usable from guest kernel code (Linux types) and from the
 * hypervisor. */
#ifndef GUEST_ABI_HV_PARA_H
#define GUEST_ABI_HV_PARA_H

/* CPUID: the project's own leaves, beside KVM's at 0x40000000. 0x40000100 always gives
 * EAX = the highest of them, EBX ECX EDX = "HVHVHVHVHVHV"; 0x40000101 EAX has the
 * features below that the VM offers (its `pv` set). */
#define HV_CPUID_SIGNATURE 0x40000100u
#define HV_CPUID_FEATURES 0x40000101u
#define HV_CPUID_SIGNATURE_EBX 0x56485648u /* "HVHV" */

/* The guest's preempt count (`pv = preempt`): MSR HV_MSR_PREEMPT_COUNT takes, per vCPU,
 * the guest-physical address of a 32-bit word, 4-byte aligned, with bit 0 set to enable
 * (bit 1 set: #GP; 0 disables). Whenever the scheduler may preempt the vCPU it reads
 * the word; bits 30:0 non-zero mean the vCPU is inside a critical section (bit 31 is
 * ignored: x86 Linux keeps its inverted PREEMPT_NEED_RESCHED there). Reads back the
 * value written. */
#define HV_FEATURE_PREEMPT_COUNT 0
#define HV_MSR_PREEMPT_COUNT 0x48560000u
#define HV_PREEMPT_COUNT_MASK 0x7fffffffu

/* Hypercall (VMMCALL, number in RAX, arguments in RBX, RCX, RDX, RSI; result in RAX):
 * copies the calling VM's counters, summed over its vCPUs, to guest-physical address a0,
 * at most a1 bytes. Returns the number of bytes written, or -KVM_EFAULT (-14) when the
 * buffer is not in the VM's RAM, -KVM_EPERM (-1) from user mode. */
#define HV_HC_GET_STATS 0x48560001u

/* arm64: the same through an SMCCC call (SMC64 fast call in the vendor-specific
 * hypervisor service range, by the conduit the device tree names): x1 the IPA, x2 the
 * size; x0 the bytes written, or INVALID_PARAMETER (-3) when the buffer is not in the
 * VM's RAM. */
#define HV_SMCCC_GET_STATS 0xC6000001u

/* arm64, `pv = preempt`: the preempt count through an SMCCC call (SMC64 fast call). arm64
 * Linux keeps the count in each task's thread_info, so a vCPU registers a 64-bit word,
 * 8-byte aligned, that holds the IPA of the 32-bit count of the task it runs (0: none;
 * the guest rewrites it at every task switch): x1 = the word's IPA with bit 0 set, or 0
 * to disable. x0 = 0, INVALID_PARAMETER (-3) when x1 is neither (bit 0 clear, bits 2:1
 * set) or the word is not in the VM's RAM, NOT_SUPPORTED (-1) without `preempt`. The
 * number is far from KVM's vendor functions (0-127: pKVM's SMC64 ones start at 2). The
 * count is read as on x86 (bits 30:0); a count address that is not a 4-byte aligned word
 * of RAM is taken as 0 (the console says so once per vCPU). */
#define HV_SMCCC_PREEMPT_COUNT 0xC6008002u

/* Version 2 appended the scheduler's fields (from wake_latency_sum_ns), version 3 the
 * spin and migration counters, version 4 the critical-section ones, version 5
 * kicks_deferred; a buffer of an older version's size still gets that version's fields. */
#define HV_STATS_VERSION 5
#define HV_STATS_EXIT_KINDS \
	11 /* host-irq io mmio msr cpuid halt hypercall irq-window exception shutdown other */

struct hv_guest_stats {
	unsigned int version;	  /* HV_STATS_VERSION */
	unsigned int size;	  /* bytes the hypervisor filled in */
	unsigned long long exits; /* all exits */
	unsigned long long exits_by_kind[HV_STATS_EXIT_KINDS];
	unsigned long long ipis_pv;   /* IPI targets reached through KVM_HC_SEND_IPI */
	unsigned long long ipis_icr;  /* IPIs sent by x2APIC ICR writes (one per ICR write) */
	unsigned long long ipis_self; /* SELF IPI register writes */
	unsigned long long irqs_injected;
	unsigned long long kicks;    /* host IPIs sent to make another pCPU look at a vCPU */
	unsigned long long yields;   /* KVM_HC_SCHED_YIELD calls that took effect */
	unsigned long long steal_ns; /* time vCPUs were runnable but not running */
	/* Wake-up latency: from the kick (or timer) that made a vCPU runnable, from halt or
	 * preempted with a new interrupt, to its next guest entry. */
	unsigned long long wake_latency_sum_ns;
	unsigned long long wakes;		/* wakeups timed (the mean's divisor) */
	unsigned long long wake_latency_max_ns; /* of any vCPU */
	unsigned long long wake_preempts;	/* turns cut short for a woken vCPU */
	unsigned long long spin_exits;		/* spin-waits seen (x86 PAUSE exits) */
	unsigned long long migrations;		/* vCPU moves to another pCPU */
	/* vCPUs preempted inside a critical section (interrupts masked in kernel mode, or
	 * a non-zero preempt count published with HV_MSR_PREEMPT_COUNT or
	 * HV_SMCCC_PREEMPT_COUNT); boosts: turns
	 * extended for one, or given ahead of the queue to a vCPU preempted in one. */
	unsigned long long critical_preemptions;
	unsigned long long boosts;
	/* scheduler decisions where only the published preempt count showed one */
	unsigned long long preempt_count_hits;
	/* kicks not sent: the target's pCPU ran another vCPU and finds the kick at its next
	 * scheduling decision, before the wakeup would have changed what it runs */
	unsigned long long kicks_deferred;
};

#endif
