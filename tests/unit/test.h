/* SPDX-License-Identifier: GPL-2.0-only */
/* Minimal host unit-test harness. Each tests/unit/AREA/test_*.c is one program that
 * #includes the source files it tests, uses CHECK/CHECK_EQ, and ends main() with
 * `return test_summary();`. The runner counts each CHECK as one assertion and each
 * program as one test; a program that ran no check fails, and a part that could not run
 * here (TEST_SKIP: an input that is not built) is said and counted. */
#ifndef HV_TEST_H
#define HV_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int test_checks, test_failures, test_skips;

#define CHECK(cond)                                                                              \
	do {                                                                                     \
		test_checks++;                                                                   \
		if (!(cond)) {                                                                   \
			test_failures++;                                                         \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
		}                                                                                \
	} while (0)

#define CHECK_EQ(a, b)                                                                           \
	do {                                                                                     \
		unsigned long long _a = (unsigned long long)(a), _b = (unsigned long long)(b);   \
		test_checks++;                                                                   \
		if (_a != _b) {                                                                  \
			test_failures++;                                                         \
			fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (0x%llx != 0x%llx)\n", \
				__FILE__, __LINE__, #a, #b, _a, _b);                             \
		}                                                                                \
	} while (0)

#define CHECK_STR(a, b)                                                                           \
	do {                                                                                      \
		const char *_a = (a), *_b = (b);                                                  \
		test_checks++;                                                                    \
		if (!_a || !_b || strcmp(_a, _b)) {                                               \
			test_failures++;                                                          \
			fprintf(stderr, "%s:%d: CHECK_STR failed: %s == %s (\"%s\" != \"%s\")\n", \
				__FILE__, __LINE__, #a, #b, _a ? _a : "(null)",                   \
				_b ? _b : "(null)");                                              \
		}                                                                                 \
	} while (0)

/* A part of the test that cannot run here, and why (printf's arguments). */
#define TEST_SKIP(...)               \
	do {                         \
		test_skips++;        \
		printf("SKIP: ");    \
		printf(__VA_ARGS__); \
		printf("\n");        \
	} while (0)

static inline int test_summary(void)
{
	printf("%d checks, %d failed, %d skipped\n", test_checks, test_failures, test_skips);
	return test_failures || !test_checks ? 1 : 0;
}

#endif
