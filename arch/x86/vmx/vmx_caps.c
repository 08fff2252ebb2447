/* SPDX-License-Identifier: GPL-2.0-only */
/* The VMX capability MSRs read and judged (vmx_caps.h). */
#include "arch/x86/vmx/vmx_caps.h"
#include "hv/lib.h"

static const char *const set_names[VMX_CTLS] = {
	[VMX_PIN] = "pin-based control",
	[VMX_PROC] = "primary processor-based control",
	[VMX_PROC2] = "secondary processor-based control",
	[VMX_EXIT] = "VM-exit control",
	[VMX_ENTRY] = "VM-entry control",
};

/* What the CPU cannot do when it lacks a control the backend sets. */
static const struct control_name {
	enum vmx_ctls set;
	u32 bit;
	const char *does;
} control_names[] = {
	{ VMX_PIN, PIN_EXT_INTR_EXITING, "exit on external interrupts" },
	{ VMX_PIN, PIN_NMI_EXITING, "exit on NMIs" },
	{ VMX_PIN, PIN_VIRTUAL_NMIS, "virtualize NMIs" },
	{ VMX_PIN, PIN_POSTED_INTR, "process posted interrupts" },
	{ VMX_PIN, PIN_PREEMPTION_TIMER, "activate the VMX-preemption timer" },
	{ VMX_PROC, PROC_INTR_WINDOW_EXITING, "exit at an interrupt window" },
	{ VMX_PROC, PROC_HLT_EXITING, "exit on HLT" },
	{ VMX_PROC, PROC_MWAIT_EXITING, "exit on MWAIT" },
	{ VMX_PROC, PROC_TPR_SHADOW, "shadow the TPR" },
	{ VMX_PROC, PROC_NMI_WINDOW_EXITING, "exit at an NMI window" },
	{ VMX_PROC, PROC_USE_IO_BITMAPS, "use I/O bitmaps" },
	{ VMX_PROC, PROC_USE_MSR_BITMAPS, "use MSR bitmaps" },
	{ VMX_PROC, PROC_MONITOR_EXITING, "exit on MONITOR" },
	{ VMX_PROC, PROC_SECONDARY_CTLS, "activate the secondary controls" },
	{ VMX_PROC2, PROC2_ENABLE_EPT, "enable EPT" },
	{ VMX_PROC2, PROC2_VIRT_X2APIC_MODE, "virtualize x2APIC mode" },
	{ VMX_PROC2, PROC2_ENABLE_VPID, "enable VPID" },
	{ VMX_PROC2, PROC2_WBINVD_EXITING, "exit on WBINVD" },
	{ VMX_PROC2, PROC2_UNRESTRICTED_GUEST, "run an unrestricted guest" },
	{ VMX_PROC2, PROC2_APIC_REGISTER_VIRT, "virtualize APIC registers" },
	{ VMX_PROC2, PROC2_VIRT_INTR_DELIVERY, "deliver virtual interrupts" },
	{ VMX_PROC2, PROC2_PAUSE_LOOP_EXITING, "exit on PAUSE loops" },
	{ VMX_EXIT, EXIT_SAVE_DEBUG_CONTROLS, "save the guest's debug controls" },
	{ VMX_EXIT, EXIT_HOST_ADDR_SPACE_SIZE, "return to a 64-bit host" },
	{ VMX_EXIT, EXIT_ACK_INTR_ON_EXIT, "acknowledge interrupts on exit" },
	{ VMX_EXIT, EXIT_SAVE_PAT, "save the guest's PAT" },
	{ VMX_EXIT, EXIT_LOAD_PAT, "load the host's PAT" },
	{ VMX_EXIT, EXIT_SAVE_EFER, "save the guest's EFER" },
	{ VMX_EXIT, EXIT_LOAD_EFER, "load the host's EFER" },
	{ VMX_ENTRY, ENTRY_LOAD_DEBUG_CONTROLS, "load the guest's debug controls" },
	{ VMX_ENTRY, ENTRY_IA32E_MODE_GUEST, "enter a 64-bit guest" },
	{ VMX_ENTRY, ENTRY_LOAD_PAT, "load the guest's PAT" },
	{ VMX_ENTRY, ENTRY_LOAD_EFER, "load the guest's EFER" },
};

