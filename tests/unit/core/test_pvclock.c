/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for hv/pvclock.c: mul/shift precision, large deltas, the version
 * protocol of the vCPU time record and of the wall clock, and wallclock_ns(). */
#include <stddef.h>
#include "../../../hv/pvclock.c"
#include "../../../guest_abi/kvm_para.h"
#include "../test.h"

u64 arch_time_hz; /* hv/arch.h: wallclock_ns() scales with it */

#define NSEC 1000000000ull

/* The Linux ABI layout (include/asm-generic/pvclock-abi.h). */
_Static_assert(sizeof(struct pvclock_vcpu_time_info) == 32, "pvclock_vcpu_time_info size");
_Static_assert(offsetof(struct pvclock_vcpu_time_info, tsc_timestamp) == 8, "tsc_timestamp");
_Static_assert(offsetof(struct pvclock_vcpu_time_info, system_time) == 16, "system_time");
_Static_assert(offsetof(struct pvclock_vcpu_time_info, tsc_to_system_mul) == 24, "mul");
_Static_assert(offsetof(struct pvclock_vcpu_time_info, tsc_shift) == 28, "tsc_shift");
_Static_assert(offsetof(struct pvclock_vcpu_time_info, flags) == 29, "flags");
_Static_assert(sizeof(struct pvclock_wall_clock) == 12, "pvclock_wall_clock size");
_Static_assert(offsetof(struct pvclock_wall_clock, sec) == 4, "sec");
_Static_assert(offsetof(struct pvclock_wall_clock, nsec) == 8, "nsec");

/* ticks * 1e9 / hz, exactly (rounded down). */
static u64 exact_ns(u64 ticks, u64 hz) { return (u64)((unsigned __int128)ticks * NSEC / hz); }

/* |got - want| <= want / 1e6 + 1 */
static int within_ppm(u64 got, u64 want)
{
	u64 d = got > want ? got - want : want - got;

	return d <= want / 1000000 + 1;
}

/* What the guest computes (Linux arch/x86/include/asm/pvclock.h). */
static u64 guest_read(const struct pvclock_vcpu_time_info *ti, u64 tsc)
{
	return ti->system_time +
	       pvclock_scale_delta(tsc - ti->tsc_timestamp, ti->tsc_to_system_mul, ti->tsc_shift);
}

static const u64 freqs[] = {
	1000000ull,	/* 1 MHz */
	1000000000ull,	/* 1 GHz */
	2489100000ull,	/* 2.4891 GHz */
	3500000000ull,	/* 3.5 GHz */
	10000000000ull, /* 10 GHz */
	1ull,		/* extremes */
	32768ull,	999999999ull,  1000000001ull,
	2000000000ull,	2000000001ull, 3579545ull, /* the ACPI PM timer */
	1ull << 40,	~0ull,
};

