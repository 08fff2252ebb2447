/* SPDX-License-Identifier: GPL-2.0-only */
/* Bringing an arm64 machine up at EL2: the counter, the CPUs and the GIC from the ACPI
 * MADT (AAVMF publishes ACPI), secondaries started with PSCI CPU_ON over SMC (the
 * conduit seen from EL2), each running the boot CPU's EL2 translation regime. */
#include "hv/arch_boot.h"
#include "arch/arm64/gic_host.h"
#include "arch/arm64/pcpu.h"
#include "arch/arm64/spectre.h"
#include "arch/cpu.h"
#include "boot/config.h"
#include "boot/efi.h"
#include "drivers/acpi.h"
#include "drivers/fdt_platform.h"
#include "drivers/pl011.h"
#include "drivers/uart.h"
#include "hv/console.h"
#include "hv/lib.h"
#include "hv/arch.h"
#include "hv/sched.h"
#include "hv/vm.h"

#define SECONDARY_STACK (16 * KiB)

/* Read by secondary_entry (entry.S) with the MMU off: keep the layout in sync. */
struct secondary_boot {
	u64 sctlr, tcr, mair, ttbr0, vbar, sp, entry, id;
};

static struct acpi_arm_platform plat;
static bool plat_from_acpi; /* plat came from ACPI, not the device tree */
static u8 *stacks;
static struct secondary_boot *boots;
static void (*secondary_main)(u32 id);
static volatile u32 secondaries_up;

static const char *ich_summary(char *buf, size_t n)
{
	if (gic_host.version == 3) {
		u64 vtr = read_sysreg(ICH_VTR_EL2);
		snprintf(buf, n, "%u list registers, %u priority bits", (u32)(vtr & 0x1F) + 1,
			 (u32)((vtr >> 29) & 7) + 1);
	} else {
		u32 vtr = mmio_read32(gic_host.gich + 4);
		snprintf(buf, n, "%u list registers, %u priority bits", (vtr & 0x3F) + 1,
			 ((vtr >> 29) & 7) + 1);
	}
	return buf;
}

int arch_boot_probe(const void *acpi_rsdp, u64 *cpu_ids, u32 max, const char **why)
{
	arch_time_hz = read_sysreg(cntfrq_el0);
	u64 el = (read_sysreg(CurrentEL) >> 2) & 3;
	printk("hv %s (aarch64, EL2 backend)\n", HV_VERSION);
	if (el != 2) {
		*why = "the firmware did not start us at EL2 "
		       "(QEMU needs -M virt,virtualization=on)";
		return -1;
	}
	/* ACPI when the firmware publishes usable tables (AAVMF by default), else its device
	 * tree (AAVMF with QEMU's acpi=off leaves an RSDP without tables behind). */
	const void *fdt = efi_fdt();
	const char *acpi_why = "no ACPI RSDP";
	plat_from_acpi = acpi_rsdp && !acpi_arm_platform(acpi_rsdp, &plat, &acpi_why);
	if (!plat_from_acpi) {
		if (!fdt) {
			*why = acpi_why;
			return -1;
		}
		if (fdt_arm_platform(fdt, &plat, why))
			return -1;
	}
	u64 pfr0 = read_sysreg(id_aa64pfr0_el1);
	gic_host.version = ((pfr0 >> 24) & 0xF) ? 3 : 2; /* ID_AA64PFR0_EL1.GIC: system registers */
	if (plat.gic_version && plat.gic_version != gic_host.version) {
		*why = "the MADT's GIC version does not match the CPU's GIC "
		       "system register interface";
		return -1;
	}
	gic_host.gicd = plat.gicd_base;
	gic_host.gicc = plat.cpus[0].gicc_base;
	gic_host.gich = plat.cpus[0].gich_base;
	gic_host.gicv = plat.cpus[0].gicv_base;
	if (plat.ngicr) {
		gic_host.gicr_base = plat.gicr[0].base;
		gic_host.gicr_len = plat.gicr[0].length;
	} else if (plat.cpus[0]
			   .gicr_base) { /* per-CPU GICC.GICRBaseAddress: search from the lowest */
		gic_host.gicr_base = plat.cpus[0].gicr_base;
		for (u32 i = 1; i < plat.ncpus; i++)
			gic_host.gicr_base = MIN(gic_host.gicr_base, plat.cpus[i].gicr_base);
		gic_host.gicr_len = (u64)plat.ncpus * 0x20000;
	}
	if (gic_host.version == 2 && (!gic_host.gich || !gic_host.gicv)) {
		*why = "GICv2 without virtualization frames (GICH/GICV) in the MADT";
		return -1;
	}
	if (gic_host.version == 3 && !gic_host.gicr_base) {
		*why = "GICv3 without redistributors in the MADT";
		return -1;
	}
	u64 self = read_sysreg(mpidr_el1) & 0xFF00FFFFFFull;
	u32 n = 0;
	cpu_ids[n++] = self;
	for (u32 i = 0; i < plat.ncpus && n < max; i++)
		if ((plat.cpus[i].mpidr & 0xFF00FFFFFFull) != self)
			cpu_ids[n++] = plat.cpus[i].mpidr & 0xFF00FFFFFFull;
	char ich[64];
	printk("hv: GICv%d (GICD %llx), %s; PSCI via SMC\n", gic_host.version,
	       (unsigned long long)gic_host.gicd, ich_summary(ich, sizeof ich));
	printk("hv: %u pCPUs (%s), %llu MiB RAM, counter %llu MHz\n", n,
	       plat_from_acpi ? "ACPI MADT" : "device tree",
	       (unsigned long long)(efi_ram_bytes() >> 20),
	       (unsigned long long)(arch_time_hz / 1000000));
	return (int)n;
}

