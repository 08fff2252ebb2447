/* SPDX-License-Identifier: GPL-2.0-only */
/* Machine discovery from a flattened devicetree, read with libfdt. Section numbers are
 * the Devicetree Specification v0.4 (DTSpec); node and property meanings follow the
 * Linux bindings named where used. The blob is untrusted: check_header() and
 * check_struct() first prove, with libfdt's bounds-checked accessors, that the header's
 * blocks lie inside totalsize and that every token, name and value lies inside its
 * block, and refuse trees this code does not take (see check_struct()); fdt_check_full()
 * then confirms what libfdt itself relies on. After that the walks below, all through
 * libfdt, need no error paths: a lookup that fails reads as absent. Nodes are libfdt
 * offsets (the root is 0; negative: none). */
#include "drivers/fdt_platform.h"
#include "hv/lib.h"
#include <libfdt.h>

#define DTB_VERSION 17	 /* the first with size_dt_struct */
#define DTB_MAX_DEPTH 32 /* deeper trees are refused */

static u32 be32(const u8 *p) { return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3]; }

/* A number of n (1 or 2) cells, most significant first (2.2.4). */
static u64 be_cells(const u8 *p, u32 n)
{
	u64 v = 0;

	for (; n; n--, p += 4)
		v = v << 32 | be32(p);
	return v;
}

/* 5.2: magic, version and the blocks inside totalsize, apart. Only magic and
 * totalsize are read before totalsize is known to cover the header. libfdt reads the
 * header and the tokens as aligned 32-bit words. */
static const char *check_header(const void *fdt)
{
	u64 so, ss, to, ts;
	int err;

	if (!fdt)
		return "no devicetree";
	if ((uintptr_t)fdt % 4)
		return "devicetree not 4-byte aligned";
	if (fdt_magic(fdt) != FDT_MAGIC)
		return "bad devicetree magic";
	if (fdt_totalsize(fdt) < FDT_V17_SIZE)
		return "devicetree smaller than its header";
	if (fdt_version(fdt) < DTB_VERSION || fdt_last_comp_version(fdt) > DTB_VERSION)
		return "unsupported devicetree version";
	err = fdt_check_header(fdt);
	if (err == -FDT_ERR_BADVERSION)
		return "unsupported devicetree version";
	if (err)
		return "devicetree block outside the blob";
	so = fdt_off_dt_struct(fdt);
	ss = fdt_size_dt_struct(fdt);
	to = fdt_off_dt_strings(fdt);
	ts = fdt_size_dt_strings(fdt);
	if (so < to + ts && to < so + ss)
		return "devicetree blocks overlap";
	/* 5.3, 5.4: libfdt reads the map's 64-bit and the structure's 32-bit words aligned. */
	if (fdt_off_mem_rsvmap(fdt) % 8 || so % 4)
		return "devicetree block misaligned";
	return NULL;
}

/* 5.4: every token decodes inside the structure block (libfdt's fdt_next_tag()), each
 * property's name inside the strings block; and, stricter than libfdt, 5.4.2's shape:
 * one root node, balanced, properties before subnodes, at most DTB_MAX_DEPTH deep,
 * then FDT_END. */
static const char *check_struct(const void *fdt)
{
	int off, next, len, depth = 0, size = (int)fdt_size_dt_struct(fdt);
	bool closed = false, had_subnode = false;
	const fdt32_t *word;
	const char *name;
	u32 tag;

	for (off = 0;; off = next) {
		word = fdt_offset_ptr(fdt, off, 4);
		if (!word)
			return "structure block ends without FDT_END";
		tag = fdt32_to_cpu(*word);
		/* A property's length, checked before libfdt adds it to an offset. */
		if (tag == FDT_PROP) {
			word = fdt_offset_ptr(fdt, off + 4, 4);
			if (!word || size - off < 12 ||
			    fdt32_to_cpu(*word) > (u32)(size - off - 12))
				return "property runs past the structure block";
		}
		fdt_next_tag(fdt, off, &next);
		if (next < 0) {
			if (tag == FDT_BEGIN_NODE)
				return "node name runs past the structure block";
			if (tag == FDT_PROP)
				return "property runs past the structure block";
			if (next == -FDT_ERR_BADSTRUCTURE)
				return "unknown devicetree token";
			return "structure block ends without FDT_END";
		}
		if (tag == FDT_BEGIN_NODE) {
			if (closed)
				return "devicetree with two root nodes";
			if (++depth > DTB_MAX_DEPTH)
				return "devicetree nested too deeply";
			had_subnode = false;
		} else if (tag == FDT_END_NODE) {
			if (!depth)
				return "unbalanced FDT_END_NODE";
			closed = !--depth;
			had_subnode = true;
		} else if (tag == FDT_PROP) {
			if (!depth || had_subnode)
				return "property outside a node or after a subnode";
			if (!fdt_getprop_by_offset(fdt, off, &name, &len))
				return "property name outside the strings block";
		} else if (tag == FDT_END) {
			if (!closed)
				return depth ? "structure block ends inside a node"
					     : "devicetree without a root node";
			break;
		}
	}
	/* What libfdt's own full check adds (the root's name, the reservation map). */
	if (fdt_check_full(fdt, fdt_totalsize(fdt)))
		return "devicetree fails libfdt's full check";
	return NULL;
}

