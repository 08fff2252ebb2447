/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for arch/x86/irq/pv_ipi.c: KVM_HC_SEND_IPI argument checks and expansion. */
#include "../../../arch/x86/irq/pv_ipi.c"
#include "../../../arch/x86/irq/vlapic.h"
#include "../test.h"

_Static_assert(PV_IPI_FIXED == APIC_DM_FIXED, "PV_IPI_FIXED is the ICR encoding");
_Static_assert(PV_IPI_NMI == APIC_DM_NMI, "PV_IPI_NMI is the ICR encoding");
_Static_assert(KVM_EINVAL == 22, "KVM_EINVAL");

static struct pv_ipi_req req;

/* ICR as Linux's __send_ipi_mask() builds it. */
#define ICR_FIXED(v) ((u64)(v))
#define ICR_NMI ((u64)APIC_DM_NMI << 8)
#define ICR(mode, v) (((u64)(mode) << 8) | (v))

static int decode(u64 a0, u64 a1, u64 a2, u64 a3, u32 nvcpus)
{
	memset(&req, 0xa5, sizeof(req));
	return pv_ipi_decode(a0, a1, a2, a3, nvcpus, &req);
}

/* The targets as a 128-bit mask relative to `base`, for compact checks. */
static void targets_mask(u64 base, u64 *lo, u64 *hi)
{
	u32 i;

	*lo = *hi = 0;
	for (i = 0; i < req.ntargets; i++) {
		u64 off = req.targets[i] - base;

		CHECK(req.targets[i] >= base && off < 128);
		if (i)
			CHECK(req.targets[i] > req.targets[i - 1]); /* ascending */
		if (off < 64)
			*lo |= BIT(off);
		else if (off < 128)
			*hi |= BIT(off - 64);
	}
}

static void test_basic(void)
{
	u64 lo, hi;

	/* One target, fixed vector. */
	CHECK_EQ(decode(BIT(1), 0, 0, ICR_FIXED(0xfb), 4), 0);
	CHECK_EQ(req.mode, PV_IPI_FIXED);
	CHECK_EQ(req.vector, 0xfb);
	CHECK_EQ(req.ntargets, 1);
	CHECK_EQ(req.targets[0], 1);
	CHECK_EQ(req.out_of_range, 0);

	/* Every vCPU of a 64-vCPU VM from a0. */
	CHECK_EQ(decode(~0ull, 0, 0, ICR_FIXED(0x30), 64), 0);
	CHECK_EQ(req.ntargets, 64);
	targets_mask(0, &lo, &hi);
	CHECK_EQ(lo, ~0ull);
	CHECK_EQ(hi, 0);
	CHECK_EQ(req.out_of_range, 0);

	/* Non-zero min: bit i names min + i. */
	CHECK_EQ(decode(0x5, 0, 3, ICR_FIXED(0xf0), 8), 0);
	CHECK_EQ(req.ntargets, 2);
	CHECK_EQ(req.targets[0], 3);
	CHECK_EQ(req.targets[1], 5);
}

static void test_empty(void)
{
	CHECK_EQ(decode(0, 0, 0, ICR_FIXED(0xfb), 4), 0);
	CHECK_EQ(req.ntargets, 0);
	CHECK_EQ(req.out_of_range, 0);
	CHECK_EQ(req.vector, 0xfb);
	CHECK_EQ(decode(0, 0, ~0ull, ICR_NMI, 4), 0);
	CHECK_EQ(req.ntargets, 0);
	CHECK_EQ(req.out_of_range, 0);
	/* The ICR is checked first, even with nothing to send (as KVM). */
	CHECK_EQ(decode(0, 0, 0, ICR_FIXED(0x40) | BIT(11), 4), -KVM_EINVAL);
	/* kvm-unit-tests' apic test: bitmap 0xffffffff from 0xffffffff, ICR 0: 0, as KVM. */
	CHECK_EQ(decode(0xffffffff, 0, 0xffffffff, 0, 4), 0);
	CHECK_EQ(req.ntargets, 0);
}

