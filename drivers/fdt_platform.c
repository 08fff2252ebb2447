/* SPDX-License-Identifier: GPL-2.0-only */
/* Machine discovery from a flattened devicetree. Section numbers are the Devicetree
 * Specification v0.4 (DTSpec); node and property meanings follow the Linux bindings
 * named where used. The blob is untrusted: check_header() and check_struct() first
 * prove that every token, name and value lies inside its block, after which the
 * walks below need no error paths. Every multi-byte field is read big-endian byte
 * by byte: the blob need not be aligned, and arm64 code is built with
 * -mstrict-align. Nodes are named by the offset of their FDT_BEGIN_NODE token (never
 * 0: the header comes first). */
#include "drivers/fdt_platform.h"
#include "hv/lib.h"

#define DTB_MAGIC 0xd00dfeed		/* 5.2 */
#define DTB_HEADER_SIZE 40
#define DTB_VERSION 17			/* the first with size_dt_struct */
#define DTB_MAX_DEPTH 32		/* deeper trees are refused */

#define TOK_BEGIN_NODE 1		/* 5.4.1 */
#define TOK_END_NODE 2
#define TOK_PROP 3
#define TOK_NOP 4
#define TOK_END 9

struct dtb {
	const u8 *b;
	u32 struct_off, struct_end;	/* the structure block */
	u32 strings_off, strings_end;	/* the strings block */
	u32 root;
};

struct tok {
	u32 type;
	u32 next;		/* the following token */
	const char *name;	/* FDT_BEGIN_NODE: node name; FDT_PROP: property name */
	const u8 *val;		/* FDT_PROP: len bytes of value */
	u32 len;
};

static u32 be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

/* A number of n (1 or 2) cells, most significant first (2.2.4). */
static u64 be_cells(const u8 *p, u32 n)
{
	u64 v = 0;

	for (; n; n--, p += 4)
		v = v << 32 | be32(p);
	return v;
}

/* The offset of the first NUL in [pos, end), or end when there is none. */
static u32 str_end(const u8 *b, u32 pos, u32 end)
{
	while (pos < end && b[pos])
		pos++;
	return pos;
}

/* Decodes the token at pos (5.4.1); NULL, or why it does not lie inside the
 * structure block (its name inside the strings block). */
static const char *tok(const struct dtb *f, u32 pos, struct tok *t)
{
	u32 end = f->struct_end, nameoff;
	u64 next = (u64)pos + 4;

	if (pos > end || end - pos < 4)
		return "structure block ends without FDT_END";
	t->type = be32(f->b + pos);
	if (t->type == TOK_BEGIN_NODE) {
		next = str_end(f->b, pos + 4, end);
		if (next == end)
			return "node name runs past the structure block";
		t->name = (const char *)f->b + pos + 4;
		next++;
	} else if (t->type == TOK_PROP) {
		if (end - pos < 12)
			return "property runs past the structure block";
		t->len = be32(f->b + pos + 4);
		nameoff = be32(f->b + pos + 8);
		if (t->len > end - pos - 12)
			return "property runs past the structure block";
		if (nameoff >= f->strings_end - f->strings_off ||
		    str_end(f->b, f->strings_off + nameoff, f->strings_end) == f->strings_end)
			return "property name outside the strings block";
		t->name = (const char *)f->b + f->strings_off + nameoff;
		t->val = f->b + pos + 12;
		next += 8 + t->len;
	} else if (t->type != TOK_END_NODE && t->type != TOK_NOP && t->type != TOK_END) {
		return "unknown devicetree token";
	}
	/* Tokens are 32-bit aligned (5.4.1), counted from the block's start as dtc and
	 * libfdt do. */
	next = f->struct_off + ALIGN_UP(next - f->struct_off, 4);
	if (next > end)
		return "structure block ends without FDT_END";
	t->next = (u32)next;
	return NULL;
}

/* A token of a checked structure block. Should one not decode after all, it reads
 * as FDT_END, which ends every walk. */
static struct tok at(const struct dtb *f, u32 pos)
{
	struct tok t;

	if (tok(f, pos, &t)) {
		t.type = TOK_END;
		t.next = f->struct_end;
	}
	return t;
}

/* 5.2: magic, version and the two blocks inside totalsize, apart. Only magic and
 * totalsize are read before totalsize is known to cover the header. */
