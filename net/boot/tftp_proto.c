/* SPDX-License-Identifier: GPL-2.0-only */
/* TFTP packets (tftp_proto.h). Layouts, RFC 1350 section 5: RRQ | filename | 0 | mode | 0,
 * DATA | block | data, ACK | block, ERROR | code | message | 0; RFC 2347: options follow
 * the mode of an RRQ as name | 0 | value | 0 pairs, and the OACK carries those granted. */
#include "net/boot/tftp_proto.h"
#include "hv/lib.h"

static u16 get16(const u8 *p) { return (u16)(p[0] << 8 | p[1]); }

static void put16(u8 *p, u16 v)
{
	p[0] = (u8)(v >> 8);
	p[1] = (u8)v;
}

/* The NUL-terminated string at p[*off] within n bytes, or NULL; *off moves past it. */
static const char *take_str(const u8 *p, size_t n, size_t *off)
{
	const u8 *end = *off < n ? memchr(p + *off, 0, n - *off) : NULL;
	if (!end)
		return NULL;
	const char *s = (const char *)p + *off;
	*off = (size_t)(end - p) + 1;
	return s;
}

static bool same_ci(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if ((*a | 0x20) != (*b | 0x20))
			return false;
	return *a == *b;
}

/* A decimal number of at most 13 digits (below TFTP_TSIZE_MAX's 2^40 times 10). */
static bool take_num(const char *s, u64 *v)
{
	size_t n = strlen(s);
	if (!n || n > 13)
		return false;
	*v = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		*v = *v * 10 + (u64)(*s - '0');
	}
	return true;
}

static const char *parse_oack(const u8 *p, size_t n, u32 asked, struct tftp_msg *m)
{
	size_t off = 2;
	while (off < n) {
		const char *name = take_str(p, n, &off), *value = take_str(p, n, &off);
		u64 v;
		if (!name || !value)
			return "OACK option not terminated";
		if (!take_num(value, &v))
			return "OACK option value is not a number";
		if (same_ci(name, "blksize")) {
			if (v < TFTP_BLKSIZE_MIN || v > asked)
				return "OACK block size out of range";
			m->blksize = (u32)v;
		} else if (same_ci(name, "tsize")) {
			if (v > TFTP_TSIZE_MAX)
				return "OACK transfer size too large";
			m->has_tsize = true;
			m->tsize = v;
		} else {
			return "OACK option that was not asked for";
		}
	}
	return NULL;
}

const char *tftp_parse(const u8 *p, size_t n, u32 blksize, u32 asked, struct tftp_msg *m)
{
	memset(m, 0, sizeof *m);
	if (n < 2)
		return "packet shorter than an opcode";
	m->op = get16(p);
	switch (m->op) {
	case TFTP_DATA:
		if (n < 4)
			return "DATA without a block number";
		m->block = get16(p + 2);
		m->data = p + 4;
		m->len = n - 4;
		return m->len > blksize ? "DATA longer than the block size" : NULL;
	case TFTP_ERROR: {
		if (n < 5)
			return "ERROR without a message";
		m->code = get16(p + 2);
		size_t off = 4, k = 0;
		const char *text = take_str(p, n, &off);
		for (; text && *text && k + 1 < sizeof m->text; text++)
			m->text[k++] = *text >= ' ' && *text < 0x7f ? *text : '?';
		return text ? NULL : "ERROR message not terminated";
	}
	case TFTP_OACK:
		return parse_oack(p, n, asked, m);
	default:
		return "unexpected opcode";
	}
}

const char *tftp_error_name(u16 code)
{
	static const char *const names[] = {
		"server error", /* 0: "not defined, see error message" */
		"file not found",
		"access violation",
		"disk full or allocation exceeded",
		"illegal TFTP operation",
		"unknown transfer ID",
		"file already exists",
		"no such user",
		"option negotiation refused", /* 8: RFC 2347 */
	};
	return code < sizeof names / sizeof names[0] ? names[code] : "unknown error";
}

/* Appends s and its NUL at buf[*off], if it fits in cap. */
static bool put_str(u8 *buf, size_t cap, size_t *off, const char *s)
{
	size_t n = strlen(s) + 1;
	if (n > cap - *off)
		return false;
	memcpy(buf + *off, s, n);
	*off += n;
	return true;
}

size_t tftp_make_rrq(u8 *buf, size_t cap, const char *path, u32 blksize)
{
	char bs[12];
	size_t off = 2;
	snprintf(bs, sizeof bs, "%u", blksize);
	if (cap < 2 || !*path)
		return 0;
	put16(buf, TFTP_RRQ);
	if (!put_str(buf, cap, &off, path) || !put_str(buf, cap, &off, "octet") ||
	    !put_str(buf, cap, &off, "blksize") || !put_str(buf, cap, &off, bs) ||
	    !put_str(buf, cap, &off, "tsize") || !put_str(buf, cap, &off, "0"))
		return 0;
	return off;
}

size_t tftp_make_ack(u8 buf[4], u16 block)
{
	put16(buf, TFTP_ACK);
	put16(buf + 2, block);
	return 4;
}

size_t tftp_make_error(u8 *buf, size_t cap, u16 code, const char *text)
{
	if (cap < 5)
		return 0;
	put16(buf, TFTP_ERROR);
	put16(buf + 2, code);
	size_t n = MIN(strlen(text), cap - 5);
	memcpy(buf + 4, text, n);
	buf[4 + n] = 0;
	return 5 + n;
}
