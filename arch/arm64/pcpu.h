/* Per-pCPU state of the arm64 backend and the EL2 set-up of each pCPU. */
#ifndef ARCH_ARM64_PCPU_H
#define ARCH_ARM64_PCPU_H

#include "hv/types.h"

struct vcpu;

struct arm64_pcpu {
	u32 id;
	u64 mpidr;
	struct vcpu *loaded;   /* whose EL1 and vGIC state is in the registers */
	struct vcpu *last_ran; /* the vCPU loaded before (for the TLB rule in arch_vcpu_load) */
	bool vtimer_masked;    /* host PPI 27 off: the guest has not taken its timer yet */
	u64 kicks, ticks, vtimer_irqs, spurious;
	u64 maints;            /* exits with a vGIC maintenance condition (vgic_hw_sync) */
};
extern struct arm64_pcpu arm64_pcpus[];

/* EL2 registers of a pCPU (vectors, traps, the per-pCPU pointer); then its GIC. */
void arm64_pcpu_init(u32 id, u64 mpidr);
/* PSCI calls to the firmware (conduit SMC at EL2). */
#define PSCI_CPU_ON_64 0xC4000003ull
#define PSCI_SYSTEM_OFF 0x84000008ull

#endif