/* node's property name: its value, *len bytes; NULL when absent. */
static const u8 *prop(const void *fdt, int node, const char *name, u32 *len)
{
	const u8 *v;
	int n;

	v = fdt_getprop(fdt, node, name, &n);
	*len = v ? (u32)n : 0;
	return v;
}

/* A one-cell property such as #redistributor-regions: dflt when absent, ~0u when not
 * one cell. */
static u32 prop_u32(const void *fdt, int node, const char *name, u32 dflt)
{
	const u8 *v;
	u32 len;

	v = prop(fdt, node, name, &len);
	if (!v)
		return dflt;
	return len == 4 ? be32(v) : ~0u;
}

/* A cell count this code reads addresses and sizes with (into a u64); libfdt's
 * fdt_address_cells() and fdt_size_cells() give a negative error for malformed ones. */
static bool one_or_two(int cells) { return cells == 1 || cells == 2; }

/* A string property's value is exactly s. */
static bool str_is(const u8 *v, u32 len, const char *s)
{
	return v && len == strlen(s) + 1 && !memcmp(v, s, len);
}

static bool compatible(const void *fdt, int node, const char *s)
{
	return !fdt_node_check_compatible(fdt, node, s);
}

/* 2.3.4: status absent or "okay" (Linux also takes "ok"). */
static bool enabled(const void *fdt, int node)
{
	const u8 *v;
	u32 len;

	v = prop(fdt, node, "status", &len);
	return !v || str_is(v, len, "okay") || str_is(v, len, "ok");
}

/* Maps *addr from the address space of bus's children to that of bus's parent
 * (2.3.8): ranges holds (child address, parent address, length) triplets; empty
 * ranges is the identity, no ranges means no mapping. */
static const char *translate(const void *fdt, int bus, int parent, u64 *addr)
{
	int cac = fdt_address_cells(fdt, bus), csc = fdt_size_cells(fdt, bus);
	int pac = fdt_address_cells(fdt, parent);
	const u8 *v;
	u64 child_base, size;
	u32 len, n;

	v = prop(fdt, bus, "ranges", &len);
	if (!v)
		return "a bus without ranges hides a device";
	if (!len)
		return NULL;
	if (!one_or_two(cac) || !one_or_two(pac) || !one_or_two(csc))
		return "unsupported ranges cells";
	for (n = (u32)(cac + pac + csc) * 4; len >= n; v += n, len -= n) {
		child_base = be_cells(v, (u32)cac);
		size = be_cells(v + (cac + pac) * 4, (u32)csc);
		if (*addr >= child_base && *addr - child_base < size) {
			*addr = *addr - child_base + be_cells(v + cac * 4, (u32)pac);
			return NULL;
		}
	}
	return "a device outside its bus's ranges";
}

/* Entry i of node's reg (2.3.6: cells per the parent's #address-cells and
 * #size-cells, 2.3.5) as a CPU physical address, translated through the ranges of
 * every bus above it. *addr and *size are written only on success. */
