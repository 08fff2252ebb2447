/* SPDX-License-Identifier: GPL-2.0-only */
/* The per-pCPU scheduler: every physical CPU runs its own list of vCPUs round robin. */
#ifndef HV_SCHED_H
#define HV_SCHED_H

#include "types.h"
#include "arch/pcpu.h"

struct vcpu;

#define SCHED_SLICE_US 5000 /* time slice when vCPUs share a pCPU */

struct pcpu {
	u32 id;		      /* first: the backends' per-CPU pointer reads it at offset 0 */
	struct vcpu *runq;    /* vCPUs placed on this pCPU (singly linked, fixed after start) */
	struct vcpu *current; /* the vCPU it runs or ran last (other pCPUs read it racily) */
	u32 nvcpus;
	struct vcpu *turn;	  /* whose round-robin turn it is (owner only) */
	u64 slice_end;		  /* when that turn ends (owner only) */
	struct vcpu *yield_to;	  /* run this vCPU next: set by any pCPU, taken by the owner */
	u64 idle_ticks, switches; /* sleeps with nothing to run, vCPU switches */
	struct arch_pcpu arch;
};

extern struct pcpu pcpus[];
extern u32 npcpus;

void sched_init(u32 npcpus);	  /* before any VM is created */
void sched_place(struct vcpu *v); /* put a vCPU on the least loaded pCPU (before start) */
NORETURN void sched_loop(void);	  /* the pCPU's loop; never returns */
void sched_vm_gone(void);	  /* a VM finished: power off when none is left */
/* Directed yield (PV sched yield, pause loops), on self's pCPU while it runs self: when
 * `target` is preempted (runnable, its pCPU running another vCPU of its VM), its pCPU
 * runs it next for the rest of that turn, and self's pCPU moves on to another runnable
 * vCPU if it has one. False (a no-op) otherwise: the target is self, running, not
 * runnable, waits behind another VM's turn, or its pCPU already has a yield target. */
bool sched_yield_to(struct vcpu *self, struct vcpu *target);
/* A spin-wait hint (arm64 WFE): the caller's turn ends, so that the next runnable vCPU
 * of its pCPU, if any, runs now (perhaps the one the caller waits for). */
void sched_spin_hint(struct vcpu *self);
/* Called by the backend right before and after guest mode: false means work is pending
 * for some vCPU of this pCPU (a kick) and the guest must not be entered now. */
bool sched_enter_guest(struct vcpu *v);
void sched_left_guest(struct vcpu *v);

#endif
