/* Per-pCPU scheduling. Each pCPU owns a fixed list of vCPUs (placed before start) and
 * runs the runnable ones round robin, a time slice each when they share the pCPU. A
 * halted vCPU costs nothing: the pCPU sleeps in arch_idle() until a host interrupt (its
 * timer or a kick) arrives. Other pCPUs never touch a vCPU's state; they set
 * kick_pending (plus whatever atomic state the backend keeps) and kick. */
#include "sched.h"
#include "arch.h"
#include "console.h"
#include "vm.h"

struct pcpu pcpus[MAX_PCPUS];
u32 npcpus;
static u32 vms_alive;
static bool pcpu_idle[MAX_PCPUS];     /* sleeping in arch_idle() */
static bool pcpu_in_guest[MAX_PCPUS]; /* running one of its vCPUs in guest mode */

#define CONSOLE_POLL_US 2000

void sched_init(u32 n)
{
	npcpus = n;
	for (u32 i = 0; i < n; i++)
		pcpus[i].id = i;
}

void sched_place(struct vcpu *v)
{
	struct pcpu *best = &pcpus[(v->vm->id + v->id) % npcpus];
	for (u32 i = 0; i < npcpus; i++)
		if (pcpus[i].nvcpus < best->nvcpus)
			best = &pcpus[i];
	v->pcpu = best->id;
	struct vcpu **tail = &best->runq;
	while (*tail)
		tail = &(*tail)->rq_next;
	*tail = v;
	best->nvcpus++;
	if (v->id == 0)
		__atomic_fetch_add(&vms_alive, 1, __ATOMIC_RELAXED);
}

void vcpu_kick(struct vcpu *v)
{
	__atomic_store_n(&v->kick_pending, true, __ATOMIC_SEQ_CST);
	if (v->pcpu == arch_pcpu_id())
		return; /* this pCPU looks at it before its next guest entry */
	/* Pairs with the owner's store of pcpu_in_guest / pcpu_idle followed by its check
	 * of every kick_pending of its vCPUs (sched_enter_guest, the idle path): either the
	 * owner sees the flag, or we see it in guest mode or asleep and interrupt it. A pCPU
	 * running another vCPU is interrupted too, so that a woken vCPU is not left waiting
	 * behind a busy one. */
	if (__atomic_load_n(&pcpu_in_guest[v->pcpu], __ATOMIC_SEQ_CST) ||
	    __atomic_load_n(&pcpu_idle[v->pcpu], __ATOMIC_SEQ_CST)) {
		struct vcpu *self = pcpus[arch_pcpu_id()].current;
		if (self)
			self->stats.kicks_sent++;
		arch_send_kick(v->pcpu);
	}
}

static bool any_kick_pending(struct pcpu *p)
{
	for (struct vcpu *v = p->runq; v; v = v->rq_next)
		if (__atomic_load_n(&v->kick_pending, __ATOMIC_SEQ_CST))
			return true;
	return false;
}

/* Brings every vCPU of this pCPU up to date; returns the earliest timer among them. */
static u64 poll_vcpus(struct pcpu *p, u64 now)
{
	u64 earliest = ~0ull;
	for (struct vcpu *v = p->runq; v; v = v->rq_next) {
		/* Cleared for stopped vCPUs too: a stale kick would keep this pCPU out of
		 * guest mode for good (sched_enter_guest looks at all of them). */
		__atomic_store_n(&v->kick_pending, false, __ATOMIC_SEQ_CST);
		if (v->state == VCPU_STOPPED)
			continue;
		if (vm_stopping(v->vm)) {
			v->state = VCPU_STOPPED;
			vm_vcpu_stopped(v);
			continue;
		}
		arch_vcpu_poll(v, now);
		if (v->state == VCPU_HALTED && arch_vcpu_wants_to_run(v)) {
			v->state = VCPU_RUNNABLE;
			v->wait_since = now;
			v->stats.wakeups++;
		}
		u64 t = arch_vcpu_next_timer(v);
		if (t && t < earliest)
			earliest = t;
	}
	return earliest;
}

