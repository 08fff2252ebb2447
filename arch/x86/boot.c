/* SPDX-License-Identifier: GPL-2.0-only */
/* Bringing an x86 machine up: TSC and LAPIC calibration, the CPUs (from the ACPI MADT,
 * else UEFI's MP services), the choice and check of the virtualization backend, and the
 * real-mode trampoline page for the APs (below 640 KiB). */
#include "hv/arch_boot.h"
#include "arch/cpu.h"
#include "arch/x86/guest.h"
#include "arch/x86/pcpu.h"
#include "arch/x86/speculation.h"
#include "arch/x86/vendor.h"
#include "arch/x86/virt_probe.h"
#include "arch/x86/xstate.h"
#include "boot/config.h"
#include "boot/efi.h"
#include "drivers/acpi.h"
#include "drivers/uart.h"
#include "hv/console.h"
#include "hv/lib.h"
#include "hv/sched.h"

static u64 tramp_page;
static const void *rsdp;
static char console_name[96] = "16550 at io 0x3f8 (COM1)";
static const char *timebase_name;

/* The backend of each extension this hv.efi has (virt_probe.h). VMX's runs no guests yet
 * (issue 8): it describes the CPU and refuses it. */
static const struct x86_vendor *const backends[X86_VIRTS] = {
	[X86_VIRT_SVM] = &svm_vendor,
	[X86_VIRT_VMX] = &vmx_vendor,
};
const struct x86_vendor *x86_vendor; /* the one in use, from arch_boot_probe on */

static u32 built_backends(void)
{
	u32 built = 0;
	for (u32 i = 0; i < X86_VIRTS; i++)
		if (backends[i])
			built |= BIT(i);
	return built;
}

static u64 cpu_rdmsr(u32 msr) { return rdmsr(msr); }

static void print_banner(const struct x86_virt_probe *cpu, u32 ncpus, const char *cpus_from)
{
	const struct x86_vendor *ops = backends[cpu->virt];
	char features[160] = "";
	if (ops)
		ops->describe(features, sizeof features);
	printk("hv %s (x86_64, %s backend%s)\n", HV_VERSION, ops ? ops->name : "no",
	       ops ? "" : " for this CPU");
	if (ops)
		printk("hv: CPU %s; %s\n", cpu->vendor, features);
	else
		printk("hv: CPU %s (%s)\n", cpu->vendor, cpu->brand[0] ? cpu->brand : "no brand");
	printk("hv: %u pCPU%s (%s), %llu MiB RAM, TSC %llu MHz (%s), %s\n", ncpus,
	       ncpus == 1 ? "" : "s", cpus_from, (unsigned long long)(efi_ram_bytes() >> 20),
	       (unsigned long long)(x86_tsc_hz() / 1000000), timebase_name, x86_lapic_mode());
}

/* The CPUs' APIC IDs, the boot CPU first: as the ACPI MADT lists them (a server's own
 * account, the first choice), else as UEFI's MP services found them (firmware that
 * publishes no ACPI tables), else the boot CPU alone. *from says which, and why not the
 * MADT. */
static u32 find_cpus(u32 *apic_ids, u32 max, const char **from)
{
	static char source[224];
	const char *why_madt = "", *why_mp = "";
	u64 ids[MAX_PCPUS];
	int n = acpi_madt_cpus(rsdp, apic_ids, max, &why_madt);
	*from = "ACPI MADT";
	if (n <= 0) {
		n = efi_mp_cpus(ids, max, &why_mp);
		for (int i = 0; i < n; i++)
			apic_ids[i] = (u32)ids[i];
		if (n > 0)
			snprintf(source, sizeof source, "UEFI MP services; %s", why_madt);
		else
			snprintf(source, sizeof source, "the boot CPU alone: %s, %s", why_madt,
				 why_mp);
		*from = source;
	}
	u32 bsp = x86_lapic_id();
	if (n <= 0) {
		apic_ids[0] = bsp;
		return 1;
	}
	for (int i = 0; i < n; i++)
		if (apic_ids[i] == bsp) {
			apic_ids[i] = apic_ids[0];
			apic_ids[0] = bsp;
		}
	return (u32)n;
}

