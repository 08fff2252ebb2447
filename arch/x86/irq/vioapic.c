/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual IOAPIC (see vioapic.h), after the Intel 82093AA datasheet. */
#include "arch/x86/irq/vioapic.h"
#include "hv/lib.h"

/* Guest-writable bits: low dword without delivery status and remote IRR (read-only)
 * and without the reserved 31:17; high dword: destination 63:56 and the extended
 * destination ID 55:49 (read back, not used). */
#define RTE_WRITABLE_LO \
	((0xffffull & ~(IOAPIC_RTE_DELIVS | IOAPIC_RTE_REMOTE_IRR)) | IOAPIC_RTE_MASKED)
#define RTE_WRITABLE_HI 0xfffe000000000000ull

void vioapic_init(struct vioapic *io, u8 id, const struct vioapic_ops *ops, void *ctx)
{
	memset(io, 0, sizeof(*io));
	io->id = id & 0xf;
	io->ops = ops;
	io->ctx = ctx;
	for (int i = 0; i < VIOAPIC_PINS; i++)
		io->rte[i] = IOAPIC_RTE_MASKED;
}

/* Only fixed and lowest-priority can be level-triggered (82093AA 3.2.4). */
static bool rte_level(u64 e) { return (e & IOAPIC_RTE_LEVEL) && IOAPIC_RTE_DELMODE(e) <= 1; }

static void deliver_pin(struct vioapic *io, unsigned pin)
{
	u64 e = io->rte[pin];
	u32 dest = IOAPIC_RTE_DEST(e);
	bool level = rte_level(e);
	u8 mode = (u8)IOAPIC_RTE_DELMODE(e);

	/* 82093AA 3.2.4: delivery modes 011 and 110 are reserved (110 is an APIC's STARTUP,
	 * which no IOAPIC sends): such an entry sends nothing. */
	if (mode == 3 || mode == 6) {
		io->reserved_mode++;
		return;
	}

	if (level)
		io->rte[pin] |= IOAPIC_RTE_REMOTE_IRR;
	io->deliveries++;
	if (io->ops && io->ops->deliver)
		io->ops->deliver(io->ctx, e & IOAPIC_RTE_VECTOR, mode, e & IOAPIC_RTE_LOGICAL,
				 dest == 0xff ? 0xffffffffu : dest, level);
}

/* A level entry fires while its line is asserted, it is unmasked and no earlier
 * delivery waits for its EOI. */
static void check_level(struct vioapic *io, unsigned pin)
{
	u64 e = io->rte[pin];

	if (rte_level(e) && (io->lines & (1u << pin)) &&
	    !(e & (IOAPIC_RTE_MASKED | IOAPIC_RTE_REMOTE_IRR)))
		deliver_pin(io, pin);
}

void vioapic_set_irq(struct vioapic *io, unsigned pin, bool high)
{
	u32 bit, old;

	if (pin >= VIOAPIC_PINS)
		return;
	bit = 1u << pin;
	old = io->lines & bit;
	if (high)
		io->lines |= bit;
	else
		io->lines &= ~bit;
	if (rte_level(io->rte[pin]))
		check_level(io, pin);
	else if (high && !old && !(io->rte[pin] & IOAPIC_RTE_MASKED))
		deliver_pin(io, pin); /* masked edges are discarded (82093AA 3.2.4) */
}

void vioapic_eoi(struct vioapic *io, u8 vector)
{
	for (unsigned pin = 0; pin < VIOAPIC_PINS; pin++) {
		u64 e = io->rte[pin];

		if ((e & IOAPIC_RTE_VECTOR) != vector || !(e & IOAPIC_RTE_REMOTE_IRR))
			continue;
		io->rte[pin] &= ~IOAPIC_RTE_REMOTE_IRR;
		check_level(io, pin);
	}
}

static u32 read_reg(struct vioapic *io, u32 reg)
{
	unsigned pin;

	switch (reg) {
	case IOAPIC_REG_ID:
		return (u32)io->id << 24;
	case IOAPIC_REG_VERSION:
		return VIOAPIC_VERSION;
	case IOAPIC_REG_ARB:
		return (u32)io->id << 24;
	}
	if (reg < IOAPIC_REG_REDIR || reg >= IOAPIC_REG_REDIR + 2 * VIOAPIC_PINS)
		return 0;
	pin = (reg - IOAPIC_REG_REDIR) / 2;
	return reg & 1 ? (u32)(io->rte[pin] >> 32) : (u32)io->rte[pin];
}

static void write_reg(struct vioapic *io, u32 reg, u32 val)
{
	unsigned pin;
	u64 e;

	if (reg == IOAPIC_REG_ID) {
		io->id = (val >> 24) & 0xf;
		return;
	}
	if (reg < IOAPIC_REG_REDIR || reg >= IOAPIC_REG_REDIR + 2 * VIOAPIC_PINS)
		return; /* version, arbitration: read-only */
	pin = (reg - IOAPIC_REG_REDIR) / 2;
	e = io->rte[pin];
	if (reg & 1) {
		io->rte[pin] = (e & ~RTE_WRITABLE_HI) | (((u64)val << 32) & RTE_WRITABLE_HI);
		return;
	}
	e = (e & (~0xffffffffull | IOAPIC_RTE_REMOTE_IRR)) | (val & RTE_WRITABLE_LO);
	/* Remote IRR is undefined for edge entries: clear it. Linux relies on this to
	 * clear a stuck remote IRR on IOAPICs without an EOI register (level -> edge ->
	 * level). */
	if (!rte_level(e))
		e &= ~IOAPIC_RTE_REMOTE_IRR;
	io->rte[pin] = e;
	/* Unmasking (or turning into level) with the line asserted delivers. */
	check_level(io, pin);
}

u32 vioapic_mmio_read(struct vioapic *io, u64 offset)
{
	if (offset == IOAPIC_REGSEL)
		return io->regsel;
	if (offset == IOAPIC_WINDOW)
		return read_reg(io, io->regsel);
	return 0;
}

void vioapic_mmio_write(struct vioapic *io, u64 offset, u32 val)
{
	if (offset == IOAPIC_REGSEL)
		io->regsel = val & 0xff;
	else if (offset == IOAPIC_WINDOW)
		write_reg(io, io->regsel, val);
}

u64 vioapic_io_read(void *ioapic, u64 offset, unsigned size)
{
	(void)size; /* 32-bit registers */
	return vioapic_mmio_read(ioapic, offset);
}

void vioapic_io_write(void *ioapic, u64 offset, unsigned size, u64 val)
{
	(void)size;
	vioapic_mmio_write(ioapic, offset, (u32)val);
}
