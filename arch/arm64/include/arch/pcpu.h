/* SPDX-License-Identifier: GPL-2.0-only */
/* The arm64 backend's part of struct pcpu (hv/sched.h). */
#ifndef ARCH_ARM64_ARCH_PCPU_H
#define ARCH_ARM64_ARCH_PCPU_H

#include "hv/types.h"

struct vcpu;

struct arch_pcpu {
	struct vcpu *loaded;   /* whose EL1 and vGIC state is in the registers */
	struct vcpu *last_ran; /* the vCPU loaded before (for the TLB rule in arch_vcpu_load) */
	bool vtimer_masked;    /* host PPI 27 off: the guest has not taken its timer yet */
	u64 timer_deadline;    /* what CNTHP is armed for (0: off) */
	u32 vgic_hcr;	       /* what ICH_HCR_EL2 / GICH_HCR holds (vgic_hw.c) */
	bool vgic_maint;       /* the LRs or ICH_HCR in use can raise a maintenance interrupt */
	u64 kicks, ticks, vtimer_irqs, spurious;
	u64 maints; /* exits with a vGIC maintenance condition (vgic_hw_sync) */
};

#endif
