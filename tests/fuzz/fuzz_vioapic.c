/* SPDX-License-Identifier: GPL-2.0-only */
/* The virtual IOAPIC (arch/x86/irq/vioapic.c) through its MMIO callbacks, with device lines
 * and local APIC EOIs. Input: operations, each an opcode byte and its arguments:
 *   0 MMIO read: offset (2 bytes, in the 4 KiB page), size (1, 2, 4, 8 by bits 0-1)
 *   1 MMIO write: offset, size, value (4 bytes)
 *   2 register write: IOREGSEL (1 byte) then IOWIN (4 bytes), as Linux writes an entry
 *   3 register read: IOREGSEL, then IOWIN read
 *   4 a device line: pin (0..31: past the 24 pins too), level (bit 7 of the pin byte)
 *   other: EOI of a vector (1 byte)
 * Checked: what it delivers has a delivery mode an IOAPIC sends, a level trigger only
 * for fixed and lowest priority, and an APIC ID or the x2APIC broadcast as destination;
 * remote IRR is set only on level entries; and no level interrupt waits undelivered (an
 * unmasked level entry with its line asserted has remote IRR set). */
#include "../../arch/x86/irq/vioapic.c"
#include "fuzz.h"

static void deliver_cb(void *ctx, u8 vector, u8 mode, bool logical, u32 dest, bool level)
{
	(void)ctx;
	(void)vector;
	(void)logical;
	FUZZ_CHECK(mode != 3 && mode != 6 && mode <= 7);
	FUZZ_CHECK(!level || mode <= 1);
	FUZZ_CHECK(dest < 0xff || dest == 0xffffffffu);
}

static void check(const struct vioapic *io)
{
	for (unsigned pin = 0; pin < VIOAPIC_PINS; pin++) {
		u64 e = io->rte[pin];
		FUZZ_CHECK(!(e & IOAPIC_RTE_REMOTE_IRR) || rte_level(e));
		if (rte_level(e) && (io->lines & BIT(pin)) && !(e & IOAPIC_RTE_MASKED))
			FUZZ_CHECK(e & IOAPIC_RTE_REMOTE_IRR);
	}
	FUZZ_CHECK(io->regsel <= 0xff && io->id <= 0xf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct vioapic_ops ops = { deliver_cb };
	static const unsigned sizes[4] = { 1, 2, 4, 8 };
	struct fuzz_in in = { data, size };
	struct vioapic io;

	vioapic_init(&io, 0, &ops, NULL);
	while (in.n) {
		u8 op = take_u8(&in), a;
		u64 off;
		switch (op % 6) {
		case 0:
			off = take_u16(&in) % VIOAPIC_SIZE;
			vioapic_io_read(&io, off, sizes[take_u8(&in) & 3]);
			break;
		case 1:
			off = take_u16(&in) % VIOAPIC_SIZE;
			a = take_u8(&in);
			vioapic_io_write(&io, off, sizes[a & 3], take_u32(&in));
			break;
		case 2:
			vioapic_io_write(&io, IOAPIC_REGSEL, 4, take_u8(&in));
			vioapic_io_write(&io, IOAPIC_WINDOW, 4, take_u32(&in));
			break;
		case 3:
			vioapic_io_write(&io, IOAPIC_REGSEL, 4, take_u8(&in));
			if (io.regsel == IOAPIC_REG_VERSION)
				FUZZ_CHECK(vioapic_io_read(&io, IOAPIC_WINDOW, 4) ==
					   VIOAPIC_VERSION);
			vioapic_io_read(&io, IOAPIC_WINDOW, 4);
			break;
		case 4:
			a = take_u8(&in);
			vioapic_set_irq(&io, a & 31, a >> 7);
			break;
		default:
			vioapic_eoi(&io, take_u8(&in));
		}
		check(&io);
	}
	return 0;
}
