/* SPDX-License-Identifier: GPL-2.0-only */
/* The x86 layer's one interface to a hardware virtualization extension (AMD SVM; Intel
 * VMX next): a table per vendor, chosen once at boot from CPUID (virt_probe.c, boot.c), so
 * that one hv.efi runs on either. Code outside a vendor's directory (arch/x86/svm/) reaches
 * a guest's state only through it: the general registers are the vCPU's own array
 * (arch_vcpu.gpr, RAX and RSP included), the rest is read through the accessors below.
 * Models read: Xen's hvm_function_table, Jailhouse's vcpu_vendor_* accessors. */
#ifndef ARCH_X86_VENDOR_H
#define ARCH_X86_VENDOR_H

#include "arch/cpu.h"
#include "arch/x86/decode.h"
#include "hv/arch.h"
#include "hv/vm.h"

/* Guest registers that live in the vendor's structure (VMCB, VMCS). */
enum x86_reg { X86_RIP, X86_RFLAGS, X86_CR0, X86_CR3, X86_CR4, X86_EFER, X86_CPL };

/* A segment register. attr packs the descriptor's bits 40-47 (type, S, DPL, P) into 0-7
 * and 52-55 (AVL, L, D/B, G) into 8-11, as the VMCB holds it (AMD APM vol. 2, 15.5.1). */
struct x86_segment {
	u16 sel, attr;
	u32 limit;
	u64 base;
};
#define X86_SEG_ATTR_L BIT(9)	/* 64-bit code segment */
#define X86_SEG_ATTR_DB BIT(10) /* 32-bit default operand size */

#define X86_RFLAGS_IF BIT(9)

struct x86_vendor {
	const char *name; /* "AMD SVM" */
	/* What else the backend needs of the CPU (nested paging, ...): 0, or -1 with *why. */
	int (*check)(const char **why);
	/* Its features for the banner ("SVM rev 1, 16 ASIDs; NPT"). */
	void (*describe)(char *buf, size_t n);
	/* The VM's nested paging and address-space tag; -1 after saying why. */
	int (*vm_init)(struct vm *vm);
	/* The vCPU's control structure; vCPU 0 as *boot says, the others wait for a STARTUP. */
	int (*vcpu_init)(struct vcpu *v, const struct x86_boot *boot);
	/* The state after INIT (SDM vol. 3A, table 10-1): real mode, the general registers
	 * cleared, pending events dropped, NMIs unblocked, XCR0 1; CS and RIP as given. */
	void (*vcpu_reset)(struct vcpu *v, u16 cs_sel, u64 cs_base, u64 rip);
	/* Runs the vCPU until the scheduler, a halt or a stop takes it out (hv/arch.h). */
	enum run_result (*run)(struct vcpu *v);
	u64 (*get)(struct vcpu *v, enum x86_reg r);
	struct x86_segment (*segment)(struct vcpu *v, enum x86_seg s);
	/* RFLAGS.IF set and no interrupt shadow: an interrupt can be injected now. */
	bool (*interruptible)(struct vcpu *v);
};

/* The backend in use (boot.c), and each one built. */
extern const struct x86_vendor *x86_vendor;
extern const struct x86_vendor svm_vendor;

static inline u64 x86_get(struct vcpu *v, enum x86_reg r) { return x86_vendor->get(v, r); }

/* 64, 32 or 16: the mode of the code the guest runs (EFER.LMA with CS.L; else CS.D). */
static inline int x86_guest_mode(struct vcpu *v)
{
	u16 cs = x86_vendor->segment(v, X86_SEG_CS).attr;
	if ((x86_get(v, X86_EFER) & EFER_LMA) && (cs & X86_SEG_ATTR_L))
		return 64;
	return cs & X86_SEG_ATTR_DB ? 32 : 16;
}

#endif
