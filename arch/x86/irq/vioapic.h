/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual IOAPIC, one per VM: 24 pins at 0xFEC00000 (82093AA datasheet, version 0x11,
 * so no EOI register: remote IRR clears on a local APIC EOI, vioapic_eoi()).
 *
 * MMIO: IOREGSEL at +0x00, IOWIN at +0x10, 32-bit accesses; other offsets read 0 and
 * ignore writes. Registers: 0x00 ID (bits 27:24), 0x01 version 0x00170011, 0x02
 * arbitration (= ID, read-only), 0x10 + 2 * pin / + 1 redirection entry low / high.
 *
 * Pin levels: `high` in vioapic_set_irq() is the logical asserted state of the line;
 * the polarity bit (13) is stored for the guest but not applied.
 *
 * Delivery: destination = entry bits 63:56 (the APIC ID Linux programs there in x2APIC
 * mode without interrupt remapping); 0xFF becomes the x2APIC broadcast 0xFFFFFFFF
 * (SDM 11.12.9). The extended destination ID (55:49) is stored but not used. Only
 * fixed and lowest-priority entries can be level-triggered; SMI, NMI, INIT and ExtINT
 * are always delivered as edges (the datasheet requires edge for them), so they never
 * set remote IRR. Delivery is immediate: delivery status (bit 12) always reads 0.
 *
 * Not thread safe: the VM layer serializes all calls (one lock per IOAPIC). The
 * deliver callback runs inside them and must not call back into this IOAPIC. */
#ifndef ARCH_X86_VIOAPIC_H
#define ARCH_X86_VIOAPIC_H

#include "hv/types.h"

#define VIOAPIC_BASE 0xfec00000ull
#define VIOAPIC_SIZE 0x1000ull
#define VIOAPIC_PINS 24
#define VIOAPIC_VERSION 0x00170011u /* max redirection entry 23, version 0x11 */

#define IOAPIC_REGSEL 0x00
#define IOAPIC_WINDOW 0x10

#define IOAPIC_REG_ID 0x00
#define IOAPIC_REG_VERSION 0x01
#define IOAPIC_REG_ARB 0x02
#define IOAPIC_REG_REDIR 0x10

/* Redirection entry bits */
#define IOAPIC_RTE_VECTOR 0xffull
#define IOAPIC_RTE_DELMODE(e) (((e) >> 8) & 7)
#define IOAPIC_RTE_LOGICAL BIT(11)
#define IOAPIC_RTE_DELIVS BIT(12)
#define IOAPIC_RTE_POLARITY BIT(13)
#define IOAPIC_RTE_REMOTE_IRR BIT(14)
#define IOAPIC_RTE_LEVEL BIT(15)
#define IOAPIC_RTE_MASKED BIT(16)
#define IOAPIC_RTE_DEST(e) ((u32)((e) >> 56))

struct vioapic_ops {
	/* mode: ICR-style delivery mode (0 fixed, 1 lowest, 2 SMI, 4 NMI, 5 INIT,
	 * 7 ExtINT); dest: APIC ID or 0xFFFFFFFF; level: TMR should be set. */
	void (*deliver)(void *ctx, u8 vector, u8 mode, bool logical, u32 dest, bool level);
};

struct vioapic {
	u8 id;
	u32 regsel;
	u64 rte[VIOAPIC_PINS];
	u32 lines; /* bit per pin: line asserted */
	const struct vioapic_ops *ops;
	void *ctx;
	u64 deliveries;	   /* deliver calls */
	u64 reserved_mode; /* messages not sent: an entry with a reserved delivery mode */
};

/* Reset state: every entry masked (0x10000), ID = id. */
void vioapic_init(struct vioapic *io, u8 id, const struct vioapic_ops *ops, void *ctx);

/* offset from VIOAPIC_BASE; 32-bit accesses. */
u32 vioapic_mmio_read(struct vioapic *io, u64 offset);
void vioapic_mmio_write(struct vioapic *io, u64 offset, u32 val);
/* The same as callbacks of a device bus region (hv/iobus.h); ioapic is the struct vioapic. */
u64 vioapic_io_read(void *ioapic, u64 offset, unsigned size);
void vioapic_io_write(void *ioapic, u64 offset, unsigned size, u64 val);

/* A device drives its line: edge entries deliver on a rising edge when unmasked
 * (a masked edge is lost); level entries deliver while asserted, unmasked and
 * remote IRR clear, and set remote IRR. Pins >= 24 are ignored. */
void vioapic_set_irq(struct vioapic *io, unsigned pin, bool high);

/* A local APIC EOI of a level-triggered vector: clears remote IRR of the level
 * entries with that vector and redelivers those whose line is still asserted. */
void vioapic_eoi(struct vioapic *io, u8 vector);

#endif
