/* SPDX-License-Identifier: GPL-2.0-only */
/* The guest's device tree (see guest_fdt.h), written with libfdt's sequential-write
 * functions. Binding paths are relative to Linux's Documentation/devicetree/bindings/. */
#include "arch/arm64/guest_fdt.h"
#include "arch/arm64/vcpu_mpidr.h"
#include "hv/lib.h"
#include <libfdt.h>

/* interrupt-controller/arm,gic.yaml and arm,gic-v3.yaml: <type number flags>. */
#define GIC_SPI 0
#define GIC_PPI 1
#define IRQ_TYPE_LEVEL_HIGH 4
#define IRQ_TYPE_LEVEL_LOW 8
#define GICV2_PPI_CPU_MASK(n) ((BIT(n) - 1) << 8) /* GICv2 only: flags bits [15:8] */

/* timer/arm,arch_timer.yaml: the order of the timer PPIs. */
static const u32 timer_ppis[] = {
	13, /* secure physical */
	14, /* non-secure physical */
	11, /* virtual */
	10, /* hypervisor (EL2) physical */
};

/* The blob being written with libfdt's sequential-write functions. The first error
 * (no room: -FDT_ERR_NOSPACE) sticks, and nothing more is written once it is set;
 * libfdt itself never writes beyond the buffer. */
struct tree {
	void *fdt;
	int err;
};

static bool ok(struct tree *t, int r)
{
	if (r < 0 && !t->err)
		t->err = r;
	return !t->err;
}

static void begin(struct tree *t, const char *name)
{
	if (!t->err)
		ok(t, fdt_begin_node(t->fdt, name));
}

static void end(struct tree *t)
{
	if (!t->err)
		ok(t, fdt_end_node(t->fdt));
}

static void prop32(struct tree *t, const char *name, u32 v)
{
	if (!t->err)
		ok(t, fdt_property_u32(t->fdt, name, v));
}

static void prop64(struct tree *t, const char *name, u64 v)
{
	if (!t->err)
		ok(t, fdt_property_u64(t->fdt, name, v));
}

static void propstr(struct tree *t, const char *name, const char *s)
{
	if (!t->err)
		ok(t, fdt_property_string(t->fdt, name, s));
}

/* A string list: len bytes of NUL-terminated strings, e.g. "a\0b" with len = sizeof("a\0b"). */
static void propstrs(struct tree *t, const char *name, const char *list, u32 len)
{
	if (!t->err)
		ok(t, fdt_property(t->fdt, name, list, (int)len));
}

/* An empty property (a flag such as "interrupt-controller"). */
static void propflag(struct tree *t, const char *name)
{
	void *v;

	if (!t->err)
		ok(t, fdt_property_placeholder(t->fdt, name, 0, &v));
}

/* n cells of 32 bits (interrupts, clocks), each stored big-endian. */
static void propcells(struct tree *t, const char *name, const u32 *cells, u32 n)
{
	void *v;
	u32 i;

	if (t->err || !ok(t, fdt_property_placeholder(t->fdt, name, (int)(4 * n), &v)))
		return;
	for (i = 0; i < n; i++)
		fdt32_st((u8 *)v + 4 * i, cells[i]);
}

/* A property of 64-bit values (addresses and sizes with #address-cells and
 * #size-cells 2), each two cells, high first. */
static void prop64s(struct tree *t, const char *name, const u64 *vals, u32 n)
{
	void *v;
	u32 i;

	if (t->err || !ok(t, fdt_property_placeholder(t->fdt, name, (int)(8 * n), &v)))
		return;
	for (i = 0; i < n; i++)
		fdt64_st((u8 *)v + 8 * i, vals[i]);
}

static void node_at(struct tree *t, const char *name, u64 addr)
{
	char s[32];

	snprintf(s, sizeof(s), "%s@%llx", name, (unsigned long long)addr);
	begin(t, s);
}

