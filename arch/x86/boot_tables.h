/* SPDX-License-Identifier: GPL-2.0-only */
/* What every x86 guest entry gives the kernel alike (boot_tables.c): the ACPI tables in
 * the VM's RAM and its memory map, which Linux gets as e820 (zero page, PVH start info)
 * and a multiboot kernel as its info's mmap. */
#ifndef ARCH_X86_BOOT_TABLES_H
#define ARCH_X86_BOOT_TABLES_H

#include "arch/x86/guest.h"

#define E820_RAM 1
#define E820_RESERVED 2
#define E820_MAX 8

struct e820_entry {
	u64 addr, size;
	u32 type;
} PACKED;

struct boot_tables {
	u64 rsdp_gpa;
	u32 nmap;
	struct e820_entry map[E820_MAX];
};

/* Writes the ACPI tables into the VM's RAM and fills *t; 0, or -1 after saying why. */
int x86_boot_tables(struct vm *vm, struct boot_tables *t);

#endif
