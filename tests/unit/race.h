/* SPDX-License-Identifier: GPL-2.0-only */
/* A machine of three pCPUs as host threads, for the *_race_* tests (ThreadSanitizer):
 * the real kick and guest-entry protocol (hv/sched.c: vcpu_kick, sched_enter_guest,
 * sched_left_guest) with a backend's interrupt code, as on the machine.
 *
 * pCPU n runs vCPU n. The target pCPU (vCPU 1) runs the backend's run loop: the
 * scheduler's irq window and poll (which clears kick_pending), then sched_enter_guest,
 * the backend's entry (race_ops.enter: what the guest takes now), "guest mode",
 * sched_left_guest and the backend's exit (race_ops.exit). Its guest handles what it
 * took and otherwise spins without exiting, as the guest of issue 15 did: only a host
 * IPI (arch_send_kick), or an exit the backend asked for (race_ops.window: an interrupt
 * window), ends guest mode. An IPI sent while the target is not in guest mode stays
 * pending and ends its next guest mode at once, or is taken by the irq window. In a
 * second run the guest also exits on its own now and then (an MMIO access, its timer),
 * as a booting guest does, so that kicks also find the target between an exit and its
 * next entry. A kick spends a little time after setting the flags and sending the IPI,
 * as the host IPI's register write does on the machine (microseconds under TCG).
 *
 * Where the backend has posted interrupts (race_ops.notify), an interrupt for the target
 * while it runs in guest mode may come as a notification instead (arch_notify_running):
 * taken in guest mode by the CPU's processing (race_ops.posted) with no exit; one that
 * finds the target out of guest mode stays pending for its next guest mode, or is taken
 * by the host's irq window (an IDT handler that only EOIs).
 *
 * Senders (vCPU 0 alone, then vCPU 0 and vCPU 2 together) each send their own interrupt
 * to the target (race_ops.send) and wait until its guest has taken it before the next,
 * so every interrupt must arrive exactly once. With one sender nothing else makes the
 * target exit, so an interrupt missed at an entry is lost for good: one not taken
 * within a second counts as lost. And every interrupt is taken at the latest in the
 * target's first guest entry after the send returned: the entry it was in then (if its
 * backend entry came after the send) or the next one. Waiting loops yield the host CPU
 * (the machine has two cores). */
#ifndef TESTS_UNIT_RACE_H
#define TESTS_UNIT_RACE_H

#include "../../hv/sched_policy.c" /* the policies hv/sched.c, included before, refers to */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include "test.h"

#define SENDS_PER_SENDER 200000
#define NSENDERS 2
#define TARGET 1
#define MAX_LOST 5 /* a sender gives up after so many */
#define MAX_IRQS 256

struct race_ops {
	void (*send)(u32 sender, u32 irq); /* from vCPU sender to the target */
	/* Right after sched_enter_guest succeeded: puts into irqs what the guest takes in
	 * this entry and returns how many. */
	u32 (*enter)(u32 *irqs, u32 max);
	void (*handled)(u32 irq); /* the guest's handler is done with it (EOI) */
	bool (*window)(void);	  /* the backend asked for an exit to deliver more */
	void (*exit)(void);	  /* right after sched_left_guest */
	const char *what;	  /* "SGI", "vector", ... for the report */
	/* Posted interrupts (NULL: none): arch_notify_running for the target, true if it
	 * sent a notification (race_notify) or one is outstanding; and the CPU's processing
	 * of a notification in guest mode, which puts what the guest takes into irqs. */
	bool (*notify)(struct vcpu *v);
	u32 (*posted)(u32 *irqs, u32 max);
};

u64 arch_time_hz = 1000000000;

static const struct race_ops *race;
static struct vm race_vm;
static __thread u32 this_pcpu;
static bool ipi[3];	       /* a host IPI pending at that pCPU */
static bool notification[3];   /* a posted-interrupt notification pending there */
static bool done;	       /* the senders have finished */
static bool own_exits;	       /* the guest also exits on its own */
static u64 taken[MAX_IRQS];    /* taken by the target's guest */
static u64 taken_at[MAX_IRQS]; /* the guest entry that took it last */
static u64 entries;	       /* the target's guest entries */

