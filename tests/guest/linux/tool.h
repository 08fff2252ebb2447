/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by the static test-guest tools: arguments name=value (the guest's init passes
 * hv.TOOL=a=1:b=2 as "a=1 b=2") and a monotonic clock in ms. */
#ifndef GUEST_LINUX_TOOL_H
#define GUEST_LINUX_TOOL_H

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The value of name=VALUE among the arguments (decimal, 0x hex), else dflt. */
static inline long arg(int argc, char **argv, const char *name, long dflt)
{
	size_t n = strlen(name);
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], name, n) && argv[i][n] == '=')
			return strtol(argv[i] + n + 1, NULL, 0);
	return dflt;
}

static inline double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

#endif
