/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual PL011 UART register model (see vpl011.h for what is modelled). Register
 * and bit names are those of the PL011 TRM (ARM DDI 0183). */
#include "hv/dev/vpl011.h"
#include "hv/lib.h"

#define CR_MASK 0xFF87u /* bits 6:3 are reserved */
#define MODEM_IDLE (VPL011_FR_CTS | VPL011_FR_DSR | VPL011_FR_DCD)

/* PeriphID0-3 then PCellID0-3, one byte per word. */
static const u8 vpl011_id[8] = { 0x11, 0x10, 0x14, 0x00, 0x0D, 0xF0, 0x05, 0xB1 };

static bool is_id(u32 offset)
{
	return offset >= VPL011_PERIPHID0 && offset <= VPL011_PCELLID0 + 12 && !(offset & 3);
}

static void unknown(struct vpl011 *u, u32 offset, bool write)
{
	u->unknown++;
	if (u->ops && u->ops->bad)
		u->ops->bad(u->ctx, offset, write);
}

static u32 rx_depth(const struct vpl011 *u)
{
	return (u->lcr_h & VPL011_LCR_H_FEN) ? VPL011_FIFO_SIZE : 1;
}

/* IFLS RXIFLSEL (bits 5:3): the receive interrupt fires as the FIFO becomes 1/8,
 * 1/4, 1/2, 3/4 or 7/8 full (the reserved encodings act as 1/2 here); with the
 * FIFOs off, when the holding register fills. */
static u32 rx_trigger(const struct vpl011 *u)
{
	static const u8 eighths[8] = { 1, 2, 4, 6, 7, 4, 4, 4 };

	if (!(u->lcr_h & VPL011_LCR_H_FEN))
		return 1;
	return VPL011_FIFO_SIZE * eighths[(u->ifls >> 3) & 7] / 8;
}

/* The modem status inputs as FR bits: a cable with CTS, DSR and DCD up, or in
 * loopback nUARTCTS = nUARTRTS, nUARTDSR = nUARTDTR, nUARTDCD = nUARTOut1 and
 * nUARTRI = nUARTOut2 (TRM, CR.LBE). */
static u32 modem_inputs(u32 cr)
{
	u32 in = 0;

	if (!(cr & VPL011_CR_LBE))
		return MODEM_IDLE;
	if (cr & VPL011_CR_RTS)
		in |= VPL011_FR_CTS;
	if (cr & VPL011_CR_DTR)
		in |= VPL011_FR_DSR;
	if (cr & VPL011_CR_OUT1)
		in |= VPL011_FR_DCD;
	if (cr & VPL011_CR_OUT2)
		in |= VPL011_FR_RI;
	return in;
}

/* UARTINTR is the OR of the masked interrupts (TRM, UARTINTR). */
static void update_irq(struct vpl011 *u)
{
	bool level = (u->ris & u->imsc) != 0;

	if (level == u->line)
		return;
	u->line = level;
	if (u->ops && u->ops->irq)
		u->ops->irq(u->ctx, level);
}

static bool rx_put(struct vpl011 *u, u8 byte)
{
	if (u->rx_count >= rx_depth(u)) {
		u->rx_dropped++;
		return false;
	}
	u->rx_fifo[(u->rx_head + u->rx_count) % VPL011_FIFO_SIZE] = byte;
	u->rx_count++;
	/* No time passes here: the line goes idle after every byte, so the
	 * receive timeout is due at once. */
	u->ris |= VPL011_INT_RT;
	if (u->rx_count == rx_trigger(u))
		u->ris |= VPL011_INT_RX;
	return true;
}

static u32 rx_get(struct vpl011 *u)
{
	u8 byte;

	if (!u->rx_count)
		return 0;
	byte = u->rx_fifo[u->rx_head];
	u->rx_head = (u->rx_head + 1) % VPL011_FIFO_SIZE;
	u->rx_count--;
	if (u->rx_count < rx_trigger(u))
		u->ris &= ~VPL011_INT_RX;
	if (!u->rx_count)
		u->ris &= ~VPL011_INT_RT;
	update_irq(u);
	return byte; /* bits 11:8 (OE, BE, PE, FE) are never set */
}

void vpl011_init(struct vpl011 *u, const struct vpl011_ops *ops, void *ctx)
{
	memset(u, 0, sizeof(*u));
	u->ops = ops;
	u->ctx = ctx;
	u->cr = VPL011_CR_TXE | VPL011_CR_RXE;
	u->ifls = 0x12; /* both trigger levels 1/2 */
}

