/* SPDX-License-Identifier: GPL-2.0-only */
/* Polled driver for the machine's PL011 (PL011 TRM, ARM DDI 0183). The firmware
 * already programmed baud rate and line format and enabled the UART; we only mask
 * its interrupts. Uses only DR, FR and IMSC with 32-bit accesses, so an SBSA
 * generic UART works too. */
#include "drivers/uart.h"
#include "drivers/pl011.h"

#define DR 0x000
#define FR 0x018
#define IMSC 0x038
#define FR_RXFE (1u << 4)
#define FR_TXFF (1u << 5)

static u64 pl011_base = PL011_DEFAULT_BASE;

static u32 rd(u32 off) { return *(volatile u32 *)(uintptr_t)(pl011_base + off); }

static void wr(u32 off, u32 val) { *(volatile u32 *)(uintptr_t)(pl011_base + off) = val; }

void pl011_set_base(u64 phys) { pl011_base = phys; }

void uart_init(void) { wr(IMSC, 0); /* no interrupts, we poll */ }

void uart_putc(char c)
{
	/* Bounded: a wedged UART costs some output, not the machine. */
	for (int spins = 0; (rd(FR) & FR_TXFF) && spins < 1000000; spins++)
		;
	wr(DR, (u8)c);
}

int uart_getc(void) { return (rd(FR) & FR_RXFE) ? -1 : (int)(rd(DR) & 0xFF); }
