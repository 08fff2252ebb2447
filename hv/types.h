/* SPDX-License-Identifier: GPL-2.0-only */
/* Fixed-width types and small helpers shared by every part of the hypervisor.
 * Only freestanding headers: this builds both into hv.efi and into host unit tests. */
#ifndef HV_TYPES_H
#define HV_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a) (((x) + (a)-1) & ~((u64)(a)-1))
#define ALIGN_DOWN(x, a) ((x) & ~((u64)(a)-1))
#define BIT(n) (1ull << (n))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define PAGE_SIZE 4096ull
#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

#define PACKED __attribute__((packed))
#define UNUSED __attribute__((unused))
#define NORETURN __attribute__((noreturn))
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

/* Set bits in x. Not __builtin_popcountll: that becomes a libgcc call, which on x86
 * without -mpopcnt is slow and on arm64 uses the SIMD registers, which hold the guest's. */
static inline u32 popcount64(u64 x)
{
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	x += x >> 8;
	x += x >> 16;
	x += x >> 32;
	return (u32)(x & 0x7f);
}

#endif
