/* SPDX-License-Identifier: GPL-2.0-only */
/* What a UART model's callbacks deliver, recorded for its unit test (test_vuart.c,
 * test_vpl011.c): transmitted bytes and interrupt line changes. */
#ifndef TESTS_UNIT_UART_SINK_H
#define TESTS_UNIT_UART_SINK_H

#include "hv/types.h"

struct sink {
	u8 tx[256];
	unsigned ntx;
	bool level;
	unsigned nirq; /* number of irq callbacks */
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

#endif
