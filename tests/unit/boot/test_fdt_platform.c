/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for devicetree discovery (drivers/fdt_platform.c). Blobs are written
 * with libfdt's sequential-write functions in the shape QEMU 7.2's virt machine gives
 * (dumpdtb= with gic-version=3 and 2, virtualization=on and off, secure=on, -smp 1, 4 and 200),
 * plus variants (one-cell root addresses, two-cell CPU ids, disabled CPUs, aliases,
 * stdout-path options) and a board whose GIC-400 and PL011 sit behind bus ranges.
 * Then every malformation the parser must refuse, and every truncation and many
 * corruptions of blobs, each parsed from a heap copy of exactly its totalsize so
 * that ASan catches any read past it. */
#include <stdlib.h>
#include "../../../drivers/fdt_platform.c"
#include "../test.h"

#define CAP (64 * 1024)

static u8 buf[CAP] __attribute__((aligned(8)));
static void *w;	       /* the blob being written: buf or blob */
static u32 root_cells; /* #address-cells = #size-cells of / */

static struct acpi_arm_platform plat;
static const char *why;

/* The writer, libfdt's: start() begins a blob at b, finish() returns its size. No
 * call fails with CAP bytes; one that did would show in finish() or in the parse. */
static void start(void *b, int cap)
{
	w = b;
	if (fdt_create(w, cap) || fdt_finish_reservemap(w)) {
		fprintf(stderr, "test_fdt_platform: fdt_create failed\n");
		exit(1);
	}
}

static int finish(void) { return fdt_finish(w) ? -1 : (int)fdt_totalsize(w); }

/* n cells, big-endian. */
static void prop_cells(const char *name, const u32 *cells, u32 n)
{
	void *v;

	if (!fdt_property_placeholder(w, name, (int)(4 * n), &v))
		for (u32 i = 0; i < n; i++)
			fdt32_st((u8 *)v + 4 * i, cells[i]);
}

/* An empty property (libfdt's fdt_property() would memcpy from NULL). */
static void prop_empty(const char *name)
{
	void *v;

	fdt_property_placeholder(w, name, 0, &v);
}

/* Parses size bytes at src from a heap copy of exactly that size. */
static int parse(const u8 *src, size_t size)
{
	u8 *copy = malloc(size);
	int r;

	memcpy(copy, src, size);
	why = NULL;
	r = fdt_arm_platform(copy, &plat, &why);
	free(copy);
	return r;
}

static u32 get32(const u8 *p) { return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3]; }

static void put32be(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24);
	p[1] = (u8)(v >> 16);
	p[2] = (u8)(v >> 8);
	p[3] = (u8)v;
}

/* Header fields (DTSpec 5.2). */
#define H_TOTALSIZE 4
#define H_STRUCT 8
#define H_STRINGS 12
#define H_VERSION 20
#define H_LAST_COMP 24
#define H_SIZE_STRINGS 32
#define H_SIZE_STRUCT 36

/* ------------------------------------------------------------------------- */
/* QEMU virt                                                                 */

enum {
	Q_NO_CPUS = 1 << 0,
	Q_GIC_NO_REG = 1 << 1,
	Q_GIC_ONE_REG = 1 << 2, /* GICD only */
	Q_DUP_MPIDR = 1 << 3,	/* cpu@1 has cpu@0's reg */
	Q_CPU_NO_REG = 1 << 4,
	Q_PSCI_01 = 1 << 5, /* compatible = "arm,psci" only */
	Q_NO_CHOSEN = 1 << 6,
	Q_REDIST_9 = 1 << 7,	     /* #redistributor-regions = <9> */
	Q_CPU_SHORT_REG = 1 << 8,    /* a cell short of /cpus #address-cells */
	Q_SHORT_INTERRUPTS = 1 << 9, /* the GIC's interrupts = <1> */
};

struct shape {
	u8 gic;	     /* 3: arm,gic-v3; 2: arm,cortex-a15-gic; 0: none */
	bool novirt; /* virtualization=off: GICv2 without GICH/GICV, no interrupts */
	u32 ncpus;
	u64 disabled;		 /* CPUs 0..63 with status = "disabled", a bit each */
	u32 root_cells;		 /* QEMU: 2 */
	u32 cpu_cells;		 /* /cpus #address-cells; QEMU: 1 */
	const char *psci;	 /* the method; NULL: no /psci (QEMU's secure=on) */
	const char *stdout_path; /* NULL: none */
	bool aliases;		 /* aliases { serial0 = "/pl011@9000000"; } (newer QEMUs) */
	bool secure;		 /* secure=on: a disabled pl011@9040000 first, secure-chosen */
	u32 quirks;
};

static const struct shape qemu_v3 = {
	.gic = 3,
	.ncpus = 4,
	.root_cells = 2,
	.cpu_cells = 1,
	.psci = "smc",
	.stdout_path = "/pl011@9000000",
};

/* QEMU's MPIDR for CPU i: clusters of 16 CPUs with GICv3, of 8 with GICv2. */
static u64 qemu_mpidr(const struct shape *s, u32 i)
{
	u32 cluster = s->gic == 2 ? 8 : 16;

	return (u64)(i / cluster) << 8 | i % cluster;
}

static bool cpu_disabled(const struct shape *s, u32 i) { return i < 64 && s->disabled & BIT(i); }

