/* SPDX-License-Identifier: GPL-2.0-only */
/* A file transfer's progress on the console, the same for TFTP and HTTP:
 *   hv: tftp /guests/vmlinuz: 2048 KiB of 8053 KiB in 2.0 s, 1024 KiB/s
 *   hv: http http://10.0.2.2:8000/guests/vmlinuz: done, 8053 KiB in 3.1 s, 2597 KiB/s */
#ifndef NET_PROGRESS_H
#define NET_PROGRESS_H

#include "hv/types.h"

#define PROGRESS_MS 2000 /* a line every 2 s while it runs */

/* proto "tftp" or "http"; what: the path or URL; got bytes so far of total (when known,
 * has_total) after ms milliseconds; done: the last line. */
void net_progress(const char *proto, const char *what, u64 got, bool has_total, u64 total, u32 ms,
		  bool done);

#endif
