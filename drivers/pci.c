/* SPDX-License-Identifier: GPL-2.0-only */
/* PCI configuration space through ECAM (see pci.h). Accesses are single loads and
 * stores of their width at naturally aligned offsets, as ECAM requires; PCI is little
 * endian, as both architectures run here. */
#include "drivers/pci.h"

/* Host unit tests define this to play the device's side of a write (BAR sizing). */
#ifndef PCI_CFG_WRITTEN
#define PCI_CFG_WRITTEN(addr, bytes) ((void)0)
#endif

#define PCI_BAR_IO BIT(0)
#define PCI_BAR_MEM_TYPE_64 (2u << 1) /* memory BAR type [2:1]: 0 32-bit, 2 64-bit */
#define PCI_BAR_MEM_TYPE_MASK (3u << 1)
#define PCI_BAR_PREFETCH BIT(3)
#define PCI_CAP_MIN 0x40 /* capabilities live after the 64-byte header */
#define PCI_CAP_MAX_WALK 48

u64 pci_ecam_addr(const struct acpi_mcfg_entry *w, u8 bus, u8 dev, u8 fn)
{
	return w->base + ((u64)bus << 20 | (u64)(dev & 31) << 15 | (u64)(fn & 7) << 12);
}

static volatile void *cfg(const struct pci_dev *d, u16 off)
{
	return (volatile void *)(uintptr_t)(d->cfg + (off & 0xFFF));
}

u8 pci_read8(const struct pci_dev *d, u16 off) { return *(volatile u8 *)cfg(d, off); }

u16 pci_read16(const struct pci_dev *d, u16 off) { return *(volatile u16 *)cfg(d, off & ~1); }

u32 pci_read32(const struct pci_dev *d, u16 off) { return *(volatile u32 *)cfg(d, off & ~3); }

void pci_write8(const struct pci_dev *d, u16 off, u8 v)
{
	*(volatile u8 *)cfg(d, off) = v;
	PCI_CFG_WRITTEN(d->cfg + (off & 0xFFF), 1);
}

void pci_write16(const struct pci_dev *d, u16 off, u16 v)
{
	*(volatile u16 *)cfg(d, off & ~1) = v;
	PCI_CFG_WRITTEN(d->cfg + (off & 0xFFE), 2);
}

void pci_write32(const struct pci_dev *d, u16 off, u32 v)
{
	*(volatile u32 *)cfg(d, off & ~3) = v;
	PCI_CFG_WRITTEN(d->cfg + (off & 0xFFC), 4);
}

/* Fills *d for bus/dev/fn; false when no function answers there (vendor ID all ones). */
static bool probe_fn(const struct acpi_mcfg_entry *w, u8 bus, u8 dev, u8 fn, struct pci_dev *d)
{
	*d = (struct pci_dev){ .cfg = pci_ecam_addr(w, bus, dev, fn),
			       .segment = w->segment,
			       .bus = bus,
			       .dev = dev,
			       .fn = fn };
	d->vendor = pci_read16(d, PCI_VENDOR_ID);
	if (d->vendor == 0xFFFF || d->vendor == 0)
		return false;
	d->device = pci_read16(d, PCI_DEVICE_ID);
	d->class_rev = pci_read32(d, PCI_CLASS_REV);
	d->header_type = pci_read8(d, PCI_HEADER_TYPE);
	return true;
}

int pci_scan(const struct acpi_mcfg_entry *w, int (*fn)(const struct pci_dev *d, void *arg),
	     void *arg)
{
	for (u32 bus = w->start_bus; bus <= w->end_bus; bus++) {
		for (u8 dev = 0; dev < 32; dev++) {
			struct pci_dev d;
			if (!probe_fn(w, (u8)bus, dev, 0, &d))
				continue; /* no function 0: no device (PCI 3.0, 6.2.1) */
			u8 nfn = d.header_type & PCI_HEADER_MULTI_FUNCTION ? 8 : 1;
			for (u8 f = 0; f < nfn; f++) {
				if (f && !probe_fn(w, (u8)bus, dev, f, &d))
					continue;
				d.header_type &= (u8)~PCI_HEADER_MULTI_FUNCTION;
				int r = fn(&d, arg);
				if (r)
					return r;
			}
		}
	}
	return 0;
}

