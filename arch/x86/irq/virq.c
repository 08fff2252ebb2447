/* SPDX-License-Identifier: GPL-2.0-only */
/* Interrupt routing inside an x86 VM: IPIs written to a vCPU's ICR and IOAPIC messages
 * become IRR bits (or NMI/INIT/SIPI requests) on the destination vCPUs, and only those
 * vCPUs are kicked. Everything a sender touches on a target is atomic; the target's pCPU
 * acts on it before its next guest entry (arch_vcpu_poll, inject_pending). */
#include "arch/cpu.h"
#include "arch/x86/guest.h"
#include "arch/x86/irq/virq.h"
#include "hv/arch.h"
#include "hv/lib.h"
#include "hv/mem.h"

bool x86_ipi_target(const struct vcpu *t, const struct vcpu *src, u8 shorthand, u32 dest,
		    bool logical)
{
	switch (shorthand) {
	case APIC_SH_SELF:
		return t == src;
	case APIC_SH_ALL:
		return true;
	case APIC_SH_OTHERS:
		return t != src;
	}
	return vlapic_match_dest(&t->arch.lapic, dest, logical);
}

/* Delivers one message to one vCPU and kicks it; false if its APIC refused the vector. */
static bool deliver_one(struct vcpu *t, u8 mode, u8 vector, bool level, struct vcpu_stats *st)
{
	switch (mode) {
	case APIC_DM_FIXED:
	case APIC_DM_LOWEST:
		if (!vlapic_accept(&t->arch.lapic, vector, level))
			return false;
		if (st)
			st->ipi_fixed++;
		break;
	case APIC_DM_NMI:
		__atomic_fetch_add(&t->arch.nmi_pending, 1, __ATOMIC_RELEASE);
		if (st)
			st->ipi_nmi++;
		break;
	case APIC_DM_INIT:
		/* A STARTUP counts only after the INIT: drop any older one first. */
		__atomic_store_n(&t->arch.sipi_vector, -1, __ATOMIC_RELEASE);
		__atomic_store_n(&t->arch.init_pending, true, __ATOMIC_RELEASE);
		if (st)
			st->ipi_init++;
		break;
	case APIC_DM_STARTUP:
		__atomic_store_n(&t->arch.sipi_vector, vector, __ATOMIC_RELEASE);
		if (st)
			st->ipi_sipi++;
		break;
	default:
		return false; /* SMI, ExtINT: not modelled */
	}
	/* A level-triggered interrupt waits for the target's next entry (vlapic.h, held). */
	if ((mode == APIC_DM_FIXED || mode == APIC_DM_LOWEST) && !level)
		vcpu_notify(t);
	else
		vcpu_kick(t);
	return true;
}

/* Delivers one message to every matching vCPU; lowest-priority goes to the first match
 * (arbitration by priority is optional in x2APIC mode, SDM 10.6.2.4). */
static void deliver(struct vm *vm, struct vcpu *src, u8 shorthand, u32 dest, bool logical, u8 mode,
		    u8 vector, bool level, struct vcpu_stats *st)
{
	bool any = false;
	for (u32 i = 0; i < vm->nvcpus; i++) {
		struct vcpu *t = vm->vcpus[i];
		if (!x86_ipi_target(t, src, shorthand, dest, logical))
			continue;
		any = true;
		if (deliver_one(t, mode, vector, level, st) && mode == APIC_DM_LOWEST)
			return;
	}
	/* A CPU drops a message to an APIC ID nobody has; counted (an all-others IPI of a
	 * single vCPU is not one). */
	if (!any && st && shorthand == APIC_SH_NONE)
		st->ipi_no_target++;
}

u32 x86_deliver_to(struct vcpu *src, const u32 *ids, u32 n, u8 mode, u8 vector)
{
	u32 delivered = 0;
	for (u32 i = 0; i < n; i++)
		delivered += deliver_one(src->vm->vcpus[ids[i]], mode, vector, false, &src->stats);
	return delivered;
}

static void lapic_send_ipi(void *ctx, const struct vlapic_ipi *ipi)
{
	struct vcpu *src = ctx;
	/* INIT level de-assert (SDM 10.6.1): no effect on modern CPUs. */
	if (ipi->mode == APIC_DM_INIT && ipi->level_trigger && !ipi->level_assert)
		return;
	src->stats.ipi_icr++;
	deliver(src->vm, src, ipi->shorthand, ipi->dest, ipi->logical, ipi->mode, ipi->vector,
		false, &src->stats);
}

static void lapic_eoi_level(void *ctx, u8 vector)
{
	struct vm *vm = ((struct vcpu *)ctx)->vm;
	spin_lock(&vm->dev_lock);
	vioapic_eoi(&vm->arch.ioapic, vector);
	spin_unlock(&vm->dev_lock);
}

static void ioapic_deliver(void *ctx, u8 vector, u8 mode, bool logical, u32 dest, bool level)
{
	deliver(ctx, NULL, APIC_SH_NONE, dest, logical, mode, vector, level, NULL);
}

void x86_vcpu_irq_init(struct vcpu *v)
{
	static const struct vlapic_ops ops = { .send_ipi = lapic_send_ipi,
					       .eoi_level = lapic_eoi_level };
	vlapic_init(&v->arch.lapic, alloc_pages(1), v->id, v->id == 0, cpu_phys_bits(),
		    arch_time_hz, &ops, v);
}

void x86_vm_irq_init(struct vm *vm)
{
	static const struct vioapic_ops ops = { .deliver = ioapic_deliver };
	vioapic_init(&vm->arch.ioapic, (u8)vm->nvcpus, &ops, vm);
}
