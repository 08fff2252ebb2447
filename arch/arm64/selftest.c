/* SPDX-License-Identifier: GPL-2.0-only */
/* The hardware self-test (hv/selftest.h) has no built-in guest on arm64 yet; its report
 * says which speculation mitigations are in force (spectre.h). */
#include "arch/arm64/spectre.h"
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
	static char line[400];

	spec_describe(spec_sys(), line, sizeof line);
	return line;
}
