/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for the arm64 guest's device tree (arch/arm64/guest_fdt.c): the blob is
 * checked against the format (DT spec v0.4 ch. 5), then read back by path as Linux
 * would, property by property, for GICv2 and GICv3, several vCPU counts, with and
 * without an initrd; then bad parameters and every too-small buffer. The blob is
 * written by libfdt's sequential-write functions; this reads it with its own code. */
#include <stdlib.h>
#include "../../../arch/arm64/guest_fdt.c"
#include "arch/arm64/guest.h"
#include "../test.h"

#define GUARD 64

static u8 *blob;
static u32 blob_size;

static u32 be32(const u8 *p) { return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3]; }

static u64 be64(const u8 *p) { return (u64)be32(p) << 32 | be32(p + 4); }

/* Header, reservation map and the token stream of the whole blob: 0 when valid. */
static int check_format(void)
{
	const u8 *b = blob;
	u32 st, st_size, strs, strs_size, rsv, p, depth = 0, nodes = 0;

	/* Version 17, readable by a version 16 reader or older (libfdt's writer says 2). */
	if (blob_size < 56 || be32(b) != 0xd00dfeed || be32(b + 4) != blob_size ||
	    be32(b + 20) != 17 || be32(b + 24) > 16 || be32(b + 28) != 0)
		return -1;
	st = be32(b + 8);
	strs = be32(b + 12);
	strs_size = be32(b + 32);
	st_size = be32(b + 36);
	rsv = be32(b + 16);
	/* An empty map (its terminating entry only), 8-byte aligned, after the header. */
	if (rsv < 40 || rsv % 8 || rsv > blob_size - 16 || be64(b + rsv) || be64(b + rsv + 8))
		return -1;
	if (st < rsv + 16 || st % 4 || st_size % 4 || st_size > blob_size - st ||
	    strs < st + st_size || strs_size > blob_size - strs)
		return -1;
	for (p = st; p < st + st_size;) {
		u32 tok = be32(b + p), len, name;

		p += 4;
		switch (tok) {
		case FDT_BEGIN_NODE:
			len = (u32)strnlen((const char *)b + p, st + st_size - p);
			if (p + len == st + st_size || (!depth && (len || nodes)))
				return -1; /* unterminated name, or not one root */
			p = (u32)ALIGN_UP(p + len + 1, 4);
			depth++;
			nodes++;
			break;
		case FDT_END_NODE:
			if (!depth--)
				return -1;
			break;
		case FDT_PROP:
			if (!depth || st + st_size - p < 8)
				return -1;
			len = be32(b + p);
			name = be32(b + p + 4);
			if (name >= strs_size || !memchr(b + strs + name, 0, strs_size - name) ||
			    len > st + st_size - p - 8)
				return -1;
			p = (u32)ALIGN_UP(p + 8 + len, 4);
			break;
		case FDT_END:
			return depth || p != st + st_size ? -1 : 0;
		default:
			return -1;
		}
	}
	return -1;
}

/* Visits the structure block: for each node (prop == NULL) and each property, calls
 * fn with the node's path ("/" for the root); stops when fn returns non-zero. */
typedef int (*visit_fn)(const char *path, const char *prop, const u8 *val, u32 len, void *arg);

static void visit(visit_fn fn, void *arg)
{
	char path[256] = "";
	size_t plen[32];
	u32 p = be32(blob + 8), depth = 0, strs = be32(blob + 12);

	for (;;) {
		u32 tok = be32(blob + p);
		const char *name;

		p += 4;
		if (tok == FDT_BEGIN_NODE) {
			name = (const char *)blob + p;
			plen[depth++] = strlen(path);
			if (depth > 1) {
				strcat(path, "/");
				strcat(path, name);
			}
			if (fn(*path ? path : "/", NULL, NULL, 0, arg))
				return;
			p = (u32)ALIGN_UP(p + strlen(name) + 1, 4);
		} else if (tok == FDT_END_NODE) {
			path[plen[--depth]] = 0;
		} else if (tok == FDT_PROP) {
			u32 len = be32(blob + p);

			name = (const char *)blob + strs + be32(blob + p + 4);
			if (fn(*path ? path : "/", name, blob + p + 8, len, arg))
				return;
			p = (u32)ALIGN_UP(p + 8 + len, 4);
		} else {
			return;
		}
	}
}