static u64 console_base;
static char console_name[96];

int arch_boot_console(const struct serial_choice *c, const char **why)
{
	const char *from = "the default address";
	console_base = PL011_DEFAULT_BASE;
	if (c->kind == SERIAL_IO) {
		*why = "serial names an I/O port, which arm64 has not: serial = mmio@ADDR names "
		       "the PL011";
		return -1;
	}
	if (c->baud) {
		*why = "baud: the arm64 console (a PL011) keeps the rate the firmware set";
		return -1;
	}
	if (c->kind == SERIAL_MMIO && c->reg_bytes != 1) {
		*why = "serial = mmio16@ or mmio32@ names a 16550; the arm64 console is a PL011: "
		       "serial = mmio@ADDR";
		return -1;
	}
	if (c->kind == SERIAL_MMIO) {
		console_base = c->addr;
		from = "hv.cfg serial";
	} else if (plat.spcr) {
		console_base = plat.spcr_base;
		from = plat_from_acpi ? "ACPI SPCR" : "device tree";
	}
	snprintf(console_name, sizeof console_name, "PL011 at %llx (%s)",
		 (unsigned long long)console_base, from);
	return 0;
}

const char *arch_boot_console_name(void) { return console_name; }

int arch_boot_reserve(const char **why)
{
	stacks = efi_alloc_pages(MAX_PCPUS * SECONDARY_STACK / PAGE_SIZE, 0);
	boots = efi_alloc_pages(1, 0);
	if (!stacks || !boots) {
		*why = "cannot reserve the secondary pCPUs' stacks";
		return -1;
	}
	return 0;
}

void arch_boot_takeover(void)
{
	irq_disable();
	pl011_set_base(console_base);
	uart_init();
	gic_host_init();
	arm64_pcpu_init(0, read_sysreg(mpidr_el1));
}

void arm64_secondary_main(u32 id)
{
	arm64_pcpu_init(id, read_sysreg(mpidr_el1));
	__atomic_fetch_add(&secondaries_up, 1, __ATOMIC_RELEASE);
	secondary_main(id);
}

u32 arch_boot_start_secondaries(const u64 *cpu_ids, u32 n, void (*entry)(u32 id))
{
	extern char secondary_entry[];
	secondary_main = entry;
	u32 started = 0;
	for (u32 i = 1; i < n; i++) {
		struct secondary_boot *b = &boots[i];
		*b = (struct secondary_boot){
			.sctlr = read_sysreg(sctlr_el2),
			.tcr = read_sysreg(tcr_el2),
			.mair = read_sysreg(mair_el2),
			.ttbr0 = read_sysreg(ttbr0_el2),
			.vbar = read_sysreg(vbar_el2),
			.sp = (u64)(uintptr_t)(stacks + (i + 1) * SECONDARY_STACK),
			.entry = (u64)(uintptr_t)arm64_secondary_main,
			.id = i,
		};
		dcache_clean_poc(b, sizeof *b); /* it reads this with its MMU and caches off */
		s64 r = (s64)smc_call(PSCI_CPU_ON_64, cpu_ids[i], (u64)(uintptr_t)secondary_entry,
				      (u64)(uintptr_t)b);
		if (r) {
			printk("hv: PSCI CPU_ON for MPIDR %llx failed (%lld)\n",
			       (unsigned long long)cpu_ids[i], (long long)r);
			continue;
		}
		started++;
	}
	u64 t0 = arch_time_now();
	while (__atomic_load_n(&secondaries_up, __ATOMIC_ACQUIRE) < started &&
	       arch_time_now() - t0 < arch_time_hz)
		cpu_relax();
	spec_print(); /* every pCPU that came up has decided */
	return 1 + __atomic_load_n(&secondaries_up, __ATOMIC_ACQUIRE);
}
