/* SPDX-License-Identifier: GPL-2.0-only */
/* HTTP/1.0 GET: URLs, the request and the response's head (http_proto.h). */
#include "net/boot/http_proto.h"
#include "hv/lib.h"

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* Whether s starts with prefix, ignoring the case of letters. */
static bool starts_nocase(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if (lower(*s) != *prefix)
			return false;
	return true;
}

bool http_is_url(const char *s)
{
	return starts_nocase(s, "http://") || starts_nocase(s, "https://");
}

/* A decimal number of at most max_digits digits at *s, at most max; advances *s. */
static int number(const char **s, u32 max_digits, u32 max, u32 *out)
{
	u32 v = 0, n = 0;
	while (**s >= '0' && **s <= '9') {
		if (++n > max_digits)
			return -1;
		v = v * 10 + (u32)(**s - '0');
		(*s)++;
	}
	if (!n || v > max)
		return -1;
	*out = v;
	return 0;
}

int http_url_parse(const char *url, struct http_url *u, const char **why)
{
	memset(u, 0, sizeof *u);
	if (strlen(url) > HTTP_URL_MAX) {
		*why = "the URL is longer than 255 characters";
		return -1;
	}
	for (const char *c = url; *c; c++)
		if ((u8)*c <= ' ' || (u8)*c >= 0x7f) {
			*why = "a space or control character in the URL (write a space as %20)";
			return -1;
		}
	if (starts_nocase(url, "https://")) {
		*why = "https is not supported (no TLS): serve the file over http://";
		return -1;
	}
	if (!starts_nocase(url, "http://")) {
		*why = "not an http:// URL";
		return -1;
	}
	const char *s = url + 7, *host = s, *end = s;
	while (*end && *end != '/' && *end != '?' && *end != '#')
		end++;
	if (memchr(s, '@', (size_t)(end - s))) {
		*why = "a user name in the URL (user@host) is not supported";
		return -1;
	}
	if (s == end || *s == ':') {
		*why = "no server in the URL";
		return -1;
	}
	for (int i = 0; i < 4; i++) {
		u32 b;
		if ((i && *s++ != '.') || number(&s, 3, 255, &b)) {
			*why = "the server is not an IPv4 address A.B.C.D (a host name needs DNS, "
			       "which the hypervisor has not)";
			return -1;
		}
		u->ip[i] = (u8)b;
	}
	u32 port = HTTP_PORT;
	if (*s == ':') {
		s++;
		if (number(&s, 5, 65535, &port) || !port) {
			*why = "the port is not a number from 1 to 65535";
			return -1;
		}
	}
	if (s != end) {
		*why = "the server is not an IPv4 address A.B.C.D (a host name needs DNS, which "
		       "the hypervisor has not)";
		return -1;
	}
	u->port = (u16)port;
	memcpy(u->host, host, (size_t)(end - host)); /* at most 21 characters: checked above */
	/* The path from end up to a fragment, which stays with the client (RFC 3986 3.5). */
	size_t n = 0;
	while (end[n] && end[n] != '#')
		n++;
	u->path[0] = '/';
	memcpy(u->path + (*end != '/'), end, n); /* fits: the URL is at most HTTP_URL_MAX */
	return 0;
}

u64 http_deadline_ms(u64 bytes)
{
	const u64 f = HTTP_FLOOR_BYTES_PER_S; /* whole seconds and the rest: no overflow */
	return HTTP_DEADLINE_BASE_MS + bytes / f * 1000 + bytes % f * 1000 / f;
}

size_t http_request(char *buf, size_t n, const struct http_url *u)
{
	int len = snprintf(buf, n,
			   "GET %s HTTP/1.0\r\nHost: %s\r\nUser-Agent: hv\r\nAccept: */*\r\n"
			   "Connection: close\r\n\r\n",
			   u->path, u->host);
	return len > 0 && (size_t)len < n ? (size_t)len : 0;
}

void http_head_init(struct http_head *h) { memset(h, 0, sizeof *h); }

static void bad(struct http_head *h, const char *what)
{
	h->state = HTTP_HEAD_BAD;
	snprintf(h->why, sizeof h->why, "%s", what);
}

