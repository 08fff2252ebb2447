/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for arch/arm64/smccc.c (SMCCC 1.1, PSCI 1.1, PV time calls),
 * arch/arm64/pvtime.c (the DEN0057A stolen-time record) and arch/arm64/spectre.c (which
 * CPUs are affected by Spectre-v2, Spectre-BHB and SSB, what runs on entry from a guest,
 * and what guests are told about SMCCC_ARCH_WORKAROUND_1/2/3). */
#include <stddef.h>

#include "../../../arch/arm64/smccc.c"
#include "../../../arch/arm64/pvtime.c"
#include "../../../arch/arm64/spectre.c"
#include "../test.h"

/* A fake VM behind struct smccc_ops: vCPU power states as a PSCI glue keeps them, the
 * MPIDR scheme of vcpu_mpidr.h, guest RAM [RAM_BASE, RAM_END), and a log of the calls. */
#define MAX_VCPUS 64
#define RAM_BASE 0x40000000ull
#define RAM_END 0x80000000ull
#define ST_BASE 0x7fff0000ull

enum { OFF, ON, PENDING };

static struct fake {
	u32 nvcpus;
	u32 self;
	u8 state[MAX_VCPUS];
	u64 entry[MAX_VCPUS], context[MAX_VCPUS];
	int n_cpu_on, n_cpu_off, n_affinity, n_suspend, n_off, n_reset, n_st, n_stats, n_preempt;
	u64 stats_ipa, stats_len, preempt_reg;
	u64 last_target;
	u32 last_level;
} vm;

static void vm_init(u32 nvcpus)
{
	memset(&vm, 0, sizeof(vm));
	vm.nvcpus = nvcpus;
	vm.state[0] = ON;
}

static int fake_cpu_on(void *ctx, u64 target, u64 entry, u64 context_id)
{
	struct fake *f = ctx;
	int id = mpidr_to_vcpu(target, f->nvcpus);

	f->n_cpu_on++;
	f->last_target = target;
	if (id < 0)
		return PSCI_INVALID_PARAMETERS;
	if (entry < RAM_BASE || entry >= RAM_END)
		return PSCI_INVALID_ADDRESS;
	if (f->state[id] == ON)
		return PSCI_ALREADY_ON;
	if (f->state[id] == PENDING)
		return PSCI_ON_PENDING;
	f->state[id] = ON;
	f->entry[id] = entry;
	f->context[id] = context_id;
	return PSCI_SUCCESS;
}

static void fake_cpu_off(void *ctx)
{
	struct fake *f = ctx;

	f->n_cpu_off++;
	f->state[f->self] = OFF;
}

static int fake_affinity_info(void *ctx, u64 target, u32 level)
{
	struct fake *f = ctx;
	u64 mask = MPIDR_AFF_MASK & ~(level < 3 ? (1ull << (8 * level)) - 1 : 0xFFFFFFull);
	bool any = false, pending = false;
	u32 i;

	f->n_affinity++;
	f->last_target = target;
	f->last_level = level;
	for (i = 0; i < f->nvcpus; i++) {
		if ((vcpu_mpidr(i) & mask) != target)
			continue;
		if (f->state[i] == ON)
			return PSCI_AFFINITY_ON;
		pending |= f->state[i] == PENDING;
		any = true;
	}
	if (!any)
		return PSCI_INVALID_PARAMETERS;
	return pending ? PSCI_AFFINITY_ON_PENDING : PSCI_AFFINITY_OFF;
}

static void fake_cpu_suspend(void *ctx) { ((struct fake *)ctx)->n_suspend++; }

static void fake_system_off(void *ctx) { ((struct fake *)ctx)->n_off++; }

static void fake_system_reset(void *ctx) { ((struct fake *)ctx)->n_reset++; }

static u64 fake_st_ipa(void *ctx)
{
	struct fake *f = ctx;

	f->n_st++;
	return ST_BASE + PVTIME_RECORD_SIZE * f->self;
}

/* HV_SMCCC_GET_STATS: a buffer in RAM gets min(len, 200) bytes. */
static s64 fake_get_stats(void *ctx, u64 ipa, u64 len)
{
	struct fake *f = ctx;

	f->n_stats++;
	f->stats_ipa = ipa;
	f->stats_len = len;
	if (ipa < RAM_BASE || ipa >= RAM_END || len > RAM_END - ipa)
		return -1;
	return len < 200 ? (s64)len : 200;
}

/* HV_SMCCC_PREEMPT_COUNT: a word in RAM (bit 0 set) or 0 is taken. */
static int fake_set_preempt_count(void *ctx, u64 reg)
{
	struct fake *f = ctx;

	f->n_preempt++;
	if ((reg & 1) && ((reg & ~7ull) < RAM_BASE || (reg & ~7ull) >= RAM_END))
		return -1;
	f->preempt_reg = reg;
	return 0;
}

#define FAKE_OPS(pv)                                                                               \
	{                                                                                          \
		.cpu_on = fake_cpu_on, .cpu_off = fake_cpu_off,                                    \
		.affinity_info = fake_affinity_info, .cpu_suspend = fake_cpu_suspend,              \
		.system_off = fake_system_off, .system_reset = fake_system_reset, .pv_time = (pv), \
		.pv_time_st_ipa = fake_st_ipa, .get_stats = fake_get_stats, .preempt_count = (pv), \
		.set_preempt_count = fake_set_preempt_count,                                       \
	}

static const struct smccc_ops ops_pv = FAKE_OPS(true);
static const struct smccc_ops ops_nopv = FAKE_OPS(false);

static u64 regs[4];
static enum smccc_status status;

/* Makes the call from vCPU vm.self; X1..X3 hold a1..a3. Returns the new X0. */
static u64 call_ops(const struct smccc_ops *ops, u64 x0, u64 a1, u64 a2, u64 a3)
{
	regs[0] = x0;
	regs[1] = a1;
	regs[2] = a2;
	regs[3] = a3;
	status = smccc_call(ops, &vm, regs);
	return regs[0];
}

static u64 call(u64 x0, u64 a1, u64 a2, u64 a3) { return call_ops(&ops_pv, x0, a1, a2, a3); }

#define RET(v) ((u64)(s64)(v)) /* a result as X0 holds it */
#define GARBAGE 0xdeadbeef00000000ull

/* X1..X3 are left as the caller had them. */
static void check_args_kept(u64 a1, u64 a2, u64 a3)
{
	CHECK_EQ(regs[1], a1);
	CHECK_EQ(regs[2], a2);
	CHECK_EQ(regs[3], a3);
}

static int ops_calls(void)
{
	return vm.n_cpu_on + vm.n_cpu_off + vm.n_affinity + vm.n_suspend + vm.n_off + vm.n_reset +
	       vm.n_st + vm.n_stats + vm.n_preempt;
}

static void test_versions(void)
{
	vm_init(4);
	CHECK_EQ(call(SMCCC_FN_VERSION, 1, 2, 3), 0x10001);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	check_args_kept(1, 2, 3);
	CHECK_EQ(call(PSCI_FN_VERSION, 1, 2, 3), 0x10001);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	check_args_kept(1, 2, 3);
	/* The ID is W0: the upper half of X0 is ignored (old Linux sign-extended it). */
	CHECK_EQ(call(0xffffffff00000000ull | SMCCC_FN_VERSION, 0, 0, 0), 0x10001);
	CHECK_EQ(call(0x1234567800000000ull | PSCI_FN_VERSION, 0, 0, 0), 0x10001);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	CHECK_EQ(ops_calls(), 0);
}

