/* SPDX-License-Identifier: GPL-2.0-only */
/* What the libFuzzer harnesses (tests/fuzz/fuzz_*.c) share. Each harness is one program
 * that #includes the code under test (as tests/unit does, with -DHV_UNIT_TEST) and
 * defines LLVMFuzzerTestOneInput(), which runs the code on one input. An input is read
 * front to back with the take_*() helpers below; once it is used up they return zeros,
 * so that every input, however short, is a complete run. A broken invariant is reported
 * with FUZZ_CHECK, which prints it and aborts: libFuzzer then saves the input as a
 * reproducer. Harnesses never call exit(). */
#ifndef TESTS_FUZZ_FUZZ_H
#define TESTS_FUZZ_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                                      \
	do {                                                                                  \
		if (!(cond)) {                                                                \
			fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__, __LINE__, \
				#cond);                                                       \
			abort();                                                              \
		}                                                                             \
	} while (0)

/* The input not yet consumed. */
struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

static inline uint64_t take_bytes(struct fuzz_in *in, unsigned nbytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < nbytes; i++) {
		uint64_t b = 0;
		if (in->n) {
			b = *in->p++;
			in->n--;
		}
		v |= b << (8 * i); /* little-endian, as the seeds are written */
	}
	return v;
}

static inline uint8_t take_u8(struct fuzz_in *in) { return (uint8_t)take_bytes(in, 1); }
static inline uint16_t take_u16(struct fuzz_in *in) { return (uint16_t)take_bytes(in, 2); }
static inline uint32_t take_u32(struct fuzz_in *in) { return (uint32_t)take_bytes(in, 4); }
static inline uint64_t take_u64(struct fuzz_in *in) { return take_bytes(in, 8); }

/* A heap copy of exactly len bytes (at least one allocated), so that AddressSanitizer
 * catches a read past the end; free() it. */
static inline uint8_t *fuzz_copy(const uint8_t *data, size_t len)
{
	uint8_t *b = malloc(len ? len : 1);
	if (len)
		memcpy(b, data, len);
	return b;
}

/* Whether [off, off + len) lies inside a buffer of size bytes, without overflow. */
static inline int fuzz_inside(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

#endif
