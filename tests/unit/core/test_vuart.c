/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for the virtual 16550A (hv/dev/vuart.c), including the register
 * sequences Linux 6.1's 8250 driver issues in autoconfig() and startup. */
#include "../../../hv/dev/vuart.c"
#include "../test.h"
#include "../uart_sink.h"

static const struct vuart_ops sink_ops = { .tx = sink_tx, .irq = sink_irq };

static void setup(struct vuart *u, struct sink *s)
{
	memset(s, 0, sizeof(*s));
	vuart_init(u, &sink_ops, s);
}

/* drivers/tty/serial/8250/8250_port.c: autoconfig() + autoconfig_16550a(). */
static void test_linux_probe(void)
{
	struct vuart u;
	struct sink s;
	u8 scratch, scratch2, scratch3, save_mcr, save_lcr, st1, st2;

	setup(&u, &s);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0x01);
	CHECK_EQ(vuart_read(&u, VUART_LSR), 0x60);

	/* IER existence test */
	scratch = vuart_read(&u, VUART_IER);
	vuart_write(&u, VUART_IER, 0);
	scratch2 = vuart_read(&u, VUART_IER) & 0x0F;
	vuart_write(&u, VUART_IER, 0x0F);
	scratch3 = vuart_read(&u, VUART_IER) & 0x0F;
	vuart_write(&u, VUART_IER, scratch);
	CHECK_EQ(scratch2, 0);
	CHECK_EQ(scratch3, 0x0F);

	/* loopback test: MCR = LOOP | OUT2 | RTS -> MSR[7:4] = DCD | CTS */
	save_mcr = vuart_read(&u, VUART_MCR);
	save_lcr = vuart_read(&u, VUART_LCR);
	vuart_write(&u, VUART_MCR, VUART_MCR_LOOP | 0x0A);
	CHECK_EQ(vuart_read(&u, VUART_MSR) & 0xF0, 0x90);
	vuart_write(&u, VUART_MCR, save_mcr);

	/* FIFO detection: EFR write via LCR 0xBF, then FCR enable */
	vuart_write(&u, VUART_LCR, 0xBF);
	vuart_write(&u, VUART_IIR, 0);
	vuart_write(&u, VUART_LCR, 0);
	vuart_write(&u, VUART_IIR, VUART_FCR_ENABLE);
	CHECK_EQ(vuart_read(&u, VUART_IIR) >> 6, 3); /* 16550A */

	/* autoconfig_16550a: the "EFR" must not read 0 with LCR 0x80 or 0xBF */
	vuart_write(&u, VUART_LCR, 0x80);
	CHECK(vuart_read(&u, VUART_IIR) != 0);
	vuart_write(&u, VUART_LCR, 0xBF);
	CHECK(vuart_read(&u, VUART_IIR) != 0);
	/* National SuperIO test: EXCR1 (offset 2 with LCR 0xE0) must not track MCR.LOOP */
	vuart_write(&u, VUART_LCR, 0);
	st1 = vuart_read(&u, VUART_MCR);
	vuart_write(&u, VUART_LCR, 0xE0);
	st2 = vuart_read(&u, VUART_IIR);
	CHECK(!((st1 ^ st2) & VUART_MCR_LOOP));
	vuart_write(&u, VUART_LCR, 0);
	vuart_write(&u, VUART_MCR, st1 ^ VUART_MCR_LOOP);
	vuart_write(&u, VUART_LCR, 0xE0);
	st2 = vuart_read(&u, VUART_IIR);
	vuart_write(&u, VUART_LCR, 0);
	vuart_write(&u, VUART_MCR, st1);
	CHECK(!((st1 ^ st2) & VUART_MCR_LOOP));
	/* TI16750 test: IIR bit 5 never set, with or without DLAB */
	vuart_write(&u, VUART_IIR, VUART_FCR_ENABLE | 0x20);
	st1 = vuart_read(&u, VUART_IIR) & 0xE0;
	vuart_write(&u, VUART_IIR, VUART_FCR_ENABLE);
	vuart_write(&u, VUART_LCR, 0x80);
	vuart_write(&u, VUART_IIR, VUART_FCR_ENABLE | 0x20);
	st2 = vuart_read(&u, VUART_IIR) & 0xE0;
	vuart_write(&u, VUART_IIR, VUART_FCR_ENABLE);
	vuart_write(&u, VUART_LCR, 0);
	CHECK_EQ(st1, 0xC0);
	CHECK_EQ(st2, 0xC0);
	/* XScale UUE test: IER bit 6 does not stick */
	vuart_write(&u, VUART_IER, 0x40);
	CHECK_EQ(vuart_read(&u, VUART_IER), 0);
	vuart_write(&u, VUART_IER, 0);
	vuart_write(&u, VUART_LCR, save_lcr);

	/* scratch register */
	vuart_write(&u, VUART_SCR, 0xA5);
	CHECK_EQ(vuart_read(&u, VUART_SCR), 0xA5);
	vuart_write(&u, VUART_SCR, 0x5A);
	CHECK_EQ(vuart_read(&u, VUART_SCR), 0x5A);

	/* divisor latch: 8N1 at 115200 */
	vuart_write(&u, VUART_LCR, VUART_LCR_DLAB | 0x03);
	vuart_write(&u, VUART_RBR, 0x01);
	vuart_write(&u, VUART_IER, 0x00);
	CHECK_EQ(vuart_read(&u, VUART_RBR), 0x01);
	CHECK_EQ(vuart_read(&u, VUART_IER), 0x00);
	vuart_write(&u, VUART_RBR, 0x0C);
	vuart_write(&u, VUART_IER, 0x34);
	CHECK_EQ(vuart_read(&u, VUART_RBR), 0x0C);
	CHECK_EQ(vuart_read(&u, VUART_IER), 0x34);
	vuart_write(&u, VUART_LCR, 0x03);
	CHECK_EQ(vuart_read(&u, VUART_LCR), 0x03);
	CHECK_EQ(vuart_read(&u, VUART_IER), 0);
	CHECK_EQ(u.dll, 0x0C);
	CHECK_EQ(u.dlm, 0x34);
	CHECK_EQ(s.ntx, 0); /* divisor writes are not transmitted */

	/* serial8250_clear_fifos() then FIFO re-enable with trigger 8 */
	vuart_write(&u, VUART_IIR, VUART_FCR_ENABLE);
	vuart_write(&u, VUART_IIR, VUART_FCR_ENABLE | VUART_FCR_CLEAR_RX | VUART_FCR_CLEAR_TX);
	vuart_write(&u, VUART_IIR, 0);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0x01);
	vuart_write(&u, VUART_IIR, 0x81);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC1);
	CHECK_EQ(vuart_read(&u, VUART_LSR), 0x60); /* "LSR safety check" != 0xFF */
	CHECK_EQ(s.nirq, 0);
}

