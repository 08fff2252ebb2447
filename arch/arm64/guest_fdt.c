/* SPDX-License-Identifier: GPL-2.0-only */
/* The guest's device tree (see guest_fdt.h). Binding paths are relative to Linux's
 * Documentation/devicetree/bindings/. */
#include "arch/arm64/guest_fdt.h"
#include "arch/arm64/vcpu_mpidr.h"
#include "hv/fdt.h"
#include "hv/lib.h"

/* interrupt-controller/arm,gic.yaml and arm,gic-v3.yaml: <type number flags>. */
#define GIC_SPI 0
#define GIC_PPI 1
#define IRQ_TYPE_LEVEL_HIGH 4
#define IRQ_TYPE_LEVEL_LOW 8
#define GICV2_PPI_CPU_MASK(n) ((BIT(n) - 1) << 8)	/* GICv2 only: flags bits [15:8] */

/* timer/arm,arch_timer.yaml: the order of the timer PPIs. */
static const u32 timer_ppis[] = {
	13,	/* secure physical */
	14,	/* non-secure physical */
	11,	/* virtual */
	10,	/* hypervisor (EL2) physical */
};

/* A property of 64-bit values (addresses and sizes with #address-cells and
 * #size-cells 2), at most 4 of them. */
static void prop_u64s(struct fdt *f, const char *name, const u64 *v, u32 n)
{
	u32 cells[8], i;

	for (i = 0; i < n; i++) {
		cells[2 * i] = (u32)(v[i] >> 32);
		cells[2 * i + 1] = (u32)v[i];
	}
	fdt_prop_cells(f, name, cells, 2 * n);
}

static void node_at(struct fdt *f, const char *name, u64 addr)
{
	char s[32];

	snprintf(s, sizeof(s), "%s@%llx", name, (unsigned long long)addr);
	fdt_begin_node(f, s);
}

static void add_chosen(struct fdt *f, const struct guest_fdt_params *p)
{
	char path[32];

	fdt_begin_node(f, "chosen");
	if (p->cmdline)
		fdt_prop_string(f, "bootargs", p->cmdline);
	snprintf(path, sizeof(path), "/pl011@%llx", (unsigned long long)p->uart_base);
	fdt_prop_string(f, "stdout-path", path);
	/* The initrd's [start, end) (chosen node, dt-schema), in the root's #address-cells. */
	if (p->initrd_start) {
		fdt_prop_u64(f, "linux,initrd-start", p->initrd_start);
		fdt_prop_u64(f, "linux,initrd-end", p->initrd_end);
	}
	fdt_end_node(f);
}

static void add_cpus(struct fdt *f, u32 nvcpus)
{
	u32 i;

	fdt_begin_node(f, "cpus");
	fdt_prop_u32(f, "#address-cells", 1);	/* Aff3 and Aff2 are 0 */
	fdt_prop_u32(f, "#size-cells", 0);
	for (i = 0; i < nvcpus; i++) {
		u32 aff = (u32)(vcpu_mpidr(i) & MPIDR_AFF_MASK);

		/* The unit address is the reg value (DT spec 2.2.1). */
		node_at(f, "cpu", aff);
		fdt_prop_string(f, "device_type", "cpu");
		fdt_prop_string(f, "compatible", "arm,armv8");
		fdt_prop_u32(f, "reg", aff);
		fdt_prop_string(f, "enable-method", "psci");
		fdt_end_node(f);
	}
	fdt_end_node(f);
}

static void add_psci(struct fdt *f)
{
	static const char compat[] = "arm,psci-1.0\0arm,psci-0.2\0arm,psci";

	fdt_begin_node(f, "psci");
	fdt_prop_strings(f, "compatible", compat, sizeof(compat));
	fdt_prop_string(f, "method", "hvc");
	/* arm/psci.yaml: "arm,psci" (0.1) names its functions; these are the PSCI 0.2
	 * IDs (DEN0022: SMC64 CPU_SUSPEND, SMC32 CPU_OFF, SMC64 CPU_ON, SMC64 MIGRATE). */
	fdt_prop_u32(f, "cpu_suspend", 0xc4000001);
	fdt_prop_u32(f, "cpu_off", 0x84000002);
	fdt_prop_u32(f, "cpu_on", 0xc4000003);
	fdt_prop_u32(f, "migrate", 0xc4000005);
	fdt_end_node(f);
}

