/* SPDX-License-Identifier: GPL-2.0-only */
/* A transfer's progress lines (progress.h). */
#include "net/boot/progress.h"
#include "hv/printk.h"
#include "hv/lib.h"

/* A size for the console: bytes below 64 KiB, else KiB. */
static const char *size_str(char *buf, size_t n, u64 bytes)
{
	if (bytes < 64 * KiB)
		snprintf(buf, n, "%llu bytes", (unsigned long long)bytes);
	else
		snprintf(buf, n, "%llu KiB", (unsigned long long)(bytes >> 10));
	return buf;
}

void net_progress(const char *proto, const char *what, u64 got, bool has_total, u64 total, u32 ms,
		  bool done)
{
	char now[32], tot[32], all[40] = "";
	if (!done && has_total)
		snprintf(all, sizeof all, " of %s", size_str(tot, sizeof tot, total));
	printk("hv: %s %s: %s%s%s in %u.%u s, %llu KiB/s\n", proto, what, done ? "done, " : "",
	       size_str(now, sizeof now, got), all, ms / 1000, ms % 1000 / 100,
	       (unsigned long long)(ms ? got * 1000 / ms >> 10 : 0));
}
