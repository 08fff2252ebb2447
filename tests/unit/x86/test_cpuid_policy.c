/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for arch/x86/cpuid_policy.c and the pure part of arch/x86/xstate.c, against
 * CPUID dumps of real server CPUs (tests/unit/x86/data/cpuid/, see its README): whatever a
 * guest is offered must be implemented, and what is not must read as absent. */
#include "../../../arch/x86/cpuid_policy.c"
#include "../../../arch/x86/xstate.c"
#include "cpuid_dump.h"
#include "../test.h"

static void guest(const struct cpuid_guest *g, u32 leaf, u32 sub, u32 r[4])
{
	cpuid_policy(dump_cpuid, g, leaf, sub, r);
}

static u32 guest_reg(const struct cpuid_guest *g, u32 leaf, u32 sub, int reg)
{
	u32 r[4];
	guest(g, leaf, sub, r);
	return r[reg];
}

enum { EAX, EBX, ECX, EDX };

/* Never offered, on any CPU: what the hypervisor does not implement. */
static void check_hidden(const struct cpuid_guest *g)
{
	CHECK_EQ(guest_reg(g, 1, 0, ECX) & (BIT(3) | BIT(5) | BIT(6) | BIT(15)),
		 0); /* MONITOR VMX SMX PDCM */
	CHECK_EQ(guest_reg(g, 1, 0, EDX) & (BIT(7) | BIT(12) | BIT(14) | BIT(21)),
		 0); /* MCE MTRR MCA DS */
	CHECK_EQ(guest_reg(g, 7, 0, EBX) & (BIT(1) | BIT(2) | BIT(4) | BIT(11) | BIT(14) | BIT(25)),
		 0); /* TSC_ADJUST SGX HLE RTM MPX PT */
	CHECK_EQ(guest_reg(g, 7, 0, ECX) & (BIT(3) | BIT(4) | BIT(5) | BIT(7)),
		 0); /* PKU OSPKE WAITPKG CET_SS */
	CHECK_EQ(guest_reg(g, 7, 0, EDX) &
			 (BIT(20) | BIT(22) | BIT(24) | BIT(25) | BIT(28) | BIT(29)),
		 0);			      /* CET_IBT AMX L1D_FLUSH ARCH_CAPABILITIES */
	CHECK_EQ(guest_reg(g, 7, 0, EAX), 0); /* no sub-leaf 1 (AVX-VNNI, AMX ...) */
	CHECK_EQ(guest_reg(g, 7, 1, EAX), 0);
	CHECK_EQ(guest_reg(g, 5, 0, EAX), 0);	/* MONITOR/MWAIT */
	CHECK_EQ(guest_reg(g, 0xA, 0, EAX), 0); /* performance monitoring */
	CHECK_EQ(guest_reg(g, 0x80000001, 0, ECX) &
			 (BIT(2) | BIT(3) | BIT(4) | BIT(10) | BIT(22) | BIT(23) | BIT(29)),
		 0); /* SVM ExtApicSpace AltMovCr8 IBS TopoExt PerfCtrExtCore MONITORX */
	u32 r[4];
	for (u32 leaf = 0x8000000A; leaf <= 0x80000020; leaf++) {
		if (leaf == 0x80000019 || leaf == 0x8000001A)
			continue; /* descriptive: TLBs, performance hints */
		guest(g, leaf, 0, r);
		CHECK_EQ(r[0] | r[1] | r[2] | r[3], 0); /* SVM, IBS, topology, SME/SEV, PQoS */
	}
	CHECK_EQ(guest_reg(g, 0x80000021, 0, EAX) & BIT(8), 0); /* AutoIBRS (an EFER bit) */
	CHECK_EQ(guest_reg(g, 0x80000008, 0, EBX) & (BIT(25) | BIT(28)), 0); /* VIRT_SSBD PSFD */
	CHECK_EQ(guest_reg(g, 0x80000007, 0, EBX), 0); /* RAS: MCA overflow recovery ... */
	CHECK(guest_reg(g, 0, 0, EAX) <= 0xD);
	CHECK(guest_reg(g, 0x80000000, 0, EAX) <= 0x80000021);
}

