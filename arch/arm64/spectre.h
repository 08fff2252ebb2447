/* SPDX-License-Identifier: GPL-2.0-only */
/* Spectre-v2, Spectre-BHB and speculative store bypass on arm64: what each pCPU is
 * affected by, what the hypervisor does about it on every entry from a guest, and what a
 * guest is told when it asks SMCCC_ARCH_FEATURES about SMCCC_ARCH_WORKAROUND_1, _2 and _3
 * (Arm DEN0028). The rules are Linux's (arch/arm64/kernel/proton-pack.c since its 2025
 * change "assume that unknown CPUs are vulnerable to Spectre BHB", in Linux 6.15 and
 * backported to 6.1.y, so in Debian 12's guest kernel; its CPU lists as of that change)
 * and KVM's answers to its guests (arch/arm64/kvm/hypercalls.c):
 *
 * Spectre-v2, per CPU: unaffected when ID_AA64PFR0_EL1.CSV2 is not 0 or the MIDR is on
 * the safe list (Cortex-A35, A53, A55, Brahma-B53, HiSilicon TSV110, Kryo 2XX/3XX/4XX
 * silver); else mitigated when the firmware's ARCH_FEATURES(WORKAROUND_1) is 0 (SUCCESS:
 * the hypervisor then calls WORKAROUND_1 on every entry from a guest), unaffected when it
 * is 1, else vulnerable.
 *
 * Spectre-BHB, per CPU: not affected with CSV2 = 3 (FEAT_CSV2_3) or on the safe list
 * (Cortex-A35, A53, A55, A510, A520, Brahma-B53, Kryo 2XX/3XX/4XX silver); every other
 * core is affected. The branchy loop's count k by MIDR: 132 Cortex-X3, Neoverse V2; 38
 * A715, A720; 32 A78, A78AE, A78C, X1, A710, X2, Neoverse N2, V1; 24 A76, A76AE, A77,
 * Neoverse N1, Kryo 4XX gold; 11 Ampere1; 8 A57, A72; else none (and none where ClearBHB
 * is used). An affected CPU is vulnerable while Spectre-v2 is ("no point
 * mitigating Spectre-BHB alone"); else mitigated by, in this order: the hardware
 * (ID_AA64MMFR1_EL1.ECBHB: an exception clears the history, nothing to do), the ClearBHB
 * instruction, the loop (k times, k the largest of all CPUs), the firmware's WORKAROUND_3;
 * else vulnerable. On a CPU whose Spectre-v2 mitigation is the firmware's call that call
 * is made instead (WORKAROUND_3 where the firmware offers it), as KVM's hardened vectors
 * do.
 *
 * SSB (WORKAROUND_2), per CPU: unaffected on the safe list (A35, A53, A55, Brahma-B53,
 * Kryo 3XX/4XX silver); mitigated with SSBS (ID_AA64PFR1_EL1.SSBS, which guests see);
 * else the firmware's ARCH_FEATURES(WORKAROUND_2): SUCCESS mitigated (the hypervisor
 * calls WORKAROUND_2(1) once per CPU at boot, so it is on for good, as Linux's default),
 * 1 or NOT_REQUIRED unaffected, else vulnerable.
 *
 * The machine's state for each is the worst of its CPUs (vulnerable > mitigated >
 * unaffected). A guest's ARCH_FEATURES as KVM answers: WORKAROUND_1 and _3: mitigated 0,
 * unaffected 1, vulnerable NOT_SUPPORTED; WORKAROUND_2: NOT_REQUIRED (-2) when
 * unaffected or mitigated by the firmware on some CPU, NOT_SUPPORTED when vulnerable or
 * every CPU has SSBS (the guest then uses SSBS itself). A guest's WORKAROUND_1 or _3 call
 * returns 0 (KVM's fast path): on a mitigated CPU the entry vectors have already run the
 * mitigation on the way in, on an unaffected one there is nothing to do.
 *
 * The firmware is asked only through SMCCC 1.1: PSCI_VERSION >= 1.0, then
 * PSCI_FEATURES(SMCCC_VERSION) must be SUCCESS, then SMCCC_VERSION >= 1.1 (as Linux's
 * psci_init_smccc; under QEMU without EL3 an SMC to a function QEMU's PSCI does not know
 * is UNDEFINED at EL2). Without it every answer counts as NOT_SUPPORTED. */
#ifndef ARCH_ARM64_SPECTRE_H
#define ARCH_ARM64_SPECTRE_H

#include "hv/types.h"

