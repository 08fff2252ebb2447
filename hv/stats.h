/* SPDX-License-Identifier: GPL-2.0-only */
/* Counters the hypervisor keeps per vCPU and prints per VM when it stops. */
#ifndef HV_STATS_H
#define HV_STATS_H

#include "types.h"

/* Exit kinds, architecture-neutral: each backend maps its exit codes to these. */
enum exit_kind {
	EXIT_HOST_IRQ, /* a host interrupt (timer tick, kick) arrived while the guest ran */
	EXIT_IO,       /* port I/O */
	EXIT_MMIO,     /* access to an emulated device page */
	EXIT_MSR,      /* model-specific / system register */
	EXIT_CPUID,
	EXIT_HALT,	 /* HLT / WFI */
	EXIT_HYPERCALL,	 /* VMMCALL / HVC */
	EXIT_IRQ_WINDOW, /* the guest became able to take a pending interrupt */
	EXIT_EXCEPTION,	 /* intercepted guest exception */
	EXIT_SHUTDOWN,	 /* triple fault */
	EXIT_OTHER,
	EXIT_KINDS
};

struct vcpu_stats {
	u64 exits[EXIT_KINDS];
	u64 irqs_injected; /* interrupts delivered into the guest */
	u64 nmis_injected;
	u64 ipi_fixed, ipi_nmi, ipi_init, ipi_sipi; /* IPI targets reached by this vCPU, by kind */
	u64 ipi_icr, ipi_pv,
		ipi_self;    /* by path: ICR writes, targets of the PV hypercall, self IPIs */
	u64 yields;	     /* directed yields this vCPU made that took effect (handed over) */
	u64 yields_received; /* directed yields that gave this vCPU a pCPU (taken) */
	u64 lazy_eois;	     /* EOIs the guest did without an exit (PV EOI) */
	/* APIC virtualization (VMX virtual-interrupt delivery): interrupts the CPU took from
	 * the IRR into the guest, and EOIs it completed, without an exit (seen at exits). */
	u64 irqs_cpu_delivered, virtual_eois;
	u64 steal_ns;	    /* time runnable but not running */
	u64 steal_max_ns;   /* the longest of those waits, from runnable to running */
	u64 run_ns;	    /* time running (in arch_vcpu_run: guest mode and its exits) */
	u64 kicks_sent;	    /* host IPIs this vCPU's actions sent to other pCPUs */
	u64 kicks_deferred; /* kicks left for the target's pCPU to find (hv/sched.c kick_for) */
	/* Interrupts this vCPU's actions posted to vCPUs running in guest mode with a
	 * notification (sent, or one already outstanding) instead of a kick: the hardware
	 * delivers them there without an exit (x86 posted interrupts), unless the target left
	 * in between (then its next entry takes them). */
	u64 notifications_sent;
	/* IPIs whose targets' IRR bits the CPU set (AMD AVIC) while one was not in guest
	 * mode: the hypervisor woke or kicked them */
	u64 ipi_not_running;
	u64 ipi_no_target; /* IPIs this vCPU sent to a destination no vCPU has (dropped) */
	/* Entries of a vCPU with the CPU's APIC virtualization run with its APIC emulated
	 * instead, by reason: it needed the interrupt window (AMD AVIC ignores V_IRQ), its
	 * guest's APIC was not in x2APIC mode */
	u64 fallback_window, fallback_apic_mode;
	u64 wakeups; /* halted -> runnable */
	/* Wake-up latency: from the kick (or timer) that made it runnable, woken from halt
	 * or preempted with a new interrupt, to its next guest entry. */
	u64 wake_latency_sum_ns, wake_latency_n, wake_latency_max_ns;
	u64 wake_preempts; /* turns of a runnable vCPU cut short for its wakeup (aware) */
	u64 spin_exits;	   /* spin-waits seen (x86 PAUSE), each leading to a directed yield try */
	u64 migrations;	   /* moves to another pCPU (aware) */
	/* Times it lost its pCPU while runnable inside a guest critical section (interrupts
	 * masked in kernel mode, or a non-zero published preempt count), and boosts: turns
	 * extended because it was in one, or given to it ahead of its queue (aware). */
	u64 critical_preemptions, boosts;
	/* Scheduler decisions where only the preempt count the guest published showed a
	 * critical section (pv preempt): whether the guest's module is doing anything. */
	u64 preempt_count_hits;
	u64 bad_accesses; /* guest errors answered with a fault or all-ones (the first logged) */
};

const char *exit_kind_name(enum exit_kind k);
void stats_add(struct vcpu_stats *sum, const struct vcpu_stats *v);
u64 stats_exits(const struct vcpu_stats *s);	      /* all kinds */
u64 wake_latency_mean_ns(const struct vcpu_stats *s); /* 0 when none was timed */

#endif
