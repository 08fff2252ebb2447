/* SPDX-License-Identifier: GPL-2.0-only */
/* PV EOI (KVM_FEATURE_PV_EOI, msr.rst MSR_KVM_PV_EOI_EN): while the only interrupt in
 * service is an edge-triggered one and nothing waits in the IRR, the hypervisor sets bit
 * 0 of a guest word; the guest's EOI then just clears the bit instead of writing the EOI
 * register (no exit), and the hypervisor completes the EOI at the next exit. */
#include "arch/x86/guest.h"
#include "arch/x86/irq/pv_eoi.h"
#include "guest_abi/kvm_para.h"

static u32 *word(struct vcpu *v)
{
	u64 msr = v->arch.pv_eoi_msr;
	if (!(msr & KVM_MSR_ENABLED))
		return NULL;
	return gpa_to_hva(v->vm, msr & ~3ull, sizeof(u32));
}

int pv_eoi_wrmsr(struct vcpu *v, u64 val)
{
	if (val & 2) /* reserved bit 1 (the word is 4-byte aligned) */
		return -1;
	pv_eoi_exit(v); /* settle a pending lazy EOI under the old address */
	v->arch.pv_eoi_msr = val;
	return 0;
}

/* After an exit: if the guest consumed the flag, it has done its EOI. */
void pv_eoi_exit(struct vcpu *v)
{
	if (!v->arch.pv_eoi_armed)
		return;
	v->arch.pv_eoi_armed = false;
	u32 *w = word(v);
	if (w && !(__atomic_fetch_and(w, ~(u32)KVM_PV_EOI_ENABLED, __ATOMIC_ACQ_REL) &
		   KVM_PV_EOI_ENABLED)) {
		vlapic_eoi(&v->arch.lapic);
		v->stats.lazy_eois++;
	}
}

/* The vector in service if there is exactly one, else -1. */
static int single_isr_bit(const struct vlapic *l)
{
	int found = -1;
	for (int i = 0; i < 8; i++) {
		u32 w = VLAPIC_VEC_WORD(l, APIC_REG_ISR, i);
		if (!w)
			continue;
		if (found >= 0 || (w & (w - 1)))
			return -1;
		found = i * 32 + __builtin_ctz(w);
	}
	return found;
}

/* Before an entry: arm the flag when the EOI can safely be lazy (the same conditions as
 * KVM's apic_sync_pv_eoi_to_guest: one vector in service, edge-triggered, empty IRR). */
void pv_eoi_enter(struct vcpu *v)
{
	struct vlapic *l = &v->arch.lapic;
	u32 *w = word(v);
	/* Where the CPU completes EOIs (APIC virtualization) they exit no more than PV EOI's. */
	if (!w || l->cpu_delivers || v->arch.pv_eoi_armed || vlapic_has_pending_irr(l))
		return;
	int vec = single_isr_bit(l);
	if (vec < 0 || vlapic_test_vec(l, APIC_REG_TMR, (u8)vec))
		return;
	__atomic_fetch_or(w, KVM_PV_EOI_ENABLED, __ATOMIC_RELEASE);
	v->arch.pv_eoi_armed = true;
}