/* Always offered. */
static void check_platform(const struct cpuid_guest *g)
{
	CHECK(guest_reg(g, 1, 0, ECX) & BIT(21)); /* x2APIC */
	CHECK(guest_reg(g, 1, 0, ECX) & BIT(24)); /* TSC-deadline */
	CHECK(guest_reg(g, 1, 0, ECX) & BIT(31)); /* hypervisor */
	CHECK_EQ(guest_reg(g, 1, 0, EBX) >> 24, g->id);
	CHECK_EQ((guest_reg(g, 1, 0, EBX) >> 16) & 0xFF, g->nvcpus);
	CHECK_EQ(guest_reg(g, 0xB, 1, EBX), g->nvcpus);
	CHECK_EQ(guest_reg(g, 0xB, 0, EDX), g->id);
	CHECK_EQ(guest_reg(g, 0x80000008, 0, ECX) & 0xFF, g->nvcpus - 1);
	CHECK_EQ(guest_reg(g, 6, 0, EAX), BIT(2)); /* ARAT only */
}

/* XSAVE: the components, the sizes and the AVX feature bits agree (what Linux checks
 * before it uses XSAVE, arch/x86/kernel/fpu/xstate.c). */
static void check_xstate(struct cpuid_guest *g, bool avx512)
{
	u64 mask = g->xcr0_mask;
	CHECK_EQ(mask & (XCR0_X87 | XCR0_SSE | XCR0_AVX), XCR0_X87 | XCR0_SSE | XCR0_AVX);
	CHECK_EQ(mask & XCR0_AVX512, avx512 ? XCR0_AVX512 : 0);
	CHECK_EQ(mask & ~(XCR0_X87 | XCR0_SSE | XCR0_AVX | XCR0_AVX512), 0); /* no PKRU, MPX, AMX */
	CHECK(guest_reg(g, 1, 0, ECX) & BIT(26));			     /* XSAVE */
	CHECK(guest_reg(g, 1, 0, ECX) & BIT(28));			     /* AVX */
	CHECK(guest_reg(g, 7, 0, EBX) & BIT(5));			     /* AVX2 */
	CHECK_EQ(!!(guest_reg(g, 7, 0, EBX) & BIT(16)), avx512);	     /* AVX512F */
	g->osxsave = false;
	CHECK_EQ(guest_reg(g, 1, 0, ECX) & BIT(27), 0); /* OSXSAVE follows the guest's CR4 */
	g->osxsave = true;
	CHECK(guest_reg(g, 1, 0, ECX) & BIT(27));
	u32 r[4];
	guest(g, 0xD, 0, r);
	CHECK_EQ(r[0] | (u64)r[3] << 32, mask);
	g->xcr0 = XCR0_X87 | XCR0_SSE;
	CHECK_EQ(guest_reg(g, 0xD, 0, EBX), 576);
	g->xcr0 = XCR0_X87 | XCR0_SSE | XCR0_AVX;
	CHECK_EQ(guest_reg(g, 0xD, 0, EBX), 832); /* YMM_Hi128 at 576, 256 bytes */
	u32 h[4];
	dump_cpuid(0xD, 7, h); /* Hi16_ZMM, the last of AVX-512 (2688 on Intel, 2432 on Zen 4) */
	CHECK_EQ(guest_reg(g, 0xD, 0, ECX), avx512 ? h[1] + h[0] : 832);
	guest(g, 0xD, 2, r);
	CHECK_EQ(r[0], 256);
	CHECK_EQ(r[1], 576);
	guest(g, 0xD, 9, r); /* PKRU: not offered */
	CHECK_EQ(r[0] | r[1] | r[2] | r[3], 0);
	CHECK_EQ(guest_reg(g, 0xD, 1, EAX) & ~1u, 0); /* XSAVEOPT at most: no XSAVES */
	for (u32 i = 2; i < 63; i++) {		      /* every offered component within the area */
		guest(g, 0xD, i, r);
		if (mask & BIT(i))
			CHECK(r[1] + r[0] <= guest_reg(g, 0xD, 0, ECX));
	}
}

