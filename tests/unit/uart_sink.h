/* SPDX-License-Identifier: GPL-2.0-only */
/* What a UART model's callbacks deliver, recorded for its unit test (test_vuart.c,
 * test_vpl011.c): transmitted bytes, interrupt line changes, bad accesses. */
#ifndef TESTS_UNIT_UART_SINK_H
#define TESTS_UNIT_UART_SINK_H

#include "hv/types.h"

struct sink {
	u8 tx[256];
	unsigned ntx;
	bool level;
	unsigned nirq; /* number of irq callbacks */
	unsigned nbad; /* bad-access callbacks (PL011) */
	u32 bad_offset;
	bool bad_write; /* of the last one */
};

static void sink_tx(void *ctx, u8 byte)
{
	struct sink *s = ctx;
	if (s->ntx < sizeof(s->tx))
		s->tx[s->ntx] = byte;
	s->ntx++;
}

static void sink_irq(void *ctx, bool level)
{
	struct sink *s = ctx;
	s->level = level;
	s->nirq++;
}

static inline void sink_bad(void *ctx, u32 offset, bool write)
{
	struct sink *s = ctx;
	s->nbad++;
	s->bad_offset = offset;
	s->bad_write = write;
}

#endif
