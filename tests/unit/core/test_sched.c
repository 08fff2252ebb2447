/* SPDX-License-Identifier: GPL-2.0-only */
/* The scheduler (hv/sched.c) in a deterministic simulation of a whole machine, in one
 * thread: a few pCPUs and VMs, simulated time (one tick is one nanosecond).
 *
 * Each vCPU follows a script: run guest code so long, halt, arm its timer, send an
 * interrupt to another vCPU of its VM, yield to one. The real sched_loop() runs each
 * pCPU. A pCPU that waits (in guest mode until its host timer, the end of the guest's
 * run or a kick; asleep in arch_idle() until its timer or a kick) leaves sched_loop() by
 * longjmp back to the driver, which always resumes the pCPU that continues first (the
 * lowest id on a tie). Resuming finishes the wait as the code after it would (the
 * backend's sched_left_guest() and its return to the scheduler; the idle path clearing
 * pcpu_idle) and enters sched_loop() anew: its state lives in struct pcpu. So other
 * pCPUs only act while a pCPU is in guest mode or asleep, with the flags that a real kick
 * looks at, and every event happens at its own time.
 *
 * One liberty: where a guest's run ends with an exit the backend handles on its own (a
 * hypercall, an interrupt sent, a halt), the simulated pCPU passes through the scheduler
 * first, at the same instant, and the exit happens at the vCPU's next guest entry.
 *
 * Invariants checked all along: a pCPU only loads and runs its own vCPUs, at every guest
 * entry a vCPU's steal time equals the time the simulation saw it wait (and its longest
 * steal, its longest wait), and a vCPU woken from halt has its wake-up latency counted as
 * the time from its interrupt to that entry.
 *
 * Every scenario runs under both policies, rr and aware: most must behave alike; where
 * aware differs on purpose (a woken vCPU waits for the turn to end under rr, not under
 * aware) the scenario checks each, and aware's bounds (wake-up latency, starvation,
 * fair shares) are checked under aware. */
#include <setjmp.h>
#include <stdarg.h>
#include "../../../hv/sched.c"
#include "../../../hv/sched_policy.c"
#include "../test.h"

#define US(x) ((u64)(x)*1000)
#define MS(x) ((u64)(x)*1000000)
#define NEVER (~0ull)
#define T0 MS(1000) /* time starts at 1 s: wait_since 0 means "not waiting" */
#define AT(ms) (T0 + MS(ms))

u64 arch_time_hz = 1000000000;

/* ---- scripts ---- */

enum op_kind {
	OP_RUN,
	OP_HALT,
	OP_WAIT,
	OP_TIMER,
	OP_KICK,
	OP_YIELD,
	OP_SPIN,
	OP_PAUSE,
	OP_CS_IN,
	OP_CS_OUT,
	OP_STOP,
	OP_RENDEZVOUS
};
struct op {
	enum op_kind kind;
	u64 arg;
};
/* clang-format off */
#define RUN(t) { OP_RUN, (t) }     /* guest code for t (NEVER: for good) */
#define HALT { OP_HALT, 0 }        /* wait for an interrupt */
#define WAIT { OP_WAIT, 0 }        /* HALT, unless an interrupt came since its last WAIT */
#define TIMER(t) { OP_TIMER, (t) } /* arm its timer t from now */
#define KICK(i) { OP_KICK, (i) }   /* an interrupt to vCPU i of its VM */
#define YIELD(i) { OP_YIELD, (i) } /* KVM_HC_SCHED_YIELD to vCPU i of its VM */
#define SPIN { OP_SPIN, 0 }        /* a spin-wait hint (WFE) */
#define PAUSE { OP_PAUSE, 0 }      /* a PAUSE: exits when the backend watches spins */
#define CS_IN { OP_CS_IN, 0 }      /* enters a critical section (interrupts masked) */
#define CS_OUT { OP_CS_OUT, 0 }    /* leaves it */
#define STOP { OP_STOP, 0 }        /* power the VM off */
#define RENDEZVOUS { OP_RENDEZVOUS, 0 } /* VM 0: arrive at the next round; a PAUSE until all have */
/* clang-format on */
/* A script starts over when it ends. */
#define SCRIPT(v, ...)                                           \
	do {                                                     \
		static const struct op ops_[] = { __VA_ARGS__ }; \
		set_script(v, ops_, ARRAY_SIZE(ops_));           \
	} while (0)

/* ---- the machine ---- */

struct sim_vcpu {
	struct vcpu v; /* first: S(v) finds the rest */
	const struct op *script;
	u32 nops, pc;
	u64 left;	    /* of the RUN at pc */
	bool irq;	    /* an interrupt is pending (a kick or its timer) */
	u64 timer;	    /* its timer (0: none) */
	bool halted;	    /* the guest waits in HALT */
	bool came;	    /* an interrupt came since its last WAIT */
	u64 ran;	    /* time in guest mode */
	u64 ready_since;    /* runnable out of guest mode since (0: not waiting) */
	u64 waited;	    /* the sum of those waits */
	u64 max_wait;	    /* the longest of them */
	u64 lat_n, lat_sum; /* its wake-up latency counters at its last guest entry */
	u32 yields_refused;
	u32 pauses_watched; /* PAUSEs that exited (sched_watch_spin), before they ran */
	u32 pauses_done;    /* PAUSEs that ran */
	bool in_cs;	    /* inside a critical section (CS_IN) */
	u64 kicked_out;	    /* host kicks (arch_send_kick) that ended its guest mode */
	u32 kicks_sent;	    /* KICKs it sent (messages, in the messaging scenarios) */
	u32 pair;	    /* KICK's vCPU numbers are relative to this one (messaging) */
	u32 round;	    /* RENDEZVOUS: the round it is at */
	bool arrived;	    /* ...and whether it arrived there */
};

enum wait { READY, IN_GUEST, ASLEEP }; /* READY: to start, or running now */
struct sim_pcpu {
	enum wait wait;
	u64 wake;	    /* when it goes on (NEVER: not until kicked) */
	u64 since;	    /* in guest mode or asleep since */
	struct vcpu *guest; /* the vCPU in guest mode */
	u64 timer;	    /* the armed host timer (0: none) */
	struct vcpu *loaded;
	u64 asleep;    /* time in arch_idle() */
	u64 kicks;     /* arch_send_kick() to it */
	u64 last_pass; /* livelock guard: loop passes at one instant */
	u32 passes;
};

struct run {
	u64 t;
	u32 cpu;
	struct vcpu *v;
};

static struct {
	u64 now;
	u32 cpu;	/* the pCPU being simulated */
	jmp_buf escape; /* back to the driver: that pCPU waits */
	struct sim_pcpu pcpu[MAX_PCPUS];
	struct vm vms[4];
	struct sim_vcpu vcpus[256];
	u32 arrived[2], rounds; /* RENDEZVOUS: vCPUs of VM 0 at a round (by parity), rounds done */
	u32 nvms, nvcpus;
	struct run runs[65536]; /* every arch_vcpu_run(), in order */
	u32 nruns;
	u32 errors; /* broken invariants (the first ones printed) */
	bool powered_off;
	bool blind_to_section_end; /* as arm64: no exit when a critical section ends */
} sim;

static struct sim_vcpu *S(struct vcpu *v) { return (struct sim_vcpu *)v; }

static struct sim_pcpu *here(void) { return &sim.pcpu[sim.cpu]; }

PRINTF_LIKE(1, 2) static void sim_error(const char *fmt, ...)
{
	if (sim.errors++ >= 10)
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "t=%+lldns pcpu%u: ", (long long)(sim.now - T0), sim.cpu);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static NORETURN void halt_machine(void)
{
	for (u32 i = 0; i < MAX_PCPUS; i++)
		sim.pcpu[i].wake = NEVER;
	longjmp(sim.escape, 1);
}

static u64 timer_wake(struct sim_pcpu *c) { return c->timer ? MAX(c->timer, sim.now) : NEVER; }

/* In guest mode until `end`, the host timer or a kick. */
static NORETURN void in_guest(struct vcpu *v, u64 end)
{
	struct sim_pcpu *c = here();
	c->wait = IN_GUEST;
	c->guest = v;
	c->since = sim.now;
	c->wake = MIN(end, timer_wake(c));
	longjmp(sim.escape, 1);
}

static void set_script(struct vcpu *v, const struct op *ops, u32 n)
{
	struct sim_vcpu *s = S(v);
	s->script = ops;
	s->nops = n;
	s->pc = 0;
	s->left = ops[0].kind == OP_RUN ? ops[0].arg : 0;
}

static void next_op(struct sim_vcpu *s)
{
	s->pc = (s->pc + 1) % s->nops;
	s->left = s->script[s->pc].kind == OP_RUN ? s->script[s->pc].arg : 0;
}

static void raise_irq(struct sim_vcpu *s)
{
	if (s->halted && !s->irq)
		s->ready_since = sim.now; /* woken: waits from now until it runs */
	s->irq = true;
	s->came = true;
}

/* Resumes a waiting pCPU at its wake time. */
static void resume(u32 cpu)
{
	struct sim_pcpu *c = &sim.pcpu[cpu];
	sim.cpu = cpu;
	sim.now = c->wake;
	if (c->timer && c->timer <= sim.now)
		c->timer = 0; /* it fired */
	if (c->wait == IN_GUEST) {
		/* The guest exits: as arch_vcpu_run() returning RUN_PREEMPTED. */
		struct sim_vcpu *s = S(c->guest);
		u64 t = sim.now - c->since;
		s->ran += t;
		if (s->left != NEVER)
			s->left -= t;
		if (!s->left)
			next_op(s);
		s->ready_since = sim.now;
		sched_left_guest(c->guest);
	} else if (c->wait == ASLEEP) {
		c->asleep += sim.now - c->since;
		__atomic_store_n(&pcpu_idle[cpu], false, __ATOMIC_SEQ_CST); /* after arch_idle() */
	}
	c->wait = READY;
	c->wake = NEVER;
	if (!setjmp(sim.escape))
		sched_loop();
}

/* Runs the machine up to `end` (the events before it). */
static void run_until(u64 end)
{
	for (;;) {
		u32 next = 0;
		for (u32 i = 1; i < npcpus; i++)
			if (sim.pcpu[i].wake < sim.pcpu[next].wake)
				next = i;
		if (sim.pcpu[next].wake >= end)
			break;
		resume(next);
	}
	sim.now = end;
}