struct lookup {
	const char *path, *prop;
	const u8 *val;
	u32 len;
	bool found;
};

static int lookup_fn(const char *path, const char *prop, const u8 *val, u32 len, void *arg)
{
	struct lookup *l = arg;

	if (strcmp(path, l->path) || (prop ? !l->prop || strcmp(prop, l->prop) : !!l->prop))
		return 0;
	l->val = val;
	l->len = len;
	l->found = true;
	return 1;
}

static bool has_node(const char *path)
{
	struct lookup l = { .path = path };

	visit(lookup_fn, &l);
	return l.found;
}

/* The property's value, NULL when absent. */
static const u8 *prop(const char *path, const char *name, u32 *len)
{
	struct lookup l = { .path = path, .prop = name };

	visit(lookup_fn, &l);
	*len = l.len;
	return l.found ? l.val : NULL;
}

/* Whether the property is exactly these bytes (a string's or list's NUL included). */
static bool prop_is(const char *path, const char *name, const void *v, u32 n)
{
	u32 len;
	const u8 *p = prop(path, name, &len);

	return p && len == n && !memcmp(p, v, n);
}

#define PROP_STR(path, name, s) prop_is(path, name, s, sizeof(s))

static bool prop_cells(const char *path, const char *name, const u32 *c, u32 n)
{
	u32 len, i;
	const u8 *p = prop(path, name, &len);

	if (!p || len != 4 * n)
		return false;
	for (i = 0; i < n; i++)
		if (be32(p + 4 * i) != c[i])
			return false;
	return true;
}

static u32 prop_u32(const char *path, const char *name)
{
	u32 len;
	const u8 *p = prop(path, name, &len);

	CHECK(p && len == 4);
	return p && len == 4 ? be32(p) : 0xdeadbeef;
}

/* The path of the node whose phandle is ph, "" when none. */
struct by_phandle {
	u32 ph, count;
	char path[64];
};

static int phandle_fn(const char *path, const char *prop, const u8 *val, u32 len, void *arg)
{
	struct by_phandle *b = arg;

	if (prop && !strcmp(prop, "phandle") && len == 4 && be32(val) == b->ph) {
		snprintf(b->path, sizeof(b->path), "%s", path);
		b->count++;
	}
	return 0;
}

static const char *phandle_node(u32 ph)
{
	static struct by_phandle b;

	memset(&b, 0, sizeof(b));
	b.ph = ph;
	visit(phandle_fn, &b);
	CHECK_EQ(b.count, 1);
	return b.path;
}

/* Every node's path, in order, joined by spaces. */
static int nodes_fn(const char *path, const char *prop, const u8 *val, u32 len, void *arg)
{
	(void)val;
	(void)len;
	if (!prop) {
		strcat(arg, path);
		strcat(arg, " ");
	}
	return 0;
}

static struct guest_fdt_params params(u32 gic, u32 nvcpus, bool initrd)
{
	struct guest_fdt_params p = {
		.nvcpus = nvcpus,
		.ram_base = 0x40000000,
		.ram_size = 0x120000000ull, /* 4.5 GiB: the size needs both cells */
		.gic_version = gic,
		.gicd_base = 0x8000000,
		.gicr_base = guest_gicr_base(nvcpus),
		.gicc_base = 0x8010000,
		.uart_base = 0x9000000,
		.uart_spi = 1,
		.cmdline = "console=ttyAMA0 earlycon root=/dev/ram",
	};

