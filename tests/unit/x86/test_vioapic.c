/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual IOAPIC: registers, edge and level pins, masking, remote IRR, EOI. */
#include "../../../arch/x86/irq/vioapic.c"
#include "../test.h"

static struct {
	u8 vector, mode;
	bool logical, level;
	u32 dest;
} last;
static int ndeliv;

static void mock_deliver(void *ctx, u8 vector, u8 mode, bool logical, u32 dest, bool level)
{
	(void)ctx;
	last.vector = vector;
	last.mode = mode;
	last.logical = logical;
	last.dest = dest;
	last.level = level;
	ndeliv++;
}

static const struct vioapic_ops mock_ops = { mock_deliver };

static u32 rd(struct vioapic *io, u32 reg)
{
	vioapic_mmio_write(io, IOAPIC_REGSEL, reg);
	return vioapic_mmio_read(io, IOAPIC_WINDOW);
}

static void wr(struct vioapic *io, u32 reg, u32 val)
{
	vioapic_mmio_write(io, IOAPIC_REGSEL, reg);
	vioapic_mmio_write(io, IOAPIC_WINDOW, val);
}

static void set_rte(struct vioapic *io, unsigned pin, u32 lo, u32 dest)
{
	wr(io, 0x11 + 2 * pin, dest << 24);
	wr(io, 0x10 + 2 * pin, lo);
}

static void test_registers(void)
{
	struct vioapic io;

	vioapic_init(&io, 2, &mock_ops, NULL);
	CHECK_EQ(rd(&io, 0x00), 0x02000000);
	CHECK_EQ(rd(&io, 0x01), 0x00170011);
	CHECK_EQ(rd(&io, 0x02), 0x02000000);
	for (unsigned pin = 0; pin < 24; pin++) {
		CHECK_EQ(rd(&io, 0x10 + 2 * pin), 0x10000);
		CHECK_EQ(rd(&io, 0x11 + 2 * pin), 0);
	}
	CHECK_EQ(rd(&io, 0x40), 0);
	CHECK_EQ(rd(&io, 0x03), 0);
	CHECK_EQ(rd(&io, 0xff), 0);

	/* IOREGSEL: 8 bits, reads back. */
	vioapic_mmio_write(&io, IOAPIC_REGSEL, 0x123);
	CHECK_EQ(vioapic_mmio_read(&io, IOAPIC_REGSEL), 0x23);
	/* Other offsets: read 0, writes ignored. */
	vioapic_mmio_write(&io, IOAPIC_REGSEL, 0x10);
	vioapic_mmio_write(&io, 0x04, 0x55);
	vioapic_mmio_write(&io, 0x14, 0x55);
	vioapic_mmio_write(&io, 0x40, 0x55);
	CHECK_EQ(vioapic_mmio_read(&io, 0x04), 0);
	CHECK_EQ(vioapic_mmio_read(&io, 0x20), 0);
	CHECK_EQ(vioapic_mmio_read(&io, IOAPIC_REGSEL), 0x10);
	CHECK_EQ(rd(&io, 0x10), 0x10000);

	/* ID: bits 27:24 only; arbitration follows; version is read-only. */
	wr(&io, 0x00, 0xffffffff);
	CHECK_EQ(rd(&io, 0x00), 0x0f000000);
	CHECK_EQ(rd(&io, 0x02), 0x0f000000);
	wr(&io, 0x01, 0);
	wr(&io, 0x02, 0);
	CHECK_EQ(rd(&io, 0x01), 0x00170011);
	CHECK_EQ(rd(&io, 0x02), 0x0f000000);

	/* Redirection entry: delivery status, remote IRR and 31:17 are not writable;
	 * high dword keeps 63:49. */
	wr(&io, 0x10 + 2 * 5, 0xffffffff);
	CHECK_EQ(rd(&io, 0x10 + 2 * 5), 0x1afff);
	wr(&io, 0x11 + 2 * 5, 0xffffffff);
	CHECK_EQ(rd(&io, 0x11 + 2 * 5), 0xfffe0000);
	wr(&io, 0x10 + 2 * 23, 0x0000a9f1);
	CHECK_EQ(rd(&io, 0x10 + 2 * 23), 0xa9f1);
	wr(&io, 0x11 + 2 * 23, 0x03000000);
	CHECK_EQ(rd(&io, 0x11 + 2 * 23), 0x03000000);
	CHECK_EQ(rd(&io, 0x10 + 2 * 22), 0x10000);
	CHECK_EQ(ndeliv, 0);
}

