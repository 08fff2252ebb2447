/* SPDX-License-Identifier: GPL-2.0-only */
/* gzip (RFC 1952) decompression of a whole file in memory, for compressed guest kernels
 * (the vmlinuz of most arm64 distributions is a gzip'd Image). zlib's inflate does the
 * work and checks the CRC-32 and length in the trailer. Runs at boot, on one CPU. */
#ifndef HV_GUNZIP_H
#define HV_GUNZIP_H

#include "hv/types.h"

/* Whether the buffer starts like a gzip file (ID1 ID2 CM = 1f 8b 08). */
bool gzip_is(const void *in, u64 len);
/* The uncompressed size the trailer states (ISIZE: modulo 2^32), 0 if too short. */
u64 gzip_size(const void *in, u64 len);
/* Inflates the gzip file in[0, len) into out[0, cap): 0 and *out_len, or -1 with *why
 * (a static string) saying what is wrong with the file. The file is one gzip member and
 * nothing after it (so that its last 4 bytes are the trailer gzip_size() reads). */
int gunzip(const void *in, u64 len, void *out, u64 cap, u64 *out_len, const char **why);

#endif