static void add_gic(struct fdt *f, const struct guest_fdt_params *p)
{
	node_at(f, "intc", p->gicd_base);
	if (p->gic_version == 3) {
		u64 reg[] = { p->gicd_base, GUEST_FDT_GICV3_GICD_SIZE,
			      p->gicr_base, (u64)p->nvcpus * GUEST_FDT_GICR_SIZE };

		fdt_prop_string(f, "compatible", "arm,gic-v3");
		prop_u64s(f, "reg", reg, ARRAY_SIZE(reg));
		fdt_prop_u32(f, "#redistributor-regions", 1);
	} else {
		u64 reg[] = { p->gicd_base, GUEST_FDT_GICV2_GICD_SIZE,
			      p->gicc_base, GUEST_FDT_GICC_SIZE };

		fdt_prop_string(f, "compatible", "arm,cortex-a15-gic");
		prop_u64s(f, "reg", reg, ARRAY_SIZE(reg));
	}
	fdt_prop_u32(f, "#interrupt-cells", 3);
	fdt_prop(f, "interrupt-controller", NULL, 0);
	/* No subnodes (ITS, v2m), but interrupt-map parsing reads an interrupt
	 * controller's #address-cells; as in QEMU, the root's cells and identity ranges. */
	fdt_prop_u32(f, "#address-cells", 2);
	fdt_prop_u32(f, "#size-cells", 2);
	fdt_prop(f, "ranges", NULL, 0);
	fdt_prop_u32(f, "phandle", GUEST_FDT_PHANDLE_GIC);
	fdt_end_node(f);
}

static void add_timer(struct fdt *f, const struct guest_fdt_params *p)
{
	u32 flags = IRQ_TYPE_LEVEL_LOW, irqs[3 * ARRAY_SIZE(timer_ppis)], i;

	if (p->gic_version == 2)
		flags |= (u32)GICV2_PPI_CPU_MASK(p->nvcpus);
	for (i = 0; i < ARRAY_SIZE(timer_ppis); i++) {
		irqs[3 * i] = GIC_PPI;
		irqs[3 * i + 1] = timer_ppis[i];
		irqs[3 * i + 2] = flags;
	}
	fdt_begin_node(f, "timer");
	fdt_prop_string(f, "compatible", "arm,armv8-timer");
	fdt_prop_cells(f, "interrupts", irqs, ARRAY_SIZE(irqs));
	/* The timer keeps counting in every power state: no broadcast timer needed. */
	fdt_prop(f, "always-on", NULL, 0);
	fdt_end_node(f);
}

static void add_uart(struct fdt *f, const struct guest_fdt_params *p)
{
	static const char compat[] = "arm,pl011\0arm,primecell";
	static const char clock_names[] = "uartclk\0apb_pclk";
	const u32 irq[] = { GIC_SPI, p->uart_spi, IRQ_TYPE_LEVEL_HIGH };
	const u32 clocks[] = { GUEST_FDT_PHANDLE_CLK, GUEST_FDT_PHANDLE_CLK };
	const u64 reg[] = { p->uart_base, GUEST_FDT_UART_SIZE };

	/* clock/fixed-clock.yaml: the PL011's UART and bus clocks (serial/pl011.yaml). */
	fdt_begin_node(f, "apb-pclk");
	fdt_prop_string(f, "compatible", "fixed-clock");
	fdt_prop_u32(f, "#clock-cells", 0);
	fdt_prop_u32(f, "clock-frequency", 24000000);
	fdt_prop_string(f, "clock-output-names", "clk24mhz");
	fdt_prop_u32(f, "phandle", GUEST_FDT_PHANDLE_CLK);
	fdt_end_node(f);

	node_at(f, "pl011", p->uart_base);
	fdt_prop_strings(f, "compatible", compat, sizeof(compat));
	prop_u64s(f, "reg", reg, ARRAY_SIZE(reg));
	fdt_prop_cells(f, "interrupts", irq, ARRAY_SIZE(irq));
	fdt_prop_cells(f, "clocks", clocks, ARRAY_SIZE(clocks));
	fdt_prop_strings(f, "clock-names", clock_names, sizeof(clock_names));
	fdt_end_node(f);
}

int guest_fdt_build(void *buf, size_t cap, const struct guest_fdt_params *p)
{
	const u64 mem[] = { p->ram_base, p->ram_size };
	struct fdt f;

	if (p->gic_version != 2 && p->gic_version != 3)
		return -1;
	/* GICv2 targets at most 8 CPUs; the MPIDR scheme has 16 * 256 affinities. */
	if (!p->nvcpus || p->nvcpus > (p->gic_version == 2 ? 8 : 16 * 256))
		return -1;
	if (p->uart_spi > 1019 - 32)	/* SPIs are INTIDs 32..1019 */
		return -1;
	if (p->initrd_start && p->initrd_end < p->initrd_start)
		return -1;

	fdt_init(&f, buf, cap);
	fdt_begin_node(&f, "");
	fdt_prop_string(&f, "compatible", "linux,dummy-virt");
	fdt_prop_u32(&f, "#address-cells", 2);
	fdt_prop_u32(&f, "#size-cells", 2);
	fdt_prop_u32(&f, "interrupt-parent", GUEST_FDT_PHANDLE_GIC);

	add_chosen(&f, p);
	node_at(&f, "memory", p->ram_base);
	fdt_prop_string(&f, "device_type", "memory");
	prop_u64s(&f, "reg", mem, ARRAY_SIZE(mem));
	fdt_end_node(&f);
	add_cpus(&f, p->nvcpus);
	add_psci(&f);
	add_gic(&f, p);
	add_timer(&f, p);
	add_uart(&f, p);

	fdt_end_node(&f);
	return fdt_finish(&f);
}