static void test_both_halves(void)
{
	u64 lo, hi;

	/* a1 bit i names min + 64 + i. */
	CHECK_EQ(decode(BIT(0) | BIT(63), BIT(0) | BIT(63), 0, ICR_FIXED(0x40), 128), 0);
	CHECK_EQ(req.ntargets, 4);
	CHECK_EQ(req.targets[0], 0);
	CHECK_EQ(req.targets[1], 63);
	CHECK_EQ(req.targets[2], 64);
	CHECK_EQ(req.targets[3], 127);
	CHECK_EQ(req.out_of_range, 0);

	/* All 128 bits with 200 vCPUs (more than this hypervisor configures; decode
	 * does not care), min = 10. */
	CHECK_EQ(decode(~0ull, ~0ull, 10, ICR_FIXED(0x40), 200), 0);
	CHECK_EQ(req.ntargets, 128);
	targets_mask(10, &lo, &hi);
	CHECK_EQ(lo, ~0ull);
	CHECK_EQ(hi, ~0ull);
	CHECK_EQ(req.targets[0], 10);
	CHECK_EQ(req.targets[127], 137);

	/* Only the high half. */
	CHECK_EQ(decode(0, BIT(2), 0, ICR_FIXED(0x40), 100), 0);
	CHECK_EQ(req.ntargets, 1);
	CHECK_EQ(req.targets[0], 66);

	/* 64 vCPUs, min = 1: a0 bit 62 names 63, a1 bit 0 names 65 (no such vCPU). */
	CHECK_EQ(decode(BIT(62), BIT(0), 1, ICR_FIXED(0x40), 64), 0);
	CHECK_EQ(req.ntargets, 1);
	CHECK_EQ(req.targets[0], 63);
	CHECK_EQ(req.out_of_range, 1);
}

static void test_out_of_range(void)
{
	u64 lo, hi;

	/* Bits past the last vCPU are skipped and counted. */
	CHECK_EQ(decode(0xff, 0, 0, ICR_FIXED(0x40), 4), 0);
	CHECK_EQ(req.ntargets, 4);
	targets_mask(0, &lo, &hi);
	CHECK_EQ(lo, 0xf);
	CHECK_EQ(req.out_of_range, 4);

	/* Whole bitmap past the end. */
	CHECK_EQ(decode(~0ull, ~0ull, 0, ICR_FIXED(0x40), 1), 0);
	CHECK_EQ(req.ntargets, 1);
	CHECK_EQ(req.targets[0], 0);
	CHECK_EQ(req.out_of_range, 127);

	/* min = nvcpus - 1 with high bits set: only bit 0 names a vCPU. */
	CHECK_EQ(decode(~0ull, ~0ull, 3, ICR_FIXED(0x40), 4), 0);
	CHECK_EQ(req.ntargets, 1);
	CHECK_EQ(req.targets[0], 3);
	CHECK_EQ(req.out_of_range, 127);
	CHECK_EQ(decode(BIT(1) | BIT(40), BIT(5), 63, ICR_FIXED(0x40), 64), 0);
	CHECK_EQ(req.ntargets, 0);
	CHECK_EQ(req.out_of_range, 3);

	/* min = nvcpus and beyond: nothing, not an error (KVM returns 0). */
	CHECK_EQ(decode(1, 1, 4, ICR_FIXED(0x40), 4), 0);
	CHECK_EQ(req.ntargets, 0);
	CHECK_EQ(req.out_of_range, 2);
	CHECK_EQ(decode(~0ull, ~0ull, 1000, ICR_NMI, 64), 0);
	CHECK_EQ(req.ntargets, 0);
	CHECK_EQ(req.out_of_range, 128);

	/* min near the top of the u32 range: KVM's u32 "min += 64" would wrap the high
	 * half to IDs 0x30..; here nothing wraps. */
	CHECK_EQ(decode(~0ull, ~0ull, 0xfffffff0ull, ICR_FIXED(0x40), 64), 0);
	CHECK_EQ(req.ntargets, 0);
	CHECK_EQ(req.out_of_range, 128);
	CHECK_EQ(decode(1, 1, 0xffffffffull, ICR_FIXED(0x40), 64), 0);
	CHECK_EQ(req.ntargets, 0);
	CHECK_EQ(req.out_of_range, 2);

	/* min above 32 bits: KVM truncates it to u32 (0x1_0000_0000 -> 0); here the
	 * IDs are a2 + i exactly, which no vCPU has. */
	CHECK_EQ(decode(1, 0, 0x100000000ull, ICR_FIXED(0x40), 64), 0);
	CHECK_EQ(req.ntargets, 0);
	CHECK_EQ(req.out_of_range, 1);
	CHECK_EQ(decode(~0ull, ~0ull, ~0ull, ICR_FIXED(0x40), 64), 0); /* a2 + i > 2^64 */
	CHECK_EQ(req.ntargets, 0);
	CHECK_EQ(req.out_of_range, 128);
	CHECK_EQ(decode(BIT(63), BIT(63), ~0ull - 64, ICR_NMI, 64), 0);
	CHECK_EQ(req.ntargets, 0);
	CHECK_EQ(req.out_of_range, 2);

	/* No vCPU at all (defensive). */
	CHECK_EQ(decode(1, 0, 0, ICR_FIXED(0x40), 0), 0);
	CHECK_EQ(req.ntargets, 0);
	CHECK_EQ(req.out_of_range, 1);
}

