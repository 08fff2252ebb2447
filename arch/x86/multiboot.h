/* SPDX-License-Identifier: GPL-2.0-only */
/* Multiboot (version 1) kernels, as the Multiboot Specification 0.6.96 defines them and
 * QEMU's -kernel loads them: the header, what of the file goes where, the modules'
 * places and the information structure the kernel gets in EBX. Pure: the file is
 * untrusted, the guest memory a buffer. */
#ifndef ARCH_X86_MULTIBOOT_H
#define ARCH_X86_MULTIBOOT_H

#include "arch/x86/elf.h"

#define MULTIBOOT_MAGIC 0x1BADB002u	 /* the header's (3.1.1) */
#define MULTIBOOT_BOOT_MAGIC 0x2BADB002u /* EAX at the entry (3.2) */
#define MULTIBOOT_SEARCH 8192		 /* the header lies within the file's first 8 KiB */

/* Header flags (3.1.2). Bits 0-15 are requirements: a loader that cannot meet one must
 * refuse the kernel; bits 16-31 are optional. */
#define MB_PAGE_ALIGN BIT(0)   /* modules on 4 KiB boundaries */
#define MB_MEMORY_INFO BIT(1)  /* mem_lower, mem_upper and the memory map */
#define MB_VIDEO_MODE BIT(2)   /* a graphics mode */
#define MB_AOUT_KLUDGE BIT(16) /* load by the header's address fields, not as an ELF */

/* Where a valid header is: 1 and *off; 0 when the first 8 KiB hold no magic at a 4-byte
 * boundary; -1 and *why when every magic there has a wrong checksum. */
int multiboot_find(const void *buf, size_t len, u32 *off, const char **why);

/* The kernel's segments and entry (all below 4 GiB): by the header's address fields with
 * MB_AOUT_KLUDGE, else the file's ELF (ELF32 i386 or ELF64 x86-64) PT_LOAD segments at
 * their physical addresses and e_entry. 0, or -1 with *why and *out emptied. */
int multiboot_parse(const void *buf, size_t len, struct elf_image *out, const char **why);

/* The modules' places in RAM below ram_end: each on a page, from the first page after the
 * kernel (and at or above 1 MiB), in order; each of the kernel's segments must lie in RAM
 * from 1 MiB up or in the conventional memory above the VM's boot data (guest_layout.h).
 * 0 and mod_gpa[], or -1 and *why. */
int multiboot_place(const struct elf_image *k, u64 ram_end, const u64 *mod_len, u32 nmods,
		    u64 *mod_gpa, const char **why);

/* What the information structure tells (3.3). */
struct multiboot_mmap {
	u64 addr, len;
	u32 type; /* 1 RAM, 3 ACPI, 2 (any other) reserved */
};
struct multiboot_params {
	u32 mem_lower, mem_upper; /* KiB from 0 and from 1 MiB */
	const char *cmdline;
	const char *loader_name;
	u32 nmods;
	const u64 *mod_gpa, *mod_len;
	const char *const *mod_string;
	u32 nmap;
	const struct multiboot_mmap *map;
};

/* Writes the information structure, its memory map, module list and strings into buf, cap
 * bytes that the kernel sees at guest-physical gpa. Returns 0, or -1 and *why when it does
 * not fit or an address does not fit 32 bits. */
int multiboot_info_build(u8 *buf, size_t cap, u64 gpa, const struct multiboot_params *p,
			 const char **why);

#endif