static void test_arch_features(void)
{
	vm_init(4);
	CHECK_EQ(call(SMCCC_FN_ARCH_FEATURES, SMCCC_FN_VERSION, 0, 0), 0);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	CHECK_EQ(call(SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_FEATURES, 0, 0), 0);
	/* No firmware mitigations: NOT_SUPPORTED, all ones in X0, yet a known call. */
	CHECK_EQ(call(SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_1, 7, 8), ~0ull);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	check_args_kept(SMCCC_FN_ARCH_WORKAROUND_1, 7, 8);
	CHECK_EQ(call(SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_2, 0, 0), ~0ull);
	CHECK_EQ(call(SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_3, 0, 0), ~0ull);
	CHECK_EQ(call(SMCCC_FN_ARCH_FEATURES, 0x80000002, 0, 0), ~0ull); /* SOC_ID */
	CHECK_EQ(call(SMCCC_FN_ARCH_FEATURES, 0, 0, 0), ~0ull);
	/* PSCI functions are asked for with PSCI_FEATURES, not here. */
	CHECK_EQ(call(SMCCC_FN_ARCH_FEATURES, PSCI_FN_CPU_ON, 0, 0), ~0ull);

	/* PV time: PV_TIME_FEATURES is discovered here, PV_TIME_ST is not. */
	CHECK_EQ(call(SMCCC_FN_ARCH_FEATURES, PV_TIME_FN_FEATURES, 0, 0), 0);
	CHECK_EQ(call(SMCCC_FN_ARCH_FEATURES, PV_TIME_FN_ST, 0, 0), ~0ull);
	CHECK_EQ(call_ops(&ops_nopv, SMCCC_FN_ARCH_FEATURES, PV_TIME_FN_FEATURES, 0, 0), ~0ull);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);

	/* An SMC32 call: only W1 counts. */
	CHECK_EQ(call(SMCCC_FN_ARCH_FEATURES, GARBAGE | PV_TIME_FN_FEATURES, 0, 0), 0);
	CHECK_EQ(call(SMCCC_FN_ARCH_FEATURES, GARBAGE | SMCCC_FN_ARCH_WORKAROUND_1, 0, 0), ~0ull);
	check_args_kept(GARBAGE | SMCCC_FN_ARCH_WORKAROUND_1, 0, 0);
	CHECK_EQ(ops_calls(), 0);
}

static void test_psci_features(void)
{
	static const u32 implemented[] = {
		PSCI_FN_VERSION,       PSCI_FN_CPU_SUSPEND,	PSCI_FN64_CPU_SUSPEND,
		PSCI_FN_CPU_OFF,       PSCI_FN_CPU_ON,		PSCI_FN64_CPU_ON,
		PSCI_FN_AFFINITY_INFO, PSCI_FN64_AFFINITY_INFO, PSCI_FN_MIGRATE_INFO_TYPE,
		PSCI_FN_SYSTEM_OFF,    PSCI_FN_SYSTEM_RESET,	PSCI_FN_FEATURES,
		SMCCC_FN_VERSION,
	};
	static const u32 missing[] = {
		0xC4000000,
		0xC4000002,
		0xC4000006,
		0xC4000008,
		0xC4000009,
		0xC400000A,
		0x84000005,
		0xC4000005, /* MIGRATE */
		0x84000007,
		0xC4000007, /* MIGRATE_INFO_UP_CPU */
		0x8400000B, /* CPU_FREEZE */
		0x8400000C,
		0xC400000C, /* CPU_DEFAULT_SUSPEND */
		0x8400000D,
		0xC400000D, /* NODE_HW_STATE */
		0x8400000E,
		0xC400000E, /* SYSTEM_SUSPEND */
		0x8400000F, /* PSCI_SET_SUSPEND_MODE */
		0x84000010,
		0xC4000010, /* PSCI_STAT_RESIDENCY */
		0x84000011,
		0xC4000011, /* PSCI_STAT_COUNT */
		0x84000012,
		0xC4000012, /* SYSTEM_RESET2 */
		0x84000013,
		0x84000014,
		0xC4000014, /* MEM_PROTECT(_CHECK_RANGE) */
		0x8400001F,
		0x84000050, /* end of the PSCI range, TRNG_VERSION */
		SMCCC_FN_ARCH_FEATURES,
		SMCCC_FN_ARCH_WORKAROUND_1,
		PV_TIME_FN_FEATURES,
		PV_TIME_FN_ST,
		0,
		0xFFFFFFFF,
	};
	size_t i;

	vm_init(4);
	for (i = 0; i < ARRAY_SIZE(implemented); i++) {
		CHECK_EQ(call(PSCI_FN_FEATURES, implemented[i], 0, 0), 0);
		CHECK_EQ(status, SMCCC_CALL_KNOWN);
	}
	for (i = 0; i < ARRAY_SIZE(missing); i++) {
		CHECK_EQ(call(PSCI_FN_FEATURES, missing[i], 0, 0), RET(PSCI_NOT_SUPPORTED));
		CHECK_EQ(status, SMCCC_CALL_KNOWN);
	}
	/* CPU_SUSPEND's feature flags: 0 = platform-coordinated, original format. */
	CHECK_EQ(call(PSCI_FN_FEATURES, PSCI_FN64_CPU_SUSPEND, 0, 0), 0);
	/* SMC32: the upper half of X1 is ignored. */
	CHECK_EQ(call(PSCI_FN_FEATURES, GARBAGE | PSCI_FN64_CPU_ON, 0, 0), 0);
	CHECK_EQ(call(PSCI_FN_FEATURES, GARBAGE | 0x84000005, 0, 0), RET(PSCI_NOT_SUPPORTED));
	CHECK_EQ(ops_calls(), 0);
}

