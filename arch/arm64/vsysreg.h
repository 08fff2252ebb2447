/* SPDX-License-Identifier: GPL-2.0-only */
/* The system registers a guest would otherwise share with the machine, each other VM and
 * the hypervisor: debug (breakpoints, watchpoints, OS lock, debug communications channel),
 * performance monitors, statistical profiling, trace, RAS error records, ACTLR_EL1 and the
 * IMPLEMENTATION DEFINED registers. The hypervisor traps them all (MDCR_EL2 TDA, TDOSA,
 * TDRA, TPM, TPMCR, TPMS, TTRF; HCR_EL2 TIDCP, TACR, TERR) and answers here (DDI 0487
 * D2 "AArch64 Self-hosted Debug", D13 the PMU, D17.3 the debug registers):
 *
 * - Breakpoints and watchpoints (DBGBVR/BCR/WVR/WCR<n>_EL1, as many as ID_AA64DFR0_EL1
 *   offers) are per-vCPU storage: a read gives what that vCPU wrote (0 after reset). They
 *   reach the hardware only while their vCPU is loaded on a pCPU and has one of them
 *   enabled (vsysreg_hw.c writes each one through, loads them all when the vCPU arms its
 *   first one or is loaded with one armed, and disables them all when it is put), so
 *   they work as the guest expects and never fire in, nor can be read by, anyone else.
 *   MDSCR_EL1 is EL1 state switched with the vCPU; the OS lock (OSLAR/OSLSR) is per vCPU
 *   (unlocked at reset, as KVM) and mirrored into the hardware while the vCPU is loaded,
 *   so the lock disables the guest's own debug exceptions as on a CPU. Debug exceptions
 *   go to the guest's EL1 (MDCR_EL2.TDE = 0): EL2 is above the debug target, so the
 *   guest's breakpoints never fire in the hypervisor.
 * - Claim tags are per vCPU (8 implemented); MDCCINT_EL1 is stored; the DCC data
 *   registers, OSDTR*, OSECCR, OSDLR (the double lock) and DBGPRCR are RAZ/WI; MDRAR_EL1
 *   reads 0 (no memory-mapped debug); DBGAUTHSTATUS_EL1 says Non-secure debug is
 *   implemented and enabled.
 * - No PMU, statistical profiling or trace: ID registers say so (id_regs.c) and every
 *   access is UNDEFINED, as on a CPU without them (KVM without a vPMU).
 * - IMPLEMENTATION DEFINED registers (op0 3, CRn 11 and 15): UNDEFINED.
 * - ACTLR_EL1: per-vCPU storage, reset to the hardware's value; writes stay in the vCPU.
 * - RAS error records (ERRIDR_EL1, ERRSELR_EL1, ERX*_EL1, including the fault injection
 *   registers ERXPFG*): ERRIDR reads 0 records, the rest RAZ/WI (KVM's answer).
 *
 * Pure logic: vsysreg_hw.c does what needs the hardware. */
#ifndef ARCH_ARM64_VSYSREG_H
#define ARCH_ARM64_VSYSREG_H

#include "hv/types.h"

#define VSYS_MAX_BP 16 /* breakpoints or watchpoints: ID_AA64DFR0_EL1.BRPs/WRPs + 1 */

struct vsysreg {
	u64 bvr[VSYS_MAX_BP], bcr[VSYS_MAX_BP], wvr[VSYS_MAX_BP], wcr[VSYS_MAX_BP];
	u64 mdccint;
	u64 actlr;
	u64 authstatus; /* what DBGAUTHSTATUS_EL1 reads */
	u64 vdisr;	/* VDISR_EL2 (the guest's DISR_EL1) while not loaded, FEAT_RAS */
	u8 nbrps, nwrps;
	u8 claim;      /* DBGCLAIM tags */
	bool oslk;     /* OSLSR_EL1.OSLK */
	bool hw_armed; /* its breakpoints and watchpoints are in the hardware (vsysreg_hw.c) */
};

/* What the hardware offers a vCPU at reset. */
struct vsysreg_host {
	u64 dfr0; /* ID_AA64DFR0_EL1 */
	u64 actlr;
	u64 authstatus;
};

/* Architectural reset (breakpoints and watchpoints disabled and 0, OS lock unlocked, no
 * claim tags), keeping nothing from before. */
void vsysreg_reset(struct vsysreg *s, const struct vsysreg_host *h);

/* Which of the registers above a trapped access (ESR_SYSREG encoding) is about. */
enum vsysreg_class {
	VSYS_OTHER, /* none of them */
	VSYS_DEBUG,
	VSYS_PMU,
	VSYS_PROFILING, /* statistical profiling (SPE) */
	VSYS_TRACE,	/* trace unit, trace buffer, trace filter, branch records */
	VSYS_IMPDEF,
	VSYS_ACTLR,
	VSYS_RAS,
};
enum vsysreg_class vsysreg_classify(u32 sysreg);
const char *vsysreg_class_name(enum vsysreg_class c);

enum vsysreg_result {
	VSYS_NOT_MINE,	/* none of these registers: the caller decides */
	VSYS_DONE,	/* emulated; a read's value is in *val */
	VSYS_DONE_BPWP, /* a breakpoint or watchpoint register was written: vsysreg_hw_write */
	VSYS_DONE_OSLK, /* OSLAR_EL1 was written: vsysreg_hw_write */
	VSYS_MDSCR,	/* MDSCR_EL1: the hardware register holds the vCPU's (EL1 state) */
	VSYS_UNDEF,	/* UNDEFINED, as on the CPU the guest sees */
};
/* A trapped MRS (read) or MSR of `sysreg` with the value *val. */
enum vsysreg_result vsysreg_access(struct vsysreg *s, u32 sysreg, bool read, u64 *val);

/* Whether any of its breakpoints or watchpoints is enabled (DBGBCR/DBGWCR.E). */
bool vsysreg_armed(const struct vsysreg *s);

/* MDCR_EL2 for a CPU with these ID_AA64DFR0_EL1 and PMCR_EL0 (ignored without a PMU):
 * TDA, TDOSA, TDRA; TPM, TPMCR and HPMN = PMCR_EL0.N (the counters are EL1's, as at
 * reset, and all trapped) with FEAT_PMUv3; TPMS with SPE; TTRF with the trace filter;
 * E2PB and E2TB 0 (profiling and trace buffers owned by EL2: their EL1 controls trap).
 * A bit that the CPU does not define (RES0) stays 0. */
u64 vsysreg_mdcr_el2(u64 dfr0, u64 pmcr);
/* The HCR_EL2 trap bits for a CPU with this ID_AA64PFR0_EL1: TIDCP, TACR, and TERR where
 * FEAT_RAS defines it (RAS [31:28] not 0). */
u64 vsysreg_hcr_el2(u64 pfr0);

/* The hardware side (vsysreg_hw.c), on the pCPU that runs the vCPU. */
void vsysreg_hw_init_cpu(void); /* MDCR_EL2; no breakpoint or watchpoint enabled */
void vsysreg_hw_host(struct vsysreg_host *h);
u64 vsysreg_hw_hcr(void); /* vsysreg_hcr_el2() of this CPU */
void vsysreg_hw_load(struct vsysreg *s);
void vsysreg_hw_put(struct vsysreg *s);
/* After vsysreg_access() returned VSYS_DONE_BPWP or VSYS_DONE_OSLK for `sysreg`. */
void vsysreg_hw_write(struct vsysreg *s, enum vsysreg_result what, u32 sysreg);

#endif