	if (initrd) {
		p.initrd_start = 0x148000000ull;
		p.initrd_end = 0x148123456ull;
	}
	return p;
}

static int build(const struct guest_fdt_params *p, size_t cap)
{
	int n;

	free(blob);
	blob = malloc(cap);
	n = guest_fdt_build(blob, cap, p);
	blob_size = n > 0 ? (u32)n : 0;
	return n;
}

static void check_tree(u32 gic, u32 nvcpus, bool initrd)
{
	struct guest_fdt_params p = params(gic, nvcpus, initrd);
	char nodes[8192] = "", expect[8192], path[64];
	u32 i, len, gic_ph, clk_ph;

	CHECK(build(&p, 65536) > 0);
	CHECK_EQ(check_format(), 0);
	if (check_format())
		return;

	/* Exactly these nodes. */
	visit(nodes_fn, nodes);
	strcpy(expect, "/ /chosen /memory@40000000 /cpus ");
	for (i = 0; i < nvcpus; i++) {
		snprintf(path, sizeof(path), "/cpus/cpu@%x ", (u32)(vcpu_mpidr(i) & 0xffff));
		strcat(expect, path);
	}
	strcat(expect, "/psci /intc@8000000 /timer /apb-pclk /pl011@9000000 ");
	CHECK_STR(nodes, expect);

	/* Root: the GIC is every node's interrupt parent. */
	CHECK(PROP_STR("/", "compatible", "linux,dummy-virt"));
	CHECK_EQ(prop_u32("/", "#address-cells"), 2);
	CHECK_EQ(prop_u32("/", "#size-cells"), 2);
	gic_ph = prop_u32("/", "interrupt-parent");
	CHECK_STR(phandle_node(gic_ph), "/intc@8000000");

	/* /chosen: the console is the UART node. */
	CHECK(PROP_STR("/chosen", "bootargs", "console=ttyAMA0 earlycon root=/dev/ram"));
	CHECK(PROP_STR("/chosen", "stdout-path", "/pl011@9000000"));
	CHECK(has_node("/pl011@9000000"));
	if (initrd) {
		const u8 *v = prop("/chosen", "linux,initrd-start", &len);

		CHECK(v && len == 8 && be64(v) == 0x148000000ull);
		v = prop("/chosen", "linux,initrd-end", &len);
		CHECK(v && len == 8 && be64(v) == 0x148123456ull);
	} else {
		CHECK(!prop("/chosen", "linux,initrd-start", &len));
		CHECK(!prop("/chosen", "linux,initrd-end", &len));
	}

	/* Memory. */
	{
		static const u32 reg[] = { 0, 0x40000000, 1, 0x20000000 };

		CHECK(PROP_STR("/memory@40000000", "device_type", "memory"));
		CHECK(prop_cells("/memory@40000000", "reg", reg, 4));
	}

	/* CPUs: reg is the MPIDR affinity; vCPU 16 is Aff1 1, Aff0 0. */
	CHECK_EQ(prop_u32("/cpus", "#address-cells"), 1);
	CHECK_EQ(prop_u32("/cpus", "#size-cells"), 0);
	for (i = 0; i < nvcpus; i++) {
		u32 aff = (i / 16) << 8 | (i % 16);

		snprintf(path, sizeof(path), "/cpus/cpu@%x", aff);
		CHECK(PROP_STR(path, "device_type", "cpu"));
		CHECK(PROP_STR(path, "compatible", "arm,armv8"));
		CHECK_EQ(prop_u32(path, "reg"), aff);
		CHECK_EQ(mpidr_to_vcpu(prop_u32(path, "reg"), nvcpus), i);
		CHECK(PROP_STR(path, "enable-method", "psci"));
	}

	/* PSCI through HVC. */
	CHECK(PROP_STR("/psci", "compatible", "arm,psci-1.0\0arm,psci-0.2\0arm,psci"));
	CHECK(PROP_STR("/psci", "method", "hvc"));
	CHECK_EQ(prop_u32("/psci", "cpu_on"), 0xc4000003);
	CHECK_EQ(prop_u32("/psci", "cpu_off"), 0x84000002);

	/* The GIC. */
	CHECK(prop_is("/intc@8000000", "interrupt-controller", "", 0));
	CHECK_EQ(prop_u32("/intc@8000000", "#interrupt-cells"), 3);
	CHECK_EQ(prop_u32("/intc@8000000", "#address-cells"), 2);
	CHECK_EQ(prop_u32("/intc@8000000", "#size-cells"), 2);
	CHECK(prop_is("/intc@8000000", "ranges", "", 0));
	if (gic == 3) {
		/* 123 redistributors fit where QEMU's virt has them, more move (guest.h). */
		const u32 reg[] = { 0, 0x8000000,
				    0, 0x10000,
				    0, nvcpus <= 123 ? 0x80a0000 : 0xa000000,
				    0, nvcpus * 0x20000 };

		CHECK(PROP_STR("/intc@8000000", "compatible", "arm,gic-v3"));
		CHECK(prop_cells("/intc@8000000", "reg", reg, 8));
		CHECK_EQ(prop_u32("/intc@8000000", "#redistributor-regions"), 1);
	} else {
		static const u32 reg[] = { 0, 0x8000000, 0, 0x1000, 0, 0x8010000, 0, 0x2000 };

		CHECK(PROP_STR("/intc@8000000", "compatible", "arm,cortex-a15-gic"));
		CHECK(prop_cells("/intc@8000000", "reg", reg, 8));
		CHECK(!prop("/intc@8000000", "#redistributor-regions", &len));
	}

	/* Timer PPIs 13, 14, 11, 10, level low; GICv2 adds the CPU mask in [15:8]. */
	{
		u32 fl = 8 | (gic == 2 ? ((1u << nvcpus) - 1) << 8 : 0);
		const u32 irqs[] = { 1, 13, fl, 1, 14, fl, 1, 11, fl, 1, 10, fl };

		CHECK(PROP_STR("/timer", "compatible", "arm,armv8-timer"));
		CHECK(prop_cells("/timer", "interrupts", irqs, 12));
		CHECK(prop_is("/timer", "always-on", "", 0));
	}

	/* The UART and its clock. */
	{
		static const u32 reg[] = { 0, 0x9000000, 0, 0x1000 };
		static const u32 irq[] = { 0, 1, 4 };

		CHECK(PROP_STR("/pl011@9000000", "compatible", "arm,pl011\0arm,primecell"));
		CHECK(prop_cells("/pl011@9000000", "reg", reg, 4));
		CHECK(prop_cells("/pl011@9000000", "interrupts", irq, 3));
		CHECK(PROP_STR("/pl011@9000000", "clock-names", "uartclk\0apb_pclk"));
		const u8 *c = prop("/pl011@9000000", "clocks", &len);
		CHECK(c && len == 8 && be32(c) == be32(c + 4));
		clk_ph = c ? be32(c) : 0;
		CHECK(clk_ph != gic_ph);
		CHECK_STR(phandle_node(clk_ph), "/apb-pclk");
		CHECK(PROP_STR("/apb-pclk", "compatible", "fixed-clock"));
		CHECK_EQ(prop_u32("/apb-pclk", "#clock-cells"), 0);
		CHECK_EQ(prop_u32("/apb-pclk", "clock-frequency"), 24000000);
	}
}

