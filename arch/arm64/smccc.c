/* SPDX-License-Identifier: GPL-2.0-only */
/* SMCCC 1.1, PSCI 1.1 and PV stolen time calls (see smccc.h for the semantics). */
#include "arch/arm64/smccc.h"
#include "arch/arm64/spectre.h"
#include "arch/arm64/vcpu_mpidr.h"

/* CPU_SUSPEND power_state, original format (DEN0022, CPU_SUSPEND): StateID [15:0],
 * StateType [16], PowerLevel [25:24]; the other bits are reserved. */
#define POWER_STATE_VALID 0x0301FFFFu

/* The MPIDR affinity fields from `level` up (0..3): Aff0 [7:0], Aff1 [15:8], Aff2
 * [23:16], Aff3 [39:32]. */
static u64 affinity_mask(u32 level)
{
	static const u64 below[4] = { 0, 0xFF, 0xFFFF, 0xFFFFFF };

	return MPIDR_AFF_MASK & ~below[level];
}

static bool psci_implemented(u32 fid)
{
	switch (fid) {
	case PSCI_FN_VERSION:
	case PSCI_FN_CPU_SUSPEND:
	case PSCI_FN64_CPU_SUSPEND:
	case PSCI_FN_CPU_OFF:
	case PSCI_FN_CPU_ON:
	case PSCI_FN64_CPU_ON:
	case PSCI_FN_AFFINITY_INFO:
	case PSCI_FN64_AFFINITY_INFO:
	case PSCI_FN_MIGRATE_INFO_TYPE:
	case PSCI_FN_SYSTEM_OFF:
	case PSCI_FN_SYSTEM_RESET:
	case PSCI_FN_FEATURES:
	case SMCCC_FN_VERSION: /* PSCI_FEATURES reports it too (DEN0022, PSCI_FEATURES) */
		return true;
	}
	return false;
}

static s64 arch_features(const struct smccc_ops *ops, u32 fid)
{
	switch (fid) {
	case SMCCC_FN_VERSION:
	case SMCCC_FN_ARCH_FEATURES:
		return SMCCC_SUCCESS;
	case PV_TIME_FN_FEATURES: /* DEN0057A: discovered through SMCCC_ARCH_FEATURES */
		return ops->pv_time ? SMCCC_SUCCESS : SMCCC_NOT_SUPPORTED;
	case SMCCC_FN_ARCH_WORKAROUND_1:
	case SMCCC_FN_ARCH_WORKAROUND_2:
	case SMCCC_FN_ARCH_WORKAROUND_3:
		return ops->spectre ? spec_guest_feature(ops->spectre, fid) : SMCCC_NOT_SUPPORTED;
	}
	return SMCCC_NOT_SUPPORTED;
}

static s64 affinity_info(const struct smccc_ops *ops, void *ctx, u64 target, u64 level)
{
	if (level > 3 || (target & ~MPIDR_AFF_MASK))
		return PSCI_INVALID_PARAMETERS;
	return ops->affinity_info(ctx, target & affinity_mask((u32)level), (u32)level);
}

enum smccc_status smccc_call(const struct smccc_ops *ops, void *ctx, u64 regs[4])
{
	u32 fid = (u32)regs[0];
	u64 a1 = regs[1], a2 = regs[2], a3 = regs[3];
	s64 ret;

	if (!(fid & SMCCC_64)) {
		a1 = (u32)a1;
		a2 = (u32)a2;
		a3 = (u32)a3;
	}

	switch (fid) {
	case SMCCC_FN_VERSION:
		ret = SMCCC_VERSION_1_1;
		break;
	case SMCCC_FN_ARCH_FEATURES:
		ret = arch_features(ops, (u32)a1);
		break;
	case SMCCC_FN_ARCH_WORKAROUND_1:
	case SMCCC_FN_ARCH_WORKAROUND_3:
		if (!ops->spectre)
			goto unknown;
		ret = SMCCC_SUCCESS; /* the vectors did the work on entry (entry.S) */
		break;
	case PSCI_FN_VERSION:
		ret = PSCI_VERSION_1_1;
		break;
	case PSCI_FN_CPU_SUSPEND:
	case PSCI_FN64_CPU_SUSPEND:
		if ((u32)a1 & ~POWER_STATE_VALID) {
			ret = PSCI_INVALID_PARAMETERS;
			break;
		}
		ops->cpu_suspend(ctx);
		ret = PSCI_SUCCESS;
		break;
	case PSCI_FN_CPU_OFF:
		ops->cpu_off(ctx);
		ret = PSCI_SUCCESS;
		break;
	case PSCI_FN_CPU_ON:
	case PSCI_FN64_CPU_ON:
		if (a1 & ~MPIDR_AFF_MASK)
			ret = PSCI_INVALID_PARAMETERS;
		else
			ret = ops->cpu_on(ctx, a1, a2, a3);
		break;
	case PSCI_FN_AFFINITY_INFO:
	case PSCI_FN64_AFFINITY_INFO:
		ret = affinity_info(ops, ctx, a1, a2);
		break;
	case PSCI_FN_MIGRATE_INFO_TYPE:
		ret = PSCI_TOS_NOT_PRESENT_MP;
		break;
	case PSCI_FN_SYSTEM_OFF:
		ops->system_off(ctx);
		ret = PSCI_INTERNAL_FAILURE;
		break;
	case PSCI_FN_SYSTEM_RESET:
		ops->system_reset(ctx);
		ret = PSCI_INTERNAL_FAILURE;
		break;
	case PSCI_FN_FEATURES:
		/* For CPU_SUSPEND the result is its flags: 0, see smccc.h. */
		ret = psci_implemented((u32)a1) ? PSCI_SUCCESS : PSCI_NOT_SUPPORTED;
		break;
	case PV_TIME_FN_FEATURES:
		if (!ops->pv_time)
			goto unknown;
		/* DEN0057A PV_TIME_FEATURES: PV_call_id is a uint32. */
		ret = ((u32)a1 == PV_TIME_FN_FEATURES || (u32)a1 == PV_TIME_FN_ST)
			      ? SMCCC_SUCCESS
			      : SMCCC_NOT_SUPPORTED;
		break;
	case PV_TIME_FN_ST:
		if (!ops->pv_time)
			goto unknown;
		ret = (s64)ops->pv_time_st_ipa(ctx);
		break;
	case HV_SMCCC_GET_STATS:
		ret = ops->get_stats(ctx, a1, a2);
		if (ret < 0)
			ret = SMCCC_INVALID_PARAMETER;
		break;
	case HV_SMCCC_PREEMPT_COUNT:
		if (!ops->preempt_count)
			goto unknown;
		/* 0, or an 8-byte aligned word with bit 0 (enable) set. */
		ret = (a1 && (a1 & 7) != 1) || ops->set_preempt_count(ctx, a1)
			      ? SMCCC_INVALID_PARAMETER
			      : SMCCC_SUCCESS;
		break;
	default:
		goto unknown;
	}
	regs[0] = (u64)ret;
	return SMCCC_CALL_KNOWN;

unknown:
	regs[0] = (u64)(s64)SMCCC_NOT_SUPPORTED;
	return SMCCC_CALL_UNKNOWN;
}
