/* SPDX-License-Identifier: GPL-2.0-only */
/* An HTTP/1.0 client (GET only; net/boot/http_proto.h) on lwIP's raw TCP API, for the
 * `http://` paths of hv.cfg during a network boot. */
#ifndef NET_HTTP_CLIENT_H
#define NET_HTTP_CLIENT_H

#include "hv/types.h"
#include "net/boot/http_proto.h"

#define HTTP_FILE_MAX (1ull << 30) /* the largest file it takes, as TFTP */

/* Reads the body of a 200 answer to GET url (parsed into u), calling poll() to run the
 * network while it waits; prints its progress (bytes, rate) on the console. Returns the
 * file plus a NUL in firmware pool memory (efi_free) and its length in *len, or NULL
 * with *why (no route, no answer, refused, an HTTP status other than 200, a malformed
 * answer, a short read, too large, a stall: valid until the next call). */
void *http_get(const struct http_url *u, const char *url, u64 *len, void (*poll)(void),
	       const char **why);

#endif