static void test_cpu_on(void)
{
	vm_init(4);

	/* To itself (vCPU 0 is on). */
	CHECK_EQ(call(PSCI_FN64_CPU_ON, vcpu_mpidr(0) & MPIDR_AFF_MASK, RAM_BASE, 0),
		 RET(PSCI_ALREADY_ON));
	CHECK_EQ(status, SMCCC_CALL_KNOWN);

	/* An existing vCPU that is off: entry and context reach the glue unchanged. */
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 2, 0x40080000, 0x1122334455667788ull), 0);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	check_args_kept(2, 0x40080000, 0x1122334455667788ull);
	CHECK_EQ(vm.state[2], ON);
	CHECK_EQ(vm.entry[2], 0x40080000);
	CHECK_EQ(vm.context[2], 0x1122334455667788ull);
	/* ... and again: now it is on. */
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 2, 0x40080000, 0), RET(PSCI_ALREADY_ON));

	/* Still being powered on. */
	vm.state[3] = PENDING;
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 3, 0x40080000, 0), RET(PSCI_ON_PENDING));

	/* No such vCPU: the glue says so. Aff0 4 of 4 vCPUs, Aff0 >= 16, Aff1 1, Aff2,
	 * Aff3. */
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 4, 0x40080000, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 0x10, 0x40080000, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 0x100, 0x40080000, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 0x10000, 0x40080000, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 0x100000000ull, 0x40080000, 0),
		 RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(vm.last_target, 0x100000000ull);

	/* Bits outside Aff3..Aff0 (bit 31 RES1 in MPIDR_EL1, U, MT, [63:40]): rejected
	 * before the glue sees them. */
	vm.n_cpu_on = 0;
	CHECK_EQ(call(PSCI_FN64_CPU_ON, BIT(31) | 1, 0x40080000, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(call(PSCI_FN64_CPU_ON, BIT(24) | 1, 0x40080000, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(call(PSCI_FN64_CPU_ON, BIT(40) | 1, 0x40080000, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(call(PSCI_FN64_CPU_ON, GARBAGE | 1, 0x40080000, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(vm.n_cpu_on, 0);
	CHECK_EQ(vm.state[1], OFF);

	/* Entry outside RAM. */
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 1, RAM_END, 0), RET(PSCI_INVALID_ADDRESS));
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 1, 0x1000, 0), RET(PSCI_INVALID_ADDRESS));
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 1, RAM_BASE | BIT(63), 0), RET(PSCI_INVALID_ADDRESS));
	CHECK_EQ(vm.state[1], OFF);

	/* A vCPU in the second Aff1 cluster: vCPU 17 is Aff1 1, Aff0 1. */
	vm_init(20);
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 0x101, 0x40001000, 5), 0);
	CHECK_EQ(vm.state[17], ON);
	CHECK_EQ(vm.context[17], 5);
}

static void test_cpu_on_smc32(void)
{
	vm_init(4);
	/* SMC32 CPU_ON: W1..W3 only; garbage above is dropped, not rejected. */
	CHECK_EQ(call(PSCI_FN_CPU_ON, GARBAGE | 2, GARBAGE | 0x40080000, 0xfedcba9876543210ull), 0);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	CHECK_EQ(vm.last_target, 2);
	CHECK_EQ(vm.entry[2], 0x40080000);
	CHECK_EQ(vm.context[2], 0x76543210);
	check_args_kept(GARBAGE | 2, GARBAGE | 0x40080000, 0xfedcba9876543210ull);
	/* Bit 31 is still an invalid target bit in W1. */
	CHECK_EQ(call(PSCI_FN_CPU_ON, BIT(31) | 1, 0x40080000, 0), RET(PSCI_INVALID_PARAMETERS));
	/* Garbage above W2: dropped for SMC32, part of the entry address for SMC64. */
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 1, GARBAGE | 0x40080000, 0), RET(PSCI_INVALID_ADDRESS));
	CHECK_EQ(call(PSCI_FN_CPU_ON, 1, GARBAGE | 0x40080000, 0), 0);
}

static void test_affinity_info(void)
{
	vm_init(20); /* vCPUs 0-15 in Aff1 0, 16-19 in Aff1 1 */
	vm.state[17] = PENDING;

	/* Level 0: one vCPU. */
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, 0, 0, 0), PSCI_AFFINITY_ON);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, 1, 0, 0), PSCI_AFFINITY_OFF);
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, 0x101, 0, 0), PSCI_AFFINITY_ON_PENDING);
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, 0x104, 0, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(vm.last_level, 0);
	check_args_kept(0x104, 0, 0);

	/* Level 1: a cluster; Aff0 of the target is ignored (cleared for the glue). */
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, 0x0ff, 1, 0), PSCI_AFFINITY_ON);
	CHECK_EQ(vm.last_target, 0);
	CHECK_EQ(vm.last_level, 1);
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, 0x103, 1, 0), PSCI_AFFINITY_ON_PENDING);
	CHECK_EQ(vm.last_target, 0x100);
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, 0x200, 1, 0), RET(PSCI_INVALID_PARAMETERS));

	/* Levels 2 and 3: the whole VM. */
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, 0x0101, 2, 0), PSCI_AFFINITY_ON);
	CHECK_EQ(vm.last_target, 0);
	CHECK_EQ(vm.last_level, 2);
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, 0xff0101, 3, 0), PSCI_AFFINITY_ON);
	CHECK_EQ(vm.last_target, 0);
	CHECK_EQ(vm.last_level, 3);
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, 0x100000000ull, 3, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(vm.last_target, 0x100000000ull);

	/* Bad level or target bits: rejected here. */
	vm.n_affinity = 0;
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, 0, 4, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, 0, ~0ull, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, 0, BIT(32), 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, BIT(31), 0, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, BIT(63), 0, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(vm.n_affinity, 0);

	/* SMC32: garbage above W1/W2 ignored. */
	CHECK_EQ(call(PSCI_FN_AFFINITY_INFO, GARBAGE | 1, GARBAGE, GARBAGE), PSCI_AFFINITY_OFF);
	CHECK_EQ(vm.last_target, 1);
	CHECK_EQ(vm.last_level, 0);
	CHECK_EQ(call(PSCI_FN_AFFINITY_INFO, GARBAGE | 0x101, GARBAGE | 1, 0),
		 PSCI_AFFINITY_ON_PENDING);
	CHECK_EQ(vm.last_level, 1);
}