static enum sched_policy policy; /* of the machines the tests build */

static void machine(u32 n)
{
	memset(&sim, 0, sizeof sim);
	memset(pcpus, 0, sizeof pcpus);
	memset(pcpu_idle, 0, sizeof pcpu_idle);
	memset(pcpu_in_guest, 0, sizeof pcpu_in_guest);
	vms_alive = 0;
	sched_init(n, policy);
	sim.now = T0;
	for (u32 i = 0; i < n; i++)
		sim.pcpu[i].wake = T0;
}

/* A VM of n vCPUs placed by the scheduler on the pCPUs of `affinity`, runnable and busy
 * for good. */
static struct vm *vm_new_on(u32 n, u64 affinity)
{
	static const struct op busy[] = { RUN(NEVER) };
	struct vm *vm = &sim.vms[sim.nvms];
	vm->id = sim.nvms++;
	vm->nvcpus = n;
	for (u32 i = 0; i < n; i++) {
		struct sim_vcpu *s = &sim.vcpus[sim.nvcpus++];
		s->v.vm = vm;
		s->v.id = i;
		s->v.state = VCPU_RUNNABLE;
		s->v.affinity = (struct pcpu_set){ { affinity } };
		set_script(&s->v, busy, ARRAY_SIZE(busy));
		vm->vcpus[i] = &s->v;
		sched_place(&s->v);
	}
	return vm;
}

static struct vm *vm_new(u32 n) { return vm_new_on(n, ~0ull); }

/* A vCPU that starts halted, waiting for an interrupt. */
static void start_halted(struct vcpu *v)
{
	v->state = VCPU_HALTED;
	S(v)->halted = true;
}

/* Time in guest mode so far. */
static u64 ran(struct vcpu *v)
{
	struct sim_pcpu *c = &sim.pcpu[v->pcpu];
	return S(v)->ran + (c->wait == IN_GUEST && c->guest == v ? sim.now - c->since : 0);
}

static u64 asleep(u32 cpu)
{
	struct sim_pcpu *c = &sim.pcpu[cpu];
	return c->asleep + (c->wait == ASLEEP ? sim.now - c->since : 0);
}

/* The vCPU that pCPU `cpu` ran first at or after t (NULL: none), and when. */
static struct vcpu *first_run(u32 cpu, u64 t, u64 *when)
{
	*when = 0;
	for (u32 i = 0; i < sim.nruns; i++)
		if (sim.runs[i].cpu == cpu && sim.runs[i].t >= t) {
			*when = sim.runs[i].t;
			return sim.runs[i].v;
		}
	return NULL;
}

/* The vCPU that pCPU `cpu` ran last at or before t, once it decided at t (NULL: none). */
static struct vcpu *running(u32 cpu, u64 t)
{
	struct vcpu *v = NULL;
	for (u32 i = 0; i < sim.nruns && sim.runs[i].t <= t; i++)
		if (sim.runs[i].cpu == cpu)
			v = sim.runs[i].v;
	return v;
}

/* Outside any pCPU: a host interrupt to `cpu` now. */
static void interrupt(u32 cpu) { sim.pcpu[cpu].wake = MIN(sim.pcpu[cpu].wake, sim.now); }

/* At the end of a scenario: no invariant broken, and every vCPU's run time as counted
 * (with the run in progress) is the time the simulation saw it in guest mode. */
static void settle(void)
{
	CHECK_EQ(sim.errors, 0);
	for (u32 i = 0; i < sim.nvcpus; i++) {
		struct vcpu *v = &sim.vcpus[i].v;
		const struct pcpu *p = &pcpus[v->pcpu];
		u64 now_running = p->current == v && p->run_start ? sim.now - p->run_start : 0;
		CHECK_EQ(v->stats.run_ns + now_running, ran(v));
	}
}

/* ---- the backend and the rest of the hypervisor, as sched.c sees them ---- */

u32 arch_pcpu_id(void) { return sim.cpu; }

u64 arch_time_now(void) { return sim.now; }

void arch_timer_arm(u64 deadline) { here()->timer = deadline; }

/* Posted interrupts, for test_notify: off (the policies' scenarios), or the hardware's
 * notification claimed and sent, after `meanwhile` ran (what the target did between the
 * sender's first look and its claim). */
static bool posts;
static void (*meanwhile)(void);
static u32 notified_to[MAX_PCPUS];
bool arch_notify_running(struct vcpu *v, u32 pcpu)
{
	(void)v;
	if (!posts)
		return false;
	if (meanwhile)
		meanwhile();
	notified_to[pcpu]++;
	return true;
}
void arch_send_kick(u32 cpu)
{
	struct sim_pcpu *c = &sim.pcpu[cpu];
	c->kicks++;
	if (c->wait == IN_GUEST && c->wake > sim.now)
		S(c->guest)->kicked_out++;
	if (c->wait != READY)
		c->wake = MIN(c->wake, sim.now); /* leaves guest mode or wakes up now */
}

/* Asleep until the host timer or a kick. */
void arch_idle(void)
{
	struct sim_pcpu *c = here();
	c->wait = ASLEEP;
	c->since = sim.now;
	c->wake = timer_wake(c);
	longjmp(sim.escape, 1);
}

/* Called once per loop pass: no pass may repeat without end at one instant. */
void arch_irq_window(void)
{
	struct sim_pcpu *c = here();
	if (c->last_pass != sim.now) {
		c->last_pass = sim.now;
		c->passes = 0;
	} else if (++c->passes > 1000) {
		sim_error("livelock: the loop makes no progress");
		halt_machine();
	}
}

void arch_pcpu_describe(u32 pcpu, char *buf, size_t n)
{
	snprintf(buf, n, "(simulated pcpu%u)", pcpu);
}

NORETURN void hv_exit(void)
{
	sim.powered_off = true;
	halt_machine();
}

void arch_vcpu_poll(struct vcpu *v, u64 now)
{
	struct sim_vcpu *s = S(v);
	if (s->timer && s->timer <= now) {
		s->timer = 0;
		raise_irq(s);
	}
}

bool arch_vcpu_wants_to_run(struct vcpu *v) { return S(v)->irq; }

u64 arch_vcpu_next_timer(struct vcpu *v) { return S(v)->timer; }

void arch_vcpu_load(struct vcpu *v)
{
	if (v->pcpu != sim.cpu)
		sim_error("loads vcpu%u of VM %u, a vCPU of pcpu%u", v->id, v->vm->id, v->pcpu);
	for (u32 i = 0; i < npcpus; i++)
		if (i != sim.cpu && sim.pcpu[i].loaded == v)
			sim_error("loads vcpu%u of VM %u, which pcpu%u has loaded", v->id,
				  v->vm->id, i);
	here()->loaded = v;
}

enum critical_section arch_vcpu_in_critical_section(struct vcpu *v)
{
	if (here()->loaded != v)
		sim_error("looks at vcpu%u of VM %u, which it has not loaded", v->id, v->vm->id);
	return S(v)->in_cs ? CS_IRQS_MASKED : CS_NONE;
}

bool arch_vcpu_sees_section_end(struct vcpu *v)
{
	(void)v;
	return !sim.blind_to_section_end;
}

void arch_vcpu_put(struct vcpu *v)
{
	if (here()->loaded != v)
		sim_error("puts vcpu%u of VM %u, which it has not loaded", v->id, v->vm->id);
	here()->loaded = NULL;
}

static void entered_guest(struct sim_vcpu *s)
{
	u64 wait = s->ready_since ? sim.now - s->ready_since : 0;
	s->waited += wait;
	s->max_wait = MAX(s->max_wait, wait);
	s->ready_since = 0;
	struct vcpu_stats *st = &s->v.stats;
	if (s->halted &&
	    (st->wake_latency_n != s->lat_n + 1 || st->wake_latency_sum_ns - s->lat_sum != wait))
		sim_error(
			"vcpu%u of VM %u: woken %llu ns ago, latency counted %llu ns (%llu times)",
			s->v.id, s->v.vm->id, (unsigned long long)wait,
			(unsigned long long)(st->wake_latency_sum_ns - s->lat_sum),
			(unsigned long long)(st->wake_latency_n - s->lat_n));
	s->lat_n = st->wake_latency_n;
	s->lat_sum = st->wake_latency_sum_ns;
	if (s->v.stats.steal_ns != s->waited)
		sim_error("vcpu%u of VM %u: steal %llu ns, waited %llu ns", s->v.id, s->v.vm->id,
			  (unsigned long long)s->v.stats.steal_ns, (unsigned long long)s->waited);
	if (s->v.stats.steal_max_ns != s->max_wait)
		sim_error("vcpu%u of VM %u: longest steal %llu ns, longest wait %llu ns", s->v.id,
			  s->v.vm->id, (unsigned long long)s->v.stats.steal_max_ns,
			  (unsigned long long)s->max_wait);
	s->irq = false; /* delivered */
	if (s->halted)
		s->came = false; /* the interrupt that ended the halt */
	s->halted = false;
}

/* As the backend's loop (arch/x86/svm/svm.c): exits that need no scheduler are handled
 * here, and a kick for this pCPU sends the vCPU back to the scheduler. */
