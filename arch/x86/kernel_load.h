/* SPDX-License-Identifier: GPL-2.0-only */
/* x86 guest kernels (kernel_load.c): the loaders besides Linux's (linux_boot.h), and what
 * the loaders that place a file's segments share. */
#ifndef ARCH_X86_KERNEL_LOAD_H
#define ARCH_X86_KERNEL_LOAD_H

#include "arch/x86/elf.h"
#include "arch/x86/guest.h"

/* Copies the kernel's segments into the VM's RAM (and zeroes their bss), which the
 * caller has checked lie in it. */
void x86_load_segments(struct vm *vm, const struct guest_images *img, const struct elf_image *k);

/* A multiboot (v1) kernel (multiboot_boot.c). */
int multiboot_load(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img,
		   struct x86_boot *boot);

#endif
