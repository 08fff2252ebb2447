/* SPDX-License-Identifier: GPL-2.0-only */
/* What every x86 guest entry gives the kernel (arch/x86/boot_tables.c): the memory map,
 * and the ACPI tables with a copy of the RSDP where a BIOS leaves it, so that a kernel
 * that scans 0xE0000-0xFFFFF for it (kvm-unit-tests, multiboot kernels) finds the same
 * tables Linux is pointed at. */
#include "../../arch/x86/boot_tables.c"
#include "../../arch/x86/guest_acpi.c"
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>

void printk(const char *fmt, ...) { (void)fmt; }

static void test_tables(void)
{
	static struct vm vm = { .name = "t", .ram_size = 64 * MiB, .nvcpus = 2 };
	struct boot_tables t;
	vm.ram = calloc(1, vm.ram_size);
	if (x86_boot_tables(&vm, &t)) {
		CHECK(!"the tables were built");
		return;
	}
	CHECK(t.rsdp_gpa >= GPA_ACPI && t.rsdp_gpa < GPA_ACPI + GPA_ACPI_SIZE);
	CHECK(!memcmp(vm.ram + GPA_BIOS_RSDP, "RSD PTR ", 8));
	CHECK(!memcmp(vm.ram + GPA_BIOS_RSDP, vm.ram + t.rsdp_gpa, ACPI_RSDP_SIZE));
	CHECK_EQ(GPA_BIOS_RSDP % 16, 0);
	/* The copy is in a reserved range, RAM below it and from 1 MiB on. */
	bool reserved = false;
	u64 ram = 0;
	for (u32 i = 0; i < t.nmap; i++) {
		const struct e820_entry *e = &t.map[i];
		if (e->type == E820_RESERVED && e->addr <= GPA_BIOS_RSDP &&
		    GPA_BIOS_RSDP + ACPI_RSDP_SIZE <= e->addr + e->size)
			reserved = true;
		if (e->type == E820_RAM)
			ram += e->size;
	}
	CHECK(reserved);
	CHECK(ram < vm.ram_size && ram > vm.ram_size - MiB);
	free(vm.ram);
}

int main(void)
{
	test_tables();
	return test_summary();
}
