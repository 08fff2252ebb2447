/* SPDX-License-Identifier: GPL-2.0-only */
/* The scheduling policies (hv/sched_policy.h), each a pair of decisions: who owns the
 * next turn of a pCPU, and what a wakeup does to the current one. Asked by a kick from
 * another pCPU, each also says when its wakeup would act (wake_due): a kick that changes
 * nothing before that pCPU's next decision does not interrupt it (hv/sched.c kick_for).
 *
 * rr: the runnable vCPUs of a pCPU take turns of SCHED_SLICE_US in list order. A woken
 * vCPU waits for its turn, unless the current turn is spent: an owner runnable alone
 * runs on in its spent turn, and a vCPU that wakes up then takes the pCPU at once.
 *
 * aware: fair share with prompt wakeups (the idea of Linux's CFS, with the numbers made
 * for pCPUs shared by a handful of vCPUs).
 *  - A vCPU's vruntime is the run time charged to its turns (hv/sched.c). A new turn,
 *    SCHED_SLICE_US long, goes to the runnable vCPU with the least vruntime (on a tie to
 *    the first after the last owner, so equals alternate as under rr).
 *  - A vCPU that wakes from halt is placed at no less than the pCPU's min_vruntime -
 *    SLEEPER_CREDIT_US: sleeping banks at most that much credit.
 *  - A woken vCPU (from halt, or preempted and given a new interrupt) that is not ahead
 *    of min_vruntime by more than WAKE_LEAD_US takes the next turn, and the current
 *    turn is cut: at once when the woken vCPU is behind the turn's owner by more than
 *    WAKE_GRAN_US, else once the owner has had MIN_SLICE_US of its turn. So an entitled
 *    wakeup waits at most MIN_SLICE_US (and the exit that brings its pCPU back here).
 *  - Else a vCPU preempted inside a critical section (its turn cut for a wakeup) takes
 *    the next turn if it is entitled (boost, hv/sched.c).
 *
 * The fairness rule (docs/scheduling.md): every runnable vCPU gets an equal share of
 * its pCPU; a VM's share is the sum of its vCPUs' shares. Directed yields move time
 * between the vCPUs of one VM only (the turn's owner stays charged). A vCPU that keeps
 * being woken gets no more than its share: once its vruntime is WAKE_LEAD_US ahead of
 * the least one, its wakeups wait for a turn by vruntime like every other vCPU, so it
 * stays within WAKE_LEAD_US + SLEEPER_CREDIT_US + one turn of its share. A turn that
 * ends inside a critical section runs on for at most SCHED_BOOST_US, charged to its owner,
 * and a boosted turn goes only to an entitled vCPU whose turn was not extended: a guest
 * that never leaves critical sections gets turns of SCHED_SLICE_US + SCHED_BOOST_US, no
 * more turns, and never two in a row. */
#include "sched.h"
#include "vm.h"

#define MIN_SLICE_US 400
#define WAKE_GRAN_US 250
#define WAKE_LEAD_US 1000
#define SLEEPER_CREDIT_US 2500

static void start_turn(struct pcpu *p, struct vcpu *v, u64 now)
{
	p->turn = v;
	p->turn_start = now;
	p->slice_end = now + sched_us(SCHED_SLICE_US);
	p->extended = false;
}

/* The vCPU after v in p's list, round. */
static struct vcpu *after(struct pcpu *p, struct vcpu *v)
{
	return v && v->rq_next ? v->rq_next : p->runq;
}

static struct vcpu *rr_next_turn(struct pcpu *p, u64 now)
{
	struct vcpu *turn = p->turn, *start = after(p, turn), *v = start;
	do {
		if (v->state == VCPU_RUNNABLE) {
			if (v != turn)
				start_turn(p, v, now);
			return v;
		}
		v = after(p, v);
	} while (v != start);
	return NULL;
}

/* A read of another pCPU's state, racy (wake_due). */
#define RACY(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)

/* A wakeup changes nothing before the turn ends; once the turn is spent (its owner,
 * runnable alone, runs on) the woken vCPU takes the pCPU at once. */
static u64 rr_wake_due(const struct pcpu *p, const struct vcpu *v, u64 now)
{
	(void)v;
	return MAX(RACY(p->slice_end), now);
}

const struct sched_ops sched_rr = {
	.name = "rr",
	.next_turn = rr_next_turn,
	.wake_due = rr_wake_due,
};

