/* SPDX-License-Identifier: GPL-2.0-only */
/* Polled driver for the machine's COM1. The firmware already programmed the line
 * (115200 8N1 on OVMF); we only make sure FIFOs are on and interrupts are off. */
#include "drivers/uart.h"
#include "arch/cpu.h"

#define COM1 0x3F8
#define LSR_DR 0x01
#define LSR_THRE 0x20

void uart_init(void)
{
	outb(COM1 + 1, 0x00); /* IER: no interrupts, we poll */
	outb(COM1 + 2, 0x07); /* FCR: enable and clear FIFOs */
}

void uart_putc(char c)
{
	for (int spins = 0; !(inb(COM1 + 5) & LSR_THRE) && spins < 1000000; spins++)
		cpu_relax();
	outb(COM1, (u8)c);
}

int uart_getc(void) { return (inb(COM1 + 5) & LSR_DR) ? inb(COM1) : -1; }
