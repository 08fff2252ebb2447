/* SPDX-License-Identifier: GPL-2.0-only */
/* A page that costs much to make (/metrics, /stats of every vCPU), made at most once per
 * interval and shared: every request within the interval is answered from the same copy,
 * so a client that asks in a loop costs one build per interval, not one per request.
 * There are two copies: a connection holds the one it sends (a reference) until the client
 * has it all, and a build never writes into a copy that is held; when both are held, the
 * newest there is is served, older than the interval. Pure (the buffers come from the
 * caller), so the host unit tests run it. */
#ifndef NET_TELEMETRY_SNAPSHOT_H
#define NET_TELEMETRY_SNAPSHOT_H

#include "hv/types.h"

struct snapshot_copy {
	char *text;
	size_t len;
	u32 users; /* connections sending it */
	u64 built; /* when, in ms */
};

struct snapshot {
	int (*build)(char *buf, size_t max); /* the page's length, or -1: it did not fit */
	size_t max;			     /* each copy's size */
	u64 interval;			     /* ms */
	struct snapshot_copy copy[2];
	struct snapshot_copy *newest; /* NULL: none built yet, or the last build failed */
	u64 builds;		      /* counted since the start */
};

/* bufs: two buffers of max bytes. */
void snapshot_init(struct snapshot *s, int (*build)(char *buf, size_t max), char *bufs[2],
		   size_t max, u64 interval_ms);
/* The page as of at most interval ago (built now if need be and a copy is free), held
 * until snapshot_put; NULL when a build did not fit. now: the time in ms. */
struct snapshot_copy *snapshot_get(struct snapshot *s, u64 now);
void snapshot_put(struct snapshot_copy *c);

#endif
