/* SPDX-License-Identifier: GPL-2.0-only */
/* What a guest may write to CR4 (cr4.c). */
#ifndef ARCH_X86_CR4_H
#define ARCH_X86_CR4_H

#include "hv/vm.h"

#define X86_CR4_VME BIT(0)
#define X86_CR4_PVI BIT(1)
#define X86_CR4_TSD BIT(2)
#define X86_CR4_DE BIT(3)
#define X86_CR4_PSE BIT(4)
#define X86_CR4_PAE BIT(5)
#define X86_CR4_MCE BIT(6)
#define X86_CR4_PGE BIT(7)
#define X86_CR4_PCE BIT(8)
#define X86_CR4_OSFXSR BIT(9)
#define X86_CR4_OSXMMEXCPT BIT(10)
#define X86_CR4_UMIP BIT(11)
#define X86_CR4_LA57 BIT(12)
#define X86_CR4_VMXE BIT(13)
#define X86_CR4_FSGSBASE BIT(16)
#define X86_CR4_PCIDE BIT(17)
#define X86_CR4_SMEP BIT(20)
#define X86_CR4_SMAP BIT(21)
#define X86_CR4_PKE BIT(22)
/* The bits whose change alters how linear addresses translate: the TLB is flushed (SDM
 * vol. 3A, 4.10.4.1). */
#define X86_CR4_PAGING_BITS                                                                      \
	(X86_CR4_PSE | X86_CR4_PAE | X86_CR4_PGE | X86_CR4_PCIDE | X86_CR4_SMEP | X86_CR4_SMAP | \
	 X86_CR4_PKE | X86_CR4_LA57)

/* The CR4 bits reserved for a guest with these CPUID leaves (1 and 7.0). */
u64 x86_cr4_reserved(const u32 leaf1[4], const u32 leaf7[4]);
/* ...for this vCPU, from the CPUID it sees. */
u64 x86_cr4_guest_reserved(struct vcpu *v);
/* Whether MOV to CR4 of val (from old) completes; false: #GP(0). */
bool x86_cr4_write_ok(u64 reserved, u64 old, u64 val, bool long_mode, u64 cr3);

#endif
