/* SPDX-License-Identifier: GPL-2.0-only */
/* An HTTP client's request head, and the head of the answer (http_request.h). The
 * request is read strictly, as RFC 9112 lets a server: single spaces in the request line,
 * CR LF or LF line ends, no bare CR, no folding, no space before a header's colon; blank
 * lines before the request line are skipped (RFC 9112 2.2). */
#include "net/telemetry/http_request.h"
#include "hv/lib.h"

void http_req_init(struct http_req *r) { memset(r, 0, sizeof *r); }

static void bad(struct http_req *r, u16 status, const char *why)
{
	r->state = HTTP_REQ_BAD;
	r->status = status;
	r->why = why;
}

/* tchar of RFC 9110 5.6.2. */
static bool tchar(char c)
{
	if ((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))
		return true;
	return c && strchr("!#$%&'*+-.^_`|~", c);
}

static size_t token_len(const char *s)
{
	size_t n = 0;
	while (tchar(s[n]))
		n++;
	return n;
}

/* Whether the n bytes at s are want, ignoring case: want is lower case letters and '-',
 * which no other token character turns into by setting bit 5. */
static bool field_is(const char *s, size_t n, const char *want)
{
	size_t i = 0;
	for (; i < n && want[i]; i++)
		if ((s[i] | 0x20) != want[i])
			return false;
	return i == n && !want[i];
}

/* METHOD SP request-target SP HTTP-version (RFC 9112 3). */
static void request_line(struct http_req *r, const char *l)
{
	size_t m = token_len(l);
	const char *target = l + m + 1, *end = m && l[m] == ' ' ? strchr(target, ' ') : NULL;
	const char *v = end ? end + 1 : NULL;
	if (!end || end == target || strncmp(v, "HTTP/", 5) || v[5] < '0' || v[5] > '9' ||
	    v[6] != '.' || v[7] < '0' || v[7] > '9' || v[8]) {
		bad(r, 400, "not an HTTP request line (METHOD /path HTTP/1.x)");
		return;
	}
	if (v[5] != '1') {
		bad(r, 505, "an HTTP version other than 1.x");
		return;
	}
	size_t len = (size_t)(end - target);
	if (len > HTTP_REQ_TARGET_MAX) {
		bad(r, 414, "a request target longer than 255 bytes");
		return;
	}
	if (m == 3 && !strncmp(l, "GET", 3)) {
		r->method = HTTP_GET;
	} else if (m == 4 && !strncmp(l, "HEAD", 4)) {
		r->method = HTTP_HEAD;
	} else {
		bad(r, 405, "a method other than GET and HEAD");
		return;
	}
	for (size_t i = 0; i < len; i++)
		if ((u8)target[i] <= ' ' || (u8)target[i] >= 0x7f || target[i] == '#') {
			bad(r, 400,
			    "a request target with a control character, a byte outside "
			    "ASCII or a '#'");
			return;
		}
	if (*target != '/') {
		bad(r, 400, "a request target that is not a path (origin form)");
		return;
	}
	const char *q = memchr(target, '?', len);
	size_t path_len = q ? (size_t)(q - target) : len;
	memcpy(r->path, target, path_len);
	if (q) {
		r->has_query = true;
		memcpy(r->query, q + 1, len - path_len - 1);
	}
	r->minor = (u8)(v[7] - '0');
	r->request_line = true;
}

/* A Content-Length of n bytes at v: any number but 0 announces a body. */
static void content_length(struct http_req *r, const char *v, size_t n)
{
	bool zero = true;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9') {
			bad(r, 400, "a Content-Length that is not a number");
			return;
		}
		zero = zero && v[i] == '0';
	}
	if (!n)
		bad(r, 400, "an empty Content-Length");
	else if (!zero)
		bad(r, 413, "a request body (Content-Length), which GET and HEAD do not take");
}

/* field-name ":" OWS field-value OWS (RFC 9112 5): Host, Content-Length and
 * Transfer-Encoding matter here. */
