/* SPDX-License-Identifier: GPL-2.0-only */
/* PCI Express configuration space through ECAM, the memory-mapped windows the ACPI
 * MCFG gives (PCI Express Base Specification 4.0, 7.2.2; PCI Local Bus 3.0, 6): reads
 * and writes of 8, 16 and 32 bits, enumeration of the functions of a window, BARs
 * (32 and 64 bits), the capability list, and the command register. The windows and the
 * BARs are reached through the firmware's identity map (virtual == physical). */
#ifndef DRIVERS_PCI_H
#define DRIVERS_PCI_H

#include "drivers/acpi.h"
#include "hv/types.h"

/* Type 0/1 header registers (PCI Local Bus 3.0, 6.1). */
#define PCI_VENDOR_ID 0x00
#define PCI_DEVICE_ID 0x02
#define PCI_COMMAND 0x04
#define PCI_STATUS 0x06
#define PCI_CLASS_REV 0x08 /* revision [7:0], prog-if [15:8], subclass, class [31:24] */
#define PCI_HEADER_TYPE 0x0E
#define PCI_BAR0 0x10
#define PCI_SUBSYSTEM_ID 0x2E
#define PCI_CAP_PTR 0x34

#define PCI_COMMAND_IO BIT(0)
#define PCI_COMMAND_MEMORY BIT(1)
#define PCI_COMMAND_MASTER BIT(2)
#define PCI_COMMAND_INTX_DISABLE BIT(10)
#define PCI_STATUS_CAP_LIST BIT(4)
#define PCI_HEADER_MULTI_FUNCTION BIT(7)

#define PCI_CAP_VENDOR 0x09 /* vendor-specific capability (virtio's) */

/* One function's configuration space. */
struct pci_dev {
	u64 cfg; /* its 4 KiB of ECAM */
	u16 segment;
	u8 bus, dev, fn;
	u8 header_type; /* without the multi-function bit: 0 device, 1 bridge */
	u16 vendor, device;
	u32 class_rev; /* PCI_CLASS_REV */
};

struct pci_bar {
	u64 addr; /* memory or I/O address, flag bits cleared */
	u64 size; /* 0: the BAR is not implemented */
	bool io, is64, prefetchable;
};

/* The address of bus/dev/fn's configuration space in window w. */
u64 pci_ecam_addr(const struct acpi_mcfg_entry *w, u8 bus, u8 dev, u8 fn);

u8 pci_read8(const struct pci_dev *d, u16 off);
u16 pci_read16(const struct pci_dev *d, u16 off);
u32 pci_read32(const struct pci_dev *d, u16 off);
void pci_write8(const struct pci_dev *d, u16 off, u8 v);
void pci_write16(const struct pci_dev *d, u16 off, u16 v);
void pci_write32(const struct pci_dev *d, u16 off, u32 v);

/* Calls fn for each function present on the window's buses (bus, device, function
 * order) until fn returns non-zero, which pci_scan returns; 0 when it never did. */
int pci_scan(const struct acpi_mcfg_entry *w, int (*fn)(const struct pci_dev *d, void *arg),
	     void *arg);

/* Decodes BAR index (0-5 on a device, 0-1 on a bridge) and sizes it, with the decoding
 * of memory and I/O off meanwhile. A 64-bit BAR takes index and index + 1. Returns 0, or
 * -1 when index names no BAR or the upper half of a 64-bit one. */
int pci_bar(const struct pci_dev *d, u32 index, struct pci_bar *out);

/* The offset of the first capability with ID id after the one at `after` (0: from the
 * start of the list), or 0 when there is none. The walk stops at a loop or a pointer
 * into the header. */
u8 pci_find_cap(const struct pci_dev *d, u8 id, u8 after);

/* Turns on memory decoding and bus mastering and masks INTx (the driver polls). */
void pci_enable_mmio_dma(const struct pci_dev *d);

#endif
