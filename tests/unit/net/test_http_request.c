/* SPDX-License-Identifier: GPL-2.0-only */
/* The server side of HTTP (net/telemetry/http_request.c): request heads from clients,
 * good, odd and hostile, each fed whole and then a byte at a time (both must give the same
 * answer), from heap copies of exactly their length so that ASan catches a read past the
 * end; the limits at and one past them; and the heads of the answers. */
#include <stdlib.h>
#include "../../../net/telemetry/http_request.c"
#include "../test.h"

static struct http_req r;
static size_t took;

/* Feeds the n bytes at s whole, then a byte at a time: r and took are the whole run's. */
static enum http_req_state feed_n(const char *s, size_t n)
{
	static struct http_req one;
	u8 *copy = malloc(n ? n : 1);
	memcpy(copy, s, n);
	http_req_init(&one);
	size_t one_took = 0;
	for (size_t i = 0; i < n; i++) {
		u8 *b = malloc(1);
		*b = copy[i];
		one_took += http_req_feed(&one, b, 1);
		free(b);
	}
	http_req_init(&r);
	took = http_req_feed(&r, copy, n);
	free(copy);
	CHECK(one.state == r.state && one_took == took && one.status == r.status &&
	      one.method == r.method && one.minor == r.minor && !strcmp(one.path, r.path) &&
	      !strcmp(one.query, r.query) && one.has_query == r.has_query &&
	      !strcmp(one.host, r.host));
	return r.state;
}

static enum http_req_state feed(const char *s) { return feed_n(s, strlen(s)); }

static void test_good(void)
{
	static const char curl[] = "GET /metrics HTTP/1.1\r\nHost: 10.0.2.15:8080\r\n"
				   "User-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n";
	CHECK_EQ(feed(curl), HTTP_REQ_DONE);
	CHECK_EQ(took, strlen(curl));
	CHECK_EQ(r.method, HTTP_GET);
	CHECK_EQ(r.minor, 1);
	CHECK_STR(r.path, "/metrics");
	CHECK(!r.has_query && !r.query[0]);
	CHECK(r.status == 0 && r.why == NULL);
	CHECK_STR(r.host, "10.0.2.15:8080");

	/* What follows the blank line is not the head's. */
	CHECK_EQ(feed("HEAD /stats?vm=linux0&x HTTP/1.0\n\nmore"), HTTP_REQ_DONE);
	CHECK_EQ(took, strlen("HEAD /stats?vm=linux0&x HTTP/1.0\n\n"));
	CHECK_EQ(r.method, HTTP_HEAD);
	CHECK_EQ(r.minor, 0);
	CHECK_STR(r.path, "/stats");
	CHECK_STR(r.host, ""); /* HTTP/1.0: none */
	CHECK(r.has_query);
	CHECK_STR(r.query, "vm=linux0&x");

	CHECK_EQ(feed("GET /? HTTP/1.0\r\n\r\n"), HTTP_REQ_DONE);
	CHECK(r.has_query && !r.query[0]);
	CHECK_STR(r.path, "/");
	/* Blank lines before the request line, an empty Host, OWS, a zero Content-Length,
	 * a later minor version, bytes outside ASCII in a value. */
	CHECK_EQ(feed("\r\n\nGET /a/b.json HTTP/1.9\r\nhOsT:\r\nX-A:  \t v \t\r\n"
		      "Content-Length: 000\r\nX-B: caf\xc3\xa9\r\nX-C:\r\n\r\n"),
		 HTTP_REQ_DONE);
	CHECK_EQ(r.minor, 9);
	CHECK_STR(r.path, "/a/b.json");
	CHECK_STR(r.host, "");
	CHECK_EQ(feed("GET / HTTP/1.1\r\nHost: \t hv-lab-3.example:80 \t\r\n\r\n"), HTTP_REQ_DONE);
	CHECK_STR(r.host, "hv-lab-3.example:80"); /* OWS trimmed */

	/* Not over yet: everything is taken. */
	CHECK_EQ(feed("GET / HTTP/1.1\r\nHost: a\r\n"), HTTP_REQ_MORE);
	CHECK_EQ(took, strlen("GET / HTTP/1.1\r\nHost: a\r\n"));
	CHECK_EQ(feed("GET / HTTP/1.1\r\nHost: a\r\n\r"), HTTP_REQ_MORE);
	CHECK_EQ(feed(""), HTTP_REQ_MORE);
	CHECK_EQ(took, 0);
}

