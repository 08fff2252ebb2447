/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual 16550A UART register model (see vuart.h for what is modelled).
 * Section references are to the National PC16550D datasheet (June 1995). */
#include "hv/dev/vuart.h"
#include "hv/lib.h"

/* Modem inputs while not in loopback: the "cable" has CTS, DSR and DCD up. */
#define MSR_INPUTS_IDLE (VUART_MSR_CTS | VUART_MSR_DSR | VUART_MSR_DCD)

/* Highest-priority pending interrupt as IIR bits 3:0 (section 8.6, table IV):
 * receiver line status (never, no line errors) > received data > THR empty >
 * modem status. */
static u8 vuart_pending(const struct vuart *u)
{
	if ((u->ier & VUART_IER_RDI) && u->rx_count)
		return VUART_IIR_RDI;
	if ((u->ier & VUART_IER_THRI) && u->thre_pending)
		return VUART_IIR_THRI;
	if ((u->ier & VUART_IER_MSI) && (u->msr & 0x0F))
		return VUART_IIR_MSI;
	return VUART_IIR_NO_INT;
}

/* On the PC the chip's INTR output reaches the PIC/IOAPIC only through a buffer
 * enabled by -OUT2 (MCR bit 3); in loopback the modem outputs, -OUT2 included,
 * are forced inactive (section 8.7), which also masks the IRQ. */
static void vuart_update_irq(struct vuart *u)
{
	bool level = vuart_pending(u) != VUART_IIR_NO_INT && (u->mcr & VUART_MCR_OUT2) &&
		     !(u->mcr & VUART_MCR_LOOP);

	if (level == u->line)
		return;
	u->line = level;
	if (u->ops && u->ops->irq)
		u->ops->irq(u->ctx, level);
}

/* MSR bits 7:4 as the modem inputs are now: in loopback (section 8.7) CTS = RTS,
 * DSR = DTR, RI = OUT1, DCD = OUT2. */
static u8 vuart_msr_inputs(const struct vuart *u)
{
	u8 m = u->mcr, in = 0;

	if (!(m & VUART_MCR_LOOP))
		return MSR_INPUTS_IDLE;
	if (m & VUART_MCR_RTS)
		in |= VUART_MSR_CTS;
	if (m & VUART_MCR_DTR)
		in |= VUART_MSR_DSR;
	if (m & VUART_MCR_OUT1)
		in |= VUART_MSR_RI;
	if (m & VUART_MCR_OUT2)
		in |= VUART_MSR_DCD;
	return in;
}

/* Latch new modem inputs, setting the delta bits (section 8.9): DCTS, DDSR and
 * DDCD on any change, TERI only when RI goes from on to off. */
static void vuart_set_msr_inputs(struct vuart *u, u8 in)
{
	u8 old = u->msr & 0xF0, chg = old ^ in, d = 0;

	if (chg & VUART_MSR_CTS)
		d |= VUART_MSR_DCTS;
	if (chg & VUART_MSR_DSR)
		d |= VUART_MSR_DDSR;
	if ((old & VUART_MSR_RI) && !(in & VUART_MSR_RI))
		d |= VUART_MSR_TERI;
	if (chg & VUART_MSR_DCD)
		d |= VUART_MSR_DDCD;
	u->msr = in | (u->msr & 0x0F) | d;
}

static void vuart_rx_clear(struct vuart *u)
{
	u->rx_head = 0;
	u->rx_count = 0;
}

static bool vuart_rx_put(struct vuart *u, u8 byte)
{
	if (u->rx_count == VUART_FIFO_SIZE) {
		u->rx_dropped++;
		return false;
	}
	u->rx_fifo[(u->rx_head + u->rx_count) % VUART_FIFO_SIZE] = byte;
	u->rx_count++;
	return true;
}

void vuart_init(struct vuart *u, const struct vuart_ops *ops, void *ctx)
{
	memset(u, 0, sizeof(*u));
	u->ops = ops;
	u->ctx = ctx;
	u->msr = MSR_INPUTS_IDLE;
	u->dll = 1; /* divisor 1: 115200 baud from 1.8432 MHz; firmware reprograms it */
}