static bool allowed1(u64 cap, u32 bit) { return (cap >> 32) & bit; }

int vmx_adjust(enum vmx_ctls set, u32 want, u64 cap, u32 *out, const char **why)
{
	static char reason[128];
	u32 missing = want & ~(u32)(cap >> 32);
	if (missing) {
		u32 bit = missing & -missing;
		const char *does = NULL;
		for (size_t i = 0; i < ARRAY_SIZE(control_names); i++)
			if (control_names[i].set == set && control_names[i].bit == bit)
				does = control_names[i].does;
		snprintf(reason, sizeof reason, "the CPU cannot %s (%s bit %u)",
			 does ? does : "set a control the backend needs", set_names[set],
			 (unsigned)__builtin_ctz(bit));
		*why = reason;
		return -1;
	}
	*out = want | (u32)cap;
	return 0;
}

/* Posted interrupts are delivered through virtual-interrupt delivery and need the
 * host's interrupt acknowledged at the exit (SDM vol. 3C, 26.2.1.1), which is used
 * wherever the CPU has it (else a host interrupt stays pending in the local APIC across
 * the exit, for the host's IDT). */
int vmx_controls(const struct vmx_caps *c, u32 out[VMX_CTLS], const char **why)
{
	bool ack = allowed1(c->ctl_msr[VMX_EXIT], EXIT_ACK_INTR_ON_EXIT);
	bool posted = c->posted_intr && c->virt_intr_delivery && ack;
	/* Instructions a guest may find in CPUID that are #UD in VMX non-root operation
	 * unless enabled: enabled where the CPU can. */
	u32 proc2 = (u32)(c->ctl_msr[VMX_PROC2] >> 32);
	const u32 want[VMX_CTLS] = {
		[VMX_PIN] = PIN_EXT_INTR_EXITING | PIN_NMI_EXITING | PIN_VIRTUAL_NMIS |
			    (posted ? PIN_POSTED_INTR : 0) |
			    (c->preemption_timer ? PIN_PREEMPTION_TIMER : 0),
		[VMX_PROC] = PROC_INTR_WINDOW_EXITING | PROC_USE_TSC_OFFSETTING | PROC_HLT_EXITING |
			     PROC_TPR_SHADOW | PROC_NMI_WINDOW_EXITING | PROC_USE_IO_BITMAPS |
			     PROC_USE_MSR_BITMAPS | PROC_SECONDARY_CTLS | PROC_MWAIT_EXITING |
			     PROC_MONITOR_EXITING,
		[VMX_PROC2] = PROC2_ENABLE_EPT | PROC2_UNRESTRICTED_GUEST | PROC2_WBINVD_EXITING |
			      (c->vpid ? PROC2_ENABLE_VPID : 0) |
			      (c->x2apic_virt ? PROC2_VIRT_X2APIC_MODE : 0) |
			      (c->apic_register_virt ? PROC2_APIC_REGISTER_VIRT : 0) |
			      (c->virt_intr_delivery ? PROC2_VIRT_INTR_DELIVERY : 0) |
			      (c->pause_loop ? PROC2_PAUSE_LOOP_EXITING : 0) |
			      (proc2 & (PROC2_ENABLE_RDTSCP | PROC2_ENABLE_INVPCID)),
		[VMX_EXIT] = EXIT_SAVE_DEBUG_CONTROLS | EXIT_HOST_ADDR_SPACE_SIZE |
			     (ack ? EXIT_ACK_INTR_ON_EXIT : 0) | EXIT_SAVE_PAT | EXIT_LOAD_PAT |
			     EXIT_SAVE_EFER | EXIT_LOAD_EFER,
		/* IA-32e mode guest: the guest's EFER.LMA at each entry, so it must be
		 * settable; VMX_MISC_STORE_LMA keeps it current at exits. */
		[VMX_ENTRY] = ENTRY_LOAD_DEBUG_CONTROLS | ENTRY_IA32E_MODE_GUEST | ENTRY_LOAD_PAT |
			      ENTRY_LOAD_EFER,
	};
	for (int s = 0; s < VMX_CTLS; s++)
		if (vmx_adjust(s, want[s], c->ctl_msr[s], &out[s], why))
			return -1;
	return 0;
}