/* reg = <base size>... in the root's cells. */
static void reg(const char *name, const u64 *pairs, u32 n)
{
	u32 cells[16], k = 0;

	for (u32 i = 0; i < 2 * n; i++) {
		if (root_cells == 2)
			cells[k++] = (u32)(pairs[i] >> 32);
		cells[k++] = (u32)pairs[i];
	}
	prop_cells(name, cells, k);
}

static void reg1(u64 base, u64 size)
{
	u64 pair[2] = { base, size };

	reg("reg", pair, 1);
}

static void cells3(const char *name, u32 a, u32 b, u32 c)
{
	u32 v[3] = { a, b, c };

	prop_cells(name, v, 3);
}

static void strings(const char *name, const char *list, u32 len)
{
	fdt_property(w, name, list, (int)len);
}
#define STRINGS(name, lit) strings(name, lit, sizeof(lit))

static void pl011_node(const char *name, u64 base, u32 spi, bool secure)
{
	u32 clocks[2] = { 0x8000, 0x8000 };

	fdt_begin_node(w, name);
	if (secure) {
		fdt_property_string(w, "secure-status", "okay");
		fdt_property_string(w, "status", "disabled");
	}
	STRINGS("clock-names", "uartclk\0apb_pclk");
	prop_cells("clocks", clocks, 2);
	cells3("interrupts", 0, spi, 4);
	reg1(base, 0x1000);
	STRINGS("compatible", "arm,pl011\0arm,primecell");
	fdt_end_node(w);
}

static void gic_node(const struct shape *s)
{
	u64 v3[] = { 0x8000000, 0x10000, 0x80a0000, 0xf60000, 0x4000000000, 0x4000000 };
	u64 v2[] = {
		0x8000000, 0x10000, 0x8010000, 0x10000, 0x8030000, 0x10000, 0x8040000, 0x10000
	};
	/* QEMU adds the second redistributor region past 123 CPUs (0xf60000 / 128K). */
	u32 redist = s->ncpus > 123 ? 2 : 1;

	fdt_begin_node(w, "intc@8000000");
	fdt_property_u32(w, "phandle", 0x8005);
	if (s->quirks & Q_SHORT_INTERRUPTS)
		fdt_property_u32(w, "interrupts", 1);
	else if (!s->novirt)
		cells3("interrupts", 1, 9, 4);
	if (s->quirks & Q_GIC_ONE_REG)
		reg("reg", v3, 1);
	else if (!(s->quirks & Q_GIC_NO_REG) && s->gic == 3)
		reg("reg", v3, 1 + redist);
	else if (!(s->quirks & Q_GIC_NO_REG))
		reg("reg", v2, s->novirt ? 2 : 4);
	if (s->gic == 3) {
		fdt_property_u32(w, "#redistributor-regions", s->quirks & Q_REDIST_9 ? 9 : redist);
		fdt_property_string(w, "compatible", "arm,gic-v3");
	} else {
		fdt_property_string(w, "compatible", "arm,cortex-a15-gic");
	}
	prop_empty("ranges");
	fdt_property_u32(w, "#size-cells", root_cells);
	fdt_property_u32(w, "#address-cells", root_cells);
	prop_empty("interrupt-controller");
	fdt_property_u32(w, "#interrupt-cells", 3);
	if (s->gic == 3) {
		fdt_begin_node(w, "its@8080000");
		fdt_property_u32(w, "phandle", 0x8006);
		reg1(0x8080000, 0x20000);
		fdt_property_u32(w, "#msi-cells", 1);
		prop_empty("msi-controller");
		fdt_property_string(w, "compatible", "arm,gic-v3-its");
	} else {
		fdt_begin_node(w, "v2m@8020000");
		fdt_property_u32(w, "phandle", 0x8006);
		reg1(0x8020000, 0x1000);
		prop_empty("msi-controller");
		fdt_property_string(w, "compatible", "arm,gic-v2m-frame");
	}
	fdt_end_node(w);
	fdt_end_node(w);
}

static void cpus_node(const struct shape *s)
{
	char name[32];

	fdt_begin_node(w, "cpus");
	fdt_property_u32(w, "#size-cells", 0);
	fdt_property_u32(w, "#address-cells", s->cpu_cells);
	fdt_begin_node(w, "cpu-map");
	fdt_begin_node(w, "socket0");
	fdt_begin_node(w, "cluster0");
	for (u32 i = 0; i < s->ncpus; i++) {
		snprintf(name, sizeof(name), "core%u", i);
		fdt_begin_node(w, name);
		fdt_property_u32(w, "cpu", 0x8100 + i);
		fdt_end_node(w);
	}
	fdt_end_node(w);
	fdt_end_node(w);
	fdt_end_node(w);
	for (u32 i = 0; i < s->ncpus; i++) {
		u64 mpidr = qemu_mpidr(s, s->quirks & Q_DUP_MPIDR && i == 1 ? 0 : i);
		u32 cells[3] = { 0, 0, (u32)mpidr };

		/* QEMU names CPUs by index (cpu@16 has reg <0x100>). Two cells: Aff3 = 1. */
		if (s->cpu_cells >= 2)
			cells[3 - s->cpu_cells] = 1;
		snprintf(name, sizeof(name), "cpu@%u", i);
		fdt_begin_node(w, name);
		fdt_property_u32(w, "phandle", 0x8100 + i);
		if (!(s->quirks & Q_CPU_NO_REG))
			prop_cells("reg", cells + 3 - s->cpu_cells,
				   s->cpu_cells - !!(s->quirks & Q_CPU_SHORT_REG));
		fdt_property_string(w, "enable-method", "psci");
		fdt_property_string(w, "compatible", "arm,cortex-a57");
		fdt_property_string(w, "device_type", "cpu");
		if (cpu_disabled(s, i))
			fdt_property_string(w, "status", "disabled");
		fdt_end_node(w);
	}
	fdt_end_node(w);
}

