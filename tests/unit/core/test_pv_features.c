/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for hv/pv_features.c: names, the list syntax, errors, formatting. */
#include <stdlib.h>
#include "../../../hv/pv_features.c"
#include "../test.h"

#define KNOWN "(known: clock steal eoi unhalt tlb ipi yield preempt all none)"

static char err[160];

/* Parses s from a heap copy of exactly its size (ASan catches reads past the NUL). */
static int parse(const char *s, u32 *out)
{
	size_t n = strlen(s) + 1;
	char *buf = malloc(n);
	int r;

	memcpy(buf, s, n);
	r = pv_features_parse(buf, out, err, sizeof(err));
	free(buf);
	return r;
}

static u32 ok(const char *s)
{
	u32 set = 0xdeadbeef;

	CHECK_EQ(parse(s, &set), 0);
	CHECK_STR(err, "");
	return set;
}

#define CHECK_BAD(s, msg)                      \
	do {                                   \
		u32 _set = 0x5a5a;             \
		CHECK_EQ(parse(s, &_set), -1); \
		CHECK_EQ(_set, 0x5a5a);        \
		CHECK_STR(err, msg);           \
	} while (0)

static void test_names(void)
{
	static const char *const want[] = {
		"clock", "steal", "eoi", "unhalt", "tlb", "ipi", "yield", "preempt",
	};
	u32 f;

	CHECK_EQ(PV_FEATURES, 8);
	CHECK_EQ(PV_FEATURES_ALL, 0xff);
	for (f = 0; f < PV_FEATURES; f++) {
		CHECK_STR(pv_feature_name(f), want[f]);
		CHECK_EQ(ok(want[f]), BIT(f));
	}
	CHECK(pv_feature_name(PV_FEATURES) == NULL);
	CHECK(pv_feature_name((enum pv_feature) - 1) == NULL);
	CHECK(pv_has(PV_FEATURES_ALL, PV_IPI));
	CHECK(!pv_has(BIT(PV_CLOCK), PV_IPI));
	CHECK(pv_has(BIT(PV_CLOCK), PV_CLOCK));
}

static void test_syntax(void)
{
	CHECK_EQ(ok("all"), PV_FEATURES_ALL);
	CHECK_EQ(ok("none"), 0);
	CHECK_EQ(ok("all,-ipi"), PV_FEATURES_ALL & ~BIT(PV_IPI));
	CHECK_EQ(ok("clock,ipi"), BIT(PV_CLOCK) | BIT(PV_IPI));
	CHECK_EQ(ok("+clock,+ipi"), BIT(PV_CLOCK) | BIT(PV_IPI));
	CHECK_EQ(ok("clock,steal,eoi,unhalt,tlb,ipi,yield,preempt"), PV_FEATURES_ALL);
	CHECK_EQ(ok("yield,tlb,clock"), BIT(PV_YIELD) | BIT(PV_TLB_FLUSH) | BIT(PV_CLOCK));
	/* Left to right: later items win. */
	CHECK_EQ(ok("all,none"), 0);
	CHECK_EQ(ok("none,all"), PV_FEATURES_ALL);
	CHECK_EQ(ok("clock,none,ipi"), BIT(PV_IPI));
	CHECK_EQ(ok("clock,all"), PV_FEATURES_ALL);
	CHECK_EQ(ok("ipi,-ipi"), 0);
	CHECK_EQ(ok("-ipi,ipi"), BIT(PV_IPI));
	CHECK_EQ(ok("-ipi"), 0); /* from the empty set */
	CHECK_EQ(ok("all,-ipi,-ipi"), PV_FEATURES_ALL & ~BIT(PV_IPI));
	CHECK_EQ(ok("clock,clock"), BIT(PV_CLOCK));
	CHECK_EQ(ok("all,-clock,-steal,-eoi,-unhalt,-tlb,-ipi,-yield,-preempt"), 0);
	CHECK_EQ(ok("all,-tlb,-yield,+tlb"), PV_FEATURES_ALL & ~BIT(PV_YIELD));
	/* Blanks around items and after the sign. */
	CHECK_EQ(ok("  all , -ipi\t"), PV_FEATURES_ALL & ~BIT(PV_IPI));
	CHECK_EQ(ok(" clock ,\tipi "), BIT(PV_CLOCK) | BIT(PV_IPI));
	CHECK_EQ(ok("all, - ipi"), PV_FEATURES_ALL & ~BIT(PV_IPI));
	CHECK_EQ(ok("+ steal"), BIT(PV_STEAL));
}

