/* SPDX-License-Identifier: GPL-2.0-only */
/* What an Intel CPU's VMX offers, read from its VMX capability MSRs (SDM vol. 3D,
 * appendix A), and the controls the VMX backend sets, each adjusted against them: a
 * required control the CPU lacks is a refusal naming it; an optional one (the parts of
 * APICv, posted interrupts, PAUSE-loop exiting) is used where the CPU has it. */
#ifndef ARCH_X86_VMX_VMX_CAPS_H
#define ARCH_X86_VMX_VMX_CAPS_H

#include "arch/x86/virt_probe.h"

#define MSR_IA32_FEATURE_CONTROL 0x3Au
#define FEATURE_CONTROL_LOCKED BIT(0)
#define FEATURE_CONTROL_VMX_OUTSIDE_SMX BIT(2)
#define VMX_DISABLED_BY_FIRMWARE                                                         \
	"VMX is disabled by the firmware (IA32_FEATURE_CONTROL): enable virtualization " \
	"(VT-x) in the firmware setup"

#define MSR_VMX_BASIC 0x480u
#define MSR_VMX_PINBASED_CTLS 0x481u
#define MSR_VMX_PROCBASED_CTLS 0x482u
#define MSR_VMX_EXIT_CTLS 0x483u
#define MSR_VMX_ENTRY_CTLS 0x484u
#define MSR_VMX_MISC 0x485u
#define MSR_VMX_CR0_FIXED0 0x486u
#define MSR_VMX_CR0_FIXED1 0x487u
#define MSR_VMX_CR4_FIXED0 0x488u
#define MSR_VMX_CR4_FIXED1 0x489u
#define MSR_VMX_PROCBASED_CTLS2 0x48Bu
#define MSR_VMX_EPT_VPID_CAP 0x48Cu
#define MSR_VMX_TRUE_PINBASED_CTLS 0x48Du
#define MSR_VMX_TRUE_PROCBASED_CTLS 0x48Eu
#define MSR_VMX_TRUE_EXIT_CTLS 0x48Fu
#define MSR_VMX_TRUE_ENTRY_CTLS 0x490u

/* IA32_VMX_BASIC (SDM vol. 3D, A.1) */
#define VMX_BASIC_TRUE_CTLS BIT(55) /* the TRUE_* MSRs say which default-1 bits may be 0 */

/* The five sets of controls (SDM vol. 3C, 25.6-25.8). */
enum vmx_ctls { VMX_PIN, VMX_PROC, VMX_PROC2, VMX_EXIT, VMX_ENTRY, VMX_CTLS };

/* Pin-based VM-execution controls (SDM vol. 3C, table 25-5) */
#define PIN_EXT_INTR_EXITING BIT(0) /* host interrupts exit the guest */
#define PIN_NMI_EXITING BIT(3)
#define PIN_VIRTUAL_NMIS BIT(5)	    /* NMI blocking tracked for the guest; NMI-window exiting */
#define PIN_PREEMPTION_TIMER BIT(6) /* optional: an exit when a TSC-based count runs out */
#define PIN_POSTED_INTR BIT(7)	    /* optional */

/* Primary processor-based VM-execution controls (table 25-6) */
#define PROC_INTR_WINDOW_EXITING BIT(2)
#define PROC_USE_TSC_OFFSETTING BIT(3)
#define PROC_HLT_EXITING BIT(7)
#define PROC_MWAIT_EXITING BIT(10)
#define PROC_TPR_SHADOW BIT(21)
#define PROC_NMI_WINDOW_EXITING BIT(22)
#define PROC_USE_IO_BITMAPS BIT(25)
#define PROC_USE_MSR_BITMAPS BIT(28)
#define PROC_MONITOR_EXITING BIT(29)
#define PROC_PAUSE_EXITING BIT(30) /* optional: spin detection (hv/sched.h) */
#define PROC_SECONDARY_CTLS BIT(31)

/* Secondary processor-based VM-execution controls (table 25-7) */
#define PROC2_ENABLE_EPT BIT(1)
#define PROC2_ENABLE_RDTSCP BIT(3)    /* optional: else RDTSCP is #UD */
#define PROC2_VIRT_X2APIC_MODE BIT(4) /* optional (APICv) */
#define PROC2_ENABLE_VPID BIT(5)      /* optional: without it every entry flushes */
#define PROC2_WBINVD_EXITING BIT(6)
#define PROC2_UNRESTRICTED_GUEST BIT(7)
#define PROC2_APIC_REGISTER_VIRT BIT(8)	 /* optional (APICv) */
#define PROC2_VIRT_INTR_DELIVERY BIT(9)	 /* optional (APICv) */
#define PROC2_PAUSE_LOOP_EXITING BIT(10) /* optional */
#define PROC2_ENABLE_INVPCID BIT(12)	 /* optional: else INVPCID is #UD */