u32 vpl011_read(struct vpl011 *u, u32 offset)
{
	u32 fr;

	switch (offset) {
	case VPL011_DR:
		return rx_get(u);
	case VPL011_RSR:
		return 0;
	case VPL011_FR:
		fr = modem_inputs(u->cr) | VPL011_FR_TXFE;
		if (!u->rx_count)
			fr |= VPL011_FR_RXFE;
		if (u->rx_count == rx_depth(u))
			fr |= VPL011_FR_RXFF;
		return fr;
	case VPL011_ILPR:
		return u->ilpr;
	case VPL011_IBRD:
		return u->ibrd;
	case VPL011_FBRD:
		return u->fbrd;
	case VPL011_LCR_H:
		return u->lcr_h;
	case VPL011_CR:
		return u->cr;
	case VPL011_IFLS:
		return u->ifls;
	case VPL011_IMSC:
		return u->imsc;
	case VPL011_RIS:
		return u->ris;
	case VPL011_MIS:
		return u->ris & u->imsc;
	case VPL011_ICR: /* write-only */
		return 0;
	case VPL011_DMACR:
		return u->dmacr;
	}
	if (is_id(offset))
		return vpl011_id[(offset - VPL011_PERIPHID0) / 4];
	unknown(u, offset, false);
	return 0;
}

void vpl011_write(struct vpl011 *u, u32 offset, u32 val)
{
	u32 changed;

	switch (offset) {
	case VPL011_DR:
		if (u->cr & VPL011_CR_LBE)
			rx_put(u, (u8)val);
		else if (u->ops && u->ops->tx)
			u->ops->tx(u->ctx, (u8)val);
		/* The write clears TXRIS and the instant drain sets it again. */
		u->ris |= VPL011_INT_TX;
		break;
	case VPL011_RSR: /* ECR: clears the error flags, which are never set */
		return;
	case VPL011_ILPR:
		u->ilpr = (u8)val;
		return;
	case VPL011_IBRD:
		u->ibrd = (u16)val;
		return;
	case VPL011_FBRD:
		u->fbrd = val & 0x3F;
		return;
	case VPL011_LCR_H:
		if ((val ^ u->lcr_h) & VPL011_LCR_H_FEN) {
			/* the FIFO changes depth: start it empty */
			u->rx_head = 0;
			u->rx_count = 0;
			u->ris &= ~(VPL011_INT_RX | VPL011_INT_RT);
		}
		u->lcr_h = (u8)val;
		break;
	case VPL011_CR:
		/* A modem status interrupt marks each change of an input. */
		changed = modem_inputs(u->cr) ^ modem_inputs(val & CR_MASK);
		u->cr = val & CR_MASK;
		if (changed & VPL011_FR_CTS)
			u->ris |= VPL011_INT_CTS;
		if (changed & VPL011_FR_DSR)
			u->ris |= VPL011_INT_DSR;
		if (changed & VPL011_FR_DCD)
			u->ris |= VPL011_INT_DCD;
		if (changed & VPL011_FR_RI)
			u->ris |= VPL011_INT_RI;
		break;
	case VPL011_IFLS:
		u->ifls = val & 0x3F;
		return;
	case VPL011_IMSC:
		u->imsc = val & VPL011_INT_ALL;
		break;
	case VPL011_ICR:
		u->ris &= ~(val & VPL011_INT_ALL);
		break;
	case VPL011_DMACR:
		u->dmacr = val & 7;
		return;
	case VPL011_FR:
	case VPL011_RIS:
	case VPL011_MIS: /* read-only: ignored */
		return;
	default:
		if (!is_id(offset))
			unknown(u, offset, true);
		return;
	}
	update_irq(u);
}

u64 vpl011_io_read(void *uart, u64 offset, unsigned size)
{
	(void)size; /* 32-bit registers */
	return vpl011_read(uart, (u32)offset);
}

void vpl011_io_write(void *uart, u64 offset, unsigned size, u64 val)
{
	(void)size;
	vpl011_write(uart, (u32)offset, (u32)val);
}

bool vpl011_rx_push(void *uart, u8 byte)
{
	struct vpl011 *u = uart;
	/* In loopback the receiver hears only the transmitter. */
	if (u->cr & VPL011_CR_LBE) {
		u->rx_dropped++;
		return false;
	}
	if (!rx_put(u, byte))
		return false;
	update_irq(u);
	return true;
}

bool vpl011_rx_space(const struct vpl011 *u)
{
	return !(u->cr & VPL011_CR_LBE) && u->rx_count < rx_depth(u);
}
