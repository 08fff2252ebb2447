/* SPDX-License-Identifier: GPL-2.0-only */
/* The MPIDR_EL1 each vCPU of a VM reports, and the way back. vCPU n gets Aff0 = n % 16,
 * Aff1 = n / 16 (as KVM does), so GICv3 SGI target lists (16 bits of Aff0 per Aff1
 * cluster, IHI 0069 12.11.25 ICC_SGI1R_EL1) reach every vCPU. Bit 31 is RES1 (DDI 0487
 * D23.2 MPIDR_EL1); bit 30 (U) = 0: a multiprocessor system. */
#ifndef ARCH_ARM64_VCPU_MPIDR_H
#define ARCH_ARM64_VCPU_MPIDR_H

#include "hv/types.h"

#define MPIDR_AFF_MASK 0xFF00FFFFFFull /* Aff3 [39:32], Aff2 [23:16], Aff1 [15:8], Aff0 [7:0] */

static inline u64 vcpu_mpidr(u32 id) { return BIT(31) | ((u64)(id / 16) << 8) | (id % 16); }

/* The vCPU whose affinity is `mpidr` (other bits ignored), or -1 when there is none. */
static inline int mpidr_to_vcpu(u64 mpidr, u32 nvcpus)
{
	mpidr &= MPIDR_AFF_MASK;
	if ((mpidr & 0xFF00FF0000ull) || (mpidr & 0xFF) >= 16)
		return -1;
	u32 id = (u32)((mpidr >> 8) & 0xFF) * 16 + (u32)(mpidr & 0xFF);
	return id < nvcpus ? (int)id : -1;
}

#endif