static void test_edge(void)
{
	struct vioapic io;

	vioapic_init(&io, 0, &mock_ops, NULL);
	ndeliv = 0;
	/* Masked at reset: nothing. */
	vioapic_set_irq(&io, 4, true);
	vioapic_set_irq(&io, 4, false);
	CHECK_EQ(ndeliv, 0);

	set_rte(&io, 4, 0x34, 1);
	vioapic_set_irq(&io, 4, true);
	CHECK_EQ(ndeliv, 1);
	CHECK_EQ(last.vector, 0x34);
	CHECK_EQ(last.mode, 0);
	CHECK(!last.logical);
	CHECK(!last.level);
	CHECK_EQ(last.dest, 1);
	CHECK_EQ(rd(&io, 0x10 + 2 * 4), 0x34); /* no remote IRR for edge */
	/* Staying high is not a new edge. */
	vioapic_set_irq(&io, 4, true);
	CHECK_EQ(ndeliv, 1);
	vioapic_set_irq(&io, 4, false);
	CHECK_EQ(ndeliv, 1);
	vioapic_set_irq(&io, 4, true);
	CHECK_EQ(ndeliv, 2);
	vioapic_set_irq(&io, 4, false);
	/* EOI means nothing to an edge pin. */
	vioapic_eoi(&io, 0x34);
	CHECK_EQ(ndeliv, 2);

	/* A masked edge is lost, also when unmasked while the line is high. */
	set_rte(&io, 4, 0x10034, 1);
	vioapic_set_irq(&io, 4, true);
	set_rte(&io, 4, 0x34, 1);
	CHECK_EQ(ndeliv, 2);
	vioapic_set_irq(&io, 4, false);

	/* Logical mode, lowest priority, broadcast 0xFF -> 0xFFFFFFFF. */
	set_rte(&io, 6, 0x0941, 0xff);
	vioapic_set_irq(&io, 6, true);
	CHECK_EQ(ndeliv, 3);
	CHECK_EQ(last.vector, 0x41);
	CHECK_EQ(last.mode, 1);
	CHECK(last.logical);
	CHECK_EQ(last.dest, 0xffffffff);
	/* The extended destination ID is ignored. */
	wr(&io, 0x11 + 2 * 7, 0x05fe0000);
	wr(&io, 0x10 + 2 * 7, 0x42);
	vioapic_set_irq(&io, 7, true);
	CHECK_EQ(last.dest, 5);
	/* NMI pin */
	set_rte(&io, 2, 0x400, 0);
	vioapic_set_irq(&io, 2, true);
	CHECK_EQ(ndeliv, 5);
	CHECK_EQ(last.mode, 4);
	CHECK(!last.level);

	/* Pins out of range are ignored. */
	vioapic_set_irq(&io, 24, true);
	vioapic_set_irq(&io, 1000, true);
	CHECK_EQ(ndeliv, 5);
	CHECK_EQ(io.deliveries, 5);
}

