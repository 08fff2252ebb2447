/* SPDX-License-Identifier: GPL-2.0-only */
/* The EL1 physical timer's register model (arch/arm64/ptimer.c): CTL with ISTATUS, CVAL,
 * the signed 32-bit TVAL view, the interrupt line and the deadline. */
#include "../../../arch/arm64/ptimer.c"
#include "../test.h"

#define CTL ESR_SYSREG(3, 3, 14, 2, 1)
#define CVAL ESR_SYSREG(3, 3, 14, 2, 2)
#define TVAL ESR_SYSREG(3, 3, 14, 2, 0)

static u64 rd(struct ptimer *t, u32 reg, u64 now)
{
	u64 v = 0;
	CHECK(ptimer_access(t, reg, true, &v, now));
	return v;
}

static void wr(struct ptimer *t, u32 reg, u64 v, u64 now)
{
	CHECK(ptimer_access(t, reg, false, &v, now));
}

int main(void)
{
	struct ptimer t = { 0 };
	u64 v = 0;

	/* Off at reset: no line, no deadline, ISTATUS clear. */
	CHECK_EQ(rd(&t, CTL, 1000), 0);
	CHECK(!ptimer_line(&t, 1000));
	CHECK_EQ(ptimer_deadline(&t, 1000), 0);
	/* TVAL = 500 at 1000: fires at 1500. */
	wr(&t, TVAL, 500, 1000);
	CHECK_EQ(rd(&t, CVAL, 1000), 1500);
	wr(&t, CTL, 1, 1000);
	CHECK_EQ(ptimer_deadline(&t, 1000), 1500);
	CHECK_EQ(rd(&t, TVAL, 1200), 300);
	CHECK(!ptimer_line(&t, 1499));
	CHECK_EQ(rd(&t, CTL, 1499), 1);
	CHECK(ptimer_line(&t, 1500));
	CHECK_EQ(rd(&t, CTL, 1500), 5);		/* ENABLE, ISTATUS */
	CHECK_EQ(ptimer_deadline(&t, 1500), 0); /* due: the line is up already */
	/* Past the deadline TVAL counts down through zero, as a signed 32-bit value. */
	CHECK_EQ(rd(&t, TVAL, 1600), (u64)-100);
	/* IMASK: ISTATUS still reads, the line drops, nothing to wake up for. */
	wr(&t, CTL, 3, 1600);
	CHECK_EQ(rd(&t, CTL, 1600), 7);
	CHECK(!ptimer_line(&t, 1600));
	CHECK_EQ(ptimer_deadline(&t, 1000), 0);
	/* A negative TVAL write: due at once. Only ENABLE and IMASK are writable. */
	wr(&t, CTL, ~0ull, 2000);
	CHECK_EQ(t.ctl, 3);
	wr(&t, CTL, 1, 2000);
	wr(&t, TVAL, 0xFFFFFFFF, 2000); /* -1 */
	CHECK_EQ(rd(&t, CVAL, 2000), 1999);
	CHECK(ptimer_line(&t, 2000));
	/* Disabled: no line, no ISTATUS. */
	wr(&t, CTL, 0, 2000);
	CHECK(!ptimer_line(&t, 2000));
	CHECK_EQ(rd(&t, CTL, 2000), 0);
	/* Other registers are not its. */
	CHECK(!ptimer_access(&t, ESR_SYSREG(3, 3, 14, 3, 1), true, &v, 0));
	return test_summary();
}
