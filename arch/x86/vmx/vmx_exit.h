/* SPDX-License-Identifier: GPL-2.0-only */
/* VM exits as the VMCS reports them: the basic exit reasons (SDM vol. 3D, appendix C),
 * and the exit qualifications of the exits the backend decodes itself (SDM vol. 3C,
 * 28.2.1). */
#ifndef ARCH_X86_VMX_VMX_EXIT_H
#define ARCH_X86_VMX_VMX_EXIT_H

#include "hv/types.h"

enum vmx_exit_reason {
	EXIT_REASON_EXCEPTION_NMI = 0,
	EXIT_REASON_EXTERNAL_INTERRUPT = 1,
	EXIT_REASON_TRIPLE_FAULT = 2,
	EXIT_REASON_INIT = 3,
	EXIT_REASON_SIPI = 4,
	EXIT_REASON_IO_SMI = 5,
	EXIT_REASON_OTHER_SMI = 6,
	EXIT_REASON_INTERRUPT_WINDOW = 7,
	EXIT_REASON_NMI_WINDOW = 8,
	EXIT_REASON_TASK_SWITCH = 9,
	EXIT_REASON_CPUID = 10,
	EXIT_REASON_GETSEC = 11,
	EXIT_REASON_HLT = 12,
	EXIT_REASON_INVD = 13,
	EXIT_REASON_INVLPG = 14,
	EXIT_REASON_RDPMC = 15,
	EXIT_REASON_RDTSC = 16,
	EXIT_REASON_RSM = 17,
	EXIT_REASON_VMCALL = 18,
	EXIT_REASON_VMCLEAR = 19,
	EXIT_REASON_VMLAUNCH = 20,
	EXIT_REASON_VMPTRLD = 21,
	EXIT_REASON_VMPTRST = 22,
	EXIT_REASON_VMREAD = 23,
	EXIT_REASON_VMRESUME = 24,
	EXIT_REASON_VMWRITE = 25,
	EXIT_REASON_VMXOFF = 26,
	EXIT_REASON_VMXON = 27,
	EXIT_REASON_CR_ACCESS = 28,
	EXIT_REASON_DR_ACCESS = 29,
	EXIT_REASON_IO_INSTRUCTION = 30,
	EXIT_REASON_RDMSR = 31,
	EXIT_REASON_WRMSR = 32,
	EXIT_REASON_INVALID_GUEST_STATE = 33, /* VM-entry failures, with bit 31 */
	EXIT_REASON_MSR_LOADING = 34,
	EXIT_REASON_MWAIT = 36,
	EXIT_REASON_MONITOR_TRAP_FLAG = 37,
	EXIT_REASON_MONITOR = 39,
	EXIT_REASON_PAUSE = 40,
	EXIT_REASON_MACHINE_CHECK_AT_ENTRY = 41,
	EXIT_REASON_TPR_BELOW_THRESHOLD = 43,
	EXIT_REASON_APIC_ACCESS = 44,
	EXIT_REASON_VIRTUALIZED_EOI = 45,
	EXIT_REASON_GDTR_IDTR = 46,
	EXIT_REASON_LDTR_TR = 47,
	EXIT_REASON_EPT_VIOLATION = 48,
	EXIT_REASON_EPT_MISCONFIG = 49,
	EXIT_REASON_INVEPT = 50,
	EXIT_REASON_RDTSCP = 51,
	EXIT_REASON_PREEMPTION_TIMER = 52,
	EXIT_REASON_INVVPID = 53,
	EXIT_REASON_WBINVD = 54,
	EXIT_REASON_XSETBV = 55,
	EXIT_REASON_APIC_WRITE = 56,
	EXIT_REASON_RDRAND = 57,
	EXIT_REASON_INVPCID = 58,
	EXIT_REASON_VMFUNC = 59,
	EXIT_REASON_ENCLS = 60,
	EXIT_REASON_RDSEED = 61,
	EXIT_REASON_PML_FULL = 62,
	EXIT_REASON_XSAVES = 63,
	EXIT_REASON_XRSTORS = 64,
	EXIT_REASON_SPP = 66,
	EXIT_REASON_UMWAIT = 67,
	EXIT_REASON_TPAUSE = 68,
};

/* The exit-reason field (SDM vol. 3C, 25.9.1): the basic reason in bits 15:0, bit 31 set
 * when the VM entry itself failed. */
#define VMX_EXIT_ENTRY_FAILURE BIT(31)
static inline u16 vmx_exit_basic(u32 reason) { return reason & 0xFFFF; }

/* An I/O instruction (SDM vol. 3C, table 28-5). */
struct vmx_io_qual {
	u16 port;
	u8 size; /* bytes: 1, 2 or 4 */
	bool in, string, rep;
	bool imm; /* the port was an immediate operand, not DX */
};
struct vmx_io_qual vmx_io_qual(u64 q);

/* An EPT violation (SDM vol. 3C, table 28-7). */
struct vmx_ept_qual {
	bool read, write, fetch; /* the access that faulted (a write can be read too) */
	u8 allowed; /* what the GPA's EPT entries allow: bit 0 read, 1 write, 2 execute */
	/* The guest linear-address field holds the address the guest used; then
	 * `translated` says the access was to it, not to one of the guest's own paging
	 * structures on the way. */
	bool linear_valid, translated;
	bool nmi_unblocked; /* the faulting IRET had unblocked NMIs: block them again */
};
struct vmx_ept_qual vmx_ept_qual(u64 q);

#endif
