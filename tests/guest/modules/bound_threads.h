/* SPDX-License-Identifier: GPL-2.0 */
/* The guest benchmarks' threads: one kthread bound to each CPU of a mask, created
 * stopped, released together by the caller, and stopped by it once they are done. */
#ifndef GUEST_TOOLS_BOUND_THREADS_H
#define GUEST_TOOLS_BOUND_THREADS_H

#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/sched.h>

/* Creates fn(data) on each CPU of cpus into tasks[] (nr_cpu_ids entries), not woken yet;
 * returns how many, or a negative error after stopping those already made (not woken,
 * kthread_stop() ends them without running fn). */
static inline int bound_threads_create(int (*fn)(void *), void *data, const struct cpumask *cpus,
				       const char *name, struct task_struct **tasks)
{
	int cpu, n = 0;

	for_each_cpu(cpu, cpus)
	{
		tasks[n] = kthread_create_on_cpu(fn, data, cpu, name);
		if (IS_ERR(tasks[n])) {
			int err = PTR_ERR(tasks[n]);

			while (n)
				kthread_stop(tasks[--n]);
			return err;
		}
		n++;
	}
	return n;
}

static inline void bound_threads_wake(struct task_struct **tasks, int n)
{
	while (n)
		wake_up_process(tasks[--n]);
}

static inline void bound_threads_stop(struct task_struct **tasks, int n)
{
	while (n)
		kthread_stop(tasks[--n]);
}

/* The end of a thread's work: it leaves only through kthread_stop(), so that the
 * caller's task pointers and the module text outlive it. */
static inline int bound_threads_wait_for_stop(void)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

#endif