/* Writes all ones to the register, reads what sticks, puts the value back. */
static u32 size_probe(const struct pci_dev *d, u16 off, u32 *orig)
{
	*orig = pci_read32(d, off);
	pci_write32(d, off, ~0u);
	u32 mask = pci_read32(d, off);
	pci_write32(d, off, *orig);
	return mask;
}

int pci_bar(const struct pci_dev *d, u32 index, struct pci_bar *out)
{
	u32 nbars = (d->header_type & 0x7F) == 1 ? 2 : (d->header_type & 0x7F) == 0 ? 6 : 0;
	*out = (struct pci_bar){ 0 };
	/* A 64-bit memory BAR's upper half is not a BAR of its own. */
	for (u32 i = 0; i < index && i < nbars; i++) {
		u32 v = pci_read32(d, (u16)(PCI_BAR0 + 4 * i));
		if (!(v & PCI_BAR_IO) && (v & PCI_BAR_MEM_TYPE_MASK) == PCI_BAR_MEM_TYPE_64) {
			if (++i == index)
				return -1;
		}
	}
	if (index >= nbars)
		return -1;
	u16 off = (u16)(PCI_BAR0 + 4 * index);
	u32 lo = pci_read32(d, off);
	out->io = lo & PCI_BAR_IO;
	out->is64 = !out->io && (lo & PCI_BAR_MEM_TYPE_MASK) == PCI_BAR_MEM_TYPE_64;
	out->prefetchable = !out->io && (lo & PCI_BAR_PREFETCH);
	if (out->is64 && index + 1 >= nbars)
		return -1; /* a 64-bit BAR in the last slot: malformed */

	/* Sizing (PCI 3.0, 6.2.5.1) with decoding off, so that the all-ones value the BAR
	 * holds meanwhile claims no address range. */
	u16 cmd = pci_read16(d, PCI_COMMAND);
	pci_write16(d, PCI_COMMAND, cmd & (u16) ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
	u32 orig_lo, orig_hi = 0, mask_hi = 0;
	u32 mask_lo = size_probe(d, off, &orig_lo);
	if (out->is64)
		mask_hi = size_probe(d, (u16)(off + 4), &orig_hi);
	pci_write16(d, PCI_COMMAND, cmd);

	if (out->io) {
		out->addr = orig_lo & ~3u;
		u32 m = mask_lo & ~3u;
		if (m && !(m & 0xFFFF0000u))
			m |= 0xFFFF0000u; /* a 16-bit I/O BAR: upper bits hardwired to 0 */
		out->size = m ? (u32)(~m + 1) : 0;
		return 0;
	}
	out->addr = (orig_lo & ~0xFull) | (u64)orig_hi << 32;
	u64 m = (mask_lo & ~0xFull) | (u64)mask_hi << 32;
	if (!out->is64 && m)
		m |= 0xFFFFFFFF00000000ull;
	out->size = m ? ~m + 1 : 0;
	return 0;
}

u8 pci_find_cap(const struct pci_dev *d, u8 id, u8 after)
{
	if (!(pci_read16(d, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return 0;
	u8 p = after ? pci_read8(d, (u16)(after + 1)) : pci_read8(d, PCI_CAP_PTR);
	for (u32 n = 0; n < PCI_CAP_MAX_WALK; n++) {
		p &= (u8)~3;
		if (p < PCI_CAP_MIN)
			return 0;
		if (pci_read8(d, p) == id)
			return p;
		p = pci_read8(d, (u16)(p + 1));
	}
	return 0;
}

void pci_enable_mmio_dma(const struct pci_dev *d)
{
	u16 cmd = pci_read16(d, PCI_COMMAND);
	pci_write16(d, PCI_COMMAND,
		    cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER | PCI_COMMAND_INTX_DISABLE);
}
