/* SPDX-License-Identifier: GPL-2.0-only */
/* Formatting and string routines of hv/lib.c, renamed so they do not clash with libc. */
#define memset hv_memset
#define memcpy hv_memcpy
#define memmove hv_memmove
#define memcmp hv_memcmp
#define strlen hv_strlen
#define strcmp hv_strcmp
#define strncmp hv_strncmp
#define strchr hv_strchr
#define strlcpy hv_strlcpy
#define vsnprintf hv_vsnprintf
#define snprintf hv_snprintf
#include "../../hv/lib.c"
#undef memset
#undef memcpy
#undef memmove
#undef memcmp
#undef strlen
#undef strcmp
#undef strncmp
#undef strchr
#undef snprintf
#undef vsnprintf
#include "test.h"

static const char *fmt(const char *f, ...)
{
	static char buf[128];
	va_list ap;
	va_start(ap, f);
	hv_vsnprintf(buf, sizeof buf, f, ap);
	va_end(ap);
	return buf;
}

int main(void)
{
	CHECK_STR(fmt("%d|%5d|%-5d|%05d", -42, 7, 7, -7), "-42|    7|7    |-0007");
	CHECK_STR(fmt("%x %X %08lx %llu", 0xbeefu, 0xbeefu, 0x1234ul, 18446744073709551615ull),
		  "beef BEEF 00001234 18446744073709551615");
	CHECK_STR(fmt("%s|%6s|%-6s|%c|%%", "ab", "ab", "ab", 'z'), "ab|    ab|ab    |z|%");
	CHECK_STR(fmt("%zu %p", (size_t)5, (void *)0x10), "5 0x10");
	CHECK_STR(fmt("%s", (char *)NULL), "(null)");

	char small[4];
	CHECK_EQ(hv_snprintf(small, sizeof small, "%s", "hello"), 5);
	CHECK_STR(small, "hel");

	char dst[4];
	CHECK_EQ(hv_strlcpy(dst, "abcdef", sizeof dst), 6);
	CHECK_STR(dst, "abc");

	char ov[8] = "abcdef";
	hv_memmove(ov + 1, ov, 5);
	CHECK_STR(ov, "aabcde");
	CHECK(hv_strncmp("abc", "abd", 2) == 0 && hv_strncmp("abc", "abd", 3) < 0);
	CHECK(hv_strchr("a=b", '=') != NULL && hv_strchr("ab", '=') == NULL);
	return test_summary();
}