/* The blob QEMU's virt machine would give for s, in buf; returns its size. */
static int build(const struct shape *s)
{
	u32 seed[8] = {
		0x44e2d4e9, 0x98b5acb0, 0x49f349d3, 0xdc81ae6a,
		0xbe5aaece, 0x2c64a2da, 0x4c75006a, 0xb8f86177,
	};
	u64 flash[] = { 0, 0x4000000, 0x4000000, 0x4000000 };
	u32 ranges[4] = { 0, 0, 0xc000000, 0x2000000 };
	u32 timer[12] = { 1, 13, 4, 1, 14, 4, 1, 11, 4, 1, 10, 4 };
	u32 gpios[3] = { 0x8007, 3, 0 };

	root_cells = s->root_cells;
	start(buf, sizeof(buf));
	fdt_begin_node(w, "");
	fdt_property_u32(w, "interrupt-parent", 0x8005);
	fdt_property_string(w, "model", "linux,dummy-virt");
	fdt_property_u32(w, "#size-cells", root_cells);
	fdt_property_u32(w, "#address-cells", root_cells);
	fdt_property_string(w, "compatible", "linux,dummy-virt");
	if (s->psci) {
		fdt_begin_node(w, "psci");
		fdt_property_u32(w, "migrate", 0xc4000005);
		fdt_property_u32(w, "cpu_on", 0xc4000003);
		fdt_property_u32(w, "cpu_off", 0x84000002);
		fdt_property_u32(w, "cpu_suspend", 0xc4000001);
		fdt_property_string(w, "method", s->psci);
		if (s->quirks & Q_PSCI_01)
			fdt_property_string(w, "compatible", "arm,psci");
		else
			STRINGS("compatible", "arm,psci-1.0\0arm,psci-0.2\0arm,psci");
		fdt_end_node(w);
	}
	fdt_begin_node(w, "memory@40000000");
	reg1(0x40000000, 0x8000000);
	fdt_property_string(w, "device_type", "memory");
	fdt_end_node(w);
	fdt_begin_node(w, "platform-bus@c000000");
	fdt_property_u32(w, "interrupt-parent", 0x8005);
	/* <child parent size>: the parent address in the root's cells. */
	prop_cells("ranges", root_cells == 2 ? ranges : ranges + 1, root_cells == 2 ? 4 : 3);
	fdt_property_u32(w, "#address-cells", 1);
	fdt_property_u32(w, "#size-cells", 1);
	STRINGS("compatible", "qemu,platform\0simple-bus");
	fdt_end_node(w);
	fdt_begin_node(w, "fw-cfg@9020000");
	prop_empty("dma-coherent");
	reg1(0x9020000, 0x18);
	fdt_property_string(w, "compatible", "qemu,fw-cfg-mmio");
	fdt_end_node(w);
	for (u32 i = 0; i < 2; i++) {
		char name[32];

		snprintf(name, sizeof(name), "virtio_mmio@%x", 0xa000000 + i * 0x200);
		fdt_begin_node(w, name);
		prop_empty("dma-coherent");
		cells3("interrupts", 0, 0x10 + i, 1);
		reg1(0xa000000 + i * 0x200, 0x200);
		fdt_property_string(w, "compatible", "virtio,mmio");
		fdt_end_node(w);
	}
	fdt_begin_node(w, "gpio-keys");
	fdt_property_string(w, "compatible", "gpio-keys");
	fdt_begin_node(w, "poweroff");
	prop_cells("gpios", gpios, 3);
	fdt_property_u32(w, "linux,code", 0x74);
	fdt_property_string(w, "label", "GPIO Key Poweroff");
	fdt_end_node(w);
	fdt_end_node(w);
	fdt_begin_node(w, "pl061@9030000");
	fdt_property_u32(w, "phandle", 0x8007);
	cells3("interrupts", 0, 7, 4);
	prop_empty("gpio-controller");
	STRINGS("compatible", "arm,pl061\0arm,primecell");
	reg1(0x9030000, 0x1000);
	fdt_end_node(w);
	if (s->secure)
		pl011_node("pl011@9040000", 0x9040000, 8, true);
	fdt_begin_node(w, "pl031@9010000");
	cells3("interrupts", 0, 2, 4);
	reg1(0x9010000, 0x1000);
	STRINGS("compatible", "arm,pl031\0arm,primecell");
	fdt_end_node(w);
	pl011_node("pl011@9000000", 0x9000000, 1, false);
	fdt_begin_node(w, "pmu");
	cells3("interrupts", 1, 7, 4);
	fdt_property_string(w, "compatible", "arm,armv8-pmuv3");
	fdt_end_node(w);
	if (s->gic)
		gic_node(s);
	fdt_begin_node(w, "flash@0");
	fdt_property_u32(w, "bank-width", 4);
	reg("reg", flash, 2);
	fdt_property_string(w, "compatible", "cfi-flash");
	fdt_end_node(w);
	if (!(s->quirks & Q_NO_CPUS))
		cpus_node(s);
	fdt_begin_node(w, "timer");
	prop_cells("interrupts", timer, 12);
	prop_empty("always-on");
	STRINGS("compatible", "arm,armv8-timer\0arm,armv7-timer");
	fdt_end_node(w);
	fdt_begin_node(w, "apb-pclk");
	fdt_property_u32(w, "phandle", 0x8000);
	fdt_property_string(w, "clock-output-names", "clk24mhz");
	fdt_property_u32(w, "clock-frequency", 24000000);
	fdt_property_u32(w, "#clock-cells", 0);
	fdt_property_string(w, "compatible", "fixed-clock");
	fdt_end_node(w);
	if (s->aliases) {
		fdt_begin_node(w, "aliases");
		fdt_property_string(w, "serial0", "/pl011@9000000");
		fdt_end_node(w);
	}
	if (s->secure) {
		fdt_begin_node(w, "secure-chosen");
		fdt_property_string(w, "stdout-path", "/pl011@9040000");
		fdt_end_node(w);
	}
	if (!(s->quirks & Q_NO_CHOSEN)) {
		fdt_begin_node(w, "chosen");
		if (s->stdout_path)
			fdt_property_string(w, "stdout-path", s->stdout_path);
		prop_cells("rng-seed", seed, 8);
		prop_cells("kaslr-seed", seed, 2);
		fdt_end_node(w);
	}
	fdt_end_node(w);
	return finish();
}

