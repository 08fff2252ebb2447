/* SPDX-License-Identifier: GPL-2.0-only */
/* Formatting and string routines of hv/lib.c, renamed so they do not clash with libc. */
#define memset hv_memset
#define memcpy hv_memcpy
#define memmove hv_memmove
#define memcmp hv_memcmp
#define memchr hv_memchr
#define strlen hv_strlen
#define strnlen hv_strnlen
#define strcmp hv_strcmp
#define strncmp hv_strncmp
#define strchr hv_strchr
#define strrchr hv_strrchr
#define strlcpy hv_strlcpy
#define vsnprintf hv_vsnprintf
#define snprintf hv_snprintf
#include "../../../hv/lib.c"
#undef memset
#undef memcpy
#undef memmove
#undef memcmp
#undef memchr
#undef strlen
#undef strnlen
#undef strcmp
#undef strncmp
#undef strchr
#undef strrchr
#undef snprintf
#undef vsnprintf
#include "../test.h"

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
	/* The alternate form: one argument each, the next ones not shifted. */
	CHECK_STR(fmt("%#x %#X %#llx %#x|%s", 0x25u, 0xabu, 0x1ffull, 0u, "next"),
		  "0x25 0XAB 0x1ff 0|next");
	CHECK_STR(fmt("%#06x|%#6x|%-#6x|", 0x1fu, 0x1fu, 0x1fu), "0x001f|  0x1f|0x1f  |");
	CHECK_STR(fmt("%8p|%-6d|", (void *)0x10, -3), "    0x10|-3    |");
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

	/* What libfdt needs besides (lib/libfdt/libfdt_env.h). */
	static const char mem[] = "ab\0cb\xff"; /* 7 bytes with the final NUL */
	CHECK(hv_memchr(mem, 'b', sizeof mem) == mem + 1);
	CHECK(hv_memchr(mem, 0, sizeof mem) == mem + 2);
	CHECK(hv_memchr(mem, 0xff, sizeof mem) == mem + 5); /* c compared as a byte */
	CHECK(hv_memchr(mem, -1, sizeof mem) == mem + 5);
	CHECK(hv_memchr(mem, 'c', 3) == NULL); /* only n bytes */
	CHECK(hv_memchr(NULL, 'a', 0) == NULL);
	CHECK_EQ(hv_strnlen("abc", 8), 3);
	CHECK_EQ(hv_strnlen("abc", 3), 3);
	CHECK_EQ(hv_strnlen("abc", 2), 2); /* reads no further */
	CHECK_EQ(hv_strnlen("abc", 0), 0);
	CHECK_EQ(hv_strnlen("", 4), 0);
	const char *path = "/soc/uart@1";
	CHECK(hv_strrchr(path, '/') == path + 4);
	CHECK(hv_strrchr(path, 'x') == NULL);
	CHECK(hv_strrchr(path, 0) == path + 11); /* the terminator, as in C */
	CHECK(hv_strrchr("", '/') == NULL);
	return test_summary();
}
