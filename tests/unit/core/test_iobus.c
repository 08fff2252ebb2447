/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for the device bus (hv/iobus.c): dispatch by space and range, the region's
 * lock held around its callbacks, unclaimed accesses (all-ones, counted). */
#include "../../../hv/iobus.c"
#include "../test.h"

void printk(const char *fmt, ...) { (void)fmt; }

struct dev {
	struct spinlock *lock;
	u64 last_off, last_val;
	unsigned last_size;
	int reads, writes;
	bool locked_in_callback;
};

static bool held(const struct spinlock *l) { return l && l->next != l->owner; }

static u64 dev_read(void *opaque, u64 off, unsigned size)
{
	struct dev *d = opaque;
	d->reads++;
	d->last_off = off;
	d->last_size = size;
	d->locked_in_callback = held(d->lock);
	return 0x1234;
}

static void dev_write(void *opaque, u64 off, unsigned size, u64 val)
{
	struct dev *d = opaque;
	d->writes++;
	d->last_off = off;
	d->last_size = size;
	d->last_val = val;
	d->locked_in_callback = held(d->lock);
}

int main(void)
{
	static struct iobus bus;
	struct spinlock lock = { 0 };
	struct dev locked = { .lock = &lock }, plain = { 0 };
	u64 v;

	iobus_register(&bus, &(struct io_region){ IO_PORT, 0x3f8, 8, dev_read, dev_write, &locked,
						  &lock });
	iobus_register(&bus,
		       &(struct io_region){ IO_MMIO, 0x3f8, 8, dev_read, dev_write, &plain, NULL });

	/* iobus_find: overlaps by space and range (the exit port's clash check). */
	CHECK(iobus_find(&bus, IO_PORT, 0x3f5, 4) == &bus.r[0]);
	CHECK(iobus_find(&bus, IO_PORT, 0x3ff, 1) == &bus.r[0]);
	CHECK(!iobus_find(&bus, IO_PORT, 0x3f4, 4));
	CHECK(!iobus_find(&bus, IO_PORT, 0x400, 4));
	CHECK(iobus_find(&bus, IO_MMIO, 0x3f0, 0x100) == &bus.r[1]);

	CHECK(iobus_access(&bus, IO_PORT, 0x3fd, 1, false, &v));
	CHECK_EQ(v, 0x1234);
	CHECK_EQ(locked.reads, 1);
	CHECK_EQ(locked.last_off, 5);
	CHECK_EQ(locked.last_size, 1);
	CHECK(locked.locked_in_callback);
	CHECK(!held(&lock)); /* released after the callback */

	v = 0x41;
	CHECK(iobus_access(&bus, IO_PORT, 0x3f8, 1, true, &v));
	CHECK_EQ(locked.writes, 1);
	CHECK_EQ(locked.last_val, 0x41);
	CHECK(locked.locked_in_callback);
	CHECK(!held(&lock));

	/* The same address in the other space is the other device, without a lock. */
	CHECK(iobus_access(&bus, IO_MMIO, 0x3ff, 4, false, &v));
	CHECK_EQ(plain.reads, 1);
	CHECK_EQ(plain.last_off, 7);
	CHECK(!plain.locked_in_callback);
	CHECK_EQ(locked.reads, 1);

	/* Nothing there: all-ones of the access size, counted; the devices are not called. */
	CHECK(!iobus_access(&bus, IO_PORT, 0x400, 2, false, &v));
	CHECK_EQ(v, 0xFFFF);
	CHECK(!iobus_access(&bus, IO_MMIO, 0x3f7, 8, false, &v));
	CHECK_EQ(v, ~0ull);
	v = 1;
	CHECK(!iobus_access(&bus, IO_PORT, 0x3f0, 1, true, &v));
	CHECK_EQ(bus.unclaimed, 3);
	CHECK_EQ(locked.reads + locked.writes + plain.reads + plain.writes, 3);
	return test_summary();
}