#define HOST_16 "aaaaaaaaaaaaaaaa"
#define HOST_256                                                                                \
	HOST_16 HOST_16 HOST_16 HOST_16 HOST_16 HOST_16 HOST_16 HOST_16 HOST_16 HOST_16 HOST_16 \
		HOST_16 HOST_16 HOST_16 HOST_16 HOST_16

static void test_bad(void)
{
	static const struct {
		const char *req;
		u16 status;
		const char *why;
	} bad[] = {
		{ "POST /metrics HTTP/1.1\r\n", 405, "method" },
		{ "get / HTTP/1.1\r\n", 405, "method" }, /* methods are case-sensitive */
		{ "OPTIONS * HTTP/1.1\r\n", 405, "method" },
		{ "GET  / HTTP/1.1\r\n", 400, "request line" },
		{ "GET / HTTP/1.1 \r\n", 400, "request line" },
		{ " GET / HTTP/1.1\r\n", 400, "request line" },
		{ "GET\t/ HTTP/1.1\r\n", 400, "request line" },
		{ "G(T / HTTP/1.1\r\n", 400, "request line" },
		{ "GET / HTTP/1\r\n", 400, "request line" },
		{ "GET / http/1.1\r\n", 400, "request line" },
		{ "GET /\r\n", 400, "request line" }, /* HTTP/0.9 */
		{ "GET / HTTP/2.0\r\n", 505, "version" },
		{ "GET / HTTP/0.9\r\n", 505, "version" },
		{ "GET http://10.0.2.15/metrics HTTP/1.1\r\n", 400, "origin form" },
		{ "GET metrics HTTP/1.1\r\n", 400, "origin form" },
		{ "GET /a#b HTTP/1.1\r\n", 400, "'#'" },
		{ "GET /\x80 HTTP/1.1\r\n", 400, "outside ASCII" },
		{ "GET /\x7f HTTP/1.1\r\n", 400, "control" },
		{ "GET /a\tb HTTP/1.1\r\n", 400, "control" },
		{ "GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400, "folding" },
		{ "GET / HTTP/1.1\r\nHost: a\r\n\tfolded\r\n\r\n", 400, "folding" },
		{ "GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400, "colon" },
		{ "GET / HTTP/1.1\r\n: a\r\n\r\n", 400, "colon" },
		{ "GET / HTTP/1.1\r\nno colon\r\n\r\n", 400, "colon" },
		{ "GET / HTTP/1.1\r\n\r\n", 400, "without a Host" },
		{ "GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n", 400, "more than one Host" },
		{ "GET / HTTP/1.1\r\nHost: " HOST_256 "\r\n", 400, "Host header longer" },
		{ "GET / HTTP/1.0\r\nContent-Length: 5\r\n", 413, "body" },
		{ "GET / HTTP/1.0\r\nContent-Length: 5x\r\n", 400, "not a number" },
		{ "GET / HTTP/1.0\r\nContent-Length: -0\r\n", 400, "not a number" },
		{ "GET / HTTP/1.0\r\nContent-Length:  \r\n", 400, "empty" },
		{ "GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n", 501, "body" },
		{ "GET / HTTP/1.0\r\nX: a\rb\r\n", 400, "bare CR" },
		{ "GET / HTTP/1.0\r\r\n", 400, "bare CR" },
		{ "GET / HTTP/1.0\r\nX: a\x01"
		  "b\r\n",
		  400, "control" },
		{ "GET / HTTP/1.0\r\nX: a\x7f\r\n", 400, "control" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		CHECK_EQ(feed(bad[i].req), HTTP_REQ_BAD);
		CHECK_EQ(r.status, bad[i].status);
		CHECK(r.why && strstr(r.why, bad[i].why));
		if (r.status != bad[i].status || !r.why || !strstr(r.why, bad[i].why))
			fprintf(stderr, "  case %zu: %u %s\n", i, r.status, r.why ? r.why : "");
	}
	/* Decided at the request line: the rest is left. */
	CHECK_EQ(feed("PUT / HTTP/1.1\r\nHost: a\r\n\r\n"), HTTP_REQ_BAD);
	CHECK_EQ(took, strlen("PUT / HTTP/1.1\r\n"));
	/* A NUL byte anywhere. */
	static const char nul[] = "GET /a\0b HTTP/1.0\r\n\r\n";
	CHECK_EQ(feed_n(nul, sizeof nul - 1), HTTP_REQ_BAD);
	CHECK_EQ(r.status, 400);
	CHECK(strstr(r.why, "NUL"));
	/* Once bad or done, nothing more is taken. */
	CHECK_EQ(http_req_feed(&r, (const u8 *)"GET / HTTP/1.0\r\n\r\n", 18), 0);
	CHECK_EQ(r.state, HTTP_REQ_BAD);
}

static void test_limits(void)
{
	static char buf[3 * HTTP_REQ_HEAD_MAX];
	/* A target of 255 bytes is taken, 256 are not. */
	memset(buf, 0, sizeof buf);
	strcpy(buf, "GET /");
	memset(buf + 5, 'a', 254);
	strcat(buf, "?q HTTP/1.0\r\n\r\n");
	CHECK_EQ(feed(buf), HTTP_REQ_BAD); /* 257 with the query */
	CHECK_EQ(r.status, 414);
	strcpy(buf + 5 + 254, " HTTP/1.0\r\n\r\n");
	CHECK_EQ(feed(buf), HTTP_REQ_DONE);
	CHECK_EQ(strlen(r.path), HTTP_REQ_TARGET_MAX);
	memset(buf + 5, 'a', 250);
	strcpy(buf + 5 + 250, "?bcd HTTP/1.0\r\n\r\n");
	CHECK_EQ(feed(buf), HTTP_REQ_DONE);
	CHECK_EQ(strlen(r.path), 251);
	CHECK_STR(r.query, "bcd");
	strcpy(buf + 5 + 250, "?bcde HTTP/1.0\r\n\r\n");
	CHECK_EQ(feed(buf), HTTP_REQ_BAD);
	CHECK_EQ(r.status, 414);

	/* A request line over 1024 bytes: 414 at its 1026th byte (1025 would be its CR). */
	memset(buf, 0, sizeof buf);
	strcpy(buf, "GET /");
	memset(buf + 5, 'a', 2000);
	CHECK_EQ(feed(buf), HTTP_REQ_BAD);
	CHECK_EQ(r.status, 414);
	CHECK(strstr(r.why, "request line"));
	CHECK_EQ(took, HTTP_REQ_LINE_MAX + 2);

	/* A header line of 1024 bytes is taken, with CR LF or LF; 1025 are not. */
	static const char head[] = "GET / HTTP/1.0\r\n";
	size_t h = strlen(head);
	memset(buf, 0, sizeof buf);
	strcpy(buf, head);
	memcpy(buf + h, "X: ", 3);
	memset(buf + h + 3, 'v', HTTP_REQ_LINE_MAX - 3);
	strcpy(buf + h + HTTP_REQ_LINE_MAX, "\r\n\r\n");
	CHECK_EQ(feed(buf), HTTP_REQ_DONE);
	strcpy(buf + h + HTTP_REQ_LINE_MAX, "\n\n");
	CHECK_EQ(feed(buf), HTTP_REQ_DONE);
	strcpy(buf + h + HTTP_REQ_LINE_MAX, "v\r\n\r\n");
	CHECK_EQ(feed(buf), HTTP_REQ_BAD);
	CHECK_EQ(r.status, 431);
	CHECK_EQ(took, h + HTTP_REQ_LINE_MAX + 2);
	strcpy(buf + h + HTTP_REQ_LINE_MAX, "v\n\n");
	CHECK_EQ(feed(buf), HTTP_REQ_BAD);
	CHECK_EQ(r.status, 431);
	CHECK(strstr(r.why, "header line"));

	/* A head of 8 KiB with its blank line is taken; one byte more is not. */
	memset(buf, 0, sizeof buf);
	strcpy(buf, head);
	size_t len = h;
	while (len + 100 + 2 <= HTTP_REQ_HEAD_MAX - 100) {
		memcpy(buf + len, "X: ", 3);
		memset(buf + len + 3, 'v', 95);
		memcpy(buf + len + 98, "\r\n", 2);
		len += 100;
	}
	size_t last = HTTP_REQ_HEAD_MAX - len - 2 - 2; /* the last header line's length */
	memcpy(buf + len, "Y: ", 3);
	memset(buf + len + 3, 'v', last - 3);
	strcpy(buf + len + last, "\r\n\r\n");
	CHECK_EQ(strlen(buf), HTTP_REQ_HEAD_MAX);
	CHECK_EQ(feed(buf), HTTP_REQ_DONE);
	CHECK_EQ(took, HTTP_REQ_HEAD_MAX);
	strcpy(buf + len + last, "v\r\n\r\n");
	CHECK_EQ(feed(buf), HTTP_REQ_BAD);
	CHECK_EQ(r.status, 431);
	CHECK(strstr(r.why, "8 KiB"));
	CHECK_EQ(took, HTTP_REQ_HEAD_MAX + 1);
	/* Blank lines before the request line count too. */
	memset(buf, 0, sizeof buf);
	memset(buf, '\n', HTTP_REQ_HEAD_MAX + 1);
	CHECK_EQ(feed(buf), HTTP_REQ_BAD);
	CHECK_EQ(r.status, 400);
	CHECK_EQ(took, HTTP_REQ_HEAD_MAX + 1);
}

static void test_response_head(void)
{
	char buf[256];
	static const char ok[] = "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\n"
				 "Content-Length: 12345\r\nCache-Control: no-store\r\n"
				 "Connection: close\r\n\r\n";
	CHECK_EQ(http_response_head(buf, sizeof buf, 200, "text/plain; version=0.0.4", 12345),
		 strlen(ok));
	CHECK_STR(buf, ok);
	static const char nf[] = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n"
				 "Cache-Control: no-store\r\nConnection: close\r\n\r\n";
	CHECK_EQ(http_response_head(buf, sizeof buf, 404, NULL, 0), strlen(nf));
	CHECK_STR(buf, nf);
	static const char na[] = "HTTP/1.1 405 Method Not Allowed\r\nContent-Type: text/plain\r\n"
				 "Content-Length: 19\r\nAllow: GET, HEAD\r\n"
				 "Cache-Control: no-store\r\nConnection: close\r\n\r\n";
	CHECK_EQ(http_response_head(buf, sizeof buf, 405, "text/plain", 19), strlen(na));
	CHECK_STR(buf, na);
	CHECK(http_response_head(buf, sizeof buf, 431, NULL, 0));
	CHECK(!strncmp(buf, "HTTP/1.1 431 Request Header Fields Too Large\r\n", 46));
	CHECK(http_response_head(buf, sizeof buf, 299, NULL, 0));
	CHECK(!strncmp(buf, "HTTP/1.1 299 \r\n", 15)); /* an empty reason phrase */
	CHECK_STR(http_reason(505), "HTTP Version Not Supported");
	/* Every buffer too small: 0, and a string. */
	for (size_t n = 0; n <= strlen(ok); n++) {
		memset(buf, 'x', sizeof buf);
		CHECK_EQ(http_response_head(buf, n, 200, "text/plain; version=0.0.4", 12345), 0);
		CHECK(!n || memchr(buf, 0, n));
	}
	CHECK_EQ(http_response_head(buf, strlen(ok) + 1, 200, "text/plain; version=0.0.4", 12345),
		 strlen(ok));
	/* A status out of range, a header injected through the content type. */
	CHECK_EQ(http_response_head(buf, sizeof buf, 100, NULL, 0), 0);
	CHECK_EQ(http_response_head(buf, sizeof buf, 600, NULL, 0), 0);
	CHECK_EQ(http_response_head(buf, sizeof buf, 200, "text/html\r\nSet-Cookie: a=b", 0), 0);
	CHECK_EQ(http_response_head(buf, sizeof buf, 200, "caf\xc3\xa9", 0), 0);
	CHECK_STR(buf, "");
}

int main(void)
{
	test_good();
	test_bad();
	test_limits();
	test_response_head();
	return test_summary();
}
