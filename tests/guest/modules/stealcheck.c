// SPDX-License-Identifier: GPL-2.0
/*
 * stealcheck: the steal time this guest accounted (the steal column of /proc/stat, summed
 * over the CPUs) and the hypervisor's count for the VM (HV_HC_GET_STATS on x86,
 * HV_SMCCC_GET_STATS on arm64), read back to back, so that the two are compared at one
 * instant: steal read from /proc/stat before the power-off keeps growing on the
 * hypervisor's side until the VM is off (more than 5% of it on a loaded machine).
 *
 *   insmod stealcheck.ko
 *
 * Output: "stealcheck: steal_ms=G hv_steal_ms=H". The guest lags by what it has not
 * accounted yet: each CPU adds the steal the hypervisor published at its next tick
 * (kernel/sched/cputime.c, steal_account_process_time).
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/kernel_stat.h>
#include <linux/cpumask.h>
#include <linux/slab.h>

#include "hv_stats.h"

static int __init stealcheck_init(void)
{
	struct hv_guest_stats *s = kmalloc(sizeof(*s), GFP_KERNEL);
	u64 guest_ns = 0;
	int cpu;
	bool ok;

	if (!s)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		guest_ns += kcpustat_cpu(cpu).cpustat[CPUTIME_STEAL];
	ok = hv_stats_read(s) && hv_stats_have(s, steal_ns);
	if (ok)
		pr_info("stealcheck: steal_ms=%llu hv_steal_ms=%llu\n",
			div_u64(guest_ns, NSEC_PER_MSEC), div_u64(s->steal_ns, NSEC_PER_MSEC));
	else
		pr_info("stealcheck: the hypervisor does not give its counters\n");
	kfree(s);
	return ok ? 0 : -ENODEV;
}

module_init(stealcheck_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Steal time as the guest and the hv hypervisor count it, at one instant");