enum run_result arch_vcpu_run(struct vcpu *v)
{
	struct sim_vcpu *s = S(v);
	if (sim.nruns < ARRAY_SIZE(sim.runs))
		sim.runs[sim.nruns++] = (struct run){ sim.now, sim.cpu, v };
	else
		sim_error("the run log is full");
	if (v->pcpu != sim.cpu || here()->loaded != v || v->state != VCPU_RUNNABLE)
		sim_error("runs vcpu%u of VM %u (pcpu%u, state %d), not a runnable vCPU it loaded",
			  v->id, v->vm->id, v->pcpu, v->state);
	for (;;) {
		if (!sched_enter_guest(v)) {
			s->ready_since = sim.now;
			return RUN_PREEMPTED;
		}
		entered_guest(s);
		u32 at = s->pc;
		const struct op *op = &s->script[at];
		if (op->kind == OP_RUN)
			in_guest(v, s->left == NEVER ? NEVER : sim.now + s->left);
		sched_left_guest(v);
		next_op(s);
		switch (op->kind) {
		case OP_RUN:
			break;
		case OP_WAIT:
			if (s->came) {
				s->came = false;
				break;
			}
			__attribute__((fallthrough));
		case OP_HALT:
			s->halted = true;
			return RUN_HALTED;
		case OP_TIMER:
			s->timer = sim.now + op->arg;
			break;
		case OP_KICK: {
			struct vcpu *t = v->vm->vcpus[s->pair + op->arg];
			s->kicks_sent++;
			raise_irq(S(t));
			vcpu_kick(t);
			break;
		}
		case OP_YIELD:
			if (!sched_yield_to(v, v->vm->vcpus[op->arg]))
				s->yields_refused++;
			break;
		case OP_SPIN:
			sched_spin_hint(v);
			return RUN_PREEMPTED;
		case OP_PAUSE:
			/* As svm.c: watched at the entry, it exits before it runs, to
			 * sched_spin_exit, and the guest is back at it after the exit. */
			if (sched_watch_spin(v)) {
				s->pauses_watched++;
				s->pc = at;
				sched_spin_exit(v);
			} else {
				s->pauses_done++;
			}
			break;
		case OP_CS_IN:
		case OP_CS_OUT:
			s->in_cs = op->kind == OP_CS_IN;
			/* As svm.c: an extended turn's section ends at the interrupt window. */
			if (!s->in_cs && !sim.blind_to_section_end && sched_watch_section_end(v)) {
				s->ready_since = sim.now;
				return RUN_PREEMPTED;
			}
			break;
		case OP_RENDEZVOUS: /* VM 0 only; a round starts once all saw the last end */
			if (!s->arrived) {
				s->arrived = true;
				sim.arrived[s->round % 2]++;
			}
			if (sim.arrived[s->round % 2] == v->vm->nvcpus) {
				if (sim.rounds == s->round) { /* the first to see it ends */
					sim.rounds++;
					sim.arrived[sim.rounds % 2] = 0;
				}
				s->round++;
				s->arrived = false;
			} else if (sched_watch_spin(v)) { /* a PAUSE of its wait loop */
				s->pauses_watched++;
				s->pc = at;
				sched_spin_exit(v);
			} else {
				s->pauses_done++; /* and the loop's body, the next op */
			}
			break;
		case OP_STOP: /* vm_request_stop() */
			v->vm->stop_reason = VM_POWEROFF;
			for (u32 i = 0; i < v->vm->nvcpus; i++)
				vcpu_kick(v->vm->vcpus[i]);
			break;
		}
	}
}

bool vm_stopping(const struct vm *vm) { return vm->stop_reason != VM_RUNNING; }
static int dumps;
void vm_dump(struct vm *vm) { (void)vm, dumps++; }

void vm_vcpu_stopped(struct vcpu *v)
{
	if (++v->vm->vcpus_stopped == v->vm->nvcpus)
		sched_vm_gone();
}

void printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* ---- tests ---- */

static void test_placement(void)
{
	machine(3);
	struct vm *a = vm_new(2);
	vm_new(3);
	vm_new(1);
	for (u32 i = 0; i < 3; i++) {
		u32 n = 0;
		for (struct vcpu *v = pcpus[i].runq; v; v = v->rq_next, n++)
			CHECK_EQ(v->pcpu, i);
		CHECK_EQ(pcpus[i].nvcpus, 2);
		CHECK_EQ(n, 2);
	}
	CHECK(a->vcpus[0]->pcpu != a->vcpus[1]->pcpu);
	CHECK_EQ(vms_alive, 3);

	/* More pCPUs than vCPUs: one each. */
	machine(4);
	a = vm_new(2);
	CHECK(a->vcpus[0]->pcpu != a->vcpus[1]->pcpu);
	CHECK_EQ(pcpus[a->vcpus[0]->pcpu].nvcpus, 1);
	CHECK_EQ(pcpus[a->vcpus[1]->pcpu].nvcpus, 1);
	settle();
}

/* Two busy vCPUs on one pCPU take turns of 5 ms. */
static void test_round_robin(void)
{
	machine(1);
	struct vm *vm = vm_new(2);
	struct vcpu *a = vm->vcpus[0], *b = vm->vcpus[1];
	run_until(AT(100));
	CHECK_EQ(ran(a), MS(50));
	CHECK_EQ(ran(b), MS(50));
	CHECK_EQ(pcpus[0].switches, 20);
	u32 wrong = 0;
	for (u32 k = 0; k < 20; k++)
		wrong += running(0, AT(5 * k)) != (k % 2 ? b : a) ||
			 (k && running(0, AT(5 * k) - 1) != (k % 2 ? a : b));
	CHECK_EQ(wrong, 0);
	/* Each waited 5 ms before each of its turns but the first. */
	CHECK_EQ(a->stats.steal_ns, MS(45));
	CHECK_EQ(b->stats.steal_ns, MS(45));
	CHECK_EQ(pcpus[0].idle_ticks, 0);
	settle();
}

/* A halted vCPU gets no turn, and a pCPU with nothing runnable sleeps. */
static void test_halted_costs_nothing(void)
{
	machine(2);
	struct vm *vm = vm_new(3); /* pcpu0: vcpu0, vcpu2; pcpu1: vcpu1 */
	CHECK_EQ(vm->vcpus[2]->pcpu, 0);
	start_halted(vm->vcpus[1]);
	start_halted(vm->vcpus[2]);
	run_until(AT(100));
	CHECK_EQ(ran(vm->vcpus[0]), MS(100));
	CHECK_EQ(ran(vm->vcpus[1]), 0);
	CHECK_EQ(ran(vm->vcpus[2]), 0);
	CHECK_EQ(pcpus[0].switches, 1);
	CHECK_EQ(vm->vcpus[0]->stats.steal_ns, 0);
	CHECK_EQ(pcpus[1].idle_ticks, 1); /* one sleep, never woken */
	CHECK_EQ(asleep(1), MS(100));
	CHECK_EQ(sim.nruns, 50); /* vcpu0 at 0 ms and after each console poll (2 ms) */
	settle();
}

/* An interrupt from another pCPU wakes a halted vCPU and its sleeping pCPU at once. */
static void test_wake_by_kick(void)
{
	machine(2);
	struct vm *vm = vm_new(2);
	struct vcpu *v0 = vm->vcpus[0], *v1 = vm->vcpus[1];
	SCRIPT(v0, RUN(MS(10)), KICK(1), RUN(NEVER));
	SCRIPT(v1, RUN(MS(3)), HALT);
	start_halted(v1);
	run_until(AT(100));
	u64 when;
	CHECK(first_run(1, T0, &when) == v1);
	CHECK_EQ(when, AT(10));
	CHECK_EQ(ran(v1), MS(3));
	CHECK_EQ(v1->stats.wakeups, 1);
	CHECK_EQ(v1->stats.steal_ns, 0);
	CHECK_EQ(v0->stats.kicks_sent, 1);
	CHECK_EQ(sim.pcpu[1].kicks, 1);
	CHECK_EQ(asleep(1), MS(97));
	CHECK_EQ(v1->state, VCPU_HALTED);
	settle();
}

/* A halted vCPU's timer wakes it on time, with no kick. */
static void test_wake_by_timer(void)
{
	machine(2);
	struct vm *vm = vm_new(2);
	struct vcpu *v1 = vm->vcpus[1];
	SCRIPT(v1, TIMER(MS(7)), HALT, RUN(MS(2)), HALT);
	run_until(AT(100));
	u64 when;
	CHECK(first_run(1, T0 + 1, &when) == v1);
	CHECK_EQ(when, AT(7));
	CHECK_EQ(ran(v1), MS(2));
	CHECK_EQ(v1->stats.wakeups, 1);
	CHECK_EQ(sim.pcpu[1].kicks, 0);
	CHECK_EQ(pcpus[1].idle_ticks, 2);
	CHECK_EQ(asleep(1), MS(98));
	settle();
}

/* Steal time is the time a runnable vCPU waited for its pCPU. Woken at 2 ms in vcpu0's
 * turn, vcpu2 waits for the turn to end at 5 ms under rr; under aware (woken from halt
 * with a sleeper's credit) it preempts vcpu0 at once, and vcpu0 waits instead. Under rr
 * the kick does not interrupt vcpu0: pcpu0 looks at 4 ms anyway (its console poll) and
 * then ends the turn at 5 ms; vcpu2's wait counts from the kick all the same. */
static void test_steal(void)
{
	machine(2);
	struct vm *vm = vm_new(3); /* pcpu0: vcpu0, vcpu2; pcpu1: vcpu1 */
	struct vcpu *v0 = vm->vcpus[0], *v1 = vm->vcpus[1], *v2 = vm->vcpus[2];
	SCRIPT(v1, RUN(MS(2)), KICK(2), RUN(NEVER));
	SCRIPT(v2, RUN(MS(1)), HALT);
	start_halted(v2);
	run_until(AT(20));
	bool aware = policy == SCHED_AWARE;
	u64 woken = aware ? AT(2) : AT(5);
	CHECK_EQ(sim.pcpu[0].kicks, aware);
	CHECK(running(0, woken - 1) == v0);
	CHECK(running(0, woken) == v2);
	CHECK(running(0, woken + MS(1)) == v0); /* back when vcpu2 halted */
	CHECK_EQ(v2->stats.steal_ns, woken - AT(2));
	CHECK_EQ(v2->stats.steal_max_ns, woken - AT(2));
	CHECK_EQ(v2->stats.wake_latency_n, 1);
	CHECK_EQ(v2->stats.wake_latency_max_ns, woken - AT(2));
	CHECK_EQ(v2->stats.wake_preempts, aware);
	CHECK_EQ(v0->stats.steal_ns, MS(1));
	CHECK_EQ(ran(v0), MS(19));
	CHECK_EQ(v1->stats.kicks_sent, aware);
	CHECK_EQ(v1->stats.kicks_deferred, !aware);
	settle();
}

