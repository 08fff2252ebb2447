/* SPDX-License-Identifier: GPL-2.0-only */
/* The guest's firmware interface over HVC/SMC: SMC Calling Convention 1.1 (Arm DEN0028),
 * PSCI 1.1 (Arm DEN0022) and the stolen-time part of Arm PV time (DEN0057A). This part
 * decodes a call and computes its results; the caller does what needs the VM (vCPU
 * power states, the stolen-time records) through struct smccc_ops.
 *
 * Calling convention (DEN0028): W0 holds the function ID (the upper half of X0 is
 * ignored), X1..X3 the arguments, X0 the result. Bit 31 of the ID is 1 for a fast call,
 * bit 30 selects SMC64 (1) or SMC32 (0); an SMC32 call's arguments are the low 32 bits of
 * the registers. Results are written sign-extended to 64 bits (NOT_SUPPORTED is all ones,
 * which is what Linux compares its unsigned long a0 with). X1..X3 are left as they were:
 * no function here returns more than X0. IDs with bits [23:16] set, yielding calls and
 * any ID not listed below are unknown: X0 = NOT_SUPPORTED (-1).
 *
 * Implemented:
 *   SMCCC_VERSION        0x10001 (1.1).
 *   SMCCC_ARCH_FEATURES  x1 = an ID: 0 for SMCCC_VERSION, SMCCC_ARCH_FEATURES and, with
 *                        PV time, PV_TIME_FEATURES (DEN0057A discovers it this way);
 *                        for SMCCC_ARCH_WORKAROUND_1/2/3 what KVM answers from the
 *                        machine's state, ops->spectre (spectre.h: 0, 1, NOT_REQUIRED or
 *                        NOT_SUPPORTED; without ops->spectre NOT_SUPPORTED);
 *                        NOT_SUPPORTED for anything else.
 *   SMCCC_ARCH_WORKAROUND_1, _3 (only with ops->spectre) 0, as KVM's fast path: the
 *                        mitigation, where this machine needs one, has run in the EL2
 *                        vectors on the way in (entry.S). WORKAROUND_2 is unknown (as in
 *                        KVM, which tells guests NOT_REQUIRED or NOT_SUPPORTED for it).
 *   PSCI_VERSION         0x10001 (1.1).
 *   CPU_SUSPEND (32, 64) power_state in the original format (PSCI_FEATURES says so):
 *                        reserved bits set is INVALID_PARAMETERS. Every state is entered
 *                        as standby, which DEN0022 (CPU_SUSPEND) lets an implementation
 *                        do for a power-down state, so the call returns SUCCESS after
 *                        ops->cpu_suspend() (a WFI) and entry_point/context_id are unused.
 *   CPU_OFF              ops->cpu_off(); X0 = SUCCESS in case the caller ever runs it on.
 *   CPU_ON (32, 64)      target MPIDR with bits outside Aff3..Aff0 set is
 *                        INVALID_PARAMETERS; else ops->cpu_on() decides (its result is
 *                        the PSCI return code).
 *   AFFINITY_INFO (32, 64) lowest_affinity_level > 3 or a target with non-affinity bits
 *                        is INVALID_PARAMETERS; else ops->affinity_info() with the
 *                        affinity fields below that level cleared (DEN0022: they are
 *                        ignored).
 *   MIGRATE_INFO_TYPE    2: no Trusted OS that needs migrating (so MIGRATE and
 *                        MIGRATE_INFO_UP_CPU are not implemented).
 *   SYSTEM_OFF, SYSTEM_RESET  ops->system_off()/system_reset(); they do not return, but
 *                        X0 is INTERNAL_FAILURE should the caller be resumed (as KVM).
 *   PSCI_FEATURES        x1 = an ID: 0 for the PSCI functions above, PSCI_FEATURES and
 *                        SMCCC_VERSION (Linux checks that one before SMCCC_VERSION, and
 *                        without it assumes SMCCC 1.0 and so no PV time); for
 *                        CPU_SUSPEND the flags, 0: platform-coordinated mode only,
 *                        original power_state format. NOT_SUPPORTED otherwise.
 *   PV_TIME_FEATURES     (only with ops->pv_time) x1 = PV_TIME_FEATURES or PV_TIME_ST: 0,
 *                        else NOT_SUPPORTED.
 *   PV_TIME_ST           (only with ops->pv_time) the IPA of the calling vCPU's stolen-
 *                        time record, ops->pv_time_st_ipa().
 *   HV_SMCCC_GET_STATS   this project's own (guest_abi/hv_para.h): ops->get_stats(x1 IPA,
 *                        x2 size), its byte count, or INVALID_PARAMETER for a buffer
 *                        outside RAM.
 *   HV_SMCCC_PREEMPT_COUNT this project's own, only with ops->preempt_count: x1 = 0, or
 *                        bit 0 set and bits 2:1 clear, goes to ops->set_preempt_count()
 *                        (SUCCESS, or INVALID_PARAMETER for a word outside RAM); any
 *                        other x1 is INVALID_PARAMETER.
 *
 * Linux 6.1 at boot: PSCI_VERSION, MIGRATE_INFO_TYPE, PSCI_FEATURES(SMCCC_VERSION),
 * SMCCC_VERSION, TRNG_VERSION (unknown here), PSCI_FEATURES(CPU_SUSPEND64,
 * SYSTEM_SUSPEND64, SYSTEM_RESET2_64), the KVM vendor UID (unknown here), the
 * ARCH_FEATURES(ARCH_WORKAROUND_n) queries, then for PV time ARCH_FEATURES(
 * PV_TIME_FEATURES), PV_TIME_FEATURES(PV_TIME_ST) and on each CPU PV_TIME_ST, whose record
 * must have revision 0 and attributes 0 (else the CPU's hotplug callback fails and
 * "arm-pv: using stolen time PV" is not printed). */
