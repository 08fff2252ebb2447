/* SPDX-License-Identifier: GPL-2.0-only */
/* The hardware self-test's report: see selftest.h. */
#include "hv/selftest.h"
#include "hv/console.h"
#include "hv/arch.h"
#include "hv/lib.h"
#include "hv/on_exit.h"
#include "hv/sched.h"
#include "hv/vm.h"

static bool running;
static struct vm *const *st_vms;
static u32 st_n;
static u64 deadline;

/* pCPU 0's housekeeping: the VMs still running past the deadline are stopped. */
static void watch(void)
{
	if (!__atomic_load_n(&running, __ATOMIC_ACQUIRE) || arch_time_now() < deadline)
		return;
	deadline = ~0ull;
	for (u32 i = 0; i < st_n; i++)
		if (st_vms[i]->stop_reason == VM_RUNNING) {
			printk("hv: self-test: VM '%s' has not finished in %u s; stopping it\n",
			       st_vms[i]->name, SELFTEST_TIMEOUT_S);
			vm_request_stop(st_vms[i], VM_FATAL);
		}
}

struct vm_result {
	bool done, failed;
	char cost[2][96]; /* "icr: unicast-wait=...", "pv: ..." as the guest printed them */
};

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* What the VM's guest said, from its console lines. */
static void read_result(const char *name, const char *tag, struct vm_result *r)
{
	static char tail[CONSOLE_TAIL + 1]; /* the report runs once */
	size_t n = console_tail(name, tail, CONSOLE_TAIL);
	*r = (struct vm_result){ 0 };
	if (n == (size_t)-1)
		return;
	tail[n] = 0;
	for (char *line = tail, *next; *line; line = next) {
		char *end = strchr(line, '\n');
		next = end ? end + 1 : line + strlen(line);
		if (end)
			*end = 0;
		if (!starts(line, tag))
			continue;
		const char *what = line + strlen(tag);
		if (starts(what, "DONE"))
			r->done = true;
		else if (starts(what, "FAIL"))
			r->failed = true;
		else if (starts(what, "ipicost icr: "))
			strlcpy(r->cost[0], what + strlen("ipicost "), sizeof r->cost[0]);
		else if (starts(what, "ipicost pv: "))
			strlcpy(r->cost[1], what + strlen("ipicost "), sizeof r->cost[1]);
	}
}

/* At the end of the run (hv_exit): the table and the verdict, once. */
static void report(void)
{
	if (!__atomic_exchange_n(&running, false, __ATOMIC_ACQ_REL))
		return;
	const struct selftest_vm *vms = arch_selftest_vms();
	const char *tag;
	u64 len;
	arch_selftest_guest(&len, &tag);
	struct vm_result res[SELFTEST_MAX_VMS];
	struct selftest_feature f[SELFTEST_MAX_FEATURES];
	u32 nvms = 0, nf = arch_selftest_features(f, SELFTEST_MAX_FEATURES), failed = 0;
	printk("hv: self-test: %-30s %-6s %s\n", "VM (built-in guest)", "result",
	       "how its interrupts went");
	for (; vms && vms[nvms].name && nvms < SELFTEST_MAX_VMS; nvms++) {
		struct vm_result *r = &res[nvms];
		read_result(vms[nvms].name, tag, r);
		bool pass = r->done && !r->failed;
		failed += !pass;
		printk("hv: self-test: %-30s %-6s %s\n", vms[nvms].name, pass ? "pass" : "fail",
		       vms[nvms].apicv_off ? "emulated APIC (injected by the hypervisor)"
					   : "the CPU's APIC virtualization");
	}
	printk("hv: self-test: %-30s %-6s %s\n", "feature", "result", "used by / without it");
	for (u32 i = 0; i < nf; i++) {
		const char *result = !f[i].present ? "absent" : f[i].unused ? "unused" : "pass";
		for (u32 k = 0; k < nvms && f[i].present && !f[i].unused; k++)
			if ((!f[i].vm || !strcmp(f[i].vm, vms[k].name)) &&
			    (!res[k].done || res[k].failed))
				result = "fail";
		printk("hv: self-test: %-30s %-6s %s\n", f[i].name, result,
		       f[i].how	 ? f[i].how
		       : f[i].vm ? f[i].vm
				 : "every VM");
	}
	printk("hv: self-test: speculation: %s\n", arch_speculation());
	printk("hv: self-test: IPI costs in TSC cycles (the guest's vCPU 0 to vCPU 1, and to all "
	       "others; each the mean of its rounds)\n");
	for (u32 k = 0; k < nvms; k++)
		for (u32 p = 0; p < 2; p++)
			printk("hv: self-test: %-30s %s\n", vms[k].name,
			       res[k].cost[p][0] ? res[k].cost[p] : "(none)");
	printk("hv: self-test: %s (%u of %u VMs passed)\n", failed ? "FAIL" : "PASS", nvms - failed,
	       nvms);
}

void selftest_start(struct vm *const *vms, u32 n)
{
	st_vms = vms;
	st_n = n;
	deadline = arch_time_now() + SELFTEST_TIMEOUT_S * arch_time_hz;
	__atomic_store_n(&running, true, __ATOMIC_RELEASE);
	sched_add_housekeeping(watch);
	on_exit_add_report(report);
}
