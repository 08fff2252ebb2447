/* SPDX-License-Identifier: GPL-2.0-only */
#include "net/telemetry/console_page.h"
#include "hv/lib.h"

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* Whether host's first n bytes are s, letters of either case. */
static bool same_name(const char *host, size_t n, const char *s)
{
	if (strlen(s) != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (lower(host[i]) != lower(s[i]))
			return false;
	return true;
}

bool console_host_ok(const char *host, const char *addr, const char *name, u16 port)
{
	if (!*host)
		return true;
	const char *colon = strchr(host, ':');
	size_t n = colon ? (size_t)(colon - host) : strlen(host);
	if (colon) {
		u32 p = 0;
		const char *d = colon + 1;
		if (!*d)
			return false;
		for (; *d; d++) {
			if (*d < '0' || *d > '9' || (p = p * 10 + (u32)(*d - '0')) > 65535)
				return false;
		}
		if (p != port)
			return false;
	} else if (port != 80) {
		return false;
	}
	return same_name(host, n, addr) || (*name && same_name(host, n, name));
}

size_t console_text(const char *in, size_t n, char *out, size_t max)
{
	size_t len = 0;
	if (!max)
		return 0;
	for (size_t i = 0; i < n; i++) {
		u8 c = (u8)in[i];
		char esc[5];
		size_t k;
		if (c == '\r' && i + 1 < n && in[i + 1] == '\n')
			continue;
		if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f && c != '\\')) {
			esc[0] = (char)c;
			k = 1;
		} else if (c == '\\') {
			esc[0] = esc[1] = '\\';
			k = 2;
		} else {
			k = (size_t)snprintf(esc, sizeof esc, "\\x%02x", c);
		}
		if (len + k >= max)
			break;
		memcpy(out + len, esc, k);
		len += k;
	}
	out[len] = 0;
	return len;
}
