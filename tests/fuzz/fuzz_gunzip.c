/* SPDX-License-Identifier: GPL-2.0-only */
/* The gzip loader (hv/gunzip.c, with the fetched zlib) on an untrusted kernel file: the
 * input is the file, inflated as boot/efi_main.c does it, into a heap buffer of the size
 * its trailer states (at most 64 KiB here), so that AddressSanitizer catches a write past
 * it. Checked: a success inflates exactly the trailer's size, a buffer one byte short is
 * never enough, and a failure says why. */
#include "../../hv/gunzip.c"
#include "fuzz.h"

#define CAP_MAX (64 * 1024)

static int inflate_into(const u8 *file, size_t len, u64 cap, u64 *got)
{
	u8 *out = malloc(cap ? cap : 1);
	const char *why = NULL;
	int rc = gunzip(file, len, out, cap, got, &why);
	FUZZ_CHECK(*got <= cap);
	FUZZ_CHECK(rc == 0 || (rc == -1 && why && *why));
	free(out);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u8 *file = fuzz_copy(data, size);
	u64 isize = gzip_size(file, size), got = 0;

	if (gzip_is(file, size)) {
		if (inflate_into(file, size, MIN(isize, (u64)CAP_MAX), &got) == 0)
			FUZZ_CHECK(got == isize);
		if (isize && isize <= CAP_MAX)
			FUZZ_CHECK(inflate_into(file, size, isize - 1, &got) == -1);
	} else {
		const char *why = NULL;
		FUZZ_CHECK(gunzip(file, size, NULL, 0, &got, &why) == -1 && why);
	}
	free(file);
	return 0;
}
