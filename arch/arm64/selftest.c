/* SPDX-License-Identifier: GPL-2.0-only */
/* The hardware self-test (hv/selftest.h) has no built-in guest on arm64 yet; its table's
 * feature rows are the speculation mitigations in force (spectre.h). */
#include "arch/arm64/smccc.h"
#include "arch/arm64/spectre.h"
#include "hv/printk.h"
#include "hv/arch.h"
#include "hv/lib.h"
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
	static char how[3][96];
	const struct spec_sys *s = spec_sys();
	const struct {
		const char *name;
		u8 state, why;
		u32 fid;
	} rows[] = {
		{ "Spectre-v2 (WORKAROUND_1)", s->v2, s->v2_why, SMCCC_FN_ARCH_WORKAROUND_1 },
		{ "Spectre-BHB (WORKAROUND_3)", s->bhb, s->bhb_why, SMCCC_FN_ARCH_WORKAROUND_3 },
		{ "SSB (WORKAROUND_2)", s->ssb, s->ssb_why, SMCCC_FN_ARCH_WORKAROUND_2 },
	};
	u32 n = 0;

	for (; n < ARRAY_SIZE(rows) && n < max; n++) {
		snprintf(how[n], sizeof how[n], "%s (%s), guests told %lld",
			 spec_state_name(rows[n].state), spec_why_name(rows[n].why),
			 (long long)spec_guest_feature(s, rows[n].fid));
		/* Vulnerable reads "absent": no mitigation, and the row says so. */
		f[n] = (struct selftest_feature){ .name = rows[n].name,
						  .present = rows[n].state != SPEC_VULNERABLE,
						  .how = how[n] };
	}
	return n;
}
