/* SPDX-License-Identifier: GPL-2.0-only */
/* Polled driver for the machine's 16550 console: at an I/O port (COM1 unless hv.cfg's
 * serial or the firmware's SPCR names another) or memory-mapped, with 1-, 2- or 4-byte
 * registers at that stride (as the SPCR's access size says; Linux's earlycon mmio,
 * mmio16, mmio32). The firmware programmed the line it uses itself (115200 8N1 on OVMF);
 * for another rate the divisor latch is set (115200 / baud, 8N1). */
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
static volatile u8 *mmio; /* NULL: the I/O port */
static unsigned reg_bytes = 1;
static u32 baud;

void uart16550_select(u16 p, u32 rate)
{
	port = p;
	mmio = NULL;
	baud = rate;
}

void uart16550_select_mmio(u64 base, unsigned bytes, u32 rate)
{
	mmio = (volatile u8 *)(uintptr_t)base;
	reg_bytes = bytes;
	baud = rate;
}

static u8 rd(unsigned reg)
{
	if (!mmio)
		return inb(port + reg);
	volatile u8 *r = mmio + reg * reg_bytes;
	u32 v = reg_bytes == 4 ? *(volatile u32 *)r : reg_bytes == 2 ? *(volatile u16 *)r : *r;
	return (u8)v;
}

static void wr(unsigned reg, u8 v)
{
	if (!mmio) {
		outb(port + reg, v);
		return;
	}
	volatile u8 *r = mmio + reg * reg_bytes;
	if (reg_bytes == 4)
		*(volatile u32 *)r = v;
	else if (reg_bytes == 2)
		*(volatile u16 *)r = v;
	else
		*r = v;
}

void uart_init(void)
{
	if (baud) {
		u16 div = (u16)(115200 / baud);
		wr(REG_LCR, LCR_DLAB);
		wr(0, (u8)div);
		wr(1, (u8)(div >> 8));
		wr(REG_LCR, LCR_8N1);
		wr(REG_MCR, 0x03); /* DTR, RTS */
	}
	wr(REG_IER, 0x00); /* no interrupts, we poll */
	wr(REG_FCR, 0x07); /* enable and clear FIFOs */
}

void uart_putc(char c)
{
	for (int spins = 0; !(rd(REG_LSR) & LSR_THRE) && spins < 1000000; spins++)
		cpu_relax();
	wr(0, (u8)c);
}

int uart_getc(void) { return (rd(REG_LSR) & LSR_DR) ? rd(0) : -1; }
