/* SPDX-License-Identifier: GPL-2.0-only */
/* The scheduling policies behind hv/sched.c, chosen once at boot (`sched` in [hv]).
 * hv/sched.c keeps the mechanism (the loop, kicks, guest entry, directed yield, steal
 * and run-time accounting); a policy decides two things: who owns the next turn of a
 * pCPU, and what a wakeup does to the current turn. */
#ifndef HV_SCHED_POLICY_H
#define HV_SCHED_POLICY_H

#include "types.h"

enum sched_policy {
	SCHED_AWARE, /* fair share by run time, prompt wakeups, migration, boost (the default) */
	SCHED_RR,    /* round robin, 5 ms turns; a woken vCPU waits for its turn; fixed placement */
};

struct pcpu;
struct vcpu;

struct sched_ops {
	const char *name;
	/* Starts a new turn at `now` (the last one ended, or none of its vCPUs can run):
	 * sets p->turn, p->turn_start and p->slice_end and returns the owner, or NULL when
	 * nothing of p is runnable. p->skip, if set, gave its turn away: it is not chosen
	 * when another vCPU can run. */
	struct vcpu *(*next_turn)(struct pcpu *p, u64 now);
	/* v, a runnable vCPU of p, got an interrupt it waited for: woken from halt
	 * (`slept`), or preempted and kicked. May cut the current turn short. NULL: a
	 * wakeup changes nothing (the vCPU waits for its turn). */
	void (*wake)(struct pcpu *p, struct vcpu *v, bool slept, u64 now);
	/* Asked by another pCPU from a kick (hv/sched.c vcpu_kick) while p runs a vCPU other
	 * than v in guest mode: when p would end that run if an interrupt woke v now (from
	 * halt or preempted): `now` for at once, else when the policy's wake() would cut the
	 * turn, or the turn's end. Reads p's state racily. Never later than wake() and
	 * next_turn() would act: the kick interrupts p only if this comes before p looks at
	 * its vCPUs anyway (an early answer costs an exit, a late one wake-up latency). */
	u64 (*wake_due)(const struct pcpu *p, const struct vcpu *v, u64 now);
	/* Spin-waits (x86 PAUSE) are watched and lead to directed yield (sched_watch_spin). */
	bool watch_spins;
	/* vCPUs move between pCPUs to keep them busy (hv/sched.c, "Migration"). */
	bool migrate;
	/* vCPUs in a guest critical section are preempted late and run early (hv/sched.c,
	 * "Boost"): next_turn prefers an entitled vCPU preempted in one. */
	bool boost;
};

extern const struct sched_ops sched_rr, sched_aware;

#endif
