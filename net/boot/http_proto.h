/* SPDX-License-Identifier: GPL-2.0-only */
/* HTTP/1.0 GET as the network boot's client needs it (RFC 1945; the header syntax of RFC
 * 9110/9112): the URL of an `http://` path in hv.cfg, the request, and the response's
 * status line and headers, read incrementally as the bytes come. Pure: no I/O, so the
 * host unit tests and a fuzz harness run it. Everything the server sends is untrusted:
 * lines, numbers and lengths are checked here. */
#ifndef NET_HTTP_PROTO_H
#define NET_HTTP_PROTO_H

#include "hv/types.h"

#define HTTP_PORT 80
#define HTTP_URL_MAX 255       /* the longest URL taken (hv.cfg's values stop at 127 before it) */
#define HTTP_LINE_MAX 1024     /* the longest status or header line taken */
#define HTTP_HEADERS_MAX 65536 /* all the header lines together */
#define HTTP_TEXT_MAX 48       /* a reason phrase as kept: truncated, printable ASCII */

/* http://A.B.C.D[:PORT][/PATH]: the server by its IPv4 address (there is no DNS). */
struct http_url {
	u8 ip[4];
	u16 port;
	char host[24];		     /* "A.B.C.D" or "A.B.C.D:PORT", for the Host header */
	char path[HTTP_URL_MAX + 1]; /* from its '/' to a '#', "/" when the URL has none */
};

/* Whether s is an http:// or https:// URL (the scheme is case-insensitive). */
bool http_is_url(const char *s);
/* Parses url. Returns 0, or -1 with *why (a constant string) for anything else:
 * https, a host name, a bad address or port, spaces or control characters, too long. */
int http_url_parse(const char *url, struct http_url *u, const char **why);
/* The GET request for u into buf (n bytes): its length, or 0 when it does not fit. */
size_t http_request(char *buf, size_t n, const struct http_url *u);

/* The response's head, fed as it comes (http_head_feed). */
enum http_head_state { HTTP_HEAD_MORE, HTTP_HEAD_DONE, HTTP_HEAD_BAD };
struct http_head {
	enum http_head_state state;
	u16 status;		    /* 100-999 from the status line */
	char reason[HTTP_TEXT_MAX]; /* its reason phrase */
	bool has_length;	    /* a Content-Length header came */
	u64 length;		    /* its value */
	char why[96];		    /* HTTP_HEAD_BAD: what was wrong */
	/* private */
	u32 lines;		      /* lines seen, the status line first */
	size_t total;		      /* header bytes seen */
	size_t line_len;	      /* bytes of the line being read */
	char line[HTTP_LINE_MAX + 2]; /* with its CR, and a NUL */
};

/* A whole fetch's deadline, so that a server that sends just enough to pass the client's
 * stall check cannot hold the boot for hours: HTTP_DEADLINE_BASE_MS from the request, plus
 * the time the body takes at HTTP_FLOOR_BYTES_PER_S (bytes: its Content-Length, or while
 * none is known the largest file taken). */
#define HTTP_DEADLINE_BASE_MS 60000
#define HTTP_FLOOR_BYTES_PER_S (1024 * 1024)
u64 http_deadline_ms(u64 bytes);

void http_head_init(struct http_head *h);
/* Takes up to n bytes of the response. Returns how many belong to the head: all n while
 * it is not over (HTTP_HEAD_MORE), those up to and including the blank line that ends it
 * (HTTP_HEAD_DONE: the rest of data is the body's start), or those read when it turned
 * out bad (HTTP_HEAD_BAD, h->why). Once DONE or BAD it takes nothing more. */
size_t http_head_feed(struct http_head *h, const u8 *data, size_t n);

#endif