/* Same pCPU: the target runs at once, for the rest of the caller's turn. */
static void test_yield_same_pcpu(void)
{
	machine(1);
	struct vm *vm = vm_new(2);
	struct vcpu *v0 = vm->vcpus[0], *v1 = vm->vcpus[1];
	SCRIPT(v0, RUN(MS(1)), YIELD(1), RUN(NEVER));
	run_until(AT(12));
	CHECK(running(0, AT(1) - 1) == v0);
	CHECK(running(0, AT(1)) == v1);
	CHECK(running(0, AT(10) - 1) == v1); /* vcpu1's own turn follows: 5-10 ms */
	CHECK(running(0, AT(10)) == v0);
	CHECK_EQ(v0->stats.yields, 1);
	CHECK_EQ(v1->stats.yields, 0);
	CHECK_EQ(v0->stats.kicks_sent, 0);
	CHECK_EQ(v0->stats.steal_ns, MS(9));
	CHECK_EQ(pcpus[0].switches, 3);
	settle();
}

/* Another pCPU: the target's pCPU runs the target at its next decision, right away,
 * and the caller's pCPU moves on to its other vCPU. */
static void test_yield_other_pcpu(void)
{
	machine(2);
	struct vm *vm = vm_new(4); /* pcpu0: vcpu0, vcpu2; pcpu1: vcpu1, vcpu3 */
	struct vcpu *v0 = vm->vcpus[0], *v1 = vm->vcpus[1], *v2 = vm->vcpus[2], *v3 = vm->vcpus[3];
	CHECK(v0->pcpu == 0 && v2->pcpu == 0 && v1->pcpu == 1 && v3->pcpu == 1);
	SCRIPT(v0, RUN(MS(1)), YIELD(3), RUN(NEVER));
	run_until(AT(11));
	CHECK(running(1, AT(1) - 1) == v1);
	CHECK(running(1, AT(1)) == v3);
	CHECK(running(0, AT(1)) == v2);
	CHECK_EQ(v0->stats.yields, 1);
	CHECK_EQ(v0->stats.kicks_sent, 1);
	CHECK_EQ(sim.pcpu[1].kicks, 1);
	/* vcpu3 has the rest of vcpu1's turn, then its own; vcpu1 waited all along. */
	CHECK(running(1, AT(10) - 1) == v3);
	CHECK(running(1, AT(10)) == v1);
	CHECK_EQ(v1->stats.steal_ns, MS(9));
	CHECK_EQ(v1->stats.steal_max_ns, MS(9));
	CHECK_EQ(ran(v3), MS(9));
	/* vcpu2 has its turn, 1-6 ms, then vcpu0 the next one. */
	CHECK(running(0, AT(6) - 1) == v2);
	CHECK(running(0, AT(6)) == v0);
	CHECK_EQ(v0->stats.steal_ns, MS(5));
	settle();
}

/* A caller alone on its pCPU runs on: nothing else could use the pCPU. */
static void test_yield_caller_alone(void)
{
	machine(2);
	struct vm *vm = vm_new(3); /* pcpu0: vcpu0, vcpu2; pcpu1: vcpu1 */
	struct vcpu *v0 = vm->vcpus[0], *v1 = vm->vcpus[1], *v2 = vm->vcpus[2];
	SCRIPT(v1, RUN(MS(1)), YIELD(2), RUN(NEVER));
	run_until(AT(4));
	CHECK(running(0, AT(1)) == v2);
	CHECK_EQ(v1->stats.yields, 1);
	CHECK_EQ(ran(v1), MS(4));
	CHECK_EQ(pcpus[1].switches, 1);
	CHECK_EQ(ran(v0), MS(1));
	settle();
}

/* No-ops: a running target, a halted one, the caller itself. */
static void test_yield_noop(void)
{
	machine(2);
	struct vm *vm = vm_new(3); /* pcpu0: vcpu0, vcpu2; pcpu1: vcpu1 */
	struct vcpu *v0 = vm->vcpus[0], *v1 = vm->vcpus[1], *v2 = vm->vcpus[2];
	SCRIPT(v1, RUN(MS(1)), YIELD(0), RUN(MS(1)), YIELD(1), RUN(NEVER));
	SCRIPT(v0, RUN(MS(2)), YIELD(2), RUN(NEVER));
	start_halted(v2);
	run_until(AT(10));
	CHECK_EQ(S(v1)->yields_refused, 2); /* vcpu0 running at 1 ms; itself at 2 ms */
	CHECK_EQ(S(v0)->yields_refused, 1); /* vcpu2 halted */
	CHECK_EQ(v0->stats.yields + v1->stats.yields, 0);
	CHECK_EQ(v0->stats.kicks_sent + v1->stats.kicks_sent, 0);
	CHECK_EQ(pcpus[0].switches + pcpus[1].switches, 2);
	CHECK_EQ(ran(v0), MS(10));
	CHECK_EQ(ran(v1), MS(10));
	CHECK_EQ(v2->state, VCPU_HALTED);
	settle();
}

/* A target waiting behind another VM's turn stays there: a no-op. */
static void test_yield_behind_other_vm(void)
{
	machine(2);
	struct vm *a = vm_new(2), *b = vm_new(1); /* pcpu0: a0; pcpu1: a1, b0 */
	struct vcpu *a0 = a->vcpus[0], *a1 = a->vcpus[1], *b0 = b->vcpus[0];
	CHECK(a0->pcpu == 0 && a1->pcpu == 1 && b0->pcpu == 1);
	SCRIPT(a0, RUN(MS(6)), YIELD(1), RUN(NEVER));
	run_until(AT(11));
	CHECK_EQ(S(a0)->yields_refused, 1);
	CHECK_EQ(a0->stats.yields, 0);
	CHECK_EQ(sim.pcpu[1].kicks, 0);
	CHECK_EQ(ran(b0), MS(5)); /* its whole turn, 5-10 ms */
	CHECK(running(1, AT(10) - 1) == b0);
	CHECK(running(1, AT(10)) == a1);
	settle();
}

/* A hint is checked by the pCPU that takes it: a vCPU of another pCPU, one of another
 * VM than the turn's or a halted one is dropped, and the turn goes on. */
static void test_yield_hint_checked_by_owner(void)
{
	machine(2);
	struct vm *a = vm_new(4), *b = vm_new(1); /* pcpu0: a0, a2; pcpu1: a1, a3, b0 */
	struct vcpu *a0 = a->vcpus[0], *a1 = a->vcpus[1], *a2 = a->vcpus[2], *a3 = a->vcpus[3];
	struct vcpu *b0 = b->vcpus[0];
	CHECK(a0->pcpu == 0 && a2->pcpu == 0 && a1->pcpu == 1 && a3->pcpu == 1 && b0->pcpu == 1);
	start_halted(a3);
	struct vcpu *bad[] = { a2, b0, a3 };
	for (u32 i = 0; i < ARRAY_SIZE(bad); i++) {
		run_until(AT(1 + i));
		pcpus[1].yield_to = bad[i]; /* as if posted there from a racy look */
		interrupt(1);
		run_until(AT(1 + i) + 1);
		CHECK(running(1, AT(1 + i)) == a1);
		CHECK(pcpus[1].yield_to == NULL);
	}
	run_until(AT(10));
	CHECK_EQ(ran(a1), MS(5));
	CHECK_EQ(ran(b0), MS(5));
	CHECK_EQ(ran(a0) + ran(a2), MS(10));
	settle();
}

/* Yields from two pCPUs to a third at once: the first target goes first and a yield to
 * another one is refused; yields to the same target all count. */
static void test_yield_two_callers(void)
{
	machine(3);
	struct vm *vm = vm_new(9);
	struct vcpu **v = vm->vcpus;
	u32 wrong = 0;
	for (u32 i = 0; i < 9; i++)
		wrong += v[i]->pcpu != i % 3;
	CHECK_EQ(wrong, 0);
	SCRIPT(v[0], RUN(MS(1)), YIELD(5), RUN(NEVER));
	SCRIPT(v[1], RUN(MS(1)), YIELD(8), RUN(MS(1)), YIELD(8), RUN(NEVER));
	SCRIPT(v[3], RUN(MS(1)), YIELD(8), RUN(NEVER)); /* its turn on pcpu0 starts at 1 ms */
	run_until(AT(3));
	CHECK(running(2, AT(1) - 1) == v[2]);
	CHECK(running(2, AT(1)) == v[5]);
	CHECK(running(2, AT(2)) == v[8]);
	CHECK_EQ(v[0]->stats.yields, 1);
	CHECK_EQ(S(v[1])->yields_refused, 1);
	CHECK_EQ(v[1]->stats.yields, 1);
	CHECK_EQ(v[3]->stats.yields, 1);
	settle();
}

/* Two vCPUs of a VM yielding to each other trade their own turns only: the other VM on
 * their pCPU keeps its share. */
static void test_yield_ping_pong_is_fair(void)
{
	machine(1);
	struct vm *a = vm_new(2), *b = vm_new(1);
	struct vcpu *a0 = a->vcpus[0], *a1 = a->vcpus[1], *b0 = b->vcpus[0];
	SCRIPT(a0, RUN(US(130)), YIELD(1));
	SCRIPT(a1, RUN(US(170)), YIELD(0));
	run_until(AT(150));
	CHECK_EQ(ran(b0), MS(50));
	CHECK_EQ(ran(a0) + ran(a1), MS(100));
	CHECK(a0->stats.yields > 300 && a1->stats.yields > 300);
	CHECK_EQ(S(a0)->yields_refused + S(a1)->yields_refused, 0);
	settle();
}

/* Yields from other pCPUs hand a VM's turn to its lock holder but cannot take the
 * target's pCPU from another VM. */
static void test_yield_cross_pcpu_is_fair(void)
{
	machine(2);
	struct vm *a = vm_new(4), *b = vm_new(1); /* pcpu0: a0, a2; pcpu1: a1, a3, b0 */
	struct vcpu *a0 = a->vcpus[0], *a1 = a->vcpus[1], *a2 = a->vcpus[2], *a3 = a->vcpus[3];
	struct vcpu *b0 = b->vcpus[0];
	SCRIPT(a0, RUN(US(50)), YIELD(3));
	SCRIPT(a2, RUN(US(70)), YIELD(3));
	run_until(AT(150));
	CHECK_EQ(ran(b0), MS(50));
	CHECK_EQ(ran(a1) + ran(a3), MS(100));
	CHECK_EQ(ran(a0) + ran(a2), MS(150));
	CHECK(a0->stats.yields + a2->stats.yields >= 10); /* at least once per turn of a1 */
	CHECK_EQ(sim.pcpu[1].kicks, a0->stats.yields + a2->stats.yields);
	settle();
}

