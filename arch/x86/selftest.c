/* SPDX-License-Identifier: GPL-2.0-only */
/* The x86 hardware self-test's VMs and guest (hv/selftest.h): the interrupt test guest
 * (tests/guest/x86/apictest.c, built into hv.efi by selftest_guest.asm), 2 vCPUs, in a VM
 * with the emulated local APIC and, where the CPU has APIC virtualization (AVIC with
 * x2AVIC, APICv), in one with it. Each VM's guest checks MMIO emulation, SELF IPIs, the
 * APIC timer, INIT and STARTUP, IPIs both ways, measures IPI costs and powers off. */
#include "arch/x86/vendor.h"

extern const u8 selftest_guest[], selftest_guest_end[];

const struct selftest_vm *arch_selftest_vms(void)
{
	static struct selftest_vm vms[3];
	vms[0] = (struct selftest_vm){ "emulated", true };
	if (x86_vendor->apic_virtualization())
		vms[1] = (struct selftest_vm){ x86_vendor->apicv_vm, false };
	return vms;
}

const void *arch_selftest_guest(u64 *len, const char **tag)
{
	*len = (u64)(selftest_guest_end - selftest_guest);
	*tag = "X86TEST "; /* tests/guest/x86/apictest.c */
	return selftest_guest;
}

u32 arch_selftest_features(struct selftest_feature *f, u32 max)
{
	return x86_vendor->selftest_features(f, max);
}
