/* SPDX-License-Identifier: GPL-2.0-only */
/* The x86 layer's one interface to a hardware virtualization extension (AMD SVM, Intel
 * VMX): a table per vendor, chosen once at boot from CPUID (virt_probe.c, boot.c), so that
 * one hv.efi runs on either. Code outside a vendor's directory (arch/x86/svm/,
 * arch/x86/vmx/) reaches a guest's state only through it: the general registers are the
 * vCPU's own array (arch_vcpu.gpr, RAX and RSP included), the rest is read through the
 * accessors below.
 * Models read: Xen's hvm_function_table, Jailhouse's vcpu_vendor_* accessors. */
#ifndef ARCH_X86_VENDOR_H
#define ARCH_X86_VENDOR_H

#include "arch/cpu.h"
#include "arch/x86/decode.h"
#include "hv/arch.h"
#include "hv/selftest.h"
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

#define X86_RFLAGS_TF BIT(8)
#define X86_RFLAGS_IF BIT(9)
#define X86_RFLAGS_RF BIT(16)
/* DR6 (SDM vol. 3B, 18.2.3): B0-B3, the breakpoints that matched; BD, BS, BT (general
 * detect, single step, task switch); the reserved bits 4-11 and 16-31 read as 1. */
#define X86_DR6_B0_B3 0xFull
#define X86_DR6_BD BIT(13)
#define X86_DR6_BS BIT(14)
#define X86_DR6_BT BIT(15)
#define X86_DR6_FIXED_1 0xFFFF0FF0ull

/* Whether an exception is a fault (SDM vol. 3A, table 6-1), which a CPU delivers with RF
 * set in the RFLAGS image it pushes, so that no instruction breakpoint stops the
 * instruction it restarts a second time (SDM vol. 3B, 18.3.1.1); KVM sets RF for the
 * faults it injects too. #DB counts as a trap (an instruction breakpoint's own is the
 * CPU's), as #BP and #OF; #DF and #MC are aborts. */
static inline bool x86_exception_is_fault(u8 vector)
{
	switch (vector) {
	case 1:
	case 3:
	case 4:
	case 8:
	case 18:
		return false;
	}
	return vector < 32;
}

/* DR6 after a #DB whose causes are status (as DR6 has them): B0-B3 the #DB's own, BD, BS
 * and BT set for it and kept once set, as the CPU never clears them (SDM vol. 3B, 18.2.3;
 * KVM's kvm_deliver_exception_payload). */
static inline u64 x86_dr6_after_db(u64 dr6, u64 status)
{
	u64 sticky = X86_DR6_BD | X86_DR6_BS | X86_DR6_BT;
	return X86_DR6_FIXED_1 | (dr6 & sticky) | (status & (X86_DR6_B0_B3 | sticky));
}

/* An exit as the shared handlers (vcpu.c) see it, decoded by the vendor from its own
 * (VMCB exit code and info, VMCS exit reason and qualification), as arm64 decodes ESR_EL2.
 * Exits of the vendor's own mechanisms (SVM: the IRET and CR8-write intercepts, the
 * intercepted #DB and #AC) it handles itself: X86_EXIT_HANDLED. */
enum x86_exit_reason {
	X86_EXIT_HANDLED,
	X86_EXIT_HOST,	     /* a host interrupt, NMI, SMI or INIT: the pCPU is wanted */
	X86_EXIT_IRQ_WINDOW, /* the guest can take an interrupt now */
	X86_EXIT_CPUID,
	X86_EXIT_MSR,
	X86_EXIT_XSETBV,
	X86_EXIT_IO,
	X86_EXIT_MMIO, /* an access to guest-physical memory that is not RAM */
	X86_EXIT_HLT,
	X86_EXIT_HYPERCALL,
	X86_EXIT_TRIPLE_FAULT, /* reported by the vendor, which has the state to show */
	X86_EXIT_CACHE_FLUSH,  /* INVD, WBINVD */
	X86_EXIT_ICEBP,	       /* INT1, before it runs */
	X86_EXIT_PAUSE,	       /* before it runs */
	X86_EXIT_UNSUPPORTED,  /* an instruction the guest is not offered: #UD */
	X86_EXIT_STOP,	       /* the vendor stopped the VM, after saying why */
};

