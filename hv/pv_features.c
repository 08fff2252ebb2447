/* SPDX-License-Identifier: GPL-2.0-only */
/* Paravirtual feature sets (see pv_features.h). */
#include "pv_features.h"
#include "lib.h"

static const char *const pv_names[PV_FEATURES] = {
	[PV_CLOCK] = "clock",	[PV_STEAL] = "steal",	  [PV_EOI] = "eoi",
	[PV_UNHALT] = "unhalt", [PV_TLB_FLUSH] = "tlb",	  [PV_IPI] = "ipi",
	[PV_YIELD] = "yield",	[PV_PREEMPT] = "preempt",
};

#define PV_KNOWN "clock steal eoi unhalt tlb ipi yield preempt all none"

/* Longest excerpt of an item quoted in an error message. */
#define PV_SHOW_MAX 24

const char *pv_feature_name(enum pv_feature f)
{
	if ((unsigned int)f >= PV_FEATURES)
		return NULL;
	return pv_names[f];
}

static bool pv_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n';
}

static bool pv_word_eq(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && !memcmp(s, w, n);
}

/* Copies (s, n) into buf (PV_SHOW_MAX + 1 bytes) for an error message: cut short
 * with "..." and unprintable bytes replaced, so it is safe on a serial console. */
static const char *pv_show(char *buf, const char *s, size_t n)
{
	size_t m = n > PV_SHOW_MAX ? PV_SHOW_MAX - 3 : n;
	size_t i;

	for (i = 0; i < m; i++) {
		u8 c = (u8)s[i];

		buf[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (m < n) {
		memcpy(buf + m, "...", 3);
		m += 3;
	}
	buf[m] = 0;
	return buf;
}

static int pv_fail(char *err, size_t errlen, const char *fmt, ...) PRINTF_LIKE(3, 4);

static int pv_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* One item, already trimmed and non-empty, applied to *set. */
static int pv_apply(const char *s, size_t n, u32 *set, char *err, size_t errlen)
{
	char buf[PV_SHOW_MAX + 1];
	const char *name = s;
	size_t len = n;
	char sign = 0;
	u32 f;

	if (s[0] == '+' || s[0] == '-') {
		sign = s[0];
		name++;
		len--;
		while (len && pv_is_blank(*name))
			name++, len--;
		if (!len)
			return pv_fail(err, errlen, "'%s' without a PV feature name",
				       pv_show(buf, s, n));
	}
	if (pv_word_eq(name, len, "all") || pv_word_eq(name, len, "none")) {
		if (sign)
			return pv_fail(err, errlen,
				       "bad PV feature item '%s': '+' and '-' take a feature name",
				       pv_show(buf, s, n));
		*set = name[0] == 'a' ? PV_FEATURES_ALL : PV_FEATURES_NONE;
		return 0;
	}
	for (f = 0; f < PV_FEATURES; f++) {
		if (pv_word_eq(name, len, pv_names[f])) {
			if (sign == '-')
				*set &= ~(u32)BIT(f);
			else
				*set |= (u32)BIT(f);
			return 0;
		}
	}
	return pv_fail(err, errlen, "unknown PV feature '%s' (known: " PV_KNOWN ")",
		       pv_show(buf, name, len));
}

int pv_features_parse(const char *value, u32 *out, char *err, size_t errlen)
{
	const char *p = value;
	u32 set = PV_FEATURES_NONE;

	if (err && errlen)
		err[0] = 0;
	while (pv_is_blank(*p))
		p++;
	if (!*p)
		return pv_fail(err, errlen, "empty PV feature list (write 'none' for no feature)");
	p = value;
	for (;;) {
		const char *s = p, *e;

		while (*p && *p != ',')
			p++;
		e = p;
		while (s < e && pv_is_blank(*s))
			s++;
		while (e > s && pv_is_blank(e[-1]))
			e--;
		if (s == e)
			return pv_fail(err, errlen, "empty item in PV feature list");
		if (pv_apply(s, (size_t)(e - s), &set, err, errlen))
			return -1;
		if (!*p)
			break;
		p++; /* past the ',' */
	}
	*out = set;
	return 0;
}

/* Appends s to buf (n bytes, n > 0, holding a string of *len characters), cut short
 * when it does not fit; *len stays the length of what buf holds. */
static void pv_append(char *buf, size_t n, size_t *len, const char *s)
{
	while (*s && *len < n - 1)
		buf[(*len)++] = *s++;
	buf[*len] = 0;
}

void pv_features_format(u32 set, char *buf, size_t n)
{
	size_t len = 0;
	u32 f;

	if (!n)
		return;
	buf[0] = 0;
	set &= PV_FEATURES_ALL;
	if (!set) {
		pv_append(buf, n, &len, "none");
		return;
	}
	for (f = 0; f < PV_FEATURES; f++) {
		if (!(set & BIT(f)))
			continue;
		if (len)
			pv_append(buf, n, &len, ",");
		pv_append(buf, n, &len, pv_names[f]);
	}
}
