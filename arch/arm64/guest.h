/* SPDX-License-Identifier: GPL-2.0-only */
/* The guest-physical layout of an arm64 VM: QEMU's `virt` machine (hw/arm/virt.c), so
 * that kernels built for it find their devices where they expect them. */
#ifndef ARCH_ARM64_GUEST_H
#define ARCH_ARM64_GUEST_H

#include "arch/arm64/vgic.h"
#include "arch/limits.h"
#include "hv/types.h"

#define GUEST_GICD_BASE 0x08000000ull /* 64 KiB */
#define GUEST_GICC_BASE \
	0x08010000ull			   /* GICv2: the host's GICV frame, 8 KiB: the first
					 * page mapped, GICC_DIR's emulated */
#define GUEST_GICR_BASE 0x080A0000ull	   /* GICv3: 128 KiB per vCPU, up to the UART */
#define GUEST_UART_BASE 0x09000000ull	   /* PL011 */
#define GUEST_UART_SPI 1		   /* INTID 33, level */
#define GUEST_PVTIME_BASE 0x090A0000ull	   /* DEN0057A stolen-time records, 64 bytes per vCPU */
#define GUEST_GICR_WIDE_BASE 0x0A000000ull /* GICv3: when they do not fit at GUEST_GICR_BASE */
#define GUEST_RAM_BASE 0x40000000ull

_Static_assert(GUEST_GICR_WIDE_BASE + ARCH_MAX_VCPUS * VGIC_REDIST_SIZE <= GUEST_RAM_BASE,
	       "every vCPU's redistributor fits below RAM");
_Static_assert(GUEST_PVTIME_BASE + ARCH_MAX_VCPUS * 64 <= GUEST_GICR_WIDE_BASE,
	       "every vCPU's stolen-time record fits below the wide redistributors");

/* Where the redistributors of a VM of nvcpus vCPUs start: one region, back to back in
 * vCPU order, that GICR_TYPER.Last of the final one ends (IHI 0069 GICR_TYPER). Where
 * QEMU's virt has them when they fit below the UART (123 do, as there), else all at
 * GUEST_GICR_WIDE_BASE: Linux takes them from the device tree. (QEMU and KVM add a
 * second region instead, with a Last in each.) */
static inline u64 guest_gicr_base(u32 nvcpus)
{
	return GUEST_GICR_BASE + (u64)nvcpus * VGIC_REDIST_SIZE <= GUEST_UART_BASE
		       ? GUEST_GICR_BASE
		       : GUEST_GICR_WIDE_BASE;
}

struct vm;
struct vcpu;

/* Stage 2 (stage2.c). */
u64 *stage2_create(void);
/* Maps [ipa, ipa + len) to host-physical pa: normal write-back memory or device memory. */
int stage2_map(u64 *root, u64 ipa, u64 pa, u64 len, bool device);

void arm64_vcpu_reset(struct vcpu *v, u64 entry, u64 x0);
/* HV_SMCCC_PREEMPT_COUNT (critical_section.c): the word with bit 0 set, or 0; -1 when the
 * word is not in the VM's RAM. */
int arm64_preempt_count_register(struct vcpu *v, u64 reg);
/* The VM's emulated devices: distributor, redistributors, UART (platform.c). */
void arm64_platform_init(struct vm *vm);

#endif
