/* SPDX-License-Identifier: GPL-2.0-only */
/* Sender and target pCPUs as host threads, under ThreadSanitizer: the real vGIC
 * (arch/arm64/vgic.c) and the real kick and guest-entry protocol (hv/sched.c:
 * vcpu_kick, sched_enter_guest, sched_left_guest) race as on the machine.
 *
 * The target pCPU runs vCPU 1 as arm64's arch_vcpu_run does: an irq window and the
 * scheduler's poll (which clears kick_pending), then sched_enter_guest, vgic_flush,
 * "guest mode", sched_left_guest, vgic_sync. Its guest takes every pending SGI in its
 * list registers (acknowledge and deactivate: the LR reads back as 0) and otherwise
 * spins without ever exiting, as the guest of issue 15 did: only a host IPI
 * (arch_send_kick) ends guest mode. An IPI sent while the target is not in guest mode
 * stays pending and ends its next guest mode at once, or is taken by the irq window.
 *
 * In a second run the guest also exits on its own now and then (an MMIO access, its
 * timer), as a booting guest does, so that kicks also find the target between an exit
 * and its next entry. A kick spends a little time after setting the flags and sending
 * the IPI, as the host IPI's register write does on the machine (microseconds under
 * TCG): with the vGIC's gen bumped after the kick, the first run loses its first SGI
 * every time (the target, sent round by the IPI, read the old gen), as a GICv3 guest
 * did in 3 of 34 boots.
 *
 * Senders (vCPU 0, then vCPU 0 and vCPU 2 on a third pCPU together) write ICC_SGI1R_EL1
 * through vgic_v3_send_sgi, each its own SGI, and wait until the target's guest has
 * taken it before the next, so every SGI must arrive exactly once. With one sender
 * nothing else can make the target exit, so an SGI missed at an entry is lost for good:
 * one not taken within a second counts as lost. And every SGI is taken at the latest in
 * the target's first guest entry after the send: the entry it was in when the send
 * returned (if that one's flush came after the send) or the next one. Waiting loops
 * yield the host CPU (the machine has two cores). */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include "../../hv/sched.c"
#include "../../arch/arm64/vgic.c"
#include "test.h"

#define SENDS_PER_SENDER 200000
#define NSENDERS 2
#define TARGET 1
#define MAX_LOST 5 /* a sender gives up after so many */

u64 arch_time_hz = 1000000000;

static struct vm vm;
static struct vcpu vcpus[3];
static struct vgic G;
static __thread u32 this_pcpu;
static bool ipi[3];		   /* a host IPI pending at that pCPU */
static bool done;		   /* the senders have finished */
static bool own_exits;		   /* the guest also exits on its own */
static u64 taken[VGIC_NR_SGIS];	   /* SGIs the target's guest took, by INTID */
static u64 entries;		   /* the target's guest entries */
static u64 taken_at[VGIC_NR_SGIS]; /* the entry that took it last */

u32 arch_pcpu_id(void) { return this_pcpu; }
u64 arch_time_now(void) { return 0; }
void arch_send_kick(u32 pcpu) { __atomic_store_n(&ipi[pcpu], true, __ATOMIC_SEQ_CST); }
/* What sched_loop needs besides: never called here. */
void arch_timer_arm(u64 deadline) { (void)deadline; }
void arch_idle(void) {}
void arch_irq_window(void) {}
void arch_pcpu_describe(u32 pcpu, char *buf, size_t n) { (void)pcpu, (void)buf, (void)n; }
NORETURN void arch_power_off(void) { abort(); }
void arch_vcpu_poll(struct vcpu *v, u64 now) { (void)v, (void)now; }
bool arch_vcpu_wants_to_run(struct vcpu *v) { return (void)v, true; }
u64 arch_vcpu_next_timer(struct vcpu *v) { return (void)v, 0; }
void arch_vcpu_load(struct vcpu *v) { (void)v; }
void arch_vcpu_put(struct vcpu *v) { (void)v; }
enum run_result arch_vcpu_run(struct vcpu *v) { return (void)v, RUN_HALTED; }
bool vm_stopping(const struct vm *m) { return __atomic_load_n(&m->stop_reason, __ATOMIC_ACQUIRE); }
void vm_vcpu_stopped(struct vcpu *v) { (void)v; }
void console_poll_input(void) {}
void printk(const char *fmt, ...) { (void)fmt; }

