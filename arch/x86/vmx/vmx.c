/* SPDX-License-Identifier: GPL-2.0-only */
/* Intel VMX backend (vendor.h), being built (issue 8). So far it reads what the CPU
 * offers (vmx_caps.c) for the banner and the check, enters and leaves VMX operation on
 * the boot CPU (vmxon.c), and then refuses: it runs no guests yet, so the rest of its
 * table is empty and never reached. */
#include "arch/x86/vmx/vmx_caps.h"
#include "arch/x86/vmx/vmcs.h"
#include "arch/x86/vmx/vmx_insn.h"
#include "arch/x86/vmx/vmxon.h"
#include "arch/cpu.h"
#include "arch/x86/vendor.h"

static struct vmx_caps caps;

/* The banner comes before the check (boot.c): each reads the MSRs. */
static void vmx_describe(char *buf, size_t n)
{
	vmx_caps_probe(rdmsr, &caps);
	vmx_caps_describe(&caps, buf, n);
}

/* The regions of the check's trial on the boot CPU, before the takeover (the firmware's
 * identity map: their addresses are their physical ones). */
static u8 vmxon_region[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));
static u8 trial_vmcs[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));

/* In VMX operation: a VMCS cleared, made current, a field written and read back (the
 * VMCS works as this backend will use it), then cleared again. */
static bool vmcs_works(const struct vmx_caps *c)
{
	const u64 probe = 0xffffffff81000000ull;
	u64 back = 0;
	*(u32 *)trial_vmcs = c->revision;
	bool ok = vmclear(trial_vmcs) && vmptrld(trial_vmcs) && vmwrite(GUEST_RIP, probe) &&
		  vmread(GUEST_RIP, &back) && back == probe;
	return vmclear(trial_vmcs) && ok;
}

static int vmx_check(const char **why)
{
	vmx_caps_probe(rdmsr, &caps);
	if (vmx_caps_check(&caps, why))
		return -1;
	struct vmx_operation op;
	if (vmx_on(&caps, vmxon_region, &op, why))
		return -1;
	bool vmcs_ok = vmcs_works(&caps);
	vmx_off(&op);
	*why = vmcs_ok ? "the VMX backend runs no guests yet (issue 8; VMXON, a VMCS and VMXOFF "
			 "work on this CPU); this hv.efi runs them with SVM"
		       : "VMCLEAR, VMPTRLD, VMWRITE or VMREAD failed on a VMCS of this CPU";
	return -1;
}

const struct x86_vendor vmx_vendor = {
	.name = "Intel VMX",
	.check = vmx_check,
	.describe = vmx_describe,
};