/* serial8250_do_startup(): the THRE re-assertion test and the TXEN test. */
static void test_thre(void)
{
	struct vuart u;
	struct sink s;
	u8 iir1, iir, lsr;

	setup(&u, &s);
	vuart_write(&u, VUART_IIR, VUART_FCR_ENABLE);
	vuart_write(&u, VUART_MCR, VUART_MCR_OUT2 | VUART_MCR_DTR | VUART_MCR_RTS);
	CHECK_EQ(s.nirq, 0);

	vuart_write(&u, VUART_IER, VUART_IER_THRI);
	CHECK(s.level);
	iir1 = vuart_read(&u, VUART_IIR);
	CHECK(!s.level); /* the IIR read cleared it */
	vuart_write(&u, VUART_IER, 0);
	vuart_write(&u, VUART_IER, VUART_IER_THRI);
	iir = vuart_read(&u, VUART_IIR);
	vuart_write(&u, VUART_IER, 0);
	CHECK_EQ(iir1, 0xC2);
	CHECK_EQ(iir, 0xC2);
	CHECK_EQ(s.nirq, 4);

	vuart_write(&u, VUART_IER, VUART_IER_THRI);
	lsr = vuart_read(&u, VUART_LSR);
	iir = vuart_read(&u, VUART_IIR);
	vuart_write(&u, VUART_IER, 0);
	CHECK(!((lsr & VUART_LSR_TEMT) && (iir & VUART_IIR_NO_INT)));

	/* pending but masked by IER off: no interrupt; a second IIR read sees none */
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC1);

	/* re-writing IER with THRI already set does not re-raise it */
	vuart_write(&u, VUART_IER, VUART_IER_THRI);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC2);
	vuart_write(&u, VUART_IER, VUART_IER_THRI | VUART_IER_RDI);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC1);
	CHECK(!s.level);

	/* without OUT2 the line stays low although IIR reports the interrupt */
	vuart_write(&u, VUART_IER, 0);
	vuart_write(&u, VUART_MCR, VUART_MCR_DTR);
	s.nirq = 0;
	vuart_write(&u, VUART_IER, VUART_IER_THRI);
	CHECK_EQ(s.nirq, 0);
	vuart_write(&u, VUART_MCR, VUART_MCR_OUT2);
	CHECK_EQ(s.nirq, 1);
	CHECK(s.level);
	vuart_write(&u, VUART_MCR, 0);
	CHECK_EQ(s.nirq, 2);
	CHECK(!s.level);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC2);
}

