/* SPDX-License-Identifier: GPL-2.0-only */
/* Polled driver for the machine's 16550 console (COM1 unless hv.cfg's serial or the
 * firmware's SPCR names another port). The firmware programmed the line it uses itself
 * (115200 8N1 on OVMF); for another rate the divisor latch is set (115200 / baud, 8N1). */
#include "drivers/uart.h"
#include "arch/cpu.h"

#define REG_IER 1
#define REG_FCR 2
#define REG_LCR 3
#define REG_MCR 4
#define REG_LSR 5
#define LCR_8N1 0x03
#define LCR_DLAB 0x80
#define LSR_DR 0x01
#define LSR_THRE 0x20

static u16 port = 0x3F8;
static u32 baud;

void uart16550_select(u16 p, u32 rate)
{
	port = p;
	baud = rate;
}

void uart_init(void)
{
	if (baud) {
		u16 div = (u16)(115200 / baud);
		outb(port + REG_LCR, LCR_DLAB);
		outb(port + 0, (u8)div);
		outb(port + 1, (u8)(div >> 8));
		outb(port + REG_LCR, LCR_8N1);
		outb(port + REG_MCR, 0x03); /* DTR, RTS */
	}
	outb(port + REG_IER, 0x00); /* no interrupts, we poll */
	outb(port + REG_FCR, 0x07); /* enable and clear FIFOs */
}

void uart_putc(char c)
{
	for (int spins = 0; !(inb(port + REG_LSR) & LSR_THRE) && spins < 1000000; spins++)
		cpu_relax();
	outb(port, (u8)c);
}

int uart_getc(void) { return (inb(port + REG_LSR) & LSR_DR) ? inb(port) : -1; }