/* A stopping VM's vCPUs leave their pCPUs; when the last VM is gone, power off. */
/* WFE: the spinner's turn ends at once and the other vCPU of its pCPU runs; a spinner
 * alone on its pCPU just goes on. */
static void test_spin_hint(void)
{
	machine(2);
	struct vm *vm = vm_new(3);
	struct vcpu *v0 = vm->vcpus[0], *v1 = vm->vcpus[1], *v2 = vm->vcpus[2];
	CHECK_EQ(v0->pcpu, v2->pcpu);
	SCRIPT(v0, RUN(MS(1)), SPIN, RUN(NEVER));
	SCRIPT(v1, RUN(MS(1)), SPIN, RUN(NEVER));
	run_until(AT(4));
	CHECK(running(v0->pcpu, AT(1) - 1) == v0);
	CHECK(running(v0->pcpu, AT(1)) == v2); /* at once, not at 5 ms */
	CHECK(running(v1->pcpu, AT(2)) == v1);

	/* The spinner has run less than the other (woken at 10 ms with a sleeper's credit
	 * under aware): the other runs all the same. */
	machine(1);
	vm = vm_new(2);
	v0 = vm->vcpus[0], v1 = vm->vcpus[1];
	SCRIPT(v0, TIMER(MS(10)), HALT, RUN(MS(1)), SPIN, RUN(NEVER));
	run_until(AT(12));
	CHECK(running(0, AT(10)) == v0);
	CHECK(v0->vruntime < v1->vruntime || policy == SCHED_RR);
	CHECK(running(0, AT(11)) == v1);
	settle();
}

static void test_vm_stop(void)
{
	machine(3);
	struct vm *a = vm_new(2), *b = vm_new(1); /* pcpu0: a0; pcpu1: a1; pcpu2: b0 */
	CHECK_EQ(b->vcpus[0]->pcpu, 2);
	SCRIPT(a->vcpus[0], RUN(MS(10)), STOP);
	SCRIPT(b->vcpus[0], RUN(MS(30)), STOP);
	run_until(AT(20));
	CHECK_EQ(a->vcpus[0]->state, VCPU_STOPPED);
	CHECK_EQ(a->vcpus[1]->state, VCPU_STOPPED);
	CHECK_EQ(ran(a->vcpus[1]), MS(10));
	CHECK_EQ(vms_alive, 1);
	CHECK(!sim.powered_off);
	CHECK_EQ(asleep(1), MS(10));
	run_until(AT(40));
	CHECK(sim.powered_off);
	CHECK_EQ(vms_alive, 0);
	settle();
}

/* The longest wake-up latency of v (from its kick or timer to its guest entry). */
static u64 max_latency(struct vcpu *v) { return v->stats.wake_latency_max_ns; }

/* A sender that keeps its pCPU busy sends an interrupt to a halted vCPU of its own pCPU
 * and goes on: under aware the target runs at once each time (the sender is preempted),
 * under rr it waits for the sender's turn to end. */
static void test_wake_latency_same_pcpu(void)
{
	machine(1);
	struct vm *vm = vm_new(2);
	struct vcpu *v0 = vm->vcpus[0], *v1 = vm->vcpus[1];
	SCRIPT(v0, RUN(US(700)), KICK(1));
	SCRIPT(v1, RUN(US(40)), HALT);
	start_halted(v1);
	run_until(AT(200));
	CHECK(v1->stats.wake_latency_n > (policy == SCHED_AWARE ? 250 : 35));
	if (policy == SCHED_AWARE) {
		CHECK_EQ(max_latency(v1), 0);
		CHECK_EQ(v1->stats.wake_preempts, v1->stats.wake_latency_n);
	} else {
		CHECK(max_latency(v1) > MS(4));
		CHECK_EQ(v1->stats.wake_preempts, 0);
	}
	settle();
}

/* As `make bench`'s multicast at 4 vCPUs on 2 pCPUs: vcpu0 sends to the other three over
 * and over; vcpu1 and vcpu2 handle it and halt, vcpu3 is busy and shares pcpu1 with
 * vcpu1. Under aware every wakeup of vcpu1 and vcpu2 enters the guest within
 * MIN_SLICE_US; the busy vcpu3 still gets most of its pCPU. */
static void test_wake_latency_multicast(void)
{
	machine(2);
	struct vm *vm = vm_new(4); /* pcpu0: vcpu0, vcpu2; pcpu1: vcpu1, vcpu3 */
	struct vcpu *v1 = vm->vcpus[1], *v2 = vm->vcpus[2], *v3 = vm->vcpus[3];
	SCRIPT(vm->vcpus[0], RUN(US(300)), KICK(1), KICK(2), KICK(3));
	SCRIPT(v1, RUN(US(50)), HALT);
	SCRIPT(v2, RUN(US(50)), HALT);
	start_halted(v1);
	start_halted(v2);
	run_until(AT(200));
	u64 n = policy == SCHED_AWARE ? 500 : 35;
	CHECK(v1->stats.wake_latency_n > n && v2->stats.wake_latency_n > n);
	if (policy == SCHED_AWARE) {
		CHECK(max_latency(v1) <= US(MIN_SLICE_US));
		CHECK(max_latency(v2) <= US(MIN_SLICE_US));
		CHECK(ran(v3) > MS(150));
	} else {
		CHECK(max_latency(v1) > MS(4));
		CHECK(max_latency(v2) > MS(4));
	}
	settle();
}

/* The longest a runnable vCPU waited for its pCPU. */
static u64 max_wait(struct vcpu *v)
{
	struct sim_vcpu *s = S(v);
	return MAX(s->max_wait, s->ready_since ? sim.now - s->ready_since : 0);
}

/* |a - b| <= tolerance */
static bool near(u64 a, u64 b, u64 tolerance) { return a <= b + tolerance && b <= a + tolerance; }

/* Starvation: pcpu1 runs two busy vCPUs and one that is woken in a tight loop (every
 * 100 us by a vCPU of pcpu0) and runs 1 ms each time. No runnable vCPU waits more than
 * three slices; under aware the woken one gets its third of the pCPU, not more. */
static void test_starvation_bound(void)
{
	machine(2);
	struct vm *a = vm_new(2), *b = vm_new(2), *c = vm_new(2);
	struct vcpu *w = a->vcpus[1], *b0 = b->vcpus[0], *c1 = c->vcpus[1];
	CHECK(w->pcpu == 1 && b0->pcpu == 1 && c1->pcpu == 1 && pcpus[1].nvcpus == 3);
	SCRIPT(a->vcpus[0], RUN(US(100)), KICK(1));
	SCRIPT(w, RUN(MS(1)), HALT);
	run_until(AT(600));
	u64 bound = 3 * MS(SCHED_SLICE_US / 1000);
	CHECK(max_wait(w) <= bound && max_wait(b0) <= bound && max_wait(c1) <= bound);
	if (policy == SCHED_AWARE) {
		CHECK(near(ran(w), MS(200), MS(6)));
		CHECK(near(ran(b0), MS(200), MS(6)));
		CHECK(near(ran(c1), MS(200), MS(6)));
		CHECK(w->stats.wakeups > 150);
	} else {
		CHECK(ran(w) < MS(100)); /* rr: it gives up the rest of its turn at every halt */
	}
	settle();
}

/* Two VMs share a pCPU: one busy vCPU, and one woken by its own timer every time it
 * halts, wanting 90% of the pCPU. Under aware each gets half within a few %; under rr
 * the sleeper loses the rest of its turn at every halt and gets less. A VM whose vCPU
 * wants less than its share gets all it wants, promptly. */
static void test_fair_two_vms(void)
{
	machine(1);
	struct vm *a = vm_new(1), *b = vm_new(1);
	struct vcpu *a0 = a->vcpus[0], *b0 = b->vcpus[0];
	SCRIPT(b0, TIMER(US(100)), HALT, RUN(US(900)));
	run_until(AT(400));
	if (policy == SCHED_AWARE) {
		CHECK(near(ran(a0), MS(200), MS(8)));
		CHECK(near(ran(b0), MS(200), MS(8)));
	} else {
		CHECK(ran(a0) > MS(300));
	}
	CHECK_EQ(ran(a0) + ran(b0), MS(400));

	machine(1);
	a = vm_new(1), b = vm_new(1);
	a0 = a->vcpus[0], b0 = b->vcpus[0];
	SCRIPT(b0, TIMER(MS(1)), HALT, RUN(US(100)));
	run_until(AT(400));
	if (policy == SCHED_AWARE) {
		CHECK(ran(b0) > MS(35)); /* 100 us of every 1.1 ms */
		CHECK(max_latency(b0) <= US(MIN_SLICE_US));
	}
	CHECK_EQ(ran(a0) + ran(b0), MS(400));
	settle();
}

/* Spin detection: vcpu0 waits in a PAUSE loop for vcpu2, preempted behind it on pcpu0,
 * and vcpu1 for vcpu3 on pcpu1. Under aware the first watched PAUSE hands the turn to
 * the waited-for vCPU (on the same pCPU, and on the other one from vcpu1's spin: its
 * pCPU moves on), and the next spins are watched once per SCHED_SPIN_QUIET_US at most;
 * under rr nothing is watched. */
static void test_spin_detection(void)
{
	machine(2);
	struct vm *vm = vm_new(4); /* pcpu0: vcpu0, vcpu2; pcpu1: vcpu1, vcpu3 */
	struct vcpu *v0 = vm->vcpus[0], *v2 = vm->vcpus[2];
	SCRIPT(v0, RUN(MS(1)), PAUSE, RUN(US(10)), PAUSE, RUN(US(10)), PAUSE, RUN(US(10)));
	run_until(AT(100));
	if (policy == SCHED_AWARE) {
		CHECK(running(0, AT(1)) == v2);
		CHECK(v0->stats.spin_exits >= 10);
		CHECK_EQ(v0->stats.spin_exits, S(v0)->pauses_watched);
		/* Spins watched at most once per quiet time (and the turns it spends). */
		CHECK(v0->stats.spin_exits <= ran(v0) / US(SCHED_SPIN_QUIET_US) + 1);
		CHECK(v0->stats.yields >= 10);
	} else {
		CHECK(running(0, AT(1)) == v0);
		CHECK_EQ(S(v0)->pauses_watched, 0);
		CHECK_EQ(v0->stats.yields, 0);
	}
	settle();
}