static int parse_shape(const struct shape *s)
{
	int size = build(s);

	if (size < 0) {
		fprintf(stderr, "test_fdt_platform: blob does not fit\n");
		exit(1);
	}
	return parse(buf, (size_t)size);
}

/* What QEMU's machine is, per s, with the console at the PL011. */
static void check_qemu(const struct shape *s)
{
	u32 n = 0;

	CHECK_EQ(parse_shape(s), 0);
	CHECK(!why);
	CHECK_EQ(plat.gic_version, s->gic);
	CHECK_EQ(plat.gicd_base, 0x8000000);
	CHECK_EQ(plat.ngicr, s->gic == 3);
	if (s->gic == 3) {
		CHECK_EQ(plat.gicr[0].base, 0x80a0000);
		CHECK_EQ(plat.gicr[0].length, 0xf60000);
	}
	for (u32 i = 0; i < s->ncpus; i++) {
		const struct acpi_arm_cpu *c = &plat.cpus[n];

		if (cpu_disabled(s, i))
			continue;
		n++;
		CHECK_EQ(c->mpidr, qemu_mpidr(s, i) | (s->cpu_cells == 2 ? BIT(32) : 0));
		CHECK_EQ(c->cpu_interface, s->gic == 2 ? i : 0);
		CHECK_EQ(c->vgic_maint_gsiv, s->novirt ? 0 : 25);
		CHECK_EQ(c->gicc_base, s->gic == 2 ? 0x8010000 : 0);
		CHECK_EQ(c->gich_base, s->gic == 2 && !s->novirt ? 0x8030000 : 0);
		CHECK_EQ(c->gicv_base, s->gic == 2 && !s->novirt ? 0x8040000 : 0);
		CHECK_EQ(c->gicr_base, 0);
	}
	CHECK_EQ(plat.ncpus, n);
	CHECK_EQ(plat.cpus_ignored, 0);
	if (!s->psci)
		CHECK_EQ(plat.arm_boot_flags, 0);
	else if (!strcmp(s->psci, "hvc"))
		CHECK_EQ(plat.arm_boot_flags, ACPI_ARM_PSCI_COMPLIANT | ACPI_ARM_PSCI_USE_HVC);
	else
		CHECK_EQ(plat.arm_boot_flags, ACPI_ARM_PSCI_COMPLIANT);
	CHECK(plat.spcr);
	CHECK_EQ(plat.spcr_type, ACPI_SPCR_PL011);
	CHECK_EQ(plat.spcr_base, 0x9000000);
}

static void test_qemu_shapes(void)
{
	static const u32 ncpus[] = { 1, 4 };

	for (u8 gic = 2; gic <= 3; gic++)
		for (u32 n = 0; n < ARRAY_SIZE(ncpus); n++)
			for (u32 rc = 1; rc <= 2; rc++)
				for (u32 cc = 1; cc <= 2; cc++) {
					struct shape s = qemu_v3;

					s.gic = gic;
					s.ncpus = ncpus[n];
					s.root_cells = rc;
					s.cpu_cells = cc;
					s.psci = gic == 2 ? "hvc" : "smc";
					check_qemu(&s);
					/* cpu@1 disabled: the others keep their GICv2 numbers. */
					s.disabled = s.ncpus > 1 ? BIT(1) : 0;
					check_qemu(&s);
				}

	/* virtualization=off: GICD and GICC only, no maintenance interrupt. */
	struct shape s = qemu_v3;
	s.gic = 2;
	s.novirt = true;
	s.psci = "hvc";
	s.ncpus = 1;
	check_qemu(&s);
}

/* -smp 300: two redistributor regions; ACPI_ARM_MAX_CPUS (256) CPUs kept, the rest
 * counted. */
