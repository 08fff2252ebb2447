/* SPDX-License-Identifier: GPL-2.0-only */
/* VM lifetime: creation from the configuration, stop, and the report printed when the
 * last vCPU of a VM has stopped. */
#include "vm.h"
#include "guest_abi/hv_para.h"
#include "arch.h"
#include "hv/vm_config.h"
#include "console.h"
#include "lib.h"
#include "mem.h"
#include "sched.h"

struct vm *vm_create(u32 id, const struct vm_config *cfg, void *ram, const struct guest_images *img)
{
	struct vm *vm = alloc_zeroed(sizeof(*vm));
	vm->id = id;
	strlcpy(vm->name, cfg->name, sizeof vm->name);
	vm->ram = ram;
	vm->ram_size = cfg->memory;
	vm->nvcpus = cfg->vcpus;
	vm->pv = cfg->pv & arch_pv_features;
	vm->apicv_off = cfg->apicv_off;
	struct pcpu_set affinity = pcpu_set_first(npcpus);
	if (!pcpu_set_empty(&cfg->pcpu_set))
		pcpu_set_and(&affinity, &cfg->pcpu_set);
	if (pcpu_set_empty(&affinity)) {
		printk("hv: VM '%s': pcpus (line %d) names no pCPU of the %u that run here "
		       "(0..%u)\n",
		       vm->name, cfg->pcpus_line, npcpus, npcpus - 1);
		return NULL;
	}
	for (u32 i = 0; i < vm->nvcpus; i++) {
		struct vcpu *v = alloc_zeroed(sizeof(*v));
		v->vm = vm;
		v->id = i;
		v->affinity = affinity;
		v->state = i == 0 ? VCPU_RUNNABLE : VCPU_WAIT_START;
		vm->vcpus[i] = v;
	}
	if (arch_vm_create(vm, cfg, img))
		return NULL;
	for (u32 i = 0; i < vm->nvcpus; i++) {
		if (arch_vcpu_create(vm->vcpus[i]))
			return NULL;
		sched_place(vm->vcpus[i]);
	}
	return vm;
}

int vm_linux_initrd(const struct vm *vm, const struct vm_config *cfg,
		    const struct guest_images *img, struct guest_file *rd)
{
	*rd = (struct guest_file){ 0 };
	if (img->ninitrds > 1) {
		printk("hv: VM '%s': %s:%d: initrd names %u files; a Linux kernel takes one (a "
		       "multiboot kernel takes several, as its modules)\n",
		       vm->name, config_file, cfg->initrd_line, img->ninitrds);
		return -1;
	}
	if (img->ninitrds)
		*rd = img->initrd[0];
	return 0;
}

#define BAD_ACCESSES_LOGGED 8

