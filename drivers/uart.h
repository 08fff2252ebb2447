/* SPDX-License-Identifier: GPL-2.0-only */
/* The machine's own serial console, polled. Each architecture links one driver:
 * x86 a 16550 at an I/O port or memory-mapped (uart16550.c), arm64 the PL011 (pl011.c). */
#ifndef DRIVERS_UART_H
#define DRIVERS_UART_H

#include "hv/types.h"

/* x86 (uart16550.c): the 16550 at this I/O port, at this rate (0: as the firmware set it),
 * before uart_init; COM1 by default. */
void uart16550_select(u16 port, u32 baud);
/* ... or at this physical address, with registers of reg_bytes (1, 2 or 4) at that stride. */
void uart16550_select_mmio(u64 base, unsigned reg_bytes, u32 baud);
void uart_init(void);
void uart_putc(char c);
int uart_getc(void); /* -1 when no byte is waiting */

#endif
