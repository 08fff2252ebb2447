/* SPDX-License-Identifier: GPL-2.0-only */
/* Where an arm64 Linux Image, its initrd and its device tree go in guest RAM
 * (Linux Documentation/arch/arm64/booting.rst). Pure: reads the Image's 64-byte header
 * from an untrusted buffer and computes addresses; the caller copies and boots.
 *
 *   kernel  text_offset above the first 2 MiB boundary in RAM; the kernel owns
 *           image_size bytes from there (its bss included); entry = its first byte
 *   initrd  page aligned, right after those image_size bytes
 *   fdt     at the next 2 MiB boundary, alone in its 2 MiB block (booting.rst: the
 *           kernel maps it with 2 MiB blocks); at most 2 MiB
 *
 * Kernels older than 3.17 have image_size 0: text_offset is then 0x80000 and the
 * kernel's size unknown (its bss is not in the file), so the initrd and the device
 * tree move as high as they can, leaving booting.rst's "as much memory as possible"
 * after the kernel. */
#ifndef ARCH_ARM64_LINUX_IMAGE_H
#define ARCH_ARM64_LINUX_IMAGE_H

#include "hv/types.h"

#define LINUX_IMAGE_HEADER_SIZE 64
#define LINUX_IMAGE_FDT_MAX (2 * MiB)

struct linux_image_layout {
	u64 kernel_addr; /* where the Image goes (2 MiB aligned + text_offset) */
	u64 kernel_copy; /* how many bytes of the file to copy there */
	u64 kernel_size; /* bytes the kernel owns from kernel_addr: image_size */
	u64 entry;	 /* = kernel_addr; x0 = fdt_addr, x1..x3 = 0 */
	u64 initrd_addr; /* 0 when initrd_len is 0 */
	u64 fdt_addr;	 /* 2 MiB aligned */
	u32 page_size;	 /* the kernel's page size (flags bits 1-2); 0: not stated */
	char msg[96];	 /* the text of errors that give sizes */
};

/* Lays out an Image (the whole file: img, len bytes) with an initrd of initrd_len
 * bytes (0: none) and a device tree of fdt_size bytes in the guest RAM
 * [ram_base, ram_base + ram_size), which must lie below 2^48. Returns 0 and fills
 * *out, or -1 with *why (if why is non-NULL) saying what is wrong; *why is a static
 * string or out->msg. */
int linux_image_layout(const void *img, u64 len, u64 ram_base, u64 ram_size, u64 initrd_len,
		       u64 fdt_size, struct linux_image_layout *out, const char **why);

#endif