static void test_errors(void)
{
	CHECK_BAD("x", "unknown PV feature 'x' " KNOWN);
	CHECK_BAD("all,-foo", "unknown PV feature 'foo' " KNOWN);
	CHECK_BAD("clock,+bar", "unknown PV feature 'bar' " KNOWN);
	CHECK_BAD("Clock", "unknown PV feature 'Clock' " KNOWN);
	CHECK_BAD("ALL", "unknown PV feature 'ALL' " KNOWN);
	CHECK_BAD("clock ipi", "unknown PV feature 'clock ipi' " KNOWN);
	CHECK_BAD("clock;ipi", "unknown PV feature 'clock;ipi' " KNOWN);
	CHECK_BAD("ip", "unknown PV feature 'ip' " KNOWN);
	CHECK_BAD("ipis", "unknown PV feature 'ipis' " KNOWN);
	CHECK_BAD("tlb_flush", "unknown PV feature 'tlb_flush' " KNOWN);
	CHECK_BAD("clock,--ipi", "unknown PV feature '-ipi' " KNOWN);
	CHECK_BAD("clock,+-ipi", "unknown PV feature '-ipi' " KNOWN);
	/* Long and unprintable names are cut short and made safe. */
	CHECK_BAD("abcdefghijklmnopqrstuvwxyz0123456789",
		  "unknown PV feature 'abcdefghijklmnopqrstu...' " KNOWN);
	CHECK_BAD("\x1b[2J\x7f", "unknown PV feature '?[2J?' " KNOWN);
	/* Empty items. */
	CHECK_BAD("", "empty PV feature list (write 'none' for no feature)");
	CHECK_BAD(" \t ", "empty PV feature list (write 'none' for no feature)");
	CHECK_BAD("clock,,ipi", "empty item in PV feature list");
	CHECK_BAD("clock,", "empty item in PV feature list");
	CHECK_BAD(",clock", "empty item in PV feature list");
	CHECK_BAD("clock, ,ipi", "empty item in PV feature list");
	CHECK_BAD(",", "empty item in PV feature list");
	CHECK_BAD("all,-", "'-' without a PV feature name");
	CHECK_BAD("+ ", "'+' without a PV feature name");
	/* '+' and '-' take a feature name. */
	CHECK_BAD("-all", "bad PV feature item '-all': '+' and '-' take a feature name");
	CHECK_BAD("clock,+none", "bad PV feature item '+none': '+' and '-' take a feature name");

	/* err may be NULL or small; *out is untouched on error. */
	u32 set = 7;
	CHECK_EQ(pv_features_parse("nope", &set, NULL, 0), -1);
	CHECK_EQ(set, 7);
	char small[8];
	CHECK_EQ(pv_features_parse("nope", &set, small, sizeof(small)), -1);
	CHECK_STR(small, "unknown");
	CHECK_EQ(pv_features_parse("ipi", &set, NULL, 0), 0);
	CHECK_EQ(set, BIT(PV_IPI));
	small[0] = 'x';
	CHECK_EQ(pv_features_parse("ipi", &set, small, 0), 0); /* errlen 0: not written */
	CHECK_EQ(small[0], 'x');
}

static void test_format(void)
{
	char buf[64];
	u32 set;

	pv_features_format(0, buf, sizeof(buf));
	CHECK_STR(buf, "none");
	pv_features_format(PV_FEATURES_ALL, buf, sizeof(buf));
	CHECK_STR(buf, "clock,steal,eoi,unhalt,tlb,ipi,yield,preempt");
	CHECK(strlen(buf) < 48);
	pv_features_format(BIT(PV_CLOCK) | BIT(PV_STEAL) | BIT(PV_EOI), buf, sizeof(buf));
	CHECK_STR(buf, "clock,steal,eoi");
	pv_features_format(BIT(PV_YIELD), buf, sizeof(buf));
	CHECK_STR(buf, "yield");
	pv_features_format(PV_FEATURES_ALL & ~BIT(PV_IPI), buf, sizeof(buf));
	CHECK_STR(buf, "clock,steal,eoi,unhalt,tlb,yield,preempt");
	/* Bits above the last feature are ignored. */
	pv_features_format(0xffffff00u, buf, sizeof(buf));
	CHECK_STR(buf, "none");
	pv_features_format(0x80000000u | BIT(PV_TLB_FLUSH), buf, sizeof(buf));
	CHECK_STR(buf, "tlb");

	/* Every set survives format -> parse. */
	for (set = 0; set <= PV_FEATURES_ALL; set++) {
		u32 back = 0xdeadbeef;

		pv_features_format(set, buf, sizeof(buf));
		CHECK_EQ(pv_features_parse(buf, &back, err, sizeof(err)), 0);
		CHECK_EQ(back, set);
	}

	/* Small buffers: cut short, always terminated, nothing written past n. */
	memset(buf, '#', sizeof(buf));
	pv_features_format(PV_FEATURES_ALL, buf, 8);
	CHECK_STR(buf, "clock,s");
	CHECK_EQ(buf[8], '#');
	memset(buf, '#', sizeof(buf));
	pv_features_format(PV_FEATURES_ALL, buf, 6);
	CHECK_STR(buf, "clock");
	memset(buf, '#', sizeof(buf));
	pv_features_format(PV_FEATURES_ALL, buf, 7);
	CHECK_STR(buf, "clock,");
	memset(buf, '#', sizeof(buf));
	pv_features_format(0, buf, 3);
	CHECK_STR(buf, "no");
	memset(buf, '#', sizeof(buf));
	pv_features_format(PV_FEATURES_ALL, buf, 1);
	CHECK_STR(buf, "");
	memset(buf, '#', sizeof(buf));
	pv_features_format(PV_FEATURES_ALL, buf, 0);
	CHECK_EQ(buf[0], '#');
	/* Exactly fits. */
	pv_features_format(PV_FEATURES_ALL, buf, 37);
	CHECK_STR(buf, "clock,steal,eoi,unhalt,tlb,ipi,yield");
}

int main(void)
{
	test_names();
	test_syntax();
	test_errors();
	test_format();
	return test_summary();
}
