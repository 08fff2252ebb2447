/* SPDX-License-Identifier: GPL-2.0-only */
/* VMX operation on the CPU that runs this (Intel SDM vol. 3C, "Enabling and Entering VMX
 * Operation"): IA32_FEATURE_CONTROL locked with VMX outside SMX, CR0 and CR4 within VMX's
 * fixed bits (CR4.VMXE among them), then VMXON on a region holding the VMCS revision. */
#ifndef ARCH_X86_VMX_VMXON_H
#define ARCH_X86_VMX_VMXON_H

#include "arch/x86/vmx/vmx_caps.h"

/* What VMXON changed, for VMXOFF to put back. */
struct vmx_operation {
	u64 cr0, cr4;
};

/* Enters VMX operation with the VMXON region at region (4 KiB, page-aligned, its host
 * address also its physical one): 0, or -1 with *why (the CPU's fixed bits outside what
 * this hypervisor can set, or VMXON failing). Sets IA32_FEATURE_CONTROL's lock and VMX
 * outside SMX where the firmware left it unlocked, as Linux does at boot. */
int vmx_on(const struct vmx_caps *c, void *region, struct vmx_operation *op, const char **why);

/* Leaves VMX operation: VMXOFF, CR0 and CR4 as they were. */
void vmx_off(const struct vmx_operation *op);

#endif