static void test_suspend_off_system(void)
{
	vm_init(4);

	/* Standby, power-down, and power-down at level 1 with a StateID: all standby. */
	CHECK_EQ(call(PSCI_FN64_CPU_SUSPEND, 0, 0x40080000, 7), 0);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	CHECK_EQ(call(PSCI_FN64_CPU_SUSPEND, BIT(16), 0x40080000, 7), 0);
	CHECK_EQ(call(PSCI_FN_CPU_SUSPEND, 0x0101ffff, 0x40080000, 7), 0);
	CHECK_EQ(vm.n_suspend, 3);
	check_args_kept(0x0101ffff, 0x40080000, 7);
	/* power_state is 32 bits in both conventions. */
	CHECK_EQ(call(PSCI_FN64_CPU_SUSPEND, GARBAGE | BIT(16), 0, 0), 0);
	CHECK_EQ(call(PSCI_FN_CPU_SUSPEND, GARBAGE, 0, 0), 0);
	CHECK_EQ(vm.n_suspend, 5);
	/* Reserved bits [31:26] and [23:17] (the extended format's, for one). */
	CHECK_EQ(call(PSCI_FN_CPU_SUSPEND, BIT(30), 0, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(call(PSCI_FN64_CPU_SUSPEND, BIT(17), 0, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(call(PSCI_FN64_CPU_SUSPEND, BIT(26), 0, 0), RET(PSCI_INVALID_PARAMETERS));
	CHECK_EQ(vm.n_suspend, 5);

	vm.self = 1;
	vm.state[1] = ON;
	CHECK_EQ(call(PSCI_FN_CPU_OFF, 1, 2, 3), 0);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	CHECK_EQ(vm.n_cpu_off, 1);
	CHECK_EQ(vm.state[1], OFF);
	check_args_kept(1, 2, 3);

	CHECK_EQ(call(PSCI_FN_MIGRATE_INFO_TYPE, 0, 0, 0), 2);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);

	CHECK_EQ(call(PSCI_FN_SYSTEM_OFF, 0, 0, 0), RET(PSCI_INTERNAL_FAILURE));
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	CHECK_EQ(vm.n_off, 1);
	CHECK_EQ(vm.n_reset, 0);
	CHECK_EQ(call(PSCI_FN_SYSTEM_RESET, 0, 0, 0), RET(PSCI_INTERNAL_FAILURE));
	CHECK_EQ(vm.n_off, 1);
	CHECK_EQ(vm.n_reset, 1);
}

static void test_pv_time(void)
{
	vm_init(4);
	vm.self = 3;
	CHECK_EQ(call(PV_TIME_FN_FEATURES, PV_TIME_FN_FEATURES, 0, 0), 0);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	CHECK_EQ(call(PV_TIME_FN_FEATURES, PV_TIME_FN_ST, 0, 0), 0);
	CHECK_EQ(call(PV_TIME_FN_FEATURES, 0xC5000022, 0, 0), ~0ull);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	CHECK_EQ(call(PV_TIME_FN_FEATURES, SMCCC_FN_VERSION, 0, 0), ~0ull);
	/* PV_call_id is a uint32 even in this SMC64 call. */
	CHECK_EQ(call(PV_TIME_FN_FEATURES, GARBAGE | PV_TIME_FN_ST, 0, 0), 0);
	CHECK_EQ(vm.n_st, 0);

	CHECK_EQ(call(PV_TIME_FN_ST, 1, 2, 3), ST_BASE + 3 * 64);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	CHECK_EQ(vm.n_st, 1);
	check_args_kept(1, 2, 3);

	/* Off for this VM: both are unknown, and the glue is not asked. */
	CHECK_EQ(call_ops(&ops_nopv, PV_TIME_FN_FEATURES, PV_TIME_FN_ST, 0, 0), ~0ull);
	CHECK_EQ(status, SMCCC_CALL_UNKNOWN);
	CHECK_EQ(call_ops(&ops_nopv, PV_TIME_FN_ST, 0, 0, 0), ~0ull);
	CHECK_EQ(status, SMCCC_CALL_UNKNOWN);
	CHECK_EQ(vm.n_st, 1);

	/* The SMC32 forms do not exist (DEN0057A: SMC64 only). */
	CHECK_EQ(call(0x85000020, PV_TIME_FN_ST, 0, 0), ~0ull);
	CHECK_EQ(status, SMCCC_CALL_UNKNOWN);
	CHECK_EQ(call(0x85000021, 0, 0, 0), ~0ull);
	CHECK_EQ(status, SMCCC_CALL_UNKNOWN);
	CHECK_EQ(vm.n_st, 1);
}

/* The project's stats call: SMC64 only, in both VMs (not a PV feature), arguments
 * passed through; a buffer outside RAM is INVALID_PARAMETER. */
static void test_get_stats(void)
{
	vm_init(2);
	CHECK_EQ(call(HV_SMCCC_GET_STATS, RAM_BASE + 0x1000, 64, 0), 64);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	CHECK_EQ(vm.stats_ipa, RAM_BASE + 0x1000);
	CHECK_EQ(vm.stats_len, 64);
	CHECK_EQ(call_ops(&ops_nopv, HV_SMCCC_GET_STATS, RAM_BASE, 4096, 0), 200);
	CHECK_EQ(call(GARBAGE | HV_SMCCC_GET_STATS, RAM_BASE, 8, 0), 8);
	CHECK_EQ(call(HV_SMCCC_GET_STATS, RAM_END - 4, 8, 0), RET(SMCCC_INVALID_PARAMETER));
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	CHECK_EQ(call(HV_SMCCC_GET_STATS, 0, 8, 0), RET(SMCCC_INVALID_PARAMETER));
	check_args_kept(0, 8, 0);
	CHECK_EQ(vm.n_stats, 5);
}

/* HV_SMCCC_PREEMPT_COUNT: only with `preempt`; bits 2:1 reserved, the word in RAM. */
static void test_preempt_count(void)
{
	vm_init(2);
	CHECK_EQ(call(HV_SMCCC_PREEMPT_COUNT, RAM_BASE + 0x1008 + 1, 0, 0), SMCCC_SUCCESS);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	CHECK_EQ(vm.preempt_reg, RAM_BASE + 0x1009);
	check_args_kept(RAM_BASE + 0x1009, 0, 0);
	CHECK_EQ(call(HV_SMCCC_PREEMPT_COUNT, 0, 0, 0), SMCCC_SUCCESS);
	CHECK_EQ(vm.preempt_reg, 0);
	/* Not 8-byte aligned: refused before the VM sees it. */
	CHECK_EQ(call(HV_SMCCC_PREEMPT_COUNT, RAM_BASE + 0x1004 + 1, 0, 0),
		 RET(SMCCC_INVALID_PARAMETER));
	CHECK_EQ(call(HV_SMCCC_PREEMPT_COUNT, RAM_BASE + 2, 0, 0), RET(SMCCC_INVALID_PARAMETER));
	/* Neither 0 nor enabled. */
	CHECK_EQ(call(HV_SMCCC_PREEMPT_COUNT, RAM_BASE + 0x1000, 0, 0),
		 RET(SMCCC_INVALID_PARAMETER));
	CHECK_EQ(vm.n_preempt, 2);
	/* Outside RAM: the VM refuses it. */
	CHECK_EQ(call(HV_SMCCC_PREEMPT_COUNT, RAM_END + 1, 0, 0), RET(SMCCC_INVALID_PARAMETER));
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	CHECK_EQ(vm.preempt_reg, 0);
	/* The upper half of X0 is ignored, as for any call. */
	CHECK_EQ(call(GARBAGE | HV_SMCCC_PREEMPT_COUNT, RAM_BASE + 1, 0, 0), SMCCC_SUCCESS);
	CHECK_EQ(vm.preempt_reg, RAM_BASE + 1);
	/* Without `preempt` it does not exist, and SMC32 never does. */
	CHECK_EQ(call_ops(&ops_nopv, HV_SMCCC_PREEMPT_COUNT, RAM_BASE + 1, 0, 0), ~0ull);
	CHECK_EQ(status, SMCCC_CALL_UNKNOWN);
	CHECK_EQ(call(HV_SMCCC_PREEMPT_COUNT & ~SMCCC_64, RAM_BASE + 1, 0, 0), ~0ull);
	CHECK_EQ(status, SMCCC_CALL_UNKNOWN);
	CHECK_EQ(vm.n_preempt, 4);
}

static void test_unknown(void)
{
	static const u32 ids[] = {
		0x80000002, 0x8000FFFF, 0xC0000000, 0xC0000001, /* Arm Architecture */
		0x81000000, 0xC1000000,				/* CPU Service */
		0x82000000, 0xC2000001,				/* SiP */
		0x83000000,					/* OEM */
		0x84000005, 0x84000007, 0x8400000B, 0x8400000E, 0x84000012,
		0x8400001F, 0xC4000000, 0xC4000002, 0xC4000008, 0xC400000A,
		0xC400000E, 0xC4000012, 0x84000050, 0xC4000053, /* TRNG */
		0x85000000, 0xC5000000, 0xC5000022, 0xC500001F, /* Standard Hypervisor */
		0x86000000, 0x8600FF01, 0xC6000000, 0xC6000002, /* Vendor Hypervisor */
		0xC6008001, 0xC6008003, 0x86000001,		/* HV_SMCCC_GET_STATS as SMC32 */
		0xB0000000, 0xBF00FFFF, 0xF1000000,		/* Trusted Apps/OS */
		0x84010000, 0x84FF0003, 0xC4010003, 0x80010000, /* bits [23:16] set */
		0x04000003, 0x00000000, 0x44000003,		/* yielding calls */
		0xFFFFFFFF,
	};
	size_t i;

	vm_init(4);
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		CHECK_EQ(call(ids[i], 1, 2, 3), ~0ull);
		CHECK_EQ(status, SMCCC_CALL_UNKNOWN);
		check_args_kept(1, 2, 3);
	}
	CHECK_EQ(ops_calls(), 0);
}

/* What Linux 6.1 asks at boot (drivers/firmware/psci/psci.c psci_probe(),
 * drivers/firmware/smccc, arch/arm64/kernel/proton-pack.c, arch/arm64/kernel/paravirt.c),
 * in that order, and what it needs back to use PSCI 1.x, SMCCC 1.1 and stolen time. */
static void test_linux_boot(void)
{
	_Alignas(64) u8 rec[PVTIME_RECORD_SIZE];
	struct pvtime_record *r = (void *)rec;

	vm_init(4);

	/* psci_probe(): PSCI_VERSION, major >= 1 for the 1.x path. */
	CHECK_EQ(call(PSCI_FN_VERSION, 0, 0, 0) >> 16, 1);
	/* psci_init_migrate(): "Trusted OS migration not required". */
	CHECK_EQ((int)call(PSCI_FN_MIGRATE_INFO_TYPE, 0, 0, 0), PSCI_TOS_NOT_PRESENT_MP);
	/* psci_init_smccc(): SMCCC_VERSION exists, and is >= 1.1 (u32 compare). */
	CHECK((int)call(PSCI_FN_FEATURES, SMCCC_FN_VERSION, 0, 0) != PSCI_NOT_SUPPORTED);
	CHECK((u32)call(SMCCC_FN_VERSION, 0, 0, 0) >= 0x10001);
	/* arm_smccc_version_init(): TRNG absent ((s32)a0 < 0), an unknown call. */
	CHECK((s32)call(0x84000050, 0, 0, 0) < 0);
	CHECK_EQ(status, SMCCC_CALL_UNKNOWN);
	/* psci_init_cpu_suspend(), _system_suspend(), _system_reset2(). */
	CHECK_EQ((int)call(PSCI_FN_FEATURES, PSCI_FN64_CPU_SUSPEND, 0, 0), 0);
	CHECK_EQ((int)call(PSCI_FN_FEATURES, 0xC400000E, 0, 0), PSCI_NOT_SUPPORTED);
	CHECK_EQ((int)call(PSCI_FN_FEATURES, 0xC4000012, 0, 0), PSCI_NOT_SUPPORTED);
	/* kvm_init_hyp_services(): the vendor UID is not KVM's. */
	CHECK_EQ(call(0x8600FF01, 0, 0, 0), ~0ull);
	/* Spectre v2/v4/BHB: no firmware workaround. */
	CHECK_EQ((int)call(SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_1, 0, 0),
		 SMCCC_NOT_SUPPORTED);
	CHECK_EQ((int)call(SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_2, 0, 0),
		 SMCCC_NOT_SUPPORTED);
	CHECK_EQ((int)call(SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_3, 0, 0),
		 SMCCC_NOT_SUPPORTED);

	/* has_pv_steal_clock(): a0 == SMCCC_RET_SUCCESS twice. */
	CHECK_EQ(call(SMCCC_FN_ARCH_FEATURES, PV_TIME_FN_FEATURES, 0, 0), 0);
	CHECK_EQ(call(PV_TIME_FN_FEATURES, PV_TIME_FN_ST, 0, 0), 0);
	/* stolen_time_cpu_online() on the boot CPU: a0 != SMCCC_RET_NOT_SUPPORTED as an
	 * unsigned long, then revision == 0 and attributes == 0 in the record. */
	memset(rec, 0xa5, sizeof(rec));
	pvtime_init_record(rec);
	CHECK(call(PV_TIME_FN_ST, 0, 0, 0) != (u64)(long)SMCCC_NOT_SUPPORTED);
	CHECK_EQ(regs[0], ST_BASE);
	CHECK_EQ(regs[0] % 64, 0);
	CHECK_EQ(r->revision, 0);
	CHECK_EQ(r->attributes, 0);
	/* ... so "arm-pv: using stolen time PV". Then smp_init: CPU_ON64 for CPUs 1-3 with
	 * their MPIDRs from the DT (affinity bits only). */
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 1, 0x40a10000, 0), 0);
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 2, 0x40a10000, 0), 0);
	CHECK_EQ(call(PSCI_FN64_CPU_ON, 3, 0x40a10000, 0), 0);
	/* Each secondary asks for its own record. */
	vm.self = 2;
	CHECK_EQ(call(PV_TIME_FN_ST, 0, 0, 0), ST_BASE + 2 * 64);
	/* CPU hot-unplug: cpu_die() does CPU_OFF, __cpu_die() polls AFFINITY_INFO64. */
	CHECK_EQ(call(PSCI_FN_CPU_OFF, 0, 0, 0), 0);
	vm.self = 0;
	CHECK_EQ(call(PSCI_FN64_AFFINITY_INFO, 2, 0, 0), PSCI_AFFINITY_OFF);
}

