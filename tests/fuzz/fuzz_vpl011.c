/* SPDX-License-Identifier: GPL-2.0-only */
/* The virtual PL011 (hv/dev/vpl011.c) through its MMIO callbacks, with host input
 * (uart_fuzz.h gives the input's shape; offsets in the 4 KiB frame). Checked: the
 * receive FIFO holds no more than its depth (32 bytes with FEN, else 1), the interrupt
 * line reported to the sink is the model's and is RIS & IMSC != 0, and a DR write
 * transmits exactly when loopback is off. */
#include "../../hv/dev/vpl011.c"
#include "uart_fuzz.h"

static bool transmits(const void *p, u64 off)
{
	const struct vpl011 *u = p;
	return off == VPL011_DR && !(u->cr & VPL011_CR_LBE);
}

static void check(const void *p, const struct sink *s)
{
	const struct vpl011 *u = p;
	FUZZ_CHECK(u->rx_count <= rx_depth(u) && u->rx_head < VPL011_FIFO_SIZE);
	FUZZ_CHECK(s->level == u->line);
	FUZZ_CHECK(u->line == ((u->ris & u->imsc) != 0));
}

UART_FUZZ_HARNESS(vpl011, 4096)