static void test_many_cpus(void)
{
	struct shape s = qemu_v3;

	s.ncpus = 300;
	CHECK_EQ(parse_shape(&s), 0);
	CHECK_EQ(plat.ncpus, ACPI_ARM_MAX_CPUS);
	CHECK_EQ(plat.cpus_ignored, 300 - ACPI_ARM_MAX_CPUS);
	CHECK_EQ(plat.cpus[17].mpidr, 0x101);
	CHECK_EQ(plat.cpus[63].mpidr, 0x30f);
	CHECK_EQ(plat.ngicr, 2);
	CHECK_EQ(plat.gicr[0].base, 0x80a0000);
	CHECK_EQ(plat.gicr[0].length, 0xf60000);
	CHECK_EQ(plat.gicr[1].base, 0x4000000000);
	CHECK_EQ(plat.gicr[1].length, 0x4000000);
}

static void check_console(const struct shape *s, bool found, u64 base)
{
	CHECK_EQ(parse_shape(s), 0);
	CHECK_EQ(plat.spcr, found);
	CHECK_EQ(plat.spcr_type, found ? ACPI_SPCR_PL011 : 0);
	CHECK_EQ(plat.spcr_base, found ? base : 0);
}

static void test_console(void)
{
	struct shape s = qemu_v3;

	s.aliases = true;
	s.stdout_path = "serial0";
	check_console(&s, true, 0x9000000);
	s.stdout_path = "serial0:115200n8";
	check_console(&s, true, 0x9000000);
	s.stdout_path = "/pl011@9000000:115200n8";
	check_console(&s, true, 0x9000000);
	s.stdout_path = "/pl011"; /* DTSpec 2.2.3: the unit address left out */
	check_console(&s, true, 0x9000000);
	s.stdout_path = "//pl011@9000000/";
	check_console(&s, true, 0x9000000);
	/* A stdout-path that leads nowhere or not to a PL011: no console. */
	s.stdout_path = "serial1";
	check_console(&s, false, 0);
	s.stdout_path = "/fw-cfg@9020000";
	check_console(&s, false, 0);
	s.stdout_path = "/pl011@9000001";
	check_console(&s, false, 0);
	s.stdout_path = ":115200n8";
	check_console(&s, false, 0);
	s.stdout_path = "";
	check_console(&s, false, 0);
	s.aliases = false;
	s.stdout_path = "serial0";
	check_console(&s, false, 0);

	/* secure=on: a disabled pl011@9040000 comes first, and secure-chosen is not
	 * /chosen; nor is the disabled one a console when named. */
	s = qemu_v3;
	s.secure = true;
	s.psci = NULL;
	check_console(&s, true, 0x9000000);
	s.stdout_path = NULL;
	check_console(&s, true, 0x9000000);
	s.quirks = Q_NO_CHOSEN;
	check_console(&s, true, 0x9000000);
	s.quirks = 0;
	s.stdout_path = "/pl011@9040000";
	check_console(&s, false, 0);
}

static void test_psci(void)
{
	struct shape s = qemu_v3;

	s.psci = NULL;
	CHECK_EQ(parse_shape(&s), 0);
	CHECK_EQ(plat.arm_boot_flags, 0);
	s.psci = "smc";
	CHECK_EQ(parse_shape(&s), 0);
	CHECK_EQ(plat.arm_boot_flags, ACPI_ARM_PSCI_COMPLIANT);
	s.psci = "hvc";
	CHECK_EQ(parse_shape(&s), 0);
	CHECK_EQ(plat.arm_boot_flags, ACPI_ARM_PSCI_COMPLIANT | ACPI_ARM_PSCI_USE_HVC);
	s.quirks = Q_PSCI_01; /* PSCI 0.1: firmware-specific function IDs */
	CHECK_EQ(parse_shape(&s), 0);
	CHECK_EQ(plat.arm_boot_flags, 0);
}

/* interrupts without its number: no maintenance interrupt. */
static void test_short_interrupts(void)
{
	struct shape s = qemu_v3;

	s.quirks = Q_SHORT_INTERRUPTS;
	CHECK_EQ(parse_shape(&s), 0);
	CHECK_EQ(plat.cpus[0].vgic_maint_gsiv, 0);
}

/* ------------------------------------------------------------------------- */
/* A board with the GIC and UART behind bus ranges (Raspberry Pi 4 style)    */

enum {
	B_SOC_NO_RANGES = 1 << 0,
	B_APB_NO_RANGES = 1 << 1,
	B_GIC_OUTSIDE = 1 << 2, /* the GIC's reg outside the soc ranges */
};

