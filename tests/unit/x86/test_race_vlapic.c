/* SPDX-License-Identifier: GPL-2.0-only */
/* The virtual local APIC and the x86 interrupt routing (arch/x86/irq/vlapic.c, virq.c) on
 * the racing machine of race.h, with the senders of race_x86.h. The target enters as a
 * backend that emulates the APIC does: the real injection policy (arch/x86/irq/inject.c) over
 * a model of the vendor's mechanisms, in which the guest can always take an interrupt and
 * takes the one injected; its EOI exits (an x2APIC MSR write), and the next entry injects
 * what waits. The protocol is the one of vcpu_kick (hv/vm.h): the IRR bit is set
 * (seq_cst) before the kick, and the target reads the IRR after sched_enter_guest, with no
 * cache in between. */
#include "race_x86.h"
#include "../../../arch/x86/irq/inject.c"

/* The model vendor: only the target's pCPU uses it. */
static int injected = -1;
static bool window_asked;

static void begin(struct vcpu *v, bool window)
{
	(void)v, (void)window;
	injected = -1;
	window_asked = false;
}
static struct x86_event no_cut_short(struct vcpu *v)
{
	(void)v;
	return (struct x86_event){ X86_EVENT_NONE, 0 };
}
static void no_event(struct vcpu *v) { (void)v; }
static bool no(struct vcpu *v)
{
	(void)v;
	return false;
}
static bool yes(struct vcpu *v)
{
	(void)v;
	return true;
}
static void inject_irq(struct vcpu *v, u8 vector)
{
	(void)v;
	injected = vector;
}
static void ask_window(struct vcpu *v)
{
	(void)v;
	window_asked = true;
}

static const struct x86_vendor model = {
	.name = "model",
	.events_begin = begin,
	.cut_short = no_cut_short,
	.redeliver = no_event,
	.drop_cut_short = no_event,
	.exception_queued = no,
	.nmi_blocked = no,
	.unblock_nmi = no_event,
	.inject_nmi = no_event,
	.request_nmi_window = no_event,
	.cpu_delivers = no,
	.inject_irq = inject_irq,
	.request_irq_window = ask_window,
	.interruptible = yes,
};
const struct x86_vendor *x86_vendor = &model;

static u32 enter(u32 *irqs, u32 max)
{
	x86_inject_events(&vcpus[TARGET], false);
	if (injected < 0 || !max)
		return 0;
	irqs[0] = (u32)injected;
	return 1;
}

/* The guest's EOI of what it took exits, as a window asked for does. */
static bool window(void) { return window_asked || injected >= 0; }
static void exit_guest(void) {}

int main(void)
{
	static const struct race_ops ops = { send,	 enter,	   handled, window,
					     exit_guest, "vector", NULL,    NULL };
	race_x86_main(&ops, false);
	return test_summary();
}