/* Up to max - 1 printable characters of s (others as '?') into out. */
static void printable(char *out, size_t max, const char *s)
{
	size_t i = 0;
	for (; s[i] && i + 1 < max; i++)
		out[i] = s[i] >= ' ' && s[i] < 0x7f ? s[i] : '?';
	out[i] = 0;
}

/* "HTTP/d.d SP ddd [SP reason]" (RFC 9112 4; RFC 1945 6.1). */
static void status_line(struct http_head *h, const char *l)
{
	char seen[32];
	if (strncmp(l, "HTTP/", 5) || l[5] < '0' || l[5] > '9' || l[6] != '.' || l[7] < '0' ||
	    l[7] > '9' || l[8] != ' ' || l[9] < '1' || l[9] > '9' || l[10] < '0' || l[10] > '9' ||
	    l[11] < '0' || l[11] > '9' || (l[12] && l[12] != ' ')) {
		printable(seen, sizeof seen, l);
		snprintf(h->why, sizeof h->why, "not an HTTP response (it began \"%s\")", seen);
		h->state = HTTP_HEAD_BAD;
		return;
	}
	h->status = (u16)((l[9] - '0') * 100 + (l[10] - '0') * 10 + (l[11] - '0'));
	printable(h->reason, sizeof h->reason, l[12] ? l + 13 : "");
}

static bool is_token_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* Whether name (len bytes) is want (lower case), ignoring case. */
static bool name_is(const char *name, size_t len, const char *want)
{
	return strlen(want) == len && starts_nocase(name, want);
}

/* "name: value" (RFC 9112 5): Content-Length and Transfer-Encoding matter here. */
static void header_line(struct http_head *h, const char *l)
{
	if (*l == ' ' || *l == '\t') {
		bad(h, "a folded header line (obsolete line folding)");
		return;
	}
	size_t n = 0;
	while (is_token_char(l[n]))
		n++;
	if (!n || l[n] != ':') {
		bad(h, "a header line without a name and a colon");
		return;
	}
	const char *v = l + n + 1, *e;
	while (*v == ' ' || *v == '\t')
		v++;
	e = v + strlen(v);
	while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (name_is(l, n, "transfer-encoding")) {
		if (!name_is(v, (size_t)(e - v), "identity"))
			bad(h,
			    "a Transfer-Encoding (chunked?) in the answer to an HTTP/1.0 request");
		return;
	}
	if (!name_is(l, n, "content-length"))
		return;
	u64 len = 0;
	if (v == e) {
		bad(h, "an empty Content-Length");
		return;
	}
	for (const char *c = v; c < e; c++) {
		if (*c < '0' || *c > '9' || len > (1ull << 50)) {
			bad(h, "a Content-Length that is not a number (or an absurd one)");
			return;
		}
		len = len * 10 + (u64)(*c - '0');
	}
	if (h->has_length && h->length != len) {
		bad(h, "two different Content-Length headers");
		return;
	}
	h->has_length = true;
	h->length = len;
}

/* A whole line, its CR LF (or LF) removed. */
static void line(struct http_head *h)
{
	char *l = h->line;
	if (memchr(l, 0, h->line_len)) {
		bad(h, "a NUL byte in the response head");
		return;
	}
	if (h->lines++ == 0) {
		status_line(h, l);
		return;
	}
	if (*l) {
		header_line(h, l);
		return;
	}
	/* The blank line: the head is over; an interim 1xx answer is followed by another. */
	if (h->status < 200) {
		h->lines = 0;
		h->has_length = false;
		return;
	}
	h->state = HTTP_HEAD_DONE;
}

size_t http_head_feed(struct http_head *h, const u8 *data, size_t n)
{
	size_t i = 0;
	while (h->state == HTTP_HEAD_MORE && i < n) {
		u8 c = data[i++];
		if (++h->total > HTTP_HEADERS_MAX) {
			bad(h, "a response head larger than 64 KiB");
			break;
		}
		if (c != '\n' && h->line_len <= HTTP_LINE_MAX) {
			h->line[h->line_len++] = (char)c; /* room for a CR after the longest */
			continue;
		}
		if (h->line_len && h->line[h->line_len - 1] == '\r')
			h->line_len--;
		if (h->line_len > HTTP_LINE_MAX || c != '\n') {
			bad(h, "a response head line longer than 1024 bytes");
			break;
		}
		h->line[h->line_len] = 0;
		line(h);
		h->line_len = 0;
	}
	return i;
}
