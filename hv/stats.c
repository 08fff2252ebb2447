/* SPDX-License-Identifier: GPL-2.0-only */
#include "stats.h"

const char *exit_kind_name(enum exit_kind k)
{
	static const char *const names[EXIT_KINDS] = {
		[EXIT_HOST_IRQ] = "host-irq",	[EXIT_IO] = "io",
		[EXIT_MMIO] = "mmio",		[EXIT_MSR] = "msr",
		[EXIT_CPUID] = "cpuid",		[EXIT_HALT] = "halt",
		[EXIT_HYPERCALL] = "hypercall", [EXIT_IRQ_WINDOW] = "irq-window",
		[EXIT_EXCEPTION] = "exception", [EXIT_SHUTDOWN] = "shutdown",
		[EXIT_OTHER] = "other",
	};
	return k < EXIT_KINDS ? names[k] : "?";
}

void stats_add(struct vcpu_stats *sum, const struct vcpu_stats *v)
{
	/* the counters that are not sums */
	u64 wake_max = MAX(sum->wake_latency_max_ns, v->wake_latency_max_ns);
	u64 steal_max = MAX(sum->steal_max_ns, v->steal_max_ns);
	const u64 *src = (const u64 *)v;
	u64 *dst = (u64 *)sum;
	for (size_t i = 0; i < sizeof(*v) / sizeof(u64); i++)
		dst[i] += src[i];
	sum->wake_latency_max_ns = wake_max;
	sum->steal_max_ns = steal_max;
}

u64 stats_exits(const struct vcpu_stats *s)
{
	u64 n = 0;
	for (int k = 0; k < EXIT_KINDS; k++)
		n += s->exits[k];
	return n;
}

u64 wake_latency_mean_ns(const struct vcpu_stats *s)
{
	return s->wake_latency_n ? s->wake_latency_sum_ns / s->wake_latency_n : 0;
}