static const char *check_header(struct dtb *f, const u8 *b)
{
	u32 size, so, ss, to, ts;

	if (!b)
		return "no devicetree";
	if (be32(b) != DTB_MAGIC)
		return "bad devicetree magic";
	size = be32(b + 4);
	if (size < DTB_HEADER_SIZE)
		return "devicetree smaller than its header";
	if (be32(b + 20) < DTB_VERSION || be32(b + 24) > DTB_VERSION)
		return "unsupported devicetree version";
	so = be32(b + 8);
	ss = be32(b + 36);
	to = be32(b + 12);
	ts = be32(b + 32);
	if (so < DTB_HEADER_SIZE || to < DTB_HEADER_SIZE || (u64)so + ss > size || (u64)to + ts > size)
		return "devicetree block outside the blob";
	if (so < (u64)to + ts && to < (u64)so + ss)
		return "devicetree blocks overlap";
	f->b = b;
	f->struct_off = so;
	f->struct_end = so + ss;
	f->strings_off = to;
	f->strings_end = to + ts;
	return NULL;
}

/* 5.4.2: one root node, balanced, properties before subnodes, then FDT_END. */
static const char *check_struct(struct dtb *f)
{
	u32 pos = f->struct_off, depth = 0;
	bool closed = false, had_subnode = false;
	const char *err;
	struct tok t;

	for (;; pos = t.next) {
		err = tok(f, pos, &t);
		if (err)
			return err;
		if (t.type == TOK_BEGIN_NODE) {
			if (closed)
				return "devicetree with two root nodes";
			if (!depth)
				f->root = pos;
			if (++depth > DTB_MAX_DEPTH)
				return "devicetree nested too deeply";
			had_subnode = false;
		} else if (t.type == TOK_END_NODE) {
			if (!depth)
				return "unbalanced FDT_END_NODE";
			closed = !--depth;
			had_subnode = true;
		} else if (t.type == TOK_PROP) {
			if (!depth || had_subnode)
				return "property outside a node or after a subnode";
		} else if (t.type == TOK_END) {
			if (!closed)
				return depth ? "structure block ends inside a node" : "devicetree without a root node";
			return NULL;
		}
	}
}

/* s (NUL-terminated) equals the n bytes at name, which hold no NUL. */
static bool name_is(const char *s, const char *name, u32 n)
{
	return !strncmp(s, name, n) && !s[n];
}

/* node's property named by the n bytes at name: its value in *val, *len bytes. */
static bool get_prop(const struct dtb *f, u32 node, const char *name, u32 n,
		     const u8 **val, u32 *len)
{
	struct tok t;

	for (t = at(f, at(f, node).next); t.type == TOK_PROP || t.type == TOK_NOP; t = at(f, t.next)) {
		if (t.type == TOK_PROP && name_is(t.name, name, n)) {
			*val = t.val;
			*len = t.len;
			return true;
		}
	}
	return false;
}

static bool prop(const struct dtb *f, u32 node, const char *name, const u8 **val, u32 *len)
{
	return get_prop(f, node, name, (u32)strlen(name), val, len);
}

/* A one-cell property such as #address-cells: dflt when absent, ~0u when not one cell. */
static u32 prop_u32(const struct dtb *f, u32 node, const char *name, u32 dflt)
{
	const u8 *v;
	u32 len;

	if (!prop(f, node, name, &v, &len))
		return dflt;
	return len == 4 ? be32(v) : ~0u;
}

/* A cell count this code reads addresses and sizes with (into a u64). */
static bool one_or_two(u32 cells)
{
	return cells == 1 || cells == 2;
}

/* A string property's value is exactly s. */
static bool str_is(const u8 *v, u32 len, const char *s)
{
	return len == strlen(s) + 1 && !memcmp(v, s, len);
}

/* A string list (2.2.4, e.g. compatible) holds s. */
static bool str_in_list(const u8 *v, u32 len, const char *s)
{
	u32 n = (u32)strlen(s), p, e;

	for (p = 0; p < len; p = e + 1) {
		e = str_end(v, p, len);
		if (e - p == n && !memcmp(v + p, s, n))
			return true;
	}
	return false;
}

static bool compatible(const struct dtb *f, u32 node, const char *s)
{
	const u8 *v;
	u32 len;

	return prop(f, node, "compatible", &v, &len) && str_in_list(v, len, s);
}

/* 2.3.4: status absent or "okay" (Linux also takes "ok"). */
static bool enabled(const struct dtb *f, u32 node)
{
	const u8 *v;
	u32 len;

	return !prop(f, node, "status", &v, &len) || str_is(v, len, "okay") || str_is(v, len, "ok");
}