/* A spin yields first to a vCPU woken by an interrupt that has not run since. At 11.2 ms
 * vcpu0 sends to vcpu3 and spins; vcpu3, woken while vcpu1 is 0.2 ms into its turn, is
 * due at 11.4 ms (after vcpu1's minimum slice), and vcpu2 waits behind vcpu0 unwoken:
 * the spin hands vcpu1's turn to vcpu3 at once. */
static void test_spin_detection_prefers_woken(void)
{
	machine(2);
	struct vm *vm = vm_new(4); /* pcpu0: vcpu0, vcpu2; pcpu1: vcpu1, vcpu3 */
	struct vcpu *v0 = vm->vcpus[0], *v1 = vm->vcpus[1], *v3 = vm->vcpus[3];
	SCRIPT(v0, RUN(US(6200)), KICK(3), RUN(1), PAUSE, RUN(NEVER)); /* 0-5, 10-11.2 ms */
	SCRIPT(v1, RUN(MS(1)), TIMER(MS(10)), HALT, RUN(NEVER));
	run_until(AT(13));
	if (policy == SCHED_AWARE) {
		CHECK(running(1, AT(11)) == v1);
		CHECK(running(1, T0 + US(11200)) == v1);
		CHECK(running(1, T0 + US(11200) + 1) == v3);
		CHECK_EQ(v0->stats.spin_exits, 1);
		CHECK_EQ(v0->stats.yields, 1);
	}
	settle();
}

/* A spin yields within its VM only: a1 waits behind b0 on pcpu1, so a0's spins find no
 * vCPU to yield to, and b0 keeps its share. */
static void test_spin_detection_confined(void)
{
	machine(2);
	struct vm *a = vm_new(2), *b = vm_new(1); /* pcpu0: a0; pcpu1: a1, b0 */
	struct vcpu *a0 = a->vcpus[0], *a1 = a->vcpus[1], *b0 = b->vcpus[0];
	SCRIPT(a0, RUN(US(30)), PAUSE);
	run_until(AT(100));
	CHECK_EQ(a0->stats.yields, 0);
	CHECK(near(ran(b0), MS(50), MS(1)));
	CHECK(near(ran(a1), MS(50), MS(1)));
	if (policy == SCHED_AWARE)
		CHECK(a0->stats.spin_exits > 100);
	settle();
}

/* A watched PAUSE exits before it runs, and the spinner is back at it after its yield:
 * its next entry runs it and its loop, so that a spinner always looks at what it waits
 * for again. (Counted from the exit, the quiet time would be over when the spinner runs
 * again, and it would stop at the same PAUSE for good.) */
static void test_spin_makes_progress(void)
{
	machine(1);
	struct vm *vm = vm_new(2);
	struct vcpu *v0 = vm->vcpus[0];
	SCRIPT(v0, PAUSE, RUN(US(10)));
	run_until(AT(100));
	if (policy == SCHED_AWARE) {
		CHECK(S(v0)->pauses_watched >= 5);
		CHECK(S(v0)->pauses_done >= 5 * S(v0)->pauses_watched);
	} else {
		CHECK_EQ(S(v0)->pauses_watched, 0);
		CHECK(near(ran(v0), MS(50), MS(6)));
	}
	settle();
}

/* Migration (aware): pcpu1's vCPUs sleep for good while two busy ones share pcpu0; the
 * one waiting for its turn moves to pcpu1 at once, and only once. Under rr placement is
 * fixed: they share pcpu0. */
static void test_migrate_to_idle(void)
{
	machine(2);
	struct vm *a = vm_new(2), *b = vm_new(2); /* pcpu0: a0, b1; pcpu1: a1, b0 */
	struct vcpu *a0 = a->vcpus[0], *b1 = b->vcpus[1];
	CHECK(a0->pcpu == 0 && b1->pcpu == 0);
	start_halted(a->vcpus[1]);
	SCRIPT(a->vcpus[1], HALT);
	start_halted(b->vcpus[0]);
	SCRIPT(b->vcpus[0], HALT);
	run_until(AT(100));
	if (policy == SCHED_AWARE) {
		CHECK_EQ(a0->stats.migrations + b1->stats.migrations, 1);
		CHECK_EQ(b1->pcpu, 1);
		CHECK_EQ(ran(a0), MS(100));
		CHECK_EQ(ran(b1), MS(100));
		CHECK_EQ(pcpus[1].nvcpus, 3);
	} else {
		CHECK_EQ(b1->stats.migrations, 0);
		CHECK(near(ran(a0), MS(50), MS(5)));
		CHECK(near(ran(b1), MS(50), MS(5)));
	}
	settle();
}

/* Affinity (`pcpus` of a [vm]): placement and migration keep to it. */
static void test_affinity(void)
{
	machine(2);
	struct vm *a = vm_new_on(2, BIT(0)), *b = vm_new_on(1, BIT(1));
	struct vcpu *a0 = a->vcpus[0], *a1 = a->vcpus[1], *b0 = b->vcpus[0];
	CHECK(a0->pcpu == 0 && a1->pcpu == 0 && b0->pcpu == 1);
	start_halted(b0);
	SCRIPT(b0, HALT);
	run_until(AT(100));
	CHECK_EQ(a0->stats.migrations + a1->stats.migrations, 0);
	CHECK(near(ran(a0), MS(50), MS(5)));
	CHECK(near(ran(a1), MS(50), MS(5)));
	CHECK_EQ(asleep(1), MS(100));
	settle();
}

/* Interrupt ping-pong in a VM of 4 vCPUs on 2 pCPUs, beside a busy VM on pcpu1: every
 * vCPU halts and is woken again and again. Under aware the vCPUs stuck behind the busy
 * one move to pcpu0 when it idles, once each (no bouncing at every wakeup), and then get
 * their interrupts promptly; under rr they wait for the busy vCPU's turns. (The
 * simulation checks steal time and wake-up latency at every guest entry, and that no
 * vCPU is loaded on two pCPUs.) */
static void test_migration_bounded(void)
{
	machine(2);
	struct vm *vm = vm_new(4), *busy = vm_new(1); /* pcpu0: v0, v2; pcpu1: v1, v3, busy */
	SCRIPT(vm->vcpus[0], RUN(US(50)), KICK(1), KICK(2), KICK(3), TIMER(US(300)), HALT);
	for (u32 i = 1; i < 4; i++)
		SCRIPT(vm->vcpus[i], RUN(US(120)), KICK(0), HALT);
	run_until(AT(200));
	struct vcpu *v1 = vm->vcpus[1], *v3 = vm->vcpus[3];
	if (policy == SCHED_AWARE) {
		CHECK_EQ(v1->stats.migrations, 1);
		CHECK_EQ(v3->stats.migrations, 1);
		CHECK_EQ(vm->vcpus[0]->stats.migrations + vm->vcpus[2]->stats.migrations, 0);
		CHECK(v1->stats.wakeups > 300 && v3->stats.wakeups > 300);
	} else {
		CHECK_EQ(v1->stats.migrations + v3->stats.migrations, 0);
		CHECK(v1->stats.wakeups < 50 && v3->stats.wakeups < 50);
	}
	CHECK_EQ(busy->vcpus[0]->stats.migrations, 0);
	settle();
}

/* Balance (aware): a pCPU that never idles (a busy vCPU of another VM) still gets its
 * share of the vCPUs that wait. An earlier idle spell left all four busy vCPUs of a VM
 * beside a busy one on one pCPU, while the other runs only a busy one: under aware two
 * vCPUs move over, one per BALANCE_TAU_US, and no more; under rr nothing moves. */
static void test_balance_beside_busy(void)
{
	machine(2);
	struct vcpu *s0 = vm_new(1)->vcpus[0], *s1 = vm_new(1)->vcpus[0];
	struct vm *vm = vm_new(4);
	CHECK(s0->pcpu != s1->pcpu);
	u32 far = s1->pcpu, near_ = s0->pcpu, moved = 0;
	for (u32 i = 0; i < 4; i++) {
		struct vcpu *v = vm->vcpus[i];
		if (v->pcpu != far) {
			move(&pcpus[v->pcpu], v, &pcpus[far], T0);
			take_in(&pcpus[far]);
			moved++;
		}
	}
	run_until(AT(300));
	u32 migrations = s0->stats.migrations + s1->stats.migrations;
	for (u32 i = 0; i < 4; i++)
		migrations += vm->vcpus[i]->stats.migrations;
	if (policy == SCHED_AWARE) {
		CHECK_EQ(pcpus[near_].nvcpus, 3);
		CHECK_EQ(pcpus[far].nvcpus, 3);
		CHECK_EQ(migrations - moved, 2);
		CHECK(near(ran(s0), MS(100), MS(15)));
	} else {
		CHECK_EQ(pcpus[near_].nvcpus, 1);
		CHECK_EQ(migrations, moved);
		CHECK(near(ran(s0), MS(300), MS(1)));
	}
	settle();
}

/* Boost (aware): a turn that ends inside a critical section runs on, once, until the
 * section ends (the backend's exit there) or SCHED_BOOST_US have passed. vcpu a enters
 * one 4.9 ms into its turn and leaves it 0.2 ms later: under aware its turn ends at 5.1
 * ms and it is never preempted inside it; under rr b takes over at 5 ms and a is
 * preempted in it. */
static void test_boost_extends_turn(void)
{
	machine(1);
	struct vcpu *a = vm_new(1)->vcpus[0], *b = vm_new(1)->vcpus[0];
	SCRIPT(a, RUN(US(4900)), CS_IN, RUN(US(200)), CS_OUT, RUN(NEVER));
	run_until(AT(20));
	if (policy == SCHED_AWARE) {
		CHECK(running(0, T0 + US(5099)) == a);
		CHECK(running(0, T0 + US(5100)) == b);
		CHECK_EQ(a->stats.boosts, 1);
		CHECK_EQ(a->stats.critical_preemptions, 0);
	} else {
		CHECK(running(0, AT(5)) == b);
		CHECK_EQ(a->stats.boosts, 0);
		CHECK_EQ(a->stats.critical_preemptions, 1);
	}
	settle();
}

