/* SPDX-License-Identifier: GPL-2.0-only */
/* How many vCPUs an arm64 VM can have with a GICv3 (a GICv2 has 8 CPU interfaces): 255,
 * as on x86. The vGIC names a vCPU in a byte (struct vgic_irq's owner, 0xFF for none);
 * each vCPU costs its vGIC state (about 1 KiB, allocated per VM) and a 128 KiB
 * redistributor in the guest-physical map, 31.9 MiB at 255 (arch/arm64/guest.h places
 * them). MPIDRs give Aff0 0-15 per Aff1 cluster (arch/arm64/vcpu_mpidr.h), which SGI
 * target lists reach without Range Selector Support: 16 clusters here. */
#ifndef ARCH_ARM64_LIMITS_H
#define ARCH_ARM64_LIMITS_H

#define ARCH_MAX_VCPUS 255

#endif
