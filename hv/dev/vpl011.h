/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual Arm PrimeCell PL011 UART: the register model only. The caller maps its
 * 4 KiB frame (on QEMU's virt layout at 0x09000000, SPI 1), feeds host input with
 * vpl011_rx_push() and wires the interrupt line (UARTINTR, level) to its GIC.
 *
 * Model (registers and bits as in the PL011 TRM, ARM DDI 0183):
 *  - register accesses are 32 bits at 4-byte aligned offsets; Linux's AMBA driver
 *    uses 16-bit accesses and its earlycon 8-bit DR writes, so the caller
 *    zero-extends narrower writes and truncates reads; other offsets (unaligned
 *    ones too) read 0, ignore writes, are counted in `unknown` and reported to
 *    ops->bad;
 *  - transmission is instant: a DR write hands the byte to ops->tx at once, so FR
 *    reads TXFE = 1, TXFF = 0, BUSY = 0 and the transmit FIFO never holds data;
 *  - CR.UARTEN/TXE/RXE are stored but do not gate anything: Linux's earlycon (and
 *    the SBSA driver, which never touches CR) write DR with the UART as firmware
 *    left it, and here there may be no firmware (reset CR is 0x0300, UARTEN = 0);
 *  - the receive FIFO holds 32 bytes with LCR_H.FEN set, 1 (the holding register)
 *    without; changing FEN empties it. Host input that does not fit is refused and
 *    counted in rx_dropped, as are loopback bytes that do not fit;
 *  - interrupts (RIS bits; MIS = RIS & IMSC; line = MIS != 0):
 *      RXRIS  set when a received byte brings the FIFO level to the IFLS trigger
 *             (1 with FEN off), cleared when reads take it below, or by ICR;
 *      RTRIS  receive timeout: with no notion of time every received byte ends a
 *             burst, so it is set on each received byte and cleared when the FIFO
 *             empties, or by ICR (data below the trigger always raises one);
 *      TXRIS  set by every DR write (the byte leaves at once, so the transmit FIFO
 *             falls through its trigger level), cleared by ICR; 0 at reset. As on
 *             the hardware (TRM, UARTTXINTR) it marks a transition, not a level: a
 *             driver that acks it with ICR is not interrupted again until it
 *             writes DR;
 *      modem  CTS/DCD/DSR/RI set when that input changes, cleared by ICR;
 *      errors (FE/PE/BE/OE) never: no line errors, DR bits 11:8 and RSR read 0;
 *  - the modem inputs read CTS, DSR and DCD asserted, RI clear; in loopback
 *    (CR.LBE) they follow RTS, DTR, Out1 and Out2 (CTS, DSR, DCD, RI), DR writes go
 *    to the receive FIFO instead of ops->tx and host input is held off;
 *  - IDs: PeriphID 0x00141011 (part 0x011, designer 0x41, revision 1), PCellID
 *    0xB105F00D, as QEMU's. Linux sizes the FIFO from the revision (16 bytes below
 *    3); the larger one here is harmless to it: it reads until FR.RXFE.
 * A caller starting a guest without firmware that means to boot it through ACPI
 * (SBSA UART driver: no CR/LCR_H/IBRD writes) may program CR, LCR_H, IBRD and FBRD
 * with vpl011_write() first. With UARTEN set, Linux's AMBA PL011 console (console=
 * without options) divides by 64 * IBRD + FBRD, so never leave both 0 then. */
#ifndef HV_DEV_VPL011_H
#define HV_DEV_VPL011_H

#include "hv/types.h"

#define VPL011_FIFO_SIZE 32

/* Register offsets (TRM, register summary). */
#define VPL011_DR 0x000
#define VPL011_RSR 0x004 /* write: ECR */
#define VPL011_FR 0x018
#define VPL011_ILPR 0x020
#define VPL011_IBRD 0x024
#define VPL011_FBRD 0x028
#define VPL011_LCR_H 0x02C
#define VPL011_CR 0x030
#define VPL011_IFLS 0x034
#define VPL011_IMSC 0x038
#define VPL011_RIS 0x03C
#define VPL011_MIS 0x040
#define VPL011_ICR 0x044
#define VPL011_DMACR 0x048
#define VPL011_PERIPHID0 0xFE0 /* PeriphID0-3 at 0xFE0-0xFEC, PCellID0-3 at 0xFF0-0xFFC */
#define VPL011_PCELLID0 0xFF0