static void kick(void *ctx, u32 id)
{
	(void)ctx;
	vcpu_kick(&vcpus[id]);
	for (volatile int i = 0; i < 200; i++) /* the IPI's register write */
		;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The target pCPU: vCPU 1's run loop with a guest that never exits on its own. */
static void *target_pcpu(void *arg)
{
	struct vcpu *v = &vcpus[TARGET];
	struct vgic_lr lrs[4];
	bool overflow;
	u32 n, i;

	unsigned seed = 1;

	(void)arg;
	this_pcpu = TARGET;
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		/* sched_loop: the irq window takes a pending IPI; poll_vcpus clears the
		 * kick flags of this pCPU's vCPUs. */
		__atomic_store_n(&ipi[TARGET], false, __ATOMIC_SEQ_CST);
		__atomic_store_n(&v->kick_pending, false, __ATOMIC_SEQ_CST);
		/* arch_vcpu_run, until an exit the scheduler must see. */
		for (;;) {
			if (!sched_enter_guest(v))
				break;
			u64 entry = __atomic_add_fetch(&entries, 1, __ATOMIC_SEQ_CST);
			n = vgic_flush(&G, TARGET, lrs, ARRAY_SIZE(lrs), &overflow);
			for (i = 0; i < n; i++) {
				if (!(lrs[i].state & VGIC_LR_PENDING))
					continue;
				__atomic_store_n(&taken_at[lrs[i].intid], entry, __ATOMIC_SEQ_CST);
				__atomic_fetch_add(&taken[lrs[i].intid], 1, __ATOMIC_SEQ_CST);
				lrs[i].state = 0; /* acknowledged and deactivated */
			}
			/* Guest mode: a host IPI ends it (or the end of the test), or in the
			 * second run, after a few rounds, an exit of the guest's own. */
			bool own_exit = false;
			for (u32 spins = 0;; spins++) {
				if (__atomic_exchange_n(&ipi[TARGET], false, __ATOMIC_SEQ_CST) ||
				    __atomic_load_n(&done, __ATOMIC_ACQUIRE))
					break;
				if (own_exits && spins >= (u32)(rand_r(&seed) % 8)) {
					own_exit = true;
					break;
				}
				sched_yield();
			}
			sched_left_guest(v);
			if (n) /* as vgic_hw_sync: no LR used, nothing to fold back */
				vgic_sync(&G, TARGET, lrs, n);
			if (!own_exit)
				break; /* the host IPI: back to the scheduler */
		}
	}
	return NULL;
}

struct sender {
	u32 vcpu, intid;
	u64 sent, lost, max_lag; /* lag: entries from the send to the one that took it */
	double secs;
};

/* A sender pCPU: its vCPU writes ICC_SGI1R_EL1 for `intid` to the target, then waits
 * until the target's guest has taken it. */
static void *sender_pcpu(void *arg)
{
	struct sender *s = arg;
	u64 sgi1r = (u64)s->intid << 24 | BIT(TARGET); /* Aff0 = 1: vCPU 1 */
	double t0 = now_s();

	this_pcpu = s->vcpu;
	pcpus[s->vcpu].current = &vcpus[s->vcpu];
	for (u64 k = 1; k <= SENDS_PER_SENDER && s->lost < MAX_LOST; k++) {
		double give_up = now_s() + 1.0;

		vgic_v3_send_sgi(&G, s->vcpu, sgi1r);
		u64 e0 = __atomic_load_n(&entries, __ATOMIC_SEQ_CST);
		s->sent++;
		while (__atomic_load_n(&taken[s->intid], __ATOMIC_SEQ_CST) < k - s->lost) {
			if (now_s() > give_up) {
				s->lost++;
				break;
			}
			sched_yield();
		}
		u64 lag = __atomic_load_n(&taken_at[s->intid], __ATOMIC_SEQ_CST) - e0;
		if (lag > s->max_lag && lag < (1ull << 63))
			s->max_lag = lag;
	}
	s->secs = now_s() - t0;
	return NULL;
}

/* One run of the target and n senders; checks and reports each sender. */
static void run(struct sender *senders, u32 n)
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
		printf("%u sender(s): vcpu%u SGI %u: sent %llu, taken %llu, lost %llu, taken at most "
		       "%llu guest entries after the send, %.2f us per SGI\n",
		       n, s->vcpu, s->intid, (unsigned long long)s->sent,
		       (unsigned long long)taken[s->intid], (unsigned long long)s->lost,
		       (unsigned long long)s->max_lag, s->secs * 1e6 / (double)s->sent);
		CHECK_EQ(s->lost, 0);
		CHECK_EQ(taken[s->intid], s->sent);
		CHECK(s->max_lag <= 1);
		s->sent = s->lost = s->max_lag = 0;
		taken[s->intid] = 0;
	}
}

int main(void)
{
	struct sender senders[NSENDERS] = { { .vcpu = 0, .intid = 1 }, { .vcpu = 2, .intid = 5 } };

	vm.nvcpus = 3;
	for (u32 i = 0; i < 3; i++) {
		vcpus[i] = (struct vcpu){ .vm = &vm, .id = i, .pcpu = i, .state = VCPU_RUNNABLE };
		vm.vcpus[i] = &vcpus[i];
		pcpus[i].id = i;
		pcpus[i].runq = &vcpus[i];
		pcpus[i].nvcpus = 1;
	}
	npcpus = 3;
	CHECK(vgic_init(&G, 3, 3, kick, NULL));
	G.ctlr = BIT(1); /* GICD_CTLR.EnableGrp1 */
	for (u32 i = 0; i < NSENDERS; i++)
		G.cpu[TARGET].priv[senders[i].intid].enabled = true;
	run(senders, 1);
	own_exits = true;
	run(senders, NSENDERS);
	printf("target: %llu guest entries\n", (unsigned long long)entries);
	return test_summary();
}
