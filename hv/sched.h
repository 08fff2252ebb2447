/* SPDX-License-Identifier: GPL-2.0-only */
/* The per-pCPU scheduler: every physical CPU runs its own list of vCPUs, in turns that a
 * policy (hv/sched_policy.h: rr or aware) hands out. */
#ifndef HV_SCHED_H
#define HV_SCHED_H

#include "types.h"
#include "arch.h"
#include "arch/pcpu.h"
#include "pcpu_set.h"
#include "sched_policy.h"

struct vcpu;

#define SCHED_SLICE_US 5000 /* time slice when vCPUs share a pCPU */
#define SCHED_BOOST_US 300  /* aware: a turn runs on at most so long for a critical section */

struct pcpu {
	u32 id;		      /* first: the backends' per-CPU pointer reads it at offset 0 */
	struct vcpu *runq;    /* its vCPUs (singly linked; owner only: aware moves them) */
	struct vcpu *current; /* the vCPU it runs or ran last (other pCPUs read it racily) */
	u32 nvcpus;
	/* The turn: its owner is charged for the run time of the turn, whichever vCPU of
	 * its VM a yield hands it to. All owner only. */
	struct vcpu *turn;
	u64 turn_start, slice_end;
	bool extended;	  /* aware: the turn ran on past its end for a critical section (boost) */
	u64 run_start;	  /* when the vCPU running now entered arch_vcpu_run (0: none) */
	u64 min_vruntime; /* aware: the least vruntime of its runnable vCPUs, monotonic */
	struct vcpu *wake_next;	  /* aware: a woken vCPU that takes the next turn */
	struct vcpu *skip;	  /* gave its turn away (spin hint, yield): not the next owner */
	struct vcpu *yield_to;	  /* run this vCPU next: set by any pCPU, taken by the owner */
	u64 idle_ticks, switches; /* sleeps with nothing to run, vCPU switches */
	/* While it runs a vCPU: the latest time it looks at its vCPUs again (its host
	 * timer; ~0: none). Read by kicks (hv/sched.c, kick_for). */
	u64 look_at;
	/* Migration (aware): vCPUs another pCPU handed over, not yet on runq (pushed by any
	 * pCPU, taken by the owner); its runnable vCPUs at its last decision and the pCPUs
	 * its waiting ones may move to (hints for idle pCPUs, hv/sched.c publish_load); when
	 * it last asked a busy pCPU for work; its runnable vCPUs averaged over time (x
	 * LOAD_SCALE, hv/sched.c update_load), when that was last updated, and when it last
	 * handed a vCPU to a less loaded pCPU that was not idle. */
	struct vcpu *inbox;
	u32 nrunnable;
	struct pcpu_set movable;
	u64 asked_at;
	u64 load, load_at, balanced_at;
	/* Guest entries (read by the next pCPU's watchdog, hv/sched.c watch_next); that
	 * watchdog's own state: when it looks next, the count it saw, its looks in a row
	 * that found the pCPU in guest mode with the count unchanged. */
	u64 entries;
	u64 watch_at, watch_entries;
	u32 watch_stuck;
	struct arch_pcpu arch;
};

extern struct pcpu pcpus[];
extern u32 npcpus;
extern const struct sched_ops *sched_ops;

/* Ticks of arch_time_hz in `us` microseconds. */
static inline u64 sched_us(u64 us) { return arch_time_hz / 1000000 * us; }

void sched_init(u32 npcpus, enum sched_policy policy); /* before any VM is created */
/* Puts a vCPU on the least loaded pCPU of its affinity (before start). */
void sched_place(struct vcpu *v);
NORETURN void sched_loop(void); /* the pCPU's loop; never returns */
/* pCPU 0's own work between guest runs (the console's input, the telemetry, the
 * self-test's watch), registered before the takeover by what does it: each hook runs at
 * least every SCHED_HOUSEKEEPING_US. */
#define SCHED_HOUSEKEEPING_US 2000
void sched_add_housekeeping(void (*hook)(void));
void sched_vm_gone(void); /* a VM finished: power off when none is left */
/* Directed yield (PV sched yield, pause loops), on self's pCPU while it runs self: when
 * `target` is preempted (runnable, its pCPU running another vCPU of its VM), its pCPU
 * runs it next for the rest of that turn, and self's pCPU moves on to another runnable
 * vCPU if it has one. False (a no-op) otherwise: the target is self, running, not
 * runnable, waits behind another VM's turn, or its pCPU already has a yield target. */
bool sched_yield_to(struct vcpu *self, struct vcpu *target);
/* A spin-wait hint (arm64 WFE): the caller's turn ends, so that the next runnable vCPU
 * of its pCPU, if any, runs now (perhaps the one the caller waits for). */
void sched_spin_hint(struct vcpu *self);
/* Whether v runs in a turn that ran on for its critical section (boost): the backend
 * returns to the scheduler once the section is over, where it can see that (x86: the
 * interrupt window of a guest that masked interrupts), so that the extension ends there
 * rather than after SCHED_BOOST_US. */
bool sched_watch_section_end(struct vcpu *v);
/* Spin detection (the x86 PAUSE intercept): whether to watch v's spin-waits at its next
 * guest entry: when the policy does (aware), while another vCPU of v's VM is preempted,
 * and neither at v's first entry after a spin exit nor for SCHED_SPIN_QUIET_US from then
 * (QEMU's SVM has no pause filter: every intercepted PAUSE exits, so the rate is limited
 * here, and the spinner always gets to run its loop again). */
bool sched_watch_spin(struct vcpu *v);
#define SPIN_QUIET_NEXT_ENTRY (~0ull)
/* v spun while watched: directed yield to a preempted vCPU of its VM (sched_yield_to's
 * rules): one woken by an interrupt first, then one preempted with interrupts masked,
 * then one preempted with a preempt count, then any; round robin over each kind. False
 * when none could take it. */
bool sched_spin_exit(struct vcpu *v);
#define SCHED_SPIN_QUIET_US 100
/* Called by the backend right before and after guest mode: false means work is pending
 * for some vCPU of this pCPU (a kick) and the guest must not be entered now. */
bool sched_enter_guest(struct vcpu *v);
void sched_left_guest(struct vcpu *v);
/* The vCPU this pCPU runs or ran last (in an exit handler: the one that exited). */
struct vcpu *sched_current(void);
/* v's steal time so far (ns), the wait under way included (read racily from any pCPU). */
u64 sched_steal_ns(const struct vcpu *v, u64 now);

#endif