/* The least vruntime of p's runnable vCPUs, never going back. */
static u64 update_min_vruntime(struct pcpu *p)
{
	u64 min = ~0ull;
	for (struct vcpu *v = p->runq; v; v = v->rq_next)
		if (v->state == VCPU_RUNNABLE)
			min = MIN(min, v->vruntime);
	if (min != ~0ull && min > p->min_vruntime)
		p->min_vruntime = min;
	return p->min_vruntime;
}

/* Whether a woken vCPU gets served promptly: it has not run ahead of its share. */
static bool entitled(const struct pcpu *p, const struct vcpu *v)
{
	return v->vruntime <= p->min_vruntime + sched_us(WAKE_LEAD_US);
}

/* The entitled vCPU with the least vruntime that is owed a boost for a critical section
 * it was preempted in (hv/sched.c, "Boost"), or NULL. */
static struct vcpu *boosted(struct pcpu *p)
{
	struct vcpu *best = NULL;
	for (struct vcpu *v = p->runq; v; v = v->rq_next)
		if (v->boost_due && v->state == VCPU_RUNNABLE && v != p->skip && entitled(p, v) &&
		    (!best || v->vruntime < best->vruntime))
			best = v;
	return best;
}

static struct vcpu *aware_next_turn(struct pcpu *p, u64 now)
{
	struct vcpu *w = p->wake_next, *best = NULL;
	p->wake_next = NULL;
	update_min_vruntime(p);
	if (w && w->state == VCPU_RUNNABLE && entitled(p, w)) {
		best = w;
	} else {
		struct vcpu *start = after(p, p->turn), *v = start;
		do {
			if (v->state == VCPU_RUNNABLE && v != p->skip &&
			    (!best || v->vruntime < best->vruntime))
				best = v;
			v = after(p, v);
		} while (v != start);
		if (!best && p->skip && p->skip->state == VCPU_RUNNABLE)
			best = p->skip; /* nothing else to run */
		struct vcpu *b = boosted(p);
		if (b && b != best) {
			best = b;
			b->stats.boosts++;
		}
	}
	if (best)
		start_turn(p, best, now);
	return best;
}

static void aware_wake(struct pcpu *p, struct vcpu *w, bool slept, u64 now)
{
	u64 min = update_min_vruntime(p), credit = sched_us(SLEEPER_CREDIT_US);
	if (slept && w->vruntime + credit < min)
		w->vruntime = min - credit;
	struct vcpu *owner = p->turn, *cur = p->current;
	if (owner == w || !entitled(p, w))
		return; /* its own turn goes on, or it waits for a turn by vruntime */
	if (!p->wake_next || w->vruntime < p->wake_next->vruntime)
		p->wake_next = w;
	if (!owner)
		return; /* the first turn of this pCPU: no turn to cut */
	u64 cut = owner->vruntime > w->vruntime + sched_us(WAKE_GRAN_US)
			  ? now
			  : p->turn_start + sched_us(MIN_SLICE_US);
	cut = MAX(cut, now);
	if (cut >= p->slice_end)
		return;
	p->slice_end = cut;
	if (cur && cur != w && cur->state == VCPU_RUNNABLE)
		w->stats.wake_preempts++;
}

/* aware_wake's cut, as early as it could come: with the owner's vruntime as it will be
 * charged (it runs now), an upper bound for min_vruntime (the least runnable vruntime,
 * v's and the owner's among them, never below what it was), and v's vruntime before a
 * sleeper's credit would raise it. */
static u64 aware_wake_due(const struct pcpu *p, const struct vcpu *v, u64 now)
{
	u64 end = MAX(RACY(p->slice_end), now);
	struct vcpu *owner = RACY(p->turn);
	if (!owner)
		return now;
	if (owner == v)
		return end; /* its own turn goes on */
	u64 run = RACY(p->run_start), vr = RACY(v->vruntime);
	u64 ovr = RACY(owner->vruntime) + (run && now > run ? now - run : 0);
	u64 min = MAX(RACY(p->min_vruntime), MIN(vr, ovr));
	if (vr > min + sched_us(WAKE_LEAD_US))
		return end; /* not entitled: it waits for a turn by vruntime */
	u64 cut = ovr > vr + sched_us(WAKE_GRAN_US) ? now
						    : RACY(p->turn_start) + sched_us(MIN_SLICE_US);
	return MIN(MAX(cut, now), end);
}

const struct sched_ops sched_aware = {
	.name = "aware",
	.next_turn = aware_next_turn,
	.wake = aware_wake,
	.wake_due = aware_wake_due,
	.watch_spins = true,
	.migrate = true,
	.boost = true,
};
