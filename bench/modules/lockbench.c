// SPDX-License-Identifier: GPL-2.0
/*
 * lockbench: spinlock contention benchmark for Linux guests of the hv hypervisor.
 *
 *   insmod lockbench.ko [iters=2000] [hold_us=20] [gap_us=20] [irqsave=0] [bh=0] && rmmod lockbench
 *
 * One kthread per online CPU, released together; each takes one shared spinlock iters
 * times, keeps it hold_us (busy, with the lock held), releases it and works gap_us
 * before the next round. With irqsave=1 it takes the lock with spin_lock_irqsave
 * (interrupts masked while held, which the hypervisor sees without help); else with
 * spin_lock (only the preempt count shows the critical section: guest module hvpreempt),
 * or with bh=1 spin_lock_bh (softirqs off while held). A kernel built without
 * CONFIG_PREEMPT_COUNT (Debian's arm64 6.1: PREEMPT_VOLUNTARY, no PREEMPT_DYNAMIC) leaves
 * its preempt count alone in spin_lock, but counts softirqs off in it: there only bh=1
 * publishes the section.
 * When a vCPU is preempted while it holds the lock, every other CPU waits for it: this is
 * the cost that preemption-aware scheduling (sched = aware) cuts.
 *
 * On load it prints one line and returns 0 (insmod's status tells success from failure):
 *
 *   lockbench: cpus=N iters=I hold_us=H gap_us=G irqsave=0|1 bh=0|1 ops=N ns/op=X
 *              exits/op=Y.YY spin_exits/op=Y.YY yields/op=Y.YY
 *              critical_preemptions/op=Y.YY boosts/op=Y.YY
 *
 * ns/op: wall time from the release of the threads to the end of the last one, divided by
 * ops = iters * CPUs (the time per lock round of the whole VM). The per-op counts are
 * differences of the VM's counters (HV_HC_GET_STATS) over the run; "n/a" where the
 * hypervisor does not give them.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sched.h>

#include "bound_threads.h"
#include "hv_stats.h"

static unsigned int iters = 2000;
module_param(iters, uint, 0444);
MODULE_PARM_DESC(iters, "lock rounds per CPU (default 2000)");

static unsigned int hold_us = 20;
module_param(hold_us, uint, 0444);
MODULE_PARM_DESC(hold_us, "microseconds the lock is held per round (default 20)");

static unsigned int gap_us = 20;
module_param(gap_us, uint, 0444);
MODULE_PARM_DESC(gap_us, "microseconds of work between rounds (default 20)");

static bool irqsave;
module_param(irqsave, bool, 0444);
MODULE_PARM_DESC(irqsave, "take the lock with interrupts masked (default 0)");

static bool bh;
module_param(bh, bool, 0444);
MODULE_PARM_DESC(bh, "take the lock with softirqs off (default 0)");

struct lockb_run {
	spinlock_t lock;
	atomic_t left; /* threads still working */
	struct completion go;
	struct completion done;
};

static int lockb_thread(void *data)
{
	struct lockb_run *run = data;
	unsigned long flags;
	unsigned int i;

	wait_for_completion(&run->go);
	for (i = 0; i < iters; i++) {
		if (irqsave)
			spin_lock_irqsave(&run->lock, flags);
		else if (bh)
			spin_lock_bh(&run->lock);
		else
			spin_lock(&run->lock);
		udelay(hold_us);
		if (irqsave)
			spin_unlock_irqrestore(&run->lock, flags);
		else if (bh)
			spin_unlock_bh(&run->lock);
		else
			spin_unlock(&run->lock);
		udelay(gap_us);
		cond_resched();
	}
	if (atomic_dec_and_test(&run->left))
		complete(&run->done);
	return bound_threads_wait_for_stop();
}

static int __init lockb_init(void)
{
	struct hv_guest_stats *before, *after;
	char exits[24] = "n/a", spins[24] = "n/a", yields[24] = "n/a", crit[24] = "n/a",
	     boosts[24] = "n/a";
	struct task_struct **tasks;
	struct lockb_run run;
	int n;
	u64 t0, ns, ops;
	bool stats;
	int ret = 0;

	if (!iters) {
		pr_err("lockbench: iters must be at least 1\n");
		return -EINVAL;
	}
	before = kcalloc(2, sizeof(*before), GFP_KERNEL);
	tasks = kcalloc(nr_cpu_ids, sizeof(*tasks), GFP_KERNEL);
	if (!before || !tasks) {
		ret = -ENOMEM;
		goto out;
	}
	after = before + 1;
	spin_lock_init(&run.lock);
	init_completion(&run.go);
	init_completion(&run.done);

	cpus_read_lock();
	n = bound_threads_create(lockb_thread, &run, cpu_online_mask, "lockbench/%u", tasks);
	if (n < 0) {
		cpus_read_unlock();
		ret = n;
		pr_err("lockbench: cannot start threads (%d)\n", ret);
		goto out;
	}
	atomic_set(&run.left, n);
	bound_threads_wake(tasks, n);
	stats = hv_stats_read(before);
	t0 = ktime_get_ns();
	complete_all(&run.go);
	wait_for_completion(&run.done);
	ns = ktime_get_ns() - t0;
	stats = hv_stats_read(after) && stats;
	bound_threads_stop(tasks, n);
	cpus_read_unlock();

	ops = (u64)iters * n;
	if (stats) {
		hv_per_op(exits, sizeof(exits), after->exits - before->exits, ops);
		hv_per_op(yields, sizeof(yields), after->yields - before->yields, ops);
	}
	if (stats && hv_stats_have(after, spin_exits))
		hv_per_op(spins, sizeof(spins), after->spin_exits - before->spin_exits, ops);
	if (stats && hv_stats_have(after, boosts)) {
		hv_per_op(crit, sizeof(crit),
			  after->critical_preemptions - before->critical_preemptions, ops);
		hv_per_op(boosts, sizeof(boosts), after->boosts - before->boosts, ops);
	}
	pr_info("lockbench: cpus=%u iters=%u hold_us=%u gap_us=%u irqsave=%d bh=%d ops=%llu "
		"ns/op=%llu exits/op=%s spin_exits/op=%s yields/op=%s critical_preemptions/op=%s "
		"boosts/op=%s\n",
		n, iters, hold_us, gap_us, irqsave, bh, ops, div64_u64(ns + ops / 2, ops), exits,
		spins, yields, crit, boosts);
out:
	kfree(tasks);
	kfree(before);
	return ret;
}

static void __exit lockb_exit(void) {}

module_init(lockb_init);
module_exit(lockb_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Spinlock contention benchmark for guests of the hv hypervisor");
