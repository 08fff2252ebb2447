/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-pCPU scheduling. Each pCPU owns a list of vCPUs (placed before start; under aware
 * they move, see "Migration") and gives the runnable ones turns, a time slice each when
 * they share the pCPU; the policy (hv/sched_policy.c, `sched` in [hv]) decides who owns
 * the next turn and what a wakeup does. A halted vCPU costs nothing: the pCPU sleeps in
 * arch_idle() until a host interrupt (its timer or a kick) arrives. Other pCPUs never
 * touch a vCPU's state; they set kick_pending (plus whatever atomic state the backend
 * keeps) and kick.
 *
 * Run time is charged to the owner of the turn it was spent in (vruntime). Directed
 * yield hands the rest of a turn to a preempted vCPU of the same VM, on this pCPU or
 * another one, and the owner stays charged: a VM can trade its own time between its
 * vCPUs, never take another VM's. */
#include "sched.h"
#include "printk.h"
#include "vm.h"
#include "on_exit.h"

struct pcpu pcpus[MAX_PCPUS];
u32 npcpus;
const struct sched_ops *sched_ops = &sched_aware;
static u32 vms_alive;
static bool pcpu_idle[MAX_PCPUS];     /* sleeping in arch_idle() */
static bool pcpu_in_guest[MAX_PCPUS]; /* running one of its vCPUs in guest mode */

#define MAX_HOUSEKEEPING 4
static void (*housekeeping[MAX_HOUSEKEEPING])(void);
static u32 nhousekeeping;

static u64 ticks_to_ns(u64 t) { return t * 1000 / (arch_time_hz / 1000000); }

void sched_add_housekeeping(void (*hook)(void))
{
	if (nhousekeeping == MAX_HOUSEKEEPING) {
		printk("hv: FATAL: more than %u housekeeping hooks\n", MAX_HOUSEKEEPING);
		hv_exit();
	}
	housekeeping[nhousekeeping++] = hook;
}

void sched_init(u32 n, enum sched_policy policy)
{
	npcpus = n;
	sched_ops = policy == SCHED_RR ? &sched_rr : &sched_aware;
	for (u32 i = 0; i < n; i++)
		pcpus[i].id = i;
}

static bool allowed(const struct vcpu *v, u32 pcpu) { return pcpu_set_has(&v->affinity, pcpu); }

static void runq_append(struct pcpu *p, struct vcpu *v)
{
	struct vcpu **tail = &p->runq;
	while (*tail)
		tail = &(*tail)->rq_next;
	*tail = v;
	p->nvcpus++;
	v->on_runq = true;
}

void sched_place(struct vcpu *v)
{
	/* The least loaded allowed pCPU; on a tie the first from a start that spreads the
	 * vCPUs of a VM and the VMs. */
	struct pcpu *best = NULL;
	for (u32 k = 0; k < npcpus; k++) {
		struct pcpu *p = &pcpus[(v->vm->id + v->id + k) % npcpus];
		if (allowed(v, p->id) && (!best || p->nvcpus < best->nvcpus))
			best = p;
	}
	v->pcpu = best->id;
	runq_append(best, v);
	if (v->id == 0)
		__atomic_fetch_add(&vms_alive, 1, __ATOMIC_RELAXED);
}

/* A kick to pCPU p in guest mode: whether it must leave the guest now. Always when the
 * guest is v itself (an interrupt to take); for another vCPU only when the wakeup would
 * change what runs before p looks at its vCPUs anyway (look_at, its host timer): when the
 * policy would switch to v, or cut the turn, earlier (sched_ops->wake_due). Otherwise p
 * finds kick_pending at its next decision: the turn's end, a timer, any exit of its guest.
 * So a guest that sends interrupts in a loop to a vCPU waiting behind another VM's vCPU
 * (IPIs, KVM_HC_KICK_CPU) costs that vCPU no exit per call. */
static bool interrupt_guest(struct pcpu *p, struct vcpu *v)
{
	struct vcpu *cur = __atomic_load_n(&p->current, __ATOMIC_RELAXED);
	if (!cur || cur == v || !sched_ops->wake_due)
		return true;
	return sched_ops->wake_due(p, v, arch_time_now()) <
	       __atomic_load_n(&p->look_at, __ATOMIC_RELAXED);
}