/* Interrupt-driven TX as serial8250_tx_chars() does it. */
static void test_tx(void)
{
	struct vuart u;
	struct sink s;
	const char *msg = "hello, world\n";
	unsigned i, n = strlen(msg);

	setup(&u, &s);
	vuart_write(&u, VUART_LCR, 0x03);
	vuart_write(&u, VUART_IIR, VUART_FCR_ENABLE);
	vuart_write(&u, VUART_MCR, VUART_MCR_OUT2 | VUART_MCR_DTR | VUART_MCR_RTS);

	/* polled (console) output: LSR THRE always set, no interrupt */
	for (i = 0; i < n; i++) {
		CHECK(vuart_read(&u, VUART_LSR) & VUART_LSR_THRE);
		vuart_write(&u, VUART_RBR, msg[i]);
	}
	CHECK_EQ(s.ntx, n);
	CHECK(memcmp(s.tx, msg, n) == 0);
	CHECK_EQ(s.nirq, 0);
	CHECK_EQ(vuart_read(&u, VUART_LSR), 0x60);

	/* start_tx: enable THRI -> interrupt */
	s.ntx = 0;
	vuart_write(&u, VUART_IER, VUART_IER_RDI | VUART_IER_THRI);
	CHECK(s.level);
	CHECK_EQ(s.nirq, 1);
	/* handler: IIR says THRE (clears it), write a burst, THRE pending again */
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC2);
	CHECK(!s.level);
	for (i = 0; i < 5; i++)
		vuart_write(&u, VUART_RBR, msg[i]);
	CHECK(s.level);
	CHECK_EQ(s.nirq, 3);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC2);
	for (; i < n; i++)
		vuart_write(&u, VUART_RBR, msg[i]);
	/* nothing left: stop_tx clears IER.THRI, dropping the pending interrupt */
	vuart_write(&u, VUART_IER, VUART_IER_RDI);
	CHECK(!s.level);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC1);
	CHECK_EQ(s.ntx, n);
	CHECK(memcmp(s.tx, msg, n) == 0);

	/* a THR write with THRI set and an IIR-cleared interrupt re-raises it */
	vuart_write(&u, VUART_IER, VUART_IER_THRI);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC2);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC1);
	vuart_write(&u, VUART_RBR, 'x');
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC2);
}

