/* SPDX-License-Identifier: GPL-2.0-only */
/* VMCB layout (AMD APM vol. 2, appendix B) and SVM exit codes. */
#ifndef ARCH_X86_SVM_VMCB_H
#define ARCH_X86_SVM_VMCB_H

#include "hv/types.h"

/* control area */
#define VMCB_ICPT_CR 0x000
#define VMCB_ICPT_DR 0x004
#define VMCB_ICPT_EXC 0x008
#define VMCB_ICPT_MISC1 0x00C
#define VMCB_ICPT_MISC2 0x010
#define VMCB_IOPM 0x040
#define VMCB_MSRPM 0x048
#define VMCB_TSC_OFFSET 0x050
#define VMCB_ASID 0x058
#define VMCB_TLB_CTL 0x05C
#define VMCB_VINTR 0x060
#define VMCB_INT_SHADOW 0x068
#define VMCB_EXITCODE 0x070
#define VMCB_EXITINFO1 0x078
#define VMCB_EXITINFO2 0x080
#define VMCB_EXITINTINFO 0x088
#define VMCB_NP_ENABLE 0x090
#define VMCB_AVIC_APIC_BAR 0x098 /* AVIC (APM vol. 2, 15.29.2): the guest's xAPIC page */
#define VMCB_EVENTINJ 0x0A8
#define VMCB_NCR3 0x0B0
#define VMCB_CLEAN 0x0C0
#define VMCB_NRIP 0x0C8
#define VMCB_AVIC_BACKING 0x0E0	 /* the vCPU's backing page */
#define VMCB_AVIC_LOGICAL 0x0F0	 /* the logical APIC ID table */
#define VMCB_AVIC_PHYSICAL 0x0F8 /* the physical APIC ID table, its highest index in 11:0 */
/* state save area */
#define VMCB_ES 0x400
#define VMCB_CS 0x410
#define VMCB_SS 0x420
#define VMCB_DS 0x430
#define VMCB_FS 0x440
#define VMCB_GS 0x450
#define VMCB_GDTR 0x460
#define VMCB_LDTR 0x470
#define VMCB_IDTR 0x480
#define VMCB_TR 0x490
#define VMCB_CPL 0x4CB
#define VMCB_EFER 0x4D0
#define VMCB_CR4 0x548
#define VMCB_CR3 0x550
#define VMCB_CR0 0x558
#define VMCB_DR7 0x560
#define VMCB_DR6 0x568
#define VMCB_RFLAGS 0x570
#define VMCB_RIP 0x578
#define VMCB_RSP 0x5D8
#define VMCB_RAX 0x5F8
#define VMCB_CR2 0x640
#define VMCB_GPAT 0x668

/* intercept bits, VMCB offset 0x0C */
#define ICPT_INTR BIT(0)
#define ICPT_NMI BIT(1)
#define ICPT_SMI BIT(2)
#define ICPT_INIT BIT(3)
#define ICPT_VINTR BIT(4)
#define ICPT_CPUID BIT(18)
#define ICPT_IRET BIT(20)
#define ICPT_INVD BIT(22)
#define ICPT_PAUSE BIT(23)
#define ICPT_HLT BIT(24)
#define ICPT_INVLPGA BIT(26)
#define ICPT_IOIO BIT(27)
#define ICPT_MSR BIT(28)
#define ICPT_TASK_SWITCH BIT(29)
#define ICPT_SHUTDOWN BIT(31)
/* offset 0x10 */
#define ICPT2_VMRUN BIT(0)
#define ICPT2_VMMCALL BIT(1)
#define ICPT2_VMLOAD BIT(2)
#define ICPT2_VMSAVE BIT(3)
#define ICPT2_STGI BIT(4)
#define ICPT2_CLGI BIT(5)
#define ICPT2_SKINIT BIT(6)
#define ICPT2_RDTSCP BIT(7)
#define ICPT2_ICEBP BIT(8)
#define ICPT2_WBINVD BIT(9)
#define ICPT2_MONITOR BIT(10)
#define ICPT2_MWAIT BIT(11)
#define ICPT2_XSETBV BIT(13)

#define VINTR_TPR_MASK 0xFu
#define ICPT_CR4_WRITE BIT(16 + 4)
#define ICPT_CR8_WRITE BIT(16 + 8)
#define VINTR_V_IRQ BIT(8)
#define VINTR_PRIO_SHIFT 16
#define VINTR_IGN_TPR BIT(20)
#define VINTR_MASKING BIT(24)
#define VINTR_VECTOR_SHIFT 32 /* V_INTR_VECTOR, the byte at 0x64 */
#define VINTR_X2AVIC BIT(30)  /* x2APIC mode virtualized too (with VINTR_AVIC) */
#define VINTR_AVIC BIT(31)

#define EVENT_VALID BIT(31)
#define EVENT_HAS_ERR BIT(11)
#define EVENT_TYPE_INTR (0u << 8)
#define EVENT_TYPE_NMI (2u << 8)
#define EVENT_TYPE_EXC (3u << 8)
#define EVENT_TYPE_MASK (7u << 8)

enum svm_exit {
	SVM_EXIT_CR4_WRITE = 0x14,
	SVM_EXIT_CR8_WRITE = 0x18,
	SVM_EXIT_EXC_BASE = 0x40, /* + the vector: an intercepted exception */
	SVM_EXIT_INTR = 0x60,
	SVM_EXIT_NMI = 0x61,
	SVM_EXIT_SMI = 0x62,
	SVM_EXIT_INIT = 0x63,
	SVM_EXIT_VINTR = 0x64,
	SVM_EXIT_CPUID = 0x72,
	SVM_EXIT_IRET = 0x74,
	SVM_EXIT_INVD = 0x76,
	SVM_EXIT_PAUSE = 0x77,
	SVM_EXIT_HLT = 0x78,
	SVM_EXIT_INVLPGA = 0x7A,
	SVM_EXIT_IOIO = 0x7B,
	SVM_EXIT_MSR = 0x7C,
	SVM_EXIT_TASK_SWITCH = 0x7D,
	SVM_EXIT_SHUTDOWN = 0x7F,
	SVM_EXIT_VMRUN = 0x80,
	SVM_EXIT_VMMCALL = 0x81,
	SVM_EXIT_VMLOAD = 0x82,
	SVM_EXIT_VMSAVE = 0x83,
	SVM_EXIT_STGI = 0x84,
	SVM_EXIT_CLGI = 0x85,
	SVM_EXIT_SKINIT = 0x86,
	SVM_EXIT_RDTSCP = 0x87,
	SVM_EXIT_ICEBP = 0x88,
	SVM_EXIT_WBINVD = 0x89,
	SVM_EXIT_MONITOR = 0x8A,
	SVM_EXIT_MWAIT = 0x8B,
	SVM_EXIT_XSETBV = 0x8D,
	SVM_EXIT_NPF = 0x400,
	SVM_EXIT_AVIC_INCOMPLETE_IPI = 0x401,
	SVM_EXIT_AVIC_NOACCEL = 0x402, /* an APIC access AVIC does not accelerate */
};

#define V8(vmcb, o) (*(volatile u8 *)((vmcb) + (o)))
#define V16(vmcb, o) (*(volatile u16 *)((vmcb) + (o)))
#define V32(vmcb, o) (*(volatile u32 *)((vmcb) + (o)))
#define V64(vmcb, o) (*(volatile u64 *)((vmcb) + (o)))

#endif