static struct vcpu *pick_next(struct pcpu *p, u64 now, u64 *slice_end)
{
	struct vcpu *cur = p->current;
	struct vcpu *y = p->yield_to;
	p->yield_to = NULL;
	if (y && y->state == VCPU_RUNNABLE) {
		if (cur)
			cur->stats.yields++;
		*slice_end = now + arch_time_hz / 1000000 * SCHED_SLICE_US;
		return y;
	}
	if (cur && cur->state == VCPU_RUNNABLE && now < *slice_end)
		return cur;
	struct vcpu *start = cur && cur->rq_next ? cur->rq_next : p->runq;
	struct vcpu *v = start;
	do {
		if (v->state == VCPU_RUNNABLE) {
			if (v != cur)
				*slice_end = now + arch_time_hz / 1000000 * SCHED_SLICE_US;
			return v;
		}
		v = v->rq_next ? v->rq_next : p->runq;
	} while (v != start);
	return NULL;
}

static u32 runnable_count(struct pcpu *p)
{
	u32 n = 0;
	for (struct vcpu *v = p->runq; v; v = v->rq_next)
		n += v->state == VCPU_RUNNABLE;
	return n;
}

NORETURN void sched_loop(void)
{
	struct pcpu *p = &pcpus[arch_pcpu_id()];
	u64 slice_end = 0;
	p->online = true;
	for (;;) {
		arch_irq_window();
		if (p->id == 0)
			console_poll_input();
		u64 now = arch_time_now();
		u64 deadline = poll_vcpus(p, now);
		if (p->id == 0)
			deadline = MIN(deadline, now + arch_time_hz / 1000000 * CONSOLE_POLL_US);
		if (!p->runq) {
			arch_timer_arm(deadline == ~0ull ? 0 : deadline);
			arch_idle();
			continue;
		}
		struct vcpu *v = pick_next(p, now, &slice_end);
		if (!v) {
			arch_timer_arm(deadline == ~0ull ? 0 : deadline);
			__atomic_store_n(&pcpu_idle[p->id], true, __ATOMIC_SEQ_CST);
			if (!any_kick_pending(p)) {
				p->idle_ticks++;
				arch_idle();
			}
			__atomic_store_n(&pcpu_idle[p->id], false, __ATOMIC_SEQ_CST);
			continue;
		}
		if (v != p->current) {
			struct vcpu *prev = p->current;
			if (prev) {
				if (prev->state == VCPU_RUNNABLE)
					prev->wait_since = now; /* preempted: its wait is steal time */
				arch_vcpu_put(prev);
			}
			arch_vcpu_load(v);
			p->current = v;
			p->switches++;
		}
		if (v->wait_since) {
			v->stats.steal_ns += (now - v->wait_since) * 1000 / (arch_time_hz / 1000000);
			v->wait_since = 0;
		}
		if (runnable_count(p) > 1)
			deadline = MIN(deadline, slice_end);
		arch_timer_arm(deadline == ~0ull ? 0 : deadline);
		switch (arch_vcpu_run(v)) {
		case RUN_HALTED:
			if (!arch_vcpu_wants_to_run(v))
				v->state = VCPU_HALTED;
			break;
		case RUN_PREEMPTED:
		case RUN_STOPPED:
			break;
		}
	}
}

bool sched_enter_guest(struct vcpu *v)
{
	struct pcpu *p = &pcpus[v->pcpu];
	__atomic_store_n(&pcpu_in_guest[p->id], true, __ATOMIC_SEQ_CST);
	__atomic_store_n(&v->in_guest, true, __ATOMIC_SEQ_CST);
	if (any_kick_pending(p) || vm_stopping(v->vm)) {
		sched_left_guest(v);
		return false;
	}
	return true;
}

void sched_left_guest(struct vcpu *v)
{
	__atomic_store_n(&v->in_guest, false, __ATOMIC_SEQ_CST);
	__atomic_store_n(&pcpu_in_guest[v->pcpu], false, __ATOMIC_SEQ_CST);
}

bool sched_yield_to(struct vcpu *self, struct vcpu *target)
{
	if (target == self || target->pcpu != self->pcpu || target->state != VCPU_RUNNABLE)
		return false;
	pcpus[self->pcpu].yield_to = target;
	__atomic_store_n(&self->kick_pending, true, __ATOMIC_SEQ_CST); /* back to the scheduler */
	return true;
}

void sched_vm_gone(void)
{
	if (__atomic_sub_fetch(&vms_alive, 1, __ATOMIC_SEQ_CST) == 0) {
		printk("hv: no VM left, powering off\n");
		arch_power_off();
	}
}
