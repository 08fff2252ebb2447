/* SPDX-License-Identifier: GPL-2.0-only */
/* A set of an arm64 VM's vCPUs (bit n of w[n / 64] = vCPU n, n < ARCH_MAX_VCPUS): the
 * targets of one SGI, the vCPUs to kick once. Walking it costs a word per 64 vCPUs and
 * a step per member, so a small VM pays what a single u64 mask cost. */
#ifndef ARCH_ARM64_VCPU_SET_H
#define ARCH_ARM64_VCPU_SET_H

#include "arch/limits.h"
#include "hv/types.h"

#define VCPU_SET_WORDS ((ARCH_MAX_VCPUS + 63) / 64)

struct vcpu_set {
	u64 w[VCPU_SET_WORDS];
};

static inline void vcpu_set_add(struct vcpu_set *s, u32 v) { s->w[v / 64] |= BIT(v % 64); }

static inline bool vcpu_set_has(const struct vcpu_set *s, u32 v)
{
	return s->w[v / 64] & BIT(v % 64);
}

/* The first member from vCPU `from` on, or `end` when none is below end. */
static inline u32 vcpu_set_next(const struct vcpu_set *s, u32 from, u32 end)
{
	while (from < end) {
		u64 w = s->w[from / 64] >> (from % 64);

		if (w)
			return MIN(from + (u32)__builtin_ctzll(w), end);
		from = (from / 64 + 1) * 64;
	}
	return end;
}

/* for_each_vcpu_in(t, s, end): t takes each member below end, in order. */
#define for_each_vcpu_in(t, s, end)                           \
	for ((t) = vcpu_set_next((s), 0, (end)); (t) < (end); \
	     (t) = vcpu_set_next((s), (t) + 1, (end)))

#endif