static void header_line(struct http_req *r, const char *l)
{
	if (*l == ' ' || *l == '\t') {
		bad(r, 400, "a folded header line (obsolete line folding)");
		return;
	}
	size_t n = token_len(l);
	if (!n || l[n] != ':') {
		bad(r, 400, "a header line without a name and a colon right after it");
		return;
	}
	const char *v = l + n + 1;
	for (const char *c = v; *c; c++)
		if (((u8)*c < ' ' && *c != '\t') || *c == 0x7f) {
			bad(r, 400, "a control character in a header value");
			return;
		}
	while (*v == ' ' || *v == '\t')
		v++;
	size_t vlen = strlen(v);
	while (vlen && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
		vlen--;
	if (field_is(l, n, "host")) {
		if (r->hosts++) /* RFC 9112 3.2 */
			bad(r, 400, "more than one Host header");
		else if (vlen >= sizeof r->host)
			bad(r, 400, "a Host header longer than 255 bytes");
		else
			memcpy(r->host, v, vlen), r->host[vlen] = 0;
	} else if (field_is(l, n, "transfer-encoding")) {
		bad(r, 501, "a request body (Transfer-Encoding), which GET and HEAD do not take");
	} else if (field_is(l, n, "content-length")) {
		content_length(r, v, vlen);
	}
}

/* A whole line of len bytes, its CR LF (or LF) removed. */
static void line(struct http_req *r, size_t len)
{
	const char *l = r->line;
	if (memchr(l, 0, len) || memchr(l, '\r', len)) {
		bad(r, 400, "a NUL byte or a bare CR in the request head");
		return;
	}
	if (!r->request_line) {
		if (len)
			request_line(r, l);
		return;
	}
	if (len) {
		header_line(r, l);
		return;
	}
	/* The blank line: the head is over. */
	if (r->minor && !r->hosts)
		bad(r, 400, "an HTTP/1.1 request without a Host header");
	else
		r->state = HTTP_REQ_DONE;
}

static void too_long(struct http_req *r)
{
	if (r->request_line)
		bad(r, 431, "a header line longer than 1024 bytes");
	else
		bad(r, 414, "a request line longer than 1024 bytes");
}

/* One byte of the head: a line is kept until its LF. */
static void byte(struct http_req *r, u8 c)
{
	if (r->total++ == HTTP_REQ_HEAD_MAX) {
		bad(r, r->request_line ? 431 : 400, "a request head larger than 8 KiB");
		return;
	}
	if (c != '\n') {
		if (r->line_len == HTTP_REQ_LINE_MAX + 1) /* room for a CR after the longest */
			too_long(r);
		else
			r->line[r->line_len++] = (char)c;
		return;
	}
	size_t len = r->line_len;
	if (len && r->line[len - 1] == '\r')
		len--;
	r->line_len = 0;
	if (len > HTTP_REQ_LINE_MAX) {
		too_long(r);
		return;
	}
	r->line[len] = 0;
	line(r, len);
}

size_t http_req_feed(struct http_req *r, const u8 *data, size_t n)
{
	size_t i = 0;
	for (; i < n && r->state == HTTP_REQ_MORE; i++)
		byte(r, data[i]);
	return i;
}

const char *http_reason(u16 status)
{
	static const struct {
		u16 status;
		const char *reason;
	} reasons[] = {
		{ 200, "OK" },
		{ 400, "Bad Request" },
		{ 403, "Forbidden" },
		{ 404, "Not Found" },
		{ 405, "Method Not Allowed" },
		{ 413, "Content Too Large" },
		{ 414, "URI Too Long" },
		{ 431, "Request Header Fields Too Large" },
		{ 500, "Internal Server Error" },
		{ 501, "Not Implemented" },
		{ 503, "Service Unavailable" },
		{ 505, "HTTP Version Not Supported" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(reasons); i++)
		if (reasons[i].status == status)
			return reasons[i].reason;
	return "";
}

size_t http_response_head(char *buf, size_t n, u16 status, const char *content_type,
			  u64 content_length)
{
	bool ok = status >= 200 && status <= 599;
	for (const char *c = content_type; ok && c && *c; c++)
		ok = (u8)*c >= ' ' && (u8)*c < 0x7f;
	if (!ok) {
		if (n)
			buf[0] = 0;
		return 0;
	}
	int len = snprintf(buf, n,
			   "HTTP/1.1 %u %s\r\n%s%s%sContent-Length: %llu\r\n%sCache-Control: "
			   "no-store\r\nConnection: close\r\n\r\n",
			   status, http_reason(status), content_type ? "Content-Type: " : "",
			   content_type ? content_type : "", content_type ? "\r\n" : "",
			   (unsigned long long)content_length,
			   status == 405 ? "Allow: GET, HEAD\r\n" : "");
	return len > 0 && (size_t)len < n ? (size_t)len : 0;
}
