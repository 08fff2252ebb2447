/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for the devicetree writer (hv/fdt.c): the exact bytes of a small blob,
 * name sharing in the strings block, every misuse, and overflow of every buffer size
 * short of the blob's (with a guard area behind the buffer). */
#include <stdlib.h>
#include "../../hv/fdt.c"
#include "test.h"

#define BE(v) (u8)((u32)(v) >> 24), (u8)((u32)(v) >> 16), (u8)((u32)(v) >> 8), (u8)(v)
#define GUARD 64

static u32 be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

/* / { a = <1>; n { a = "x"; bb; }; }; */
static void small_tree(struct fdt *f)
{
	fdt_begin_node(f, "");
	fdt_prop_u32(f, "a", 1);
	fdt_begin_node(f, "n");
	fdt_prop_string(f, "a", "x");
	fdt_prop(f, "bb", NULL, 0);
	fdt_end_node(f);
	fdt_end_node(f);
}

static const u8 small_blob[] = {
	BE(0xd00dfeed), BE(133), BE(56), BE(128),	/* magic, totalsize, struct, strings */
	BE(40), BE(17), BE(16), BE(0),			/* rsvmap, version, last comp, boot cpu */
	BE(5), BE(72),					/* strings and struct sizes */
	BE(0), BE(0), BE(0), BE(0),			/* the reservation map's terminator */
	BE(1), 0, 0, 0, 0,				/* / */
	BE(3), BE(4), BE(3), BE(1),			/* a = <1> ("a" at 3) */
	BE(1), 'n', 0, 0, 0,				/* n */
	BE(3), BE(2), BE(3), 'x', 0, 0, 0,		/* a = "x" */
	BE(3), BE(0), BE(0),				/* bb ("bb" at 0) */
	BE(2), BE(2), BE(9),
	'b', 'b', 0, 'a', 0,				/* names: the newest first */
};

static void test_small(void)
{
	static u8 buf[512];
	struct fdt f;

	memset(buf, 0xee, sizeof(buf));
	fdt_init(&f, buf, sizeof(buf));
	small_tree(&f);
	CHECK_EQ(fdt_finish(&f), sizeof(small_blob));
	CHECK(!memcmp(buf, small_blob, sizeof(small_blob)));
	/* The writer is used up. */
	CHECK_EQ(fdt_finish(&f), -1);

	/* Any alignment of the buffer, any size from the blob's up. */
	fdt_init(&f, buf + 1, sizeof(small_blob));
	small_tree(&f);
	CHECK_EQ(fdt_finish(&f), sizeof(small_blob));
	CHECK(!memcmp(buf + 1, small_blob, sizeof(small_blob)));
}

static void test_values(void)
{
	static u8 buf[1024];
	static const u32 cells[] = { 0x01020304, 0xa0b0c0d0, 0 };
	static const u8 expect[] = {
		BE(3), BE(8), BE(0), 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0,
		BE(3), BE(12), BE(0), BE(0x01020304), BE(0xa0b0c0d0), BE(0),
		BE(3), BE(0), BE(0),
		BE(3), BE(5), BE(0), 'a', 0, 'b', 'c', 0, 0, 0, 0,
		BE(3), BE(4), BE(0), 'x', 'y', 'z', 0,
		BE(3), BE(3), BE(0), 1, 2, 3, 0,
	};
	struct fdt f;
	int n;

	fdt_init(&f, buf, sizeof(buf));
	fdt_begin_node(&f, "");
	fdt_prop_u64(&f, "p", 0x123456789abcdef0ull);
	fdt_prop_cells(&f, "p", cells, 3);
	fdt_prop_cells(&f, "p", cells, 0);
	fdt_prop_strings(&f, "p", "a\0bc", sizeof("a\0bc"));
	fdt_prop_string(&f, "p", "xyz");
	fdt_prop(&f, "p", "\1\2\3", 3);
	fdt_end_node(&f);
	n = fdt_finish(&f);
	CHECK_EQ(n, 56 + 8 + sizeof(expect) + 8 + 2);
	CHECK_EQ(be32(buf + 36), 8 + sizeof(expect) + 8);
	CHECK(!memcmp(buf + 64, expect, sizeof(expect)));
	CHECK_EQ(be32(buf + 32), 2);
	CHECK(!memcmp(buf + n - 2, "p", 2));
}

/* Names are stored once; a name that is the tail of a stored one shares its bytes. */
static void test_strings(void)
{
	static u8 buf[1024];
	struct fdt f;
	u32 off, i, p;
	int n;

	fdt_init(&f, buf, sizeof(buf));
	fdt_begin_node(&f, "");
	fdt_prop_u32(&f, "#address-cells", 2);
	fdt_prop_u32(&f, "#size-cells", 2);
	fdt_begin_node(&f, "a");
	fdt_prop_u32(&f, "#address-cells", 1);
	fdt_prop_u32(&f, "cells", 1);
	fdt_prop_u32(&f, "#size-cells", 0);
	fdt_prop_u32(&f, "size-cells", 0);
	fdt_prop_u32(&f, "compatible", 0);
	fdt_end_node(&f);
	fdt_end_node(&f);
	n = fdt_finish(&f);
	CHECK(n > 0);
	off = be32(buf + 12);
	CHECK_EQ(be32(buf + 32), sizeof("#address-cells") + sizeof("#size-cells") +
		 sizeof("compatible"));
	CHECK_EQ(off + be32(buf + 32), (u32)n);

	/* Each property's name, in order. */
	static const char *const names[] = { "#address-cells", "#size-cells", "#address-cells",
					     "cells", "#size-cells", "size-cells", "compatible" };
	for (i = 0, p = 56 + 8; i < ARRAY_SIZE(names); i++) {
		if (be32(buf + p) == FDT_BEGIN_NODE)
			p += 8;
		CHECK_EQ(be32(buf + p), FDT_PROP);
		CHECK_STR((const char *)buf + off + be32(buf + p + 8), names[i]);
		p += 16;
	}
}