void vmx_caps_probe(rdmsr_fn read_msr, struct vmx_caps *c)
{
	memset(c, 0, sizeof *c);
	u64 basic = read_msr(MSR_VMX_BASIC);
	bool true_ctls = basic & VMX_BASIC_TRUE_CTLS;
	c->revision = basic & 0x7FFFFFFF;
	c->vmcs_size = (basic >> 32) & 0x1FFF;
	c->ctl_msr[VMX_PIN] = read_msr(true_ctls ? MSR_VMX_TRUE_PINBASED_CTLS
						 : MSR_VMX_PINBASED_CTLS);
	c->ctl_msr[VMX_PROC] = read_msr(true_ctls ? MSR_VMX_TRUE_PROCBASED_CTLS
						  : MSR_VMX_PROCBASED_CTLS);
	c->ctl_msr[VMX_EXIT] = read_msr(true_ctls ? MSR_VMX_TRUE_EXIT_CTLS : MSR_VMX_EXIT_CTLS);
	c->ctl_msr[VMX_ENTRY] = read_msr(true_ctls ? MSR_VMX_TRUE_ENTRY_CTLS : MSR_VMX_ENTRY_CTLS);
	/* A.3.3: PROCBASED_CTLS2 exists where the secondary controls can be activated;
	 * A.10: EPT_VPID_CAP where EPT or VPID can be enabled. */
	if (allowed1(c->ctl_msr[VMX_PROC], PROC_SECONDARY_CTLS))
		c->ctl_msr[VMX_PROC2] = read_msr(MSR_VMX_PROCBASED_CTLS2);
	u64 proc2 = c->ctl_msr[VMX_PROC2];
	if (allowed1(proc2, PROC2_ENABLE_EPT | PROC2_ENABLE_VPID))
		c->ept_vpid = read_msr(MSR_VMX_EPT_VPID_CAP);
	c->misc = read_msr(MSR_VMX_MISC);
	c->feature_control = read_msr(MSR_IA32_FEATURE_CONTROL);
	c->cr0_fixed0 = read_msr(MSR_VMX_CR0_FIXED0);
	c->cr0_fixed1 = read_msr(MSR_VMX_CR0_FIXED1);
	c->cr4_fixed0 = read_msr(MSR_VMX_CR4_FIXED0);
	c->cr4_fixed1 = read_msr(MSR_VMX_CR4_FIXED1);

	u64 ev = c->ept_vpid;
	c->ept = allowed1(proc2, PROC2_ENABLE_EPT);
	if (c->ept) {
		c->ept_walk4_wb = (ev & EPT_CAP_WALK_4) && (ev & EPT_CAP_WB);
		c->ept_2m = ev & EPT_CAP_2M;
		c->ept_ad = ev & EPT_CAP_AD;
		if (ev & EPT_CAP_INVEPT)
			c->invept = (ev & EPT_CAP_INVEPT_SINGLE ? BIT(VMX_INV_SINGLE) : 0) |
				    (ev & EPT_CAP_INVEPT_ALL ? BIT(VMX_INV_ALL) : 0);
	}
	if (allowed1(proc2, PROC2_ENABLE_VPID) && (ev & VPID_CAP_INVVPID))
		c->invvpid = (u8)((ev >> 40) & 0xF); /* bits 43:40, one per type 0-3 */
	/* VPID tags the guest's TLB entries; INVVPID of a single context or all of them
	 * drops them when a VPID is reused. */
	c->vpid = c->invvpid & (BIT(VMX_INV_SINGLE) | BIT(VMX_INV_ALL));
	c->unrestricted_guest = allowed1(proc2, PROC2_UNRESTRICTED_GUEST);
	c->x2apic_virt = allowed1(proc2, PROC2_VIRT_X2APIC_MODE);
	c->apic_register_virt = allowed1(proc2, PROC2_APIC_REGISTER_VIRT);
	c->virt_intr_delivery = allowed1(proc2, PROC2_VIRT_INTR_DELIVERY);
	c->posted_intr = allowed1(c->ctl_msr[VMX_PIN], PIN_POSTED_INTR);
	c->preemption_timer = allowed1(c->ctl_msr[VMX_PIN], PIN_PREEMPTION_TIMER);
	c->pause_loop = allowed1(proc2, PROC2_PAUSE_LOOP_EXITING);
	c->pause_exiting = allowed1(c->ctl_msr[VMX_PROC], PROC_PAUSE_EXITING);
}

