/* SPDX-License-Identifier: GPL-2.0-only */
/* The virtual local APIC and the x86 interrupt routing (arch/x86/vlapic.c, virq.c) on
 * the racing machine of race.h, with the senders of race_x86.h. The target enters as the
 * SVM backend injects: the highest pending vector above the PPR, one per entry
 * (vlapic_ack), and asks for an interrupt window when more wait. The protocol is the one
 * of vcpu_kick (hv/vm.h): the IRR bit is set (seq_cst) before the kick, and the target
 * reads the IRR after sched_enter_guest, with no cache in between. */
#include "race_x86.h"

static u32 enter(u32 *irqs, u32 max)
{
	int vec = vlapic_pending_vector(&vcpus[TARGET].arch.lapic);

	if (vec < 0 || !max)
		return 0;
	vlapic_ack(&vcpus[TARGET].arch.lapic, (u8)vec);
	irqs[0] = (u32)vec;
	return 1;
}

/* Another vector already waits: the backend exits as soon as the guest can take it. */
static bool window(void) { return vlapic_pending_vector(&vcpus[TARGET].arch.lapic) >= 0; }
static void exit_guest(void) {}

int main(void)
{
	static const struct race_ops ops = { send,	 enter,	   handled, window,
					     exit_guest, "vector", NULL,    NULL };
	race_x86_main(&ops, false);
	return test_summary();
}
