/* SPDX-License-Identifier: GPL-2.0-only */
/* The DEN0057A stolen-time record (see pvtime.h). */
#include "arch/arm64/pvtime.h"
#include "hv/lib.h"

_Static_assert(sizeof(struct pvtime_record) == PVTIME_RECORD_SIZE, "DEN0057A: 64 bytes");
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "DEN0057A: the record is little-endian");

void pvtime_init_record(void *rec) { memset(rec, 0, PVTIME_RECORD_SIZE); }

void pvtime_publish(void *rec, u64 stolen_ns)
{
	struct pvtime_record *r = rec;

	/* An aligned 64-bit store is single-copy atomic (DDI 0487 B2.2.1); the guest reads
	 * only this field, so no ordering is needed. */
	__atomic_store_n(&r->stolen_time, stolen_ns, __ATOMIC_RELAXED);
}
