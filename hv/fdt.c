/* SPDX-License-Identifier: GPL-2.0-only */
/* Flattened devicetree writer (see fdt.h). Section numbers are the Devicetree
 * Specification v0.4. While nodes are added, the structure block grows up from the end
 * of the header and the property names grow down from the end of the buffer; a
 * property records its name as the distance from the end of the buffer, which
 * fdt_finish() turns into the offset into the strings block once that block's size is
 * known, before moving it right behind the structure block. */
#include "hv/fdt.h"
#include "hv/lib.h"

#define FDT_MAGIC 0xd00dfeed		/* 5.2 */
#define FDT_VERSION 17
#define FDT_LAST_COMP_VERSION 16
#define FDT_HEADER_SIZE 40		/* 5.2: ten 32-bit fields */
#define FDT_RSVMAP_OFF FDT_HEADER_SIZE	/* 5.3: 8-byte aligned */
#define FDT_STRUCT_OFF (FDT_RSVMAP_OFF + 16)	/* the one (0, 0) terminator entry */

#define FDT_BEGIN_NODE 1		/* 5.4.1 */
#define FDT_END_NODE 2
#define FDT_PROP 3
#define FDT_END 9

static void wr32(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24);
	p[1] = (u8)(v >> 16);
	p[2] = (u8)(v >> 8);
	p[3] = (u8)v;
}

static u32 rd32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

/* Appends n bytes (zeros when data is NULL) to the structure block. */
static void put(struct fdt *f, const void *data, size_t n)
{
	if (f->failed)
		return;
	if (n > f->str - f->pos) {
		f->failed = true;
		return;
	}
	if (data)
		memcpy(f->buf + f->pos, data, n);
	else
		memset(f->buf + f->pos, 0, n);
	f->pos += n;
}

static void put32(struct fdt *f, u32 v)
{
	u8 b[4];

	wr32(b, v);
	put(f, b, 4);
}

/* Every token is 32-bit aligned (5.4.2): zero padding after names and values. */
static void pad(struct fdt *f)
{
	put(f, NULL, ALIGN_UP(f->pos, 4) - f->pos);
}

/* The name's distance from the end of the buffer, adding it to the strings unless
 * it is there already (also as the tail of a longer name). */
static u32 name_ref(struct fdt *f, const char *name)
{
	size_t len = strlen(name) + 1, p;

	for (p = f->str; p + len <= f->cap; p++)
		if (!memcmp(f->buf + p, name, len))
			return (u32)(f->cap - p);
	if (len > f->str - f->pos) {
		f->failed = true;
		return 0;
	}
	f->str -= len;
	memcpy(f->buf + f->str, name, len);
	return (u32)(f->cap - f->str);
}

void fdt_init(struct fdt *f, void *buf, size_t cap)
{
	memset(f, 0, sizeof(*f));
	f->buf = buf;
	f->cap = cap;
	f->pos = FDT_STRUCT_OFF;
	f->str = cap;
	/* The offsets and sizes in the header are 32-bit. */
	f->failed = cap < FDT_STRUCT_OFF || cap > 0x7fffffff;
}

void fdt_begin_node(struct fdt *f, const char *name)
{
	/* One root, named "" (5.4.1); every other node has a name. */
	if (f->root_done || (f->depth == 0) != !*name) {
		f->failed = true;
		return;
	}
	put32(f, FDT_BEGIN_NODE);
	put(f, name, strlen(name) + 1);
	pad(f);
	f->depth++;
	f->had_subnode = false;
}

void fdt_end_node(struct fdt *f)
{
	if (!f->depth) {
		f->failed = true;
		return;
	}
	put32(f, FDT_END_NODE);
	f->depth--;
	f->had_subnode = true;
	f->root_done = !f->depth;
}

/* The FDT_PROP token and its header (5.4.1); the caller appends len bytes of value. */
static void prop_header(struct fdt *f, const char *name, u32 len)
{
	u32 ref;

	/* Properties belong to a node and come before its subnodes (5.4.2). */
	if (f->failed || !f->depth || f->had_subnode || !*name) {
		f->failed = true;
		return;
	}
	ref = name_ref(f, name);
	put32(f, FDT_PROP);
	put32(f, len);
	put32(f, ref);
}

void fdt_prop(struct fdt *f, const char *name, const void *data, u32 len)
{
	prop_header(f, name, len);
	put(f, data, len);
	pad(f);
}

void fdt_prop_u32(struct fdt *f, const char *name, u32 v)
{
	fdt_prop_cells(f, name, &v, 1);
}

void fdt_prop_u64(struct fdt *f, const char *name, u64 v)
{
	u32 cells[2] = { (u32)(v >> 32), (u32)v };

	fdt_prop_cells(f, name, cells, 2);
}

void fdt_prop_cells(struct fdt *f, const char *name, const u32 *cells, u32 n)
{
	u32 i;

	if (n > UINT32_MAX / 4) {
		f->failed = true;
		return;
	}
	prop_header(f, name, n * 4);
	for (i = 0; i < n; i++)
		put32(f, cells[i]);
}

void fdt_prop_string(struct fdt *f, const char *name, const char *s)
{
	fdt_prop(f, name, s, (u32)strlen(s) + 1);
}

void fdt_prop_strings(struct fdt *f, const char *name, const char *list, u32 len)
{
	if (!len || list[len - 1]) {
		f->failed = true;
		return;
	}
	fdt_prop(f, name, list, len);
}

/* Rewrites each property's name reference as an offset into the strings block,
 * which is strings bytes long. */
static void fix_name_offsets(struct fdt *f, u32 strings)
{
	size_t p = FDT_STRUCT_OFF;

	for (;;) {
		u32 token = rd32(f->buf + p);

		p += 4;
		if (token == FDT_BEGIN_NODE) {
			p = ALIGN_UP(p + strlen((const char *)f->buf + p) + 1, 4);
		} else if (token == FDT_PROP) {
			u32 len = rd32(f->buf + p);

			wr32(f->buf + p + 4, strings - rd32(f->buf + p + 4));
			p = ALIGN_UP(p + 8 + len, 4);
		} else if (token == FDT_END) {
			return;
		}
	}
}

int fdt_finish(struct fdt *f)
{
	u32 strings = (u32)(f->cap - f->str);
	u8 *h = f->buf;

	if (f->depth || !f->root_done)
		f->failed = true;
	put32(f, FDT_END);
	if (f->failed)
		return -1;
	fix_name_offsets(f, strings);
	memmove(f->buf + f->pos, f->buf + f->str, strings);

	wr32(h, FDT_MAGIC);					/* 5.2 */
	wr32(h + 4, (u32)f->pos + strings);			/* totalsize */
	wr32(h + 8, FDT_STRUCT_OFF);				/* off_dt_struct */
	wr32(h + 12, (u32)f->pos);				/* off_dt_strings */
	wr32(h + 16, FDT_RSVMAP_OFF);				/* off_mem_rsvmap */
	wr32(h + 20, FDT_VERSION);
	wr32(h + 24, FDT_LAST_COMP_VERSION);
	wr32(h + 28, 0);					/* boot_cpuid_phys */
	wr32(h + 32, strings);					/* size_dt_strings */
	wr32(h + 36, (u32)f->pos - FDT_STRUCT_OFF);		/* size_dt_struct */
	memset(h + FDT_RSVMAP_OFF, 0, FDT_STRUCT_OFF - FDT_RSVMAP_OFF);
	/* The blob is complete: the writer cannot be used again. */
	f->failed = true;
	return (int)(f->pos + strings);
}