/* The next node in document order after node, or 0. */
static u32 next_node(const struct dtb *f, u32 node)
{
	struct tok t = at(f, node);
	u32 pos;

	for (pos = t.next; (t = at(f, pos)).type != TOK_END; pos = t.next)
		if (t.type == TOK_BEGIN_NODE)
			return pos;
	return 0;
}

/* The offset just past node's FDT_END_NODE. */
static u32 node_end(const struct dtb *f, u32 node)
{
	u32 pos = node, depth = 0;
	struct tok t;

	do {
		t = at(f, pos);
		if (t.type == TOK_END)
			return pos;
		if (t.type == TOK_BEGIN_NODE)
			depth++;
		else if (t.type == TOK_END_NODE)
			depth--;
		pos = t.next;
	} while (depth);
	return pos;
}

/* node's first child (prev 0) or the sibling after its child prev; 0 when none. */
static u32 child(const struct dtb *f, u32 node, u32 prev)
{
	struct tok t;
	u32 pos;

	pos = prev ? node_end(f, prev) : at(f, node).next;
	for (t = at(f, pos); t.type == TOK_PROP || t.type == TOK_NOP; t = at(f, pos))
		pos = t.next;
	return t.type == TOK_BEGIN_NODE ? pos : 0;
}

/* Stores node's ancestors, the root first, and returns how many there are. */
static u32 ancestors(const struct dtb *f, u32 node, u32 anc[DTB_MAX_DEPTH])
{
	u32 pos = f->root, depth = 0;
	struct tok t;

	/* check_struct() bounds the depth by DTB_MAX_DEPTH. */
	while (pos != node && (t = at(f, pos)).type != TOK_END) {
		if (t.type == TOK_BEGIN_NODE)
			anc[depth++] = pos;
		else if (t.type == TOK_END_NODE)
			depth--;
		pos = t.next;
	}
	return depth;
}

/* The node at path (len bytes without a NUL: "/a/b@1"), or 0. 2.2.3: a unit address
 * may be left out where that is unambiguous; the first match is taken. */
static u32 find_path(const struct dtb *f, const char *path, u32 len)
{
	u32 node = f->root, parent, i = 0, n;
	const char *name;
	bool unit;

	while (node) {
		while (i < len && path[i] == '/')
			i++;
		if (i == len)
			return node;
		for (n = 0, unit = false; i + n < len && path[i + n] != '/'; n++)
			unit |= path[i + n] == '@';
		parent = node;
		for (node = child(f, parent, 0); node; node = child(f, parent, node)) {
			name = at(f, node).name;
			if (!strncmp(name, path + i, n) && (!name[n] || (name[n] == '@' && !unit)))
				break;
		}
		i += n;
	}
	return 0;
}

/* Maps *addr from the address space of bus's children to that of bus's parent
 * (2.3.8): ranges holds (child address, parent address, length) triplets; empty
 * ranges is the identity, no ranges means no mapping. */
static const char *translate(const struct dtb *f, u32 bus, u32 parent, u64 *addr)
{
	u32 cac = prop_u32(f, bus, "#address-cells", 2), csc = prop_u32(f, bus, "#size-cells", 1);
	u32 pac = prop_u32(f, parent, "#address-cells", 2), len, n;
	const u8 *v;
	u64 child_base, size;

	if (!prop(f, bus, "ranges", &v, &len))
		return "a bus without ranges hides a device";
	if (!len)
		return NULL;
	if (!one_or_two(cac) || !one_or_two(pac) || !one_or_two(csc))
		return "unsupported ranges cells";
	for (n = (cac + pac + csc) * 4; len >= n; v += n, len -= n) {
		child_base = be_cells(v, cac);
		size = be_cells(v + (cac + pac) * 4, csc);
		if (*addr >= child_base && *addr - child_base < size) {
			*addr = *addr - child_base + be_cells(v + cac * 4, pac);
			return NULL;
		}
	}
	return "a device outside its bus's ranges";
}

/* Entry i of node's reg (2.3.6: cells per the parent's #address-cells and
 * #size-cells, 2.3.5) as a CPU physical address, translated through the ranges of
 * every bus above it. *addr and *size are written only on success. */