static int build_bad(int which)
{
	static u8 buf[1024];
	struct fdt f;

	fdt_init(&f, buf, sizeof(buf));
	if (which != 0)
		fdt_begin_node(&f, which == 1 ? "root" : "");
	switch (which) {
	case 0:		/* no root */
		break;
	case 2:		/* property outside the root */
		fdt_end_node(&f);
		fdt_prop_u32(&f, "a", 1);
		return fdt_finish(&f);
	case 3:		/* a second root */
		fdt_end_node(&f);
		fdt_begin_node(&f, "");
		break;
	case 4:		/* a property after a subnode */
		fdt_begin_node(&f, "n");
		fdt_end_node(&f);
		fdt_prop_u32(&f, "a", 1);
		break;
	case 5:		/* a subnode without a name */
		fdt_begin_node(&f, "");
		fdt_end_node(&f);
		break;
	case 6:		/* unbalanced: one end too many */
		fdt_end_node(&f);
		fdt_end_node(&f);
		return fdt_finish(&f);
	case 7:		/* unbalanced: a node left open */
		fdt_begin_node(&f, "n");
		break;
	case 8:		/* a string list not ending in NUL */
		fdt_prop_strings(&f, "a", "ab", 2);
		break;
	case 9:		/* an empty string list */
		fdt_prop_strings(&f, "a", "", 0);
		break;
	case 10:	/* a property without a name */
		fdt_prop_u32(&f, "", 1);
		break;
	}
	if (which != 0)
		fdt_end_node(&f);
	return fdt_finish(&f);
}

static void test_misuse(void)
{
	static u8 buf[256];
	struct fdt f;
	int i;

	for (i = 0; i <= 10; i++)
		CHECK_EQ(build_bad(i), -1);

	/* A node's properties may follow its elder sibling. */
	fdt_init(&f, buf, sizeof(buf));
	fdt_begin_node(&f, "");
	fdt_begin_node(&f, "a");
	fdt_end_node(&f);
	fdt_begin_node(&f, "b");
	fdt_prop(&f, "c", NULL, 0);
	fdt_end_node(&f);
	fdt_end_node(&f);
	CHECK(fdt_finish(&f) > 0);

	/* Too small for the header and the reservation map. */
	fdt_init(&f, buf, 55);
	CHECK(f.failed);
	fdt_begin_node(&f, "");
	fdt_end_node(&f);
	CHECK_EQ(fdt_finish(&f), -1);

	/* Once failed, nothing more is written. */
	memset(buf, 0x5a, sizeof(buf));
	fdt_init(&f, buf, sizeof(buf));
	fdt_prop_u32(&f, "a", 1);	/* outside a node */
	fdt_begin_node(&f, "");
	fdt_prop_u32(&f, "a", 1);
	fdt_end_node(&f);
	CHECK_EQ(fdt_finish(&f), -1);
	for (i = 0; i < (int)sizeof(buf); i++)
		CHECK_EQ(buf[i], 0x5a);
}

/* A tree with nesting, shared and distinct names: in every buffer shorter than the
 * blob the build fails and nothing is written past the end; in the exact size and
 * larger it gives the same bytes. */
static int big_tree(u8 *buf, size_t cap)
{
	static const u32 cells[] = { 0, 0x40000000, 0, 0x20000000 };
	char name[24];
	struct fdt f;
	int i;

	fdt_init(&f, buf, cap);
	fdt_begin_node(&f, "");
	fdt_prop_string(&f, "compatible", "linux,dummy-virt");
	fdt_prop_u32(&f, "#address-cells", 2);
	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "node@%d", i);
		fdt_begin_node(&f, name);
		fdt_prop_cells(&f, "reg", cells, 4);
		fdt_prop_strings(&f, "compatible", "a\0b", sizeof("a\0b"));
		fdt_begin_node(&f, "inner");
		fdt_prop(&f, "empty", NULL, 0);
		fdt_prop_u64(&f, i & 1 ? "odd" : "even", 1);
		fdt_end_node(&f);
		fdt_end_node(&f);
	}
	fdt_end_node(&f);
	return fdt_finish(&f);
}

static void test_overflow(void)
{
	static u8 ref[4096];
	int size = big_tree(ref, sizeof(ref)), cap, i;

	CHECK(size > 56);
	for (cap = 0; cap <= size + 8; cap++) {
		u8 *b = malloc((size_t)cap + GUARD);
		int r, bad = 0;

		memset(b, 0xa5, (size_t)cap + GUARD);
		r = big_tree(b, (size_t)cap);
		for (i = cap; i < cap + GUARD; i++)
			bad |= b[i] != 0xa5;
		CHECK(!bad);
		if (cap < size) {
			CHECK_EQ(r, -1);
		} else {
			CHECK_EQ(r, size);
			CHECK(!memcmp(b, ref, (size_t)size));
		}
		free(b);
	}
}

int main(void)
{
	test_small();
	test_values();
	test_strings();
	test_misuse();
	test_overflow();
	return test_summary();
}
