/* SPDX-License-Identifier: GPL-2.0-only */
/* drivers/pci.c on a made-up ECAM window (fake_pci.h): addresses of bus/device/function,
 * enumeration (multi-function devices, a window whose buses do not start at 0), BAR
 * decoding and sizing (32- and 64-bit memory, I/O, absent, the upper half of a 64-bit
 * BAR), the capability walk (including a looping list) and the command register. */
#include "../../../drivers/acpi.c"
#include "../fake_pci.h"
#include "../test.h"

struct seen {
	unsigned n, stop_at;
	struct pci_dev d[16];
};

static int record(const struct pci_dev *d, void *arg)
{
	struct seen *s = arg;
	s->d[s->n++] = *d;
	return s->n == s->stop_at ? 7 : 0;
}

static void test_ecam_addr(void)
{
	struct acpi_mcfg_entry w = { .base = 0xB0000000, .start_bus = 0, .end_bus = 255 };
	CHECK_EQ(pci_ecam_addr(&w, 0, 0, 0), 0xB0000000);
	CHECK_EQ(pci_ecam_addr(&w, 1, 2, 3), 0xB0000000 + (1 << 20) + (2 << 15) + (3 << 12));
	CHECK_EQ(pci_ecam_addr(&w, 255, 31, 7), 0xB0000000 + 0x0FFFF000ull);
	/* the base is bus 0's even when the window starts at bus 0x80 */
	w = (struct acpi_mcfg_entry){ .base = 0x3FFF0000000ull, .start_bus = 0x80 };
	CHECK_EQ(pci_ecam_addr(&w, 0x80, 0, 0), 0x3FFF0000000ull + (0x80ull << 20));
}

static void test_scan(void)
{
	struct seen s = { 0 };

	fake_ecam_init(0x10, 0x12);
	fake_fn_add(0x10, 0, 0, 0x8086, 0x29C0, 0);    /* host bridge */
	fake_fn_add(0x10, 3, 0, 0x8086, 0x2918, 0x80); /* multi-function: 0, 2, 7 */
	fake_fn_add(0x10, 3, 2, 0x8086, 0x2922, 0);
	fake_fn_add(0x10, 3, 7, 0x8086, 0x2930, 0);
	fake_fn_add(0x10, 5, 1, 0x1AF4, 0x1041, 0);    /* no function 0: not scanned */
	fake_fn_add(0x10, 6, 0, 0x1B36, 0x000C, 0x01); /* a bridge */
	fake_fn_add(0x10, 6, 1, 0x1AF4, 0x1041, 0);    /* fn 0 not multi-function */
	fake_fn_add(0x12, 31, 0, 0x1AF4, 0x1041, 0);
	CHECK_EQ(pci_scan(&fake_win, record, &s), 0);
	CHECK_EQ(s.n, 6);
	CHECK_EQ(s.d[1].dev, 3);
	CHECK_EQ(s.d[1].fn, 0);
	CHECK_EQ(s.d[1].header_type, 0); /* the multi-function bit taken off */
	CHECK_EQ(s.d[2].fn, 2);
	CHECK_EQ(s.d[3].fn, 7);
	CHECK_EQ(s.d[3].device, 0x2930);
	CHECK_EQ(s.d[4].header_type, 1);
	CHECK_EQ(s.d[5].bus, 0x12);
	CHECK_EQ(s.d[5].dev, 31);
	CHECK_EQ(s.d[5].vendor, 0x1AF4);
	CHECK_EQ(s.d[5].class_rev, 0x02000001);
	CHECK_EQ(s.d[5].cfg, (u64)(uintptr_t)fake_ecam + (2 << 20) + (31 << 15));
	/* fn's non-zero answer stops the scan and is returned */
	s = (struct seen){ .stop_at = 2 };
	CHECK_EQ(pci_scan(&fake_win, record, &s), 7);
	CHECK_EQ(s.n, 2);
}