static const char *reg_entry(const struct dtb *f, u32 node, u32 i, u64 *addr, u64 *size)
{
	u32 anc[DTB_MAX_DEPTH], d = ancestors(f, node, anc), ac, sc, len;
	const char *err;
	const u8 *v;
	u64 a;

	if (!d || !prop(f, node, "reg", &v, &len))
		return "no reg";
	ac = prop_u32(f, anc[d - 1], "#address-cells", 2);
	sc = prop_u32(f, anc[d - 1], "#size-cells", 1);
	if (!one_or_two(ac) || sc > 2)
		return "unsupported #address-cells or #size-cells";
	if (len / ((ac + sc) * 4) <= i)
		return "reg has too few entries";
	v += i * (ac + sc) * 4;
	a = be_cells(v, ac);
	for (; d > 1; d--) {
		err = translate(f, anc[d - 1], anc[d - 2], &a);
		if (err)
			return err;
	}
	*addr = a;
	*size = be_cells(v + ac * 4, sc);
	return NULL;
}

static const struct {
	const char *compatible;
	u8 version;
} gic_models[] = {
	{ "arm,gic-v3", 3 },		/* arm,gic-v3.yaml, GICv4 too */
	{ "arm,gic-400", 2 },		/* arm,gic.yaml */
	{ "arm,cortex-a15-gic", 2 },
	{ "arm,cortex-a7-gic", 2 },
	{ "arm,cortex-a9-gic", 2 },
};

/* An enabled interrupt controller that is a GIC: its version, else 0. */
static u8 gic_version(const struct dtb *f, u32 node)
{
	const u8 *v;
	u32 len, i;

	if (!prop(f, node, "interrupt-controller", &v, &len) || !enabled(f, node))
		return 0;
	for (i = 0; i < ARRAY_SIZE(gic_models); i++)
		if (compatible(f, node, gic_models[i].compatible))
			return gic_models[i].version;
	return 0;
}

/* The first GIC: the distributor, GICv3 redistributor regions, and into *cpu what
 * every CPU shares (GICv2 frames, the maintenance interrupt). */
static const char *find_gic(const struct dtb *f, struct acpi_arm_platform *out,
			    struct acpi_arm_cpu *cpu)
{
	const char *err;
	const u8 *v;
	u32 node, len, nr, i;
	u64 size;

	for (node = f->root; node; node = next_node(f, node)) {
		out->gic_version = gic_version(f, node);
		if (out->gic_version)
			break;
	}
	if (!node)
		return "no GIC node";
	if (!prop(f, node, "reg", &v, &len))
		return "GIC node without reg";
	err = reg_entry(f, node, 0, &out->gicd_base, &size);
	if (err)
		return err;
	if (out->gic_version == 3) {
		/* arm,gic-v3.yaml: reg = GICD, #redistributor-regions (default 1) GICR
		 * regions, then GICC, GICH, GICV, which system registers replace. */
		nr = prop_u32(f, node, "#redistributor-regions", 1);
		if (!nr || nr > ACPI_ARM_MAX_GICR)
			return "unsupported #redistributor-regions";
		for (i = 0; i < nr; i++) {
			err = reg_entry(f, node, 1 + i, &out->gicr[i].base, &size);
			if (err)
				return err;
			if (!size || size > UINT32_MAX)
				return "GICR region size out of range";
			out->gicr[i].length = (u32)size;
		}
		out->ngicr = nr;
	} else {
		/* arm,gic.yaml: reg = GICD, GICC and, with the virtualization
		 * extensions, GICH and GICV: without them these stay 0. */
		err = reg_entry(f, node, 1, &cpu->gicc_base, &size);
		if (err)
			return err;
		reg_entry(f, node, 2, &cpu->gich_base, &size);
		reg_entry(f, node, 3, &cpu->gicv_base, &size);
	}
	/* Both bindings: interrupts = <1 n flags> is the maintenance interrupt, PPI n,
	 * INTID 16 + n. */
	if (prop(f, node, "interrupts", &v, &len) && len >= 8 && be32(v) == 1)
		cpu->vgic_maint_gsiv = 16 + be32(v + 4);
	return NULL;
}