/* Guests that never leave their critical sections get turns of SCHED_SLICE_US +
 * SCHED_BOOST_US, never two in a row, and no more turns than their share: b, beside two
 * of them, keeps its third and never waits more than their two turns. */
static void test_boost_bounded(void)
{
	machine(1);
	struct vcpu *a1 = vm_new(1)->vcpus[0], *a2 = vm_new(1)->vcpus[0];
	struct vcpu *b = vm_new(1)->vcpus[0];
	SCRIPT(a1, CS_IN, RUN(NEVER));
	SCRIPT(a2, CS_IN, RUN(NEVER));
	run_until(AT(300));
	if (policy == SCHED_AWARE) {
		CHECK(S(b)->max_wait <= 2 * US(SCHED_SLICE_US + SCHED_BOOST_US));
		CHECK(near(ran(b), MS(100), MS(6)));
		CHECK(near(ran(a1), MS(100), MS(6)));
		CHECK(a1->stats.boosts >= 15 && a2->stats.boosts >= 15);
		CHECK_EQ(a1->stats.critical_preemptions, a1->stats.boosts);
	} else {
		CHECK(near(ran(b), MS(100), MS(5)));
		CHECK(S(b)->max_wait <= 2 * US(SCHED_SLICE_US));
		CHECK_EQ(a1->stats.boosts, 0);
	}
	settle();
}

/* One boost per section: a vCPU still inside its section when its extended turn ends
 * waits for its turn by vruntime. Turns: x 0-5, y 5-10, a 10-15 ms; a is in a long
 * section from 14.5 ms, runs on to 15.3 ms and is preempted in it; x goes next. (Its
 * VM's spinning vCPUs, if it had any, would yield to it: sched_spin_exit.) */
static void test_boost_once(void)
{
	machine(1);
	struct vcpu *x = vm_new(1)->vcpus[0], *y = vm_new(1)->vcpus[0];
	struct vcpu *a = vm_new(1)->vcpus[0];
	SCRIPT(a, RUN(US(4500)), CS_IN, RUN(MS(3)), CS_OUT, RUN(NEVER));
	run_until(AT(30));
	CHECK(running(0, AT(5)) == y);
	CHECK_EQ(a->stats.critical_preemptions, 1);
	if (policy == SCHED_AWARE) {
		CHECK(running(0, T0 + US(15299)) == a);
		CHECK(running(0, T0 + US(15300)) == x);
		CHECK_EQ(a->stats.boosts, 1);
	} else {
		CHECK(running(0, AT(15)) == x);
		CHECK_EQ(a->stats.boosts, 0);
	}
	settle();
}

/* A wakeup waits for a critical section to end, SCHED_BOOST_US at most, where the
 * backend sees the section end (x86's interrupt window): the vCPU it would preempt
 * inside one runs on, and the exit at the section's end hands the pCPU over. Turns: a
 * 0-5, c 5-10, a from 10 ms; a enters a section at 10.2 ms, b wakes at 10.5 ms and runs
 * 0.3 ms. A section of 0.4 ms: b runs at 10.6 ms, a is never preempted inside it. One of
 * 2 ms: b runs at 10.8 ms, a is preempted inside it, its boost spent; c, behind a, goes
 * after b. A backend blind to the section's end (arm64): b takes the pCPU at once, and
 * a, preempted inside its section, goes after b, boosted. */
static void boost_after_wakeup(u64 section, bool blind)
{
	machine(1);
	sim.blind_to_section_end = blind;
	struct vcpu *a = vm_new(1)->vcpus[0], *c = vm_new(1)->vcpus[0];
	struct vcpu *b = vm_new(1)->vcpus[0];
	static struct op script[] = { RUN(US(5200)), CS_IN, RUN(0), CS_OUT, RUN(NEVER) };
	script[2].arg = section;
	set_script(a, script, ARRAY_SIZE(script));
	start_halted(b);
	SCRIPT(b, RUN(US(300)), HALT);
	S(b)->timer = T0 + US(10500);
	run_until(AT(20));
	CHECK(running(0, AT(5)) == c);
	u64 section_end = T0 + US(10200) + section, bound = T0 + US(10500 + SCHED_BOOST_US);
	if (policy == SCHED_AWARE && blind) {
		CHECK(running(0, T0 + US(10500)) == b);
		CHECK(running(0, T0 + US(10800)) == a);
		CHECK_EQ(a->stats.critical_preemptions, 1);
		CHECK_EQ(a->stats.boosts, 1);
	} else if (policy == SCHED_AWARE) {
		u64 handover = MIN(section_end, bound);
		CHECK(running(0, handover - 1) == a);
		CHECK(running(0, handover) == b);
		CHECK(running(0, handover + US(300)) == c);
		CHECK_EQ(a->stats.critical_preemptions, section_end > bound);
		CHECK_EQ(a->stats.boosts, 1);
	} else {
		CHECK(running(0, T0 + US(10500)) == a);
		CHECK_EQ(a->stats.boosts, 0);
	}
	CHECK_EQ(c->stats.boosts, 0);
	settle();
}

static void test_boost_after_wakeup(void)
{
	boost_after_wakeup(US(400), false);
	boost_after_wakeup(MS(2), false);
	boost_after_wakeup(MS(2), true);
}

/* A spin exit yields to a vCPU preempted inside a critical section before the others.
 * pcpu1: v1 0-5, v3 5-10.3 ms (preempted in a long section), v5 from 10.3 ms; pcpu0: v0
 * 0-5, v2, v4, and v0 spins at 15 ms: v1 (preempted, not critical) comes first in round
 * robin, v3 gets the yield. */
static void test_spin_yield_prefers_critical(void)
{
	machine(2);
	struct vm *vm = vm_new(6); /* pcpu0: v0, v2, v4; pcpu1: v1, v3, v5 */
	struct vcpu *v0 = vm->vcpus[0], *v3 = vm->vcpus[3];
	SCRIPT(v0, RUN(MS(5)), PAUSE, RUN(NEVER));
	SCRIPT(v3, RUN(US(4900)), CS_IN, RUN(MS(20)), CS_OUT, RUN(NEVER));
	run_until(AT(15) + 1);
	if (policy == SCHED_AWARE) {
		CHECK_EQ(v3->stats.critical_preemptions, 1);
		CHECK_EQ(v0->stats.spin_exits, 1);
		CHECK_EQ(v3->stats.yields_received, 1);
		CHECK(running(1, AT(15)) == v3);
	} else {
		CHECK_EQ(v0->stats.spin_exits, 0);
		CHECK_EQ(v3->stats.yields_received, 0);
	}
	settle();
}

/* Kicks across VMs: a1 waits for its turn behind b0, a vCPU of another VM, on pcpu1,
 * and a0 sends it an interrupt every 20 us (a guest looping on IPIs). A kick to a1 while
 * b0 runs interrupts b0 only when it changes what runs: under rr never (a wakeup waits for
 * the turn's end, which pcpu1 has armed); under aware only when a1 takes the pCPU for it
 * (entitled: its wakeup cuts b0's turn), at most once per turn of b0. Kicks while a1 runs
 * itself go through as before, and the shares do not change. */
static void test_kick_behind_other_vm(void)
{
	machine(2);
	struct vm *a = vm_new(2), *b = vm_new(1); /* pcpu0: a0; pcpu1: a1, b0 */
	struct vcpu *a0 = a->vcpus[0], *a1 = a->vcpus[1], *b0 = b->vcpus[0];
	CHECK(a0->pcpu == 0 && a1->pcpu == 1 && b0->pcpu == 1);
	SCRIPT(a0, RUN(US(20)), KICK(1));
	run_until(AT(100));
	if (policy == SCHED_AWARE) {
		CHECK(S(b0)->kicked_out <= a1->stats.wake_preempts);
		CHECK(S(b0)->kicked_out <= 11); /* b0 has 10 turns */
		CHECK(near(ran(b0), MS(50), MS(2)));
	} else {
		CHECK_EQ(S(b0)->kicked_out, 0);
		CHECK_EQ(ran(b0), MS(50));
	}
	CHECK(S(a1)->kicked_out > 1000); /* to a1 itself: as before */
	CHECK(a0->stats.kicks_deferred > 2000);
	settle();
}

/* Kicks across VMs that wake a halted vCPU: a1 handles each interrupt from a0 in 30 us
 * and halts again, beside b0 (another VM, busy) on pcpu1. Every wakeup still comes within
 * the policy's bound (aware: MIN_SLICE_US; rr: b0's turn); b0 is interrupted only by the
 * kicks that wake a1 up: under aware when a1 takes the pCPU, under rr when b0 ran alone
 * (pcpu1 must end b0's turn on time now), and never by the kicks while a1 waits. */
static void test_kick_wakes_beside_other_vm(void)
{
	machine(2);
	struct vm *a = vm_new(2), *b = vm_new(1); /* pcpu0: a0; pcpu1: a1, b0 */
	struct vcpu *a0 = a->vcpus[0], *a1 = a->vcpus[1], *b0 = b->vcpus[0];
	SCRIPT(a0, RUN(US(50)), KICK(1));
	SCRIPT(a1, RUN(US(30)), HALT);
	start_halted(a1);
	run_until(AT(100));
	if (policy == SCHED_AWARE) {
		CHECK(a1->stats.wakeups > 1000);
		CHECK(max_latency(a1) <= US(MIN_SLICE_US));
		CHECK(S(b0)->kicked_out <= a1->stats.wake_preempts);
	} else {
		CHECK(a1->stats.wakeups >= 19);
		CHECK(max_wait(a1) <= US(SCHED_SLICE_US));
		CHECK(S(b0)->kicked_out <= a1->stats.wakeups);
	}
	settle();
}

/* stop_machine in a wide VM: 64 vCPUs on 2 pCPUs spin (PAUSE) at a rendezvous that each
 * round needs every one of them to reach (Linux's multi_cpu_stop acks each of its states
 * so). Under rr a round takes one or two cycles of 32 turns of 5 ms (a vCPU that ran before
 * the last one arrived sees the round end at its next turn): 2 rounds in 400 ms. Under
 * aware the spins' directed yields hand the pCPUs to the vCPUs that have not arrived: 24
 * rounds. No livelock in the rules, and every vCPU gets a share. (A switch costs nothing
 * here; under QEMU TCG each costs 40-100 us, and aware makes many more.) */
