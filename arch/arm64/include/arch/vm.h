/* SPDX-License-Identifier: GPL-2.0-only */
/* The arm64 backend's part of struct vm and struct vcpu. */
#ifndef ARCH_ARM64_VM_H
#define ARCH_ARM64_VM_H

#include "hv/types.h"
#include "hv/dev/vpl011.h"
#include "arch/arm64/ptimer.h"
#include "arch/arm64/vgic.h"
#include "arch/arm64/vsysreg.h"

/* Guest general registers as entry.S saves them (offsets fixed there). */
struct guest_regs {
	u64 x[31];
	u64 elr, spsr; /* ELR_EL2, SPSR_EL2: the guest's PC and PSTATE */
	u64 host_sp;
};

/* EL1 system registers that belong to the guest (saved when another vCPU takes the
 * pCPU; kept in the hardware while the same vCPU runs again). */
struct el1_state {
	u64 sctlr, ttbr0, ttbr1, tcr, mair, amair, vbar, contextidr, tpidr_el0, tpidrro_el0,
		tpidr_el1, sp_el0, sp_el1, elr_el1, spsr_el1, esr, far, afsr0, afsr1, par, cpacr,
		csselr, cntkctl, cntv_ctl, cntv_cval, mdscr;
	u64 pauth[10]; /* pointer authentication keys APIA, APIB, APDA, APDB, APGA (lo, hi) */
};

struct arch_vcpu {
	struct guest_regs regs;
	struct el1_state el1;
	u8 fpsimd[528] __attribute__((aligned(16))); /* Q0-Q31, FPSR, FPCR */
	/* The virtual CPU interface while descheduled: VMCR and the active priorities
	 * (GICv3 ICH_AP0R<n>/AP1R<n>, as many as the CPU's priority bits need; GICv2 GICH_APR
	 * in ap1r[0]). */
	u64 vmcr, ap0r[4], ap1r[4];
	bool loaded;			  /* its EL1/GIC state is in this pCPU's registers */
	u32 nlrs_used;			  /* list registers filled at the last entry */
	struct vgic_lr lrs[VGIC_MAX_LRS]; /* what they held */
	/* PSCI power state; CPU_ON from another vCPU sets ON_PENDING with the entry point
	 * (under the VM's dev_lock), kicks, and the owner starts it in arch_vcpu_poll. */
	enum { POWER_OFF, POWER_ON_PENDING, POWER_ON } power;
	u64 start_entry, start_context;
	bool suspend;	/* PSCI CPU_SUSPEND: wait like WFI */
	u64 pvtime_ipa; /* its DEN0057A stolen-time record */
	u64 steal_published;
	u64 preempt_count_reg; /* HV_SMCCC_PREEMPT_COUNT (critical_section.c) */
	bool preempt_count_warned;
	u64 last_esr;	      /* of the last synchronous exit (for vm_dump) */
	struct ptimer ptimer; /* the EL1 physical timer, emulated */
	struct vsysreg sys;   /* debug, ACTLR_EL1 and other trapped registers (vsysreg.h) */
};

struct arch_vm {
	u64 *s2_root; /* stage-2 level-1 table */
	u16 vmid;
	u64 cntvoff; /* CNTVOFF_EL2: its virtual counter starts near 0 */
	struct vgic vgic;
	struct vpl011 uart;
	u8 *pvtime_page; /* host page of the stolen-time records */
	u64 boot_entry;	 /* where vCPU 0 starts, with x0 = boot_fdt (its device tree) */
	u64 boot_fdt;
};

#endif