static void test_level(void)
{
	struct vioapic io;
	const u32 lvl = IOAPIC_RTE_LEVEL | IOAPIC_RTE_POLARITY; /* active low, as for PCI */

	vioapic_init(&io, 0, &mock_ops, NULL);
	ndeliv = 0;
	set_rte(&io, 9, lvl | 0x39, 2);
	CHECK_EQ(ndeliv, 0);
	vioapic_set_irq(&io, 9, true);
	CHECK_EQ(ndeliv, 1);
	CHECK_EQ(last.vector, 0x39);
	CHECK(last.level);
	CHECK_EQ(last.dest, 2);
	CHECK_EQ(rd(&io, 0x10 + 2 * 9), lvl | 0x39 | IOAPIC_RTE_REMOTE_IRR);
	/* Still asserted, remote IRR set: nothing more. */
	vioapic_set_irq(&io, 9, true);
	CHECK_EQ(ndeliv, 1);
	/* EOI of another vector: nothing. */
	vioapic_eoi(&io, 0x38);
	CHECK_EQ(ndeliv, 1);
	/* EOI while still asserted: delivered again. */
	vioapic_eoi(&io, 0x39);
	CHECK_EQ(ndeliv, 2);
	CHECK(rd(&io, 0x10 + 2 * 9) & IOAPIC_RTE_REMOTE_IRR);
	/* Device deasserts, then the EOI: remote IRR clears, no redelivery. */
	vioapic_set_irq(&io, 9, false);
	CHECK_EQ(ndeliv, 2);
	vioapic_eoi(&io, 0x39);
	CHECK_EQ(ndeliv, 2);
	CHECK(!(rd(&io, 0x10 + 2 * 9) & IOAPIC_RTE_REMOTE_IRR));
	/* Asserting again delivers. */
	vioapic_set_irq(&io, 9, true);
	CHECK_EQ(ndeliv, 3);

	/* Rewriting the entry (new destination) keeps remote IRR: the guest cannot
	 * clear it by writing 0 to bit 14. */
	set_rte(&io, 9, lvl | 0x39, 3);
	CHECK(rd(&io, 0x10 + 2 * 9) & IOAPIC_RTE_REMOTE_IRR);
	CHECK_EQ(ndeliv, 3);
	vioapic_eoi(&io, 0x39);
	CHECK_EQ(ndeliv, 4);
	CHECK_EQ(last.dest, 3);

	/* Masked while asserted: nothing; unmasking delivers. */
	vioapic_set_irq(&io, 9, false);
	vioapic_eoi(&io, 0x39);
	set_rte(&io, 9, IOAPIC_RTE_MASKED | lvl | 0x39, 3);
	vioapic_set_irq(&io, 9, true);
	CHECK_EQ(ndeliv, 4);
	vioapic_eoi(&io, 0x39);
	CHECK_EQ(ndeliv, 4);
	set_rte(&io, 9, lvl | 0x39, 3);
	CHECK_EQ(ndeliv, 5);
	CHECK(rd(&io, 0x10 + 2 * 9) & IOAPIC_RTE_REMOTE_IRR);
	/* Masking with remote IRR set, EOI, unmask: delivered once on unmask. */
	set_rte(&io, 9, IOAPIC_RTE_MASKED | lvl | 0x39, 3);
	vioapic_eoi(&io, 0x39);
	CHECK_EQ(ndeliv, 5);
	set_rte(&io, 9, lvl | 0x39, 3);
	CHECK_EQ(ndeliv, 6);

	/* Linux's remote IRR flush for IOAPICs without an EOI register: level ->
	 * edge (masked) clears remote IRR, back to level redelivers if asserted. */
	wr(&io, 0x10 + 2 * 9, IOAPIC_RTE_MASKED | 0x39);
	CHECK(!(rd(&io, 0x10 + 2 * 9) & IOAPIC_RTE_REMOTE_IRR));
	CHECK_EQ(ndeliv, 6);
	wr(&io, 0x10 + 2 * 9, IOAPIC_RTE_MASKED | lvl | 0x39);
	CHECK_EQ(ndeliv, 6);
	wr(&io, 0x10 + 2 * 9, lvl | 0x39);
	CHECK_EQ(ndeliv, 7);
	vioapic_set_irq(&io, 9, false);
	vioapic_eoi(&io, 0x39);

	/* Two level pins share a vector: one EOI releases both. */
	set_rte(&io, 10, lvl | 0x50, 0);
	set_rte(&io, 11, lvl | 0x50, 1);
	vioapic_set_irq(&io, 10, true);
	vioapic_set_irq(&io, 11, true);
	CHECK_EQ(ndeliv, 9);
	vioapic_set_irq(&io, 10, false);
	vioapic_eoi(&io, 0x50);
	CHECK_EQ(ndeliv, 10);
	CHECK_EQ(last.dest, 1);
	CHECK(!(rd(&io, 0x10 + 2 * 10) & IOAPIC_RTE_REMOTE_IRR));
	CHECK(rd(&io, 0x10 + 2 * 11) & IOAPIC_RTE_REMOTE_IRR);

	/* Level-triggered NMI is delivered as an edge and never sets remote IRR. */
	set_rte(&io, 12, IOAPIC_RTE_LEVEL | 0x400, 0);
	vioapic_set_irq(&io, 12, true);
	CHECK_EQ(ndeliv, 11);
	CHECK_EQ(last.mode, 4);
	CHECK(!last.level);
	CHECK(!(rd(&io, 0x10 + 2 * 12) & IOAPIC_RTE_REMOTE_IRR));
	vioapic_set_irq(&io, 12, true);
	CHECK_EQ(ndeliv, 11);
	CHECK_EQ(io.deliveries, 11);

	/* No ops: counted, no crash. */
	vioapic_init(&io, 0, NULL, NULL);
	set_rte(&io, 1, 0x31, 0);
	vioapic_set_irq(&io, 1, true);
	CHECK_EQ(io.deliveries, 1);
}

/* The device-bus callbacks reach the same registers. */
static void test_io_callbacks(void)
{
	struct vioapic io;

	vioapic_init(&io, 2, &mock_ops, NULL);
	vioapic_io_write(&io, IOAPIC_REGSEL, 4, 0x01);
	CHECK_EQ(vioapic_io_read(&io, IOAPIC_WINDOW, 4), 0x00170011);
}

/* Delivery modes 3 and 6 are reserved in an IOAPIC entry: nothing is sent (6 would be a
 * STARTUP IPI from a device line). */
static void test_reserved_modes(void)
{
	struct vioapic io;

	vioapic_init(&io, 2, &mock_ops, NULL);
	ndeliv = 0;
	set_rte(&io, 3, 0x600 | 0x30, 1); /* mode 110, vector 0x30 */
	vioapic_set_irq(&io, 3, true);
	vioapic_set_irq(&io, 3, false);
	set_rte(&io, 4, 0x300 | 0x31, 1); /* mode 011 */
	vioapic_set_irq(&io, 4, true);
	CHECK_EQ(ndeliv, 0);
	CHECK_EQ(io.reserved_mode, 2);
	set_rte(&io, 5, 0x500, 1); /* INIT (101) is valid */
	vioapic_set_irq(&io, 5, true);
	CHECK_EQ(ndeliv, 1);
	CHECK_EQ(last.mode, 5);
	ndeliv = 0;
}

int main(void)
{
	test_reserved_modes();
	test_io_callbacks();
	test_registers();
	test_edge();
	test_level();
	return test_summary();
}
