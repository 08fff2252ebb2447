/* SPDX-License-Identifier: GPL-2.0-only */
/* libfdt's environment header, the hypervisor's own: libfdt (fetched by
 * scripts/libfdt.sh into build/src/, never kept in this repository) includes
 * "libfdt_env.h" for its fixed-width and big-endian types, the byte-order conversions,
 * the string functions and the limits. This one maps them onto hv/types.h and hv/lib.h,
 * so libfdt builds freestanding into hv.efi (no libc) and, unchanged, into the host
 * unit tests (where hv/lib.h's names are libc's).
 *
 * lib/ holds such glue for third-party code the build fetches; the upstream
 * libfdt_env.h is not unpacked, so this is the one every libfdt file finds.
 *
 * Of libfdt the hypervisor builds fdt.c (header checks, bounds-checked tag walk),
 * fdt_ro.c (reading: paths, properties, compatible, depth, fdt_check_full), fdt_sw.c
 * (the sequential writer) and fdt_addresses.c (#address-cells, #size-cells), which
 * needs fdt_rw.c (its fdt_appendprop_addrrange, unused here, calls fdt_appendprop),
 * which needs fdt_wip.c (fdt_node_end_offset_). The linker keeps what the object files
 * hold; the unused parts cost some KiB of hv.efi. */
#ifndef LIBFDT_ENV_H
#define LIBFDT_ENV_H

#include "hv/lib.h"   /* memcpy memmove memcmp memchr memset strlen strnlen strchr strrchr */
#include "hv/types.h" /* stdbool.h, stddef.h, stdint.h */

/* As <limits.h> has it (which, built for x86, would pull in the host's libc headers). */
#ifndef INT_MAX
#define INT_MAX __INT_MAX__
#endif

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "libfdt_env.h: the byte-order conversions below are for little-endian CPUs"
#endif

/* Big-endian values as stored in the blob. libfdt loads them aligned (the structure
 * block is 32-bit aligned) or byte by byte (fdt32_ld), then converts the value. */
typedef u16 fdt16_t;
typedef u32 fdt32_t;
typedef u64 fdt64_t;

static inline u16 fdt16_to_cpu(fdt16_t x) { return __builtin_bswap16(x); }
static inline fdt16_t cpu_to_fdt16(u16 x) { return __builtin_bswap16(x); }
static inline u32 fdt32_to_cpu(fdt32_t x) { return __builtin_bswap32(x); }
static inline fdt32_t cpu_to_fdt32(u32 x) { return __builtin_bswap32(x); }
static inline u64 fdt64_to_cpu(fdt64_t x) { return __builtin_bswap64(x); }
static inline fdt64_t cpu_to_fdt64(u64 x) { return __builtin_bswap64(x); }

#endif
