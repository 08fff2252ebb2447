/* SPDX-License-Identifier: GPL-2.0-only */
/* A made-up ECAM window in host memory for tests of drivers/pci.c and what builds on it:
 * absent functions read as all ones, present ones have a 4 KiB configuration space, and
 * BARs answer sizing as hardware does (the address bits below the size read as 0, the
 * flag bits stay), through the PCI_CFG_WRITTEN hook. Include before drivers/pci.c. */
#ifndef TESTS_UNIT_FAKE_PCI_H
#define TESTS_UNIT_FAKE_PCI_H

#include <stdlib.h>
#include <string.h>
#include "bytes.h"

static void fake_cfg_written(unsigned long long addr, unsigned bytes);
#define PCI_CFG_WRITTEN(addr, bytes) fake_cfg_written(addr, bytes)
#include "../../drivers/pci.c"

#define FAKE_MAX_FNS 16

struct fake_fn {
	u8 *cfg;
	u64 bar_size[6]; /* 0: not implemented; a 64-bit BAR's size in its lower index */
	u32 bar_flags[6];
	u8 last_cap; /* for fake_cap() */
};

static struct fake_fn fake_fns[FAKE_MAX_FNS];
static unsigned fake_nfns;
static u8 *fake_ecam;
static struct acpi_mcfg_entry fake_win;

/* Buses start..end, all empty. */
static void fake_ecam_init(u8 start, u8 end)
{
	size_t len = (size_t)(end - start + 1) << 20;
	free(fake_ecam);
	fake_ecam = aligned_alloc(1 << 20, len);
	memset(fake_ecam, 0xFF, len);
	fake_win = (struct acpi_mcfg_entry){ .base = (u64)(uintptr_t)fake_ecam - ((u64)start << 20),
					     .segment = 0,
					     .start_bus = start,
					     .end_bus = end };
	fake_nfns = 0;
}

/* A function with the given IDs and header type (bit 7: multi-function). */
static u8 *fake_fn_add(u8 bus, u8 dev, u8 fn, u16 vendor, u16 device, u8 header_type)
{
	u8 *c = (u8 *)(uintptr_t)pci_ecam_addr(&fake_win, bus, dev, fn);
	memset(c, 0, 4096);
	w16(c + PCI_VENDOR_ID, vendor);
	w16(c + PCI_DEVICE_ID, device);
	w32(c + PCI_CLASS_REV, 0x02000001); /* network controller, revision 1 */
	c[PCI_HEADER_TYPE] = header_type;
	fake_fns[fake_nfns++] = (struct fake_fn){ .cfg = c };
	return c;
}

static struct fake_fn *fake_find(const u8 *cfg)
{
	for (unsigned i = 0; i < fake_nfns; i++)
		if (fake_fns[i].cfg == cfg)
			return &fake_fns[i];
	return NULL;
}

/* BAR i: flags are its low bits (bit 0 I/O; memory: 4 = 64-bit, 8 = prefetchable). */
static void fake_bar(u8 *cfg, unsigned i, u64 addr, u64 size, u32 flags)
{
	struct fake_fn *f = fake_find(cfg);
	f->bar_size[i] = size;
	f->bar_flags[i] = flags;
	w32(cfg + PCI_BAR0 + 4 * i, (u32)addr | flags);
	if (flags & 4)
		w32(cfg + PCI_BAR0 + 4 * (i + 1), (u32)(addr >> 32));
}

/* Appends a capability of len bytes (id, next, then zeros) to the list; its offset. */
static u8 fake_cap(u8 *cfg, u8 id, u8 len)
{
	struct fake_fn *f = fake_find(cfg);
	u8 at = f->last_cap ? (u8)ALIGN_UP(f->last_cap + cfg[f->last_cap + 2], 4) : 0x40;
	cfg[at] = id;
	cfg[at + 1] = 0;
	cfg[at + 2] = len; /* for the next placement; virtio caps keep their cap_len here */
	if (f->last_cap)
		cfg[f->last_cap + 1] = at;
	else
		cfg[PCI_CAP_PTR] = at;
	w16(cfg + PCI_STATUS, PCI_STATUS_CAP_LIST);
	f->last_cap = at;
	return at;
}

static void fake_cfg_written(unsigned long long addr, unsigned bytes)
{
	u8 *p = (u8 *)(uintptr_t)addr;
	u8 *cfg = (u8 *)((uintptr_t)p & ~(uintptr_t)0xFFF);
	struct fake_fn *f = fake_find(cfg);
	unsigned off = (unsigned)(p - cfg);
	(void)bytes;
	if (!f || off < PCI_BAR0 || off >= PCI_BAR0 + 24)
		return;
	unsigned i = (off - PCI_BAR0) / 4;
	u32 v = rd32(cfg + PCI_BAR0 + 4 * i);
	if (i && f->bar_size[i - 1] && (f->bar_flags[i - 1] & 4)) {
		u64 mask = ~(f->bar_size[i - 1] - 1);
		w32(cfg + PCI_BAR0 + 4 * i, v & (u32)(mask >> 32)); /* upper half */
		return;
	}
	if (!f->bar_size[i]) {
		w32(cfg + PCI_BAR0 + 4 * i, 0); /* not implemented: reads as 0 */
		return;
	}
	u32 flag_bits = f->bar_flags[i] & 1 ? 3 : 0xF; /* read-only */
	w32(cfg + PCI_BAR0 + 4 * i,
	    (v & ~flag_bits & (u32) ~(f->bar_size[i] - 1)) | f->bar_flags[i]);
}

#endif
