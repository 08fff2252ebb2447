/* SPDX-License-Identifier: GPL-2.0-only */
/* The shared copies of /metrics and /stats (net/telemetry/snapshot.c): one build per
 * interval however many requests; a copy a connection holds is never rebuilt (its text
 * stays byte for byte), the other one is, and with both held the newest is served; a
 * build that does not fit answers NULL and leaves no copy behind; requests at random
 * with random holds never see a held copy change. */
#include <stdlib.h>
#include "../../../net/telemetry/snapshot.c"
#include "../test.h"

static u32 made; /* builds so far: the page says which one it is */
static bool too_small;

static int build(char *buf, size_t max)
{
	made++;
	if (too_small)
		return -1;
	return snprintf(buf, max, "page %u", made);
}

static char b0[64], b1[64];
static char *bufs[2] = { b0, b1 };
static struct snapshot s;

static void test_once_per_interval(void)
{
	made = 0;
	snapshot_init(&s, build, bufs, sizeof b0, 1000);
	for (u64 t = 0; t < 5000; t += 10) { /* a request every 10 ms for 5 s */
		struct snapshot_copy *c = snapshot_get(&s, 100000 + t);
		CHECK(c != NULL);
		snapshot_put(c);
	}
	CHECK_EQ(s.builds, 5);
	CHECK_EQ(made, 5);
	struct snapshot_copy *c = snapshot_get(&s, 100000 + 5000);
	CHECK(c && c->len == strlen("page 6") && !strcmp(c->text, "page 6"));
	snapshot_put(c);
}

static void test_held(void)
{
	made = 0;
	snapshot_init(&s, build, bufs, sizeof b0, 1000);
	struct snapshot_copy *a = snapshot_get(&s, 0); /* page 1, held */
	CHECK(a && !strcmp(a->text, "page 1"));
	struct snapshot_copy *b = snapshot_get(&s, 1000); /* stale: page 2 in the other copy */
	CHECK(b && b != a && !strcmp(b->text, "page 2"));
	CHECK(!strcmp(a->text, "page 1"));
	struct snapshot_copy *c = snapshot_get(&s, 2500); /* both held: page 2 again */
	CHECK(c == b && !strcmp(c->text, "page 2"));
	CHECK_EQ(s.builds, 2);
	CHECK_EQ(b->users, 2);
	snapshot_put(a);				  /* page 1's copy free again */
	struct snapshot_copy *d = snapshot_get(&s, 2600); /* built into it */
	CHECK(d == a && !strcmp(d->text, "page 3") && !strcmp(b->text, "page 2"));
	snapshot_put(b), snapshot_put(c), snapshot_put(d);
	CHECK_EQ(a->users + b->users, 0);
	snapshot_put(d); /* one put too many changes nothing */
	CHECK_EQ(d->users, 0);

	/* A build that does not fit: NULL, and the copy it was in is not served. */
	too_small = true;
	CHECK(snapshot_get(&s, 5000) == NULL);
	CHECK(snapshot_get(&s, 5001) == NULL || s.newest != NULL);
	too_small = false;
	struct snapshot_copy *e = snapshot_get(&s, 5002);
	CHECK(e && !strcmp(e->text, "page 6"));
	snapshot_put(e);
}

/* Random requests and holds: a held copy never changes, no copy is held more than it was
 * got, and builds never outnumber the intervals that passed (plus one). */
static void test_random(void)
{
	made = 0;
	snapshot_init(&s, build, bufs, sizeof b0, 1000);
	struct {
		struct snapshot_copy *c;
		char text[64];
	} held[4] = { 0 };
	srand(35);
	u64 t = 0;
	u32 changed = 0;
	for (u32 i = 0; i < 100000; i++) {
		t += (u64)(rand() % 50);
		u32 k = (u32)rand() % 4;
		if (held[k].c) {
			changed += !!strcmp(held[k].c->text, held[k].text);
			snapshot_put(held[k].c);
			held[k].c = NULL;
		} else {
			held[k].c = snapshot_get(&s, t);
			if (held[k].c)
				strcpy(held[k].text, held[k].c->text);
		}
	}
	CHECK_EQ(changed, 0);
	CHECK(s.builds <= t / 1000 + 1);
	CHECK(s.builds > t / 1000 / 2); /* and it does rebuild */
	u32 users = 0;
	for (u32 k = 0; k < 4; k++)
		users += !!held[k].c;
	CHECK_EQ(s.copy[0].users + s.copy[1].users, users);
}

int main(void)
{
	test_once_per_interval();
	test_held();
	test_random();
	return test_summary();
}
