/* SPDX-License-Identifier: GPL-2.0-only */
/* See time_budget.h. Credit is kept in hundredths of a tick, so that calls however close
 * together lose nothing to rounding; it never exceeds burst, and a single run may take it
 * far below 0: the work then waits until the time that passes has paid it back. */
#include "net/telemetry/time_budget.h"

bool time_budget_allows(struct time_budget *b, u64 now)
{
	u64 full = b->burst * 100, elapsed = now - b->last;
	u64 room = (u64)((s64)full - b->credit);
	b->last = now;
	/* elapsed * percent without overflow: past `room / percent` it fills up anyway. */
	if (!b->percent || elapsed < room / b->percent + 1)
		b->credit += (s64)(elapsed * b->percent);
	else
		b->credit = (s64)full;
	if (b->credit > (s64)full)
		b->credit = (s64)full;
	return b->credit >= 0;
}

void time_budget_spend(struct time_budget *b, u64 ticks) { b->credit -= (s64)(ticks * 100); }
