/* SPDX-License-Identifier: GPL-2.0-only */
/* APIC virtualization on VMX: see vmx_apicv.h. */
#include "arch/x86/vmx/vmx_apicv.h"

bool vmx_apicv_read_passthrough(u32 msr)
{
	/* PPR: kept in the page by the CPU (PPR virtualization, 30.1.3) */
	return vlapic_page_read(msr) || msr == MSR_X2APIC_FIRST + (APIC_REG_PPR >> 4);
}

bool vmx_apicv_write_passthrough(u32 msr)
{
	return msr == MSR_X2APIC_FIRST + (APIC_REG_TPR >> 4) ||
	       msr == MSR_X2APIC_FIRST + (APIC_REG_EOI >> 4);
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
	vlapic_run_begin(l, &e->run);
	for (int i = 0; i < 4; i++) {
		u64 lo = __atomic_load_n(&VLAPIC_VEC_WORD(l, APIC_REG_TMR, 2 * i),
					 __ATOMIC_ACQUIRE);
		u64 hi = __atomic_load_n(&VLAPIC_VEC_WORD(l, APIC_REG_TMR, 2 * i + 1),
					 __ATOMIC_ACQUIRE);
		e->eoi_exit[i] = hi << 32 | lo;
	}
	/* A hardware-disabled APIC takes no interrupts (SDM vol. 3A, 11.4.3). */
	bool enabled = __atomic_load_n(&l->apic_base, __ATOMIC_RELAXED) & APIC_BASE_EN;
	u8 rvi = enabled ? (u8)highest(e->run.irr) : 0;
	e->intr_status = (u16)(rvi | highest(e->run.isr) << 8);
}
