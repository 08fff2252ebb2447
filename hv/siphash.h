/* SPDX-License-Identifier: GPL-2.0-only */
/* SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012): a keyed
 * hash of a short message, unpredictable without the 128-bit key. */
#ifndef HV_SIPHASH_H
#define HV_SIPHASH_H

#include "types.h"

u64 siphash24(const u64 key[2], const void *msg, size_t len);

#endif
