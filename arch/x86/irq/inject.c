/* SPDX-License-Identifier: GPL-2.0-only */
/* The x86 injection policy: see inject.h. */
#include "arch/x86/irq/inject.h"
#include "arch/x86/vendor.h"
#include "arch/x86/irq/vlapic.h"

/* An exception from the exit's handler goes before the event whose delivery the exit cut
 * short, as on a CPU (benign exceptions are handled serially, SDM vol. 3A 6.15; APM 15.7.2):
 * an interrupted exception recurs when its instruction runs again, an interrupt goes back
 * to the vLAPIC's IRR, an NMI waits as pending with NMIs unblocked (they were blocked when
 * its delivery began). */
static void requeue(struct vcpu *v, struct x86_event cut)
{
	if (cut.kind == X86_EVENT_IRQ)
		vlapic_unack(&v->arch.lapic, cut.vector);
	if (cut.kind == X86_EVENT_NMI) {
		x86_vendor->unblock_nmi(v);
		__atomic_fetch_add(&v->arch.nmi_pending, 1, __ATOMIC_RELEASE);
	}
	if (cut.kind != X86_EVENT_NONE)
		x86_vendor->drop_cut_short(v);
}

/* The NMIs a CPU would still deliver of those sent: while one is being handled (NMIs
 * blocked) it latches one more, else two: the one it delivers and one behind it (SDM vol.
 * 3A, 6.7.1; KVM's process_nmi). More collapse into those, as on a CPU. */
static u32 nmis_waiting(struct vcpu *v)
{
	u32 limit = x86_vendor->nmi_blocked(v) ? 1 : 2;
	u32 n = __atomic_load_n(&v->arch.nmi_pending, __ATOMIC_ACQUIRE);
	while (n > limit && !__atomic_compare_exchange_n(&v->arch.nmi_pending, &n, limit, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		;
	return MIN(n, limit);
}

static bool irq_waits(struct vcpu *v)
{
	return !x86_vendor->cpu_delivers(v) && vlapic_pending_vector(&v->arch.lapic) >= 0;
}

void x86_inject_events(struct vcpu *v, bool section_end)
{
	const struct x86_vendor *vd = x86_vendor;
	bool window = section_end && !vd->interruptible(v);
	vd->events_begin(v, window);
	if (window)
		vd->request_irq_window(v);
	struct x86_event cut = vd->cut_short(v);
	if (vd->exception_queued(v)) {
		requeue(v, cut);
		/* What waits follows at its window. */
		if (irq_waits(v))
			vd->request_irq_window(v);
		if (__atomic_load_n(&v->arch.nmi_pending, __ATOMIC_ACQUIRE))
			vd->request_nmi_window(v);
		return;
	}
	if (cut.kind != X86_EVENT_NONE) {
		vd->redeliver(v);
		return;
	}
	if (nmis_waiting(v)) {
		if (!vd->nmi_blocked(v)) {
			__atomic_fetch_sub(&v->arch.nmi_pending, 1, __ATOMIC_ACQ_REL);
			vd->inject_nmi(v);
			v->stats.nmis_injected++;
			if (irq_waits(v))
				vd->request_irq_window(v); /* the interrupt next */
			return;
		}
		vd->request_nmi_window(v);
	}
	if (vd->cpu_delivers(v))
		return; /* the CPU delivers from the IRR */
	int vec = vlapic_pending_vector(&v->arch.lapic);
	if (vec < 0)
		return;
	if (vd->interruptible(v)) {
		vlapic_ack(&v->arch.lapic, (u8)vec);
		vd->inject_irq(v, (u8)vec);
	} else {
		vd->request_irq_window(v);
	}
}
