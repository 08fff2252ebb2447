/* SPDX-License-Identifier: GPL-2.0-only */
/* See time_budget.h. Credit never exceeds burst; a single run may take it far below 0,
 * and the work then waits until the time that passes has paid it back. */
#include "net/telemetry/time_budget.h"

bool time_budget_allows(struct time_budget *b, u64 now)
{
	u64 back = (now - b->last) / 100 * b->percent;
	u64 room = (u64)((s64)b->burst - b->credit);
	b->last = now;
	b->credit = back >= room ? (s64)b->burst : b->credit + (s64)back;
	return b->credit >= 0;
}

void time_budget_spend(struct time_budget *b, u64 ticks) { b->credit -= (s64)ticks; }
