/* SPDX-License-Identifier: GPL-2.0-only */
/* An untrusted HTTP server's response head and a hv.cfg URL (net/boot/http_proto.c): the input
 * is a 1-byte split point, then the bytes, fed in two pieces from heap copies of exactly
 * their length, then parsed as a URL. Checked: the head takes no more than it was given,
 * its state and what it says are consistent (a status 100-999, a printable reason and
 * reason for failure), the same bytes fed whole give the same answer, and a URL parses to
 * a host that fits its Host header and a path that starts with '/', whose request fits
 * its buffer or is refused. */
#include "../../net/boot/http_proto.c"
#include "fuzz.h"

static void check_text(const char *s, size_t max)
{
	FUZZ_CHECK(memchr(s, 0, max));
	for (; *s; s++)
		FUZZ_CHECK(*s >= ' ' && *s < 0x7f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	size_t split = (size_t)take_bytes(&in, 1);
	split = MIN(split, in.n);
	u8 *a = fuzz_copy(in.p, split), *b = fuzz_copy(in.p + split, in.n - split);
	static struct http_head h, whole;
	http_head_init(&h);
	size_t took = http_head_feed(&h, a, split);
	FUZZ_CHECK(took <= split);
	if (h.state == HTTP_HEAD_MORE) {
		FUZZ_CHECK(took == split);
		size_t more = http_head_feed(&h, b, in.n - split);
		FUZZ_CHECK(more <= in.n - split);
		took += more;
	}
	FUZZ_CHECK(h.state != HTTP_HEAD_MORE || took == in.n);
	if (h.state == HTTP_HEAD_DONE)
		FUZZ_CHECK(h.status >= 200 && h.status <= 999);
	check_text(h.reason, sizeof h.reason);
	if (h.state == HTTP_HEAD_BAD)
		FUZZ_CHECK(h.why[0]);
	check_text(h.why, sizeof h.why);
	u8 *all = fuzz_copy(in.p, in.n);
	http_head_init(&whole);
	size_t took_whole = http_head_feed(&whole, all, in.n);
	FUZZ_CHECK(whole.state == h.state && took_whole == took && whole.status == h.status &&
		   whole.length == h.length && whole.has_length == h.has_length);

	char url[300];
	size_t k = MIN(in.n, sizeof url - 1);
	memcpy(url, in.p, k);
	url[k] = 0;
	struct http_url u;
	const char *why = NULL;
	if (http_url_parse(url, &u, &why) == 0) {
		FUZZ_CHECK(u.path[0] == '/' && u.port && memchr(u.host, 0, sizeof u.host));
		char req[400];
		size_t n = http_request(req, sizeof req, &u);
		FUZZ_CHECK(!n || (n < sizeof req && !strncmp(req, "GET /", 5)));
	} else {
		FUZZ_CHECK(why && *why);
	}
	free(a);
	free(b);
	free(all);
	return 0;
}