#define VPL011_FR_CTS BIT(0)
#define VPL011_FR_DSR BIT(1)
#define VPL011_FR_DCD BIT(2)
#define VPL011_FR_BUSY BIT(3)
#define VPL011_FR_RXFE BIT(4)
#define VPL011_FR_TXFF BIT(5)
#define VPL011_FR_RXFF BIT(6)
#define VPL011_FR_TXFE BIT(7)
#define VPL011_FR_RI BIT(8)

#define VPL011_LCR_H_FEN BIT(4)

#define VPL011_CR_UARTEN BIT(0)
#define VPL011_CR_LBE BIT(7)
#define VPL011_CR_TXE BIT(8)
#define VPL011_CR_RXE BIT(9)
#define VPL011_CR_DTR BIT(10)
#define VPL011_CR_RTS BIT(11)
#define VPL011_CR_OUT1 BIT(12)
#define VPL011_CR_OUT2 BIT(13)

/* Interrupt bits, the same in IMSC, RIS, MIS and ICR. */
#define VPL011_INT_RI BIT(0)
#define VPL011_INT_CTS BIT(1)
#define VPL011_INT_DCD BIT(2)
#define VPL011_INT_DSR BIT(3)
#define VPL011_INT_RX BIT(4)
#define VPL011_INT_TX BIT(5)
#define VPL011_INT_RT BIT(6)
#define VPL011_INT_FE BIT(7)
#define VPL011_INT_PE BIT(8)
#define VPL011_INT_BE BIT(9)
#define VPL011_INT_OE BIT(10)
#define VPL011_INT_ALL 0x7FFu

struct vpl011_ops {
	void (*tx)(void *ctx, u8 byte);	    /* guest wrote DR (may be NULL) */
	void (*irq)(void *ctx, bool level); /* line level changed (only on change; may be NULL) */
	/* an access at an offset that is no register (counted in `unknown`; may be NULL) */
	void (*bad)(void *ctx, u32 offset, bool write);
};

struct vpl011 {
	u32 cr; /* bits 15:7, 2:0 */
	u8 lcr_h;
	u8 ifls; /* bits 5:0 */
	u16 ibrd;
	u8 fbrd; /* bits 5:0 */
	u8 ilpr;
	u8 dmacr; /* bits 2:0, stored only: no DMA */
	u16 imsc;
	u16 ris; /* raw interrupt status */
	u8 rx_fifo[VPL011_FIFO_SIZE];
	u8 rx_head; /* index of the oldest byte */
	u8 rx_count;
	bool line; /* interrupt line level as last reported to ops->irq */
	const struct vpl011_ops *ops;
	void *ctx;
	u64 rx_dropped; /* bytes refused: FIFO full, or host input during loopback */
	u64 unknown;	/* accesses to offsets this model does not decode */
};

/* Reset state (TRM register summary: CR 0x0300, IFLS 0x12, all else 0); ops->irq
 * is not called. */
void vpl011_init(struct vpl011 *u, const struct vpl011_ops *ops, void *ctx);
/* 32-bit register access at `offset` (0..0xFFF) into the frame. */
u32 vpl011_read(struct vpl011 *u, u32 offset);
void vpl011_write(struct vpl011 *u, u32 offset, u32 val);
/* The same as callbacks of a device bus region (hv/iobus.h); uart is the struct vpl011. */
u64 vpl011_io_read(void *uart, u64 offset, unsigned size);
void vpl011_io_write(void *uart, u64 offset, unsigned size, u64 val);
/* Host input: false (and rx_dropped counted) when the FIFO is full or in loopback. uart
 * is the struct vpl011 (a void pointer so that this serves as the console's receiver). */
bool vpl011_rx_push(void *uart, u8 byte);
/* Whether vpl011_rx_push() would accept a byte now. */
bool vpl011_rx_space(const struct vpl011 *u);

#endif
