/* SPDX-License-Identifier: GPL-2.0-only */
/* What the TSC and the local APIC timer are measured against at boot (x86_calibrate),
 * best first:
 *  - CPUID leaf 15h: the TSC's frequency itself, crystal clock (ECX) times the TSC/crystal
 *    ratio (EBX/EAX), on Intel CPUs that give all three (SDM vol. 2, CPUID; vol. 3 18.7.3);
 *    the APIC timer is still measured, against the TSC;
 *  - the ACPI PM timer, 3.579545 MHz, at the port the FADT gives (ACPI 6.4 4.8.3.3), 24 or
 *    32 bits (FADT flag TMR_VAL_EXT): every PC has one, and it does not depend on the
 *    firmware's own timer;
 *  - UEFI's Stall(), when the tables give no PM timer. */
#include "arch/x86/pcpu.h"
#include "arch/cpu.h"
#include "drivers/acpi.h"
#include "hv/lib.h"

#define PM_TIMER_HZ 3579545ull

static struct acpi_reg pm_timer;
static u32 pm_timer_mask;
static void (*firmware_stall_us)(u64 us);

static u32 pm_timer_read(void)
{
	u32 v = pm_timer.space == ACPI_SPACE_IO ? inl((u16)pm_timer.addr)
						: *(volatile u32 *)(uintptr_t)pm_timer.addr;
	return v & pm_timer_mask;
}

/* Polls the PM timer for us microseconds, counting its wraparounds. */
static void pm_timer_wait_us(u64 us)
{
	u64 want = us * PM_TIMER_HZ / 1000000, got = 0;
	u32 last = pm_timer_read();
	while (got < want) {
		u32 now = pm_timer_read();
		got += (now - last) & pm_timer_mask;
		last = now;
	}
}

static void stall_us(u64 us) { firmware_stall_us(us); }

/* A PM timer that the tables name but that does not count (a port reading all-ones) would
 * make the wait endless: it must change within a million reads (about 0.3 us each). */
static bool pm_timer_counts(void)
{
	u32 first = pm_timer_read();
	for (u32 i = 0; i < 1000000; i++)
		if (pm_timer_read() != first)
			return true;
	return false;
}

/* The TSC frequency from CPUID leaf 15h, or 0 when the CPU does not give it whole. */
static u64 cpuid_tsc_hz(void)
{
	u32 max, a, b, c, d;
	cpuid(0, 0, &max, &b, &c, &d);
	if (max < 0x15)
		return 0;
	cpuid(0x15, 0, &a, &b, &c, &d);
	return a && b && c ? (u64)c * b / a : 0;
}

struct timebase x86_timebase(const void *rsdp, void (*firmware_stall)(u64 us))
{
	firmware_stall_us = firmware_stall;
	bool ext32 = false;
	const char *why = "";
	bool pm = !acpi_pm_timer(rsdp, &pm_timer, &ext32, &why) &&
		  (pm_timer.space == ACPI_SPACE_IO || pm_timer.space == ACPI_SPACE_MEMORY);
	pm_timer_mask = ext32 ? ~0u : 0xFFFFFFu;
	pm = pm && pm_timer_counts();
	u64 tsc_hz = cpuid_tsc_hz();
	void (*wait)(u64) = pm ? pm_timer_wait_us : stall_us;
	if (tsc_hz)
		return (struct timebase){ "CPUID 15h", tsc_hz, wait };
	return (struct timebase){ pm ? "ACPI PM timer" : "UEFI Stall", 0, wait };
}