static void test_scale(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(freqs); i++) {
		u64 hz = freqs[i];
		u32 mul = 0;
		s8 shift = 99;
		u64 ns;

		pvclock_scale(hz, &mul, &shift);
		/* Precision: mul uses all 32 bits. */
		CHECK(mul & 0x80000000u);
		CHECK(shift >= -34 && shift <= 30); /* 2^64 Hz .. 1 Hz */
		/* One second of ticks is 1e9 ns within 1 ppm. */
		ns = pvclock_scale_delta(hz, mul, shift);
		if (!within_ppm(ns, NSEC))
			fprintf(stderr,
				"hz %" PRIu64 ": 1 s -> %" PRIu64 " ns (mul %#x shift %d)\n", hz,
				ns, mul, shift);
		CHECK(within_ppm(ns, NSEC));
		/* And ten seconds, and about a millisecond (where hz allows). */
		if (hz <= ~0ull / 10)
			CHECK(within_ppm(pvclock_scale_delta(10 * hz, mul, shift), 10 * NSEC));
		if (hz >= 1000000)
			CHECK(within_ppm(pvclock_scale_delta(hz / 1000, mul, shift),
					 exact_ns(hz / 1000, hz)));
		CHECK_EQ(pvclock_scale_delta(0, mul, shift), 0);
	}

	/* Exact values where the arithmetic is exact. */
	u32 mul;
	s8 shift;
	pvclock_scale(1000000000ull, &mul, &shift); /* 1 GHz: 1 tick = 1 ns */
	CHECK_EQ(mul, 0x80000000u);
	CHECK_EQ(shift, 1);
	CHECK_EQ(pvclock_scale_delta(12345, mul, shift), 12345);
	pvclock_scale(2000000000ull, &mul, &shift); /* 2 GHz: 2 ticks = 1 ns */
	CHECK_EQ(mul, 0x80000000u);
	CHECK_EQ(shift, 0);
	CHECK_EQ(pvclock_scale_delta(12345, mul, shift), 6172);
	pvclock_scale(1000000ull, &mul, &shift); /* 1 MHz: 1 tick = 1000 ns */
	CHECK_EQ(shift, 10);
	CHECK(within_ppm(pvclock_scale_delta(1, mul, shift), 1000));
	CHECK(pvclock_scale_delta(1, mul, shift) <= 1000);

	/* Monotonic in the delta. */
	pvclock_scale(2489100000ull, &mul, &shift);
	u64 prev = 0, d;
	for (d = 0; d < 100000; d++) {
		u64 ns = pvclock_scale_delta(d, mul, shift);

		if (ns < prev)
			break;
		prev = ns;
	}
	CHECK_EQ(d, 100000);
}

static void test_large_deltas(void)
{
	static const u64 seconds[] = { 3600, 24 * 3600, 1000 * 3600, 10ull * 365 * 24 * 3600 };
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(freqs); i++) {
		u64 hz = freqs[i];
		u32 mul;
		s8 shift;

		if (hz < 1000000 || hz > 10000000000ull)
			continue;
		pvclock_scale(hz, &mul, &shift);
		for (j = 0; j < ARRAY_SIZE(seconds); j++) {
			u64 ticks = hz * seconds[j]; /* at most 10 GHz * 10 years < 2^62 */
			u64 want = exact_ns(ticks, hz);
			u64 got = pvclock_scale_delta(ticks, mul, shift);

			CHECK_EQ(want, seconds[j] * NSEC);
			if (!within_ppm(got, want))
				fprintf(stderr, "hz %" PRIu64 " %" PRIu64 " s: %" PRIu64 " ns\n",
					hz, seconds[j], got);
			CHECK(within_ppm(got, want));
		}
	}

	/* The largest deltas: 2^63 ticks at 3.5 GHz (83 years) still scale right. */
	u32 mul;
	s8 shift;
	pvclock_scale(3500000000ull, &mul, &shift);
	CHECK_EQ(shift, -1);
	CHECK(within_ppm(pvclock_scale_delta(1ull << 63, mul, shift),
			 exact_ns(1ull << 63, 3500000000ull)));
	CHECK(within_ppm(pvclock_scale_delta(~0ull, mul, shift), exact_ns(~0ull, 3500000000ull)));
}

