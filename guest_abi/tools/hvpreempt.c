// SPDX-License-Identifier: GPL-2.0
/*
 * hvpreempt: publishes every CPU's preempt count to the hv hypervisor (`pv = preempt`,
 * guest_abi/ABI.md, HV_MSR_PREEMPT_COUNT), so that its scheduler also sees the critical
 * sections that run with interrupts on (spinlocks, preempt_disable, softirqs): it lets a
 * vCPU inside one finish it before another vCPU takes the pCPU, and runs it again first
 * when it was preempted in one.
 *
 *   insmod hvpreempt.ko        stays loaded (CPUs that come online register too)
 *   rmmod hvpreempt            every CPU unregisters
 *
 * It registers x86 Linux's per-CPU __preempt_count, whose bit 31 is the inverted
 * PREEMPT_NEED_RESCHED that the hypervisor ignores. Prints "hvpreempt: registered the
 * preempt count of N CPUs", or why it cannot (not this hypervisor, or the VM's `pv` set
 * lacks `preempt`: insmod then fails with ENODEV).
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/cpuhotplug.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <asm/msr.h>
#include <asm/pgtable_types.h>
#include <asm/processor.h>

#include "hv_para.h"

static enum cpuhp_state hvp_state;
static atomic_t hvp_cpus = ATOMIC_INIT(0);

/* Runs on `cpu` itself (an AP hotplug state). */
static int hvp_online(unsigned int cpu)
{
	phys_addr_t pa = slow_virt_to_phys(per_cpu_ptr(&__preempt_count, cpu));
	int ret = wrmsrl_safe(HV_MSR_PREEMPT_COUNT, pa | 1);

	if (ret) {
		pr_err("hvpreempt: cpu%u: the hypervisor refused %pa\n", cpu, &pa);
		return -EIO;
	}
	atomic_inc(&hvp_cpus);
	return 0;
}

static int hvp_offline(unsigned int cpu)
{
	wrmsrl_safe(HV_MSR_PREEMPT_COUNT, 0);
	atomic_dec(&hvp_cpus);
	return 0;
}

static int __init hvp_init(void)
{
	unsigned int eax, ebx, ecx, edx;
	int ret;

	if (!boot_cpu_has(X86_FEATURE_HYPERVISOR)) {
		pr_info("hvpreempt: not running under a hypervisor\n");
		return -ENODEV;
	}
	cpuid(HV_CPUID_SIGNATURE, &eax, &ebx, &ecx, &edx);
	if (ebx != HV_CPUID_SIGNATURE_EBX || ecx != HV_CPUID_SIGNATURE_EBX ||
	    edx != HV_CPUID_SIGNATURE_EBX || eax < HV_CPUID_FEATURES) {
		pr_info("hvpreempt: not the hv hypervisor (no signature at CPUID %#x)\n",
			HV_CPUID_SIGNATURE);
		return -ENODEV;
	}
	if (!(cpuid_eax(HV_CPUID_FEATURES) & BIT(HV_FEATURE_PREEMPT_COUNT))) {
		pr_info("hvpreempt: the VM does not offer it (its pv set lacks preempt)\n");
		return -ENODEV;
	}
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "hv/preempt_count:online", hvp_online,
				hvp_offline);
	if (ret < 0)
		return ret;
	hvp_state = ret;
	pr_info("hvpreempt: registered the preempt count of %d CPUs\n", atomic_read(&hvp_cpus));
	return 0;
}

static void __exit hvp_exit(void)
{
	cpuhp_remove_state(hvp_state);
	pr_info("hvpreempt: unregistered\n");
}

module_init(hvp_init);
module_exit(hvp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Publishes the preempt count to the hv hypervisor");