/* Ordered as Linux's: a machine is as bad as its worst CPU. */
enum spec_state { SPEC_UNAFFECTED, SPEC_MITIGATED, SPEC_VULNERABLE };

/* What the EL2 vectors run on every exception from a guest, before anything else. */
enum spec_entry {
	SPEC_ENTRY_NONE,
	SPEC_ENTRY_FW_WA1, /* SMC SMCCC_ARCH_WORKAROUND_1 */
	SPEC_ENTRY_FW_WA3, /* SMC SMCCC_ARCH_WORKAROUND_3 */
	SPEC_ENTRY_LOOP,   /* the branchy loop, k times, then a barrier */
	SPEC_ENTRY_CLRBHB, /* CLRBHB; ISB */
};

/* How a state came about, for the console and the self-test. */
enum spec_why {
	SPEC_WHY_NONE,	 /* (not set) */
	SPEC_WHY_CSV2,	 /* ID_AA64PFR0_EL1.CSV2 (v2), CSV2_3 (BHB) */
	SPEC_WHY_SAFE,	 /* the MIDR is on Linux's safe list */
	SPEC_WHY_FW,	 /* the firmware's workaround (or its word that none is needed) */
	SPEC_WHY_ECBHB,	 /* ID_AA64MMFR1_EL1.ECBHB */
	SPEC_WHY_CLRBHB, /* the ClearBHB instruction */
	SPEC_WHY_LOOP,	 /* the branchy loop */
	SPEC_WHY_SSBS,	 /* PSTATE.SSBS, the guest's to set */
	SPEC_WHY_V2,	 /* BHB left unmitigated while Spectre-v2 is */
	SPEC_WHY_NO_FW,	 /* affected, and the firmware offers no workaround */
};

/* A CPU as read at boot, and the firmware's answers for it (SMCCC_NOT_SUPPORTED where
 * the firmware could not be asked). */
struct spec_cpu_in {
	u64 midr, pfr0, pfr1, mmfr1, isar2;
	bool smccc; /* SMCCC 1.1 reached (ARCH_FEATURES was asked) */
	s64 fw_wa1, fw_wa2, fw_wa3;
};

struct spec_cpu {
	u8 v2, bhb, ssb;	     /* enum spec_state */
	u8 v2_why, bhb_why, ssb_why; /* enum spec_why */
	u8 entry;		     /* enum spec_entry */
	u8 bhb_k;		     /* this CPU's loop count (0: not on the loop list) */
	bool ssbs;		     /* the CPU has SSBS */
	bool ssb_fw_enable;	     /* call WORKAROUND_2(1) on this CPU at boot */
};

/* The machine: the worst state of its CPUs and the loop count of the worst of them. */
struct spec_sys {
	u32 ncpus;
	u8 v2, bhb, ssb;
	u8 v2_why, bhb_why, ssb_why; /* of a CPU with that state */
	u8 bhb_k;
	bool ssbs_all;	/* every CPU has SSBS */
	u32 entries[5]; /* CPUs per enum spec_entry */
};

#define SMCCC_ARCH_WORKAROUND_RET_UNAFFECTED 1
#define SMCCC_NOT_REQUIRED (-2)

void spec_decide_cpu(const struct spec_cpu_in *in, struct spec_cpu *out);
/* Folds a CPU (decided) into the machine (zeroed before the first). */
void spec_sys_add(struct spec_sys *s, const struct spec_cpu *c);
/* SMCCC_ARCH_FEATURES(fid) for a guest on this machine, for fid one of the three
 * workarounds; other IDs are not asked here. */
s64 spec_guest_feature(const struct spec_sys *s, u32 fid);
/* The console line after "hv: speculation (arm64): " (no newline). */
void spec_describe(const struct spec_sys *s, char *buf, u32 len);
const char *spec_state_name(u8 state);
const char *spec_why_name(u8 why);
const char *spec_entry_name(u8 entry);

/* Hardware side (spectre_hw.c, not in host tests). On each pCPU in arm64_pcpu_init:
 * reads its ID registers, asks the firmware (the SMCCC discovery once, on pCPU 0),
 * decides, enables the firmware's SSB mitigation where that is the one, and returns the
 * EL2 vector table for this pCPU. */
void *spec_cpu_init(u32 id);
/* The machine's state once every pCPU is up (for the guests' answers and the console). */
const struct spec_sys *spec_sys(void);
/* Prints "hv: speculation (arm64): ..." (after the secondaries are up). */
void spec_print(void);

#endif
