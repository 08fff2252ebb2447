/* SPDX-License-Identifier: GPL-2.0-only */
/* Where an x86 VM's boot data and platform lie in its guest-physical memory, as a PC's
 * BIOS would leave them: the memory map (boot_tables.c) says the same. */
#ifndef ARCH_X86_GUEST_LAYOUT_H
#define ARCH_X86_GUEST_LAYOUT_H

#define GPA_BOOT_GDT 0x5000ull /* bzImage: the GDT of the 64-bit entry */
/* PVH start info, memory map, module list; bzImage: zero page; multiboot: the information
 * structure (with the command line). */
#define GPA_BOOT_INFO 0x6000ull
#define GPA_CMDLINE 0x7000ull
/* From here to GPA_LOW_RESERVED the RAM is the kernel's: a multiboot kernel may load
 * there (kvm-unit-tests' realmode test is linked at 0x8000, as QEMU's -kernel takes it);
 * only a bzImage boot puts its page tables in it (GPA_BOOT_PAGING). */
#define GPA_BOOT_DATA_END 0x8000ull
#define GPA_BOOT_PAGING 0x10000ull  /* bzImage: identity page tables of the 64-bit entry, 24 KiB */
#define GPA_LOW_RESERVED 0x9F000ull /* the EBDA and the BIOS area up to 1 MiB: reserved */
/* The ACPI tables, 32 KiB, RSDP first: in the BIOS area, where a kernel that scans for the
 * RSDP finds it (ACPI 6.5, 5.2.5.1: on a 16-byte boundary in 0xE0000-0xFFFFF); Linux is
 * told the address. */
#define GPA_ACPI 0xE0000ull
#define GPA_ACPI_SIZE 0x8000ull
#define GPA_IOAPIC 0xFEC00000ull
#define GPA_LOW_RAM_END 0xC0000000ull /* RAM below the 32-bit MMIO hole; the rest from 4 GiB */

#endif
