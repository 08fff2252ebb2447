/* SPDX-License-Identifier: GPL-2.0-only */
#include "iobus.h"
#include "printk.h"

void iobus_register(struct iobus *bus, const struct io_region *region)
{
	if (bus->n < IOBUS_MAX_REGIONS)
		bus->r[bus->n++] = *region;
	else
		printk("hv: BUG: too many device regions\n");
}

const struct io_region *iobus_find(const struct iobus *bus, enum io_space space, u64 base, u64 len)
{
	for (u32 i = 0; i < bus->n; i++) {
		const struct io_region *r = &bus->r[i];
		if (r->space == space && base < r->base + r->len && r->base < base + len)
			return r;
	}
	return NULL;
}

/* Racy by design: at worst an address is reported twice. */
static bool first_time(struct iobus *bus, enum io_space space, u64 addr)
{
	u64 key = addr << 1 | (space == IO_MMIO);
	for (u32 i = 0; i < bus->nlogged; i++)
		if (bus->logged[i] == key)
			return false;
	if (bus->nlogged == ARRAY_SIZE(bus->logged))
		return false;
	bus->logged[bus->nlogged++] = key;
	return true;
}

bool iobus_access(struct iobus *bus, enum io_space space, u64 addr, unsigned size, bool write,
		  u64 *value)
{
	for (u32 i = 0; i < bus->n; i++) {
		struct io_region *r = &bus->r[i];
		if (r->space != space || addr < r->base || addr - r->base >= r->len)
			continue;
		if (r->lock)
			spin_lock(r->lock);
		if (write)
			r->write(r->opaque, addr - r->base, size, *value);
		else
			*value = r->read(r->opaque, addr - r->base, size);
		if (r->lock)
			spin_unlock(r->lock);
		return true;
	}
	if (!write)
		*value = size >= 8 ? ~0ull : (1ull << (size * 8)) - 1;
	__atomic_fetch_add(&bus->unclaimed, 1, __ATOMIC_RELAXED);
	if (first_time(bus, space, addr))
		printk("hv: no device at %s %llx (%s, %u bytes): %s\n",
		       space == IO_PORT ? "port" : "address", (unsigned long long)addr,
		       write ? "write" : "read", size,
		       write ? "dropped" : "reads as all-ones; reported once");
	return false;
}
