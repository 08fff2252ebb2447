/* SPDX-License-Identifier: GPL-2.0-only */
/* What every x86 guest entry gives the kernel (arch/x86/boot_tables.c): the memory map,
 * and the ACPI tables in the BIOS area, so that a kernel that scans 0xE0000-0xFFFFF for
 * the RSDP (kvm-unit-tests, multiboot kernels) finds the tables Linux is pointed at, and
 * the conventional memory from 0x8000 is RAM (kvm-unit-tests' realmode test loads there). */
#include "../../../arch/x86/boot_tables.c"
#include "../../../arch/x86/guest_acpi.c"
#include "../test.h"

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
	/* A scan as a kernel does it (ACPI 6.5, 5.2.5.1) finds the RSDP Linux is told of. */
	u64 found = 0;
	for (u64 a = 0xE0000; a < 0x100000 && !found; a += 16)
		if (!memcmp(vm.ram + a, "RSD PTR ", 8))
			found = a;
	CHECK_EQ(found, t.rsdp_gpa);
	/* The tables are in a reserved range, no RAM range touches them; RAM from 0 to the
	 * EBDA (a kernel may load at 0x8000) and from 1 MiB on. */
	bool reserved = false, low_ram = false;
	u64 ram = 0;
	for (u32 i = 0; i < t.nmap; i++) {
		const struct e820_entry *e = &t.map[i];
		if (e->type == E820_RESERVED && e->addr <= GPA_ACPI &&
		    GPA_ACPI + GPA_ACPI_SIZE <= e->addr + e->size)
			reserved = true;
		if (e->type == E820_RAM) {
			ram += e->size;
			CHECK(e->addr + e->size <= GPA_ACPI || e->addr >= GPA_ACPI + GPA_ACPI_SIZE);
			if (e->addr == 0 && e->size >= 0x9F000)
				low_ram = true;
		}
	}
	CHECK(low_ram);
	CHECK(reserved);
	CHECK(ram < vm.ram_size && ram > vm.ram_size - MiB);
	free(vm.ram);
}

int main(void)
{
	test_tables();
	return test_summary();
}
