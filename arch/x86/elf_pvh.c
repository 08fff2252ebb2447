/* SPDX-License-Identifier: GPL-2.0-only */
/* ELF64 vmlinux parser: the Xen PVH entry note (its segments: elf.c). */
#include "arch/x86/elf_pvh.h"
#include "hv/lib.h"

#define NHDR_SIZE 12
#define XEN_ELFNOTE_PHYS32_ENTRY 18

/* Walks the notes of one PT_NOTE segment: 1 and *entry when the PVH note is found,
 * 0 when it is not there, -1 and *why when the notes are malformed. */
static int find_pvh_note(const u8 *p, u64 size, u64 align, u64 *entry, const char **why)
{
	while (size) {
		u32 namesz, descsz, type;
		u64 desc_off, next;

		if (size < NHDR_SIZE) {
			*why = "malformed ELF note";
			return -1;
		}
		namesz = elf_le32(p);
		descsz = elf_le32(p + 4);
		type = elf_le32(p + 8);
		desc_off = ALIGN_UP(NHDR_SIZE + (u64)namesz, align);
		if (desc_off > size || descsz > size - desc_off) {
			*why = "malformed ELF note";
			return -1;
		}
		if (namesz == 4 && !memcmp(p + NHDR_SIZE, "Xen", 4) &&
		    type == XEN_ELFNOTE_PHYS32_ENTRY) {
			if (descsz == 4) {
				*entry = elf_le32(p + desc_off);
			} else if (descsz == 8) {
				*entry = elf_le64(p + desc_off);
			} else {
				*why = "PVH entry note has a bad size";
				return -1;
			}
			return 1;
		}
		/* The last note's padding may be missing. */
		next = ALIGN_UP(desc_off + descsz, align);
		if (next >= size)
			break;
		p += next;
		size -= next;
	}
	return 0;
}

int elf_pvh_parse(const void *buf, size_t len, struct elf_image *out, const char **reason)
{
	const u8 *b = buf;
	u64 entry = 0;
	const char *why = NULL;
	int found = 0;
	u32 i;

	if (elf_parse(buf, len, ELF_X86_64, out, reason))
		return -1;
	for (i = 0; i < out->phnum && !found; i++) {
		struct elf_phdr ph;
		elf_phdr(b, out, i, &ph);
		if (ph.type != PT_NOTE)
			continue;
		if (ph.offset > len || ph.filesz > len - ph.offset)
			return elf_fail(out, reason, "segment outside the file");
		/* Notes are 4-byte aligned, 8 only in segments that say so (gABI). */
		found = find_pvh_note(b + ph.offset, ph.filesz, ph.align == 8 ? 8 : 4, &entry,
				      &why);
		if (found < 0)
			return elf_fail(out, reason, why);
	}
	if (!found)
		return elf_fail(out, reason,
				"no PVH entry note (XEN_ELFNOTE_PHYS32_ENTRY): not a PVH-capable "
				"Linux kernel");
	if (entry >> 32)
		return elf_fail(out, reason, "PVH entry point above 4 GiB");
	for (i = 0; i < out->nsegments; i++)
		if (entry >= out->seg[i].paddr && entry - out->seg[i].paddr < out->seg[i].filesz)
			break;
	if (i == out->nsegments)
		return elf_fail(out, reason, "PVH entry point outside the loaded code");
	out->entry = entry;
	return 0;
}
