/* SPDX-License-Identifier: GPL-2.0-only */
/* HTTP/1.0 GET (net/boot/http_proto.c): URLs of hv.cfg, the request, and response heads from a
 * server, good, odd and malformed, fed whole and a byte at a time. Each feed is from a
 * heap copy of exactly its length, so ASan catches a read past its end. */
#include <stdlib.h>
#include "../../../net/boot/http_proto.c"
#include "../test.h"

static struct http_url u;
static const char *why;

static int url(const char *s)
{
	why = NULL;
	return http_url_parse(s, &u, &why);
}

static void test_urls(void)
{
	CHECK_EQ(url("http://10.0.2.2:8000/guests/vmlinuz"), 0);
	CHECK(!memcmp(u.ip, "\x0a\x00\x02\x02", 4));
	CHECK_EQ(u.port, 8000);
	CHECK_STR(u.host, "10.0.2.2:8000");
	CHECK_STR(u.path, "/guests/vmlinuz");
	CHECK_EQ(url("HTTP://192.168.1.255"), 0);
	CHECK_EQ(u.port, 80);
	CHECK_STR(u.host, "192.168.1.255");
	CHECK_STR(u.path, "/");
	CHECK_EQ(url("http://255.255.255.255:65535/a?b=c#d"), 0);
	CHECK_STR(u.path, "/a?b=c"); /* the fragment is not sent */
	CHECK_EQ(url("http://10.0.0.1?x=1#y"), 0);
	CHECK_STR(u.host, "10.0.0.1");
	CHECK_STR(u.path, "/?x=1");
	CHECK_EQ(url("http://10.0.0.1#/etc"), 0);
	CHECK_STR(u.path, "/");
	CHECK(http_is_url("http://x") && http_is_url("Https://x"));
	CHECK(!http_is_url("/guests/vmlinuz") && !http_is_url("http:/x") &&
	      !http_is_url("tftp://"));

	static const struct {
		const char *url, *why;
	} bad[] = {
		{ "https://10.0.2.2/x", "https is not supported" },
		{ "ftp://10.0.2.2/x", "not an http:// URL" },
		{ "http://server/x", "not an IPv4 address" },
		{ "http://10.0.2/x", "not an IPv4 address" },
		{ "http://10.0.2.256/x", "not an IPv4 address" },
		{ "http://10.0.2.2.5/x", "not an IPv4 address" },
		{ "http://10.0.2.0002/x", "not an IPv4 address" },
		{ "http://10.0.2.2:0/x", "the port" },
		{ "http://10.0.2.2:65536/x", "the port" },
		{ "http://10.0.2.2:/x", "the port" },
		{ "http://10.0.2.2:80a/x", "not an IPv4 address" },
		{ "http:///x", "no server" },
		{ "http://", "no server" },
		{ "http://:80/x", "no server" },
		{ "http://u:p@10.0.2.2/x", "user name" },
		{ "http://10.0.2.2/a b", "space" },
		{ "http://10.0.2.2/a\tb", "control" },
		{ "http://10.0.2.2/\x80", "control" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		CHECK_EQ(url(bad[i].url), -1);
		CHECK(why && strstr(why, bad[i].why));
	}
	char longest[300] = "http://1.2.3.4/";
	memset(longest + 15, 'a', 255 - 15);
	CHECK_EQ(url(longest), 0);
	CHECK_EQ(strlen(u.path), 255 - 14);
	longest[255] = 'a';
	CHECK_EQ(url(longest), -1);
	CHECK(strstr(why, "longer than 255"));
}

static void test_request(void)
{
	char buf[400];
	CHECK_EQ(url("http://10.0.2.2:8000/guests/vmlinuz"), 0);
	static const char want[] = "GET /guests/vmlinuz HTTP/1.0\r\nHost: 10.0.2.2:8000\r\n"
				   "User-Agent: hv\r\nAccept: */*\r\nConnection: close\r\n\r\n";
	CHECK_EQ(http_request(buf, sizeof buf, &u), sizeof want - 1);
	CHECK_STR(buf, want);
	CHECK_EQ(http_request(buf, sizeof want - 1, &u), 0); /* no room for its NUL */
	CHECK_EQ(http_request(buf, 10, &u), 0);
}

static struct http_head h;
static size_t h_took; /* what feed()'s head took */

/* Feeds s (n bytes) whole; returns what the head took. */
static size_t feed(const char *s, size_t n)
{
	u8 *p = malloc(n ? n : 1);
	memcpy(p, s, n);
	http_head_init(&h);
	h_took = http_head_feed(&h, p, n);
	free(p);
	return h_took;
}
#define FEED(lit) feed(lit, sizeof(lit) - 1)

/* The same a byte at a time: the same state, and the same bytes taken. */
static void check_bytewise(const char *s, size_t n)
{
	struct http_head whole = h;
	struct http_head one;
	size_t took = 0;
	http_head_init(&one);
	for (size_t i = 0; i < n && one.state == HTTP_HEAD_MORE; i++)
		took += http_head_feed(&one, (const u8 *)s + i, 1);
	CHECK_EQ(one.state, whole.state);
	CHECK_EQ(one.status, whole.status);
	CHECK_EQ(one.has_length, whole.has_length);
	CHECK_EQ(one.length, whole.length);
	CHECK_STR(one.why, whole.why);
	CHECK_STR(one.reason, whole.reason);
	CHECK_EQ(took, h_took);
}

static void test_heads(void)
{
	static const char ok[] =
		"HTTP/1.0 200 OK\r\nServer: SimpleHTTP/0.6 Python/3.11.2\r\n"
		"Content-type: application/octet-stream\r\nContent-Length: 8053\r\n"
		"Last-Modified: Thu, 03 Dec 2026 20:00:00 GMT\r\n\r\nBODY";
	CHECK_EQ(FEED(ok), sizeof ok - 1 - 4);
	CHECK_EQ(h.state, HTTP_HEAD_DONE);
	CHECK_EQ(h.status, 200);
	CHECK_STR(h.reason, "OK");
	CHECK(h.has_length);
	CHECK_EQ(h.length, 8053);
	check_bytewise(ok, sizeof ok - 1);

	/* Bare LF line ends, no Content-Length (the body runs to the close), no reason. */
	CHECK_EQ(FEED("HTTP/1.1 200\ncontent-LENGTH:  0 \n\nx"), 34);
	CHECK_EQ(h.state, HTTP_HEAD_DONE);
	CHECK_STR(h.reason, "");
	CHECK(h.has_length && h.length == 0);
	FEED("HTTP/1.0 200 OK\r\n\r\n");
	CHECK(h.state == HTTP_HEAD_DONE && !h.has_length);

	/* 404 with a reason; an interim 100 before the real answer. */
	FEED("HTTP/1.0 404 File not found\r\nContent-Length: 9\r\n\r\n");
	CHECK(h.state == HTTP_HEAD_DONE && h.status == 404);
	CHECK_STR(h.reason, "File not found");
	static const char cont[] = "HTTP/1.1 100 Continue\r\nContent-Length: 7\r\n\r\n"
				   "HTTP/1.1 200 OK\r\n\r\n";
	CHECK_EQ(FEED(cont), sizeof cont - 1);
	CHECK(h.state == HTTP_HEAD_DONE && h.status == 200 && !h.has_length);
	check_bytewise(cont, sizeof cont - 1);
	/* The same Content-Length twice is one. */
	FEED("HTTP/1.0 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n");
	CHECK(h.state == HTTP_HEAD_DONE && h.length == 5);
	/* A head not over yet takes everything. */
	CHECK_EQ(FEED("HTTP/1.0 200 OK\r\nContent-Le"), 27);
	CHECK_EQ(h.state, HTTP_HEAD_MORE);

	static const struct {
		const char *head, *why;
	} bad[] = {
		{ "SSH-2.0-OpenSSH_9.2\r\n",
		  "an HTTP response (it began \"SSH-2.0-OpenSSH_9.2\")" },
		{ "HTTP/1.0 20 OK\r\n", "not an HTTP response" },
		{ "HTTP/1.0 2000 OK\r\n", "not an HTTP response" },
		{ "HTTP/1.0 099 OK\r\n", "not an HTTP response" },
		{ "HTTP/x.0 200 OK\r\n", "not an HTTP response" },
		{ "HTTP/1.0  200 OK\r\n", "not an HTTP response" },
		{ "\r\n", "not an HTTP response" },
		{ "HTTP/1.0 200 OK\r\n folded\r\n", "folded" },
		{ "HTTP/1.0 200 OK\r\nContent-Length : 5\r\n", "without a name" },
		{ "HTTP/1.0 200 OK\r\n: 5\r\n", "without a name" },
		{ "HTTP/1.0 200 OK\r\nno colon\r\n", "without a name" },
		{ "HTTP/1.0 200 OK\r\nContent-Length: -1\r\n", "not a number" },
		{ "HTTP/1.0 200 OK\r\nContent-Length: 1,1\r\n", "not a number" },
		{ "HTTP/1.0 200 OK\r\nContent-Length: 9999999999999999999999\r\n", "absurd" },
		{ "HTTP/1.0 200 OK\r\nContent-Length:\r\n", "empty Content-Length" },
		{ "HTTP/1.0 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n",
		  "two different" },
		{ "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n", "Transfer-Encoding" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		feed(bad[i].head, strlen(bad[i].head));
		CHECK_EQ(h.state, HTTP_HEAD_BAD);
		CHECK(strstr(h.why, bad[i].why));
		check_bytewise(bad[i].head, strlen(bad[i].head));
	}
	feed("HTTP/1.0 200 OK\r\nA: \0\r\n", 24);
	CHECK(h.state == HTTP_HEAD_BAD && strstr(h.why, "NUL"));
	/* Transfer-Encoding: identity is no encoding. */
	FEED("HTTP/1.0 200 OK\r\nTransfer-Encoding: identity\r\n\r\n");
	CHECK_EQ(h.state, HTTP_HEAD_DONE);

	/* Limits: a line of 1024 bytes (and its CR LF) is taken, 1025 is not, with or without
	 * its CR; 64 KiB of head at most. */
	static char big[70000];
	size_t n = (size_t)sprintf(big, "HTTP/1.0 200 OK\r\nX: ");
	memset(big + n, 'a', 1024 - 3);
	memcpy(big + n + 1021, "\r\n\r\n", 4);
	feed(big, n + 1025);
	CHECK_EQ(h.state, HTTP_HEAD_DONE);
	big[n + 1021] = 'a';
	feed(big, n + 1025);
	CHECK(h.state == HTTP_HEAD_BAD && strstr(h.why, "longer than 1024"));
	memcpy(big + n + 1022, "\n\n", 2); /* 1025 bytes, a bare LF */
	feed(big, n + 1024);
	CHECK(h.state == HTTP_HEAD_BAD && strstr(h.why, "longer than 1024"));
	memcpy(big + n + 1021, "\n\n", 2); /* 1024 bytes, a bare LF */
	feed(big, n + 1023);
	CHECK_EQ(h.state, HTTP_HEAD_DONE);
	n = (size_t)sprintf(big, "HTTP/1.0 200 OK\r\n");
	while (n < sizeof big - 64)
		n += (size_t)sprintf(big + n, "X-Pad: %s\r\n", "0123456789012345678901234567890");
	CHECK_EQ(feed(big, n), 65537); /* the byte over the limit too */
	CHECK(h.state == HTTP_HEAD_BAD && strstr(h.why, "larger than 64 KiB"));
	/* Once over, it takes nothing more. */
	FEED("HTTP/1.0 200 OK\r\n\r\n");
	CHECK_EQ(http_head_feed(&h, (const u8 *)"more", 4), 0);
}

/* A fetch's deadline: a minute, then 1 MiB/s. */
static void test_deadline(void)
{
	CHECK_EQ(http_deadline_ms(0), 60000);
	CHECK_EQ(http_deadline_ms(1024 * 1024), 61000);
	CHECK_EQ(http_deadline_ms(50ull << 20), 110000);	 /* a 50 MiB initrd: 110 s */
	CHECK_EQ(http_deadline_ms(1ull << 30), 60000 + 1024000); /* the largest: 18 min */
	CHECK_EQ(http_deadline_ms(~0ull), 60000 + (~0ull >> 20) * 1000 + 999); /* no overflow */
	CHECK_EQ(http_deadline_ms(1), 60000); /* 1 ms per KiB, rounded down */
	CHECK_EQ(http_deadline_ms(1049), 60001);
}

int main(void)
{
	test_deadline();
	test_urls();
	test_request();
	test_heads();
	return test_summary();
}