struct x86_exit {
	enum x86_exit_reason reason;
	enum exit_kind kind; /* how it is counted (hv/stats.h) */
	u64 code, info;	     /* the vendor's own, for messages */
	/* The exiting instruction's length where the CPU says it, else 0 (the handler knows
	 * it: SVM without NRIP save). */
	u8 insn_len;
	bool write; /* X86_EXIT_MSR: WRMSR; X86_EXIT_IO: OUT */
	/* X86_EXIT_IO: the port, the access size in bytes, a string instruction */
	u16 port;
	u8 size;
	bool string;
	u64 gpa; /* X86_EXIT_MMIO */
	/* X86_EXIT_MMIO: the exit came while the CPU delivered an event (event: the vendor's
	 * encoding, for the message) */
	bool delivering;
	u64 event;
};

/* An event whose delivery an exit cut short, as the injection policy (inject.h) needs it. */
enum x86_event_kind {
	X86_EVENT_NONE,
	X86_EVENT_IRQ,	 /* an interrupt of the vLAPIC (acknowledged: in its ISR) */
	X86_EVENT_NMI,	 /* NMIs are blocked since its delivery began */
	X86_EVENT_OTHER, /* an exception or software interrupt: recurs when its instruction runs */
};

struct x86_event {
	enum x86_event_kind kind;
	u8 vector;
};

struct arch_pcpu;