static int build_board(u32 quirks)
{
	u32 soc_ranges[] = {
		0x7e000000, 0,	       0xfe000000, 0x1800000, 0x7c000000, 0,
		0xfc000000, 0x2000000, 0x40000000, 0,	      0xff800000, 0x800000,
	};
	u32 apb_ranges[] = { 0, 0x7e200000, 0x10000 };
	u32 gic_reg[] = {
		0x40041000, 0x1000, 0x40042000, 0x2000, 0x40044000, 0x2000, 0x40046000, 0x2000,
	};
	u32 uart_reg[] = { 0x1000, 0x200 };
	char name[16];

	if (quirks & B_GIC_OUTSIDE)
		gic_reg[0] = 0x50000000;
	start(buf, sizeof(buf));
	fdt_begin_node(w, "");
	fdt_property_u32(w, "#address-cells", 2);
	fdt_property_u32(w, "#size-cells", 1);
	fdt_property_string(w, "compatible", "raspberrypi,4-model-b");
	fdt_begin_node(w, "aliases");
	fdt_property_string(w, "serial0", "/soc/apb@7e200000/serial@1000");
	fdt_end_node(w);
	fdt_begin_node(w, "chosen");
	fdt_property_string(w, "stdout-path", "serial0:115200n8");
	fdt_end_node(w);
	fdt_begin_node(w, "soc");
	STRINGS("compatible", "simple-bus");
	fdt_property_u32(w, "#address-cells", 1);
	fdt_property_u32(w, "#size-cells", 1);
	if (!(quirks & B_SOC_NO_RANGES))
		prop_cells("ranges", soc_ranges, ARRAY_SIZE(soc_ranges));
	fdt_begin_node(w, "apb@7e200000");
	fdt_property_u32(w, "#address-cells", 1);
	fdt_property_u32(w, "#size-cells", 1);
	if (!(quirks & B_APB_NO_RANGES))
		prop_cells("ranges", apb_ranges, 3);
	fdt_begin_node(w, "serial@1000");
	STRINGS("compatible", "arm,pl011\0arm,primecell");
	prop_cells("reg", uart_reg, 2);
	fdt_end_node(w);
	fdt_end_node(w);
	fdt_begin_node(w, "interrupt-controller@40041000");
	fdt_property_string(w, "compatible", "arm,gic-400");
	prop_empty("interrupt-controller");
	fdt_property_u32(w, "#interrupt-cells", 3);
	prop_cells("reg", gic_reg, ARRAY_SIZE(gic_reg));
	cells3("interrupts", 1, 9, 0xf04);
	fdt_end_node(w);
	fdt_end_node(w);
	fdt_begin_node(w, "cpus");
	fdt_property_u32(w, "#address-cells", 1);
	fdt_property_u32(w, "#size-cells", 0);
	for (u32 i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "cpu@%u", i);
		fdt_begin_node(w, name);
		fdt_property_string(w, "device_type", "cpu");
		fdt_property_string(w, "compatible", "arm,cortex-a72");
		fdt_property_u32(w, "reg", i);
		fdt_property_string(w, "enable-method", "spin-table");
		fdt_end_node(w);
	}
	fdt_end_node(w);
	fdt_end_node(w);
	return finish();
}

static void test_board(void)
{
	CHECK_EQ(parse(buf, (size_t)build_board(0)), 0);
	CHECK_EQ(plat.gic_version, 2);
	CHECK_EQ(plat.gicd_base, 0xff841000);
	CHECK_EQ(plat.ncpus, 4);
	CHECK_EQ(plat.cpus[3].mpidr, 3);
	CHECK_EQ(plat.cpus[3].cpu_interface, 3);
	CHECK_EQ(plat.cpus[3].gicc_base, 0xff842000);
	CHECK_EQ(plat.cpus[3].gich_base, 0xff844000);
	CHECK_EQ(plat.cpus[3].gicv_base, 0xff846000);
	CHECK_EQ(plat.cpus[3].vgic_maint_gsiv, 25);
	CHECK_EQ(plat.arm_boot_flags, 0);
	CHECK(plat.spcr);
	CHECK_EQ(plat.spcr_base, 0xfe201000); /* through apb's and soc's ranges */

	/* A bus without ranges: its children are not in the CPU's address space. */
	CHECK_EQ(parse(buf, (size_t)build_board(B_SOC_NO_RANGES)), -1);
	CHECK_STR(why, "a bus without ranges hides a device");
	CHECK_EQ(parse(buf, (size_t)build_board(B_GIC_OUTSIDE)), -1);
	CHECK_STR(why, "a device outside its bus's ranges");
	/* The console is optional. */
	CHECK_EQ(parse(buf, (size_t)build_board(B_APB_NO_RANGES)), 0);
	CHECK(!plat.spcr);
}

/* ------------------------------------------------------------------------- */
/* malformed blobs                                                           */

static void check_error(const struct shape *s, const char *expect)
{
	CHECK_EQ(parse_shape(s), -1);
	CHECK_STR(why, expect);
}

static void test_missing(void)
{
	struct shape s = qemu_v3;

	s.quirks = Q_NO_CPUS;
	check_error(&s, "no /cpus");
	s.quirks = Q_CPU_NO_REG;
	check_error(&s, "CPU node without reg");
	s.quirks = Q_CPU_SHORT_REG;
	s.cpu_cells = 2;
	check_error(&s, "CPU node without reg");
	s.cpu_cells = 1;
	s.quirks = Q_DUP_MPIDR;
	check_error(&s, "/cpus lists an MPIDR twice");
	s.quirks = Q_GIC_NO_REG;
	check_error(&s, "GIC node without reg");
	s.quirks = Q_GIC_ONE_REG;
	check_error(&s, "reg has too few entries");
	s.quirks = Q_REDIST_9;
	check_error(&s, "unsupported #redistributor-regions");
	s.quirks = 0;
	s.cpu_cells = 3;
	check_error(&s, "/cpus #address-cells is not 1 or 2");
	s.cpu_cells = 1;
	s.disabled = 0xf;
	check_error(&s, "no enabled CPU in /cpus");
	s.disabled = 0;
	s.gic = 0;
	check_error(&s, "no GIC node");

	s = qemu_v3;
	s.gic = 2;
	s.quirks = Q_GIC_ONE_REG;
	check_error(&s, "reg has too few entries");
}

