/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-pCPU state of the arm64 backend and the EL2 set-up of each pCPU. */
#ifndef ARCH_ARM64_PCPU_H
#define ARCH_ARM64_PCPU_H

#include "hv/types.h"

/* EL2 registers of a pCPU (vectors, traps, the per-pCPU pointer); then its GIC. */
void arm64_pcpu_init(u32 id, u64 mpidr);
/* Takes one pending host interrupt (acknowledge, note, end); interrupts masked. */
void arm64_host_irq(void);
/* PSCI calls to the firmware (conduit SMC at EL2). */
#define PSCI_CPU_ON_64 0xC4000003ull
#define PSCI_SYSTEM_OFF 0x84000008ull
#define PSCI_SYSTEM_RESET 0x84000009ull

#endif