static void test_icr(void)
{
	u32 v, m;

	/* Fixed: every vector goes to the targets (one below 16 is refused by their APICs:
	 * vlapic_accept). */
	for (v = 0; v < 256; v++) {
		CHECK_EQ(decode(1, 0, 0, ICR_FIXED(v), 2), 0);
		CHECK_EQ(req.mode, PV_IPI_FIXED);
		CHECK_EQ(req.vector, v);
		CHECK_EQ(req.ntargets, 1);
	}

	/* NMI: the vector field does not matter and reads back as 0. */
	CHECK_EQ(decode(3, 0, 0, ICR_NMI, 2), 0);
	CHECK_EQ(req.mode, PV_IPI_NMI);
	CHECK_EQ(req.vector, 0);
	CHECK_EQ(req.ntargets, 2);
	CHECK_EQ(decode(1, 0, 0, ICR(APIC_DM_NMI, 2), 2), 0);
	CHECK_EQ(req.mode, PV_IPI_NMI);
	CHECK_EQ(req.vector, 0);
	CHECK_EQ(decode(1, 0, 0, ICR(APIC_DM_NMI, 0xfb), 2), 0);
	CHECK_EQ(req.mode, PV_IPI_NMI);
	CHECK_EQ(req.vector, 0);

	/* Lowest priority: each bit is its own physical destination, taken as fixed. */
	CHECK_EQ(decode(3, 0, 0, ICR(APIC_DM_LOWEST, 0x40), 2), 0);
	CHECK_EQ(req.mode, PV_IPI_FIXED);
	CHECK_EQ(req.vector, 0x40);
	CHECK_EQ(req.ntargets, 2);

	/* Every other delivery mode, whatever the vector: sent to no one, no error. */
	for (m = 0; m < 8; m++) {
		if (m == APIC_DM_FIXED || m == APIC_DM_LOWEST || m == APIC_DM_NMI)
			continue;
		CHECK_EQ(decode(1, 0, 0, ICR(m, 0), 2), 0);
		CHECK_EQ(req.ntargets, 0);
		CHECK_EQ(decode(1, 0, 0, ICR(m, 0x40) | BIT(14), 2), 0);
		CHECK_EQ(req.ntargets, 0);
	}

	/* Logical destination mode and any shorthand: -KVM_EINVAL (as KVM). */
	CHECK_EQ(decode(1, 0, 0, ICR_FIXED(0x40) | BIT(11), 2), -KVM_EINVAL);
	CHECK_EQ(decode(1, 0, 0, ICR_NMI | BIT(11), 2), -KVM_EINVAL);
	CHECK_EQ(decode(1, 0, 0, ICR_FIXED(0x40) | (1ull << 18), 2), -KVM_EINVAL);
	CHECK_EQ(decode(1, 0, 0, ICR_FIXED(0x40) | (2ull << 18), 2), -KVM_EINVAL);
	CHECK_EQ(decode(1, 0, 0, ICR_FIXED(0x40) | (3ull << 18), 2), -KVM_EINVAL);
	CHECK_EQ(decode(0, 0, 0, ICR_NMI | (1ull << 18), 2), -KVM_EINVAL);

	/* Ignored: level and trigger (14, 15), delivery status (12), reserved bits, and
	 * the x2APIC destination field (63:32). */
	CHECK_EQ(decode(1, 0, 0, ICR_FIXED(0x40) | BIT(14) | BIT(15), 2), 0);
	CHECK_EQ(req.mode, PV_IPI_FIXED);
	CHECK_EQ(req.vector, 0x40);
	CHECK_EQ(req.ntargets, 1);
	CHECK_EQ(decode(1, 0, 0, ICR_FIXED(0x40) | BIT(15), 2), 0);
	CHECK_EQ(req.ntargets, 1);
	CHECK_EQ(decode(1, 0, 0,
			ICR_FIXED(0x40) | BIT(12) | BIT(13) | BIT(16) | BIT(17) | 0xfff00000ull |
				(0xffffffffull << 32),
			2),
		 0);
	CHECK_EQ(req.vector, 0x40);
	CHECK_EQ(req.ntargets, 1);
	CHECK_EQ(req.targets[0], 0);
}

