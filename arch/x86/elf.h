/* SPDX-License-Identifier: GPL-2.0-only */
/* The loadable part of an x86 ELF executable: its PT_LOAD segments at their physical
 * addresses and its entry, for the loaders that place a kernel's segments where its file
 * says (a PVH vmlinux: elf_pvh.h; a multiboot kernel: multiboot.h). Pure: works on a
 * byte buffer holding the whole file, which is untrusted. */
#ifndef ARCH_X86_ELF_H
#define ARCH_X86_ELF_H

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
	u64 entry; /* e_entry (elf_parse); the PVH note's entry (elf_pvh_parse) */
	u32 nsegments;
	struct elf_segment seg[ELF_MAX_SEGMENTS];
	u64 lowest_paddr;      /* lowest segment paddr */
	u64 highest_paddr_end; /* highest segment paddr + memsz */
	/* the program header table, for what else a loader reads in it */
	bool elf64;
	u64 phoff;
	u32 phnum;
};

/* The classes a loader takes: ELF64 for x86-64, ELF32 for i386. */
#define ELF_X86_64 BIT(0)
#define ELF_I386 BIT(1)

/* Little-endian fields, read byte by byte: the buffer needs no alignment. */
static inline u16 elf_le16(const u8 *p) { return (u16)(p[0] | p[1] << 8); }
static inline u32 elf_le32(const u8 *p) { return (u32)elf_le16(p) | (u32)elf_le16(p + 2) << 16; }
static inline u64 elf_le64(const u8 *p) { return (u64)elf_le32(p) | (u64)elf_le32(p + 4) << 32; }

/* One program header, of either class. */
struct elf_phdr {
	u32 type;
	u64 offset, paddr, filesz, memsz, align;
};
#define PT_LOAD 1
#define PT_NOTE 4

/* Reads program header i (< ei->phnum) of a file elf_parse accepted. */
void elf_phdr(const u8 *file, const struct elf_image *ei, u32 i, struct elf_phdr *ph);

/* Parses an executable of one of the classes in `classes` (ELF_X86_64, ELF_I386).
 * Returns 0 and fills *out, or -1 with *reason (if non-NULL) set to a static string
 * saying what is wrong, and *out emptied. The segments lie in the file, do not
 * overlap and do not wrap around. */
int elf_parse(const void *buf, size_t len, u32 classes, struct elf_image *out, const char **reason);
/* elf_parse's refusal, for a loader to add its own: empties *out, sets *reason. */
int elf_fail(struct elf_image *out, const char **reason, const char *why);

#endif
