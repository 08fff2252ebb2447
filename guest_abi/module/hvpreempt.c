// SPDX-License-Identifier: GPL-2.0
/*
 * hvpreempt: publishes every CPU's preempt count to the hv hypervisor (`pv = preempt`,
 * guest_abi/ABI.md), so that its scheduler also sees the critical sections that run with
 * interrupts on (spinlocks, preempt_disable, softirqs): it lets a vCPU inside one finish
 * it before another vCPU takes the pCPU, and runs it again first when it was preempted in
 * one.
 *
 *   insmod hvpreempt.ko        stays loaded (CPUs that come online register too)
 *   rmmod hvpreempt            every CPU unregisters
 *
 * x86: registers Linux's per-CPU __preempt_count (HV_MSR_PREEMPT_COUNT), whose bit 31
 * is the inverted PREEMPT_NEED_RESCHED that the hypervisor ignores. arm64: the count is
 * in each task's thread_info, so every CPU registers a word of this module
 * (HV_SMCCC_PREEMPT_COUNT) that holds the physical address of the running task's count,
 * rewritten at every task switch from the sched_switch tracepoint. The tracepoint fires
 * in __schedule with interrupts masked, which stay masked until the switch is over: the
 * hypervisor sees that window as a section by the interrupt state, whichever task's
 * count the word names then (a kernel without CONFIG_PREEMPT_COUNT, such as Debian's
 * arm64 one, leaves the count 0 in spin_lock: there only sections with softirqs off and
 * interrupt handlers show in it).
 * Prints "hvpreempt: registered the preempt count of N CPUs", or why it cannot (not this
 * hypervisor, or the VM's `pv` set lacks `preempt`: insmod then fails with ENODEV).
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/cpuhotplug.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/syscore_ops.h>

#include "hv_para.h"

static enum cpuhp_state hvp_state;
static atomic_t hvp_cpus = ATOMIC_INIT(0);

#ifdef CONFIG_ARM64
#include <linux/arm-smccc.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "hv_stats.h"

/* Per CPU, the physical address of the running task's 32-bit count: kmalloc'ed (in the
 * linear map, so virt_to_phys() holds), a cache line each. */
struct hvp_word {
	u64 running;
} ____cacheline_aligned;
static struct hvp_word *hvp_words;
static struct tracepoint *hvp_tp;

/* The boot CPU's idle task is in the kernel image, every other task in the linear map. */
static u64 hvp_count_pa(struct task_struct *t)
{
	if (t == &init_task)
		return __pa_symbol(&init_task.thread_info.preempt.count);
	return virt_to_phys(&task_thread_info(t)->preempt.count);
}

static void hvp_switch(void *data, bool preempt, struct task_struct *prev, struct task_struct *next,
		       unsigned int prev_state)
{
	WRITE_ONCE(hvp_words[smp_processor_id()].running, hvp_count_pa(next));
}

static void hvp_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		hvp_tp = tp;
}

static long hvp_register(u64 reg)
{
	struct arm_smccc_res res;

	arm_smccc_1_1_invoke(HV_SMCCC_PREEMPT_COUNT, reg, &res);
	return (long)res.a0;
}

/* Runs on `cpu` itself (an AP hotplug state). */
static int hvp_online(unsigned int cpu)
{
	phys_addr_t pa = virt_to_phys(&hvp_words[cpu]);

	preempt_disable();
	WRITE_ONCE(hvp_words[cpu].running, hvp_count_pa(current));
	preempt_enable();
	if (hvp_register(pa | 1)) {
		pr_err("hvpreempt: cpu%u: the hypervisor refused %pa\n", cpu, &pa);
		return -EIO;
	}
	atomic_inc(&hvp_cpus);
	return 0;
}

static void hvp_unregister_this_cpu(void) { hvp_register(0); }

/* This hypervisor answers its stats call (the vendor range is shared with others: KVM
 * has its own functions there), and the VM offers the preempt count. */
static int hvp_arch_init(void)
{
	struct hv_guest_stats *s = kmalloc(sizeof(*s), GFP_KERNEL);
	bool ours = s && hv_stats_read(s);
	int ret;

	kfree(s);
	if (!ours) {
		pr_info("hvpreempt: not the hv hypervisor (no answer to its stats call)\n");
		return -ENODEV;
	}
	if (hvp_register(0) == SMCCC_RET_NOT_SUPPORTED) {
		pr_info("hvpreempt: the VM does not offer it (its pv set lacks preempt)\n");
		return -ENODEV;
	}
	for_each_kernel_tracepoint(hvp_find_tp, NULL);
	if (!hvp_tp) {
		pr_err("hvpreempt: no sched_switch tracepoint in this kernel\n");
		return -ENODEV;
	}
	hvp_words = kcalloc(nr_cpu_ids, sizeof(*hvp_words), GFP_KERNEL);
	if (!hvp_words)
		return -ENOMEM;
	ret = tracepoint_probe_register(hvp_tp, hvp_switch, NULL);
	if (ret) {
		pr_err("hvpreempt: cannot attach to sched_switch (%d)\n", ret);
		kfree(hvp_words);
	}
	return ret;
}

/* After every CPU unregistered its word. */
static void hvp_arch_exit(void)
{
	tracepoint_probe_unregister(hvp_tp, hvp_switch, NULL);
	tracepoint_synchronize_unregister();
	kfree(hvp_words);
}
#else
#include <asm/msr.h>
#include <asm/pgtable_types.h>
#include <asm/processor.h>

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

static void hvp_unregister_this_cpu(void) { wrmsrl_safe(HV_MSR_PREEMPT_COUNT, 0); }

static int hvp_arch_init(void)
{
	unsigned int eax, ebx, ecx, edx;

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
	return 0;
}

static void hvp_arch_exit(void) {}
#endif

static int hvp_offline(unsigned int cpu)
{
	hvp_unregister_this_cpu();
	atomic_dec(&hvp_cpus);
	return 0;
}

/* A reboot or kexec: the CPU that does it unregisters (the others go offline), so that
 * the next kernel does not find its memory named as a preempt count. */
static void hvp_shutdown(void) { hvp_unregister_this_cpu(); }

static struct syscore_ops hvp_syscore = { .shutdown = hvp_shutdown };

static int __init hvp_init(void)
{
	int ret = hvp_arch_init();

	if (ret)
		return ret;
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "hv/preempt_count:online", hvp_online,
				hvp_offline);
	if (ret < 0) {
		hvp_arch_exit();
		return ret;
	}
	hvp_state = ret;
	register_syscore_ops(&hvp_syscore);
	pr_info("hvpreempt: registered the preempt count of %d CPUs\n", atomic_read(&hvp_cpus));
	return 0;
}

static void __exit hvp_exit(void)
{
	unregister_syscore_ops(&hvp_syscore);
	cpuhp_remove_state(hvp_state);
	hvp_arch_exit();
	pr_info("hvpreempt: unregistered\n");
}

module_init(hvp_init);
module_exit(hvp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Publishes the preempt count to the hv hypervisor");