static void test_rx(void)
{
	struct vuart u;
	struct sink s;
	unsigned i;

	setup(&u, &s);
	vuart_write(&u, VUART_IIR, VUART_FCR_ENABLE);
	vuart_write(&u, VUART_MCR, VUART_MCR_OUT2);
	vuart_write(&u, VUART_IER, VUART_IER_RDI);
	CHECK(!s.level);
	CHECK(vuart_rx_space(&u));

	CHECK(vuart_rx_push(&u, 'a'));
	CHECK(s.level);
	CHECK_EQ(s.nirq, 1);
	CHECK(vuart_rx_push(&u, 'b'));
	CHECK_EQ(s.nirq, 1); /* already high: no callback */
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC4);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC4); /* RDA is not cleared by IIR reads */
	CHECK_EQ(vuart_read(&u, VUART_LSR), 0x61);
	CHECK_EQ(vuart_read(&u, VUART_RBR), 'a');
	CHECK(s.level);
	CHECK_EQ(vuart_read(&u, VUART_RBR), 'b');
	CHECK(!s.level);
	CHECK_EQ(s.nirq, 2);
	CHECK_EQ(vuart_read(&u, VUART_LSR), 0x60);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC1);
	CHECK_EQ(vuart_read(&u, VUART_RBR), 'b'); /* empty: last byte again */

	/* RDA has priority over THRE; THRE is not cleared by an IIR read reporting RDA */
	vuart_write(&u, VUART_IER, VUART_IER_RDI | VUART_IER_THRI);
	vuart_rx_push(&u, 'c');
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC4);
	CHECK_EQ(vuart_read(&u, VUART_RBR), 'c');
	CHECK(s.level);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0xC2);
	CHECK(!s.level);
	vuart_write(&u, VUART_IER, VUART_IER_RDI);

	/* fill the FIFO across the ring wrap, then overflow */
	for (i = 0; i < VUART_FIFO_SIZE; i++)
		CHECK(vuart_rx_push(&u, (u8)i));
	CHECK(!vuart_rx_space(&u));
	CHECK(!vuart_rx_push(&u, 0xEE));
	CHECK(!vuart_rx_push(&u, 0xEF));
	CHECK_EQ(u.rx_dropped, 2);
	for (i = 0; i < VUART_FIFO_SIZE; i++) {
		CHECK(vuart_read(&u, VUART_LSR) & VUART_LSR_DR);
		CHECK_EQ(vuart_read(&u, VUART_RBR), i);
	}
	CHECK(!(vuart_read(&u, VUART_LSR) & VUART_LSR_DR));
	CHECK(vuart_rx_space(&u));
	CHECK(!s.level);

	/* FCR clear RX */
	vuart_rx_push(&u, 1);
	vuart_rx_push(&u, 2);
	CHECK(s.level);
	vuart_write(&u, VUART_IIR, VUART_FCR_ENABLE | VUART_FCR_CLEAR_RX);
	CHECK(!s.level);
	CHECK_EQ(vuart_read(&u, VUART_LSR), 0x60);
	/* disabling the FIFOs clears them too */
	vuart_rx_push(&u, 3);
	vuart_write(&u, VUART_IIR, 0);
	CHECK_EQ(vuart_read(&u, VUART_LSR), 0x60);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0x01);
	/* 16450 mode still receives */
	vuart_rx_push(&u, 4);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0x04);
	CHECK_EQ(vuart_read(&u, VUART_RBR), 4);

	/* data arriving with IER.RDI clear: DR set, no interrupt */
	vuart_write(&u, VUART_IER, 0);
	s.nirq = 0;
	vuart_rx_push(&u, 5);
	CHECK_EQ(s.nirq, 0);
	CHECK(vuart_read(&u, VUART_LSR) & VUART_LSR_DR);
	vuart_write(&u, VUART_IER, VUART_IER_RDI);
	CHECK_EQ(s.nirq, 1);
	CHECK(s.level);
}

static void test_loopback_msr(void)
{
	struct vuart u;
	struct sink s;

	setup(&u, &s);
	CHECK_EQ(vuart_read(&u, VUART_MSR), 0xB0);
	vuart_write(&u, VUART_IER, VUART_IER_MSI | VUART_IER_RDI);
	vuart_write(&u, VUART_MCR, VUART_MCR_OUT2);
	CHECK(!s.level);

	/* loopback with nothing asserted: CTS, DSR, DCD drop */
	vuart_write(&u, VUART_MCR, VUART_MCR_LOOP);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0x00);
	CHECK(!s.level); /* loopback masks the PC's IRQ line */
	CHECK_EQ(vuart_read(&u, VUART_MSR), VUART_MSR_DCTS | VUART_MSR_DDSR | VUART_MSR_DDCD);
	CHECK_EQ(vuart_read(&u, VUART_MSR), 0x00);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0x01);

	vuart_write(&u, VUART_MCR, VUART_MCR_LOOP | VUART_MCR_DTR);
	CHECK_EQ(vuart_read(&u, VUART_MSR), VUART_MSR_DSR | VUART_MSR_DDSR);
	vuart_write(&u, VUART_MCR, VUART_MCR_LOOP | VUART_MCR_OUT1);
	CHECK_EQ(vuart_read(&u, VUART_MSR), VUART_MSR_RI | VUART_MSR_DDSR);
	vuart_write(&u, VUART_MCR, VUART_MCR_LOOP | VUART_MCR_OUT2 | VUART_MCR_RTS);
	/* RI trailing edge -> TERI */
	CHECK_EQ(vuart_read(&u, VUART_MSR),
		 VUART_MSR_DCD | VUART_MSR_CTS | VUART_MSR_TERI | VUART_MSR_DCTS | VUART_MSR_DDCD);
	vuart_write(&u, VUART_MCR, VUART_MCR_LOOP | 0x0F);
	CHECK_EQ(vuart_read(&u, VUART_MSR) & 0xF0, 0xF0);

	/* THR writes loop into the receiver, not out */
	vuart_write(&u, VUART_RBR, 'L');
	CHECK_EQ(s.ntx, 0);
	CHECK(vuart_read(&u, VUART_LSR) & VUART_LSR_DR);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0x04);
	CHECK_EQ(vuart_read(&u, VUART_RBR), 'L');

	/* leaving loopback: inputs back to CTS|DSR|DCD, a modem status interrupt */
	CHECK_EQ(s.nirq, 0);
	vuart_write(&u, VUART_MCR, VUART_MCR_OUT2);
	CHECK(s.level);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0x00);
	CHECK_EQ(vuart_read(&u, VUART_MSR), 0xB0 | VUART_MSR_TERI);
	CHECK(!s.level);
	CHECK_EQ(s.nirq, 2);
	vuart_write(&u, VUART_RBR, 'o');
	CHECK_EQ(s.ntx, 1);
	CHECK_EQ(s.tx[0], 'o');
}

