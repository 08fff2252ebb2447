/* SPDX-License-Identifier: GPL-2.0 */
/* The hypervisor's VM-wide counters (guest_abi/hv_para.h: HV_HC_GET_STATS on x86,
 * HV_SMCCC_GET_STATS on arm64) as the guest tools read and print them. */
#ifndef GUEST_TOOLS_HV_STATS_H
#define GUEST_TOOLS_HV_STATS_H

#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <asm/page.h>
#ifdef CONFIG_ARM64
#include <linux/arm-smccc.h>
#else
#include <asm/kvm_para.h>
#endif

#include "hv_para.h"

/* Reads the VM's counters into *s (kmalloc'ed, so that __pa() is valid); false when the
 * hypervisor does not provide them. x86: VMMCALL outside a KVM-compatible hypervisor
 * would be #UD, hence the check; arm64: firmware without the call answers NOT_SUPPORTED
 * (SMCCC 1.1, which the conduit check implies). */
static inline bool hv_stats_read(struct hv_guest_stats *s)
{
	long ret;

	memset(s, 0, sizeof(*s));
#ifdef CONFIG_ARM64
	{
		struct arm_smccc_res res;

		if (arm_smccc_1_1_get_conduit() != SMCCC_CONDUIT_HVC)
			return false;
		arm_smccc_1_1_invoke(HV_SMCCC_GET_STATS, __pa(s), sizeof(*s), &res);
		ret = (long)res.a0;
	}
#else
	if (!kvm_para_available())
		return false;
	ret = kvm_hypercall2(HV_HC_GET_STATS, __pa(s), sizeof(*s));
#endif
	return ret >= (long)offsetofend(struct hv_guest_stats, ipis_icr);
}

/* Whether both snapshots have a field (the hypervisor's stats version may be older). */
#define hv_stats_have(after, field) ((after)->size >= offsetofend(struct hv_guest_stats, field))

/* "X.YY" of val / ops, rounded, integer arithmetic only. */
static inline void hv_per_op(char *buf, size_t len, u64 val, u64 ops)
{
	u64 x = div64_u64(val * 100 + ops / 2, ops);

	snprintf(buf, len, "%llu.%02llu", x / 100, x % 100);
}

#endif