static void test_pvtime_record(void)
{
	_Alignas(64) u8 rec[2 * PVTIME_RECORD_SIZE];
	size_t i;

	CHECK_EQ(sizeof(struct pvtime_record), 64);
	CHECK_EQ(offsetof(struct pvtime_record, revision), 0);
	CHECK_EQ(offsetof(struct pvtime_record, attributes), 4);
	CHECK_EQ(offsetof(struct pvtime_record, stolen_time), 8);
	CHECK_EQ(offsetof(struct pvtime_record, reserved), 16);

	/* Init: all 64 bytes zero, nothing past them touched. */
	memset(rec, 0xa5, sizeof(rec));
	pvtime_init_record(rec);
	for (i = 0; i < PVTIME_RECORD_SIZE; i++)
		CHECK_EQ(rec[i], 0);
	CHECK_EQ(rec[PVTIME_RECORD_SIZE], 0xa5);

	/* Publish: little-endian at offset 8, nothing else written. */
	pvtime_publish(rec, 0x0102030405060708ull);
	for (i = 0; i < 8; i++)
		CHECK_EQ(rec[8 + i], 8 - i);
	for (i = 0; i < 8; i++)
		CHECK_EQ(rec[i], 0);
	for (i = 16; i < PVTIME_RECORD_SIZE; i++)
		CHECK_EQ(rec[i], 0);
	CHECK_EQ(rec[PVTIME_RECORD_SIZE], 0xa5);
	pvtime_publish(rec, ~0ull);
	CHECK_EQ(((struct pvtime_record *)rec)->stolen_time, ~0ull);
	pvtime_publish(rec, 0);
	CHECK_EQ(((struct pvtime_record *)rec)->stolen_time, 0);

	/* A second vCPU's record next to the first is independent. */
	pvtime_init_record(rec + PVTIME_RECORD_SIZE);
	pvtime_publish(rec + PVTIME_RECORD_SIZE, 12345);
	CHECK_EQ(((struct pvtime_record *)rec)->stolen_time, 0);
	CHECK_EQ(((struct pvtime_record *)(rec + PVTIME_RECORD_SIZE))->stolen_time, 12345);
}