static void test_irq_edges(void)
{
	struct vuart u;
	struct sink s;

	setup(&u, &s);
	vuart_write(&u, VUART_MCR, VUART_MCR_OUT2);
	vuart_write(&u, VUART_IER, 0x0F);
	CHECK_EQ(s.nirq, 1);
	CHECK(s.level);
	/* changing sources under a high line does not call back */
	vuart_rx_push(&u, 'x');
	vuart_write(&u, VUART_MCR, VUART_MCR_OUT2 | VUART_MCR_DTR);
	CHECK_EQ(s.nirq, 1);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0x04); /* FIFOs off: bits 7:6 = 00 */
	vuart_read(&u, VUART_RBR);
	CHECK_EQ(s.nirq, 1);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0x02); /* clears THRE: line drops */
	CHECK_EQ(s.nirq, 2);
	CHECK(!s.level);
	CHECK_EQ(vuart_read(&u, VUART_IIR), 0x01);
	/* an MSR read with no deltas does not call back */
	CHECK_EQ(vuart_read(&u, VUART_MSR), 0xB0);
	CHECK_EQ(s.nirq, 2);
	/* dropping OUT2 with nothing pending: no change */
	vuart_write(&u, VUART_MCR, 0);
	CHECK_EQ(s.nirq, 2);
	/* two sources, line toggles once each way */
	vuart_write(&u, VUART_MCR, VUART_MCR_OUT2);
	vuart_rx_push(&u, 'y');
	vuart_write(&u, VUART_RBR, 'w');
	CHECK_EQ(s.nirq, 3);
	CHECK(s.level);
	vuart_read(&u, VUART_RBR);
	CHECK_EQ(s.nirq, 3);
	vuart_read(&u, VUART_IIR);
	CHECK_EQ(s.nirq, 4);
	CHECK(!s.level);

	/* NULL ops are allowed */
	vuart_init(&u, NULL, NULL);
	vuart_write(&u, VUART_MCR, VUART_MCR_OUT2);
	vuart_write(&u, VUART_IER, VUART_IER_THRI);
	vuart_write(&u, VUART_RBR, 'z');
	CHECK(u.line);
	CHECK_EQ(vuart_read(&u, 8), 0xFF);
	vuart_write(&u, 8, 0);
}

/* The device-bus callbacks reach the same registers. */
static void test_io_callbacks(void)
{
	struct vuart u;
	struct sink s;

	setup(&u, &s);
	vuart_io_write(&u, VUART_SCR, 1, 0x15a);
	CHECK_EQ(vuart_read(&u, VUART_SCR), 0x5a);
	CHECK_EQ(vuart_io_read(&u, VUART_SCR, 1), 0x5a);
	CHECK(vuart_rx_push(&u, 'x'));
	CHECK_EQ(vuart_io_read(&u, VUART_RBR, 1), 'x');
}

int main(void)
{
	test_io_callbacks();
	test_linux_probe();
	test_thre();
	test_tx();
	test_rx();
	test_loopback_msr();
	test_irq_edges();
	return test_summary();
}
