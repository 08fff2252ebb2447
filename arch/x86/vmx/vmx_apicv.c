/* SPDX-License-Identifier: GPL-2.0-only */
/* APIC virtualization on VMX: see vmx_apicv.h. */
#include "arch/x86/vmx/vmx_apicv.h"

bool vmx_apicv_read_passthrough(u32 msr)
{
	u32 reg = (msr - MSR_X2APIC_FIRST) << 4;
	if (msr < MSR_X2APIC_FIRST || msr > MSR_X2APIC_LAST)
		return false;
	if (reg >= APIC_REG_ISR && reg < APIC_REG_IRR + 0x80) /* ISR, TMR, IRR */
		return true;
	if (reg >= APIC_REG_LVT_TIMER && reg <= APIC_REG_LVT_ERROR)
		return true;
	switch (reg) {
	case APIC_REG_ID:
	case APIC_REG_VERSION:
	case APIC_REG_TPR:
	case APIC_REG_PPR: /* kept in the page by the CPU (PPR virtualization, 30.1.3) */
	case APIC_REG_LDR:
	case APIC_REG_SVR:
	case APIC_REG_LVT_CMCI:
	case APIC_REG_TIMER_ICR:
	case APIC_REG_TIMER_DCR:
		return true;
	}
	return false;
}

bool vmx_apicv_write_passthrough(u32 msr)
{
	return msr == MSR_X2APIC_FIRST + (APIC_REG_TPR >> 4) ||
	       msr == MSR_X2APIC_FIRST + (APIC_REG_EOI >> 4);
}

bool vmx_apicv_x2apic(const struct vlapic *l)
{
	u64 mode = APIC_BASE_EN | APIC_BASE_EXTD;
	return (__atomic_load_n(&l->apic_base, __ATOMIC_RELAXED) & mode) == mode;
}

static int highest(const u32 w[8])
{
	for (int i = 7; i >= 0; i--)
		if (w[i])
			return i * 32 + 31 - __builtin_clz(w[i]);
	return 0;
}

void vmx_apicv_prepare(struct vlapic *l, struct vmx_apicv_entry *e)
{
	vlapic_sync_pir(l);
	for (int i = 0; i < 8; i++) {
		e->irr[i] = __atomic_load_n(&VLAPIC_VEC_WORD(l, APIC_REG_IRR, i), __ATOMIC_ACQUIRE);
		e->isr[i] = VLAPIC_VEC_WORD(l, APIC_REG_ISR, i);
	}
	for (int i = 0; i < 4; i++) {
		u64 lo = __atomic_load_n(&VLAPIC_VEC_WORD(l, APIC_REG_TMR, 2 * i),
					 __ATOMIC_ACQUIRE);
		u64 hi = __atomic_load_n(&VLAPIC_VEC_WORD(l, APIC_REG_TMR, 2 * i + 1),
					 __ATOMIC_ACQUIRE);
		e->eoi_exit[i] = hi << 32 | lo;
	}
	/* A hardware-disabled APIC takes no interrupts (SDM vol. 3A, 11.4.3). */
	bool enabled = __atomic_load_n(&l->apic_base, __ATOMIC_RELAXED) & APIC_BASE_EN;
	u8 rvi = enabled ? (u8)highest(e->irr) : 0;
	e->intr_status = (u16)(rvi | highest(e->isr) << 8);
}

void vmx_apicv_count(const struct vlapic *l, const struct vmx_apicv_entry *e, u64 *delivered,
		     u64 *eois)
{
	*delivered = *eois = 0;
	for (int i = 0; i < 8; i++) {
		u32 irr = __atomic_load_n(&VLAPIC_VEC_WORD(l, APIC_REG_IRR, i), __ATOMIC_ACQUIRE);
		u32 isr = VLAPIC_VEC_WORD(l, APIC_REG_ISR, i);
		/* Only the CPU's delivery clears an IRR bit while the guest runs, and only it
		 * puts a vector in service (one posted in the run, through a notification,
		 * too). Each vector counts once. */
		u32 taken = (e->irr[i] & ~irr) | (isr & ~e->isr[i]);
		*delivered += (u64)__builtin_popcount(taken);
		/* Per vector, EOIs = in service before + delivered - in service after: a
		 * vector in service after was in service before or is in taken, so no word
		 * goes below 0. */
		*eois += (u64)__builtin_popcount(e->isr[i]) + (u64)__builtin_popcount(taken) -
			 (u64)__builtin_popcount(isr);
	}
}