static void add_chosen(struct tree *t, const struct guest_fdt_params *p)
{
	char path[32];

	begin(t, "chosen");
	if (p->cmdline)
		propstr(t, "bootargs", p->cmdline);
	snprintf(path, sizeof(path), "/pl011@%llx", (unsigned long long)p->uart_base);
	propstr(t, "stdout-path", path);
	/* The initrd's [start, end) (chosen node, dt-schema), in the root's #address-cells. */
	if (p->initrd_start) {
		prop64(t, "linux,initrd-start", p->initrd_start);
		prop64(t, "linux,initrd-end", p->initrd_end);
	}
	end(t);
}

static void add_cpus(struct tree *t, u32 nvcpus)
{
	u32 i;

	begin(t, "cpus");
	prop32(t, "#address-cells", 1); /* Aff3 and Aff2 are 0 */
	prop32(t, "#size-cells", 0);
	for (i = 0; i < nvcpus; i++) {
		u32 aff = (u32)(vcpu_mpidr(i) & MPIDR_AFF_MASK);

		/* The unit address is the reg value (DT spec 2.2.1). */
		node_at(t, "cpu", aff);
		propstr(t, "device_type", "cpu");
		propstr(t, "compatible", "arm,armv8");
		prop32(t, "reg", aff);
		propstr(t, "enable-method", "psci");
		end(t);
	}
	end(t);
}

static void add_psci(struct tree *t)
{
	static const char compat[] = "arm,psci-1.0\0arm,psci-0.2\0arm,psci";

	begin(t, "psci");
	propstrs(t, "compatible", compat, sizeof(compat));
	propstr(t, "method", "hvc");
	/* arm/psci.yaml: "arm,psci" (0.1) names its functions; these are the PSCI 0.2
	 * IDs (DEN0022: SMC64 CPU_SUSPEND, SMC32 CPU_OFF, SMC64 CPU_ON, SMC64 MIGRATE). */
	prop32(t, "cpu_suspend", 0xc4000001);
	prop32(t, "cpu_off", 0x84000002);
	prop32(t, "cpu_on", 0xc4000003);
	prop32(t, "migrate", 0xc4000005);
	end(t);
}

static void add_gic(struct tree *t, const struct guest_fdt_params *p)
{
	node_at(t, "intc", p->gicd_base);
	if (p->gic_version == 3) {
		u64 reg[] = { p->gicd_base, GUEST_FDT_GICV3_GICD_SIZE, p->gicr_base,
			      (u64)p->nvcpus * GUEST_FDT_GICR_SIZE };

		propstr(t, "compatible", "arm,gic-v3");
		prop64s(t, "reg", reg, ARRAY_SIZE(reg));
		prop32(t, "#redistributor-regions", 1);
	} else {
		u64 reg[] = { p->gicd_base, GUEST_FDT_GICV2_GICD_SIZE, p->gicc_base,
			      GUEST_FDT_GICC_SIZE };

		propstr(t, "compatible", "arm,cortex-a15-gic");
		prop64s(t, "reg", reg, ARRAY_SIZE(reg));
	}
	prop32(t, "#interrupt-cells", 3);
	propflag(t, "interrupt-controller");
	/* No subnodes (ITS, v2m), but interrupt-map parsing reads an interrupt
	 * controller's #address-cells; as in QEMU, the root's cells and identity ranges. */
	prop32(t, "#address-cells", 2);
	prop32(t, "#size-cells", 2);
	propflag(t, "ranges");
	prop32(t, "phandle", GUEST_FDT_PHANDLE_GIC);
	end(t);
}

