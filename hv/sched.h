/* The per-pCPU scheduler: every physical CPU runs its own list of vCPUs round robin. */
#ifndef HV_SCHED_H
#define HV_SCHED_H

#include "types.h"

struct vcpu;

#define SCHED_SLICE_US 5000   /* time slice when vCPUs share a pCPU */

struct pcpu {
	u32 id;
	u32 apic_id;              /* firmware's id for this CPU (x86 APIC ID / arm64 MPIDR) */
	struct vcpu *runq;        /* vCPUs placed on this pCPU (singly linked, fixed after start) */
	struct vcpu *current;     /* the vCPU it runs or ran last */
	u32 nvcpus;
	struct vcpu *yield_to;    /* a vCPU of this pCPU asked to run this one next */
	bool online;
	u64 idle_ticks, switches, kicks_received;
};

extern struct pcpu pcpus[];
extern u32 npcpus;

void sched_init(u32 npcpus);       /* before any VM is created */
void sched_place(struct vcpu *v);   /* put a vCPU on the least loaded pCPU (before start) */
NORETURN void sched_loop(void);     /* the pCPU's loop; never returns */
void sched_vm_gone(void);           /* a VM finished: power off when none is left */
/* Directed yield (PV sched yield, pause loops): lets `target` run now in place of `self`
 * when both share this pCPU and the target is runnable; false (no-op) otherwise. */
bool sched_yield_to(struct vcpu *self, struct vcpu *target);
/* Called by the backend right before and after guest mode: false means work is pending
 * for some vCPU of this pCPU (a kick) and the guest must not be entered now. */
bool sched_enter_guest(struct vcpu *v);
void sched_left_guest(struct vcpu *v);

#endif
