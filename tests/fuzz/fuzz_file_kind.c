/* SPDX-License-Identifier: GPL-2.0-only */
/* The guess at what a refused kernel file is (hv/file_kind.c): the input is the file, a
 * heap copy of exactly its length. Checked: the phrase is never empty, and it agrees
 * with the loaders' own tests where no earlier magic number takes precedence: an ELF
 * file is called one, a file bzimage_is() accepts a bzImage, the arm64 Image magic an
 * arm64 Image, a file gzip_is() accepts a gzip file. */
#include "../../arch/x86/bzimage.c"
#include "../../hv/file_kind.c"
#include "../../hv/gunzip.c"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u8 *f = fuzz_copy(data, size);
	const char *kind = file_kind(f, size);

	FUZZ_CHECK(kind && *kind);
	if (has(f, size, 0, "\177ELF", 4))
		FUZZ_CHECK(strstr(kind, "ELF"));
	else if (has(f, size, 0x202, "HdrS", 4) || bzimage_is(f, size))
		FUZZ_CHECK(!strcmp(kind, "an x86 bzImage"));
	else if (has(f, size, 56, "ARM\x64", 4))
		FUZZ_CHECK(kind == file_kind_arm64_image);
	else if (gzip_is(f, size))
		FUZZ_CHECK(!strcmp(kind, "a gzip file"));
	free(f);
	return 0;
}
