/* SPDX-License-Identifier: GPL-2.0-only */
/* Flattened devicetree (DTB) writer over a caller's buffer (Devicetree Specification
 * v0.4 ch. 5): nodes and properties are appended in order, then fdt_finish() lays out
 * header, an empty memory reservation block, the structure block and the strings block
 * (property names, each stored once) and returns the blob's size.
 *
 * Calls never fail individually: the first error (no room, a property outside a node
 * or after a subnode, a second root, unbalanced nodes) makes the writer fail for good,
 * and fdt_finish() returns -1. Nothing is ever written at or beyond buf + cap.
 *
 *	fdt_init(&f, buf, sizeof(buf));
 *	fdt_begin_node(&f, "");
 *	fdt_prop_u32(&f, "#address-cells", 2);
 *	fdt_begin_node(&f, "chosen");
 *	fdt_prop_string(&f, "bootargs", "console=ttyAMA0");
 *	fdt_end_node(&f);
 *	fdt_end_node(&f);
 *	size = fdt_finish(&f);
 */
#ifndef HV_FDT_H
#define HV_FDT_H

#include "hv/types.h"

struct fdt {
	u8 *buf;
	size_t cap;
	size_t pos;		/* end of the structure block so far */
	size_t str;		/* property names grow down from cap to here */
	u32 depth;		/* open nodes */
	bool root_done;		/* the root node has been closed */
	bool had_subnode;	/* the innermost open node has a subnode: no more properties */
	bool failed;
};

void fdt_init(struct fdt *f, void *buf, size_t cap);
void fdt_begin_node(struct fdt *f, const char *name);	/* "name@unit-address"; "" for the root */
void fdt_end_node(struct fdt *f);

/* A property of the innermost open node; data may be NULL when len is 0 (a flag
 * such as "interrupt-controller"). */
void fdt_prop(struct fdt *f, const char *name, const void *data, u32 len);
void fdt_prop_u32(struct fdt *f, const char *name, u32 v);
void fdt_prop_u64(struct fdt *f, const char *name, u64 v);	/* two cells, high first */
void fdt_prop_cells(struct fdt *f, const char *name, const u32 *cells, u32 n);
void fdt_prop_string(struct fdt *f, const char *name, const char *s);
/* A string list: len bytes of NUL-terminated strings, e.g. "a\0b" with len = sizeof("a\0b"). */
void fdt_prop_strings(struct fdt *f, const char *name, const char *list, u32 len);

/* Completes the blob at the start of buf. Returns its size (totalsize), or -1 when
 * any call failed, the nodes are unbalanced or there is no root. */
int fdt_finish(struct fdt *f);

#endif
