/* SPDX-License-Identifier: GPL-2.0-only */
/* The hypervisor's HTTP server side, as issue 10's telemetry needs it (RFC 9110/9112, and
 * RFC 1945 for HTTP/1.0): a request head from a client, read incrementally as the bytes
 * come, and the head of the answer. Only GET and HEAD of an origin-form path are taken;
 * each answer closes the connection. Pure: no I/O, so the host unit tests and a fuzz
 * harness run it. Everything the client sends is untrusted: a bad head says which status
 * to answer with, and why. */
#ifndef NET_HTTP_REQUEST_H
#define NET_HTTP_REQUEST_H

#include "hv/types.h"

#define HTTP_REQ_TARGET_MAX 255 /* the longest request target taken (414 beyond) */
#define HTTP_REQ_LINE_MAX 1024	/* the longest request or header line (414 or 431 beyond) */
#define HTTP_REQ_HEAD_MAX 8192	/* the whole head, up to its blank line (431 beyond) */
#define HTTP_REQ_HOST_MAX 255	/* the longest Host header value (400 beyond) */

enum http_method { HTTP_GET = 1, HTTP_HEAD };
enum http_req_state { HTTP_REQ_MORE, HTTP_REQ_DONE, HTTP_REQ_BAD };

/* The request head, fed as it comes (http_req_feed). */
struct http_req {
	enum http_req_state state;
	/* HTTP_REQ_BAD: the status to answer with (400, 405, 413, 414, 431, 501 or 505) and
	 * what was wrong (a constant string); 0 and NULL otherwise. */
	u16 status;
	const char *why;
	enum http_method method;
	u8 minor; /* HTTP/1.minor */
	/* The target split at its first '?': printable ASCII, path[0] == '/'. */
	char path[HTTP_REQ_TARGET_MAX + 1];
	char query[HTTP_REQ_TARGET_MAX + 1]; /* after the '?', "" when none */
	bool has_query;			     /* a '?' came (the query may be empty) */
	/* The Host header's value, OWS trimmed, "" when none came (HTTP/1.0 needs none) */
	char host[HTTP_REQ_HOST_MAX + 1];
	/* private */
	bool request_line;		  /* the request line was read */
	u8 hosts;			  /* Host header lines seen */
	size_t total;			  /* head bytes seen */
	size_t line_len;		  /* bytes of the line being read */
	char line[HTTP_REQ_LINE_MAX + 2]; /* with its CR, and a NUL */
};

void http_req_init(struct http_req *r);
/* Takes up to n bytes from the client. Returns how many belong to the head: all n while it
 * is not over (HTTP_REQ_MORE), those up to and including the blank line that ends it
 * (HTTP_REQ_DONE), or those read when it turned out bad (HTTP_REQ_BAD: r->status, r->why).
 * Once DONE or BAD it takes nothing more. */
size_t http_req_feed(struct http_req *r, const u8 *data, size_t n);

/* The reason phrase of a status this server answers with, "" for another. */
const char *http_reason(u16 status);
/* The head of an answer into buf (n bytes, NUL-terminated): the status line (HTTP/1.1),
 * Content-Type when content_type is not NULL, Content-Length, Allow: GET, HEAD with a 405,
 * Cache-Control: no-store and Connection: close, then the blank line. Returns its length,
 * or 0 when it does not fit, the status is not 200-599 (a 1xx takes no Content-Length), or
 * content_type holds a control character or is not ASCII. */
size_t http_response_head(char *buf, size_t n, u16 status, const char *content_type,
			  u64 content_length);

#endif