static void test_32bit(void)
{
	/* long_mode = true is pv_ipi_decode(). */
	CHECK_EQ(pv_ipi_decode_mode(BIT(63), BIT(0), 0, ICR_FIXED(0x40), true, 128, &req), 0);
	CHECK_EQ(req.ntargets, 2);
	CHECK_EQ(req.targets[0], 63);
	CHECK_EQ(req.targets[1], 64);

	memset(&req, 0xa5, sizeof(req));
	/* Clusters of 32: a1 bit 0 names min + 32; upper halves of the registers are
	 * dropped (KVM truncates every argument outside 64-bit mode). */
	CHECK_EQ(pv_ipi_decode_mode(BIT(0) | BIT(31) | BIT(32), BIT(0) | BIT(40), 0,
				    ICR_FIXED(0x40), false, 64, &req),
		 0);
	CHECK_EQ(req.ntargets, 3);
	CHECK_EQ(req.targets[0], 0);
	CHECK_EQ(req.targets[1], 31);
	CHECK_EQ(req.targets[2], 32);
	CHECK_EQ(req.out_of_range, 0);

	/* a2 truncated to 32 bits: 0x1_0000_0002 is 2. */
	CHECK_EQ(pv_ipi_decode_mode(1, 1, 0x100000002ull, ICR_FIXED(0x40), false, 64, &req), 0);
	CHECK_EQ(req.ntargets, 2);
	CHECK_EQ(req.targets[0], 2);
	CHECK_EQ(req.targets[1], 34);

	/* a3 truncated: a shorthand above bit 31 cannot exist, bits 63:32 vanish. */
	CHECK_EQ(pv_ipi_decode_mode(1, 0, 0, ICR_FIXED(0x40) | (0xffull << 32), false, 2, &req), 0);
	CHECK_EQ(req.vector, 0x40);
	CHECK_EQ(pv_ipi_decode_mode(1, 0, 0, ICR_FIXED(0x40) | BIT(11), false, 2, &req),
		 -KVM_EINVAL);

	/* Past the end, and the top of the 32-bit range. */
	CHECK_EQ(pv_ipi_decode_mode(~0ull, ~0ull, 60, ICR_NMI, false, 64, &req), 0);
	CHECK_EQ(req.mode, PV_IPI_NMI);
	CHECK_EQ(req.ntargets, 4);
	CHECK_EQ(req.targets[3], 63);
	CHECK_EQ(req.out_of_range, 60);
	CHECK_EQ(pv_ipi_decode_mode(~0ull, ~0ull, 0xffffffffull, ICR_NMI, false, 64, &req), 0);
	CHECK_EQ(req.ntargets, 0);
	CHECK_EQ(req.out_of_range, 64);
}

int main(void)
{
	test_basic();
	test_empty();
	test_both_halves();
	test_out_of_range();
	test_icr();
	test_32bit();
	return test_summary();
}
