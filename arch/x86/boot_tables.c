/* SPDX-License-Identifier: GPL-2.0-only */
/* The ACPI tables and the memory map of an x86 VM, as every guest entry gives them
 * (boot_tables.h). */
#include "arch/x86/boot_tables.h"
#include "arch/x86/guest_acpi.h"
#include "hv/lib.h"
#include "hv/printk.h"

int x86_boot_tables(struct vm *vm, struct boot_tables *t)
{
	struct guest_acpi_params acpi = {
		.gpa = GPA_ACPI,
		.nvcpus = vm->nvcpus,
		.ioapic_id = vm->arch.ioapic.id, /* what its ID register reads (4 bits) */
		.ioapic_addr = GPA_IOAPIC,
		.pm1a_evt_port = PORT_PM_BASE,
		.pm1a_cnt_port = PORT_PM_BASE + 4,
		.pm_timer_port = PORT_PM_BASE + 8,
		.reset_port = PORT_RESET,
		.reset_value = 0x06,
		.sci_irq = 9,
		.no_cmos_rtc = true,
		.oem_id = "HV    ",
	};
	if (!guest_acpi_build(vm->ram + GPA_ACPI, GPA_ACPI_SIZE, &acpi, &t->rsdp_gpa)) {
		printk("hv: VM '%s': ACPI tables do not fit\n", vm->name);
		return -1;
	}
	/* A copy of the RSDP where a PC's BIOS leaves it (ACPI 6.5, 5.2.5.1: on a 16-byte
	 * boundary in 0xE0000-0xFFFFF), for kernels that find it by that scan (multiboot
	 * kernels, kvm-unit-tests); Linux is told the address. */
	memcpy(vm->ram + GPA_BIOS_RSDP, vm->ram + t->rsdp_gpa, ACPI_RSDP_SIZE);

	struct e820_entry *mm = t->map;
	u32 n = 0;
	mm[n++] = (struct e820_entry){ 0, GPA_ACPI, E820_RAM };
	mm[n++] = (struct e820_entry){ GPA_ACPI, GPA_ACPI_SIZE, E820_ACPI };
	mm[n++] = (struct e820_entry){ GPA_ACPI + GPA_ACPI_SIZE, 0x9F000 - GPA_ACPI - GPA_ACPI_SIZE,
				       E820_RAM };
	mm[n++] = (struct e820_entry){ 0x9F000, 0x100000 - 0x9F000, E820_RESERVED };
	mm[n++] = (struct e820_entry){ 0x100000, x86_low_ram_end(vm) - 0x100000, E820_RAM };
	if (vm->ram_size > x86_low_ram_end(vm))
		mm[n++] = (struct e820_entry){ 4 * GiB, vm->ram_size - x86_low_ram_end(vm),
					       E820_RAM };
	mm[n++] = (struct e820_entry){ GPA_IOAPIC, PAGE_SIZE, E820_RESERVED };
	mm[n++] = (struct e820_entry){ 0xFEE00000, PAGE_SIZE, E820_RESERVED };
	t->nmap = n;
	return 0;
}
