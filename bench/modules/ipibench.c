// SPDX-License-Identifier: GPL-2.0
/*
 * ipibench: IPI microbenchmark for Linux guests of the hv hypervisor.
 *
 *   insmod ipibench.ko [iters=2000] [mode=all|NAME[,NAME...]] && rmmod ipibench
 *
 * On load it runs the selected benchmarks, each iters times, then prints "ipibench: done".
 * The init function returns 0 when the benchmarks ran (so insmod's status tells success
 * from failure); the module does nothing once loaded and the caller unloads it with rmmod.
 *
 *   unicast-wait    smp_call_function_single(target, nop, wait=1) from the first online
 *                   CPU (CPU 0) to the next online CPU.
 *   unicast-nowait  the same with wait=0. The kernel's per-CPU csd lock paces the calls:
 *                   each call first waits until the target has taken the previous request
 *                   off its queue (not until it ran it). The last of the iters calls uses
 *                   wait=1, so every request has completed when the clock stops.
 *   broadcast       smp_call_function_many(cpu_online_mask, nop, wait=1) from CPU 0: all
 *                   online CPUs but the caller (smp_call_function_many never runs the
 *                   function on the calling CPU). Linux sends this as ONE x2APIC ICR
 *                   write with the all-but-self shorthand once "IPI shorthand broadcast"
 *                   is enabled (all possible CPUs online), with or without PV IPIs;
 *                   boot the guest with no_ipi_broadcast=1 to make it take the mask path
 *                   below instead.
 *   multicast       the same to all online CPUs but the caller and the last online CPU
 *                   (needs 4 online CPUs, so that at least 2 are targets): a mask, which
 *                   Linux sends with one KVM_HC_SEND_IPI when PV IPIs are on, else with
 *                   one ICR write per target (physical x2APIC mode) or per cluster.
 *   all-to-all      one kthread bound to each online CPU; released together, each does
 *                   the broadcast call iters times (the same shorthand remark applies).
 *                   ops = iters * CPUs; ns/op is the mean time of one call as its
 *                   caller sees it.
 *
 * The shorthand and PV IPI remarks are x86's; on arm64 (built the same, reading the
 * counters through HV_SMCCC_GET_STATS) every IPI is an SGI register write, counted in
 * ipis_icr, and ipis_pv stays 0.
 *
 * Each benchmark runs in kthreads bound to their CPUs; the smp_call_function_many() calls
 * are made with preemption disabled and interrupts enabled, as the kernel requires.
 * One line per benchmark:
 *
 *   ipibench: NAME ops=N ns/op=X exits/op=Y.YY ipis_pv/op=Y.YY ipis_icr/op=Y.YY
 *             wake_us=Z.ZZ wake_preempts/op=Y.YY migrations/op=Y.YY
 *
 * wake_us: the mean wake-up latency of the VM's vCPUs during the benchmark (from the
 * interrupt that made a vCPU runnable to its guest entry); wake_preempts/op: turns the
 * scheduler cut short for a woken vCPU (stats version 2; "n/a" before); migrations/op:
 * vCPU moves to another pCPU (version 3).
 *
 * or "ipibench: NAME skipped: needs N online cpus", after a first line "ipibench: cpus=..
 * iters=.. stats=yes|no stats-overhead=..".
 *
 * The per-op counts are differences of the hypervisor's VM-wide counters (HV_HC_GET_STATS,
 * guest_abi/hv_para.h) read right before the benchmark threads are released and right
 * after they finished, divided by ops. They include whatever else the VM did meanwhile
 * (timer ticks on every vCPU, the wake-ups of the benchmark threads). The exits that the
 * stats hypercalls themselves add to one difference are measured once at load (the
 * smallest difference of two back-to-back reads, normally 1) and subtracted from exits.
 * Without the hypercall (not this hypervisor, or it returns an error) they print "n/a".
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/smp.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/atomic.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/stddef.h>

#include "bound_threads.h"
#include "hv_stats.h"
#include "name_list.h"

static unsigned int iters = 2000;
module_param(iters, uint, 0444);
MODULE_PARM_DESC(iters, "calls per benchmark and CPU (default 2000)");

static char *mode = "all";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(
	mode,
	"all, or a comma-separated list of unicast-wait, unicast-nowait, broadcast, multicast, "
	"all-to-all");

enum ipib_kind {
	IPIB_UNICAST_WAIT,
	IPIB_UNICAST_NOWAIT,
	IPIB_BROADCAST,
	IPIB_MULTICAST,
	IPIB_ALL_TO_ALL,
	IPIB_NR
};

static const char *const ipib_names[IPIB_NR] = {
	[IPIB_UNICAST_WAIT] = "unicast-wait", [IPIB_UNICAST_NOWAIT] = "unicast-nowait",
	[IPIB_BROADCAST] = "broadcast",	      [IPIB_MULTICAST] = "multicast",
	[IPIB_ALL_TO_ALL] = "all-to-all",
};

/* Online CPUs a benchmark needs. */
static const unsigned int ipib_min_cpus[IPIB_NR] = {
	[IPIB_UNICAST_WAIT] = 2, [IPIB_UNICAST_NOWAIT] = 2, [IPIB_BROADCAST] = 2,
	[IPIB_MULTICAST] = 4,	 [IPIB_ALL_TO_ALL] = 2,
};

