/* SPDX-License-Identifier: GPL-2.0-only */
/* A bare-metal arm64 guest that uses the EL1 physical timer (CNTP_*, PPI 30) as test
 * kernels other than Linux do, waiting for its interrupt in WFI:
 *   oneshot   CNTP_TVAL = 2 ms, enable: the interrupt comes, not before 2 ms, and CTL
 *             reads ISTATUS; IMASK stops it;
 *   periodic  N times TVAL = 200 us and WFI: every one taken, none early;
 *   off       an armed timer disabled before its time: no interrupt.
 * Prints over the PL011 "TIMERS <phase> ok ..." or "... FAIL ...", then "TIMERS DONE",
 * and powers off. The kernel command line may set timers.n=N (periodic rounds). */
#include "lib.h"

#define INTID_PTIMER 30
#define CNTP_CTL_ENABLE 1ul
#define CNTP_CTL_IMASK 2ul
#define CNTP_CTL_ISTATUS 4ul

static volatile u64 fired, fired_at, other;
static int failed;
#define check(phase, ok, what, v) (failed |= !report_phase("TIMERS", phase, ok, what, v))

void irq_handler(void)
{
	u32 iar, id;

	while ((id = gic_ack(&iar)) < 1020) {
		if (id == INTID_PTIMER) {
			fired_at = ticks();
			fired = fired + 1;
			WSR(cntp_ctl_el0,
			    CNTP_CTL_ENABLE | CNTP_CTL_IMASK); /* quiet until re-armed */
		} else {
			other = other + 1;
		}
		gic_eoi(iar);
	}
}

u64 sync_exception(u64 esr, u64 elr, u64 far) { fail_exception("TIMERS", esr, elr, far); }

static u64 us_to_ticks(u64 us) { return RSR(cntfrq_el0) / 1000000 * us; }

/* Arms the timer `us` from now and waits in WFI for its interrupt, at most a second. */
static u64 arm_and_wait(u64 us)
{
	u64 before = fired, t0 = ticks(), end = t0 + RSR(cntfrq_el0);

	WSR(cntp_tval_el0, us_to_ticks(us));
	WSR(cntp_ctl_el0, CNTP_CTL_ENABLE);
	asm volatile("isb");
	while (fired == before && (long)(ticks() - end) < 0)
		asm volatile("wfi");
	return fired == before ? 0 : fired_at - t0;
}

void __attribute__((noreturn)) guest_main(const u8 *fdt)
{
	const char *cmdline = fdt_scan(fdt);
	u64 n = arg(cmdline, "timers.n=", 200), t, early = 0, missed = 0, ctl;

	if (!uart)
		power_off(); /* nowhere to say why */
	puts_("TIMERS start\n");
	if (!gic) {
		puts_("TIMERS FAIL no GIC in the device tree\n");
		power_off();
	}
	gic_dist_init();
	gic_cpu_init(0, 1u << INTID_PTIMER);
	asm volatile("msr daifclr, #2; isb" : : : "memory");

	t = arm_and_wait(2000);
	ctl = RSR(cntp_ctl_el0);
	check("oneshot", t >= us_to_ticks(2000) && (ctl & CNTP_CTL_ISTATUS),
	      "after_us=", t / us_to_ticks(1));
	check("imask", (ctl & CNTP_CTL_IMASK) && fired == 1, "fired=", fired);

	for (u64 i = 0; i < n; i++) {
		t = arm_and_wait(200);
		missed += !t;
		early += t && t < us_to_ticks(200);
	}
	check("periodic", !missed && !early && fired == n + 1, "taken=", fired - 1);

	WSR(cntp_tval_el0, us_to_ticks(1000));
	WSR(cntp_ctl_el0, CNTP_CTL_ENABLE);
	WSR(cntp_ctl_el0, 0);
	t = ticks();
	while (ticks() - t < us_to_ticks(3000))
		;
	check("off", fired == n + 1 && !(RSR(cntp_ctl_el0) & CNTP_CTL_ISTATUS),
	      "fired=", fired - n - 1);
	if (other)
		check("other-interrupts", 0, "n=", other);
	puts_(failed ? "TIMERS FAILED\n" : "TIMERS DONE\n");
	power_off();
}