/* Primary VM-exit controls (25.7.1) */
#define EXIT_SAVE_DEBUG_CONTROLS BIT(2)	 /* the guest's DR7 and DEBUGCTL saved */
#define EXIT_HOST_ADDR_SPACE_SIZE BIT(9) /* the host runs in 64-bit mode */
#define EXIT_ACK_INTR_ON_EXIT BIT(15)	 /* the vector of the host interrupt in the exit */
#define EXIT_SAVE_PAT BIT(18)
#define EXIT_LOAD_PAT BIT(19)
#define EXIT_SAVE_EFER BIT(20)
#define EXIT_LOAD_EFER BIT(21)

/* VM-entry controls (25.8.1) */
#define ENTRY_LOAD_DEBUG_CONTROLS BIT(2) /* the guest's DR7 and DEBUGCTL loaded */
#define ENTRY_IA32E_MODE_GUEST BIT(9)
#define ENTRY_LOAD_PAT BIT(14)
#define ENTRY_LOAD_EFER BIT(15)

/* IA32_VMX_EPT_VPID_CAP (SDM vol. 3D, A.10) */
#define EPT_CAP_WALK_4 BIT(6)
#define EPT_CAP_WB BIT(14)
#define EPT_CAP_2M BIT(16)
#define EPT_CAP_1G BIT(17)
#define EPT_CAP_INVEPT BIT(20)
#define EPT_CAP_AD BIT(21)
#define EPT_CAP_INVEPT_SINGLE BIT(25)
#define EPT_CAP_INVEPT_ALL BIT(26)
#define VPID_CAP_INVVPID BIT(32)
#define VPID_CAP_INVVPID_ADDR BIT(40)
#define VPID_CAP_INVVPID_SINGLE BIT(41)
#define VPID_CAP_INVVPID_ALL BIT(42)
#define VPID_CAP_INVVPID_SINGLE_NONGLOBAL BIT(43)

/* The extents of INVEPT and INVVPID (SDM vol. 3C, VMX instruction reference: their type
 * operand) */
enum vmx_inv_type { VMX_INV_ADDR, VMX_INV_SINGLE, VMX_INV_ALL, VMX_INV_SINGLE_NONGLOBAL };

struct vmx_caps {
	u32 revision;	       /* VMCS revision identifier: the first word of every VMCS */
	u32 vmcs_size;	       /* bytes of the VMCS region (and of the VMXON region) */
	u64 ctl_msr[VMX_CTLS]; /* the capability MSR of each set (TRUE_* where present) */
	u64 ept_vpid;	       /* IA32_VMX_EPT_VPID_CAP, 0 without EPT and VPID */
	u64 misc;	       /* IA32_VMX_MISC */
	u64 feature_control;
	/* The CR0 and CR4 bits of VMX operation (A.7, A.8): a bit 1 in fixed0 must be 1,
	 * a bit 0 in fixed1 must be 0. */
	u64 cr0_fixed0, cr0_fixed1, cr4_fixed0, cr4_fixed1;
	/* The INVEPT and INVVPID types the CPU has, BIT(enum vmx_inv_type) each */
	u8 invept, invvpid;
	/* What the backend uses: EPT with 4-level walks and write-back paging structures,
	 * 2 MiB leaves, accessed/dirty flags; VPID (the control and INVVPID); the controls
	 * of the rest that the CPU can set (allowed-1) */
	bool ept, ept_walk4_wb, ept_2m, ept_ad, vpid, unrestricted_guest;
	bool x2apic_virt, apic_register_virt, virt_intr_delivery, posted_intr, pause_loop;
	bool pause_exiting, preemption_timer;
};

/* Reads the capability MSRs through read_msr; the ones that exist only with a feature
 * (SDM vol. 3D, A.3.3, A.10) are read only when the CPU says so. */
void vmx_caps_probe(rdmsr_fn read_msr, struct vmx_caps *c);

/* The value for the controls of `set` with every bit of `want` 1 and the others as the
 * capability MSR cap allows (A.3: bits 31:0 the allowed-0 settings, 1 where the control
 * must be 1; bits 63:32 the allowed-1 settings, 0 where it must be 0): 0 and *out, or -1
 * with *why naming the first control of `want` that the CPU cannot set. */
int vmx_adjust(enum vmx_ctls set, u32 want, u64 cap, u32 *out, const char **why);

/* The controls of every set that the backend runs with (required, and the optional ones
 * the CPU has), adjusted: 0, or -1 with *why naming the missing one. */
int vmx_controls(const struct vmx_caps *c, u32 out[VMX_CTLS], const char **why);

/* 0 when the backend can run on this CPU, else -1 and the reason. */
int vmx_caps_check(const struct vmx_caps *c, const char **why);

/* For the boot banner: "VMX rev 1, EPT (2M, A/D) VPID unrestricted-guest; APICv: ..." */
void vmx_caps_describe(const struct vmx_caps *c, char *buf, size_t n);

#endif