struct ipib_run {
	enum ipib_kind kind;
	int target;		    /* unicast destination */
	const struct cpumask *mask; /* smp_call_function_many() destinations */
	atomic_t left;		    /* threads still working */
	atomic64_t ns;		    /* sum of the threads' elapsed times */
	struct completion go;
	struct completion done;
};

/* Two snapshots (before, after); kmalloc'ed so that __pa() is valid. */
static struct hv_guest_stats *ipib_stats;
static bool ipib_have_stats;
static u64 ipib_stats_overhead;

static void ipib_nop(void *info) {}

static int ipib_thread(void *data)
{
	struct ipib_run *run = data;
	unsigned int i;
	u64 t0;

	wait_for_completion(&run->go);
	t0 = ktime_get_ns();
	switch (run->kind) {
	case IPIB_UNICAST_WAIT:
		for (i = 0; i < iters; i++) {
			smp_call_function_single(run->target, ipib_nop, NULL, 1);
			cond_resched();
		}
		break;
	case IPIB_UNICAST_NOWAIT:
		for (i = 0; i < iters; i++) {
			smp_call_function_single(run->target, ipib_nop, NULL, i == iters - 1);
			cond_resched();
		}
		break;
	case IPIB_BROADCAST:
	case IPIB_MULTICAST:
	case IPIB_ALL_TO_ALL:
		for (i = 0; i < iters; i++) {
			preempt_disable();
			smp_call_function_many(run->mask, ipib_nop, NULL, true);
			preempt_enable();
			cond_resched();
		}
		break;
	default:
		break;
	}
	atomic64_add(ktime_get_ns() - t0, &run->ns);
	if (atomic_dec_and_test(&run->left))
		complete(&run->done);

	return bound_threads_wait_for_stop();
}

static bool ipib_read_stats(struct hv_guest_stats *s)
{
	return ipib_have_stats && hv_stats_read(s);
}

static void ipib_probe_stats(void)
{
	struct hv_guest_stats *a = &ipib_stats[0], *b = &ipib_stats[1];
	u64 best = U64_MAX;
	int i;

	ipib_have_stats = true;
	for (i = 0; i < 5 && ipib_have_stats; i++) {
		ipib_have_stats = hv_stats_read(a) && hv_stats_read(b);
		if (ipib_have_stats)
			best = min(best, b->exits - a->exits);
	}
	ipib_stats_overhead = ipib_have_stats ? best : 0;
}