u8 vuart_read(struct vuart *u, unsigned reg)
{
	u8 v;

	switch (reg) {
	case VUART_RBR:
		if (u->lcr & VUART_LCR_DLAB)
			return u->dll;
		if (u->rx_count) {
			u->rbr = u->rx_fifo[u->rx_head];
			u->rx_head = (u->rx_head + 1) % VUART_FIFO_SIZE;
			u->rx_count--;
			vuart_update_irq(u);
		}
		return u->rbr;
	case VUART_IER:
		if (u->lcr & VUART_LCR_DLAB)
			return u->dlm;
		return u->ier;
	case VUART_IIR:
		/* DLAB does not affect offset 2: Linux relies on reading IIR (not an
		 * EFR) with LCR = 0x80 / 0xBF to rule out 16650-class chips. */
		v = vuart_pending(u);
		/* Reading IIR clears a THRE interrupt only when it is the source
		 * reported (table IV, "reset control"). */
		if (v == VUART_IIR_THRI) {
			u->thre_pending = false;
			vuart_update_irq(u);
		}
		if (u->fcr & VUART_FCR_ENABLE)
			v |= VUART_IIR_FIFO;
		return v;
	case VUART_LCR:
		return u->lcr;
	case VUART_MCR:
		return u->mcr;
	case VUART_LSR:
		return (u->rx_count ? VUART_LSR_DR : 0) | VUART_LSR_THRE | VUART_LSR_TEMT;
	case VUART_MSR:
		v = u->msr;
		if (v & 0x0F) {
			u->msr &= 0xF0; /* deltas clear on read */
			vuart_update_irq(u);
		}
		return v;
	case VUART_SCR:
		return u->scr;
	default:
		return 0xFF;
	}
}

void vuart_write(struct vuart *u, unsigned reg, u8 val)
{
	u8 old;

	switch (reg) {
	case VUART_RBR: /* THR */
		if (u->lcr & VUART_LCR_DLAB) {
			u->dll = val;
			return;
		}
		if (u->mcr & VUART_MCR_LOOP)
			vuart_rx_put(u, val); /* transmitter looped to receiver */
		else if (u->ops && u->ops->tx)
			u->ops->tx(u->ctx, val);
		/* Writing THR clears the THRE interrupt; the byte leaves at once, so
		 * THR is empty again and the interrupt is re-raised if enabled. */
		u->thre_pending = u->ier & VUART_IER_THRI;
		break;
	case VUART_IER:
		if (u->lcr & VUART_LCR_DLAB) {
			u->dlm = val;
			return;
		}
		old = u->ier;
		u->ier = val & 0x0F; /* bits 7:4 are always 0 */
		/* Enabling ETBEI while THR is empty raises THRE on a real 16550;
		 * Linux's startup "THRE test" toggles IER.THRI and expects it to be
		 * re-asserted each time. Disabling it drops the pending state. */
		if ((u->ier ^ old) & VUART_IER_THRI)
			u->thre_pending = u->ier & VUART_IER_THRI;
		break;
	case VUART_IIR: /* FCR, independent of DLAB */
		/* Changing FCR0 clears both FIFOs; the other bits are only
		 * programmed when FCR0 is written as 1 (section 8.5). */
		if ((val ^ u->fcr) & VUART_FCR_ENABLE)
			vuart_rx_clear(u);
		if (val & VUART_FCR_ENABLE) {
			if (val & VUART_FCR_CLEAR_RX)
				vuart_rx_clear(u);
			/* CLEAR_TX: the transmit FIFO is always empty. */
			u->fcr = val & 0xC9; /* enable, DMA mode, trigger level */
		} else {
			u->fcr = 0;
		}
		break;
	case VUART_LCR:
		u->lcr = val;
		return;
	case VUART_MCR:
		u->mcr = val & 0x1F; /* bits 7:5 are always 0 */
		vuart_set_msr_inputs(u, vuart_msr_inputs(u));
		break;
	case VUART_SCR:
		u->scr = val;
		return;
	default: /* LSR and MSR writes (factory test) are ignored */
		return;
	}
	vuart_update_irq(u);
}

u64 vuart_io_read(void *uart, u64 reg, unsigned size)
{
	(void)size; /* byte registers */
	return vuart_read(uart, (unsigned)reg);
}

void vuart_io_write(void *uart, u64 reg, unsigned size, u64 val)
{
	(void)size;
	vuart_write(uart, (unsigned)reg, (u8)val);
}

bool vuart_rx_push(void *uart, u8 byte)
{
	struct vuart *u = uart;
	if (!vuart_rx_put(u, byte))
		return false;
	vuart_update_irq(u);
	return true;
}

bool vuart_rx_space(const struct vuart *u) { return u->rx_count < VUART_FIFO_SIZE; }