/* Speculation control and TSC_AUX: offered exactly where msr.c implements them. */
static void check_msr_features(const struct cpuid_guest *g)
{
	u64 spec = cpuid_spec_ctrl_bits(dump_cpuid);
	u32 l7 = guest_reg(g, 7, 0, EDX), e8 = guest_reg(g, 0x80000008, 0, EBX);
	CHECK_EQ(!!(spec & SPEC_CTRL_IBRS), !!((l7 & BIT(26)) || (e8 & BIT(14))));
	CHECK_EQ(!!(spec & SPEC_CTRL_STIBP), !!((l7 & BIT(27)) || (e8 & BIT(15))));
	CHECK_EQ(!!(spec & SPEC_CTRL_SSBD), !!((l7 & BIT(31)) || (e8 & BIT(24))));
	CHECK_EQ(cpuid_has_ibpb(dump_cpuid), !!((l7 & BIT(26)) || (e8 & BIT(12))));
	bool tsc_aux = (guest_reg(g, 0x80000001, 0, EDX) & BIT(27)) ||
		       (guest_reg(g, 7, 0, ECX) & BIT(22));
	CHECK_EQ(cpuid_has_tsc_aux(dump_cpuid), tsc_aux);
}

static struct cpuid_guest guest_of(u32 nvcpus, u32 id)
{
	struct cpuid_guest g = {
		.nvcpus = nvcpus, .id = id, .osxsave = true, .xcr0 = XCR0_X87, .apic = true
	};
	g.xcr0_mask = xstate_guest_xcr0_mask(dump_cpuid);
	return g;
}

static void check_cpu(const char *name, bool avx512, bool spec_ctrl, bool ibpb)
{
	load_dump(name);
	CHECK(nleaves > 20);
	struct cpuid_guest g = guest_of(4, 3);
	check_hidden(&g);
	check_platform(&g);
	check_xstate(&g, avx512);
	check_msr_features(&g);
	CHECK_EQ(cpuid_spec_ctrl_bits(dump_cpuid) != 0, spec_ctrl);
	CHECK_EQ(cpuid_has_ibpb(dump_cpuid), ibpb);
	CHECK(cpuid_has_tsc_aux(dump_cpuid));
	/* The vendor string and the brand string are the CPU's. */
	u32 h[4], r[4];
	dump_cpuid(0, 0, h), guest(&g, 0, 0, r);
	CHECK_EQ(r[1], h[1]);
	dump_cpuid(0x80000002, 0, h), guest(&g, 0x80000002, 0, r);
	CHECK_EQ(r[0], h[0]);
}

static void test_epyc_zen2(void)
{
	check_cpu("epyc-7742-zen2", false, true, true);
	/* Leaf 1 ECX 7EF8320B: all but MONITOR, with TSC-deadline and the hypervisor bit on
	 * top (x2APIC, XSAVE and OSXSAVE are there already). */
	struct cpuid_guest g = guest_of(4, 3);
	CHECK_EQ(guest_reg(&g, 1, 0, ECX), 0xFFF83203u);
	/* Leaf 1 EDX 178BFBFF: all but MCE, MTRR and MCA. */
	CHECK_EQ(guest_reg(&g, 1, 0, EDX), 0x178BAB7Fu);
	/* APIC (bit 9) follows the vCPU's IA32_APIC_BASE.EN (SDM vol. 2, CPUID: "APIC On-Chip"). */
	g.apic = false;
	CHECK_EQ(guest_reg(&g, 1, 0, EDX), 0x178BA97Fu);
	g.apic = true;
	/* 8000_0008h EBX 018EF757: CLZERO, XSaveErPtr, IBPB, IBRS, STIBP, StibpAlwaysOn,
	 * IbrsPreferred, IbrsSameMode, SSBD; not InstRetCntMsr, RDPRU, MCOMMIT, WBNOINVD,
	 * INT_WBINVD, PPIN. */
	CHECK_EQ(guest_reg(&g, 0x80000008, 0, EBX), 0x010ED005u);
	CHECK_EQ(guest_reg(&g, 0x80000007, 0, EDX), BIT(8)); /* invariant TSC */
}