int arch_boot_probe(const void *acpi_rsdp, u64 *cpu_ids, u32 max, const char **why)
{
	rsdp = acpi_rsdp;
	u32 apic_ids[MAX_PCPUS];
	struct timebase tb = x86_timebase(acpi_rsdp, efi_stall_us);
	x86_calibrate(&tb);
	timebase_name = tb.name;
	/* The vendor before any vendor's MSR is read (virt_probe.c). */
	static struct x86_virt_probe cpu;
	x86_virt_probe(cpu_cpuid, cpu_rdmsr, built_backends(), &cpu);
	const char *from;
	u32 n = find_cpus(apic_ids, MIN(max, MAX_PCPUS), &from);
	print_banner(&cpu, n, from);
	x86_power_init(acpi_rsdp);
	if (cpu.virt == X86_VIRT_NONE) {
		*why = cpu.why;
		return -1;
	}
	x86_vendor = backends[cpu.virt];
	if (x86_vendor->check(why) || xstate_probe(why))
		return -1;
	x86_msr_probe();
	x86_speculation_init();
	for (u32 i = 0; i < n; i++)
		cpu_ids[i] = apic_ids[i];
	return (int)n;
}

/* The SPCR's console where it is a 16550 this driver can run: at an I/O port, or
 * memory-mapped with the GAS's access size as its register size (type 0x12 says so
 * outright; Linux reads the other 16550 types' memory-mapped registers the same way). */
static bool spcr_16550(struct acpi_spcr *spcr)
{
	if (acpi_spcr(rsdp, spcr) ||
	    (spcr->type != ACPI_SPCR_16550 && spcr->type != ACPI_SPCR_16450 &&
	     spcr->type != ACPI_SPCR_16550_GAS))
		return false;
	if (spcr->base.space == ACPI_SPACE_MEMORY)
		return spcr->base.access_bytes <= 4;
	return spcr->base.space == ACPI_SPACE_IO;
}

int arch_boot_console(const struct serial_choice *c, const char **why)
{
	struct serial_choice use = { .kind = SERIAL_IO, .addr = 0x3F8, .baud = c->baud };
	const char *from = "COM1";
	struct acpi_spcr spcr;
	(void)why;
	/* The divisor assumes the PC's 1.8432 MHz UART clock; memory-mapped 16550s often
	 * run from another, so theirs is only set when hv.cfg gives a baud rate. */
	if (c->kind != SERIAL_DEFAULT) {
		use = *c;
		from = "hv.cfg serial";
		if (!use.baud && use.kind == SERIAL_IO && use.addr != 0x3F8)
			use.baud = 115200; /* a port the firmware did not program */
	} else if (spcr_16550(&spcr)) {
		use.kind = spcr.base.space == ACPI_SPACE_MEMORY ? SERIAL_MMIO : SERIAL_IO;
		use.addr = spcr.base.addr;
		use.reg_bytes = spcr.base.access_bytes ? spcr.base.access_bytes : 1;
		from = "ACPI SPCR";
		if (!use.baud && use.kind == SERIAL_IO)
			use.baud = spcr.baud;
	}
	char rate[24] = "", regs[24] = "";
	if (use.baud)
		snprintf(rate, sizeof rate, ", %u baud", use.baud);
	if (use.kind == SERIAL_MMIO) {
		uart16550_select_mmio(use.addr, use.reg_bytes, use.baud);
		if (use.reg_bytes > 1)
			snprintf(regs, sizeof regs, " (%u-byte registers)", use.reg_bytes);
		snprintf(console_name, sizeof console_name, "16550 at mmio 0x%llx%s%s (%s)",
			 (unsigned long long)use.addr, regs, rate, from);
	} else {
		uart16550_select((u16)use.addr, use.baud);
		snprintf(console_name, sizeof console_name, "16550 at io 0x%x%s (%s)",
			 (unsigned)use.addr, rate, from);
	}
	return 0;
}

const char *arch_boot_console_name(void) { return console_name; }

int arch_boot_reserve(const char **why)
{
	void *p = efi_alloc_pages(1, 0x9F000);
	if (!p) {
		*why = "cannot reserve the AP start-up page below 640 KiB";
		return -1;
	}
	tramp_page = (u64)(uintptr_t)p;
	return 0;
}

void arch_boot_takeover(void)
{
	irq_disable();
	uart_init();
	x86_pcpu_init(0, x86_lapic_id());
}

u32 arch_boot_start_secondaries(const u64 *cpu_ids, u32 n, void (*entry)(u32 id))
{
	u32 apic_ids[MAX_PCPUS];
	for (u32 i = 0; i < n; i++)
		apic_ids[i] = (u32)cpu_ids[i];
	return x86_start_aps(apic_ids, n, tramp_page, entry);
}