/* Whether pCPU `to` runs v in guest mode (read racily, v's own pCPU may be elsewhere). */
static bool runs_in_guest(struct vcpu *v, u32 to)
{
	return __atomic_load_n(&pcpu_in_guest[to], __ATOMIC_SEQ_CST) &&
	       __atomic_load_n(&pcpus[to].current, __ATOMIC_SEQ_CST) == v &&
	       __atomic_load_n(&v->pcpu, __ATOMIC_SEQ_CST) == to;
}

/* vcpu_kick, vcpu_notify; `always`: interrupt a pCPU in guest mode whatever it runs (a
 * yield hint that it must take now). */
enum kick_kind { KICK, KICK_ALWAYS, KICK_INTERRUPT };
static void kick_for(struct vcpu *v, enum kick_kind kind)
{
	struct vcpu *self = sched_current();
	/* An interrupt for the vCPU this pCPU runs (a self IPI from its exit's handler):
	 * its next entry takes it, as the backend looks before every entry; a kick would
	 * only send it through the scheduler first (KVM's kvm_vcpu_kick leaves the running
	 * vCPU alone too). A halted one is kicked as any other. */
	if (kind == KICK_INTERRUPT && v == self && v->state == VCPU_RUNNABLE)
		return;
	u32 to = __atomic_load_n(&v->pcpu, __ATOMIC_SEQ_CST);
	/* An interrupt for v while its pCPU runs it: the hardware may take it there with no
	 * exit (arch_notify_running). The interrupt was posted before the loads of
	 * pcpu_in_guest and current, and v, once out of guest mode, sees it at its next
	 * entry or halt (seq_cst on both sides, as below), so no kick flag is needed. The
	 * second look, after the notification was claimed (x86: ON set), catches a v that
	 * left meanwhile, perhaps for another pCPU, where a notification claimed after its
	 * entry would never be processed: then it is kicked as any other. */
	if (kind == KICK_INTERRUPT && to != arch_pcpu_id() && runs_in_guest(v, to) &&
	    arch_notify_running(v, to) && runs_in_guest(v, to)) {
		if (self)
			self->stats.notifications_sent++;
		return;
	}
	/* The first kick since its pCPU last looked dates a wakeup (wake-up latency). */
	u64 none = 0;
	if (!__atomic_load_n(&v->kicked_at, __ATOMIC_RELAXED))
		__atomic_compare_exchange_n(&v->kicked_at, &none, arch_time_now(), false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	__atomic_store_n(&v->kick_pending, true, __ATOMIC_SEQ_CST);
	to = __atomic_load_n(&v->pcpu, __ATOMIC_SEQ_CST);
	if (to == arch_pcpu_id())
		return; /* this pCPU looks at it before its next guest entry */
	/* Pairs with the owner's store of pcpu_in_guest / pcpu_idle followed by its check
	 * of every kick_pending of its vCPUs (sched_enter_guest, the idle path): either the
	 * owner sees the flag, or we see it in guest mode or asleep. Asleep, it is woken. In
	 * guest mode it is interrupted unless the kick can wait for its next decision
	 * (interrupt_guest): it leaves guest mode by its host timer at look_at at the latest,
	 * and whatever makes it leave, it sees the flag before it enters again (its store of
	 * pcpu_in_guest comes after our load that saw it in guest mode). The state
	 * interrupt_guest reads was published before that entry (look_at before the
	 * seq_cst store of pcpu_in_guest), or is newer: then the owner has left guest mode
	 * since, and the flag is seen anyway. */
	if (__atomic_load_n(&pcpu_in_guest[to], __ATOMIC_SEQ_CST)) {
		if (kind != KICK_ALWAYS && !interrupt_guest(&pcpus[to], v)) {
			if (self)
				self->stats.kicks_deferred++;
			return;
		}
	} else if (!__atomic_load_n(&pcpu_idle[to], __ATOMIC_SEQ_CST)) {
		return;
	}
	if (self)
		self->stats.kicks_sent++;
	arch_send_kick(to);
}

void vcpu_kick(struct vcpu *v) { kick_for(v, KICK); }
void vcpu_notify(struct vcpu *v) { kick_for(v, KICK_INTERRUPT); }

static bool any_kick_pending(struct pcpu *p)
{
	for (struct vcpu *v = p->runq; v; v = v->rq_next)
		if (__atomic_load_n(&v->kick_pending, __ATOMIC_SEQ_CST))
			return true;
	return false;
}

/* v became runnable through an interrupt at `at` (its kick, or now): it waits for its
 * guest entry from then, and the policy says when that is. */
static void woke(struct pcpu *p, struct vcpu *v, bool slept, u64 at, u64 now)
{
	/* Atomic: spinning vCPUs of its VM read it (sched_spin_exit). Another pCPU's
	 * clock may be a little ahead. */
	if (!v->woken_at)
		__atomic_store_n(&v->woken_at, MIN(at, now), __ATOMIC_RELAXED);
	if (sched_ops->wake)
		sched_ops->wake(p, v, slept, now);
}

/* Brings every vCPU of this pCPU up to date; returns the earliest timer among them. */
static u64 poll_vcpus(struct pcpu *p, u64 now)
{
	u64 earliest = ~0ull;
	for (struct vcpu *v = p->runq; v; v = v->rq_next) {
		/* Cleared for stopped vCPUs too: a stale kick would keep this pCPU out of
		 * guest mode for good (sched_enter_guest looks at all of them). */
		bool kicked = __atomic_exchange_n(&v->kick_pending, false, __ATOMIC_SEQ_CST);
		u64 at = __atomic_exchange_n(&v->kicked_at, 0, __ATOMIC_RELAXED);
		if (v->state == VCPU_STOPPED)
			continue;
		if (vm_stopping(v->vm)) {
			v->state = VCPU_STOPPED;
			vm_vcpu_stopped(v);
			continue;
		}
		bool starting = v->state == VCPU_WAIT_START;
		arch_vcpu_poll(v, now);
		if (v->state == VCPU_HALTED && arch_vcpu_wants_to_run(v)) {
			v->state = VCPU_RUNNABLE;
			v->wait_since = at ? MIN(at, now) : now; /* the kick may have waited */
			v->stats.wakeups++;
			woke(p, v, true, at ? at : now, now);
		} else if (v->state == VCPU_RUNNABLE &&
			   (starting || (kicked && v != p->current &&
					 v != __atomic_load_n(&p->yield_to, __ATOMIC_RELAXED)))) {
			/* Started (INIT/SIPI, PSCI CPU_ON), or preempted and kicked: an
			 * interrupt for it. A kick that comes with a yield hint for it is
			 * the yield's (pick_next). */
			woke(p, v, starting, at ? at : now, now);
		}
		u64 t = arch_vcpu_next_timer(v);
		if (t && t < earliest)
			earliest = t;
	}
	return earliest;
}

/* ---- Boost (aware) ----
 * A vCPU stopped inside a guest critical section (arch_vcpu_in_critical_section:
 * interrupts masked in kernel mode, or a non-zero preempt count it published) may hold
 * what the other vCPUs of its VM wait for: a spinlock, a runqueue lock, an IPI's reply.
 * Preempted there, it leaves them spinning through another vCPU's whole turn. So:
 *  - a turn that ends while its vCPU is in a critical section runs on for at most
 *    SCHED_BOOST_US, once per turn, when another vCPU waits for the pCPU (the time is
 *    charged to the turn's owner as any other). The extension ends as soon as the
 *    section does where the backend sees that (arch_vcpu_sees_section_end: x86 asks
 *    for an exit at the guest's interrupt window, sched_watch_section_end), and only
 *    there does a woken vCPU wait for it too: x86 msgbench beside a busy VM had 6-8
 *    times fewer preemptions inside sections so (a wakeup cut them at once before);
 *  - a vCPU preempted in one without that (its extension spent, or its turn given
 *    away) takes the next turn of its pCPU ahead of vruntime order when it is entitled
 *    (hv/sched_policy.c): one boost per section, so that a vCPU always inside one gets
 *    no two turns in a row;
 *  - a vCPU preempted in one either way is the first choice of its VM's spin exits
 *    after a woken vCPU (sched_spin_exit): perhaps the lock's holder.
 * Both are counted as boosts; preemptions inside a critical section are counted under
 * either policy. The fairness rule is hv/sched_policy.c's. */
static bool other_runnable(const struct pcpu *p, const struct vcpu *v)
{
	for (const struct vcpu *o = p->runq; o; o = o->rq_next)
		if (o != v && o->state == VCPU_RUNNABLE)
			return true;
	return false;
}

/* cur ran in the turn that just ended: whether its turn runs on for a critical section.
 * A woken vCPU waits for that only where the backend sees the section end. */
static bool extend_turn(struct pcpu *p, struct vcpu *cur, u64 now)
{
	if (!sched_ops->boost || p->extended || !cur->preempted_critical ||
	    !other_runnable(p, cur) || (p->wake_next && !arch_vcpu_sees_section_end(cur)))
		return false;
	p->extended = true;
	p->slice_end = now + sched_us(SCHED_BOOST_US);
	cur->stats.boosts++;
	return true;
}

/* The vCPU to run now: the one running in the current turn, a yield target that takes
 * over the rest of it, the same one for a while longer inside a critical section (boost),
 * or the owner of a new turn (the policy's choice). */
static struct vcpu *pick_next(struct pcpu *p, u64 now)
{
	struct vcpu *turn = p->turn, *cur = p->current;
	bool in_turn = turn && now < p->slice_end;
	if (in_turn && p->extended && cur && cur->state == VCPU_RUNNABLE &&
	    arch_vcpu_in_critical_section(cur) == CS_NONE) {
		p->slice_end = now; /* the section its turn ran on for is over */
		in_turn = false;
	}
	/* Posted by any pCPU (sched_yield_to) from a racy look: check it here, where the
	 * state is known. A hint that does not hold now is dropped; one for a vCPU still in
	 * this pCPU's inbox too (on_runq: false until take_in, and moving it away clears it
	 * before its pcpu changes). */
	struct vcpu *y = __atomic_exchange_n(&p->yield_to, NULL, __ATOMIC_ACQUIRE);
	bool yield = y && y != cur && __atomic_load_n(&y->pcpu, __ATOMIC_SEQ_CST) == p->id &&
		     y->on_runq && y->state == VCPU_RUNNABLE && in_turn && y->vm == turn->vm;
	/* cur is the turn's owner or the vCPU of its VM that a yield handed the turn to; the
	 * owner gets the rest back when that one halts. */
	if (!yield && in_turn && cur->state == VCPU_RUNNABLE)
		return cur;
	if (!yield && in_turn && turn->state == VCPU_RUNNABLE)
		return turn;
	if (yield) {
		y->stats.yields_received++;
		return y; /* within its VM: cur is not preempted by another VM (no boost) */
	}
	/* cur, runnable, may lose its pCPU now: is it inside a critical section (boost)? Not
	 * when it gave its turn away itself (spin hint, yield to another pCPU). A vCPU whose
	 * turn was extended already is owed no boosted turn: one boost per section. */
	if (cur) {
		enum critical_section cs = cur->state == VCPU_RUNNABLE && cur != p->skip
						   ? arch_vcpu_in_critical_section(cur)
						   : CS_NONE;
		cur->stats.preempt_count_hits += cs == CS_PREEMPT_COUNT;
		__atomic_store_n(&cur->preempted_critical, (u8)cs, __ATOMIC_RELAXED);
		cur->boost_due = cs != CS_NONE && !p->extended;
	}
	if (turn && cur && extend_turn(p, cur, now))
		return cur;
	struct vcpu *v = sched_ops->next_turn(p, now);
	p->skip = NULL;
	return v;
}

/* A runnable vCPU of p that migration may move: not the one p runs or ran last (the
 * backend may still hold its state), not the turn's owner. */
static bool waiting(const struct pcpu *p, const struct vcpu *v)
{
	return v->state == VCPU_RUNNABLE && v != p->current && v != p->turn;
}

/* Counts p's runnable vCPUs and publishes, for idle pCPUs, how many there are and where
 * the waiting ones could go (their affinities). */
static u32 publish_load(struct pcpu *p)
{
	u32 n = 0;
	struct pcpu_set movable = { { 0 } };
	for (struct vcpu *v = p->runq; v; v = v->rq_next) {
		n += v->state == VCPU_RUNNABLE;
		if (waiting(p, v))
			pcpu_set_or(&movable, &v->affinity);
	}
	__atomic_store_n(&p->nrunnable, n, __ATOMIC_RELAXED);
	for (u32 i = 0; i < PCPU_SET_WORDS; i++) /* a hint: each word on its own */
		__atomic_store_n(&p->movable.w[i], movable.w[i], __ATOMIC_RELAXED);
	return n;
}

/* ---- Migration (aware) ----
 * A pCPU that runs out of work asks the pCPU with the most runnable vCPUs for one (a
 * kick, so that it decides now rather than at the end of its turn). A pCPU with a
 * runnable vCPU waiting for a turn hands it to an idle pCPU of the vCPU's affinity,
 * through that pCPU's inbox, or, at most once per BALANCE_TAU_US, to one that has had
 * 1.5 runnable vCPUs fewer on average (give_away: without that, vCPUs that idle pCPUs
 * pulled during a boot stayed piled up beside another VM's busy vCPU for good, measured
 * 4 on one pCPU and none on the other). Only a waiting vCPU moves (waiting()); the one
 * that has waited longest goes first, and none moves more than once per MIGRATE_GAP_US,
 * so that no vCPU bounces at every wakeup. Its lead over the least vruntime of its pCPU travels
 * with it; its steal time and wake-up latency run on (wait_since, woken_at). */
#define MIGRATE_GAP_US 500

static struct vcpu *to_move(struct pcpu *p, u32 to, u64 now)
{
	struct vcpu *best = NULL;
	for (struct vcpu *v = p->runq; v; v = v->rq_next)
		if (waiting(p, v) && allowed(v, to) &&
		    now - v->moved_at >= sched_us(MIGRATE_GAP_US) &&
		    (!best || v->wait_since < best->wait_since))
			best = v;
	return best;
}

static void move(struct pcpu *p, struct vcpu *v, struct pcpu *to, u64 now)
{
	struct vcpu **link = &p->runq;
	while (*link != v)
		link = &(*link)->rq_next;
	*link = v->rq_next;
	v->rq_next = NULL;
	v->on_runq = false;
	p->nvcpus--;
	if (p->wake_next == v)
		p->wake_next = NULL;
	if (p->skip == v)
		p->skip = NULL;
	/* A yield hint for it here is dropped by pick_next (it is not this pCPU's). */
	v->vruntime -= p->min_vruntime; /* to.min_vruntime is added on arrival */
	v->moved_at = now;
	v->stats.migrations++;
	/* Kickers read pcpu after setting kick_pending: one that still sees this pCPU
	 * interrupts it for nothing, and the new owner looks at every kick_pending of the
	 * vCPUs it takes in. */
	__atomic_store_n(&v->pcpu, to->id, __ATOMIC_SEQ_CST);
	struct vcpu *head = __atomic_load_n(&to->inbox, __ATOMIC_RELAXED);
	do
		v->inbox_next = head;
	while (!__atomic_compare_exchange_n(&to->inbox, &head, v, true, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED));
	arch_send_kick(to->id);
}

/* p's load: its runnable vCPUs, averaged over the last BALANCE_TAU_US or so (an
 * exponential average, LOAD_SCALE per vCPU); read by other pCPUs. */
#define LOAD_SCALE 1024
#define BALANCE_TAU_US 20000
static void update_load(struct pcpu *p, u32 runnable, u64 now)
{
	u64 dt = MIN(now - p->load_at, sched_us(BALANCE_TAU_US));
	s64 target = (s64)runnable * LOAD_SCALE, load = (s64)p->load;
	load += (target - load) * (s64)dt / (s64)sched_us(BALANCE_TAU_US);
	__atomic_store_n(&p->load, (u64)load, __ATOMIC_RELAXED);
	__atomic_store_n(&p->load_at, now, __ATOMIC_RELAXED);
}

/* Hands one waiting vCPU to a pCPU it may run on that is idle, or (balance) that has had
 * at least BALANCE_DIFF fewer runnable vCPUs on average, at most once per
 * BALANCE_TAU_US: so that a pCPU that never idles (a busy vCPU of another VM) still gets
 * its share of the vCPUs that wait, while those that idle pull work at once. Returns
 * the runnable vCPUs left. */
#define BALANCE_DIFF (LOAD_SCALE * 3 / 2)
static u32 give_away(struct pcpu *p, u32 runnable, u64 now)
{
	if (!sched_ops->migrate || runnable < 2)
		return runnable;
	bool balance = now - p->balanced_at >= sched_us(BALANCE_TAU_US);
	for (u32 i = 1; i < npcpus; i++) {
		struct pcpu *to = &pcpus[(p->id + i) % npcpus];
		if (__atomic_load_n(&to->inbox, __ATOMIC_RELAXED))
			continue;
		bool idle = __atomic_load_n(&pcpu_idle[to->id], __ATOMIC_SEQ_CST) &&
			    !__atomic_load_n(&to->nrunnable, __ATOMIC_RELAXED);
		bool lighter = balance && __atomic_load_n(&to->load_at, __ATOMIC_RELAXED) &&
			       p->load >=
				       __atomic_load_n(&to->load, __ATOMIC_RELAXED) + BALANCE_DIFF;
		struct vcpu *v = idle || lighter ? to_move(p, to->id, now) : NULL;
		if (v) {
			if (!idle)
				p->balanced_at = now;
			move(p, v, to, now);
			return publish_load(p);
		}
	}
	return runnable;
}

/* Takes in the vCPUs other pCPUs handed over. */
static void take_in(struct pcpu *p)
{
	struct vcpu *v = __atomic_exchange_n(&p->inbox, NULL, __ATOMIC_ACQUIRE);
	for (struct vcpu *next; v; v = next) {
		next = v->inbox_next;
		v->vruntime += p->min_vruntime;
		runq_append(p, v);
	}
}

/* Idle (pcpu_idle set): asks the busiest pCPU that has a vCPU waiting that may run here
 * for work. */
static void ask_for_work(struct pcpu *p, u64 now)
{
	if (!sched_ops->migrate || now - p->asked_at < sched_us(MIGRATE_GAP_US))
		return;
	u32 busiest = p->id, most = 1;
	for (u32 i = 0; i < npcpus; i++) {
		u32 n = __atomic_load_n(&pcpus[i].nrunnable, __ATOMIC_RELAXED);
		if (i != p->id && n > most &&
		    __atomic_load_n(&pcpus[i].movable.w[p->id / 64], __ATOMIC_RELAXED) >>
				    (p->id % 64) &
			    1) {
			busiest = i;
			most = n;
		}
	}
	if (busiest == p->id)
		return;
	p->asked_at = now;
	arch_send_kick(busiest);
}

/* v, runnable, loses its pCPU: its wait is steal time; pick_next found whether it was
 * inside a critical section. */
static void preempt(struct vcpu *v, u64 now)
{
	v->wait_since = now;
	if (v->preempted_critical)
		v->stats.critical_preemptions++;
}

/* A pCPU that stays in guest mode without a single exit for a second after its host timer
 * was due (look_at) has lost its host interrupts: the next pCPU says so once per stall,
 * with the state of the VM it runs, instead of a silent hang. */
#define WATCH_US 100000
#define WATCH_LOOKS 10
static void watch_next(struct pcpu *p, u64 now)
{
	struct pcpu *n = &pcpus[(p->id + 1) % npcpus];
	if (n == p || now < p->watch_at)
		return;
	p->watch_at = now + sched_us(WATCH_US);
	u64 entries = __atomic_load_n(&n->entries, __ATOMIC_RELAXED);
	bool stuck = __atomic_load_n(&pcpu_in_guest[n->id], __ATOMIC_RELAXED) &&
		     entries == p->watch_entries &&
		     __atomic_load_n(&n->look_at, __ATOMIC_RELAXED) < now;
	p->watch_entries = entries;
	p->watch_stuck = stuck ? p->watch_stuck + 1 : 0;
	struct vcpu *v = __atomic_load_n(&n->current, __ATOMIC_RELAXED);
	if (p->watch_stuck == WATCH_LOOKS && v) {
		printk("hv: pcpu%u has not left guest mode for %u ms past its host timer (VM "
		       "'%s' vcpu%u): its host interrupts do not reach it\n",
		       n->id, WATCH_US / 1000 * WATCH_LOOKS, v->vm->name, v->id);
		vm_dump(v->vm);
	}
}

NORETURN void sched_loop(void)
{
	struct pcpu *p = &pcpus[arch_pcpu_id()];
	for (;;) {
		arch_irq_window();
		u64 now = arch_time_now();
		if (p->run_start) {
			p->turn->vruntime += now - p->run_start;
			p->current->stats.run_ns += ticks_to_ns(now - p->run_start);
			p->run_start = 0;
		}
		if (p->id == 0 && nhousekeeping) { /* pCPU 0's own time */
			for (u32 i = 0; i < nhousekeeping; i++)
				housekeeping[i]();
			now = arch_time_now();
		}
		watch_next(p, now);
		take_in(p);
		u64 deadline = poll_vcpus(p, now);
		if (p->id == 0 && nhousekeeping)
			deadline = MIN(deadline, now + sched_us(SCHED_HOUSEKEEPING_US));
		u32 runnable = publish_load(p);
		update_load(p, runnable, now);
		runnable = give_away(p, runnable, now);
		struct vcpu *v = p->runq ? pick_next(p, now) : NULL;
		if (!v) {
			/* Idle, it still watches the next pCPU while that one is in guest mode. */
			if (__atomic_load_n(&pcpu_in_guest[(p->id + 1) % npcpus], __ATOMIC_RELAXED))
				deadline = MIN(deadline, MAX(p->watch_at, now + 1));
			arch_timer_arm(deadline == ~0ull ? 0 : deadline);
			__atomic_store_n(&pcpu_idle[p->id], true, __ATOMIC_SEQ_CST);
			if (!any_kick_pending(p) && !__atomic_load_n(&p->inbox, __ATOMIC_SEQ_CST)) {
				ask_for_work(p, now);
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
					preempt(prev, now);
				arch_vcpu_put(prev);
			}
			arch_vcpu_load(v);
			__atomic_store_n(&p->current, v,
					 __ATOMIC_RELAXED); /* read by sched_yield_to */
			p->switches++;
		}
		__atomic_store_n(&v->preempted_critical, CS_NONE, __ATOMIC_RELAXED);
		v->boost_due = false;
		if (v->wait_since) {
			u64 waited = ticks_to_ns(now - v->wait_since);
			v->stats.steal_ns += waited;
			v->stats.steal_max_ns = MAX(v->stats.steal_max_ns, waited);
			v->wait_since = 0;
		}
		if (runnable > 1)
			deadline = MIN(deadline, p->slice_end);
		arch_timer_arm(deadline == ~0ull ? 0 : deadline);
		__atomic_store_n(&p->look_at, deadline, __ATOMIC_RELAXED); /* see kick_for() */
		p->run_start = now;
		if (arch_vcpu_run(v) == RUN_HALTED && !arch_vcpu_wants_to_run(v))
			v->state = VCPU_HALTED;
	}
}

bool sched_enter_guest(struct vcpu *v)
{
	struct pcpu *p = &pcpus[v->pcpu];
	__atomic_store_n(&pcpu_in_guest[p->id], true, __ATOMIC_SEQ_CST);
	__atomic_store_n(&v->in_guest, true, __ATOMIC_SEQ_CST);
	__atomic_store_n(&p->entries, p->entries + 1, __ATOMIC_RELAXED);
	if (any_kick_pending(p) || vm_stopping(v->vm)) {
		sched_left_guest(v);
		return false;
	}
	if (v->woken_at) {
		struct vcpu_stats *s = &v->stats;
		u64 ns = ticks_to_ns(arch_time_now() - v->woken_at);
		s->wake_latency_sum_ns += ns;
		s->wake_latency_n++;
		s->wake_latency_max_ns = MAX(s->wake_latency_max_ns, ns);
		__atomic_store_n(&v->woken_at, 0, __ATOMIC_RELAXED);
	}
	return true;
}

void sched_left_guest(struct vcpu *v)
{
	__atomic_store_n(&v->in_guest, false, __ATOMIC_SEQ_CST);
	__atomic_store_n(&pcpu_in_guest[v->pcpu], false, __ATOMIC_SEQ_CST);
}

struct vcpu *sched_current(void) { return pcpus[arch_pcpu_id()].current; }

u64 sched_steal_ns(const struct vcpu *v, u64 now)
{
	u64 since = __atomic_load_n(&v->wait_since, __ATOMIC_RELAXED);
	return v->stats.steal_ns + (since && now > since ? ticks_to_ns(now - since) : 0);
}

bool sched_yield_to(struct vcpu *self, struct vcpu *target)
{
	struct pcpu *own = &pcpus[self->pcpu], *tp = &pcpus[target->pcpu];
	/* Only to a preempted vCPU: runnable, and not running because its pCPU runs another
	 * vCPU of its VM (the hint could not take another VM's turn). Read racily: the
	 * target's pCPU owns all of it and checks again when it takes the hint. */
	struct vcpu *running = __atomic_load_n(&tp->current, __ATOMIC_RELAXED);
	if (target == self || __atomic_load_n(&target->state, __ATOMIC_RELAXED) != VCPU_RUNNABLE ||
	    !running || running == target || running->vm != target->vm)
		return false;
	/* Posters only fill an empty slot and only the owner empties it, so a hint handed
	 * over is seen at the owner's next decision. A slot that already names another
	 * vCPU means that one goes first: no-op. */
	struct vcpu *none = NULL;
	if (!__atomic_compare_exchange_n(&tp->yield_to, &none, target, false, __ATOMIC_RELEASE,
					 __ATOMIC_RELAXED) &&
	    none != target)
		return false;
	self->stats.yields++;
	if (tp != own) {
		/* self most likely spins on the target: end its turn so that this pCPU runs
		 * another vCPU meanwhile, if it has one. The kick makes the target's pCPU
		 * decide now (the hint is stored before kick_pending). */
		own->slice_end = arch_time_now();
		own->skip = self;
		kick_for(target, KICK_ALWAYS);
	}
	vcpu_kick(self); /* back to this pCPU's scheduler before the next guest entry */
	return true;
}

/* Racy, as a hint: its pCPU runs another vCPU, or decides. */
static bool preempted(const struct vcpu *v)
{
	return __atomic_load_n(&v->state, __ATOMIC_RELAXED) == VCPU_RUNNABLE &&
	       !__atomic_load_n(&v->in_guest, __ATOMIC_RELAXED) &&
	       __atomic_load_n(&pcpus[v->pcpu].current, __ATOMIC_RELAXED) != v;
}

bool sched_watch_section_end(struct vcpu *v)
{
	const struct pcpu *p = &pcpus[v->pcpu];
	return p->extended && p->current == v && arch_time_now() < p->slice_end;
}

bool sched_watch_spin(struct vcpu *v)
{
	if (!sched_ops->watch_spins)
		return false;
	u64 now = arch_time_now();
	if (v->spin_quiet_until == SPIN_QUIET_NEXT_ENTRY) {
		/* The first entry since its spin exit: the intercepted PAUSE and its loop run
		 * now. Quiet time counted from the exit could be over before the spinner runs
		 * again (it yielded), and every entry would then stop it at the same PAUSE:
		 * its loop would never look at what it waits for. */
		v->spin_quiet_until = now + sched_us(SCHED_SPIN_QUIET_US);
		return false;
	}
	if (now < v->spin_quiet_until)
		return false;
	for (u32 i = 0; i < v->vm->nvcpus; i++)
		if (v->vm->vcpus[i] != v && preempted(v->vm->vcpus[i]))
			return true;
	return false;
}

bool sched_spin_exit(struct vcpu *v)
{
	struct vm *vm = v->vm;
	v->stats.spin_exits++;
	v->spin_quiet_until = SPIN_QUIET_NEXT_ENTRY;
	/* In this order: a vCPU that an interrupt made runnable and that has not run
	 * since (read racily; or one with a kick its pCPU has not seen yet, kick_for),
	 * most likely the one the spinner waits for (the target of its IPI); one
	 * preempted with interrupts masked in kernel mode, perhaps the holder of the
	 * lock; one preempted with a non-zero preempt count (the holder, or another
	 * waiter: spin_lock raises the count before it spins, in kernels with
	 * CONFIG_PREEMPT_COUNT); then any. (Yielding only after a spin-wait of 100-300
	 * us, a pause-loop window in software, made all-to-all IPIs 3x slower for 15% on
	 * lockbench: measured, not kept.) */
	for (int pass = 0; pass < 4; pass++)
		for (u32 i = 1; i <= vm->nvcpus; i++) {
			struct vcpu *t = vm->vcpus[(v->spin_next + i) % vm->nvcpus];
			u8 cs = __atomic_load_n(&t->preempted_critical, __ATOMIC_RELAXED);
			bool fits = pass == 0 ? __atomic_load_n(&t->woken_at, __ATOMIC_RELAXED) ||
							__atomic_load_n(&t->kick_pending,
									__ATOMIC_RELAXED)
				    : pass == 1 ? cs == CS_IRQS_MASKED
				    : pass == 2 ? cs == CS_PREEMPT_COUNT
						: true;
			if (t != v && fits && sched_yield_to(v, t)) {
				v->spin_next = t->id;
				return true;
			}
		}
	return false;
}

void sched_spin_hint(struct vcpu *self)
{
	struct pcpu *p = &pcpus[self->pcpu];
	p->slice_end = arch_time_now();
	p->skip = self;
}

void sched_vm_gone(void)
{
	if (__atomic_sub_fetch(&vms_alive, 1, __ATOMIC_SEQ_CST) == 0) {
		for (u32 i = 0; i < npcpus; i++) {
			char arch[128];
			arch_pcpu_describe(i, arch, sizeof arch);
			printk("hv: pcpu%u: switches=%llu idle-waits=%llu %s\n", i,
			       (unsigned long long)pcpus[i].switches,
			       (unsigned long long)pcpus[i].idle_ticks, arch);
		}
		printk("hv: no VM left\n");
		hv_exit();
	}
}