static void test_epyc_zen4(void)
{
	check_cpu("epyc-9654-zen4", true, true, true);
	struct cpuid_guest g = guest_of(2, 1);
	CHECK_EQ(guest_reg(&g, 0x80000021, 0, EAX) & ~(BIT(0) | BIT(2) | BIT(6)), 0);
	CHECK_EQ(guest_reg(&g, 0x8000001F, 0, EAX), 0); /* SME/SEV */
}

static void test_xeon_skylake(void)
{
	/* This dump's leaf 7 EDX predates the microcode that added IA32_SPEC_CTRL. */
	check_cpu("xeon-gold-6154-skylake-sp", true, false, false);
}

static void test_xeon_sapphire_rapids(void)
{
	check_cpu("xeon-w7-2475x-sapphire-rapids", true, true, true);
	struct cpuid_guest g = guest_of(2, 0);
	u32 r[4];
	guest(&g, 0xD, 17, r); /* AMX tile state: not offered */
	CHECK_EQ(r[0] | r[1], 0);
	guest(&g, 0xD, 18, r);
	CHECK_EQ(r[0] | r[1], 0);
}

static void test_xcr0_valid(void)
{
	u64 all = XCR0_X87 | XCR0_SSE | XCR0_AVX | XCR0_AVX512;
	CHECK(xstate_xcr0_valid(all, XCR0_X87));
	CHECK(xstate_xcr0_valid(all, XCR0_X87 | XCR0_SSE));
	CHECK(xstate_xcr0_valid(all, XCR0_X87 | XCR0_SSE | XCR0_AVX));
	CHECK(xstate_xcr0_valid(all, all));
	CHECK(!xstate_xcr0_valid(all, 0));				   /* x87 is always on */
	CHECK(!xstate_xcr0_valid(all, XCR0_SSE));			   /* ... */
	CHECK(!xstate_xcr0_valid(all, XCR0_X87 | XCR0_AVX));		   /* AVX needs SSE */
	CHECK(!xstate_xcr0_valid(all, 7 | XCR0_OPMASK));		   /* AVX-512 whole */
	CHECK(!xstate_xcr0_valid(all, XCR0_X87 | XCR0_SSE | XCR0_AVX512)); /* and with AVX */
	CHECK(!xstate_xcr0_valid(all, 7 | XCR0_PKRU));			   /* not offered */
	CHECK(!xstate_xcr0_valid(7, all));
	CHECK(!xstate_xcr0_valid(all, 7 | BIT(63)));
}

/* A CPU without XSAVE: no XSAVE and nothing that needs it. */
static void no_xsave_cpuid(u32 leaf, u32 sub, u32 r[4])
{
	dump_cpuid(leaf, sub, r);
	if (leaf == 1)
		r[2] &= ~BIT(26);
}

static void test_no_xsave(void)
{
	load_dump("epyc-7742-zen2");
	struct cpuid_guest g = { .nvcpus = 1, .osxsave = true };
	g.xcr0_mask = xstate_guest_xcr0_mask(no_xsave_cpuid);
	CHECK_EQ(g.xcr0_mask, 0);
	u32 r[4];
	cpuid_policy(no_xsave_cpuid, &g, 1, 0, r);
	CHECK_EQ(r[2] & (BIT(12) | BIT(26) | BIT(27) | BIT(28) | BIT(29)), 0);
	cpuid_policy(no_xsave_cpuid, &g, 7, 0, r);
	CHECK_EQ(r[1] & BIT(5), 0);
	cpuid_policy(no_xsave_cpuid, &g, 0xD, 0, r);
	CHECK_EQ(r[0] | r[1] | r[2] | r[3], 0);
}

int main(void)
{
	test_epyc_zen2();
	test_epyc_zen4();
	test_xeon_skylake();
	test_xeon_sapphire_rapids();
	test_xcr0_valid();
	test_no_xsave();
	return test_summary();
}
