/* SPDX-License-Identifier: GPL-2.0-only */
/* The x86 side of the racing machine (race.h), shared by test_race_vlapic.c and
 * test_race_posted.c: the real vLAPIC and routing (arch/x86/irq/vlapic.c, virq.c) and the
 * kick protocol (hv/sched.c), three vCPUs with x2APICs. vCPU 0 sends through the PV IPI
 * path (x86_deliver_to, as KVM_HC_SEND_IPI does), vCPU 2 writes its x2APIC ICR (the
 * routing of lapic_send_ipi), each its own vector; the target's guest EOIs each vector it
 * took. */
#ifndef TESTS_UNIT_RACE_X86_H
#define TESTS_UNIT_RACE_X86_H

#include "../../../hv/sched.c"
#include "../../../arch/x86/irq/vlapic.c"
#include "../../../arch/x86/irq/virq.c"
#include "../race.h"

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

static void handled(u32 vector)
{
	(void)vector;
	if (vlapic_wrmsr(&vcpus[TARGET].arch.lapic, MSR_X2APIC_EOI, 0, 0))
		abort();
}

/* The senders: vCPU 0's vector has the lower priority, so beside vCPU 2's it may wait. */
static struct sender x86_senders[NSENDERS] = { { .vcpu = 0, .irq = 0x41, .may_wait = true },
					       { .vcpu = 2, .irq = 0xb2 } };

/* The three vCPUs, their APICs software-enabled; then both runs. */
static void race_x86_main(const struct race_ops *ops, bool cpu_delivers)
{
	struct vcpu *v[3] = { &vcpus[0], &vcpus[1], &vcpus[2] };

	for (u32 i = 0; i < 3; i++) {
		vcpus[i].vm = &race_vm;
		vcpus[i].id = i; /* its APIC ID */
		x86_vcpu_irq_init(&vcpus[i]);
		/* x2APIC mode, as Linux switches at boot */
		CHECK_EQ(vlapic_wrmsr(&vcpus[i].arch.lapic, MSR_IA32_APIC_BASE,
				      APIC_DEFAULT_BASE | APIC_BASE_EN | APIC_BASE_EXTD, 0),
			 0);
		CHECK_EQ(vlapic_wrmsr(&vcpus[i].arch.lapic, MSR_X2APIC_SVR, 0x1ff, 0), 0);
	}
	vcpus[TARGET].arch.lapic.cpu_delivers = vcpus[TARGET].arch.lapic.posted_requests =
		cpu_delivers;
	race_main(ops, v, x86_senders);
}

#endif