static int ipib_run_one(enum ipib_kind kind, int src, int target, const struct cpumask *multicast)
{
	struct hv_guest_stats *before = &ipib_stats[0], *after = &ipib_stats[1];
	struct task_struct **tasks;
	char exits[24] = "n/a", pv[24] = "n/a", icr[24] = "n/a", wake[24] = "n/a", wpre[24] = "n/a",
	     moves[24] = "n/a";
	struct ipib_run run = {
		.kind = kind,
		.target = target,
		.mask = kind == IPIB_MULTICAST ? multicast : cpu_online_mask,
	};
	int n;
	bool stats;
	u64 ops, ex;

	tasks = kcalloc(nr_cpu_ids, sizeof(*tasks), GFP_KERNEL);
	if (!tasks)
		return -ENOMEM;
	atomic64_set(&run.ns, 0);
	init_completion(&run.go);
	init_completion(&run.done);

	n = bound_threads_create(ipib_thread, &run,
				 kind == IPIB_ALL_TO_ALL ? cpu_online_mask : cpumask_of(src),
				 "ipibench/%u", tasks);
	if (n < 0) {
		kfree(tasks);
		return n;
	}
	atomic_set(&run.left, n);
	bound_threads_wake(tasks, n);

	stats = ipib_read_stats(before);
	complete_all(&run.go);
	wait_for_completion(&run.done);
	stats = ipib_read_stats(after) && stats;

	bound_threads_stop(tasks, n);
	kfree(tasks);

	ops = (u64)iters * n;
	if (stats) {
		ex = after->exits - before->exits;
		ex = ex > ipib_stats_overhead ? ex - ipib_stats_overhead : 0;
		hv_per_op(exits, sizeof(exits), ex, ops);
		hv_per_op(pv, sizeof(pv), after->ipis_pv - before->ipis_pv, ops);
		hv_per_op(icr, sizeof(icr), after->ipis_icr - before->ipis_icr, ops);
	}
	/* Version 2: the scheduler's wake-up latency (mean, in us) and preemptions. */
	if (stats && hv_stats_have(after, wake_preempts)) {
		u64 wakes = after->wakes - before->wakes;

		if (wakes)
			hv_per_op(wake, sizeof(wake),
				  after->wake_latency_sum_ns - before->wake_latency_sum_ns,
				  wakes * 1000);
		hv_per_op(wpre, sizeof(wpre), after->wake_preempts - before->wake_preempts, ops);
	}
	/* Version 3: vCPU migrations. */
	if (stats && hv_stats_have(after, migrations))
		hv_per_op(moves, sizeof(moves), after->migrations - before->migrations, ops);
	pr_info("ipibench: %s ops=%llu ns/op=%llu exits/op=%s ipis_pv/op=%s ipis_icr/op=%s "
		"wake_us=%s wake_preempts/op=%s migrations/op=%s\n",
		ipib_names[kind], ops, div64_u64(atomic64_read(&run.ns) + ops / 2, ops), exits, pv,
		icr, wake, wpre, moves);
	return 0;
}

static int __init ipib_init(void)
{
	cpumask_var_t multicast;
	unsigned long kinds;
	int ret, kind, src, target;

	if (!iters) {
		pr_err("ipibench: iters must be at least 1\n");
		return -EINVAL;
	}
	ret = parse_name_list("ipibench", mode, ipib_names, IPIB_NR, &kinds);
	if (ret)
		return ret;
	if (!zalloc_cpumask_var(&multicast, GFP_KERNEL))
		return -ENOMEM;
	ipib_stats = kcalloc(2, sizeof(*ipib_stats), GFP_KERNEL);
	if (!ipib_stats) {
		free_cpumask_var(multicast);
		return -ENOMEM;
	}

	cpus_read_lock();
	ipib_probe_stats();
	src = cpumask_first(cpu_online_mask);
	target = cpumask_next(src, cpu_online_mask);
	cpumask_copy(multicast, cpu_online_mask);
	cpumask_clear_cpu(cpumask_last(cpu_online_mask), multicast);
	pr_info("ipibench: cpus=%u iters=%u stats=%s stats-overhead=%llu\n", num_online_cpus(),
		iters, ipib_have_stats ? "yes" : "no", ipib_stats_overhead);
	for_each_set_bit(kind, &kinds, IPIB_NR) {
		if (num_online_cpus() < ipib_min_cpus[kind]) {
			pr_info("ipibench: %s skipped: needs %u online cpus\n", ipib_names[kind],
				ipib_min_cpus[kind]);
			continue;
		}
		ret = ipib_run_one(kind, src, target, multicast);
		if (ret) {
			pr_err("ipibench: %s: cannot start threads (%d)\n", ipib_names[kind], ret);
			break;
		}
	}
	cpus_read_unlock();

	kfree(ipib_stats);
	free_cpumask_var(multicast);
	if (!ret)
		pr_info("ipibench: done\n");
	return ret;
}

static void __exit ipib_exit(void) {}

module_init(ipib_init);
module_exit(ipib_exit);
MODULE_DESCRIPTION("IPI microbenchmark for hv guests");
MODULE_LICENSE("GPL");
