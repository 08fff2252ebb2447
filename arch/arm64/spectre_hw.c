/* SPDX-License-Identifier: GPL-2.0-only */
/* Spectre-v2, Spectre-BHB and SSB on this machine: each pCPU's ID registers and the
 * firmware's answers, read at boot; the EL2 vectors each pCPU runs (spectre.h). */
#include "arch/arm64/spectre.h"
#include "arch/arm64/smccc.h"
#include "arch/cpu.h"
#include "hv/lib.h"
#include "hv/pcpu_set.h"
#include "hv/printk.h"

extern char el2_vectors[], el2_vectors_fw_wa1[], el2_vectors_fw_wa3[], el2_vectors_loop[],
	el2_vectors_clrbhb[];

/* The loop count of entry.S's Spectre-BHB loop: the largest of the pCPUs' (as Linux). */
u64 spec_bhb_loop_k;

static struct spec_cpu cpus[MAX_PCPUS];
static bool cpu_known[MAX_PCPUS];
static struct spec_sys machine;
static bool smccc11; /* the firmware's SMCCC is 1.1 or later: ARCH_FEATURES may be asked */
static u32 psci_version, smccc_version;

static s64 fw(u32 fn, u64 a1) { return (s64)(s32)smc_call(fn, a1, 0, 0); }

/* Linux's psci_init_smccc: SMCCC_VERSION only where PSCI_FEATURES says it exists. */
static void discover_smccc(void)
{
	psci_version = (u32)smc_call(PSCI_FN_VERSION, 0, 0, 0);
	if ((psci_version >> 16) < 1 || (psci_version >> 16) > 0x7FFF)
		return; /* PSCI_FEATURES is 1.0's */
	if (fw(PSCI_FN_FEATURES, SMCCC_FN_VERSION) != PSCI_SUCCESS)
		return;
	s64 v = fw(SMCCC_FN_VERSION, 0);
	if (v < SMCCC_VERSION_1_1)
		return;
	smccc_version = (u32)v;
	smccc11 = true;
}

void *spec_cpu_init(u32 id)
{
	static void *const vectors[] = {
		[SPEC_ENTRY_NONE] = el2_vectors,	  [SPEC_ENTRY_FW_WA1] = el2_vectors_fw_wa1,
		[SPEC_ENTRY_FW_WA3] = el2_vectors_fw_wa3, [SPEC_ENTRY_LOOP] = el2_vectors_loop,
		[SPEC_ENTRY_CLRBHB] = el2_vectors_clrbhb,
	};
	struct spec_cpu_in in = {
		.midr = read_sysreg(midr_el1),
		.pfr0 = read_sysreg(id_aa64pfr0_el1),
		.pfr1 = read_sysreg(id_aa64pfr1_el1),
		.mmfr1 = read_sysreg(id_aa64mmfr1_el1),
		.isar2 = read_sysreg(s3_0_c0_c6_2), /* ID_AA64ISAR2_EL1 */
		.fw_wa1 = SMCCC_NOT_SUPPORTED,
		.fw_wa2 = SMCCC_NOT_SUPPORTED,
		.fw_wa3 = SMCCC_NOT_SUPPORTED,
	};
	if (id >= MAX_PCPUS)
		return el2_vectors;
	if (id == 0)
		discover_smccc(); /* before the secondaries start */
	if (smccc11) {
		in.smccc = true;
		in.fw_wa1 = fw(SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_1);
		in.fw_wa2 = fw(SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_2);
		in.fw_wa3 = fw(SMCCC_FN_ARCH_FEATURES, SMCCC_FN_ARCH_WORKAROUND_3);
	}
	struct spec_cpu *c = &cpus[id];
	spec_decide_cpu(&in, c);
	/* The hypervisor's own exceptions start with PSTATE.SSBS = SCTLR_EL2.DSSBS (bit 44),
	 * which firmware may leave set (store bypass allowed at EL2): cleared where the CPU
	 * has SSBS, as Linux's and KVM's SCTLR_EL2 have it. */
	u64 sctlr = read_sysreg(sctlr_el2);
	if (c->ssbs && (sctlr & BIT(44))) {
		write_sysreg(sctlr_el2, sctlr & ~BIT(44));
		isb();
	}
	if (c->ssb_fw_enable)
		smc_call(SMCCC_FN_ARCH_WORKAROUND_2, 1, 0, 0); /* on for good */
	u64 k = __atomic_load_n(&spec_bhb_loop_k, __ATOMIC_RELAXED);
	while (k < c->bhb_k && !__atomic_compare_exchange_n(&spec_bhb_loop_k, &k, c->bhb_k, false,
							    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	if (c->entry == SPEC_ENTRY_LOOP && !spec_bhb_loop_k)
		c->entry = SPEC_ENTRY_NONE; /* cannot be: the loop is chosen only with a k */
	__atomic_store_n(&cpu_known[id], true, __ATOMIC_RELEASE);
	return vectors[c->entry < ARRAY_SIZE(vectors) ? c->entry : SPEC_ENTRY_NONE];
}

const struct spec_sys *spec_sys(void) { return &machine; }

void spec_print(void)
{
	char line[400];
	struct spec_sys m = { 0 };

	/* Folded aside and then published whole: the guests (not started yet) never see a
	 * machine of fewer CPUs. */
	for (u32 i = 0; i < MAX_PCPUS; i++)
		if (__atomic_load_n(&cpu_known[i], __ATOMIC_ACQUIRE))
			spec_sys_add(&m, &cpus[i]);
	machine = m;
	spec_describe(&machine, line, sizeof line);
	if (smccc11)
		printk("hv: speculation (arm64): %s (firmware: PSCI %u.%u, SMCCC %u.%u)\n", line,
		       psci_version >> 16, psci_version & 0xFFFF, smccc_version >> 16,
		       smccc_version & 0xFFFF);
	else
		printk("hv: speculation (arm64): %s (firmware: PSCI %u.%u without SMCCC 1.1: not "
		       "asked)\n",
		       line, psci_version >> 16, psci_version & 0xFFFF);
}