static void add_timer(struct tree *t, const struct guest_fdt_params *p)
{
	u32 flags = IRQ_TYPE_LEVEL_LOW, irqs[3 * ARRAY_SIZE(timer_ppis)], i;

	if (p->gic_version == 2)
		flags |= (u32)GICV2_PPI_CPU_MASK(p->nvcpus);
	for (i = 0; i < ARRAY_SIZE(timer_ppis); i++) {
		irqs[3 * i] = GIC_PPI;
		irqs[3 * i + 1] = timer_ppis[i];
		irqs[3 * i + 2] = flags;
	}
	begin(t, "timer");
	propstr(t, "compatible", "arm,armv8-timer");
	propcells(t, "interrupts", irqs, ARRAY_SIZE(irqs));
	/* The timer keeps counting in every power state: no broadcast timer needed. */
	propflag(t, "always-on");
	end(t);
}

static void add_uart(struct tree *t, const struct guest_fdt_params *p)
{
	static const char compat[] = "arm,pl011\0arm,primecell";
	static const char clock_names[] = "uartclk\0apb_pclk";
	const u32 irq[] = { GIC_SPI, p->uart_spi, IRQ_TYPE_LEVEL_HIGH };
	const u32 clocks[] = { GUEST_FDT_PHANDLE_CLK, GUEST_FDT_PHANDLE_CLK };
	const u64 reg[] = { p->uart_base, GUEST_FDT_UART_SIZE };

	/* clock/fixed-clock.yaml: the PL011's UART and bus clocks (serial/pl011.yaml). */
	begin(t, "apb-pclk");
	propstr(t, "compatible", "fixed-clock");
	prop32(t, "#clock-cells", 0);
	prop32(t, "clock-frequency", 24000000);
	propstr(t, "clock-output-names", "clk24mhz");
	prop32(t, "phandle", GUEST_FDT_PHANDLE_CLK);
	end(t);

	node_at(t, "pl011", p->uart_base);
	propstrs(t, "compatible", compat, sizeof(compat));
	prop64s(t, "reg", reg, ARRAY_SIZE(reg));
	propcells(t, "interrupts", irq, ARRAY_SIZE(irq));
	propcells(t, "clocks", clocks, ARRAY_SIZE(clocks));
	propstrs(t, "clock-names", clock_names, sizeof(clock_names));
	end(t);
}

int guest_fdt_build(void *buf, size_t cap, const struct guest_fdt_params *p)
{
	const u64 mem[] = { p->ram_base, p->ram_size };
	struct tree t;

	if (p->gic_version != 2 && p->gic_version != 3)
		return -1;
	/* GICv2 targets at most 8 CPUs; the MPIDR scheme has 16 * 256 affinities. */
	if (!p->nvcpus || p->nvcpus > (p->gic_version == 2 ? 8 : 16 * 256))
		return -1;
	if (p->uart_spi > 1019 - 32) /* SPIs are INTIDs 32..1019 */
		return -1;
	if (p->initrd_start && p->initrd_end < p->initrd_start)
		return -1;

	/* libfdt sizes are ints; a device tree is far smaller anyway. */
	t.fdt = buf;
	t.err = 0;
	ok(&t, fdt_create(buf, (int)MIN(cap, (size_t)INT_MAX)));
	if (!t.err)
		ok(&t, fdt_finish_reservemap(buf)); /* no reserved memory: the guest owns its RAM */
	begin(&t, "");
	propstr(&t, "compatible", "linux,dummy-virt");
	prop32(&t, "#address-cells", 2);
	prop32(&t, "#size-cells", 2);
	prop32(&t, "interrupt-parent", GUEST_FDT_PHANDLE_GIC);

	add_chosen(&t, p);
	node_at(&t, "memory", p->ram_base);
	propstr(&t, "device_type", "memory");
	prop64s(&t, "reg", mem, ARRAY_SIZE(mem));
	end(&t);
	add_cpus(&t, p->nvcpus);
	add_psci(&t);
	add_gic(&t, p);
	add_timer(&t, p);
	add_uart(&t, p);

	end(&t);
	if (!t.err)
		ok(&t, fdt_finish(buf));
	return t.err ? -1 : (int)fdt_totalsize(buf);
}
