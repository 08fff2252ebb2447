/* SPDX-License-Identifier: GPL-2.0-only */
/* See snapshot.h. */
#include "net/telemetry/snapshot.h"

void snapshot_init(struct snapshot *s, int (*build)(char *buf, size_t max), char *bufs[2],
		   size_t max, u64 interval_ms)
{
	*s = (struct snapshot){ .build = build, .max = max, .interval = interval_ms };
	s->copy[0].text = bufs[0];
	s->copy[1].text = bufs[1];
}

struct snapshot_copy *snapshot_get(struct snapshot *s, u64 now)
{
	struct snapshot_copy *n = s->newest, *c = NULL;
	if (n && now - n->built < s->interval) {
		n->users++;
		return n;
	}
	/* Build into a copy nobody sends: the older one first, so that the newest stays
	 * whole while the build runs into the other. */
	for (u32 i = 0; i < 2; i++)
		if (!s->copy[i].users && &s->copy[i] != n)
			c = &s->copy[i];
	if (!c && n && !n->users)
		c = n;
	if (!c) { /* both held: the newest there is */
		if (!n)
			return NULL;
		n->users++;
		return n;
	}
	int len = s->build(c->text, s->max);
	s->builds++;
	if (len < 0) {
		if (c == n)
			s->newest = NULL;
		return NULL;
	}
	c->len = (size_t)len;
	c->built = now;
	c->users = 1;
	s->newest = c;
	return c;
}

void snapshot_put(struct snapshot_copy *c)
{
	if (c && c->users)
		c->users--;
}
