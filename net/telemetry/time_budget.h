/* SPDX-License-Identifier: GPL-2.0-only */
/* A share of a pCPU for one kind of work (the telemetry's network on pCPU 0): the work may
 * run while its credit is not negative; what it spends is taken off, and credit comes back
 * at `percent` of the time that passes, up to `burst`. Over any long stretch the work then
 * takes at most percent of the pCPU, plus one burst and its longest single run. Time in
 * ticks of the time base. */
#ifndef NET_TELEMETRY_TIME_BUDGET_H
#define NET_TELEMETRY_TIME_BUDGET_H

#include "hv/types.h"

struct time_budget {
	u32 percent;
	u64 burst;  /* ticks */
	u64 last;   /* the time base when credit was last brought up to date */
	s64 credit; /* in hundredths of a tick */
};

/* Whether the work may run now (credit brought up to date first). */
bool time_budget_allows(struct time_budget *b, u64 now);
/* The work ran for ticks. */
void time_budget_spend(struct time_budget *b, u64 ticks);

#endif
