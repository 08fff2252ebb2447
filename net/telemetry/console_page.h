/* SPDX-License-Identifier: GPL-2.0-only */
/* What /console/NAME serves (docs/telemetry.md): a VM's console output is the guest's,
 * so it may hold secrets and terminal escape sequences. It is served only where [net]
 * says console = yes, only to a request whose Host header names this machine (a web page
 * the engineer opens elsewhere cannot read it through DNS rebinding), and with control
 * bytes written out as text (a terminal that curls it runs none of the guest's escape
 * sequences). Pure: no I/O, so the host unit tests run it. */
#ifndef NET_TELEMETRY_CONSOLE_PAGE_H
#define NET_TELEMETRY_CONSOLE_PAGE_H

#include "hv/types.h"

/* Whether a request's Host header value names this server: empty (no Host header, as
 * HTTP/1.0 allows, or an empty one: no browser sends either), or its address ("A.B.C.D")
 * or name (case-insensitive) with ":port" or, for port 80, without one. name may be ""
 * (none configured). */
bool console_host_ok(const char *host, const char *addr, const char *name, u16 port);

/* Copies n console bytes into out (max bytes, NUL-terminated) as text a terminal shows as
 * it is: LF and TAB kept, the CR of a CR LF dropped, every other byte below 0x20, DEL and
 * every byte from 0x80 written as \xNN (a C1 control can come as one byte or in UTF-8),
 * and a backslash as \\. Stops before an escape that does not fit. Returns the length. */
size_t console_text(const char *in, size_t n, char *out, size_t max);

#endif