/* A copy of the QEMU GICv3 blob in blob, its size returned. */
static u8 blob[CAP] __attribute__((aligned(8)));

static u32 qemu_blob(void)
{
	int size = build(&qemu_v3);

	memcpy(blob, buf, (size_t)size);
	return (u32)size;
}

static void check_patched(u32 off, u32 v, const char *expect)
{
	u32 size = qemu_blob();

	put32be(blob + off, v);
	CHECK_EQ(parse(blob, size), -1);
	CHECK_STR(why, expect);
}

/* The offset of the FDT_PROP token whose value starts with the len bytes at val. */
static u32 find_prop(const void *val, u32 len)
{
	u32 so = get32(blob + H_STRUCT);

	for (u32 p = so; p + 12 + len <= so + get32(blob + H_SIZE_STRUCT); p += 4)
		if (get32(blob + p) == 3 && !memcmp(blob + p + 12, val, len))
			return p;
	fprintf(stderr, "test_fdt_platform: no such property\n");
	exit(1);
}

static void test_header(void)
{
	u32 size = qemu_blob();

	check_patched(0, 0xd00dfeee, "bad devicetree magic");
	check_patched(H_TOTALSIZE, 39, "devicetree smaller than its header");
	check_patched(H_VERSION, 16, "unsupported devicetree version");
	check_patched(H_LAST_COMP, 18, "unsupported devicetree version");
	check_patched(H_STRUCT, 36, "devicetree block outside the blob");
	check_patched(H_STRUCT, size, "devicetree block outside the blob");
	check_patched(H_SIZE_STRUCT, 0xfffffffc, "devicetree block outside the blob");
	check_patched(H_STRINGS, size - 1, "devicetree block outside the blob");
	check_patched(H_SIZE_STRINGS, 0xffffffff, "devicetree block outside the blob");
	check_patched(H_STRINGS, get32(blob + H_STRUCT) + 4, "devicetree blocks overlap");
	check_patched(H_STRINGS, get32(blob + H_STRINGS) - 4, "devicetree blocks overlap");
	/* libfdt reads the map's and the structure's words aligned. */
	check_patched(16, 44, "devicetree block misaligned");
	check_patched(H_STRUCT, get32(blob + H_STRUCT) - 2, "devicetree block misaligned");
	/* Totalsize is all the parser may read: one byte short of the strings. */
	check_patched(H_TOTALSIZE, size - 1, "devicetree block outside the blob");
	CHECK_EQ(fdt_arm_platform(NULL, &plat, &why), -1);
	CHECK_STR(why, "no devicetree");
}

static void test_struct(void)
{
	u32 so, ss, strings, p;

	qemu_blob();
	so = get32(blob + H_STRUCT);
	ss = get32(blob + H_SIZE_STRUCT);
	strings = get32(blob + H_SIZE_STRINGS);
	p = find_prop("linux,dummy-virt", 17);
	/* A property whose length runs past the structure block (or wraps). */
	check_patched(p + 4, ss, "property runs past the structure block");
	check_patched(p + 4, 0xfffffff8, "property runs past the structure block");
	check_patched(p + 8, strings, "property name outside the strings block");
	check_patched(p + 8, 0xffffffff, "property name outside the strings block");
	check_patched(p, 5, "unknown devicetree token");
	/* The strings block loses its last NUL: the first name stored, used by /. */
	check_patched(H_SIZE_STRINGS, strings - 1, "property name outside the strings block");
	/* FDT_END cut off, made a NOP or a node's end; the root's end made FDT_END. */
	check_patched(H_SIZE_STRUCT, ss - 4, "structure block ends without FDT_END");
	check_patched(so + ss - 4, 4, "structure block ends without FDT_END");
	check_patched(so + ss - 4, 2, "unbalanced FDT_END_NODE");
	check_patched(so + ss - 8, 9, "structure block ends inside a node");
}

/* / { a { p = <1>; }; b { }; }: libfdt's writer puts the reservation map at 48 (the
 * header rounded up to its 16-byte entries), so: 64 root, 72 a, 80 p (16 bytes), 96 end
 * a, 100 b, 108 end b, 112 end /, 116 FDT_END, 120 "p". */
static u32 tiny(void)
{
	int size;

	start(blob, sizeof(blob));
	fdt_begin_node(w, "");
	fdt_begin_node(w, "a");
	fdt_property_u32(w, "p", 1);
	fdt_end_node(w);
	fdt_begin_node(w, "b");
	fdt_end_node(w);
	fdt_end_node(w);
	size = finish();
	CHECK_EQ(size, 122);
	CHECK_EQ(get32(blob + H_STRUCT), 64);
	CHECK_EQ(get32(blob + 116), 9);
	return (u32)size;
}

