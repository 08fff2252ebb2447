/* SPDX-License-Identifier: GPL-2.0-only */
/* A small HTTP/1.0 server on lwIP's raw TCP API for the telemetry
 * (net/telemetry/telemetry.h): GET and HEAD, one request per connection, a fixed number of
 * connections with a small answer buffer each (for short pages), polled from one pCPU; a
 * large page comes from elsewhere, shared (net/telemetry/snapshot.h), held while sent. */
#ifndef NET_HTTP_SERVER_H
#define NET_HTTP_SERVER_H

#include "hv/types.h"
#include "net/telemetry/http_request.h"

#define HTTP_SERVER_CONNS 4 /* at once; a fifth is reset */
/* A connection's own answer buffer: the console page (8 KiB of console, each byte at most 4
 * as text) and the live page fit. */
#define HTTP_SERVER_BODY_MAX (36 * 1024)

/* An answer: the handler writes its body into body (at most max bytes) and sets len, its
 * type, and status where not 200 (404, ...); or it points text at a page of len bytes
 * that stays as it is until the server calls done(ref), once the connection no longer
 * needs it (sent, or the connection gone; for HEAD at once: no body is sent). */
struct http_answer {
	u16 status;
	const char *type; /* Content-Type */
	char *body;
	size_t max, len;
	const char *text; /* NULL: body */
	void (*done)(void *ref);
	void *ref;
};

/* Counted since the start (read by the telemetry's own metrics). */
struct http_server_stats {
	u64 requests;  /* answered, bad ones included */
	u64 bad;       /* malformed or refused requests (4xx from the parser) */
	u64 refused;   /* connections reset: every slot was taken */
	u64 timed_out; /* connections reset after IDLE_S */
};
extern struct http_server_stats http_server_stats;

/* Listens on port; handler(request, answer) makes each answer to a well-formed request
 * (its path and Host header; a query string is ignored). Returns 0, or -1 with *why. */
int http_server_start(u16 port, void (*handler)(const struct http_req *req, struct http_answer *a),
		      const char **why);

#endif
