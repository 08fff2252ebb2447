/* SPDX-License-Identifier: GPL-2.0-only */
/* The hardware side of the virtual GIC: list registers, the virtual CPU interface state
 * (VMCR, active priorities) and the maintenance interrupt control, for GICv3 (ICH_*_EL2
 * system registers) and GICv2 (the GICH frame). arch/arm64/vgic.c decides what goes in. */
#ifndef ARCH_ARM64_VGIC_HW_H
#define ARCH_ARM64_VGIC_HW_H

#include "hv/types.h"

struct vcpu;

void vgic_hw_init_cpu(void); /* each pCPU: how many list registers it has */
u32 vgic_hw_nlrs(void);
void vgic_hw_flush(struct vcpu *v); /* right before guest entry */
void vgic_hw_sync(struct vcpu *v);  /* right after the exit */
void vgic_hw_load(struct vcpu *v);  /* the vCPU's interface state into the registers */
void vgic_hw_put(struct vcpu *v);   /* and back, when another vCPU takes the pCPU */
/* The loaded vCPU's EOImode (ICH_VMCR_EL2 / GICH_VMCR VEOIM): EOIs only drop the priority
 * and DIRs deactivate; with EOImode 0 a DIR is UNPREDICTABLE and, as on QEMU's GIC and
 * under KVM, ignored. */
bool vgic_hw_eoi_split(void);

#endif
