/* SPDX-License-Identifier: GPL-2.0-only */
/* Parser for x86-64 Linux vmlinux ELF images booted through the PVH entry point.
 * Pure: works on a byte buffer holding the whole file, which is untrusted. */
#ifndef ARCH_X86_ELF_PVH_H
#define ARCH_X86_ELF_PVH_H

#include "hv/types.h"

#define ELF_MAX_SEGMENTS 16

/* One PT_LOAD segment: copy filesz bytes from file_offset to paddr, then zero up to
 * memsz. Segments with memsz 0 are dropped. */
struct elf_segment {
	u64 paddr;
	u64 file_offset;
	u64 filesz;
	u64 memsz;
};

struct elf_image {
	u64 pvh_entry; /* 32-bit physical entry from the PVH note */
	u32 nsegments;
	struct elf_segment seg[ELF_MAX_SEGMENTS];
	u64 lowest_paddr;      /* lowest segment paddr */
	u64 highest_paddr_end; /* highest segment paddr + memsz */
};

/* Returns 0 and fills *out, or -1 with *reason (if reason is non-NULL) set to a
 * static string saying what is wrong. Besides the format checks, the segments must
 * not overlap and the PVH entry must lie inside the file part of a segment. */
int elf_pvh_parse(const void *buf, size_t len, struct elf_image *out, const char **reason);

#endif
