/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual 16550A UART: the register model only, architecture-neutral. The caller
 * maps it (on x86: I/O ports 0x3F8..0x3FF, register = port - 0x3F8), feeds host
 * input with vuart_rx_push() and wires the interrupt line to its interrupt
 * controller (on a PC: ISA IRQ 4, edge triggered).
 *
 * Model (register names and bits as in the National PC16550D datasheet):
 *  - transmission is instant: a THR write hands the byte to ops->tx and the
 *    transmitter is empty again at once, so LSR THRE and TEMT always read 1;
 *  - the receiver has a 64-byte FIFO (a real 16550A has 16), also used in 16450
 *    (non-FIFO) mode; a received-data interrupt is pending whenever it holds data
 *    (as if the trigger level were 1, so no character-timeout IIR is needed);
 *  - no line errors: LSR OE/PE/FE/BI and the receiver-line-status interrupt are
 *    never set; host input that does not fit is refused and counted in rx_dropped;
 *  - the modem inputs read CTS, DSR and DCD asserted, RI clear; in loopback
 *    (MCR bit 4) they follow RTS, DTR, OUT2 and OUT1 and THR writes loop back into
 *    the receiver instead of going to ops->tx;
 *  - the interrupt line is gated by MCR OUT2 as on the PC, where -OUT2 enables the
 *    IRQ driver: line = (an interrupt is pending) && OUT2 && !LOOP (in loopback the
 *    modem outputs, OUT2 included, are forced inactive). */
#ifndef HV_DEV_VUART_H
#define HV_DEV_VUART_H

#include "hv/types.h"

#define VUART_FIFO_SIZE 64

/* Register offsets (DLAB = LCR bit 7 switches 0/1 to the divisor latch). */
#define VUART_RBR 0 /* read: receiver buffer; write: THR; DLAB: DLL */
#define VUART_IER 1 /* DLAB: DLM */
#define VUART_IIR 2 /* read: IIR; write: FCR */
#define VUART_LCR 3
#define VUART_MCR 4
#define VUART_LSR 5
#define VUART_MSR 6
#define VUART_SCR 7

#define VUART_IER_RDI BIT(0)  /* received data available */
#define VUART_IER_THRI BIT(1) /* THR empty */
#define VUART_IER_RLSI BIT(2) /* receiver line status */
#define VUART_IER_MSI BIT(3)  /* modem status */

#define VUART_IIR_NO_INT 0x01
#define VUART_IIR_MSI 0x00
#define VUART_IIR_THRI 0x02
#define VUART_IIR_RDI 0x04
#define VUART_IIR_FIFO 0xC0 /* bits 7:6 = 11: FIFOs enabled (16550A) */

#define VUART_FCR_ENABLE BIT(0)
#define VUART_FCR_CLEAR_RX BIT(1)
#define VUART_FCR_CLEAR_TX BIT(2)

#define VUART_LCR_DLAB BIT(7)

#define VUART_MCR_DTR BIT(0)
#define VUART_MCR_RTS BIT(1)
#define VUART_MCR_OUT1 BIT(2)
#define VUART_MCR_OUT2 BIT(3)
#define VUART_MCR_LOOP BIT(4)

#define VUART_LSR_DR BIT(0)
#define VUART_LSR_THRE BIT(5)
#define VUART_LSR_TEMT BIT(6)

#define VUART_MSR_DCTS BIT(0)
#define VUART_MSR_DDSR BIT(1)
#define VUART_MSR_TERI BIT(2)
#define VUART_MSR_DDCD BIT(3)
#define VUART_MSR_CTS BIT(4)
#define VUART_MSR_DSR BIT(5)
#define VUART_MSR_RI BIT(6)
#define VUART_MSR_DCD BIT(7)

struct vuart_ops {
	void (*tx)(void *ctx, u8 byte);	    /* guest wrote THR (may be NULL) */
	void (*irq)(void *ctx, bool level); /* line level changed (only on change; may be NULL) */
};

struct vuart {
	u8 ier; /* bits 3:0 */
	u8 fcr; /* last programmed FCR (bit 0: FIFOs enabled, bits 7:6: trigger) */
	u8 lcr;
	u8 mcr; /* bits 4:0 */
	u8 msr; /* bits 7:4 modem inputs, bits 3:0 deltas (cleared on read) */
	u8 scr;
	u8 dll, dlm;
	u8 rbr; /* last byte read from the receiver (what an empty RBR returns) */
	u8 rx_fifo[VUART_FIFO_SIZE];
	u8 rx_head; /* index of the oldest byte */
	u8 rx_count;
	bool thre_pending; /* THR-empty interrupt pending (not yet cleared by IIR read/THR write) */
	bool line;	   /* current interrupt line level as last reported to ops->irq */
	const struct vuart_ops *ops;
	void *ctx;
	u64 rx_dropped; /* host bytes refused because the FIFO was full */
};

/* Power-on reset state (PC16550D table IV); ops->irq is not called. */
void vuart_init(struct vuart *u, const struct vuart_ops *ops, void *ctx);
/* Register access, reg 0..7 (others read 0xFF / are ignored). */
u8 vuart_read(struct vuart *u, unsigned reg);
void vuart_write(struct vuart *u, unsigned reg, u8 val);
/* The same as callbacks of a device bus region (hv/iobus.h); uart is the struct vuart. */
u64 vuart_io_read(void *uart, u64 reg, unsigned size);
void vuart_io_write(void *uart, u64 reg, unsigned size, u64 val);
/* Host input: false (and rx_dropped counted) when the FIFO is full. uart is the struct
 * vuart (a void pointer so that this serves as the console's receiver as it is). */
bool vuart_rx_push(void *uart, u8 byte);
/* Whether vuart_rx_push() would accept a byte now. */
bool vuart_rx_space(const struct vuart *u);

#endif
