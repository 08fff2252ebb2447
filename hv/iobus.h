/* SPDX-License-Identifier: GPL-2.0-only */
/* Emulated device regions of a VM: port I/O and MMIO ranges with callbacks. An access
 * that no device claims reads as all-ones and its writes are dropped, as on a PC bus
 * with nothing behind the address; it is counted. */
#ifndef HV_IOBUS_H
#define HV_IOBUS_H

#include "types.h"
#include "spinlock.h"

enum io_space { IO_PORT, IO_MMIO };

struct io_region {
	enum io_space space;
	u64 base, len;
	u64 (*read)(void *opaque, u64 offset, unsigned size);
	void (*write)(void *opaque, u64 offset, unsigned size, u64 value);
	void *opaque;
	struct spinlock *lock; /* held around read and write when set */
};

#define IOBUS_MAX_REGIONS 16
struct iobus {
	u32 n;
	struct io_region r[IOBUS_MAX_REGIONS];
	u64 unclaimed; /* accesses no device claimed */
	u64 logged[8]; /* addresses already reported (each is logged once) */
	u32 nlogged;
};

void iobus_register(struct iobus *bus, const struct io_region *region);
/* The first region of that space that overlaps [base, base + len), or NULL. */
const struct io_region *iobus_find(const struct iobus *bus, enum io_space space, u64 base, u64 len);
/* Returns false when no device claimed the access (value then reads as all-ones). */
bool iobus_access(struct iobus *bus, enum io_space space, u64 addr, unsigned size, bool write,
		  u64 *value);

#endif