/* The enabled /cpus/cpu nodes (3.7, 3.8), each given the GIC fields of *gic. */
static const char *find_cpus(const struct dtb *f, struct acpi_arm_platform *out,
			     const struct acpi_arm_cpu *gic)
{
	u32 cpus = find_path(f, "/cpus", 5), ac, node, number, next_number = 0, len, i;
	struct acpi_arm_cpu *c;
	const u8 *v;
	u64 mpidr;

	if (!cpus)
		return "no /cpus";
	/* arm/cpus.yaml: reg is the MPIDR's affinity, Aff2..Aff0 in one cell; with
	 * two, Aff3 in the first. */
	ac = prop_u32(f, cpus, "#address-cells", 2);
	if (!one_or_two(ac))
		return "/cpus #address-cells is not 1 or 2";
	for (node = child(f, cpus, 0); node; node = child(f, cpus, node)) {
		/* Not cpu-map and the like. Disabled CPUs keep their GICv2 CPU
		 * interface numbers, taken to follow the nodes' order. */
		if (!prop(f, node, "device_type", &v, &len) || !str_is(v, len, "cpu"))
			continue;
		number = next_number++;
		if (!enabled(f, node))
			continue;
		if (!prop(f, node, "reg", &v, &len) || len < ac * 4)
			return "CPU node without reg";
		mpidr = be_cells(v, ac);
		for (i = 0; i < out->ncpus; i++)
			if (out->cpus[i].mpidr == mpidr)
				return "/cpus lists an MPIDR twice";
		if (out->ncpus == ACPI_ARM_MAX_CPUS) {
			out->cpus_ignored++;
			continue;
		}
		c = &out->cpus[out->ncpus++];
		*c = *gic;
		c->mpidr = mpidr;
		if (out->gic_version == 2)
			c->cpu_interface = number;
	}
	return out->ncpus ? NULL : "no enabled CPU in /cpus";
}

/* psci.yaml: "arm,psci-0.2" and later have the standard function IDs (PSCI 0.1's
 * "arm,psci" does not); method is the conduit. */
static u16 psci_flags(const struct dtb *f)
{
	u32 node = find_path(f, "/psci", 5), len;
	const u8 *v;

	if (!node || (!compatible(f, node, "arm,psci-0.2") && !compatible(f, node, "arm,psci-1.0")))
		return 0;
	if (prop(f, node, "method", &v, &len) && str_is(v, len, "hvc"))
		return ACPI_ARM_PSCI_COMPLIANT | ACPI_ARM_PSCI_USE_HVC;
	return ACPI_ARM_PSCI_COMPLIANT;
}

/* 3.6: stdout-path is a path or an alias (3.3), ended by a ':' before any options. */
static u32 stdout_node(const struct dtb *f, const u8 *v, u32 len)
{
	const char *path = (const char *)v;
	u32 aliases, n;

	for (n = 0; n < len && path[n] && path[n] != ':'; n++)
		;
	if (n && path[0] == '/')
		return find_path(f, path, n);
	aliases = find_path(f, "/aliases", 8);
	if (!aliases || !get_prop(f, aliases, path, n, &v, &len) || !len || v[0] != '/')
		return 0;
	return find_path(f, (const char *)v, str_end(v, 0, len));
}

/* arm,pl011.yaml: the PL011 (and its "arm,primecell" bus identity). */
static bool pl011(const struct dtb *f, u32 node)
{
	return compatible(f, node, "arm,pl011") && enabled(f, node);
}

/* The console: the /chosen stdout-path node, else the first enabled PL011. Only a
 * PL011 is taken; the console is optional, and anything else counts as none. */
static void find_console(const struct dtb *f, struct acpi_arm_platform *out)
{
	u32 chosen = find_path(f, "/chosen", 7), node, len;
	const u8 *v;
	u64 size;

	if (chosen && prop(f, chosen, "stdout-path", &v, &len))
		node = stdout_node(f, v, len);
	else
		for (node = f->root; node && !pl011(f, node); node = next_node(f, node))
			;
	if (node && pl011(f, node) && !reg_entry(f, node, 0, &out->spcr_base, &size)) {
		out->spcr = true;
		out->spcr_type = ACPI_SPCR_PL011;
	}
}

int fdt_arm_platform(const void *fdt, struct acpi_arm_platform *out, const char **why)
{
	struct acpi_arm_cpu gic;
	struct dtb f;

	memset(out, 0, sizeof(*out));
	memset(&gic, 0, sizeof(gic));
	*why = check_header(&f, fdt);
	if (!*why)
		*why = check_struct(&f);
	if (!*why)
		*why = find_gic(&f, out, &gic);
	if (!*why)
		*why = find_cpus(&f, out, &gic);
	if (*why)
		return -1;
	out->arm_boot_flags = psci_flags(&f);
	find_console(&f, out);
	return 0;
}
