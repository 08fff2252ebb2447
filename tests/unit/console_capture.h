/* SPDX-License-Identifier: GPL-2.0-only */
/* printk for host tests that check what the hypervisor said: appended to `console` (the
 * test clears it). */
#ifndef TESTS_UNIT_CONSOLE_CAPTURE_H
#define TESTS_UNIT_CONSOLE_CAPTURE_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static char console[4096]; /* what printk printed since the last clear */
void printk(const char *fmt, ...)
{
	size_t used = strlen(console);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(console + used, sizeof console - used, fmt, ap);
	va_end(ap);
}

#endif
