/* SPDX-License-Identifier: GPL-2.0-only */
/* The virtual 16550A (hv/dev/vuart.c) through its I/O port callbacks, with host input
 * (uart_fuzz.h gives the input's shape; offsets 0..7 as the port range gives them).
 * Checked: the receive FIFO stays within its 64 bytes, the interrupt line reported to
 * the sink is the model's and follows the 16550's rule (an enabled interrupt pending,
 * OUT2 set, not in loopback), and a THR write transmits exactly when DLAB and loopback
 * are off. */
#include "../../hv/dev/vuart.c"
#include "uart_fuzz.h"

static bool transmits(const void *p, u64 off)
{
	const struct vuart *u = p;
	return off == VUART_RBR && !(u->lcr & VUART_LCR_DLAB) && !(u->mcr & VUART_MCR_LOOP);
}

static void check(const void *p, const struct sink *s)
{
	const struct vuart *u = p;
	FUZZ_CHECK(u->rx_count <= VUART_FIFO_SIZE && u->rx_head < VUART_FIFO_SIZE);
	FUZZ_CHECK(s->level == u->line);
	FUZZ_CHECK(u->line == (vuart_pending(u) != VUART_IIR_NO_INT && (u->mcr & VUART_MCR_OUT2) &&
			       !(u->mcr & VUART_MCR_LOOP)));
}

UART_FUZZ_HARNESS(vuart, 8)
