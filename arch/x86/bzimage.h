/* SPDX-License-Identifier: GPL-2.0-only */
/* Parser for the setup header of an x86 bzImage (the `vmlinuz` distributions ship), as
 * the Linux x86 boot protocol describes it (Documentation/arch/x86/boot.rst). Only
 * kernels that can be entered in 64-bit mode are accepted: boot protocol 2.12 or later
 * (Linux 3.8) with XLF_KERNEL_64. Pure: works on a byte buffer holding the whole file,
 * which is untrusted. */
#ifndef ARCH_X86_BZIMAGE_H
#define ARCH_X86_BZIMAGE_H

#include "hv/types.h"

/* Offsets in the file and in boot_params (the "zero page"), where the setup header sits
 * at the same place. */
#define BZ_HDR_START 0x1F1
#define BZ_HDR_MAX_END 0x290 /* the zero page's fields after the header start here */

struct bzimage {
	u16 version;	    /* boot protocol, 0x20F for 2.15 */
	u32 header_end;	    /* the setup header is bytes BZ_HDR_START..header_end */
	u64 kernel_offset;  /* the protected-mode kernel: file bytes kernel_offset.. */
	u64 kernel_size;    /* ..kernel_offset + kernel_size, loaded at load_addr */
	u64 load_addr;	    /* pref_address, aligned as the kernel asks */
	u64 init_size;	    /* memory from load_addr the kernel needs to decompress itself */
	u64 initrd_end_max; /* the initrd must end at or below this address */
	u32 cmdline_max;    /* longest command line, without its NUL */
};

/* Whether buf carries a setup header at all ("HdrS" and the boot flag). */
bool bzimage_is(const void *buf, size_t len);

/* Returns 0 and fills *out, or -1 with *why set to a static string saying what is wrong:
 * the file's protocol version, 64-bit entry and sizes are checked, the layout inside the
 * VM's memory is the loader's. */
int bzimage_parse(const void *buf, size_t len, struct bzimage *out, const char **why);

#endif
