/* SPDX-License-Identifier: GPL-2.0-only */
/* What the tests of file and table parsers share: little-endian stores into the images
 * they build, and reading a real file (a guest kernel under build/) whole. */
#ifndef TESTS_UNIT_BYTES_H
#define TESTS_UNIT_BYTES_H

#include <stdio.h>
#include <stdlib.h>

static inline void w16(unsigned char *p, unsigned short v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static inline void w32(unsigned char *p, unsigned int v)
{
	w16(p, (unsigned short)v);
	w16(p + 2, (unsigned short)(v >> 16));
}

static inline void w64(unsigned char *p, unsigned long long v)
{
	w32(p, (unsigned int)v);
	w32(p + 4, (unsigned int)(v >> 32));
}

/* The whole file in a malloc'd buffer, or NULL (a test that needs it is skipped). */
static inline unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *b = malloc(n > 0 ? (size_t)n : 1);
	if (n <= 0 || fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*len = b ? (size_t)n : 0;
	return b;
}

#endif