/* --- Spectre-v2, Spectre-BHB, SSB (spectre.c) --------------------------------------- */

/* ID register fields: ID_AA64PFR0_EL1.CSV2 [59:56], ID_AA64PFR1_EL1.SSBS [7:4],
 * ID_AA64MMFR1_EL1.ECBHB [63:60], ID_AA64ISAR2_EL1.CLRBHB [31:28]. */
#define PFR0_CSV2(n) ((u64)(n) << 56)
#define PFR1_SSBS(n) ((u64)(n) << 4)
#define MMFR1_ECBHB (1ull << 60)
#define ISAR2_CLRBHB (1ull << 28)
/* MIDR_EL1 of the cores (revision and variant as QEMU's models or real parts have them) */
#define MIDR_QEMU_MAX 0x000f0510ull
#define MIDR_A53 0x410fd034ull
#define MIDR_A57 0x411fd070ull
#define MIDR_A72 0x410fd083ull
#define MIDR_A73 0x410fd092ull
#define MIDR_A76 0x414fd0b1ull
#define MIDR_N1 0x414fd0c1ull
#define MIDR_V1 0x411fd401ull
#define MIDR_AMPERE1 0xc00fac30ull
#define MIDR_TSV110 0x481fd010ull
#define MIDR_A510 0x410fd461ull
#define MIDR_X3 0x411fd4e0ull
#define MIDR_A720 0x410fd811ull
#define NS SMCCC_NOT_SUPPORTED
#define NR SMCCC_NOT_REQUIRED
#define UN SMCCC_ARCH_WORKAROUND_RET_UNAFFECTED

#define UNAFF SPEC_UNAFFECTED
#define MITIG SPEC_MITIGATED
#define VULN SPEC_VULNERABLE

/* Each CPU alone: its registers and its firmware's answers (smccc: SMCCC 1.1 reached; the
 * answers to ARCH_FEATURES(WORKAROUND_1, _2, _3)); the states and why, what runs on entry,
 * the loop count, whether WORKAROUND_2(1) is called at boot; the guest's answers. */
static const struct spec_case {
	const char *name;
	struct spec_cpu_in in;
	u8 v2, v2_why, bhb, bhb_why, ssb, entry, k;
	bool ssb_fw;
	s64 wa1, wa2, wa3;
} spec_cases[] = {
	/* clang-format off */
	/* QEMU's -cpu max: CSV2 2, SSBS 2, ECBHB and CLRBHB: nothing to run on entry; the
	 * guest is told WORKAROUND_1 UNAFFECTED, _3 SUCCESS (ECBHB mitigates), _2
	 * NOT_SUPPORTED (SSBS is the guest's own to use). */
	{ "max", { MIDR_QEMU_MAX, PFR0_CSV2(2), PFR1_SSBS(2), MMFR1_ECBHB, ISAR2_CLRBHB, false,
		   NS, NS, NS },
	  UNAFF, SPEC_WHY_CSV2, MITIG, SPEC_WHY_ECBHB, MITIG, SPEC_ENTRY_NONE, 0, false,
	  UN, NS, 0 },
	/* Neoverse N1: CSV2 1, on the k=24 loop list, no ECBHB or ClearBHB: the loop. */
	{ "N1", { MIDR_N1, PFR0_CSV2(1), PFR1_SSBS(2), 0, 0, false, NS, NS, NS },
	  UNAFF, SPEC_WHY_CSV2, MITIG, SPEC_WHY_LOOP, MITIG, SPEC_ENTRY_LOOP, 24, false,
	  UN, NS, 0 },
	/* The same with a firmware that offers everything: the CPU's own ways first. */
	{ "N1 fw", { MIDR_N1, PFR0_CSV2(1), PFR1_SSBS(2), 0, 0, true, 0, 0, 0 },
	  UNAFF, SPEC_WHY_CSV2, MITIG, SPEC_WHY_LOOP, MITIG, SPEC_ENTRY_LOOP, 24, false,
	  UN, NS, 0 },
	{ "A76", { MIDR_A76, PFR0_CSV2(1), PFR1_SSBS(2), 0, 0, false, NS, NS, NS },
	  UNAFF, SPEC_WHY_CSV2, MITIG, SPEC_WHY_LOOP, MITIG, SPEC_ENTRY_LOOP, 24, false,
	  UN, NS, 0 },
	{ "V1", { MIDR_V1, PFR0_CSV2(1), PFR1_SSBS(2), 0, 0, false, NS, NS, NS },
	  UNAFF, SPEC_WHY_CSV2, MITIG, SPEC_WHY_LOOP, MITIG, SPEC_ENTRY_LOOP, 32, false,
	  UN, NS, 0 },
	{ "Ampere1", { MIDR_AMPERE1, PFR0_CSV2(1), PFR1_SSBS(2), 0, 0, false, NS, NS, NS },
	  UNAFF, SPEC_WHY_CSV2, MITIG, SPEC_WHY_LOOP, MITIG, SPEC_ENTRY_LOOP, 11, false,
	  UN, NS, 0 },
	/* With ClearBHB and no ECBHB: the instruction, before the loop, whose count then
	 * does not count (Linux's max_bhb_k). */
	{ "V1 clrbhb", { MIDR_V1, PFR0_CSV2(1), PFR1_SSBS(2), 0, ISAR2_CLRBHB, false, NS, NS, NS },
	  UNAFF, SPEC_WHY_CSV2, MITIG, SPEC_WHY_CLRBHB, MITIG, SPEC_ENTRY_CLRBHB, 0, false,
	  UN, NS, 0 },
	/* CSV2_3: not affected by BHB whatever the lists say. */
	{ "V1 csv2_3", { MIDR_V1, PFR0_CSV2(3), PFR1_SSBS(2), 0, 0, false, NS, NS, NS },
	  UNAFF, SPEC_WHY_CSV2, UNAFF, SPEC_WHY_CSV2, MITIG, SPEC_ENTRY_NONE, 0, false,
	  UN, NS, UN },
	/* Cortex-A72 (QEMU's model) on a firmware without SMCCC: vulnerable to all three,
	 * nothing to run; everything NOT_SUPPORTED, as the hypervisor said before. */
	{ "A72", { MIDR_A72, 0, 0, 0, 0, false, NS, NS, NS },
	  VULN, SPEC_WHY_NO_FW, VULN, SPEC_WHY_V2, VULN, SPEC_ENTRY_NONE, 8, false, NS, NS, NS },
	/* Answers not reached through SMCCC 1.1 are not believed. */
	{ "A72 no smccc", { MIDR_A72, 0, 0, 0, 0, false, 0, 0, 0 },
	  VULN, SPEC_WHY_NO_FW, VULN, SPEC_WHY_V2, VULN, SPEC_ENTRY_NONE, 8, false, NS, NS, NS },
	/* A72 with WORKAROUND_1/2/3 in its firmware: the SMC on entry (KVM's Spectre slot,
	 * which covers BHB there too), SSB's mitigation on for good. */
	{ "A72 fw", { MIDR_A72, 0, 0, 0, 0, true, 0, 0, 0 },
	  MITIG, SPEC_WHY_FW, MITIG, SPEC_WHY_LOOP, MITIG, SPEC_ENTRY_FW_WA1, 8, true, 0, NR, 0 },
	/* A57 whose firmware says it needs no WORKAROUND_1: the BHB loop still runs. */
	{ "A57 fw unaffected", { MIDR_A57, 0, 0, 0, 0, true, UN, NR, NS },
	  UNAFF, SPEC_WHY_FW, MITIG, SPEC_WHY_LOOP, UNAFF, SPEC_ENTRY_LOOP, 8, false, UN, NR, 0 },
	/* A73: BHB by the firmware's WORKAROUND_3, which then replaces WORKAROUND_1. */
	{ "A73 fw", { MIDR_A73, 0, 0, 0, 0, true, 0, 0, 0 },
	  MITIG, SPEC_WHY_FW, MITIG, SPEC_WHY_FW, MITIG, SPEC_ENTRY_FW_WA3, 0, true, 0, NR, 0 },
	/* A73 whose firmware has WORKAROUND_1 only: BHB vulnerable, WORKAROUND_1 on entry. */
	{ "A73 fw wa1", { MIDR_A73, 0, 0, 0, 0, true, 0, NS, NS },
	  MITIG, SPEC_WHY_FW, VULN, SPEC_WHY_NO_FW, VULN, SPEC_ENTRY_FW_WA1, 0, false, 0, NS, NS },
	/* Safe-listed: Cortex-A53 (no CSV2 field) for all three, A510 for BHB, HiSilicon
	 * TSV110 for Spectre-v2 only: BHB affected (on no list) and nothing to use. */
	{ "A53", { MIDR_A53, 0, 0, 0, 0, false, NS, NS, NS },
	  UNAFF, SPEC_WHY_SAFE, UNAFF, SPEC_WHY_SAFE, UNAFF, SPEC_ENTRY_NONE, 0, false,
	  UN, NR, UN },
	{ "A510", { MIDR_A510, PFR0_CSV2(1), PFR1_SSBS(2), 0, 0, false, NS, NS, NS },
	  UNAFF, SPEC_WHY_CSV2, UNAFF, SPEC_WHY_SAFE, MITIG, SPEC_ENTRY_NONE, 0, false,
	  UN, NS, UN },
	{ "TSV110", { MIDR_TSV110, 0, 0, 0, 0, false, NS, NS, NS },
	  UNAFF, SPEC_WHY_SAFE, VULN, SPEC_WHY_NO_FW, VULN, SPEC_ENTRY_NONE, 0, false,
	  UN, NS, NS },
	/* QEMU 7.2's -cpu max: no ECBHB or ClearBHB and a MIDR on no list: BHB affected,
	 * nothing to use (Linux 6.1.y in the guest: "Mitigation: CSV2, but not BHB"). */
	{ "max 7.2", { MIDR_QEMU_MAX, PFR0_CSV2(2), PFR1_SSBS(2), 0, 0, false, NS, NS, NS },
	  UNAFF, SPEC_WHY_CSV2, VULN, SPEC_WHY_NO_FW, MITIG, SPEC_ENTRY_NONE, 0, false,
	  UN, NS, NS },
	/* A core on no list whose firmware says WORKAROUND_3 is needed: affected by BHB. */
	{ "other fw wa3", { 0x4e0f0040, PFR0_CSV2(1), 0, 0, 0, true, NS, NS, 0 },
	  UNAFF, SPEC_WHY_CSV2, MITIG, SPEC_WHY_FW, VULN, SPEC_ENTRY_FW_WA3, 0, false, UN, NS, 0 },
	/* clang-format on */
};

