/* SPDX-License-Identifier: GPL-2.0-only */
/* An untrusted HTTP client's request head (net/telemetry/http_request.c): the input is a
 * 1-byte split point, then the bytes, fed in two pieces from heap copies of exactly their
 * length.
 * Checked: the head takes no more than it was given, and all of it while it is not over;
 * a head that is done has GET or HEAD, a printable path from '/' and a printable query
 * that fit their limits; a bad one has a status to answer with and a reason; the same bytes
 * fed whole give the same answer; the answer's head for that status (with the input's
 * first bytes as a content type) fits its buffer or is refused, and has no line end but
 * its own. */
#include "../../net/telemetry/http_request.c"
#include "fuzz.h"

static void check_printable(const char *s, size_t max)
{
	FUZZ_CHECK(memchr(s, 0, max));
	for (; *s; s++)
		FUZZ_CHECK(*s > ' ' && *s < 0x7f);
}

static void check_answer(u16 status, const uint8_t *p, size_t n)
{
	char type[40], buf[256];
	size_t k = MIN(n, sizeof type - 1);
	memcpy(type, p, k);
	type[k] = 0;
	size_t len = http_response_head(buf, sizeof buf, status, k & 1 ? type : NULL, n);
	if (!len)
		return;
	FUZZ_CHECK(len < sizeof buf && strlen(buf) == len && !strncmp(buf, "HTTP/1.1 ", 9));
	FUZZ_CHECK(!strcmp(buf + len - 4, "\r\n\r\n"));
	for (size_t i = 0; i < len; i++)
		FUZZ_CHECK((buf[i] >= ' ' && buf[i] < 0x7f) ||
			   (buf[i] == '\r' && buf[i + 1] == '\n') ||
			   (buf[i] == '\n' && buf[i - 1] == '\r'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	size_t split = take_u8(&in), took = 0;
	split = MIN(split, in.n);
	/* The two pieces, each fed only while the head is not over. */
	const size_t len[2] = { split, in.n - split };
	u8 *piece[2] = { fuzz_copy(in.p, split), fuzz_copy(in.p + split, in.n - split) };
	static struct http_req r, whole;
	http_req_init(&r);
	for (int k = 0; k < 2 && r.state == HTTP_REQ_MORE; k++) {
		FUZZ_CHECK(took == (k ? split : 0)); /* all of a piece while not over */
		size_t t = http_req_feed(&r, piece[k], len[k]);
		FUZZ_CHECK(t <= len[k]);
		took += t;
	}
	FUZZ_CHECK(r.state != HTTP_REQ_MORE || took == in.n);
	FUZZ_CHECK(took <= HTTP_REQ_HEAD_MAX + 1);
	if (r.state == HTTP_REQ_DONE) {
		FUZZ_CHECK(r.method == HTTP_GET || r.method == HTTP_HEAD);
		FUZZ_CHECK(r.path[0] == '/' && !r.status && !r.why);
		check_printable(r.path, sizeof r.path);
		check_printable(r.query, sizeof r.query);
		FUZZ_CHECK(strlen(r.path) + r.has_query + strlen(r.query) <= HTTP_REQ_TARGET_MAX);
		FUZZ_CHECK(r.has_query || !r.query[0]);
	}
	if (r.state == HTTP_REQ_BAD) {
		FUZZ_CHECK(r.why && r.why[0] && http_reason(r.status)[0]);
		FUZZ_CHECK(r.status == 400 || r.status == 405 || r.status == 413 ||
			   r.status == 414 || r.status == 431 || r.status == 501 ||
			   r.status == 505);
	}
	u8 *all = fuzz_copy(in.p, in.n);
	http_req_init(&whole);
	size_t took_whole = http_req_feed(&whole, all, in.n);
	FUZZ_CHECK(whole.state == r.state && took_whole == took && whole.status == r.status &&
		   whole.why == r.why && whole.method == r.method && whole.minor == r.minor &&
		   whole.has_query == r.has_query && !strcmp(whole.path, r.path) &&
		   !strcmp(whole.query, r.query));
	check_answer(r.state == HTTP_REQ_BAD ? r.status : 200, in.p, in.n);
	free(piece[0]);
	free(piece[1]);
	free(all);
	return 0;
}
