/* SPDX-License-Identifier: GPL-2.0 */
/* The guest fuzzers' pseudo-random numbers: xorshift64* (Vigna), one state per thread,
 * each state seeded with splitmix64 of the run's seed plus the thread's number, so that
 * a printed seed replays a run. */
#ifndef GUEST_TOOLS_FUZZ_RNG_H
#define GUEST_TOOLS_FUZZ_RNG_H

#include <linux/types.h>

/* The next number of the sequence in *state (never 0). */
static inline u64 fuzz_rand(u64 *state)
{
	u64 x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* A state for thread n of a run seeded with seed (never 0). */
static inline u64 fuzz_seed(u64 seed, unsigned int n)
{
	u64 x = seed + n + 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x ?: 1;
}

#endif
