/* SPDX-License-Identifier: GPL-2.0-only */
/* Sets of pCPUs (pCPU N: the Nth CPU the firmware lists, 0 the boot CPU): where a vCPU may
 * run, where a pCPU's waiting vCPUs may go. MAX_PCPUS covers a two-socket server (an EPYC
 * 7642 pair has 192 threads). */
#ifndef HV_PCPU_SET_H
#define HV_PCPU_SET_H

#include "hv/types.h"

#define MAX_PCPUS 256
#define PCPU_SET_WORDS (MAX_PCPUS / 64)

struct pcpu_set {
	u64 w[PCPU_SET_WORDS]; /* bit N % 64 of word N / 64: pCPU N */
};

static inline bool pcpu_set_has(const struct pcpu_set *s, u32 n)
{
	return n < MAX_PCPUS && (s->w[n / 64] >> (n % 64) & 1);
}

static inline void pcpu_set_add(struct pcpu_set *s, u32 n)
{
	if (n < MAX_PCPUS)
		s->w[n / 64] |= 1ull << (n % 64);
}

static inline bool pcpu_set_empty(const struct pcpu_set *s)
{
	u64 any = 0;
	for (u32 i = 0; i < PCPU_SET_WORDS; i++)
		any |= s->w[i];
	return !any;
}

/* pCPUs 0..n-1. */
static inline struct pcpu_set pcpu_set_first(u32 n)
{
	struct pcpu_set s = { { 0 } };
	for (u32 i = 0; i < n && i < MAX_PCPUS; i++)
		pcpu_set_add(&s, i);
	return s;
}

static inline void pcpu_set_or(struct pcpu_set *d, const struct pcpu_set *s)
{
	for (u32 i = 0; i < PCPU_SET_WORDS; i++)
		d->w[i] |= s->w[i];
}

static inline void pcpu_set_and(struct pcpu_set *d, const struct pcpu_set *s)
{
	for (u32 i = 0; i < PCPU_SET_WORDS; i++)
		d->w[i] &= s->w[i];
}

#endif
