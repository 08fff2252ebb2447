/* SPDX-License-Identifier: GPL-2.0-only */
/* Freestanding string and formatting routines (see lib.h). In host unit tests the
 * same file is compiled with the names prefixed, so libc stays untouched. */
#include "lib.h"

#if defined(__x86_64__) && !defined(HV_UNIT_TEST)
/* rep stosb / movsb: fast on every x86-64 with ERMSB, and fine without. */
void *memset(void *d, int c, size_t n)
{
	void *p = d;
	__asm__ volatile("rep stosb" : "+D"(p), "+c"(n) : "a"(c) : "memory");
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	void *p = d;
	__asm__ volatile("rep movsb" : "+D"(p), "+S"(s), "+c"(n) : : "memory");
	return d;
}
#else
void *memset(void *d, int c, size_t n)
{
	u8 *p = d;
	while (n--)
		*p++ = (u8)c;
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	u8 *dp = d;
	const u8 *sp = s;
	while (n--)
		*dp++ = *sp++;
	return d;
}
#endif

void *memmove(void *d, const void *s, size_t n)
{
	u8 *dp = d;
	const u8 *sp = s;
	if (dp < sp || dp >= sp + n)
		return memcpy(d, s, n);
	while (n--)
		dp[n] = sp[n];
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;
	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const u8 *p = s;
	for (; n; n--, p++)
		if (*p == (u8)c)
			return (void *)p;
	return NULL;
}

size_t strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;
	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (u8)*a - (u8)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (u8)*a - (u8)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;
	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

size_t strlcpy(char *dst, const char *src, size_t n)
{
	size_t len = strlen(src);
	if (n) {
		size_t c = len < n - 1 ? len : n - 1;
		memcpy(dst, src, c);
		dst[c] = 0;
	}
	return len;
}

struct out {
	char *buf;
	size_t n, pos;
};

static void put(struct out *o, char c)
{
	if (o->pos + 1 < o->n)
		o->buf[o->pos] = c;
	o->pos++;
}

/* v in `base`, after `prefix` ("-", "0x" or ""), padded to `width`: zeros go between the
 * prefix and the digits, spaces before the prefix (or after all, left-aligned). */
static void put_num(struct out *o, u64 v, unsigned base, bool upper, const char *prefix, int width,
		    char pad, bool left)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int len = 0;
	do {
		tmp[len++] = digits[v % base];
		v /= base;
	} while (v);
	int total = len + (int)strlen(prefix);
	if (!left && pad == ' ')
		for (int i = total; i < width; i++)
			put(o, ' ');
	while (*prefix)
		put(o, *prefix++);
	if (!left && pad == '0')
		for (int i = total; i < width; i++)
			put(o, '0');
	while (len)
		put(o, tmp[--len]);
	if (left)
		for (int i = total; i < width; i++)
			put(o, ' ');
}

int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
{
	struct out o = { buf, n, 0 };
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		fmt++;
		bool left = false, alt = false;
		char pad = ' ';
		for (; *fmt == '-' || *fmt == '0' || *fmt == '#'; fmt++) {
			if (*fmt == '-')
				left = true;
			else if (*fmt == '#')
				alt = true; /* 0x / 0X before a non-zero hex number, as in C */
			else
				pad = '0';
		}
		int width = 0;
		for (; *fmt >= '0' && *fmt <= '9'; fmt++)
			width = width * 10 + (*fmt - '0');
		int lng = 0;
		for (; *fmt == 'l' || *fmt == 'z'; fmt++)
			lng++;
		if (left)
			pad = ' ';
		switch (*fmt) {
		case 'd':
		case 'i': {
			s64 v = lng ? va_arg(ap, s64) : va_arg(ap, int);
			put_num(&o, v < 0 ? -(u64)v : (u64)v, 10, false, v < 0 ? "-" : "", width,
				pad, left);
			break;
		}
		case 'u':
		case 'x':
		case 'X': {
			u64 v = lng ? va_arg(ap, u64) : va_arg(ap, unsigned);
			const char *prefix = !alt || !v || *fmt == 'u' ? ""
					     : *fmt == 'x'	       ? "0x"
								       : "0X";
			put_num(&o, v, *fmt == 'u' ? 10 : 16, *fmt == 'X', prefix, width, pad,
				left);
			break;
		}
		case 'p':
			put_num(&o, (u64)(uintptr_t)va_arg(ap, void *), 16, false, "0x", width, pad,
				left);
			break;
		case 'c':
			put(&o, (char)va_arg(ap, int));
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			int len = (int)strlen(s);
			if (!left)
				for (int i = len; i < width; i++)
					put(&o, ' ');
			while (*s)
				put(&o, *s++);
			if (left)
				for (int i = len; i < width; i++)
					put(&o, ' ');
			break;
		}
		case '%':
			put(&o, '%');
			break;
		case 0:
			fmt--;
			break;
		default:
			put(&o, '%');
			put(&o, *fmt);
		}
	}
	if (n)
		buf[o.pos < n ? o.pos : n - 1] = 0;
	return (int)o.pos;
}

int snprintf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return r;
}
