#include "iobus.h"
#include "console.h"

void iobus_register(struct iobus *bus, const struct io_region *region)
{
	if (bus->n < IOBUS_MAX_REGIONS)
		bus->r[bus->n++] = *region;
	else
		printk("hv: BUG: too many device regions\n");
}

bool iobus_access(struct iobus *bus, enum io_space space, u64 addr, unsigned size, bool write, u64 *value)
{
	for (u32 i = 0; i < bus->n; i++) {
		struct io_region *r = &bus->r[i];
		if (r->space != space || addr < r->base || addr - r->base >= r->len)
			continue;
		if (write)
			r->write(r->opaque, addr - r->base, size, *value);
		else
			*value = r->read(r->opaque, addr - r->base, size);
		return true;
	}
	if (!write)
		*value = size >= 8 ? ~0ull : (1ull << (size * 8)) - 1;
	if (__atomic_fetch_add(&bus->unclaimed, 1, __ATOMIC_RELAXED) < 4)
		printk("hv: no device at %s %llx (%s, %u bytes): %s\n", space == IO_PORT ? "port" : "address",
		       (unsigned long long)addr, write ? "write" : "read", size,
		       write ? "dropped" : "reads as all-ones");
	return false;
}
