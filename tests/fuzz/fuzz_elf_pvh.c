/* SPDX-License-Identifier: GPL-2.0-only */
/* The vmlinux (ELF, PVH entry note) parser (arch/x86/elf_pvh.c) on an untrusted kernel
 * file: the input is the file, parsed from a heap copy of exactly its length. Checked
 * for an accepted file: what the PVH loader (linux_pvh.c) then copies lies inside the
 * file (it is read here), the segments are at most ELF_MAX_SEGMENTS, each no larger in
 * the file than in memory and apart from the others, their bounds are the lowest and
 * highest, and the entry is in a segment's file part below 4 GiB; a refusal says why
 * and leaves no segment. */
#include "../../arch/x86/elf.c"
#include "../../arch/x86/elf_pvh.c"
#include "fuzz.h"

static void check_image(const struct elf_image *ei, const u8 *file, size_t len)
{
	u64 lo = ~0ull, hi = 0;
	bool entry_in = false;
	volatile u8 sum = 0;

	FUZZ_CHECK(ei->nsegments >= 1 && ei->nsegments <= ELF_MAX_SEGMENTS);
	for (u32 i = 0; i < ei->nsegments; i++) {
		const struct elf_segment *s = &ei->seg[i];
		FUZZ_CHECK(s->memsz && s->filesz <= s->memsz);
		FUZZ_CHECK(fuzz_inside(s->file_offset, s->filesz, len));
		FUZZ_CHECK(s->paddr + s->memsz > s->paddr); /* no wrap */
		for (u32 j = 0; j < i; j++)
			FUZZ_CHECK(s->paddr >= ei->seg[j].paddr + ei->seg[j].memsz ||
				   ei->seg[j].paddr >= s->paddr + s->memsz);
		/* What linux_pvh_load copies: ASan checks it is in the file. */
		for (u64 k = 0; k < s->filesz; k += 4096)
			sum += file[s->file_offset + k];
		if (s->filesz)
			sum += file[s->file_offset + s->filesz - 1];
		lo = MIN(lo, s->paddr);
		hi = MAX(hi, s->paddr + s->memsz);
		entry_in |= ei->entry >= s->paddr && ei->entry - s->paddr < s->filesz;
	}
	FUZZ_CHECK(ei->lowest_paddr == lo && ei->highest_paddr_end == hi);
	FUZZ_CHECK(entry_in && ei->entry >> 32 == 0);
	(void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u8 *file = fuzz_copy(data, size);
	struct elf_image ei;
	const char *why = NULL;

	if (elf_pvh_parse(file, size, &ei, &why) == 0)
		check_image(&ei, file, size);
	else
		FUZZ_CHECK(why && *why && ei.nsegments == 0);
	free(file);
	return 0;
}
