/* SPDX-License-Identifier: GPL-2.0-only */
/* Entering and leaving VMX operation (vmxon.h). */
#include "arch/x86/vmx/vmxon.h"
#include "arch/cpu.h"
#include "hv/lib.h"

#define CR0_NE BIT(5) /* the one CR0 bit the fixed bits may ask for that we set */

int vmx_on(const struct vmx_caps *c, void *region, struct vmx_operation *op, const char **why)
{
	u64 fc = rdmsr(MSR_IA32_FEATURE_CONTROL);
	if (!(fc & FEATURE_CONTROL_LOCKED))
		wrmsr(MSR_IA32_FEATURE_CONTROL,
		      fc | FEATURE_CONTROL_LOCKED | FEATURE_CONTROL_VMX_OUTSIDE_SMX);
	else if (!(fc & FEATURE_CONTROL_VMX_OUTSIDE_SMX)) {
		*why = VMX_DISABLED_BY_FIRMWARE; /* on this CPU (vmx_caps_check saw another) */
		return -1;
	}
	op->cr0 = read_cr0();
	op->cr4 = read_cr4();
	u64 cr0 = (op->cr0 | c->cr0_fixed0) & c->cr0_fixed1;
	u64 cr4 = (op->cr4 | c->cr4_fixed0) & c->cr4_fixed1;
	/* Paging and protection stay as the firmware has them: only CR0.NE may change. */
	if ((cr0 ^ op->cr0) & ~CR0_NE) {
		*why = "CR0 as the firmware left it is outside VMX's fixed bits "
		       "(IA32_VMX_CR0_FIXED0/1)";
		return -1;
	}
	memset(region, 0, PAGE_SIZE);
	*(u32 *)region = c->revision;
	write_cr0(cr0);
	write_cr4(cr4);
	u64 pa = (u64)(uintptr_t)region;
	bool failed;
	/* VMfailInvalid sets CF, VMfailValid ZF (SDM vol. 3C, "Conventions"). */
	__asm__ volatile("vmxon %1; setna %0" : "=qm"(failed) : "m"(pa) : "cc", "memory");
	if (failed) {
		write_cr4(op->cr4);
		write_cr0(op->cr0);
		*why = "VMXON failed";
		return -1;
	}
	return 0;
}

void vmx_off(const struct vmx_operation *op)
{
	__asm__ volatile("vmxoff" ::: "cc", "memory");
	write_cr4(op->cr4);
	write_cr0(op->cr0);
}
