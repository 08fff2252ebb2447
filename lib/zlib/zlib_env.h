/* SPDX-License-Identifier: GPL-2.0-only */
/* What zlib's inflate (fetched by scripts/zlib.sh into build/src/, never kept in this
 * repository) needs to build freestanding into hv.efi: it is compiled with Z_SOLO (no
 * libc, no default allocator: hv/gunzip.c gives it one) and with this header included
 * first, for the memcpy/memset that zutil.h then calls without including <string.h>.
 * In the host unit tests hv/lib.h's names are libc's. */
#ifndef ZLIB_ENV_H
#define ZLIB_ENV_H

#include "hv/lib.h" /* memcpy memset */

#endif