static void test_spectre_cpus(void)
{
	for (u32 i = 0; i < ARRAY_SIZE(spec_cases); i++) {
		const struct spec_case *t = &spec_cases[i];
		struct spec_cpu c;
		struct spec_sys sys = { 0 };

		spec_decide_cpu(&t->in, &c);
		spec_sys_add(&sys, &c);
		if (c.v2 != t->v2 || c.v2_why != t->v2_why || c.bhb != t->bhb ||
		    c.bhb_why != t->bhb_why || c.ssb != t->ssb || c.entry != t->entry ||
		    c.bhb_k != t->k || c.ssb_fw_enable != t->ssb_fw)
			fprintf(stderr,
				"spectre case %s: v2 %u/%u bhb %u/%u ssb %u entry %u k %u fw %d\n",
				t->name, c.v2, c.v2_why, c.bhb, c.bhb_why, c.ssb, c.entry, c.bhb_k,
				c.ssb_fw_enable);
		CHECK_EQ(c.v2, t->v2);
		CHECK_EQ(c.v2_why, t->v2_why);
		CHECK_EQ(c.bhb, t->bhb);
		CHECK_EQ(c.bhb_why, t->bhb_why);
		CHECK_EQ(c.ssb, t->ssb);
		CHECK_EQ(c.entry, t->entry);
		CHECK_EQ(c.bhb_k, t->k);
		CHECK_EQ(c.ssb_fw_enable, t->ssb_fw);
		CHECK_EQ(spec_guest_feature(&sys, SMCCC_FN_ARCH_WORKAROUND_1), t->wa1);
		CHECK_EQ(spec_guest_feature(&sys, SMCCC_FN_ARCH_WORKAROUND_2), t->wa2);
		CHECK_EQ(spec_guest_feature(&sys, SMCCC_FN_ARCH_WORKAROUND_3), t->wa3);
	}
}

static struct spec_sys machine_of(const char *const *names, u32 n)
{
	struct spec_sys sys = { 0 };

	for (u32 k = 0; k < n; k++)
		for (u32 i = 0; i < ARRAY_SIZE(spec_cases); i++)
			if (!strcmp(spec_cases[i].name, names[k])) {
				struct spec_cpu c;
				spec_decide_cpu(&spec_cases[i].in, &c);
				spec_sys_add(&sys, &c);
			}
	CHECK_EQ(sys.ncpus, n);
	return sys;
}

