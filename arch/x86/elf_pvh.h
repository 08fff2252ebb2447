/* SPDX-License-Identifier: GPL-2.0-only */
/* Parser for x86-64 Linux vmlinux ELF images booted through the PVH entry point.
 * Pure: works on a byte buffer holding the whole file, which is untrusted. */
#ifndef ARCH_X86_ELF_PVH_H
#define ARCH_X86_ELF_PVH_H

#include "arch/x86/elf.h"

/* An ELF64 x86-64 executable (elf_parse) with the PVH entry note: returns 0 and fills
 * *out, its entry the note's 32-bit physical entry, or -1 with *reason (if reason is
 * non-NULL) set to a static string saying what is wrong. The entry must lie inside the
 * file part of a segment. */
int elf_pvh_parse(const void *buf, size_t len, struct elf_image *out, const char **reason);

#endif