u32 arch_pcpu_id(void) { return this_pcpu; }
u64 arch_time_now(void) { return 0; }
void arch_send_kick(u32 pcpu)
{
	__atomic_store_n(&ipi[pcpu], true, __ATOMIC_SEQ_CST);
	for (volatile int i = 0; i < 3000; i++) /* the IPI's register write */
		;
}
bool arch_notify_running(struct vcpu *v, u32 pcpu)
{
	(void)pcpu;
	return race->notify && race->notify(v);
}
/* A notification to the target's pCPU (the IPI's register write as arch_send_kick). */
static inline void race_notify(void)
{
	__atomic_store_n(&notification[TARGET], true, __ATOMIC_SEQ_CST);
	for (volatile int i = 0; i < 3000; i++)
		;
}
/* What hv/sched.c needs besides: never called here. */
void arch_timer_arm(u64 deadline) { (void)deadline; }
void arch_idle(void) {}
void arch_irq_window(void) {}
void arch_pcpu_describe(u32 pcpu, char *buf, size_t n) { (void)pcpu, (void)buf, (void)n; }
NORETURN void hv_exit(void) { abort(); }
void arch_vcpu_poll(struct vcpu *v, u64 now) { (void)v, (void)now; }
bool arch_vcpu_wants_to_run(struct vcpu *v) { return (void)v, true; }
u64 arch_vcpu_next_timer(struct vcpu *v) { return (void)v, 0; }
void arch_vcpu_load(struct vcpu *v) { (void)v; }
void arch_vcpu_put(struct vcpu *v) { (void)v; }
enum critical_section arch_vcpu_in_critical_section(struct vcpu *v) { return (void)v, CS_NONE; }
bool arch_vcpu_sees_section_end(struct vcpu *v) { return (void)v, false; }
enum run_result arch_vcpu_run(struct vcpu *v) { return (void)v, RUN_HALTED; }
bool vm_stopping(const struct vm *m) { return __atomic_load_n(&m->stop_reason, __ATOMIC_ACQUIRE); }
void vm_vcpu_stopped(struct vcpu *v) { (void)v; }
void vm_dump(struct vm *m) { (void)m; }
void printk(const char *fmt, ...) { (void)fmt; }

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The target's guest takes and handles irqs in guest entry number `entry`. */
static void take(const u32 *irqs, u32 n, u64 entry)
{
	for (u32 i = 0; i < n; i++) {
		__atomic_store_n(&taken_at[irqs[i]], entry, __ATOMIC_SEQ_CST);
		__atomic_fetch_add(&taken[irqs[i]], 1, __ATOMIC_SEQ_CST);
		race->handled(irqs[i]);
	}
}

/* Guest mode until a host IPI, the end of the test, or (second run) an exit of the
 * guest's own after a few rounds; true for the guest's own exit. Notifications are
 * processed on the way, with no exit. */
static bool guest_mode(unsigned *seed, u64 entry)
{
	u32 irqs[8];
	for (u32 spins = 0;; spins++) {
		if (__atomic_exchange_n(&notification[TARGET], false, __ATOMIC_SEQ_CST))
			take(irqs, race->posted(irqs, ARRAY_SIZE(irqs)), entry);
		if (__atomic_exchange_n(&ipi[TARGET], false, __ATOMIC_SEQ_CST) ||
		    __atomic_load_n(&done, __ATOMIC_ACQUIRE))
			return false;
		if (own_exits && spins >= (u32)(rand_r(seed) % 8))
			return true;
		sched_yield();
	}
}

static void *target_pcpu(void *arg)
{
	struct vcpu *v = race_vm.vcpus[TARGET];
	unsigned seed = 1;
	u32 irqs[8], n;

	(void)arg;
	this_pcpu = TARGET;
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		/* sched_loop: the irq window takes a pending IPI (and notification); poll_vcpus
		 * clears the kick flags of this pCPU's vCPUs. */
		__atomic_store_n(&ipi[TARGET], false, __ATOMIC_SEQ_CST);
		__atomic_store_n(&notification[TARGET], false, __ATOMIC_SEQ_CST);
		__atomic_store_n(&v->kick_pending, false, __ATOMIC_SEQ_CST);
		/* The backend's run loop, until an exit the scheduler must see. */
		while (sched_enter_guest(v)) {
			u64 entry = __atomic_add_fetch(&entries, 1, __ATOMIC_SEQ_CST);
			bool own_exit;

			n = race->enter(irqs, ARRAY_SIZE(irqs));
			take(irqs, n, entry);
			own_exit = race->window() || guest_mode(&seed, entry);
			sched_left_guest(v);
			race->exit();
			if (!own_exit)
				break; /* the host IPI: back to the scheduler */
		}
	}
	return NULL;
}

