/* SPDX-License-Identifier: GPL-2.0-only */
/* Intel VMX backend (vendor.h), being built (issue 8). So far it reads what the CPU
 * offers (vmx_caps.c) for the banner and the check, and then refuses: it runs no guests
 * yet, so the rest of its table is empty and never reached. */
#include "arch/x86/vmx/vmx_caps.h"
#include "arch/cpu.h"
#include "arch/x86/vendor.h"

static struct vmx_caps caps;

/* The banner comes before the check (boot.c): each reads the MSRs. */
static void vmx_describe(char *buf, size_t n)
{
	vmx_caps_probe(rdmsr, &caps);
	vmx_caps_describe(&caps, buf, n);
}

static int vmx_check(const char **why)
{
	vmx_caps_probe(rdmsr, &caps);
	if (vmx_caps_check(&caps, why))
		return -1;
	*why = "the VMX backend runs no guests yet (issue 8); this hv.efi runs them with SVM";
	return -1;
}

const struct x86_vendor vmx_vendor = {
	.name = "Intel VMX",
	.check = vmx_check,
	.describe = vmx_describe,
};
