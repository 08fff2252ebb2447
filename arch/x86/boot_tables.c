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
	struct e820_entry *mm = t->map;
	u32 n = 0;
	mm[n++] = (struct e820_entry){ 0, GPA_LOW_RESERVED, E820_RAM };
	mm[n++] = (struct e820_entry){ GPA_LOW_RESERVED, MiB - GPA_LOW_RESERVED, E820_RESERVED };
	mm[n++] = (struct e820_entry){ MiB, x86_low_ram_end(vm) - MiB, E820_RAM };
	if (vm->ram_size > x86_low_ram_end(vm))
		mm[n++] = (struct e820_entry){ 4 * GiB, vm->ram_size - x86_low_ram_end(vm),
					       E820_RAM };
	mm[n++] = (struct e820_entry){ GPA_IOAPIC, PAGE_SIZE, E820_RESERVED };
	mm[n++] = (struct e820_entry){ 0xFEE00000, PAGE_SIZE, E820_RESERVED };
	t->nmap = n;
	return 0;
}
