/* SPDX-License-Identifier: GPL-2.0-only */
/* The small part of the C library the hypervisor needs (no libc in hv.efi). */
#ifndef HV_LIB_H
#define HV_LIB_H

#include <stdarg.h>
#include "types.h"

void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);

/* Bounded copy that always terminates dst (when n > 0); returns strlen(src). */
size_t strlcpy(char *dst, const char *src, size_t n);

/* printf subset: %s %c %d %i %u %x %X %p %%, flags '-' '0', width, and
 * length modifiers l, ll, z. Returns the length the full output would have. */
int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap);
int snprintf(char *buf, size_t n, const char *fmt, ...) PRINTF_LIKE(3, 4);

#endif
