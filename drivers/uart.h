/* SPDX-License-Identifier: GPL-2.0-only */
/* The machine's own serial console, polled. Each architecture links one driver:
 * x86 the 16550 at COM1 (uart16550.c), arm64 the PL011 (pl011.c). */
#ifndef DRIVERS_UART_H
#define DRIVERS_UART_H

#include "hv/types.h"

void uart_init(void);
void uart_putc(char c);
int uart_getc(void); /* -1 when no byte is waiting */

#endif
