/* SPDX-License-Identifier: GPL-2.0-only */
/* x86 ELF executables, ELF32 and ELF64 (System V gABI, "Object Files"): the header and
 * the PT_LOAD segments. */
#include "arch/x86/elf.h"
#include "hv/lib.h"

#define EHDR32_SIZE 52
#define EHDR64_SIZE 64
#define PHDR32_SIZE 32
#define PHDR64_SIZE 56
#define ELFCLASS32 1
#define ELFCLASS64 2
#define ET_EXEC 2
#define EM_386 3
#define EM_X86_64 62

/* Whether [off, off + size) lies within a buffer of len bytes, without overflow. */
static bool in_buf(u64 off, u64 size, size_t len) { return off <= len && size <= len - off; }

int elf_fail(struct elf_image *out, const char **reason, const char *why)
{
	memset(out, 0, sizeof(*out));
	if (reason)
		*reason = why;
	return -1;
}

void elf_phdr(const u8 *file, const struct elf_image *ei, u32 i, struct elf_phdr *ph)
{
	const u8 *p = file + ei->phoff + (u64)i * (ei->elf64 ? PHDR64_SIZE : PHDR32_SIZE);
	if (ei->elf64)
		*ph = (struct elf_phdr){ elf_le32(p),	   elf_le64(p + 8),  elf_le64(p + 24),
					 elf_le64(p + 32), elf_le64(p + 40), elf_le64(p + 48) };
	else
		*ph = (struct elf_phdr){ elf_le32(p),	   elf_le32(p + 4),  elf_le32(p + 12),
					 elf_le32(p + 16), elf_le32(p + 20), elf_le32(p + 28) };
}

static int add_segment(struct elf_image *out, const struct elf_phdr *ph, size_t len,
		       const char **why)
{
	if (ph->filesz > ph->memsz)
		*why = "segment file size larger than its memory size";
	else if (!in_buf(ph->offset, ph->filesz, len))
		*why = "segment outside the file";
	else if (ph->memsz > UINT64_MAX - ph->paddr)
		*why = "segment address range overflows";
	else if (ph->memsz && out->nsegments == ELF_MAX_SEGMENTS)
		*why = "too many loadable segments";
	if (*why)
		return -1;
	if (!ph->memsz)
		return 0;
	for (u32 j = 0; j < out->nsegments; j++) {
		const struct elf_segment *s = &out->seg[j];
		if (ph->paddr < s->paddr + s->memsz && s->paddr < ph->paddr + ph->memsz) {
			*why = "segments overlap";
			return -1;
		}
	}
	out->seg[out->nsegments++] = (struct elf_segment){ ph->paddr, ph->offset, ph->filesz,
							   ph->memsz };
	if (out->nsegments == 1 || ph->paddr < out->lowest_paddr)
		out->lowest_paddr = ph->paddr;
	out->highest_paddr_end = MAX(out->highest_paddr_end, ph->paddr + ph->memsz);
	return 0;
}

int elf_parse(const void *buf, size_t len, u32 classes, struct elf_image *out, const char **reason)
{
	const u8 *b = buf;
	const char *why = NULL;

	memset(out, 0, sizeof(*out));
	if (len < 4 || memcmp(b, "\177ELF", 4))
		return elf_fail(out, reason, "not an ELF file");
	if (len < EHDR32_SIZE || (b[4] == ELFCLASS64 && len < EHDR64_SIZE))
		return elf_fail(out, reason, "truncated ELF header");
	out->elf64 = b[4] == ELFCLASS64;
	u16 machine = elf_le16(b + 18);
	bool x86_64 = out->elf64 && machine == EM_X86_64 && (classes & ELF_X86_64);
	bool i386 = b[4] == ELFCLASS32 && machine == EM_386 && (classes & ELF_I386);
	if (b[5] != 1 || elf_le16(b + 16) != ET_EXEC || !(x86_64 || i386))
		return elf_fail(out, reason,
				classes == ELF_X86_64 ? "not a 64-bit x86 ELF executable"
						      : "not an x86 ELF executable (ELF32 i386 "
							"or ELF64 x86-64)");
	if (b[6] != 1 || elf_le32(b + 20) != 1)
		return elf_fail(out, reason, "unsupported ELF version");

	u32 phsize = out->elf64 ? PHDR64_SIZE : PHDR32_SIZE;
	out->entry = out->elf64 ? elf_le64(b + 24) : elf_le32(b + 24);
	out->phoff = out->elf64 ? elf_le64(b + 32) : elf_le32(b + 28);
	out->phnum = elf_le16(b + (out->elf64 ? 56 : 44));
	if (elf_le16(b + (out->elf64 ? 54 : 42)) != phsize)
		return elf_fail(out, reason, "bad program header size");
	if (!out->phnum)
		return elf_fail(out, reason, "no program headers");
	if (!in_buf(out->phoff, (u64)out->phnum * phsize, len))
		return elf_fail(out, reason, "program header table outside the file");

	for (u32 i = 0; i < out->phnum; i++) {
		struct elf_phdr ph;
		elf_phdr(b, out, i, &ph);
		if (ph.type == PT_LOAD && add_segment(out, &ph, len, &why))
			return elf_fail(out, reason, why);
	}
	if (!out->nsegments)
		return elf_fail(out, reason, "no loadable segments");
	return 0;
}
