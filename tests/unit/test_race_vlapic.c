/* SPDX-License-Identifier: GPL-2.0-only */
/* The virtual local APIC and the x86 interrupt routing (arch/x86/vlapic.c, virq.c) on
 * the racing machine of race.h. vCPU 0 sends through the PV IPI path (x86_deliver_to, as
 * KVM_HC_SEND_IPI does), vCPU 2 writes its x2APIC ICR (the routing of lapic_send_ipi),
 * each its own vector. The target enters as the SVM backend injects: the highest
 * pending vector above the PPR, one per entry (vlapic_ack), and asks for an interrupt
 * window when more wait; its guest EOIs each vector it took. vCPU 0's vector has the
 * lower priority: beside vCPU 2's it may wait. The protocol is the one of
 * vcpu_kick (hv/vm.h): the IRR bit is set (seq_cst) before the kick, and the target reads
 * the IRR after sched_enter_guest, with no cache in between. */
#include "../../hv/sched.c"
#include "../../arch/x86/vlapic.c"
#include "../../arch/x86/virq.c"
#include "race.h"

#define MSR_X2APIC_EOI 0x80b
#define MSR_X2APIC_SVR 0x80f
#define MSR_X2APIC_ICR 0x830

static struct vcpu vcpus[3];

void *alloc_pages(u64 n) /* virq.c's register pages: zeroed, as the hypervisor's */
{
	void *p = aligned_alloc(PAGE_SIZE, n * PAGE_SIZE);
	return memset(p, 0, n * PAGE_SIZE);
}

/* virq.c's IOAPIC side: no IOAPIC here. */
void vioapic_init(struct vioapic *io, u8 id, const struct vioapic_ops *ops, void *ctx)
{
	(void)io, (void)id, (void)ops, (void)ctx;
}
void vioapic_eoi(struct vioapic *io, u8 vector) { (void)io, (void)vector; }

static void send(u32 sender, u32 vector)
{
	u32 target = TARGET;

	/* (No CHECK on these threads: the harness's counters are the main thread's.) */
	if (sender == 0)
		x86_deliver_to(&vcpus[0], &target, 1, APIC_DM_FIXED, (u8)vector);
	else if (vlapic_wrmsr(&vcpus[sender].arch.lapic, MSR_X2APIC_ICR, (u64)TARGET << 32 | vector,
			      0)) /* physical, fixed, edge */
		abort();
}

static u32 enter(u32 *irqs, u32 max)
{
	int vec = vlapic_pending_vector(&vcpus[TARGET].arch.lapic);

	if (vec < 0 || !max)
		return 0;
	vlapic_ack(&vcpus[TARGET].arch.lapic, (u8)vec);
	irqs[0] = (u32)vec;
	return 1;
}

static void handled(u32 vector)
{
	(void)vector;
	if (vlapic_wrmsr(&vcpus[TARGET].arch.lapic, MSR_X2APIC_EOI, 0, 0))
		abort();
}

/* Another vector already waits: the backend exits as soon as the guest can take it. */
static bool window(void) { return vlapic_pending_vector(&vcpus[TARGET].arch.lapic) >= 0; }
static void exit_guest(void) {}

int main(void)
{
	static const struct race_ops ops = { send, enter, handled, window, exit_guest, "vector" };
	struct sender senders[NSENDERS] = { { .vcpu = 0, .irq = 0x41, .may_wait = true },
					    { .vcpu = 2, .irq = 0xb2 } };
	struct vcpu *v[3] = { &vcpus[0], &vcpus[1], &vcpus[2] };

	for (u32 i = 0; i < 3; i++) {
		vcpus[i].vm = &race_vm;
		vcpus[i].id = i; /* its APIC ID */
		x86_vcpu_irq_init(&vcpus[i]);
		CHECK_EQ(vlapic_wrmsr(&vcpus[i].arch.lapic, MSR_X2APIC_SVR, 0x1ff, 0), 0);
	}
	return race_main(&ops, v, senders);
}
