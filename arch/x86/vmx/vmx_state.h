/* SPDX-License-Identifier: GPL-2.0-only */
/* What the VMX backend keeps per vCPU, per VM and per pCPU (the `vmx` members of struct
 * arch_vcpu, arch_vm and arch_pcpu): nothing outside arch/x86/vmx/ reads it.
 *
 * A VMCS is reached only through VMREAD and VMWRITE on the pCPU where it is current,
 * while the shared code asks for a vCPU's registers from anywhere (a halted vCPU's
 * RFLAGS.IF, a preempted one's CPL) and resets vCPUs that are not loaded (INIT, STARTUP).
 * So the registers vendor.h's accessors give are copied out at each exit (`regs`), and a
 * new state for a vCPU (its boot state, a reset) waits in `start` for its next entry. */
#ifndef ARCH_X86_VMX_VMX_STATE_H
#define ARCH_X86_VMX_VMX_STATE_H

#include "arch/x86/vmx/vmx_apicv.h"
#include "hv/types.h"

/* The guest's registers as at its last exit (and as the handlers changed them: `dirty`
 * ones are written back at the next entry). cr0 and cr4 are what the guest sees (the read
 * shadows for the bits the hypervisor owns). */
struct vmx_regs {
	u64 rip, rflags, cr0, cr3, cr4, efer;
	u8 cpl;
	u32 interruptibility; /* SDM vol. 3C, 25.4.2: STI and MOV SS blocking, NMI blocking */
	u16 cs_sel, cs_attr;  /* CS as vendor.h's struct x86_segment has it */
	u32 cs_limit;
	u64 cs_base;
};

/* The state a vCPU starts in at its next entry (vmx.c, write_start_state). */
enum vmx_start { VMX_START_NONE, VMX_START_BOOT, VMX_START_RESET };

struct vmx_vcpu {
	u8 *vmcs;	 /* page, identity-mapped (host address == physical address) */
	bool launched;	 /* VMLAUNCHed since its last VMCLEAR: the next entry is a VMRESUME */
	bool configured; /* controls and constant host state written */
	u32 proc, proc2; /* the primary and secondary processor-based controls in force */
	enum vmx_start start;
	struct vmx_regs regs;
	bool rip_dirty, interruptibility_dirty;
	u32 entry_event; /* VM_ENTRY_INTR_INFO for the next entry (an exception), 0 none */
	u32 entry_error;
	u8 entry_insn_len;
	/* The exit (SDM vol. 3C, 28.2) */
	u32 exit_reason, exit_intr_info, idt_vectoring, idt_vectoring_error;
	u64 exit_qual;
	u8 exit_insn_len;
	u64 cr2; /* not in the VMCS: in the CPU's register while the guest runs */
	/* APIC virtualization (vmx_apicv.h): the entry's state, the EOI-exit bitmap in the
	 * VMCS */
	struct vmx_apicv_entry apicv;
	u64 eoi_exit[4];
	/* Not switched by VM entry and exit (VMLOAD does it on SVM): the guest's, in the CPU
	 * while the vCPU is loaded (the host uses none of them). */
	u64 kernel_gs_base, star, lstar, cstar, sfmask;
	/* Not in the VMCS either (SVM's is in the VMCB): the guest's DR6, in the CPU while the
	 * vCPU is loaded (MOV DR does not exit), here while it is not. */
	u64 dr6;
};

struct vmx_vm {
	u64 eptp; /* EPT pointer: the root of the VM's EPT, walk length, memory type */
	u16 vpid; /* tags the VM's TLB entries (0 without VPID) */
};

struct vmx_pcpu {
	u8 *vmxon_region;
	struct vcpu *current; /* whose VMCS is current here */
};

#endif
