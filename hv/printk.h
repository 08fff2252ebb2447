/* SPDX-License-Identifier: GPL-2.0-only */
/* The hypervisor's own messages, at the bottom of the core: every layer prints through
 * printk, which depends on nothing but the sink it is given. The console multiplexer
 * (console.h), which interleaves the guests' lines with these, writes under the same lock. */
#ifndef HV_PRINTK_H
#define HV_PRINTK_H

#include "hv/types.h"

/* Where bytes go: UEFI ConOut before ExitBootServices, the serial port after. */
void printk_set_sink(void (*write)(const char *s, size_t n));
/* A message of at most PRINTK_MAX bytes; a longer one is cut and ends " [cut]\n". */
#define PRINTK_MAX 1023
void printk(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* For the console multiplexer: the output lock, writing with it held, and a hook that
 * printk calls with it held before each message (to end a guest's unfinished line). */
void printk_lock(void);
void printk_unlock(void);
void printk_emit(const char *s, size_t n);
void printk_set_before(void (*hook)(void));

#endif
