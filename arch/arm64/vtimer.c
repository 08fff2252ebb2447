/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual timer. While a vCPU's EL1 state is loaded its CNTV_* live in the registers and
 * the timer condition raises the physical PPI 27 at EL2 (HCR_EL2.IMO); pcpu.c then masks
 * that PPI until the line drops (the guest acknowledged and re-programmed its timer),
 * which vtimer_sync() notices after the EOI maintenance exit. */
#include "arch/arm64/vtimer.h"
#include "arch/arm64/gic_host.h"
#include "arch/arm64/pcpu.h"
#include "arch/cpu.h"
#include "hv/sched.h"
#include "hv/vm.h"

#define CTL_ENABLE BIT(0)
#define CTL_IMASK BIT(1)
#define CTL_ISTATUS BIT(2)

static void timer_regs(struct vcpu *v, u64 *ctl, u64 *cval)
{
	if (v->arch.loaded) {
		*ctl = read_sysreg(cntv_ctl_el0);
		*cval = read_sysreg(cntv_cval_el0);
	} else {
		*ctl = v->arch.el1.cntv_ctl;
		*cval = v->arch.el1.cntv_cval;
	}
}

void vtimer_sync(struct vcpu *v, u64 now)
{
	u64 ctl, cval;
	timer_regs(v, &ctl, &cval);
	bool line = (ctl & (CTL_ENABLE | CTL_IMASK)) == CTL_ENABLE &&
		    now - v->vm->arch.cntvoff >= cval;
	vgic_set_level(&v->vm->arch.vgic, v->id, INTID_VTIMER, line);
	struct arch_pcpu *p = &pcpus[v->pcpu].arch;
	if (!line && v->arch.loaded && p->vtimer_masked) {
		p->vtimer_masked = false;
		gic_host_ppi_enable(INTID_VTIMER, true);
	}
}

u64 vtimer_deadline(struct vcpu *v, u64 now)
{
	u64 ctl, cval;
	timer_regs(v, &ctl, &cval);
	/* Disabled, masked, or already due (then its line is high in the vGIC already and
	 * nothing more is to be done at any time). */
	if ((ctl & (CTL_ENABLE | CTL_IMASK)) != CTL_ENABLE || now - v->vm->arch.cntvoff >= cval)
		return 0;
	return cval + v->vm->arch.cntvoff;
}