static void test_publish(void)
{
	struct pvclock_vcpu_time_info ti;
	u32 mul;
	s8 shift;

	memset(&ti, 0xee, sizeof(ti));
	ti.version = 0;
	pvclock_scale(2489100000ull, &mul, &shift);
	pvclock_publish(&ti, 123456789ull, 5000ull, mul, shift, PVCLOCK_TSC_STABLE_BIT);
	CHECK_EQ(ti.version, 2);
	CHECK_EQ(ti.tsc_timestamp, 123456789ull);
	CHECK_EQ(ti.system_time, 5000);
	CHECK_EQ(ti.tsc_to_system_mul, mul);
	CHECK_EQ(ti.tsc_shift, shift);
	CHECK_EQ(ti.flags, PVCLOCK_TSC_STABLE_BIT);
	/* Padding the guest may have scribbled on is left alone. */
	CHECK_EQ(ti.pad0, 0xeeeeeeeeu);
	CHECK_EQ(ti.pad[0], 0xee);
	CHECK_EQ(ti.pad[1], 0xee);

	/* What the guest reads: system_time + scaled delta since tsc_timestamp. */
	CHECK_EQ(guest_read(&ti, 123456789ull), 5000);
	CHECK(within_ppm(guest_read(&ti, 123456789ull + 2489100000ull), 5000 + NSEC));

	/* Each publish adds 2, and the version stays even. */
	pvclock_publish(&ti, 1, 2, 3, -4, 0);
	CHECK_EQ(ti.version, 4);
	CHECK_EQ(ti.tsc_timestamp, 1);
	CHECK_EQ(ti.system_time, 2);
	CHECK_EQ(ti.tsc_to_system_mul, 3);
	CHECK_EQ(ti.tsc_shift, -4);
	CHECK_EQ(ti.flags, 0);

	/* An odd version left by a torn update (or the guest) ends even. */
	ti.version = 7;
	pvclock_publish(&ti, 1, 2, 3, 4, 0);
	CHECK_EQ(ti.version, 8);
	/* Wrap-around. */
	ti.version = 0xfffffffeu;
	pvclock_publish(&ti, 1, 2, 3, 4, 0);
	CHECK_EQ(ti.version, 0);
	ti.version = 0xffffffffu;
	pvclock_publish(&ti, 1, 2, 3, 4, 0);
	CHECK_EQ(ti.version, 0);
}

static void test_wall(void)
{
	struct pvclock_wall_clock wc;

	memset(&wc, 0xee, sizeof(wc));
	wc.version = 0;
	pvclock_publish_wall(&wc, 1700000000ull * NSEC + 123456789ull);
	CHECK_EQ(wc.version, 2);
	CHECK_EQ(wc.sec, 1700000000u);
	CHECK_EQ(wc.nsec, 123456789u);
	pvclock_publish_wall(&wc, 0);
	CHECK_EQ(wc.version, 4);
	CHECK_EQ(wc.sec, 0);
	CHECK_EQ(wc.nsec, 0);
	pvclock_publish_wall(&wc, 999999999ull);
	CHECK_EQ(wc.version, 6);
	CHECK_EQ(wc.sec, 0);
	CHECK_EQ(wc.nsec, 999999999u);
	/* The last second a u32 holds (2106-02-07). */
	pvclock_publish_wall(&wc, 0xffffffffull * NSEC + 1);
	CHECK_EQ(wc.sec, 0xffffffffu);
	CHECK_EQ(wc.nsec, 1);
	wc.version = 3;
	pvclock_publish_wall(&wc, NSEC);
	CHECK_EQ(wc.version, 4);
	CHECK_EQ(wc.sec, 1);
	CHECK_EQ(wc.nsec, 0);
}

static void test_wallclock(void)
{
	const u64 t0 = 1700000000ull * NSEC, base = 5000000000ull;
	size_t i;

	for (i = 0; i < 5; i++) { /* the five named frequencies */
		arch_time_hz = freqs[i];
		wallclock_set(t0, base);
		CHECK_EQ(wallclock_ns(base), t0);
		CHECK(within_ppm(wallclock_ns(base + arch_time_hz) - t0, NSEC));
		CHECK(within_ppm(wallclock_ns(base + 3600 * arch_time_hz) - t0, 3600 * NSEC));
	}
	/* What kvmclock gives the guest: the wall time at which its clock read 0
	 * (the VM's boot), so wall time = that + kvmclock. */
	arch_time_hz = 2489100000ull;
	wallclock_set(t0, base);
	u64 vm_boot = base + 10 * arch_time_hz;
	struct pvclock_wall_clock wc = { 0, 0, 0 };
	pvclock_publish_wall(&wc, wallclock_ns(vm_boot));
	CHECK(within_ppm(((u64)wc.sec * NSEC + wc.nsec) - t0, 10 * NSEC));
}

int main(void)
{
	test_scale();
	test_large_deltas();
	test_publish();
	test_wall();
	test_wallclock();
	return test_summary();
}