static const char *reg_entry(const void *fdt, int node, u32 i, u64 *addr, u64 *size)
{
	int d = fdt_node_depth(fdt, node), parent, ac, sc;
	const char *err;
	const u8 *v;
	u32 len;
	u64 a;

	v = prop(fdt, node, "reg", &len);
	if (d <= 0 || !v)
		return "no reg";
	parent = fdt_supernode_atdepth_offset(fdt, node, d - 1, NULL);
	ac = fdt_address_cells(fdt, parent);
	sc = fdt_size_cells(fdt, parent);
	if (!one_or_two(ac) || sc < 0 || sc > 2)
		return "unsupported #address-cells or #size-cells";
	if (len / (u32)((ac + sc) * 4) <= i)
		return "reg has too few entries";
	v += i * (u32)(ac + sc) * 4;
	a = be_cells(v, (u32)ac);
	/* Up from the parent: each bus at depth k maps into its parent at k - 1. */
	for (; d > 1; d--) {
		err = translate(fdt, fdt_supernode_atdepth_offset(fdt, node, d - 1, NULL),
				fdt_supernode_atdepth_offset(fdt, node, d - 2, NULL), &a);
		if (err)
			return err;
	}
	*addr = a;
	*size = be_cells(v + ac * 4, (u32)sc);
	return NULL;
}

static const struct {
	const char *compatible;
	u8 version;
} gic_models[] = {
	{ "arm,gic-v3", 3 },  /* arm,gic-v3.yaml, GICv4 too */
	{ "arm,gic-400", 2 }, /* arm,gic.yaml */
	{ "arm,cortex-a15-gic", 2 }, { "arm,cortex-a7-gic", 2 }, { "arm,cortex-a9-gic", 2 },
};

/* An enabled interrupt controller that is a GIC: its version, else 0. */
static u8 gic_version(const void *fdt, int node)
{
	u32 len, i;

	if (!prop(fdt, node, "interrupt-controller", &len) || !enabled(fdt, node))
		return 0;
	for (i = 0; i < ARRAY_SIZE(gic_models); i++)
		if (compatible(fdt, node, gic_models[i].compatible))
			return gic_models[i].version;
	return 0;
}

/* The first GIC: the distributor, GICv3 redistributor regions, and into *cpu what
 * every CPU shares (GICv2 frames, the maintenance interrupt). */
static const char *find_gic(const void *fdt, struct acpi_arm_platform *out,
			    struct acpi_arm_cpu *cpu)
{
	const char *err;
	const u8 *v;
	u32 len, nr, i;
	u64 size;
	int node;

