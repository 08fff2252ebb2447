/* SPDX-License-Identifier: GPL-2.0-only */
/* A TFTP client (RFC 1350, read requests only, with the blksize and tsize options of
 * RFC 2348 and 2349) on lwIP's UDP raw API. lwIP 2.1.3's apps/tftp is a server only. */
#ifndef NET_TFTP_CLIENT_H
#define NET_TFTP_CLIENT_H

#include "hv/types.h"
#include "lwip/ip4_addr.h"

#define TFTP_FILE_MAX (1ull << 30) /* the largest file it takes */

/* Reads the whole of path from the TFTP server (port 69), calling poll() to run the
 * network while it waits; prints its progress (bytes, rate) on the console. Returns the
 * file plus a NUL in firmware pool memory (efi_free) and its length in *len, or NULL
 * with *why (no answer, file not found, access violation, the transfer stopped, too
 * large, ...: net/boot/tftp_xfer.c; valid until the next call). */
void *tftp_get(const ip4_addr_t *server, const char *path, u64 *len, void (*poll)(void),
	       const char **why);

#endif
