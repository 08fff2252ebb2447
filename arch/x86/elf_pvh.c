/* SPDX-License-Identifier: GPL-2.0-only */
/* ELF64 vmlinux parser: PT_LOAD segments and the Xen PVH entry note. All fields
 * are read byte by byte (little endian), so the buffer needs no alignment. */
#include "arch/x86/elf_pvh.h"
#include "hv/lib.h"

#define EHDR_SIZE 64
#define PHDR_SIZE 56
#define NHDR_SIZE 12
#define ET_EXEC 2
#define EM_X86_64 62
#define PT_LOAD 1
#define PT_NOTE 4
#define XEN_ELFNOTE_PHYS32_ENTRY 18

static u16 rd16(const u8 *p) { return (u16)(p[0] | p[1] << 8); }

static u32 rd32(const u8 *p) { return (u32)rd16(p) | (u32)rd16(p + 2) << 16; }

static u64 rd64(const u8 *p) { return (u64)rd32(p) | (u64)rd32(p + 4) << 32; }

/* Whether [off, off + size) lies within a buffer of len bytes, without overflow. */
static bool in_buf(u64 off, u64 size, size_t len) { return off <= len && size <= len - off; }

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
		namesz = rd32(p);
		descsz = rd32(p + 4);
		type = rd32(p + 8);
		desc_off = ALIGN_UP(NHDR_SIZE + (u64)namesz, align);
		if (desc_off > size || descsz > size - desc_off) {
			*why = "malformed ELF note";
			return -1;
		}
		if (namesz == 4 && !memcmp(p + NHDR_SIZE, "Xen", 4) &&
		    type == XEN_ELFNOTE_PHYS32_ENTRY) {
			if (descsz == 4) {
				*entry = rd32(p + desc_off);
			} else if (descsz == 8) {
				*entry = rd64(p + desc_off);
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

static int fail(struct elf_image *out, const char **reason, const char *why)
{
	memset(out, 0, sizeof(*out));
	if (reason)
		*reason = why;
	return -1;
}

int elf_pvh_parse(const void *buf, size_t len, struct elf_image *out, const char **reason)
{
	const u8 *b = buf, *ph;
	u64 phoff, entry = 0;
	const char *why = NULL;
	u32 phnum, i, j;
	int found = 0;

	memset(out, 0, sizeof(*out));
	if (len < 4 || memcmp(b, "\177ELF", 4))
		return fail(out, reason, "not an ELF file");
	if (len < EHDR_SIZE)
		return fail(out, reason, "truncated ELF header");
	if (b[4] != 2 || b[5] != 1 || rd16(b + 16) != ET_EXEC || rd16(b + 18) != EM_X86_64)
		return fail(out, reason, "not a 64-bit x86 ELF executable");
	if (b[6] != 1 || rd32(b + 20) != 1)
		return fail(out, reason, "unsupported ELF version");

	phoff = rd64(b + 32);
	phnum = rd16(b + 56);
	if (rd16(b + 54) != PHDR_SIZE)
		return fail(out, reason, "bad program header size");
	if (!phnum)
		return fail(out, reason, "no program headers");
	if (!in_buf(phoff, (u64)phnum * PHDR_SIZE, len))
		return fail(out, reason, "program header table outside the file");

	for (i = 0, ph = b + phoff; i < phnum; i++, ph += PHDR_SIZE) {
		u64 off = rd64(ph + 8), paddr = rd64(ph + 24);
		u64 filesz = rd64(ph + 32), memsz = rd64(ph + 40);
		struct elf_segment *s;

		if (rd32(ph) != PT_LOAD)
			continue;
		if (filesz > memsz)
			return fail(out, reason, "segment file size larger than its memory size");
		if (!in_buf(off, filesz, len))
			return fail(out, reason, "segment outside the file");
		if (memsz > UINT64_MAX - paddr)
			return fail(out, reason, "segment address range overflows");
		if (!memsz)
			continue;
		if (out->nsegments == ELF_MAX_SEGMENTS)
			return fail(out, reason, "too many loadable segments");
		for (j = 0; j < out->nsegments; j++) {
			s = &out->seg[j];
			if (paddr < s->paddr + s->memsz && s->paddr < paddr + memsz)
				return fail(out, reason, "segments overlap");
		}
		s = &out->seg[out->nsegments++];
		s->paddr = paddr;
		s->file_offset = off;
		s->filesz = filesz;
		s->memsz = memsz;
		if (out->nsegments == 1 || paddr < out->lowest_paddr)
			out->lowest_paddr = paddr;
		if (paddr + memsz > out->highest_paddr_end)
			out->highest_paddr_end = paddr + memsz;
	}
	if (!out->nsegments)
		return fail(out, reason, "no loadable segments");

	for (i = 0, ph = b + phoff; i < phnum && !found; i++, ph += PHDR_SIZE) {
		u64 off = rd64(ph + 8), filesz = rd64(ph + 32);

		if (rd32(ph) != PT_NOTE)
			continue;
		if (!in_buf(off, filesz, len))
			return fail(out, reason, "segment outside the file");
		/* Notes are 4-byte aligned, 8 only in segments that say so (gABI). */
		found = find_pvh_note(b + off, filesz, rd64(ph + 48) == 8 ? 8 : 4, &entry, &why);
		if (found < 0)
			return fail(out, reason, why);
	}
	if (!found)
		return fail(out, reason,
			    "no PVH entry note (XEN_ELFNOTE_PHYS32_ENTRY): not a PVH-capable Linux "
			    "kernel");
	if (entry >> 32)
		return fail(out, reason, "PVH entry point above 4 GiB");
	for (i = 0; i < out->nsegments; i++)
		if (entry >= out->seg[i].paddr && entry - out->seg[i].paddr < out->seg[i].filesz)
			break;
	if (i == out->nsegments)
		return fail(out, reason, "PVH entry point outside the loaded code");
	out->pvh_entry = entry;
	return 0;
}