struct x86_vendor {
	const char *name; /* "AMD SVM" */
	/* What else the backend needs of the CPU (nested paging, ...): 0, or -1 with *why. */
	int (*check)(const char **why);
	/* Its features for the banner ("SVM rev 1, 16 ASIDs; NPT"). */
	void (*describe)(char *buf, size_t n);
	/* Clears from the guest's CPUID leaf (as the policy made it) what cannot run under
	 * this backend on this CPU; NULL: nothing. */
	void (*cpuid_filter)(u32 leaf, u32 sub, u32 r[4]);
	/* Whether host code at rip runs with a guest's GS base, where the CPU holds
	 * interrupts (x86_trap); NULL: nowhere. */
	bool (*guest_gs_at)(u64 rip);
	/* Makes this pCPU able to run guests (at its takeover). */
	void (*pcpu_enable)(struct arch_pcpu *p);
	/* The VM's nested paging and address-space tag; -1 after saying why. */
	int (*vm_init)(struct vm *vm);
	/* The vCPU's control structure; vCPU 0 as *boot says, the others wait for a STARTUP. */
	int (*vcpu_init)(struct vcpu *v, const struct x86_boot *boot);
	/* The state after INIT (SDM vol. 3A, table 10-1): real mode, the general registers
	 * cleared, pending events dropped, NMIs unblocked, XCR0 1; CS and RIP as given. */
	void (*vcpu_reset)(struct vcpu *v, u16 cs_sel, u64 cs_base, u64 rip);
	/* The vCPU comes to this pCPU, or leaves it (arch_vcpu_load, arch_vcpu_put): where
	 * the vendor keeps state in the CPU between entries (VMX: the current VMCS). NULL:
	 * none (SVM: the VMCB is memory, VMRUN and VMLOAD switch the rest). */
	void (*load)(struct vcpu *v);
	void (*put)(struct vcpu *v);
	/* Events: the mechanisms under the injection policy (inject.h), before an entry. */
	/* The last entry's windows and offers undone; window: this entry asks for an
	 * interrupt window. */
	void (*events_begin)(struct vcpu *v, bool window);
	/* The event whose delivery the last exit cut short, if any. */
	struct x86_event (*cut_short)(struct vcpu *v);
	/* That event to be delivered again as it was, or forgotten (the policy has put it
	 * back where it came from). */
	void (*redeliver)(struct vcpu *v);
	void (*drop_cut_short)(struct vcpu *v);
	/* The exit's handler has raised an exception for the entry (inject_exception). */
	bool (*exception_queued)(struct vcpu *v);
	/* NMIs: blocked now; unblocked (a cut-short NMI waits again); one delivered at the
	 * entry; an exit as soon as one can be. */
	bool (*nmi_blocked)(struct vcpu *v);
	void (*unblock_nmi)(struct vcpu *v);
	void (*inject_nmi)(struct vcpu *v);
	void (*request_nmi_window)(struct vcpu *v);
	/* The CPU delivers the vLAPIC's interrupts itself at this entry (AVIC, APICv). */
	bool (*cpu_delivers)(struct vcpu *v);
	/* Interrupt vector, acknowledged in the vLAPIC, delivered at the entry; an exit as soon
	 * as the guest can take an interrupt. */
	void (*inject_irq)(struct vcpu *v, u8 vector);
	void (*request_irq_window)(struct vcpu *v);
	/* Runs the guest until its next exit. */
	void (*enter)(struct vcpu *v);
	/* That exit, decoded into *e (or handled, the vendor's own). */
	void (*decode)(struct vcpu *v, struct x86_exit *e);
	/* Moves RIP past the exiting instruction of len bytes (the CPU's own length where it
	 * gives one), done as a CPU completes it: an interrupt shadow ended, RFLAGS.RF clear
	 * (SDM vol. 3B, 18.3.1.1), RFLAGS.TF the guest's own. The single-step trap after it
	 * is x86_skip's. */
	void (*skip)(struct vcpu *v, const struct x86_exit *e, u8 len);
	void (*inject_exception)(struct vcpu *v, u8 vector, bool has_err, u32 err);
	/* A #DB for the entry, its causes status written into the guest's DR6 as the CPU
	 * writes them (x86_dr6_after_db). */
	void (*inject_db)(struct vcpu *v, u64 status);
	/* A #PF at linear address la with error code err (CR2 = la). */
	void (*inject_page_fault)(struct vcpu *v, u64 la, u32 err);
	u64 (*get)(struct vcpu *v, enum x86_reg r);
	/* An emulated instruction's RFLAGS (its status flags), for the next entry. */
	void (*set_rflags)(struct vcpu *v, u64 rflags);
	struct x86_segment (*segment)(struct vcpu *v, enum x86_seg s);
	/* The guest's TSC is the host's plus offset (mod 2^64) from the next entry on; the
	 * vCPU is loaded. */
	void (*set_tsc_offset)(struct vcpu *v, u64 offset);
	/* RFLAGS.IF set and no interrupt shadow: an interrupt can be injected now. */
	bool (*interruptible)(struct vcpu *v);
	/* arch_notify_running (hv/arch.h); NULL: no posted interrupts. */
	bool (*notify)(struct vcpu *v, u32 pcpu);
	/* The hardware self-test (hv/selftest.h): whether VMs get the CPU's APIC
	 * virtualization (then one runs with it), and what this CPU has. */
	bool (*apic_virtualization)(void);
	const char *apicv_vm; /* the name of that VM: "avic", "apicv" */
	u32 (*selftest_features)(struct selftest_feature *f, u32 max);
};

/* The backend in use (boot.c), and each one built. */
extern const struct x86_vendor *x86_vendor;
extern const struct x86_vendor svm_vendor, vmx_vendor;

static inline u64 x86_get(struct vcpu *v, enum x86_reg r) { return x86_vendor->get(v, r); }

/* The exiting instruction done in the guest's place (vcpu.c): RIP past it (skip), then the
 * single-step trap of RFLAGS.TF. */
void x86_skip(struct vcpu *v, const struct x86_exit *e, u8 len);

/* 64, 32 or 16: the mode of the code the guest runs (EFER.LMA with CS.L; else CS.D). */
static inline int x86_guest_mode(struct vcpu *v)
{
	u16 cs = x86_vendor->segment(v, X86_SEG_CS).attr;
	if ((x86_get(v, X86_EFER) & EFER_LMA) && (cs & X86_SEG_ATTR_L))
		return 64;
	return cs & X86_SEG_ATTR_DB ? 32 : 16;
}

#endif
