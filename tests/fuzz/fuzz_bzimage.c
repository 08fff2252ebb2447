/* SPDX-License-Identifier: GPL-2.0-only */
/* The bzImage setup-header parser (arch/x86/bzimage.c) on an untrusted kernel file: the
 * input is the file, parsed from a heap copy of exactly its length. Checked for an
 * accepted file: the parts the bzImage loader (linux_bzimage.c) copies, the setup
 * header into the zero page and the protected-mode kernel, lie inside the file (they
 * are copied here), the header fits the zero page's room for it, and the kernel's load
 * address and init_size lie in 1 MiB..4 GiB; a refusal says why. */
#include "../../arch/x86/bzimage.c"
#include "fuzz.h"

static u8 zero_page[4096];

static void check_bz(const struct bzimage *bz, const u8 *file, size_t len)
{
	FUZZ_CHECK(bz->version >= 0x20C);
	FUZZ_CHECK(bz->header_end >= HDR_MIN_END && bz->header_end <= BZ_HDR_MAX_END);
	FUZZ_CHECK(bz->header_end <= len);
	FUZZ_CHECK(bz->kernel_offset >= bz->header_end && bz->kernel_size >= 1);
	FUZZ_CHECK(bz->kernel_offset + bz->kernel_size == len);
	FUZZ_CHECK(bz->init_size >= bz->kernel_size);
	FUZZ_CHECK(bz->load_addr >= MiB && bz->load_addr <= 4 * GiB);
	FUZZ_CHECK(bz->init_size <= 4 * GiB - bz->load_addr);
	/* linux_bzimage_load's copies from the file. */
	memcpy(zero_page + BZ_HDR_START, file + BZ_HDR_START, bz->header_end - BZ_HDR_START);
	volatile u8 first = file[bz->kernel_offset], last = file[len - 1];
	(void)first;
	(void)last;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u8 *file = fuzz_copy(data, size);
	struct bzimage bz;
	const char *why = NULL;

	if (bzimage_parse(file, size, &bz, &why) == 0) {
		FUZZ_CHECK(bzimage_is(file, size));
		check_bz(&bz, file, size);
	} else {
		FUZZ_CHECK(why && *why && bz.kernel_size == 0);
	}
	free(file);
	return 0;
}