static void test_trees(void)
{
	/* 123 and 124: the redistributors' two places; ARCH_MAX_VCPUS in the hypervisor's
	 * 64 KiB (vm.c's FDT_MAX). */
	static const u32 counts[] = { 1, 2, 4, 8, 20, 72, 123, 124, ARCH_MAX_VCPUS };
	size_t i;
	int initrd;

	for (i = 0; i < ARRAY_SIZE(counts); i++) {
		for (initrd = 0; initrd < 2; initrd++) {
			check_tree(3, counts[i], initrd);
			if (counts[i] <= 8)
				check_tree(2, counts[i], initrd);
		}
	}
}

static void test_params(void)
{
	struct guest_fdt_params p;
	u32 len;

	p = params(2, 9, false); /* GICv2 has 8 CPU interfaces */
	CHECK_EQ(build(&p, 65536), -1);
	p = params(2, 20, false);
	CHECK_EQ(build(&p, 65536), -1);
	p = params(3, 0, false);
	CHECK_EQ(build(&p, 65536), -1);
	p = params(3, 4097, false);
	CHECK_EQ(build(&p, 1 << 20), -1);
	p = params(4, 1, false);
	CHECK_EQ(build(&p, 65536), -1);
	p = params(1, 1, false);
	CHECK_EQ(build(&p, 65536), -1);
	p = params(3, 1, false);
	p.uart_spi = 988; /* INTID 1020: special */
	CHECK_EQ(build(&p, 65536), -1);
	p.uart_spi = 987;
	CHECK(build(&p, 65536) > 0);
	p = params(3, 1, true);
	p.initrd_end = p.initrd_start - 1;
	CHECK_EQ(build(&p, 65536), -1);
	p.initrd_end = p.initrd_start; /* empty is fine */
	CHECK(build(&p, 65536) > 0);

	/* The largest VM: 4096 vCPUs, the last at Aff1 255, Aff0 15. */
	p = params(3, 4096, false);
	CHECK(build(&p, 1 << 20) > 0);
	CHECK_EQ(check_format(), 0);
	CHECK_EQ(prop_u32("/cpus/cpu@ff0f", "reg"), 0xff0f);

	/* No command line: no bootargs. */
	p = params(3, 1, false);
	p.cmdline = NULL;
	CHECK(build(&p, 65536) > 0);
	CHECK_EQ(check_format(), 0);
	CHECK(!prop("/chosen", "bootargs", &len));
	CHECK(PROP_STR("/chosen", "stdout-path", "/pl011@9000000"));

	/* Other addresses show up in node names and the stdout path. */
	p = params(3, 2, false);
	p.uart_base = 0x1c090000;
	p.gicd_base = 0x2f000000;
	p.ram_base = 0x80000000;
	CHECK(build(&p, 65536) > 0);
	CHECK_EQ(check_format(), 0);
	CHECK(PROP_STR("/chosen", "stdout-path", "/pl011@1c090000"));
	CHECK(has_node("/pl011@1c090000"));
	CHECK(has_node("/intc@2f000000"));
	CHECK(has_node("/memory@80000000"));
}

/* Every buffer shorter than the blob fails without writing past its end. */
static void test_overflow(void)
{
	static const u32 gics[] = { 2, 3 };
	size_t g;

	for (g = 0; g < ARRAY_SIZE(gics); g++) {
		struct guest_fdt_params p = params(gics[g], 4, true);
		int size = build(&p, 65536), cap, i;
		u8 *ref = malloc((size_t)size);

		CHECK(size > 0);
		memcpy(ref, blob, (size_t)size);
		for (cap = 0; cap <= size; cap++) {
			u8 *b = malloc((size_t)cap + GUARD);
			int r, bad = 0;

			memset(b, 0xa5, (size_t)cap + GUARD);
			r = guest_fdt_build(b, (size_t)cap, &p);
			for (i = cap; i < cap + GUARD; i++)
				bad |= b[i] != 0xa5;
			CHECK(!bad);
			if (cap < size)
				CHECK_EQ(r, -1);
			else
				CHECK(r == size && !memcmp(b, ref, (size_t)size));
			free(b);
		}
		free(ref);
	}
}

int main(void)
{
	test_trees();
	test_params();
	test_overflow();
	free(blob);
	return test_summary();
}
