/* SPDX-License-Identifier: GPL-2.0-only */
/* drivers/uart16550.c on a memory-mapped 16550 (a made-up register window in memory):
 * registers at the stride of their size (1, 2 and 4 bytes), the divisor latch for a
 * rate, a byte out once the transmitter is empty, a byte in only when one is there. */
#include "../../../drivers/uart16550.c"
#include "../test.h"

/* Registers 0 (THR/RBR, DLL), 1 (IER, DLM), 2 (FCR), 3 (LCR), 4 (MCR), 5 (LSR). */
static void check_window(unsigned bytes)
{
	u32 window[8] = { 0 }; /* 8 registers of up to 4 bytes: 32 bytes */
	u8 *base = (u8 *)window;
#define REG(n) (bytes == 4 ? ((u32 *)base)[n] : bytes == 2 ? ((u16 *)base)[n] : base[n])
	uart16550_select_mmio((u64)(uintptr_t)base, bytes, 57600);
	uart_init();
	CHECK_EQ(REG(3), 0x03);	   /* 8N1, DLAB off again */
	CHECK_EQ(REG(0), 2);	   /* DLL: 115200 / 57600 */
	CHECK_EQ(REG(1), 0);	   /* IER (written after DLM): no interrupts */
	CHECK_EQ(REG(2), 0x07);	   /* FIFOs on and cleared */
	CHECK_EQ(REG(4), 0x03);	   /* DTR, RTS */
	CHECK_EQ(uart_getc(), -1); /* LSR.DR clear */
	if (bytes == 4)
		((u32 *)base)[5] = 0x21, ((u32 *)base)[0] = 'z';
	else if (bytes == 2)
		((u16 *)base)[5] = 0x21, ((u16 *)base)[0] = 'z';
	else
		base[5] = 0x21, base[0] = 'z';
	CHECK_EQ(uart_getc(), 'z');
	uart_putc('A'); /* LSR.THRE set: at once */
	CHECK_EQ(REG(0), 'A');
	for (unsigned i = 6 * bytes; i < sizeof window; i++)
		CHECK_EQ(base[i], 0); /* nothing past the LSR */
#undef REG
}

int main(void)
{
	check_window(1);
	check_window(2);
	check_window(4);
	return test_summary();
}
