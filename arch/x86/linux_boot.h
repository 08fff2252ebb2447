/* SPDX-License-Identifier: GPL-2.0-only */
/* Booting Linux on x86: what the two entries share (linux_boot.c) and the entries
 * themselves, PVH for a vmlinux (linux_pvh.c) and the 64-bit boot protocol for a
 * bzImage (linux_bzimage.c). */
#ifndef ARCH_X86_LINUX_BOOT_H
#define ARCH_X86_LINUX_BOOT_H

#include "arch/x86/boot_tables.h"

/* What the kernel asks of the rest of the layout (from its file), and where the rest went. */
struct linux_boot {
	/* in */
	u64 kernel_end;	    /* the first byte after the memory the kernel occupies */
	u64 initrd_end_max; /* the initrd must end at or below this address */
	u32 cmdline_max;    /* longest command line it takes, without the NUL */
	/* out */
	u64 initrd_gpa, initrd_len;
	u64 cmdline_gpa;
	struct boot_tables tables; /* the ACPI RSDP and the memory map */
};

/* Places the initrd and writes the command line and the ACPI tables into the VM's RAM,
 * and fills lb's memory map; 0, or -1 after saying why. */
int linux_boot_common(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img,
		      struct linux_boot *lb);

int linux_pvh_load(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img,
		   struct x86_boot *boot);
int linux_bzimage_load(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img,
		       struct x86_boot *boot);

#endif
