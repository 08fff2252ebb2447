/* SPDX-License-Identifier: GPL-2.0-only */
/* The hardware self-test (hv/selftest.h) has no built-in guest on arm64 yet. */
#include "hv/printk.h"
#include "hv/arch.h"
#include "hv/selftest.h"

const struct selftest_vm *arch_selftest_vms(void)
{
	printk("hv: selftest = yes: the self-test has no built-in guest on arm64 yet\n");
	return NULL;
}

const void *arch_selftest_guest(u64 *len, const char **tag)
{
	*len = 0;
	*tag = "";
	return NULL;
}

u32 arch_selftest_features(struct selftest_feature *f, u32 max)
{
	(void)f, (void)max;
	return 0;
}

const char *arch_speculation(void)
{
	return "Spectre v2/BHB: nothing at EL2; guests told SMCCC_ARCH_WORKAROUND_1/2/3 are "
	       "not supported";
}
