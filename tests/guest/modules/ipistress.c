// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipistress: no IPI may be lost. Linux guests of the hv hypervisor.
 *
 *   insmod ipistress.ko [iters=100000] && rmmod ipistress
 *
 * Every CPU but CPU 0 runs a receiver: a kthread bound to it that spins with interrupts
 * enabled and does nothing that exits to the hypervisor (no HLT, no I/O, no MSR), so an
 * IPI reaches it only through the hypervisor's kick and injection while it runs in
 * guest mode (its timer ticks still exit). A kthread on CPU 0 then sends, one at a time,
 * each waiting until its function ran:
 *
 *   unicast    iters x smp_call_function_single_async() to CPU 1 (one x2APIC ICR
 *              write per IPI: Linux's single-target path even with PV IPIs)
 *   others     iters x smp_call_function_many() to all other CPUs, wait=0, then a poll
 *              until every target's function ran (Linux's mask path: the PV IPI
 *              hypercall when the hypervisor offers it, else the all-but-self shorthand
 *              or one ICR write per target)
 *
 * An IPI taken after more than a second is late (a vCPU thread the emulator's host left
 * without a core that long; counted, not a failure); one not taken in 30 s is lost:
 * unicast then goes on with a fresh call_single_data, others stops (its per-CPU call data
 * would still be locked). One line per kind:
 *
 *   ipistress: NAME sent=N taken=N lost=0 late=N max_wait_us=N ns/ipi=X
 *
 * where taken counts function runs on the targets (others: N x targets), max_wait_us is
 * the longest wait for one target and ns/ipi the mean time of one send until all its
 * targets ran it. "ipistress: done" ends it.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/smp.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/atomic.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/delay.h>

static unsigned int iters = 100000;
module_param(iters, uint, 0444);
MODULE_PARM_DESC(iters, "IPIs of each kind");

#define LATE_NS NSEC_PER_SEC
#define LOST_NS (30 * NSEC_PER_SEC)

static DEFINE_PER_CPU(atomic_long_t, ran);
static bool receivers_stop;
static atomic_t receivers_up;

static void count(void *info) { atomic_long_inc(this_cpu_ptr(&ran)); }

static long ran_on(int cpu) { return atomic_long_read(per_cpu_ptr(&ran, cpu)); }

static int receiver(void *unused)
{
	atomic_inc(&receivers_up);
	while (!READ_ONCE(receivers_stop) && !kthread_should_stop())
		cpu_relax(); /* interrupts on; PAUSE is not intercepted */
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

enum taken { ON_TIME, LATE, LOST };
static u64 max_wait_ns;

/* Polls until CPU cpu has run count() `want` times: LOST after LOST_NS, LATE after LATE_NS. */
static enum taken wait_ran(int cpu, long want)
{
	u64 t0 = ktime_get_ns(), waited;

	while (ran_on(cpu) < want)
		if (ktime_get_ns() - t0 > LOST_NS)
			return LOST;
	waited = ktime_get_ns() - t0;
	max_wait_ns = max(max_wait_ns, waited);
	return waited > LATE_NS ? LATE : ON_TIME;
}

static void unicast(void)
{
	call_single_data_t *csd = kzalloc(sizeof(*csd), GFP_KERNEL);
	long base = ran_on(1), lost = 0, late = 0;
	unsigned int i;
	enum taken taken;
	u64 t0;

	if (!csd)
		return;
	INIT_CSD(csd, count, NULL);
	max_wait_ns = 0;
	t0 = ktime_get_ns();
	for (i = 0; i < iters && lost < 5; i++) {
		if (smp_call_function_single_async(1, csd))
			break;
		taken = wait_ran(1, base + i + 1 - lost);
		late += taken == LATE;
		if (taken == LOST) {
			lost++;
			csd = kzalloc(sizeof(*csd), GFP_KERNEL); /* the old one stays locked */
			if (!csd)
				break;
			INIT_CSD(csd, count, NULL);
		}
	}
	pr_info("ipistress: unicast sent=%u taken=%ld lost=%ld late=%ld max_wait_us=%llu "
		"ns/ipi=%llu\n",
		i, ran_on(1) - base, lost, late, max_wait_ns / 1000,
		i ? (ktime_get_ns() - t0) / i : 0);
	kfree(csd);
}

static void others(void)
{
	long *base = kcalloc(nr_cpu_ids, sizeof(*base), GFP_KERNEL), taken = 0, lost = 0, late = 0;
	unsigned int i;
	enum taken t;
	int cpu;
	u64 t0;

	if (!base)
		return;
	for_each_online_cpu(cpu)
		base[cpu] = ran_on(cpu);
	max_wait_ns = 0;
	t0 = ktime_get_ns();
	for (i = 0; i < iters && !lost; i++) {
		preempt_disable();
		smp_call_function_many(cpu_online_mask, count, NULL, false);
		preempt_enable();
		for_each_online_cpu(cpu) {
			if (!cpu)
				continue;
			t = wait_ran(cpu, base[cpu] + i + 1);
			late += t == LATE;
			lost += t == LOST;
		}
	}
	for_each_online_cpu(cpu)
		if (cpu)
			taken += ran_on(cpu) - base[cpu];
	pr_info("ipistress: others sent=%u taken=%ld lost=%ld late=%ld max_wait_us=%llu "
		"ns/ipi=%llu\n",
		i, taken, lost, late, max_wait_ns / 1000, i ? (ktime_get_ns() - t0) / i : 0);
	kfree(base);
}

static DECLARE_COMPLETION(sent);

/* Bound to CPU 0. */
static int sender(void *nreceivers)
{
	/* Everything is decided here, on CPU 0: a receiver spinning on the CPU of insmod
	 * would keep it from running (no preemption in the kernel). */
	while (atomic_read(&receivers_up) < (long)nreceivers)
		msleep(1);
	unicast();
	others();
	WRITE_ONCE(receivers_stop, true);
	complete(&sent);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static int __init ipistress_init(void)
{
	struct task_struct **t, *s;
	int cpu, n = 0;

	if (num_online_cpus() < 2 || !cpu_online(0) || !cpu_online(1)) {
		pr_info("ipistress: skipped: needs cpus 0 and 1 online\n");
		return 0;
	}
	t = kcalloc(nr_cpu_ids, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	WRITE_ONCE(receivers_stop, false);
	for_each_online_cpu(cpu) {
		if (!cpu)
			continue;
		t[cpu] = kthread_create(receiver, NULL, "ipistress/%d", cpu);
		if (IS_ERR(t[cpu])) {
			t[cpu] = NULL;
			continue;
		}
		kthread_bind(t[cpu], cpu);
		wake_up_process(t[cpu]);
		n++;
	}
	pr_info("ipistress: cpus=%u iters=%u receivers=%d\n", num_online_cpus(), iters, n);
	s = kthread_create(sender, (void *)(long)n, "ipistress/send");
	if (!IS_ERR(s)) {
		kthread_bind(s, 0);
		wake_up_process(s);
		wait_for_completion(&sent);
		kthread_stop(s);
	}
	WRITE_ONCE(receivers_stop, true); /* (if the sender did not start) */
	for_each_online_cpu(cpu)
		if (t[cpu])
			kthread_stop(t[cpu]);
	kfree(t);
	pr_info("ipistress: done\n");
	return 0;
}

static void __exit ipistress_exit(void) {}

module_init(ipistress_init);
module_exit(ipistress_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("IPI loss stress test for hv guests");