	for (node = 0; node >= 0; node = fdt_next_node(fdt, node, NULL)) {
		out->gic_version = gic_version(fdt, node);
		if (out->gic_version)
			break;
	}
	if (node < 0)
		return "no GIC node";
	if (!prop(fdt, node, "reg", &len))
		return "GIC node without reg";
	err = reg_entry(fdt, node, 0, &out->gicd_base, &size);
	if (err)
		return err;
	if (out->gic_version == 3) {
		/* arm,gic-v3.yaml: reg = GICD, #redistributor-regions (default 1) GICR
		 * regions, then GICC, GICH, GICV, which system registers replace. */
		nr = prop_u32(fdt, node, "#redistributor-regions", 1);
		if (!nr || nr > ACPI_ARM_MAX_GICR)
			return "unsupported #redistributor-regions";
		for (i = 0; i < nr; i++) {
			err = reg_entry(fdt, node, 1 + i, &out->gicr[i].base, &size);
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
		err = reg_entry(fdt, node, 1, &cpu->gicc_base, &size);
		if (err)
			return err;
		reg_entry(fdt, node, 2, &cpu->gich_base, &size);
		reg_entry(fdt, node, 3, &cpu->gicv_base, &size);
	}
	/* Both bindings: interrupts = <1 n flags> is the maintenance interrupt, PPI n,
	 * INTID 16 + n. */
	v = prop(fdt, node, "interrupts", &len);
	if (v && len >= 8 && be32(v) == 1)
		cpu->vgic_maint_gsiv = 16 + be32(v + 4);
	return NULL;
}

/* The enabled /cpus/cpu nodes (3.7, 3.8), each given the GIC fields of *gic. */
static const char *find_cpus(const void *fdt, struct acpi_arm_platform *out,
			     const struct acpi_arm_cpu *gic)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), ac, node;
	u32 number, next_number = 0, len, i;
	struct acpi_arm_cpu *c;
	const u8 *v;
	u64 mpidr;

	if (cpus < 0)
		return "no /cpus";
	/* arm/cpus.yaml: reg is the MPIDR's affinity, Aff2..Aff0 in one cell; with
	 * two, Aff3 in the first. */
	ac = fdt_address_cells(fdt, cpus);
	if (!one_or_two(ac))
		return "/cpus #address-cells is not 1 or 2";
	fdt_for_each_subnode(node, fdt, cpus)
	{
		/* Not cpu-map and the like. Disabled CPUs keep their GICv2 CPU
		 * interface numbers, taken to follow the nodes' order. */
		v = prop(fdt, node, "device_type", &len);
		if (!str_is(v, len, "cpu"))
			continue;
		number = next_number++;
		if (!enabled(fdt, node))
			continue;
		v = prop(fdt, node, "reg", &len);
		if (!v || len < (u32)ac * 4)
			return "CPU node without reg";
		mpidr = be_cells(v, (u32)ac);
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
static u16 psci_flags(const void *fdt)
{
	int node = fdt_path_offset(fdt, "/psci");
	const u8 *v;
	u32 len;

	if (node < 0 ||
	    (!compatible(fdt, node, "arm,psci-0.2") && !compatible(fdt, node, "arm,psci-1.0")))
		return 0;
	v = prop(fdt, node, "method", &len);
	if (str_is(v, len, "hvc"))
		return ACPI_ARM_PSCI_COMPLIANT | ACPI_ARM_PSCI_USE_HVC;
	return ACPI_ARM_PSCI_COMPLIANT;
}

/* 3.6: stdout-path is a path or an alias (3.3), ended by a ':' before any options.
 * Aliases are resolved here, not by libfdt: an alias must name a path. */
static int stdout_node(const void *fdt, const u8 *v, u32 len)
{
	const char *path = (const char *)v;
	int aliases, n, alen;
	const char *a;

	for (n = 0; (u32)n < len && path[n] && path[n] != ':'; n++)
		;
	if (n && path[0] == '/')
		return fdt_path_offset_namelen(fdt, path, n);
	aliases = fdt_path_offset(fdt, "/aliases");
	if (aliases < 0 || !n)
		return -FDT_ERR_NOTFOUND;
	a = fdt_getprop_namelen(fdt, aliases, path, n, &alen);
	if (!a || alen <= 0 || a[0] != '/')
		return -FDT_ERR_NOTFOUND;
	return fdt_path_offset_namelen(fdt, a, (int)strnlen(a, (size_t)alen));
}

/* arm,pl011.yaml: the PL011 (and its "arm,primecell" bus identity). */
static bool pl011(const void *fdt, int node)
{
	return compatible(fdt, node, "arm,pl011") && enabled(fdt, node);
}

/* The console: the /chosen stdout-path node, else the first enabled PL011. Only a
 * PL011 is taken; the console is optional, and anything else counts as none. */
static void find_console(const void *fdt, struct acpi_arm_platform *out)
{
	int chosen = fdt_path_offset(fdt, "/chosen"), node;
	const u8 *v = NULL;
	u64 size;
	u32 len;

	if (chosen >= 0)
		v = prop(fdt, chosen, "stdout-path", &len);
	if (v)
		node = stdout_node(fdt, v, len);
	else
		for (node = 0; node >= 0 && !pl011(fdt, node);
		     node = fdt_next_node(fdt, node, NULL))
			;
	if (node >= 0 && pl011(fdt, node) && !reg_entry(fdt, node, 0, &out->spcr_base, &size)) {
		out->spcr = true;
		out->spcr_type = ACPI_SPCR_PL011;
	}
}

int fdt_arm_platform(const void *fdt, struct acpi_arm_platform *out, const char **why)
{
	struct acpi_arm_cpu gic;

	memset(out, 0, sizeof(*out));
	memset(&gic, 0, sizeof(gic));
	*why = check_header(fdt);
	if (!*why)
		*why = check_struct(fdt);
	if (!*why)
		*why = find_gic(fdt, out, &gic);
	if (!*why)
		*why = find_cpus(fdt, out, &gic);
	if (*why)
		return -1;
	out->arm_boot_flags = psci_flags(fdt);
	find_console(fdt, out);
	return 0;
}