static void test_bars(void)
{
	struct pci_bar b;
	struct pci_dev d = { 0 };

	fake_ecam_init(0, 0);
	u8 *c = fake_fn_add(0, 1, 0, 0x1AF4, 0x1041, 0);
	w16(c + PCI_COMMAND, PCI_COMMAND_MEMORY | PCI_COMMAND_IO);
	fake_bar(c, 0, 0xC000, 0x20, 1);		  /* I/O, 32 ports */
	fake_bar(c, 1, 0xFEB00000, 0x1000, 0);		  /* 32-bit memory */
	fake_bar(c, 2, 0x380000004000ull, 0x4000, 4 | 8); /* 64-bit prefetchable */
	fake_bar(c, 5, 0x80000000, 0x10000000, 8);	  /* 256 MiB, prefetchable */
	d.cfg = (u64)(uintptr_t)c;
	d.header_type = 0;

	CHECK_EQ(pci_bar(&d, 0, &b), 0);
	CHECK(b.io);
	CHECK_EQ(b.addr, 0xC000);
	CHECK_EQ(b.size, 0x20);
	CHECK_EQ(pci_bar(&d, 1, &b), 0);
	CHECK(!b.io && !b.is64 && !b.prefetchable);
	CHECK_EQ(b.addr, 0xFEB00000);
	CHECK_EQ(b.size, 0x1000);
	CHECK_EQ(pci_bar(&d, 2, &b), 0);
	CHECK(b.is64 && b.prefetchable);
	CHECK_EQ(b.addr, 0x380000004000ull);
	CHECK_EQ(b.size, 0x4000);
	CHECK_EQ(pci_bar(&d, 3, &b), -1); /* the upper half of BAR 2 */
	CHECK_EQ(pci_bar(&d, 4, &b), 0);  /* not implemented */
	CHECK_EQ(b.size, 0);
	CHECK_EQ(pci_bar(&d, 5, &b), 0);
	CHECK_EQ(b.addr, 0x80000000);
	CHECK_EQ(b.size, 0x10000000);
	CHECK_EQ(pci_bar(&d, 6, &b), -1);
	/* sizing put back the addresses and the command register */
	CHECK_EQ(rd32(c + PCI_BAR0 + 8), 0x4000 | 0xC);
	CHECK_EQ(rd32(c + PCI_BAR0 + 12), 0x3800);
	CHECK_EQ(rd32(c + PCI_BAR0), 0xC001);
	CHECK_EQ(rd16(c + PCI_COMMAND), PCI_COMMAND_MEMORY | PCI_COMMAND_IO);
	/* a 64-bit BAR in the last slot is malformed; a bridge has two BARs */
	fake_bar(c, 5, 0x80000000, 0x1000, 4);
	CHECK_EQ(pci_bar(&d, 5, &b), -1);
	d.header_type = 1;
	CHECK_EQ(pci_bar(&d, 1, &b), 0);
	CHECK_EQ(pci_bar(&d, 2, &b), -1);
	d.header_type = 2; /* CardBus: none decoded */
	CHECK_EQ(pci_bar(&d, 0, &b), -1);
}

static void test_caps(void)
{
	struct pci_dev d = { 0 };

	fake_ecam_init(0, 0);
	u8 *c = fake_fn_add(0, 2, 0, 0x1AF4, 0x1041, 0);
	d.cfg = (u64)(uintptr_t)c;
	CHECK_EQ(pci_find_cap(&d, PCI_CAP_VENDOR, 0), 0); /* no list */
	u8 msix = fake_cap(c, 0x11, 12);
	u8 v1 = fake_cap(c, PCI_CAP_VENDOR, 16);
	u8 v2 = fake_cap(c, PCI_CAP_VENDOR, 20);
	CHECK_EQ(msix, 0x40);
	CHECK_EQ(pci_find_cap(&d, 0x11, 0), msix);
	CHECK_EQ(pci_find_cap(&d, PCI_CAP_VENDOR, 0), v1);
	CHECK_EQ(pci_find_cap(&d, PCI_CAP_VENDOR, v1), v2);
	CHECK_EQ(pci_find_cap(&d, PCI_CAP_VENDOR, v2), 0);
	CHECK_EQ(pci_find_cap(&d, 0x10, 0), 0);
	/* low pointer bits are reserved; a loop ends the walk; so does a pointer into the
	 * header */
	c[PCI_CAP_PTR] = (u8)(msix | 2);
	CHECK_EQ(pci_find_cap(&d, PCI_CAP_VENDOR, 0), v1);
	c[v2 + 1] = msix;
	CHECK_EQ(pci_find_cap(&d, 0x10, 0), 0);
	c[v1 + 1] = 0x20;
	CHECK_EQ(pci_find_cap(&d, PCI_CAP_VENDOR, v1), 0);
	w16(c + PCI_STATUS, 0);
	CHECK_EQ(pci_find_cap(&d, 0x11, 0), 0);
}

static void test_enable(void)
{
	struct pci_dev d = { 0 };
	fake_ecam_init(0, 0);
	u8 *c = fake_fn_add(0, 2, 0, 0x1AF4, 0x1041, 0);
	d.cfg = (u64)(uintptr_t)c;
	w16(c + PCI_COMMAND, PCI_COMMAND_IO);
	pci_enable_mmio_dma(&d);
	CHECK_EQ(rd16(c + PCI_COMMAND), PCI_COMMAND_IO | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER |
						PCI_COMMAND_INTX_DISABLE);
	pci_write8(&d, 0x3C, 0x0B);
	CHECK_EQ(pci_read8(&d, 0x3C), 0x0B);
	CHECK_EQ(pci_read32(&d, 0), 0x10411AF4);
	CHECK_EQ(pci_read16(&d, 3), 0x1041); /* an unaligned offset rounds down */
}

int main(void)
{
	test_ecam_addr();
	test_scan();
	test_bars();
	test_caps();
	test_enable();
	return test_summary();
}
