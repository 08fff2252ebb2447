/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for arch/x86/speculation.c's decision: which mitigations turn on for each of
 * the recorded real CPUs (tests/unit/x86/data/cpuid/), with IA32_ARCH_CAPABILITIES as each
 * model reports it (the dumps hold CPUID only; the values follow Intel's "Affected
 * Processors" table for the model), and what the console says. */
#include "../../../arch/x86/cpuid_policy.c"
#include "../../../arch/x86/speculation.c"
#include "../../../arch/x86/xstate.c"
#include "../console_capture.h"
#include "cpuid_dump.h"
#include "../test.h"

static u64 arch_caps;
static u32 arch_caps_reads;
static u64 read_msr(u32 msr)
{
	CHECK_EQ(msr, MSR_IA32_ARCH_CAPABILITIES);
	arch_caps_reads++;
	return arch_caps;
}

static struct x86_speculation decide(const char *cpu, u64 caps)
{
	struct x86_speculation s;
	load_dump(cpu);
	arch_caps = caps;
	arch_caps_reads = 0;
	x86_speculation_decide(dump_cpuid, read_msr, &s);
	return s;
}

/* Leaf 7.0's EDX of the dump loaded last, as newer microcode would report it. */
static void set_leaf7_edx(u32 edx)
{
	for (int i = 0; i < nleaves; i++)
		if (leaves[i].leaf == 7 && leaves[i].sub == 0)
			leaves[i].r[3] = edx;
}

static void test_amd(void)
{
	/* Zen 2 and Zen 4: none of the Intel-only issues; IBPB from 8000_0008h EBX; Zen 2
	 * (family 17h) has Retbleed and SRSO, Zen 4 (19h) SRSO, neither mitigated here. */
	static const struct {
		const char *cpu, *text;
	} cpus[] = {
		{ "epyc-7742-zen2",
		  "Spectre v2: retpolines; IBPB between VMs; RSB filled after exits; Retbleed: "
		  "EXPOSED (AMD: no untrained-return thunks); SRSO: EXPOSED; L1TF: not affected; "
		  "MDS/TAA/RFDS: not affected" },
		{ "epyc-9654-zen4",
		  "Spectre v2: retpolines; IBPB between VMs; RSB filled after exits; SRSO: "
		  "EXPOSED; L1TF: not affected; MDS/TAA/RFDS: not affected" },
	};
	for (u32 i = 0; i < ARRAY_SIZE(cpus); i++) {
		struct x86_speculation s = decide(cpus[i].cpu, ~0ull);
		CHECK(s.ibpb);
		CHECK(!s.verw);
		CHECK(!s.l1d_flush);
		CHECK_EQ(s.host_spec_ctrl, 0);
		CHECK_EQ(arch_caps_reads, 0); /* the CPU has no such MSR */
		CHECK_STR(s.text, cpus[i].text);
	}
}

static void test_skylake_sp(void)
{
	/* As recorded (microcode from before 2018): no IBPB, no MD_CLEAR, no L1D_FLUSH,
	 * no ARCH_CAPABILITIES; affected by L1TF, MDS and TAA (it has TSX). */
	struct x86_speculation s = decide("xeon-gold-6154-skylake-sp", ~0ull);
	CHECK(!s.ibpb);
	CHECK(!s.verw);
	CHECK(s.l1d_flush);
	CHECK(!s.flush_cmd);
	CHECK_EQ(s.host_spec_ctrl, 0);
	CHECK_EQ(arch_caps_reads, 0);
	CHECK_STR(s.text, "Spectre v2: retpolines; no IBPB (the CPU lacks it); RSB filled after "
			  "exits; Retbleed: EXPOSED (no IBRS: update the microcode); L1TF: L1D "
			  "flushed before entries (by reading 64 KiB); MDS/TAA/RFDS: EXPOSED (the "
			  "microcode lacks MD_CLEAR: update it)");

	/* With current microcode: IBRS/IBPB, STIBP, SSBD, MD_CLEAR, L1D_FLUSH, and
	 * ARCH_CAPABILITIES with none of the "not affected" bits (Skylake-SP is affected by
	 * L1TF, MDS, TAA and Retbleed; it has no enhanced IBRS, so IBRS stays on in the
	 * hypervisor, as Linux's spectre_v2=ibrs). */
	load_dump("xeon-gold-6154-skylake-sp");
	u32 edx = BIT(10) | BIT(26) | BIT(27) | BIT(28) | BIT(29) | BIT(31);
	set_leaf7_edx(edx);
	arch_caps = 0;
	arch_caps_reads = 0;
	x86_speculation_decide(dump_cpuid, read_msr, &s);
	CHECK(s.ibpb);
	CHECK(s.verw);
	CHECK(s.l1d_flush);
	CHECK(s.flush_cmd);
	CHECK_EQ(s.host_spec_ctrl, SPEC_CTRL_IBRS);
	CHECK_EQ(arch_caps_reads, 1);
	CHECK_STR(s.text, "Spectre v2: retpolines; IBPB between VMs; RSB filled after exits; "
			  "Retbleed: IBRS kept on in the hypervisor; L1TF: L1D flushed before "
			  "entries (IA32_FLUSH_CMD); MDS/TAA/RFDS: VERW before entries");

	/* The same without TSX and with MDS_NO (no such CPU, but the rules): TAA needs RTM. */
	for (int i = 0; i < nleaves; i++)
		if (leaves[i].leaf == 7 && leaves[i].sub == 0)
			leaves[i].r[1] &= ~BIT(11);
	arch_caps = ARCH_CAP_MDS_NO;
	x86_speculation_decide(dump_cpuid, read_msr, &s);
	CHECK(!s.verw);
	/* ...but TSX_CTRL (the microcode turned RTM off) still counts as TSX for TAA. */
	arch_caps = ARCH_CAP_MDS_NO | ARCH_CAP_TSX_CTRL;
	x86_speculation_decide(dump_cpuid, read_msr, &s);
	CHECK(s.verw);
}

static void test_sapphire_rapids(void)
{
	/* Not affected by Meltdown/L1TF, MDS or TAA; enhanced IBRS; no L1D flush needed at
	 * VM entry; affected by BHI (no BHI_NO), with BHI_CTRL in CPUID 7.2:EDX. */
	u64 caps = ARCH_CAP_RDCL_NO | ARCH_CAP_IBRS_ALL | ARCH_CAP_SKIP_L1DFL_VMENTRY |
		   ARCH_CAP_MDS_NO | ARCH_CAP_TAA_NO;
	struct x86_speculation s = decide("xeon-w7-2475x-sapphire-rapids", caps);
	CHECK(s.ibpb);
	CHECK(!s.verw);
	CHECK(!s.l1d_flush);
	CHECK_EQ(s.host_spec_ctrl, SPEC_CTRL_IBRS | SPEC_CTRL_BHI_DIS_S);
	CHECK_EQ(arch_caps_reads, 1);
	CHECK_STR(s.text, "Spectre v2: retpolines, enhanced IBRS; IBPB between VMs; RSB filled "
			  "after exits; BHI_DIS_S; L1TF: not affected; MDS/TAA/RFDS: not affected");

	/* BHI_NO: no BHI_DIS_S. SKIP_L1DFL_VMENTRY alone (RDCL_NO clear): no flush. */
	s = decide("xeon-w7-2475x-sapphire-rapids",
		   ARCH_CAP_IBRS_ALL | ARCH_CAP_SKIP_L1DFL_VMENTRY | ARCH_CAP_BHI_NO);
	CHECK_EQ(s.host_spec_ctrl, SPEC_CTRL_IBRS);
	CHECK(!s.l1d_flush);
	CHECK(strstr(s.text, "L1TF: no flush needed (SKIP_L1DFL_VMENTRY)"));
	CHECK(s.verw); /* MDS_NO clear, and MD_CLEAR in CPUID */

	/* RFDS: a part that enumerates RFDS_CLEAR (and not RFDS_NO) gets VERW, MDS_NO or not. */
	s = decide("xeon-w7-2475x-sapphire-rapids", caps | ARCH_CAP_RFDS_CLEAR);
	CHECK(s.verw);
	s = decide("xeon-w7-2475x-sapphire-rapids", caps | ARCH_CAP_RFDS_CLEAR | ARCH_CAP_RFDS_NO);
	CHECK(!s.verw);

	/* A virtual CPU that claims enhanced IBRS and BHI_CTRL but hides IA32_SPEC_CTRL
	 * (CPUID 7.0:EDX bit 26): the hypervisor never writes the MSR. */
	load_dump("xeon-w7-2475x-sapphire-rapids");
	for (int i = 0; i < nleaves; i++)
		if (leaves[i].leaf == 7 && leaves[i].sub == 0)
			leaves[i].r[3] &= ~BIT(26);
	arch_caps = caps;
	x86_speculation_decide(dump_cpuid, read_msr, &s);
	CHECK_EQ(s.host_spec_ctrl, 0);
	CHECK(strstr(s.text, "Spectre v2: retpolines;"));

	/* The same CPU's CPUID with ARCH_CAPABILITIES all clear: every Intel mitigation. */
	s = decide("xeon-w7-2475x-sapphire-rapids", 0);
	CHECK(s.verw);
	CHECK(s.l1d_flush);
	CHECK(s.flush_cmd);
	CHECK_EQ(s.host_spec_ctrl, SPEC_CTRL_BHI_DIS_S);
}

int main(void)
{
	test_amd();
	test_skylake_sp();
	test_sapphire_rapids();
	return test_summary();
}