static void test_rendezvous_many_vcpus(void)
{
	enum { N = 64 };
	machine(2);
	struct vm *vm = vm_new(N);
	for (u32 i = 0; i < N; i++)
		SCRIPT(vm->vcpus[i], RENDEZVOUS, RUN(US(50)));
	run_until(AT(400));
	for (u32 i = 0; i < N; i++)
		CHECK(ran(vm->vcpus[i]) > MS(400) / N / 2);
	CHECK(sim.rounds >= (policy == SCHED_AWARE ? 15 : 1));
	settle();
}

/* Messaging (msgbench's pattern: a pipe's writer wakes the reader, works on a little and
 * waits for the answer) between pairs of vCPUs of VM a, beside VM b's busy vCPUs, under
 * policy `pol`: each message is an interrupt sent 20 us into a run, 30 us more work, a
 * wait. The messages sent, the pCPUs' switches and the busy VM's run time in 400 ms. */
struct messaging {
	u32 msgs;
	u64 switches, busy_ran;
};
static struct messaging messaging(enum sched_policy pol, u32 n, u32 pairs, u32 busy)
{
	enum sched_policy saved = policy;
	policy = pol;
	machine(n);
	policy = saved;
	struct vm *a = vm_new(2 * pairs), *b = vm_new(busy);
	static const struct op writer[] = { RUN(US(20)), KICK(1), RUN(US(30)), WAIT };
	static const struct op reader[] = { RUN(US(20)), KICK(0), RUN(US(30)), WAIT };
	for (u32 i = 0; i < pairs; i++) {
		struct vcpu *w = a->vcpus[2 * i], *r = a->vcpus[2 * i + 1];
		set_script(w, writer, ARRAY_SIZE(writer));
		set_script(r, reader, ARRAY_SIZE(reader));
		S(w)->pair = S(r)->pair = 2 * i;
		start_halted(r);
	}
	run_until(AT(400));
	struct messaging m = { 0 };
	for (u32 i = 0; i < a->nvcpus; i++)
		m.msgs += S(a->vcpus[i])->kicks_sent;
	for (u32 i = 0; i < b->nvcpus; i++)
		m.busy_ran += ran(b->vcpus[i]);
	for (u32 i = 0; i < n; i++)
		m.switches += pcpus[i].switches;
	printf("messaging, %u pairs beside %u busy vCPUs on %u pCPUs (%s): %u messages, %llu "
	       "switches, the busy VM ran %llu ms\n",
	       pairs, busy, n, pol == SCHED_AWARE ? "aware" : "rr", m.msgs,
	       (unsigned long long)m.switches, (unsigned long long)(m.busy_ran / MS(1)));
	settle();
	return m;
}

/* Under aware the messages flow at least as fast as under rr, and the busy neighbour
 * keeps 90% of its vCPUs' shares (each runnable vCPU's equal part of its pCPU: 1 of 3 on
 * one pCPU, 2 of 6 on two). At 4 vCPUs on 2 pCPUs alone both reach the model's ceiling
 * (16,000 messages), rr with one pair at a time across the two pCPUs (a switch per turn),
 * aware with each pair on one pCPU (a switch per message, from the halts, not from cut
 * turns): equal here, where a switch costs nothing; the model has no such cost yet. */
static void test_messaging_beside_busy(void)
{
	if (policy != SCHED_AWARE)
		return; /* one run compares both */
	static const u32 cases[][3] = { { 1, 1, 1 }, { 2, 2, 2 }, { 2, 2, 0 } };
	for (u32 i = 0; i < ARRAY_SIZE(cases); i++) {
		u32 n = cases[i][0], pairs = cases[i][1], busy = cases[i][2];
		struct messaging rr = messaging(SCHED_RR, n, pairs, busy);
		struct messaging aware = messaging(SCHED_AWARE, n, pairs, busy);
		CHECK(aware.msgs >= rr.msgs);
		CHECK(aware.msgs > 1000);
		CHECK(aware.busy_ran * 10 >= 9 * MS(400) * n * busy / (busy + 2 * pairs));
	}
}

/* Every scenario runs under both policies (some check what differs). */
static void (*const tests[])(void) = {
	test_placement,
	test_round_robin,
	test_halted_costs_nothing,
	test_wake_by_kick,
	test_wake_by_timer,
	test_steal,
	test_wake_latency_same_pcpu,
	test_wake_latency_multicast,
	test_yield_same_pcpu,
	test_yield_other_pcpu,
	test_yield_caller_alone,
	test_yield_noop,
	test_yield_behind_other_vm,
	test_yield_hint_checked_by_owner,
	test_yield_two_callers,
	test_yield_ping_pong_is_fair,
	test_yield_cross_pcpu_is_fair,
	test_spin_hint,
	test_vm_stop,
	test_starvation_bound,
	test_fair_two_vms,
	test_spin_detection,
	test_spin_detection_prefers_woken,
	test_spin_detection_confined,
	test_spin_makes_progress,
	test_migrate_to_idle,
	test_affinity,
	test_migration_bounded,
	test_balance_beside_busy,
	test_boost_extends_turn,
	test_boost_bounded,
	test_boost_once,
	test_boost_after_wakeup,
	test_spin_yield_prefers_critical,
	test_kick_behind_other_vm,
	test_kick_wakes_beside_other_vm,
	test_rendezvous_many_vcpus,
	test_messaging_beside_busy,
};

/* The watchdog (watch_next): pCPU 1 in guest mode, no entry for a second after its host
 * timer was due: pCPU 0 reports it once (with the VM's dump); entries going on, or no timer
 * due (look_at in the future), are not a stall. */
static void test_watchdog(void)
{
	machine(2);
	struct vm *a = vm_new(2);
	struct pcpu *p0 = &pcpus[0], *p1 = &pcpus[1];
	p1->current = a->vcpus[0];
	pcpu_in_guest[1] = true;
	dumps = 0;
	u64 t = sim.now;
	p1->look_at = t + sched_us(WATCH_US * 3);
	for (int i = 0; i < WATCH_LOOKS; i++, t += sched_us(WATCH_US))
		watch_next(p0, t);
	CHECK_EQ(dumps, 0); /* the timer was not due for the first three looks */
	for (int i = 0; i < 4 * WATCH_LOOKS; i++, t += sched_us(WATCH_US))
		watch_next(p0, t);
	CHECK_EQ(dumps, 1); /* once per stall */
	p1->entries++;
	watch_next(p0, t);
	t += sched_us(WATCH_US);
	for (int i = 0; i < 4 * WATCH_LOOKS; i++, t += sched_us(WATCH_US)) {
		p1->entries++; /* exits and entries go on */
		watch_next(p0, t);
	}
	CHECK_EQ(dumps, 1);
	p1->look_at = ~0ull; /* no timer armed: in guest mode as long as the guest likes */
	for (int i = 0; i < 4 * WATCH_LOOKS; i++, t += sched_us(WATCH_US))
		watch_next(p0, t);
	CHECK_EQ(dumps, 1);
	pcpu_in_guest[1] = false;
	p1->current = NULL;
	settle();
}

/* vcpu_notify: an interrupt for a vCPU that runs in guest mode goes as a notification
 * (no kick, no kick flag); for one that left its pCPU between the sender's first look and
 * its claim of the notification (moved to another pCPU and entered there, where the
 * notification would never be processed) the sender looks again and kicks it there. */
static struct vcpu *mover;
static void move_to_pcpu2(void)
{
	pcpu_in_guest[1] = false;
	mover->pcpu = 2;
	pcpus[2].current = mover;
	pcpu_in_guest[2] = true;
}

static void test_notify(void)
{
	machine(3);
	struct vcpu *self = vm_new_on(1, 1ull << 0)->vcpus[0]; /* the sender, on pCPU 0 */
	struct vcpu *v = vm_new_on(1, 1ull << 1)->vcpus[0];
	pcpus[0].current = self;
	pcpus[1].current = v;
	pcpu_in_guest[1] = true;
	posts = true;
	vcpu_notify(v);
	CHECK_EQ(notified_to[1], 1);
	CHECK_EQ(self->stats.notifications_sent, 1);
	CHECK(!v->kick_pending);
	CHECK_EQ(sim.pcpu[1].kicks, 0);
	CHECK_EQ(v->pcpu, 1);

	mover = v;
	meanwhile = move_to_pcpu2;
	vcpu_notify(v);
	CHECK_EQ(notified_to[1], 2); /* sent, to where it was */
	CHECK_EQ(self->stats.notifications_sent, 1);
	CHECK(v->kick_pending);
	CHECK_EQ(sim.pcpu[2].kicks, 1); /* and kicked where it is */

	vcpu_kick(v); /* not an interrupt: a kick whatever the hardware has */
	CHECK_EQ(notified_to[2], 0);
	CHECK_EQ(sim.pcpu[2].kicks, 2);

	/* To itself, from its exit's handler: no kick flag, its next entry takes it (with
	 * one, the trip through the scheduler made kvm-unit-tests' self IPI cost three
	 * exits' time, not one). Halted, it is kicked as any other; so is a kick that is
	 * not an interrupt. */
	vcpu_notify(self);
	CHECK(!self->kick_pending);
	self->state = VCPU_HALTED;
	vcpu_notify(self);
	CHECK(self->kick_pending);
	self->kick_pending = false;
	self->state = VCPU_RUNNABLE;
	vcpu_kick(self);
	CHECK(self->kick_pending);
	self->kick_pending = false;
	CHECK_EQ(sim.pcpu[0].kicks, 0);
	posts = false;
	meanwhile = NULL;
	pcpu_in_guest[2] = false;
	pcpus[0].current = pcpus[1].current = pcpus[2].current = NULL;
}

/* pCPU 0's housekeeping, as the machine always has (the console's input). */
static void console_input(void) {}

int main(void)
{
	sched_add_housekeeping(console_input);
	test_watchdog();
	test_notify();
	static const enum sched_policy policies[] = { SCHED_RR, SCHED_AWARE };
	for (u32 p = 0; p < ARRAY_SIZE(policies); p++)
		for (u32 i = 0; i < ARRAY_SIZE(tests); i++) {
			policy = policies[p];
			tests[i]();
		}
	return test_summary();
}
