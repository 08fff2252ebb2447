/* SPDX-License-Identifier: GPL-2.0-only */
/* A share of a pCPU (net/telemetry/time_budget.c): a client that makes every poll cost
 * 5 ms gets no more than its 10% (plus a burst) over a long stretch, whatever the pattern;
 * light work is never held back; credit never piles up past the burst; calls a few ticks
 * apart lose nothing to rounding. */
#include "../../../net/telemetry/time_budget.c"
#include "../test.h"

#define MS 1000000ull /* ticks: ns */

int main(void)
{
	/* Polls every 2 ms, each costing 5 ms when allowed (a flood): over 10 s, at most
	 * 10% of the time, plus the burst and one poll. */
	struct time_budget b = { .percent = 10, .burst = 20 * MS };
	u64 now = 1000 * MS, spent = 0, t;
	for (t = 0; t < 10000 * MS;) {
		if (time_budget_allows(&b, now + t)) {
			time_budget_spend(&b, 5 * MS);
			spent += 5 * MS;
			t += 5 * MS;
		}
		t += 2 * MS;
	}
	CHECK(spent <= t / 10 + 20 * MS + 5 * MS);
	CHECK(spent >= t / 10 - 10 * MS); /* and it gets its share */

	/* Light work (0.1 ms per 2 ms poll: 5%) runs at every poll. */
	struct time_budget l = { .percent = 10, .burst = 20 * MS };
	bool always = true;
	for (t = 0; t < 1000 * MS; t += 2 * MS) {
		always &= time_budget_allows(&l, now + t);
		time_budget_spend(&l, MS / 10);
	}
	CHECK(always);

	/* A long quiet stretch leaves no more than the burst: one 100 ms run, then a wait
	 * of (100 - 20) ms / 10% = 800 ms before the next. */
	struct time_budget q = { .percent = 10, .burst = 20 * MS };
	CHECK(time_budget_allows(&q, now));
	CHECK(time_budget_allows(&q, now + 3600000 * MS));
	CHECK_EQ(q.credit, (s64)(20 * MS * 100));
	time_budget_spend(&q, 100 * MS);
	CHECK(!time_budget_allows(&q, now + 3600000 * MS + 799 * MS));
	CHECK(time_budget_allows(&q, now + 3600000 * MS + 801 * MS));

	/* Calls a few ticks apart (a 24 MHz counter, pCPU 0 back from each short turn):
	 * the credit still comes back at 10% of the time, nothing lost to rounding. */
	struct time_budget c = { .percent = 10, .burst = 480000 };
	CHECK(time_budget_allows(&c, 0)); /* no credit yet, none owed */
	time_budget_spend(&c, 400000);	  /* 4,000,000 ticks to repay at 10% */
	u64 at = 0;
	while (!time_budget_allows(&c, at += 60) && at < 100000000)
		;
	CHECK(at >= 4000000 && at <= 4000060);
	return test_summary();
}