static void test_tokens(void)
{
	u8 prop[16];
	u32 size = tiny();

	/* Well formed, but no machine. */
	CHECK_EQ(parse(blob, size), -1);
	CHECK_STR(why, "no GIC node");
	/* The struct block ends inside a's name. */
	put32be(blob + H_SIZE_STRUCT, 77 - 64);
	CHECK_EQ(parse(blob, size), -1);
	CHECK_STR(why, "node name runs past the structure block");
	/* p moved behind a's FDT_END_NODE: a property of / after its subnode a. */
	tiny();
	memcpy(prop, blob + 80, 16);
	put32be(blob + 80, 2);
	memcpy(blob + 84, prop, 16);
	CHECK_EQ(parse(blob, size), -1);
	CHECK_STR(why, "property outside a node or after a subnode");
	/* A NOP for the root's start: a and b become two roots. */
	tiny();
	put32be(blob + 64, 4);
	put32be(blob + 68, 4);
	CHECK_EQ(parse(blob, size), -1);
	CHECK_STR(why, "devicetree with two root nodes");
	/* Too many FDT_END_NODE. */
	tiny();
	put32be(blob + 100, 2);
	put32be(blob + 104, 4);
	CHECK_EQ(parse(blob, size), -1);
	CHECK_STR(why, "unbalanced FDT_END_NODE");
	/* A property before the root node. */
	tiny();
	memcpy(blob + 64, prop, 16);
	CHECK_EQ(parse(blob, size), -1);
	CHECK_STR(why, "property outside a node or after a subnode");
	/* The root named "r" (libfdt's full check wants it unnamed). */
	tiny();
	blob[68] = 'r';
	CHECK_EQ(parse(blob, size), -1);
	CHECK_STR(why, "devicetree fails libfdt's full check");
	/* An unaligned blob (libfdt reads aligned words). */
	{
		u8 *b = malloc(size + 1);

		memcpy(b + 1, blob, size);
		CHECK_EQ(fdt_arm_platform(b + 1, &plat, &why), -1);
		CHECK_STR(why, "devicetree not 4-byte aligned");
		free(b);
	}
}

static void test_depth(void)
{
	for (u32 depth = DTB_MAX_DEPTH; depth <= DTB_MAX_DEPTH + 1; depth++) {
		int size;

		start(blob, sizeof(blob));
		fdt_begin_node(w, "");
		for (u32 i = 1; i < depth; i++)
			fdt_begin_node(w, "n");
		for (u32 i = 0; i < depth; i++)
			fdt_end_node(w);
		size = finish();
		CHECK_EQ(parse(blob, (size_t)size), -1);
		CHECK_STR(why,
			  depth > DTB_MAX_DEPTH ? "devicetree nested too deeply" : "no GIC node");
	}
}

/* ------------------------------------------------------------------------- */
/* truncation and corruption, under ASan                                     */

/* The result is either a clean failure or a sane platform. */
static bool sane(int r)
{
	if (r)
		return r == -1 && why;
	return !why && plat.ncpus >= 1 && plat.ncpus <= ACPI_ARM_MAX_CPUS &&
	       plat.ngicr <= ACPI_ARM_MAX_GICR && (plat.gic_version == 2 || plat.gic_version == 3);
}

/* Every prefix of the blob as a blob of its own (the header's totalsize cut to
 * match; below 8 bytes there is no totalsize to cut), and every shorter structure
 * block. A blob's strings come last, so none of these parses. */
static void check_truncations(u32 size)
{
	u8 *copy = malloc(size);
	u32 ss = get32(blob + H_SIZE_STRUCT), fails = 0;

	for (u32 len = 8; len < size; len++) {
		memcpy(copy, blob, len);
		put32be(copy + H_TOTALSIZE, len);
		fails += parse(copy, len) == -1 && why;
	}
	CHECK_EQ(fails, size - 8);
	fails = 0;
	for (u32 len = 0; len < ss; len++) {
		memcpy(copy, blob, size);
		put32be(copy + H_SIZE_STRUCT, len);
		fails += parse(copy, size) == -1 && why;
	}
	CHECK_EQ(fails, ss);
	free(copy);
}

/* Each byte set to a few values; then random words set to likely troublemakers
 * (cell counts, lengths, offsets, tokens). Not totalsize: that the blob is that
 * long is what the caller promises. */
static void check_corruptions(u32 size)
{
	static const u8 bytes[] = { 0x00, 0x01, 0x02, 0x03, 0x09, 0x7f, 0xff };
	u8 *copy = malloc(size);
	u32 x = 0x12345678, bad = 0, i, k, n, word;

	for (i = 0; i < size; i++) {
		for (k = 0; k < ARRAY_SIZE(bytes) && (i < H_TOTALSIZE || i >= H_TOTALSIZE + 4);
		     k++) {
			memcpy(copy, blob, size);
			copy[i] = bytes[k];
			bad += !sane(parse(copy, size));
		}
	}
	for (n = 0; n < 20000; n++) {
		memcpy(copy, blob, size);
		for (k = 0; k < 3; k++) {
			u32 words[] = { 0, 1, 2, 3, 4, 9, 0xffffffff, size, size - 4, x >> 16 };

			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			word = x % (size / 4);
			if (word != H_TOTALSIZE / 4)
				put32be(copy + word * 4, words[(x >> 8) % ARRAY_SIZE(words)]);
		}
		bad += !sane(parse(copy, size));
	}
	CHECK_EQ(bad, 0);
	free(copy);
}

static void test_hostile(void)
{
	u32 size = qemu_blob();

	check_truncations(size);
	check_corruptions(size);
	size = (u32)build_board(0);
	memcpy(blob, buf, size);
	check_truncations(size);
	check_corruptions(size);
}

int main(void)
{
	test_qemu_shapes();
	test_many_cpus();
	test_console();
	test_psci();
	test_short_interrupts();
	test_board();
	test_missing();
	test_header();
	test_struct();
	test_tokens();
	test_depth();
	test_hostile();
	return test_summary();
}