struct sender {
	u32 vcpu, irq;
	/* Beside a sender of a higher priority its interrupt may wait for that one's
	 * (x86: a lower priority class waits while higher vectors keep coming, SDM
	 * 11.8.3): no bound on the lag then, only exactly once. */
	bool may_wait;
	u64 sent, lost, max_lag; /* lag: entries from the send to the one that took it */
	double secs;
};

static void *sender_pcpu(void *arg)
{
	struct sender *s = arg;
	double t0 = now_s();

	this_pcpu = s->vcpu;
	for (u64 k = 1; k <= SENDS_PER_SENDER && s->lost < MAX_LOST; k++) {
		double give_up = now_s() + 1.0;

		race->send(s->vcpu, s->irq);
		u64 e0 = __atomic_load_n(&entries, __ATOMIC_SEQ_CST);
		s->sent++;
		while (__atomic_load_n(&taken[s->irq], __ATOMIC_SEQ_CST) < k - s->lost) {
			if (now_s() > give_up) {
				s->lost++;
				break;
			}
			sched_yield();
		}
		u64 lag = __atomic_load_n(&taken_at[s->irq], __ATOMIC_SEQ_CST) - e0;
		if (lag > s->max_lag && lag < (1ull << 63))
			s->max_lag = lag;
	}
	s->secs = now_s() - t0;
	return NULL;
}

/* One run of the target and n senders; checks and reports each sender. */
static void race_run(struct sender *senders, u32 n)
{
	pthread_t target, th[NSENDERS];

	__atomic_store_n(&done, false, __ATOMIC_RELEASE);
	pthread_create(&target, NULL, target_pcpu, NULL);
	for (u32 i = 0; i < n; i++)
		pthread_create(&th[i], NULL, sender_pcpu, &senders[i]);
	for (u32 i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	__atomic_store_n(&done, true, __ATOMIC_RELEASE);
	pthread_join(target, NULL);
	for (u32 i = 0; i < n; i++) {
		struct sender *s = &senders[i];
		printf("%u sender(s): vcpu%u %s %u: sent %llu, taken %llu, lost %llu, "
		       "taken at most %llu guest entries after the send, %.2f us each\n",
		       n, s->vcpu, race->what, s->irq, (unsigned long long)s->sent,
		       (unsigned long long)taken[s->irq], (unsigned long long)s->lost,
		       (unsigned long long)s->max_lag, s->secs * 1e6 / (double)s->sent);
		CHECK_EQ(s->lost, 0);
		CHECK_EQ(taken[s->irq], s->sent);
		CHECK(s->max_lag <= 1 || (s->may_wait && n > 1));
		s->sent = s->lost = s->max_lag = 0;
		taken[s->irq] = 0;
	}
}

/* The machine with its vCPUs (struct vcpu embedded in the caller's), then both runs. */
static void race_main(const struct race_ops *ops, struct vcpu **vcpus, struct sender *senders)
{
	race = ops;
	race_vm.nvcpus = 3;
	for (u32 i = 0; i < 3; i++) {
		struct vcpu *v = vcpus[i];
		v->vm = &race_vm;
		v->id = i;
		v->pcpu = i;
		v->state = VCPU_RUNNABLE;
		race_vm.vcpus[i] = v;
		pcpus[i].id = i;
		pcpus[i].runq = v;
		pcpus[i].current = v;
		pcpus[i].nvcpus = 1;
	}
	npcpus = 3;
	race_run(senders, 1);
	own_exits = true;
	race_run(senders, NSENDERS);
	printf("target: %llu guest entries\n", (unsigned long long)entries);
}

#endif
