/* SPDX-License-Identifier: GPL-2.0-only */
/* The VMX instructions on a VMCS (SDM vol. 3C, "VMX Instruction Reference"). Each returns
 * false where the instruction failed: VMfailInvalid sets CF, VMfailValid ZF (the error
 * number is then in the current VMCS's VM_INSTRUCTION_ERROR). A VMCS's address is its
 * physical one: the hypervisor's memory is identity-mapped. */
#ifndef ARCH_X86_VMX_VMX_INSN_H
#define ARCH_X86_VMX_VMX_INSN_H

#include "arch/x86/vmx/vmx_caps.h"
#include "hv/types.h"

static inline bool vmclear(void *vmcs)
{
	u64 pa = (u64)(uintptr_t)vmcs;
	bool failed;
	__asm__ volatile("vmclear %1; setna %0" : "=qm"(failed) : "m"(pa) : "cc", "memory");
	return !failed;
}

/* Makes vmcs the current VMCS of this CPU. */
static inline bool vmptrld(void *vmcs)
{
	u64 pa = (u64)(uintptr_t)vmcs;
	bool failed;
	__asm__ volatile("vmptrld %1; setna %0" : "=qm"(failed) : "m"(pa) : "cc", "memory");
	return !failed;
}

static inline bool vmwrite(u32 field, u64 value)
{
	bool failed;
	__asm__ volatile("vmwrite %2, %1; setna %0"
			 : "=qm"(failed)
			 : "r"((u64)field), "rm"(value)
			 : "cc", "memory");
	return !failed;
}

static inline bool vmread(u32 field, u64 *value)
{
	bool failed;
	__asm__ volatile("vmread %2, %1; setna %0"
			 : "=qm"(failed), "=rm"(*value)
			 : "r"((u64)field)
			 : "cc", "memory");
	return !failed;
}

/* Drops the TLB entries of a VPID: all of them (VMX_INV_SINGLE) or every VPID's
 * (VMX_INV_ALL). The descriptor: the VPID in bits 15:0, a linear address in 127:64. */
static inline void invvpid(enum vmx_inv_type type, u16 vpid)
{
	struct {
		u64 vpid, la;
	} desc = { vpid, 0 };
	__asm__ volatile("invvpid %0, %1" ::"m"(desc), "r"((u64)type) : "cc", "memory");
}

#endif