#ifndef ARCH_ARM64_SMCCC_H
#define ARCH_ARM64_SMCCC_H

#include "hv/types.h"
#include "guest_abi/hv_para.h"

struct spec_sys;

#define SMCCC_FAST_CALL BIT(31)
#define SMCCC_64 BIT(30)

/* SMCCC (DEN0028) */
#define SMCCC_FN_VERSION 0x80000000u
#define SMCCC_FN_ARCH_FEATURES 0x80000001u
#define SMCCC_FN_ARCH_WORKAROUND_1 0x80008000u
#define SMCCC_FN_ARCH_WORKAROUND_2 0x80007FFFu
#define SMCCC_FN_ARCH_WORKAROUND_3 0x80003FFFu
#define SMCCC_VERSION_1_1 0x10001
#define SMCCC_SUCCESS 0
#define SMCCC_NOT_SUPPORTED (-1)
#define SMCCC_INVALID_PARAMETER (-3)

/* PSCI (DEN0022): FN for SMC32, FN64 for SMC64 */
#define PSCI_FN_VERSION 0x84000000u
#define PSCI_FN_CPU_SUSPEND 0x84000001u
#define PSCI_FN64_CPU_SUSPEND 0xC4000001u
#define PSCI_FN_CPU_OFF 0x84000002u
#define PSCI_FN_CPU_ON 0x84000003u
#define PSCI_FN64_CPU_ON 0xC4000003u
#define PSCI_FN_AFFINITY_INFO 0x84000004u
#define PSCI_FN64_AFFINITY_INFO 0xC4000004u
#define PSCI_FN_MIGRATE_INFO_TYPE 0x84000006u
#define PSCI_FN_SYSTEM_OFF 0x84000008u
#define PSCI_FN_SYSTEM_RESET 0x84000009u
#define PSCI_FN_FEATURES 0x8400000Au
#define PSCI_VERSION_1_1 0x10001

#define PSCI_SUCCESS 0
#define PSCI_NOT_SUPPORTED (-1)
#define PSCI_INVALID_PARAMETERS (-2)
#define PSCI_DENIED (-3)
#define PSCI_ALREADY_ON (-4)
#define PSCI_ON_PENDING (-5)
#define PSCI_INTERNAL_FAILURE (-6)
#define PSCI_NOT_PRESENT (-7)
#define PSCI_DISABLED (-8)
#define PSCI_INVALID_ADDRESS (-9)

/* AFFINITY_INFO results */
#define PSCI_AFFINITY_ON 0
#define PSCI_AFFINITY_OFF 1
#define PSCI_AFFINITY_ON_PENDING 2

/* MIGRATE_INFO_TYPE: Trusted OS not present or does not need migration */
#define PSCI_TOS_NOT_PRESENT_MP 2

/* PV time (DEN0057A), SMC64 only */
#define PV_TIME_FN_FEATURES 0xC5000020u
#define PV_TIME_FN_ST 0xC5000021u

/* The VM's side of the calls; ctx is passed through. */
struct smccc_ops {
	/* Power on the vCPU with this MPIDR (only affinity bits set) to start at entry with
	 * X0 = context_id (SMC32: both cut to 32 bits). Returns SUCCESS, ALREADY_ON,
	 * ON_PENDING, INVALID_PARAMETERS (no such vCPU) or INVALID_ADDRESS (entry outside
	 * the guest's RAM). */
	int (*cpu_on)(void *ctx, u64 target_mpidr, u64 entry, u64 context_id);
	/* Power off the calling vCPU. */
	void (*cpu_off)(void *ctx);
	/* PSCI_AFFINITY_ON, _OFF or _ON_PENDING for the vCPUs whose affinity fields from
	 * lowest_level (0..3) up match target_mpidr (fields below it are zero), or
	 * INVALID_PARAMETERS when there are none. */
	int (*affinity_info)(void *ctx, u64 target_mpidr, u32 lowest_level);
	/* CPU_SUSPEND: wait like WFI on the calling vCPU. */
	void (*cpu_suspend)(void *ctx);
	void (*system_off)(void *ctx);
	void (*system_reset)(void *ctx);
	bool pv_time; /* PV stolen time is offered to this VM */
	/* The machine's Spectre-v2/BHB/SSB state (spectre.h), for ARCH_FEATURES of the
	 * workarounds; NULL: they are all NOT_SUPPORTED. */
	const struct spec_sys *spectre;
	/* The IPA of the calling vCPU's stolen-time record (64-byte aligned). */
	u64 (*pv_time_st_ipa)(void *ctx);
	/* HV_SMCCC_GET_STATS: copies the VM's counters to ipa, at most len bytes; the bytes
	 * written, or -1 when the buffer is not in RAM. */
	s64 (*get_stats)(void *ctx, u64 ipa, u64 len);
	bool preempt_count; /* the VM has `pv = preempt` */
	/* HV_SMCCC_PREEMPT_COUNT: registers the word (0 disables); -1 when it is not in RAM. */
	int (*set_preempt_count)(void *ctx, u64 reg);
};

enum smccc_status {
	SMCCC_CALL_UNKNOWN, /* not offered to this VM: X0 = NOT_SUPPORTED */
	SMCCC_CALL_KNOWN,   /* a function offered here (its result may be an error) */
};

/* Handles the call in regs (the guest's X0..X3), leaving the results there. Returns
 * whether the function was known (SMCCC_CALL_UNKNOWN is 0, so `if (!smccc_call(...))`
 * finds the bad calls). */
enum smccc_status smccc_call(const struct smccc_ops *ops, void *ctx, u64 regs[4]);

#endif
