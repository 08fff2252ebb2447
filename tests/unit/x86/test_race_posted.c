/* SPDX-License-Identifier: GPL-2.0-only */
/* Posted interrupts (VMX, SDM vol. 3C, 30.6) on the racing machine of race.h: the
 * vLAPIC's posted requests (arch/x86/irq/vlapic.c, cpu_delivers) with the real routing
 * (virq.c: vcpu_notify) and kick protocol (hv/sched.c: arch_notify_running for a target
 * in guest mode), a model of the CPU, and the senders of race_x86.h. The target's entry
 * is the VMX backend's: the posted requests moved into the IRR (vlapic_sync_pir), then
 * the CPU's virtual-interrupt delivery takes every vector above the PPR in turn, the
 * guest EOIing each, with no exit. A notification in guest mode is the CPU's
 * posted-interrupt processing: ON cleared, the PIR ORed into the IRR and cleared word by
 * word, then delivery as at the entry. The notify side is vmx.c's vmx_notify: ON set,
 * and the notification sent only by the sender that set it. An interrupt lost between a
 * sender's ON and the target's processing stays in the PIR with no exit to come: the
 * harness counts it lost. */
#include "race_x86.h"

static struct vlapic *target_apic = &vcpus[TARGET].arch.lapic;
static u64 notifications, posted_runs;

/* vmx_notify */
static bool notify(struct vcpu *v)
{
	if (vlapic_claim_notification(&v->arch.lapic)) {
		__atomic_fetch_add(&notifications, 1, __ATOMIC_RELAXED);
		race_notify();
	}
	return true;
}

/* The CPU's virtual-interrupt delivery from the IRR alone (it never reads the PIR): the
 * highest vector above the PPR, IRR to ISR; the guest's EOI (handled) ends it. */
static u32 cpu_deliver(u32 *irqs, u32 max)
{
	u32 n = 0;
	while (n < max) {
		int vec = -1;
		for (int i = 7; i >= 0 && vec < 0; i--) {
			u32 w = __atomic_load_n(&VLAPIC_VEC_WORD(target_apic, APIC_REG_IRR, i),
						__ATOMIC_ACQUIRE);
			if (w)
				vec = i * 32 + 31 - __builtin_clz(w);
		}
		if (vec < 0 || (u32)(vec >> 4) <= vlapic_ppr(target_apic) >> 4)
			break;
		vlapic_ack(target_apic, (u8)vec);
		irqs[n++] = (u32)vec;
	}
	return n;
}

static u32 enter(u32 *irqs, u32 max)
{
	vlapic_sync_pir(target_apic);
	return cpu_deliver(irqs, max);
}

/* SDM 30.6, steps 3-5 (the local APIC's EOI of the notification aside). */
static u32 posted(u32 *irqs, u32 max)
{
	struct vlapic_posted *d = &target_apic->posted;
	__atomic_fetch_and(&d->control, ~VLAPIC_POSTED_ON, __ATOMIC_SEQ_CST);
	for (int i = 0; i < 8; i++)
		__atomic_fetch_or(&VLAPIC_VEC_WORD(target_apic, APIC_REG_IRR, i),
				  __atomic_exchange_n(&d->pir[i], 0, __ATOMIC_SEQ_CST),
				  __ATOMIC_SEQ_CST);
	posted_runs++;
	return cpu_deliver(irqs, max);
}

static bool window(void) { return false; } /* the CPU delivers: no window exits */
static void exit_guest(void) {}

int main(void)
{
	static const struct race_ops ops = { send,	 enter,	   handled, window,
					     exit_guest, "vector", notify,  posted };
	race_x86_main(&ops, true);
	u64 sent = vcpus[0].stats.notifications_sent + vcpus[2].stats.notifications_sent;
	printf("notifications: %llu sent, %llu processed in guest mode; %llu interrupts "
	       "delivered to the running target without a kick\n",
	       (unsigned long long)notifications, (unsigned long long)posted_runs,
	       (unsigned long long)sent);
	/* Notifications reached the running guest. */
	CHECK(posted_runs > 0 && sent > 0);
	/* And a target out of guest mode (its pCPU idle) gets a kick, not a notification: set
	 * up here, since whether the race above sends one depends on how the host schedules
	 * its threads (none under load). */
	this_pcpu = 0;
	u64 kicks = vcpus[0].stats.kicks_sent, notes = vcpus[0].stats.notifications_sent;
	__atomic_store_n(&pcpu_idle[TARGET], true, __ATOMIC_SEQ_CST);
	vcpu_notify(&vcpus[TARGET]);
	CHECK_EQ(vcpus[0].stats.kicks_sent, kicks + 1);
	CHECK_EQ(vcpus[0].stats.notifications_sent, notes);
	CHECK(__atomic_load_n(&ipi[TARGET], __ATOMIC_SEQ_CST));
	return test_summary();
}
