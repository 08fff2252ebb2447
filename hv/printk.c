/* SPDX-License-Identifier: GPL-2.0-only */
/* The hypervisor's messages: see printk.h. */
#include <stdarg.h>
#include "hv/printk.h"
#include "hv/lib.h"
#include "hv/spinlock.h"

static void (*sink)(const char *s, size_t n);
static void (*before)(void);
static struct spinlock lock;

void printk_set_sink(void (*write)(const char *s, size_t n)) { sink = write; }
void printk_set_before(void (*hook)(void)) { before = hook; }
void printk_lock(void) { spin_lock(&lock); }
void printk_unlock(void) { spin_unlock(&lock); }

void printk_emit(const char *s, size_t n)
{
	if (sink)
		sink(s, n);
}

void printk(const char *fmt, ...)
{
	char buf[PRINTK_MAX + 1];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	/* A message too long for buf ends visibly, with its line still ended: never a line
	 * that runs into the next one. */
	static const char cut[] = " [cut]\n";
	if (n >= (int)sizeof buf)
		memcpy(buf + sizeof buf - sizeof cut, cut, sizeof cut);
	spin_lock(&lock);
	if (before)
		before();
	printk_emit(buf, MIN((size_t)n, sizeof buf - 1));
	spin_unlock(&lock);
}