/* A machine is as exposed as its worst CPU; the loop runs the largest k. */
static void test_spectre_machine(void)
{
	struct spec_sys s = machine_of((const char *const[]){ "N1", "A72" }, 2);

	CHECK_EQ(s.v2, SPEC_VULNERABLE);
	CHECK_EQ(s.bhb, SPEC_VULNERABLE);
	CHECK_EQ(s.ssb, SPEC_VULNERABLE);
	CHECK_EQ(s.bhb_k, 24);
	CHECK_EQ(s.entries[SPEC_ENTRY_LOOP], 1);
	CHECK_EQ(s.entries[SPEC_ENTRY_NONE], 1);
	CHECK_EQ(spec_guest_feature(&s, SMCCC_FN_ARCH_WORKAROUND_1), RET(NS));
	CHECK_EQ(spec_guest_feature(&s, SMCCC_FN_ARCH_WORKAROUND_3), RET(NS));

	/* big.LITTLE-like: A53 with a firmware-mitigated A72. */
	s = machine_of((const char *const[]){ "A53", "A72 fw" }, 2);
	CHECK_EQ(spec_guest_feature(&s, SMCCC_FN_ARCH_WORKAROUND_1), 0);
	CHECK_EQ(spec_guest_feature(&s, SMCCC_FN_ARCH_WORKAROUND_2), RET(NR));
	CHECK_EQ(spec_guest_feature(&s, SMCCC_FN_ARCH_WORKAROUND_3), 0);

	/* SSBS on one CPU only, the firmware's SSB mitigation on the other: the firmware's
	 * is permanent, so NOT_REQUIRED (KVM hides nothing here: SSBS is not on every CPU). */
	s = machine_of((const char *const[]){ "N1", "A72 fw" }, 2);
	CHECK(!s.ssbs_all);
	CHECK_EQ(spec_guest_feature(&s, SMCCC_FN_ARCH_WORKAROUND_2), RET(NR));
	CHECK_EQ(s.bhb_k, 24);
	/* SSBS everywhere: NOT_SUPPORTED, the guest sets SSBS itself. */
	s = machine_of((const char *const[]){ "N1", "max", "V1" }, 3);
	CHECK(s.ssbs_all);
	CHECK_EQ(s.bhb_k, 32);
	/* The loop runs the longest count of the machine's cores on each of them. */
	s = machine_of((const char *const[]){ "A76", "V1", "V1 clrbhb" }, 3);
	CHECK_EQ(s.bhb_k, 32);
	CHECK_EQ(s.entries[SPEC_ENTRY_LOOP], 2);
	CHECK_EQ(s.entries[SPEC_ENTRY_CLRBHB], 1);
	/* The loop counts of newer cores and of the other makers' (variant and revision
	 * ignored). */
	CHECK_EQ(loop_k(MIDR_X3), 132);
	CHECK_EQ(loop_k(0x410fd4f1ull), 132); /* Neoverse V2 */
	CHECK_EQ(loop_k(0x411fd4d0ull), 38);  /* Cortex-A715 */
	CHECK_EQ(loop_k(MIDR_A720), 38);
	CHECK_EQ(loop_k(0x410fd0e0ull), 24); /* Cortex-A76AE */
	CHECK_EQ(loop_k(0x51df8040ull), 24); /* Kryo 4XX gold */
	CHECK_EQ(loop_k(MIDR_AMPERE1), 11);
	CHECK_EQ(loop_k(MIDR_A73), 0);
	CHECK_EQ(loop_k(MIDR_QEMU_MAX), 0);
	CHECK_EQ(spec_guest_feature(&s, SMCCC_FN_ARCH_WORKAROUND_2), RET(NS));
	CHECK_EQ(spec_guest_feature(&s, SMCCC_FN_ARCH_WORKAROUND_1), UN);
	CHECK_EQ(spec_guest_feature(&s, 0x80000002), RET(NS)); /* not a workaround */
}

/* The guest's calls through smccc_call with the machine's state. */
static void test_spectre_guest_calls(void)
{
	struct smccc_ops ops = ops_pv;
	struct spec_sys s = machine_of((const char *const[]){ "N1" }, 1);
	int calls = ops_calls();

	ops.spectre = &s;
	CHECK_EQ(call_ops(&ops, SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_1, 7, 8), UN);
	check_args_kept(SMCCC_FN_ARCH_WORKAROUND_1, 7, 8);
	CHECK_EQ(call_ops(&ops, SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_2, 0, 0), RET(NS));
	CHECK_EQ(call_ops(&ops, SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_3, 0, 0), 0);
	/* The upper half of X1 is not part of the ID. */
	CHECK_EQ(call_ops(&ops, SMCCC_FN_ARCH_FEATURES, GARBAGE | SMCCC_FN_ARCH_WORKAROUND_3, 0, 0),
		 0);
	/* The calls: 0, known, the arguments kept (KVM's fast path returns 0 too). */
	CHECK_EQ(call_ops(&ops, SMCCC_FN_ARCH_WORKAROUND_1, 1, 2, 3), 0);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	check_args_kept(1, 2, 3);
	CHECK_EQ(call_ops(&ops, GARBAGE | SMCCC_FN_ARCH_WORKAROUND_3, 1, 2, 3), 0);
	CHECK_EQ(status, SMCCC_CALL_KNOWN);
	/* WORKAROUND_2 is not a call guests make here (KVM: not in its table either). */
	CHECK_EQ(call_ops(&ops, SMCCC_FN_ARCH_WORKAROUND_2, 1, 0, 0), RET(NS));
	CHECK_EQ(status, SMCCC_CALL_UNKNOWN);
	CHECK_EQ(ops_calls(), calls); /* nothing of the VM's was asked */

	s = machine_of((const char *const[]){ "A72 fw" }, 1);
	CHECK_EQ(call_ops(&ops, SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_1, 0, 0), 0);
	CHECK_EQ(call_ops(&ops, SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_2, 0, 0), RET(NR));
	s = machine_of((const char *const[]){ "A72" }, 1);
	CHECK_EQ(call_ops(&ops, SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_1, 0, 0), RET(NS));
	CHECK_EQ(call_ops(&ops, SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_3, 0, 0), RET(NS));
}

static void test_spectre_describe(void)
{
	char line[400];
	struct spec_sys s = machine_of((const char *const[]){ "N1", "N1" }, 2);

	spec_describe(&s, line, sizeof line);
	CHECK_STR(line, "Spectre-v2 not affected (CSV2), BHB mitigated (loop, k=24), SSB mitigated "
			"(SSBS); on entry from a guest: BHB loop on 2 pCPUs; guests told "
			"WORKAROUND_1 UNAFFECTED, _2 NOT_SUPPORTED, _3 SUCCESS");
	s = machine_of((const char *const[]){ "A72" }, 1);
	spec_describe(&s, line, sizeof line);
	CHECK_STR(line, "Spectre-v2 VULNERABLE (no firmware workaround), BHB VULNERABLE (as "
			"Spectre-v2 is), SSB VULNERABLE (no firmware workaround); on entry from a "
			"guest: nothing on 1 pCPU; guests told WORKAROUND_1 NOT_SUPPORTED, _2 "
			"NOT_SUPPORTED, _3 NOT_SUPPORTED");
	/* A short buffer is cut, terminated. */
	spec_describe(&s, line, 20);
	CHECK_EQ(strlen(line), 19);
}

int main(void)
{
	test_versions();
	test_arch_features();
	test_psci_features();
	test_cpu_on();
	test_cpu_on_smc32();
	test_affinity_info();
	test_suspend_off_system();
	test_pv_time();
	test_get_stats();
	test_preempt_count();
	test_unknown();
	test_linux_boot();
	test_pvtime_record();
	test_spectre_cpus();
	test_spectre_machine();
	test_spectre_guest_calls();
	test_spectre_describe();
	return test_summary();
}