void vcpu_bad_access(struct vcpu *v, const char *fmt, ...)
{
	if (v->stats.bad_accesses++ >= BAD_ACCESSES_LOGGED)
		return;
	char what[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	printk("hv: VM '%s' vcpu%u: %s\n", v->vm->name, v->id, what);
}

bool vm_request_stop(struct vm *vm, enum vm_stop_reason why)
{
	enum vm_stop_reason running = VM_RUNNING;
	if (!__atomic_compare_exchange_n(&vm->stop_reason, &running, why, false, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		return false;
	for (u32 i = 0; i < vm->nvcpus; i++)
		vcpu_kick(vm->vcpus[i]);
	return true;
}

bool vm_stopping(const struct vm *vm)
{
	return __atomic_load_n(&vm->stop_reason, __ATOMIC_ACQUIRE) != VM_RUNNING;
}

const char *vm_stop_reason_name(enum vm_stop_reason r)
{
	switch (r) {
	case VM_RUNNING:
		return "running";
	case VM_POWEROFF:
		return "powered off";
	case VM_RESET:
		return "reset";
	case VM_TRIPLE_FAULT:
		return "triple fault";
	case VM_FATAL:
		return "stopped by a fatal error";
	case VM_EXIT_PORT:
		return "stopped by its exit port";
	}
	return "?";
}

void vm_stats(const struct vm *vm, struct vcpu_stats *sum)
{
	*sum = (struct vcpu_stats){ 0 };
	for (u32 i = 0; i < vm->nvcpus; i++)
		stats_add(sum, &vm->vcpus[i]->stats);
}

s64 vm_copy_guest_stats(struct vcpu *v, u64 gpa, u64 len)
{
	struct vm *vm = v->vm;
	struct hv_guest_stats st = { .version = HV_STATS_VERSION };
	_Static_assert(HV_STATS_EXIT_KINDS == EXIT_KINDS, "guest ABI exit kinds");
	struct vcpu_stats sum;
	vm_stats(vm, &sum);
	for (int k = 0; k < EXIT_KINDS; k++)
		st.exits_by_kind[k] = sum.exits[k];
	st.exits = stats_exits(&sum);
	st.ipis_pv = sum.ipi_pv;
	st.ipis_icr = sum.ipi_icr;
	st.ipis_self = sum.ipi_self;
	st.irqs_injected = sum.irqs_injected;
	st.kicks = sum.kicks_sent;
	st.yields = sum.yields;
	st.steal_ns = sum.steal_ns;
	st.wake_latency_sum_ns = sum.wake_latency_sum_ns;
	st.wakes = sum.wake_latency_n;
	st.wake_latency_max_ns = sum.wake_latency_max_ns;
	st.wake_preempts = sum.wake_preempts;
	st.spin_exits = sum.spin_exits;
	st.migrations = sum.migrations;
	st.critical_preemptions = sum.critical_preemptions;
	st.boosts = sum.boosts;
	st.preempt_count_hits = sum.preempt_count_hits;
	st.kicks_deferred = sum.kicks_deferred;
	len = MIN(len, sizeof st);
	void *dst = gpa_to_hva(vm, gpa, len);
	if (!dst) {
		v->stats.bad_accesses++;
		return -1;
	}
	st.size = (u32)len;
	memcpy(dst, &st, len);
	return (s64)len;
}

static void report(struct vm *vm)
{
	struct vcpu_stats sum;
	vm_stats(vm, &sum);
	u64 total = stats_exits(&sum);
	console_unregister_vm(vm);
	/* One printk per line: another VM's output cannot come in between. */
	char line[400];
	int n = snprintf(line, sizeof line, "hv: VM '%s' %s; %llu exits:", vm->name,
			 vm_stop_reason_name(vm->stop_reason), (unsigned long long)total);
	for (int k = 0; k < EXIT_KINDS && n < (int)sizeof line; k++)
		if (sum.exits[k])
			n += snprintf(line + n, sizeof line - (size_t)n, " %s=%llu",
				      exit_kind_name(k), (unsigned long long)sum.exits[k]);
	printk("%s\n", line);
	/* Interrupts and the guest's bad accesses on one line, scheduling on the next: each
	 * within PRINTK_MAX whatever the counts (at most about 700 and 460 bytes). */
	printk("hv: VM '%s' interrupts injected=%llu nmi=%llu; "
	       "IPIs fixed=%llu nmi=%llu init=%llu sipi=%llu, by path icr=%llu pv=%llu self=%llu; "
	       "lazy-eois=%llu cpu-delivered=%llu virtual-eois=%llu kicks=%llu kicks-deferred=%llu "
	       "notified=%llu not-running=%llu no-target=%llu fallback-window=%llu "
	       "fallback-apic-mode=%llu bad-accesses=%llu unclaimed-io=%llu\n",
	       vm->name, (unsigned long long)sum.irqs_injected,
	       (unsigned long long)sum.nmis_injected, (unsigned long long)sum.ipi_fixed,
	       (unsigned long long)sum.ipi_nmi, (unsigned long long)sum.ipi_init,
	       (unsigned long long)sum.ipi_sipi, (unsigned long long)sum.ipi_icr,
	       (unsigned long long)sum.ipi_pv, (unsigned long long)sum.ipi_self,
	       (unsigned long long)sum.lazy_eois, (unsigned long long)sum.irqs_cpu_delivered,
	       (unsigned long long)sum.virtual_eois, (unsigned long long)sum.kicks_sent,
	       (unsigned long long)sum.kicks_deferred, (unsigned long long)sum.notifications_sent,
	       (unsigned long long)sum.ipi_not_running, (unsigned long long)sum.ipi_no_target,
	       (unsigned long long)sum.fallback_window, (unsigned long long)sum.fallback_apic_mode,
	       (unsigned long long)sum.bad_accesses, (unsigned long long)vm->bus.unclaimed);
	printk("hv: VM '%s' scheduling wakeups=%llu yields=%llu "
	       "run=%llums steal=%llums steal-max=%lluus wake-latency max=%lluus mean=%lluus "
	       "wake-preempts=%llu spin-exits=%llu migrations=%llu critical-preemptions=%llu "
	       "boosts=%llu preempt-count-hits=%llu\n",
	       vm->name, (unsigned long long)sum.wakeups, (unsigned long long)sum.yields,
	       (unsigned long long)(sum.run_ns / 1000000),
	       (unsigned long long)(sum.steal_ns / 1000000),
	       (unsigned long long)(sum.steal_max_ns / 1000),
	       (unsigned long long)(sum.wake_latency_max_ns / 1000),
	       (unsigned long long)(wake_latency_mean_ns(&sum) / 1000),
	       (unsigned long long)sum.wake_preempts, (unsigned long long)sum.spin_exits,
	       (unsigned long long)sum.migrations, (unsigned long long)sum.critical_preemptions,
	       (unsigned long long)sum.boosts, (unsigned long long)sum.preempt_count_hits);
	for (u32 i = 0; i < vm->nvcpus; i++) {
		struct vcpu_stats *s = &vm->vcpus[i]->stats;
		printk("hv: VM '%s' vcpu%u (pcpu%u): exits=%llu irqs=%llu halts=%llu "
		       "wake-latency max=%lluus mean=%lluus wake-preempts=%llu "
		       "run=%llums steal=%llums steal-max=%lluus spin-exits=%llu yields=%llu "
		       "yields-received=%llu "
		       "critical-preemptions=%llu boosts=%llu migrations=%llu\n",
		       vm->name, i, vm->vcpus[i]->pcpu, (unsigned long long)stats_exits(s),
		       (unsigned long long)s->irqs_injected,
		       (unsigned long long)s->exits[EXIT_HALT],
		       (unsigned long long)(s->wake_latency_max_ns / 1000),
		       (unsigned long long)(wake_latency_mean_ns(s) / 1000),
		       (unsigned long long)s->wake_preempts,
		       (unsigned long long)(s->run_ns / 1000000),
		       (unsigned long long)(s->steal_ns / 1000000),
		       (unsigned long long)(s->steal_max_ns / 1000),
		       (unsigned long long)s->spin_exits, (unsigned long long)s->yields,
		       (unsigned long long)s->yields_received,
		       (unsigned long long)s->critical_preemptions, (unsigned long long)s->boosts,
		       (unsigned long long)s->migrations);
	}
}

void vm_vcpu_stopped(struct vcpu *v)
{
	struct vm *vm = v->vm;
	if (__atomic_add_fetch(&vm->vcpus_stopped, 1, __ATOMIC_SEQ_CST) == vm->nvcpus) {
		report(vm);
		sched_vm_gone();
	}
}

void vm_dump(struct vm *vm)
{
	static const char *const states[] = { "wait-start", "runnable", "halted", "stopped" };
	for (u32 i = 0; i < vm->nvcpus; i++) {
		struct vcpu *v = vm->vcpus[i];
		char arch[256];
		arch_vcpu_describe(v, arch, sizeof arch);
		u64 timer = arch_vcpu_next_timer(v), now = arch_time_now();
		printk("hv: VM '%s' vcpu%u pcpu%u %s%s%s: exits=%llu injected=%llu timer-in=%lldus "
		       "%s\n",
		       vm->name, i, v->pcpu, states[v->state], v->in_guest ? " in-guest" : "",
		       v->kick_pending ? " kick-pending" : "",
		       (unsigned long long)stats_exits(&v->stats),
		       (unsigned long long)v->stats.irqs_injected,
		       timer ? (long long)((s64)(timer - now) / (s64)(arch_time_hz / 1000000))
			     : -1ll,
		       arch);
	}
}
