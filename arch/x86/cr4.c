/* SPDX-License-Identifier: GPL-2.0-only */
/* What a guest may write to CR4 (SDM vol. 3A, 2.5, and vol. 2, MOV to CR4; KVM's
 * kvm_is_valid_cr4 and kvm_set_cr4): a bit that no CPU defines, or whose feature the
 * guest's CPUID does not offer (PKE without PKU, VMXE without VMX, ...), and the mode
 * rules take #GP, checked by both vendors on the writes they intercept. */
#include "arch/x86/cr4.h"
#include "arch/x86/guest.h"

/* CPUID leaf 1 ECX, leaf 7.0 EBX and ECX: the features a CR4 bit enables. */
#define L1_ECX_PCID BIT(17)
#define L1_ECX_XSAVE BIT(26)
#define L7_EBX_FSGSBASE BIT(0)
#define L7_EBX_SMEP BIT(7)
#define L7_EBX_SMAP BIT(20)
#define L7_ECX_UMIP BIT(2)
#define L7_ECX_PKU BIT(3)
#define L7_ECX_LA57 BIT(16)

u64 x86_cr4_reserved(const u32 leaf1[4], const u32 leaf7[4])
{
	/* Defined by every x86-64 CPU (the leaf 1 EDX features behind them always are). */
	u64 ok = X86_CR4_VME | X86_CR4_PVI | X86_CR4_TSD | X86_CR4_DE | X86_CR4_PSE | X86_CR4_PAE |
		 X86_CR4_MCE | X86_CR4_PGE | X86_CR4_PCE | X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT;
	ok |= (leaf1[2] & L1_ECX_PCID ? X86_CR4_PCIDE : 0) |
	      (leaf1[2] & L1_ECX_XSAVE ? X86_CR4_OSXSAVE : 0) |
	      (leaf7[1] & L7_EBX_FSGSBASE ? X86_CR4_FSGSBASE : 0) |
	      (leaf7[1] & L7_EBX_SMEP ? X86_CR4_SMEP : 0) |
	      (leaf7[1] & L7_EBX_SMAP ? X86_CR4_SMAP : 0) |
	      (leaf7[2] & L7_ECX_UMIP ? X86_CR4_UMIP : 0) |
	      (leaf7[2] & L7_ECX_PKU ? X86_CR4_PKE : 0) |
	      (leaf7[2] & L7_ECX_LA57 ? X86_CR4_LA57 : 0);
	return ~ok;
}

bool x86_cr4_write_ok(u64 reserved, u64 old, u64 val, bool long_mode, u64 cr3)
{
	if (val & reserved)
		return false;
	/* IA-32e mode needs PAE, and its paging depth cannot change in it. */
	if (long_mode && (!(val & X86_CR4_PAE) || ((old ^ val) & X86_CR4_LA57)))
		return false;
	/* PCIDE from 0 to 1 only in IA-32e mode with PCID 0 (CR3[11:0]). */
	if ((val & ~old & X86_CR4_PCIDE) && (!long_mode || (cr3 & 0xFFF)))
		return false;
	return true;
}

u64 x86_cr4_guest_reserved(struct vcpu *v)
{
	u32 l1[4], l7[4];
	x86_cpuid(v, 1, 0, l1);
	x86_cpuid(v, 7, 0, l7);
	return x86_cr4_reserved(l1, l7);
}
