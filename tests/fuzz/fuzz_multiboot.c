/* SPDX-License-Identifier: GPL-2.0-only */
/* The multiboot kernel loader (arch/x86/multiboot.c, with the ELF parser elf.c) on an
 * untrusted kernel file: the input is the file, parsed from a heap copy of exactly its
 * length. Checked for an accepted file: the header is within its first 8 KiB, what the
 * loader then copies lies inside the file (it is read here), the segments are apart, no
 * larger in the file than in memory and below 4 GiB, and the entry is in a segment's file
 * part; the modules (as long as the file, its last byte, and 4 KiB) are placed on pages
 * after the kernel, apart, inside RAM; the information structure, built into a buffer of
 * exactly its room with strings from the file, names only addresses inside it. A refusal
 * says why and leaves no segment. */
#include "../../arch/x86/elf.c"
#include "../../arch/x86/multiboot.c"
#include "fuzz.h"

#define RAM_END (64 * MiB)
#define INFO_GPA 0x6000
#define INFO_ROOM 0x2000

static void check_image(const struct elf_image *k, const u8 *file, size_t len)
{
	bool entry_in = false;
	volatile u8 sum = 0;

	FUZZ_CHECK(k->nsegments >= 1 && k->nsegments <= ELF_MAX_SEGMENTS);
	for (u32 i = 0; i < k->nsegments; i++) {
		const struct elf_segment *s = &k->seg[i];
		FUZZ_CHECK(s->memsz && s->filesz <= s->memsz);
		FUZZ_CHECK(fuzz_inside(s->file_offset, s->filesz, len));
		FUZZ_CHECK(s->paddr + s->memsz <= (1ull << 32));
		for (u32 j = 0; j < i; j++)
			FUZZ_CHECK(s->paddr >= k->seg[j].paddr + k->seg[j].memsz ||
				   k->seg[j].paddr >= s->paddr + s->memsz);
		for (u64 o = 0; o < s->filesz; o += 4096)
			sum += file[s->file_offset + o];
		if (s->filesz)
			sum += file[s->file_offset + s->filesz - 1];
		entry_in |= k->entry >= s->paddr && k->entry - s->paddr < s->filesz;
	}
	FUZZ_CHECK(entry_in);
	(void)sum;
}

static void check_place_and_info(const struct elf_image *k, const u8 *file, size_t len)
{
	u64 mod_len[3] = { len, file[len - 1], 4096 }, gpa[3];
	const char *why = NULL;
	if (multiboot_place(k, RAM_END, mod_len, 3, gpa, &why)) {
		FUZZ_CHECK(why && *why);
		return;
	}
	for (u32 i = 0; i < k->nsegments; i++) {
		u64 start = k->seg[i].paddr, end = start + k->seg[i].memsz;
		FUZZ_CHECK((start >= 0x8000 && end <= 0x9F000) || (start >= MiB && end <= RAM_END));
	}
	u64 next = MAX(k->highest_paddr_end, MiB);
	for (u32 i = 0; i < 3; i++) {
		FUZZ_CHECK(gpa[i] % PAGE_SIZE == 0 && gpa[i] >= next);
		FUZZ_CHECK(mod_len[i] <= RAM_END - gpa[i]);
		next = gpa[i] + mod_len[i];
	}
	/* Strings from the file, cut at its first NULs, up to the whole of it. */
	char *text = malloc(len + 1);
	memcpy(text, file, len);
	text[len] = 0;
	const char *strings[3] = { text, text + strlen(text) / 2, "" };
	const struct multiboot_mmap map[2] = { { 0, 0x9F000, 1 }, { MiB, RAM_END - MiB, 1 } };
	struct multiboot_params p = { .mem_lower = 636,
				      .mem_upper = (RAM_END - MiB) >> 10,
				      .cmdline = text + len / 3,
				      .loader_name = "hv",
				      .nmods = 3,
				      .mod_gpa = gpa,
				      .mod_len = mod_len,
				      .mod_string = strings,
				      .nmap = 2,
				      .map = map };
	u8 *info = malloc(INFO_ROOM);
	if (multiboot_info_build(info, INFO_ROOM, INFO_GPA, &p, &why) == 0) {
		u32 addrs[] = { elf_le32(info + 16), elf_le32(info + 24), elf_le32(info + 48),
				elf_le32(info + 64) };
		for (size_t i = 0; i < ARRAY_SIZE(addrs); i++)
			FUZZ_CHECK(addrs[i] >= INFO_GPA + 116 && addrs[i] < INFO_GPA + INFO_ROOM);
		FUZZ_CHECK(elf_le32(info + 20) == 3 && elf_le32(info + 44) == 2 * 24);
	} else {
		FUZZ_CHECK(why && *why);
	}
	free(info);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u8 *file = fuzz_copy(data, size);
	struct elf_image k;
	const char *why = NULL;
	u32 off;

	if (multiboot_parse(file, size, &k, &why) == 0) {
		FUZZ_CHECK(multiboot_find(file, size, &off, &why) == 1 &&
			   off + 12 <= MULTIBOOT_SEARCH && off % 4 == 0);
		check_image(&k, file, size);
		check_place_and_info(&k, file, size);
	} else {
		FUZZ_CHECK(why && *why && k.nsegments == 0);
	}
	free(file);
	return 0;
}