int vmx_caps_check(const struct vmx_caps *c, const char **why)
{
	u32 ctls[VMX_CTLS];
	/* SDM vol. 3C, 24.7: VMXON outside SMX faults unless bit 2 is set; once bit 0
	 * (lock) is set only a reset clears it. Unlocked, the backend sets both. */
	if ((c->feature_control & FEATURE_CONTROL_LOCKED) &&
	    !(c->feature_control & FEATURE_CONTROL_VMX_OUTSIDE_SMX)) {
		*why = VMX_DISABLED_BY_FIRMWARE;
		return -1;
	}
	if (!c->ept) {
		*why = "the CPU has no EPT (secondary processor-based control bit 1): guests "
		       "cannot have their own physical memory";
		return -1;
	}
	if (!c->ept_walk4_wb) {
		*why = "the CPU's EPT has no 4-level walk with write-back tables "
		       "(IA32_VMX_EPT_VPID_CAP bits 6 and 14)";
		return -1;
	}
	if (!c->invept) {
		*why = "the CPU has no single- or all-context INVEPT (IA32_VMX_EPT_VPID_CAP "
		       "bits 20, 25, 26): stale EPT translations could not be dropped";
		return -1;
	}
	if (!c->unrestricted_guest) {
		*why = "the CPU has no unrestricted guest (secondary processor-based control "
		       "bit 7): vCPUs cannot start in real mode";
		return -1;
	}
	/* A.6: exits store EFER.LMA into the IA-32e mode guest entry control, which an
	 * unrestricted guest switching to long mode itself needs. */
	if (!(c->misc & BIT(5))) {
		*why = "the CPU does not keep the IA-32e mode guest control at exits "
		       "(IA32_VMX_MISC bit 5)";
		return -1;
	}
	return vmx_controls(c, ctls, why);
}

void vmx_caps_describe(const struct vmx_caps *c, char *buf, size_t n)
{
	const char *ept_extras[2][2] = { { "", " (A/D)" }, { " (2M)", " (2M, A/D)" } };
	bool apicv = c->x2apic_virt || c->apic_register_virt || c->virt_intr_delivery;
	snprintf(buf, n, "VMX rev %u, %s%s%s%s; %s%s%s%s; %s; %s", c->revision,
		 c->ept ? "EPT" : "no EPT", ept_extras[c->ept_2m][c->ept_ad],
		 c->vpid ? " VPID" : "", c->unrestricted_guest ? " unrestricted-guest" : "",
		 apicv ? "APICv:" : "no APICv", c->x2apic_virt ? " x2APIC-virt" : "",
		 c->apic_register_virt ? " register-virt" : "", c->virt_intr_delivery ? " VID" : "",
		 c->posted_intr ? "posted interrupts" : "no posted interrupts",
		 c->pause_loop ? "PLE" : "no PLE");
}
