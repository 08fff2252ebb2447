/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for boot/config.c. Every input is copied into a buffer of exactly its
 * length, so ASan catches any read past the end (the parser must not need a NUL). */
#include <stdlib.h>
#include "../../../boot/config.c"
#include "../../../hv/pv_features.c"
#include "../test.h"

static struct hv_config cfg;
static struct cfg_error err;

static int parse_n(const char *text, size_t len)
{
	char *buf = malloc(len ? len : 1);
	int r;

	memcpy(buf, text, len);
	r = config_parse(buf, len, &cfg, &err);
	free(buf);
	return r;
}

static int parse(const char *text) { return parse_n(text, strlen(text)); }

#define CHECK_ERR(text, ln, m)             \
	do {                               \
		CHECK_EQ(parse(text), -1); \
		CHECK_EQ(err.line, ln);    \
		CHECK_STR(err.msg, m);     \
	} while (0)

static const char *repeat(char c, size_t n)
{
	static char buf[200000];

	memset(buf, c, n);
	buf[n] = 0;
	return buf;
}

static void test_full(void)
{
	static const char text[] =
		"# hv configuration\n"
		"; another comment style\n"
		"\n"
		"[hv]\n"
		"pcpus = 4\n"
		"console = linux1   # second VM first\n"
		"\n"
		"[vm linux0]\n"
		"  kernel = \\EFI\\hv\\vmlinux\n"
		"initrd=\\EFI\\hv\\initrd.gz\n"
		"cmdline = console=ttyS0 root=/dev/ram0 a#b  # trailing comment\n"
		"vcpus = 2   # two\n"
		"memory = 512M\n"
		"[vm linux1]\t# header comment\n"
		"kernel =vmlinux-2\n"
		"vcpus=0x40\n"
		"memory = 1g\n";

	CHECK_EQ(parse(text), 0);
	CHECK_EQ(cfg.pcpus, 4);
	CHECK_STR(cfg.console, "linux1");
	CHECK_EQ(cfg.nvms, 2);
	CHECK_STR(cfg.vms[0].name, "linux0");
	CHECK_STR(cfg.vms[0].kernel, "\\EFI\\hv\\vmlinux");
	CHECK_STR(cfg.vms[0].initrd[0], "\\EFI\\hv\\initrd.gz");
	CHECK_STR(cfg.vms[0].cmdline, "console=ttyS0 root=/dev/ram0 a#b");
	CHECK_EQ(cfg.vms[0].vcpus, 2);
	CHECK_EQ(cfg.vms[0].memory, 512 * MiB);
	CHECK_EQ(cfg.vms[0].line, 8);
	CHECK_STR(cfg.vms[1].name, "linux1");
	CHECK_STR(cfg.vms[1].kernel, "vmlinux-2");
	CHECK_STR(cfg.vms[1].initrd[0], "");
	CHECK_STR(cfg.vms[1].cmdline, "");
	CHECK_EQ(cfg.vms[1].vcpus, 64);
	CHECK_EQ(cfg.vms[1].memory, GiB);
	CHECK_EQ(cfg.vms[1].line, 14);
	CHECK_EQ(err.line, 0);
	CHECK_STR(err.msg, "");
}

static void test_defaults_and_syntax(void)
{
	/* Defaults, no [hv], no trailing newline. */
	CHECK_EQ(parse("[vm a]\nkernel = k"), 0);
	CHECK_EQ(cfg.pcpus, 0);
	CHECK_STR(cfg.console, "a");
	CHECK_EQ(cfg.sched, SCHED_AWARE);
	CHECK_EQ(cfg.nvms, 1);
	CHECK_EQ(cfg.vms[0].vcpus, 1);
	CHECK_EQ(cfg.vms[0].memory, 256 * MiB);
	CHECK_EQ(cfg.vms[0].pv, PV_FEATURES_ALL);
	CHECK_STR(cfg.vms[0].kernel, "k");
	CHECK_STR(cfg.vms[0].initrd[0], "");
	CHECK_STR(cfg.vms[0].cmdline, "");

	/* CRLF, blank lines with only whitespace, trailing whitespace. */
	CHECK_EQ(parse("\r\n  \t \r\n[vm a]\r\nkernel = k  \r\ncmdline = x y\r\n\r\n"
		       "[vm b]\r\nkernel=z"),
		 0);
	CHECK_EQ(cfg.nvms, 2);
	CHECK_STR(cfg.vms[0].kernel, "k");
	CHECK_STR(cfg.vms[0].cmdline, "x y");
	CHECK_EQ(cfg.vms[0].line, 3);
	CHECK_STR(cfg.vms[1].kernel, "z");
	CHECK_EQ(cfg.vms[1].line, 7);
	CHECK_EQ(parse("[vm a]\r\nkernel = k\r\n"), 0);
	CHECK_STR(cfg.vms[0].kernel, "k");
	CHECK_ERR("[vm a]\r\nkernel = k\r\nvcpus = x\r\n", 3,
		  "bad value 'x' for vcpus: expected a number 1..255");

	/* UTF-8 byte order mark. */
	CHECK_EQ(parse("\xef\xbb\xbf[vm a]\nkernel=k\n"), 0);

	/* Spaces around '=' are optional; '=' inside a value is kept. */
	CHECK_EQ(parse("[vm a]\nkernel=/k\ncmdline =root=/dev/vda console=ttyS0,115200\n"), 0);
	CHECK_STR(cfg.vms[0].kernel, "/k");
	CHECK_STR(cfg.vms[0].cmdline, "root=/dev/vda console=ttyS0,115200");

	/* Comments: '#' only after whitespace; ';' only at line start. */
	CHECK_EQ(parse("[vm a]\nkernel=k#1\ncmdline = a;b #c\n  # indented comment\n  ; x\n"), 0);
	CHECK_STR(cfg.vms[0].kernel, "k#1");
	CHECK_STR(cfg.vms[0].cmdline, "a;b");
	CHECK_EQ(parse("[vm a]\nkernel=k\ncmdline = a\t#tab comment\n"), 0);
	CHECK_STR(cfg.vms[0].cmdline, "a");

	/* Empty cmdline is allowed (no arguments). */
	CHECK_EQ(parse("[vm a]\nkernel=k\ncmdline =\n"), 0);
	CHECK_STR(cfg.vms[0].cmdline, "");

	/* Section header spacing; [hv] after the VMs; console given before its VM. */
	CHECK_EQ(parse("[ vm \t a-B_9 ]\nkernel=k\n[vm z]\nkernel=k\n[ hv ]\nconsole=z\n"), 0);
	CHECK_STR(cfg.vms[0].name, "a-B_9");
	CHECK_STR(cfg.console, "z");

	/* The parser must stop at len, not at a NUL. */
	static const char trailing[] = "[vm a]\nkernel = k\nGARBAGE";
	CHECK_EQ(parse_n(trailing, sizeof(trailing) - 1 - 7), 0);
	CHECK_STR(cfg.vms[0].kernel, "k");
	CHECK_EQ(parse_n(trailing, 13), -1); /* cut after "kernel" */
	CHECK_EQ(err.line, 2);
	CHECK_STR(err.msg, "line is not 'key = value'");
}

static void test_numbers(void)
{
	static const struct {
		const char *v;
		u64 mem; /* 0: error */
	} mem[] = {
		{ "16M", 16 * MiB },
		{ "16m", 16 * MiB },
		{ "64G", 64 * GiB },
		{ "64g", 64 * GiB },
		{ "16384k", 16 * MiB },
		{ "16384K", 16 * MiB },
		{ "0x1000000", 16 * MiB },
		{ "0X1000000", 16 * MiB },
		{ "0x400M", GiB },
		{ "18M", 18 * MiB },
		{ "18874368", 18 * MiB },
		{ "16781312", 0 }, /* 16M + 4K: not a multiple of 2M */
		{ "17M", 0 },
		{ "2049M", 0 },
		{ "000000000000000000000000000000000000016M", 16 * MiB },
		{ "15M", 0 },
		{ "16777215", 0 },
		{ "16777217", 0 }, /* not a multiple of 4K either */
		{ "16781313", 0 },
		{ "65G", 0 },
		{ "68719476740", 0 }, /* 64G + 4 */
		{ "1T", 0 },
		{ "16MB", 0 },
		{ "16 M", 0 },
		{ "M", 0 },
		{ "0x", 0 },
		{ "0xM", 0 },
		{ "-16M", 0 },
		{ "+16M", 0 },
		{ "16.5M", 0 },
		{ "18446744073709551616", 0 }, /* 2^64 */
		{ "18446744073709551615", 0 },
		{ "0x10000000000000000", 0 },
		{ "17179869184G", 0 }, /* 2^64 after the shift */
		{ "0xffffffffffffffffk", 0 },
		{ "99999999999999999999999999", 0 },
	};
	char text[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mem); i++) {
		snprintf(text, sizeof(text), "[vm a]\nkernel=k\nmemory = %s\n", mem[i].v);
		if (mem[i].mem) {
			CHECK_EQ(parse(text), 0);
			CHECK_EQ(cfg.vms[0].memory, mem[i].mem);
		} else {
			char msg[160];

			snprintf(msg, sizeof(msg),
				 "bad value '%s' for memory: expected a size 16M..64G, a multiple "
				 "of 2M",
				 mem[i].v);
			CHECK_ERR(text, 3, msg);
		}
	}

	static const struct {
		const char *v;
		u32 n; /* 0: error */
	} vcpus[] = {
		{ "1", 1 },	{ "255", 255 }, { "0xff", 255 },     { "0x1", 1 },
		{ "007", 7 },	{ "0xA", 10 },	{ "0", 0 },	     { "256", 0 },
		{ "0x100", 0 }, { "abc", 0 },	{ "1a", 0 },	     { "0x", 0 },
		{ "-1", 0 },	{ "1k", 0 },	{ "4294967297", 0 }, { "18446744073709551617", 0 },
		{ "0x1g", 0 },	{ "2 2", 0 },
	};
	for (i = 0; i < ARRAY_SIZE(vcpus); i++) {
		snprintf(text, sizeof(text), "[vm a]\nkernel=k\nvcpus = %s\n", vcpus[i].v);
		if (vcpus[i].n) {
			CHECK_EQ(parse(text), 0);
			CHECK_EQ(cfg.vms[0].vcpus, vcpus[i].n);
		} else {
			char msg[160];

			snprintf(msg, sizeof(msg),
				 "bad value '%s' for vcpus: expected a number 1..255", vcpus[i].v);
			CHECK_ERR(text, 3, msg);
		}
	}

	CHECK_EQ(parse("[hv]\npcpus=256\n[vm a]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.pcpus, 256);
	CHECK_EQ(parse("[hv]\npcpus=1\n[vm a]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.pcpus, 1);
	CHECK_ERR("[hv]\npcpus=257\n[vm a]\nkernel=k\n", 2,
		  "bad value '257' for pcpus: expected a number 1..256");
	CHECK_ERR("[hv]\npcpus=0\n[vm a]\nkernel=k\n", 2,
		  "bad value '0' for pcpus: expected a number 1..256");
	CHECK_ERR("[hv]\npcpus=all\n[vm a]\nkernel=k\n", 2,
		  "bad value 'all' for pcpus: expected a number 1..256");
}

static void test_errors(void)
{
	CHECK_ERR("[vm linux0]\nkernel=k\nvpcus = 2\n", 3, "unknown key 'vpcus' in [vm linux0]");
	CHECK_ERR("[hv]\nkernel = k\n", 2, "unknown key 'kernel' in [hv]");
	CHECK_ERR("[vm a]\nKernel = k\n", 2, "unknown key 'Kernel' in [vm a]");
	CHECK_ERR("[vm a]\nkernel = k\nvcpus = abc\n", 3,
		  "bad value 'abc' for vcpus: expected a number 1..255");
	CHECK_ERR("[vm a]\nkernel = k\nkernel = j\n", 3, "duplicate key 'kernel'");
	CHECK_ERR("[vm a]\nkernel = k\ncmdline=\ncmdline=x\n", 4, "duplicate key 'cmdline'");
	CHECK_ERR("[hv]\npcpus=1\npcpus=1\n[vm a]\nkernel=k\n", 3, "duplicate key 'pcpus'");
	CHECK_ERR("# c\nkernel = k\n[vm a]\n", 2, "key outside of a section");
	CHECK_ERR("[foo]\n", 1, "unknown section '[foo]'");
	CHECK_ERR("[vma]\n", 1, "unknown section '[vma]'");
	CHECK_ERR("[]\n", 1, "unknown section '[]'");
	CHECK_ERR("[HV]\n", 1, "unknown section '[HV]'");
	CHECK_ERR("[vm a\nkernel=k\n", 1,
		  "bad section header '[vm a': expected '[hv]', '[net]' or '[vm NAME]'");
	CHECK_ERR("[vm a]x\n", 1,
		  "bad section header '[vm a]x': expected '[hv]', '[net]' or '[vm NAME]'");
	CHECK_ERR("[\n", 1, "bad section header '[': expected '[hv]', '[net]' or '[vm NAME]'");
	CHECK_ERR("[vm]\n", 1, "missing VM name in '[vm NAME]'");
	CHECK_ERR("[vm   ]\n", 1, "missing VM name in '[vm NAME]'");
	CHECK_ERR("[vm a b]\n", 1,
		  "bad VM name 'a b': expected 1..31 characters of A-Z a-z 0-9 _ -");
	CHECK_ERR("[vm a.b]\n", 1,
		  "bad VM name 'a.b': expected 1..31 characters of A-Z a-z 0-9 _ -");
	CHECK_ERR("[vm a]\nkernel=k\n[vm b]\nkernel=k\n[vm a]\n", 5, "duplicate VM name 'a'");
	CHECK_ERR("[hv]\n[vm a]\nkernel=k\n[hv]\n", 4, "duplicate [hv] section");
	CHECK_ERR("[vm a]\nkernel\n", 2, "line is not 'key = value'");
	CHECK_ERR("[vm a]\n= k\n", 2, "line is not 'key = value'");
	CHECK_ERR("[vm a]\njust some words\n", 2, "line is not 'key = value'");
	CHECK_ERR("kernel\n", 1, "line is not 'key = value'");
	CHECK_ERR("[vm a]\nkernel =\n", 2, "empty value for kernel");
	CHECK_ERR("[vm a]\nkernel =   # nothing\n", 2, "empty value for kernel");
	CHECK_ERR("[vm a]\nkernel=k\ninitrd=\n", 3, "empty value for initrd");
	CHECK_ERR("[vm a]\nkernel=k\nvcpus=\n", 3, "empty value for vcpus");
	CHECK_ERR("[vm a]\nkernel=k\nmemory=\n", 3, "empty value for memory");
	CHECK_ERR("[hv]\nconsole=\n", 2, "empty value for console");
	CHECK_ERR("[hv]\npcpus= \t\n", 2, "empty value for pcpus");

	/* Whole-file checks. */
	CHECK_ERR("", 0, "no [vm ...] section");
	CHECK_ERR("# only a comment\n\n", 0, "no [vm ...] section");
	CHECK_ERR("[hv]\npcpus = 2\n", 0, "no [vm ...] section");
	CHECK_ERR("[vm a]\nkernel=k\n\n[vm b]\ninitrd=i\n[vm c]\nkernel=k\n", 4,
		  "[vm b] has no kernel");
	CHECK_ERR("[vm a]\n", 1, "[vm a] has no kernel");
	CHECK_ERR("[hv]\nconsole = b\n[vm a]\nkernel=k\n", 2, "console 'b' is not a configured VM");
	CHECK_ERR("[hv]\nconsole = A\n[vm a]\nkernel=k\n", 2, "console 'A' is not a configured VM");

	/* NUL bytes, reported at their line. */
	CHECK_EQ(parse_n("[vm a]\nkernel=k\0x\n", 17), -1);
	CHECK_EQ(err.line, 2);
	CHECK_STR(err.msg, "NUL byte in file");
	CHECK_EQ(parse_n("\0", 1), -1);
	CHECK_EQ(err.line, 1);
	CHECK_STR(err.msg, "NUL byte in file");
	CHECK_EQ(parse_n("[vm a]\nkernel=k\n\n\n\0", 19), -1);
	CHECK_EQ(err.line, 5);
	CHECK_STR(err.msg, "NUL byte in file");
	CHECK_EQ(parse_n("\xff\xfe[\0v\0m\0", 8), -1);
	CHECK_EQ(err.line, 1);
	CHECK(!strncmp(err.msg, "NUL byte in file", 16));

	/* Too many VMs: the ninth header is the error. */
	char text[1024] = "";
	int i;
	for (i = 0; i < 9; i++) {
		char s[64];

		snprintf(s, sizeof(s), "[vm v%d]\nkernel = k%d\n", i, i);
		strcat(text, s);
	}
	CHECK_ERR(text, 17, "too many VMs (max 8)");
	text[strlen(text) - strlen("[vm v8]\nkernel = k8\n")] = 0;
	CHECK_EQ(parse(text), 0);
	CHECK_EQ(cfg.nvms, 8);
	CHECK_STR(cfg.vms[7].name, "v7");
	CHECK_STR(cfg.vms[7].kernel, "k7");

	/* A failed parse leaves nothing behind, and err may be NULL. */
	CHECK_EQ(parse("[vm a]\nkernel=k\nbad\n"), -1);
	CHECK_EQ(cfg.nvms, 0);
	CHECK_STR(cfg.vms[0].name, "");
	CHECK_EQ(config_parse("junk", 4, &cfg, NULL), -1);
	CHECK_EQ(config_parse("[vm a]\nkernel=k", 15, &cfg, NULL), 0);
}

static void test_lengths(void)
{
	static char text[300000];
	char msg[160];

	/* VM names: 31 characters fit, 32 do not. */
	snprintf(text, sizeof(text), "[vm %s]\nkernel=k\n", repeat('n', 31));
	CHECK_EQ(parse(text), 0);
	CHECK_EQ(strlen(cfg.vms[0].name), 31);
	CHECK_STR(cfg.console, cfg.vms[0].name);
	snprintf(text, sizeof(text), "[vm %s]\nkernel=k\n", repeat('n', 32));
	snprintf(msg, sizeof(msg), "bad VM name '%s': expected 1..31 characters of A-Z a-z 0-9 _ -",
		 repeat('n', 32));
	CHECK_ERR(text, 1, msg);

	/* Paths: 127 fit, 128 do not. */
	snprintf(text, sizeof(text), "[vm a]\nkernel=%s\ninitrd=%s\n", repeat('k', 127),
		 repeat('i', 127));
	CHECK_EQ(parse(text), 0);
	CHECK_EQ(strlen(cfg.vms[0].kernel), 127);
	CHECK_EQ(strlen(cfg.vms[0].initrd[0]), 127);
	snprintf(text, sizeof(text), "[vm a]\nkernel=%s\n", repeat('k', 128));
	CHECK_ERR(text, 2, "value too long for kernel (max 127 characters)");
	snprintf(text, sizeof(text), "[vm a]\nkernel=k\ninitrd=%s\n", repeat('i', 128));
	CHECK_ERR(text, 3, "value too long for initrd (max 127 characters)");

	/* cmdline: 1023 fit, 1024 do not; trailing comment and spaces do not count. */
	snprintf(text, sizeof(text), "[vm a]\nkernel=k\ncmdline = %s    # comment\n",
		 repeat('c', 1023));
	CHECK_EQ(parse(text), 0);
	CHECK_EQ(strlen(cfg.vms[0].cmdline), 1023);
	snprintf(text, sizeof(text), "[vm a]\nkernel=k\ncmdline = %s\n", repeat('c', 1024));
	CHECK_ERR(text, 3, "value too long for cmdline (max 1023 characters)");
	snprintf(text, sizeof(text), "[vm a]\nkernel=k\ncmdline = %s\n", repeat('c', 200000 - 1));
	CHECK_ERR(text, 3, "value too long for cmdline (max 1023 characters)");

	/* Console name longer than any VM name. */
	snprintf(text, sizeof(text), "[hv]\nconsole=%s\n[vm a]\nkernel=k\n", repeat('c', 32));
	CHECK_ERR(text, 2, "value too long for console (max 31 characters)");

	/* Very long garbage is cut short in the message. */
	snprintf(text, sizeof(text), "[vm a]\n%s = 1\n", repeat('x', 100000));
	snprintf(msg, sizeof(msg), "unknown key '%s...' in [vm a]", repeat('x', 45));
	CHECK_ERR(text, 2, msg);
	snprintf(text, sizeof(text), "[vm a]\nvcpus = %s\n", repeat('9', 150000));
	snprintf(msg, sizeof(msg), "bad value '%s...' for vcpus: expected a number 1..255",
		 repeat('9', 45));
	CHECK_ERR(text, 2, msg);
	snprintf(text, sizeof(text), "[%s]\n", repeat('s', 100000));
	CHECK_EQ(parse(text), -1);
	CHECK(strlen(err.msg) < sizeof(err.msg) - 1);
	CHECK(strstr(err.msg, "...") != NULL);
	snprintf(text, sizeof(text), "%s\n", repeat('w', 200000 - 1));
	CHECK_ERR(text, 1, "line is not 'key = value'");

	/* Unprintable bytes are not echoed into messages. */
	CHECK_ERR("[vm a]\nkernel=k\nvcpus=\x1b[2J\x7f\n", 3,
		  "bad value '?[2J?' for vcpus: expected a number 1..255");
}

#define PV_KNOWN_MSG "(known: clock steal eoi unhalt tlb ipi yield preempt all none)"

static void test_pv(void)
{
	char text[512];
	char msg[160];

	/* Default: every feature, in every VM. */
	CHECK_EQ(parse("[vm a]\nkernel=k\n[vm b]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.vms[0].pv, PV_FEATURES_ALL);
	CHECK_EQ(cfg.vms[1].pv, PV_FEATURES_ALL);
	CHECK_EQ(PV_FEATURES_ALL, 0xff);

	CHECK_EQ(parse("[vm a]\nkernel=k\npv = none\n"), 0);
	CHECK_EQ(cfg.vms[0].pv, 0);
	CHECK_EQ(parse("[vm a]\nkernel=k\npv = all,-ipi\n"), 0);
	CHECK_EQ(cfg.vms[0].pv, PV_FEATURES_ALL & ~BIT(PV_IPI));
	CHECK_EQ(parse("[vm a]\nkernel=k\npv=all\n"), 0);
	CHECK_EQ(cfg.vms[0].pv, PV_FEATURES_ALL);
	CHECK_EQ(parse("[vm a]\nkernel=k\npv = clock, ipi   # two only\n"), 0);
	CHECK_EQ(cfg.vms[0].pv, BIT(PV_CLOCK) | BIT(PV_IPI));
	CHECK_EQ(parse("[vm a]\r\nkernel=k\r\npv = all, -tlb, -yield\r\n"), 0);
	CHECK_EQ(cfg.vms[0].pv, PV_FEATURES_ALL & ~(BIT(PV_TLB_FLUSH) | BIT(PV_YIELD)));

	/* Per VM: one VM's setting does not leak into the next. */
	CHECK_EQ(parse("[vm a]\nkernel=k\npv=none\n[vm b]\nkernel=k\n"
		       "[vm c]\nkernel=k\npv=steal\n"),
		 0);
	CHECK_EQ(cfg.vms[0].pv, 0);
	CHECK_EQ(cfg.vms[1].pv, PV_FEATURES_ALL);
	CHECK_EQ(cfg.vms[2].pv, BIT(PV_STEAL));

	/* Errors: line and reason. */
	CHECK_ERR("[vm a]\nkernel=k\n\npv = all,-ipx\n", 4,
		  "bad value for pv: unknown PV feature 'ipx' " PV_KNOWN_MSG);
	CHECK_ERR("[vm a]\nkernel=k\npv = fast\n[vm b]\nkernel=k\n", 3,
		  "bad value for pv: unknown PV feature 'fast' " PV_KNOWN_MSG);
	CHECK_ERR("[vm a]\nkernel=k\npv = clock,,ipi\n", 3,
		  "bad value for pv: empty item in PV feature list");
	CHECK_ERR("[vm a]\nkernel=k\npv = clock,\n", 3,
		  "bad value for pv: empty item in PV feature list");
	CHECK_ERR("[vm a]\nkernel=k\npv = -none\n", 3,
		  "bad value for pv: bad PV feature item '-none': '+' and '-' take a feature name");
	CHECK_ERR("[vm a]\nkernel=k\npv =\n", 3, "empty value for pv");
	CHECK_ERR("[vm a]\nkernel=k\npv = none\npv = all\n", 4, "duplicate key 'pv'");
	CHECK_ERR("[hv]\npv = all\n[vm a]\nkernel=k\n", 2, "unknown key 'pv' in [hv]");
	CHECK_ERR("[vm a]\nkernel=k\npv = \x1b[2J\n", 3,
		  "bad value for pv: unknown PV feature '?[2J' " PV_KNOWN_MSG);

	/* Long values: a long unknown name is cut short and the message still fits;
	 * 127 characters fit the value buffer, 128 do not. */
	snprintf(text, sizeof(text), "[vm a]\nkernel=k\npv = %s\n", repeat('z', 100));
	snprintf(msg, sizeof(msg), "bad value for pv: unknown PV feature '%s...' " PV_KNOWN_MSG,
		 repeat('z', 21));
	CHECK_ERR(text, 3, msg);
	CHECK(strlen(err.msg) < sizeof(err.msg) - 1);
	/* Blanks inside the value count: "ipi," + blanks + "ipi". */
	snprintf(text, sizeof(text), "[vm a]\nkernel=k\npv = ipi,%sipi\n", repeat(' ', 120));
	CHECK_EQ(parse(text), 0);
	CHECK_EQ(cfg.vms[0].pv, BIT(PV_IPI));
	snprintf(text, sizeof(text), "[vm a]\nkernel=k\npv = ipi,%sipi\n", repeat(' ', 121));
	CHECK_ERR(text, 3, "value too long for pv (max 127 characters)");
}

static void test_apicv(void)
{
	CHECK_EQ(parse("[vm a]\nkernel=k\n"), 0);
	CHECK(!cfg.vms[0].apicv_off);
	CHECK_EQ(parse("[vm a]\nkernel=k\napicv = off\n[vm b]\nkernel=k\napicv=auto\n"), 0);
	CHECK(cfg.vms[0].apicv_off);
	CHECK(!cfg.vms[1].apicv_off);
	CHECK_ERR("[vm a]\nkernel=k\napicv = no\n", 3,
		  "bad value 'no' for apicv: expected auto or off");
	CHECK_ERR("[hv]\napicv = off\n", 2, "unknown key 'apicv' in [hv]");
}

static void test_on_exit(void)
{
	CHECK_EQ(parse("[vm a]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.on_exit, ON_EXIT_POWEROFF);
	CHECK_EQ(parse("[hv]\non_exit = reboot\n[vm a]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.on_exit, ON_EXIT_REBOOT);
	CHECK_EQ(parse("[hv]\non_exit = halt # keep the console\n[vm a]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.on_exit, ON_EXIT_HALT);
	CHECK_EQ(parse("[hv]\non_exit=poweroff\n[vm a]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.on_exit, ON_EXIT_POWEROFF);
	CHECK_ERR("[hv]\non_exit = shutdown\n[vm a]\nkernel=k\n", 2,
		  "bad value 'shutdown' for on_exit: expected poweroff, reboot or halt");
	CHECK_ERR("[vm a]\nkernel=k\non_exit = halt\n", 3, "unknown key 'on_exit' in [vm a]");
}

/* selftest = yes: no [vm] section needed, none allowed (the self-test brings its own). */
static void test_selftest(void)
{
	CHECK_EQ(parse("[vm a]\nkernel=k\n"), 0);
	CHECK(!cfg.selftest);
	CHECK_EQ(parse("[hv]\nselftest = yes\n"), 0);
	CHECK(cfg.selftest);
	CHECK_EQ(cfg.nvms, 0);
	CHECK_EQ(cfg.selftest_line, 2);
	CHECK_EQ(parse("[hv]\nselftest = no\n[vm a]\nkernel=k\n"), 0);
	CHECK(!cfg.selftest);
	CHECK_ERR("[hv]\nselftest = no\n", 0, "no [vm ...] section");
	CHECK_ERR("[hv]\nselftest = on\n", 2, "bad value 'on' for selftest: expected yes or no");
	CHECK_ERR("[net]\nconsole = 1\n", 2, "bad value '1' for console: expected yes or no");
	CHECK_ERR("[net]\nhost = hv_lab\n", 2,
		  "bad value 'hv_lab' for host: expected a DNS name (letters, digits, '-' and "
		  "'.', at most 63 characters)");
	CHECK_ERR("[hv]\nselftest = yes\n\n[vm a]\nkernel=k\n", 4,
		  "selftest = yes (line 2) runs its own VMs: no [vm ...] section with it");
}

static void test_serial(void)
{
	CHECK_EQ(parse("[vm a]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.serial.kind, SERIAL_DEFAULT);
	CHECK_EQ(cfg.serial.baud, 0);
	CHECK_EQ(parse("[hv]\nserial = com2\n[vm a]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.serial.kind, SERIAL_IO);
	CHECK_EQ(cfg.serial.addr, 0x2F8);
	CHECK_EQ(cfg.serial.line, 2);
	CHECK_EQ(parse("[hv]\nserial = com4\nbaud = 9600\n[vm a]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.serial.addr, 0x2E8);
	CHECK_EQ(cfg.serial.baud, 9600);
	static const struct {
		const char *v;
		enum serial_kind kind;
		u64 addr;
		u8 reg_bytes;
	} forms[] = {
		{ "0x3e8", SERIAL_IO, 0x3E8, 0 },
		{ "mmio@0x9000000", SERIAL_MMIO, 0x9000000, 1 },
		{ "mmio32@0xfedc9000", SERIAL_MMIO, 0xFEDC9000, 4 },
		{ "mmio16@0x1000", SERIAL_MMIO, 0x1000, 2 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(forms); i++) {
		char text[96];
		snprintf(text, sizeof text, "[hv]\nserial = %s\n[vm a]\nkernel=k\n", forms[i].v);
		CHECK_EQ(parse(text), 0);
		CHECK_EQ(cfg.serial.kind, forms[i].kind);
		CHECK_EQ(cfg.serial.addr, forms[i].addr);
		CHECK_EQ(cfg.serial.reg_bytes, forms[i].reg_bytes);
	}
	CHECK_ERR("[hv]\nserial = mmio64@0x1000\n[vm a]\nkernel=k\n", 2,
		  "bad value 'mmio64@0x1000' for serial: expected com1..com4, an I/O port (0x2f8), "
		  "mmio@ADDR, mmio16@ADDR or mmio32@ADDR");
	CHECK_EQ(parse("[hv]\nbaud = 57600\n[vm a]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.serial.kind, SERIAL_DEFAULT);
	CHECK_EQ(cfg.serial.baud, 57600);
	CHECK_EQ(cfg.serial.line, 2);
	CHECK_ERR("[hv]\nserial = com5\n[vm a]\nkernel=k\n", 2,
		  "bad value 'com5' for serial: expected com1..com4, an I/O port (0x2f8), "
		  "mmio@ADDR, mmio16@ADDR or mmio32@ADDR");
	CHECK_ERR("[hv]\nserial = 0x10000\n[vm a]\nkernel=k\n", 2,
		  "bad value '0x10000' for serial: expected com1..com4, an I/O port (0x2f8), "
		  "mmio@ADDR, mmio16@ADDR or mmio32@ADDR");
	CHECK_ERR("[hv]\nserial = mmio@\n[vm a]\nkernel=k\n", 2,
		  "bad value 'mmio@' for serial: expected com1..com4, an I/O port (0x2f8), "
		  "mmio@ADDR, mmio16@ADDR or mmio32@ADDR");
	CHECK_ERR("[hv]\nbaud = 100000\n[vm a]\nkernel=k\n", 2,
		  "baud 100000: a 16550 runs at 115200 divided by a whole number (115200, 57600, "
		  "38400, 19200, 9600, ...)");
	CHECK_ERR("[hv]\nbaud = 230400\n[vm a]\nkernel=k\n", 2,
		  "bad value '230400' for baud: expected a number 1..115200");
	CHECK_ERR("[vm a]\nkernel=k\nserial = com1\n", 3, "unknown key 'serial' in [vm a]");
}

static void test_sched(void)
{
	CHECK_EQ(parse("[hv]\nsched = rr\n[vm a]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.sched, SCHED_RR);
	CHECK_EQ(parse("[vm a]\nkernel=k\n[hv]\nsched=aware # the default, said\n"), 0);
	CHECK_EQ(cfg.sched, SCHED_AWARE);
	CHECK_ERR("[hv]\nsched = cfs\n[vm a]\nkernel=k\n", 2,
		  "bad value 'cfs' for sched: expected aware or rr");
	CHECK_ERR("[hv]\nsched = RR\n[vm a]\nkernel=k\n", 2,
		  "bad value 'RR' for sched: expected aware or rr");
	CHECK_ERR("[hv]\npcpus=2\nsched=\n", 3, "empty value for sched");
	CHECK_ERR("[hv]\nsched=rr\nsched=rr\n[vm a]\nkernel=k\n", 3, "duplicate key 'sched'");
	CHECK_ERR("[vm a]\nkernel=k\nsched=rr\n", 3, "unknown key 'sched' in [vm a]");
}

static void test_vm_pcpus(void)
{
	CHECK_EQ(parse("[vm a]\nkernel=k\n"), 0);
	CHECK(pcpu_set_empty(&cfg.vms[0].pcpu_set)); /* any */
	CHECK_EQ(parse("[hv]\npcpus = 4\n[vm a]\nkernel=k\npcpus = 0-1, 3\n"), 0);
	CHECK_EQ(cfg.pcpus, 4);
	CHECK_EQ(cfg.vms[0].pcpu_set.w[0], 0xBull);
	CHECK_EQ(cfg.vms[0].pcpus_line, 5);
	CHECK_EQ(parse("[vm a]\nkernel=k\npcpus = 63,2-2,0x10\n"), 0);
	CHECK_EQ(cfg.vms[0].pcpu_set.w[0], BIT(63) | BIT(2) | BIT(16));
	CHECK_EQ(parse("[vm a]\nkernel=k\npcpus = 0-63\n"), 0);
	CHECK_EQ(cfg.vms[0].pcpu_set.w[0], ~0ull);
	CHECK_EQ(cfg.vms[0].pcpu_set.w[1], 0);
	CHECK_EQ(parse("[vm a]\nkernel=k\npcpus = 64, 190-191, 255\n"),
		 0); /* a 2-socket server's */
	CHECK_EQ(cfg.vms[0].pcpu_set.w[0], 0);
	CHECK_EQ(cfg.vms[0].pcpu_set.w[1], 1);
	CHECK_EQ(cfg.vms[0].pcpu_set.w[2], 3ull << 62);
	CHECK_EQ(cfg.vms[0].pcpu_set.w[3], BIT(63));
	CHECK_ERR("[vm a]\nkernel=k\npcpus = 256\n", 3,
		  "pCPU 256 in pcpus: this build runs pCPUs 0..255");
	CHECK_ERR("[vm a]\nkernel=k\npcpus = 3-1\n", 3,
		  "bad item '3-1' in pcpus: expected N or N-M (N <= M), e.g. 0-3,6");
	CHECK_ERR("[vm a]\nkernel=k\npcpus = 1,,2\n", 3,
		  "bad item '' in pcpus: expected N or N-M (N <= M), e.g. 0-3,6");
	CHECK_ERR("[vm a]\nkernel=k\npcpus = 1-\n", 3,
		  "bad item '1-' in pcpus: expected N or N-M (N <= M), e.g. 0-3,6");
	CHECK_ERR("[vm a]\nkernel=k\npcpus = two\n", 3,
		  "bad item 'two' in pcpus: expected N or N-M (N <= M), e.g. 0-3,6");
	CHECK_ERR("[vm a]\nkernel=k\npcpus = 0\npcpus = 1\n", 4, "duplicate key 'pcpus'");
	CHECK_ERR("[vm a]\nkernel=k\npcpus =\n", 3, "empty value for pcpus");
	/* [hv] pcpus stays a count. */
	CHECK_ERR("[hv]\npcpus = 0-1\n[vm a]\nkernel=k\n", 2,
		  "bad value '0-1' for pcpus: expected a number 1..256");
}

static void test_net(void)
{
	CHECK_EQ(parse("[vm a]\nkernel=k\n"), 0);
	CHECK(!cfg.net.enabled);
	CHECK_EQ(parse("[net]\n[vm a]\nkernel=k\n"), 0);
	CHECK(cfg.net.enabled && cfg.net.dhcp && !cfg.net.has_gateway);
	CHECK_EQ(cfg.net.port, 80);
	CHECK_EQ(cfg.net.line, 1);
	CHECK(!cfg.net.console && !cfg.net.host[0]); /* consoles not served by default */
	CHECK_EQ(parse("[net]\nconsole = yes\nhost = hv-lab-3.example.org\n[vm a]\nkernel=k\n"), 0);
	CHECK(cfg.net.console);
	CHECK_STR(cfg.net.host, "hv-lab-3.example.org");
	CHECK_EQ(parse("[hv]\nconsole = a\n[net]\nconsole = no\n[vm a]\nkernel=k\n"), 0);
	CHECK(!cfg.net.console);
	CHECK_STR(cfg.console, "a"); /* [hv]'s console is another key */
	CHECK_EQ(parse("[vm a]\nkernel=k\n[net]\naddress = 192.168.7.20/24\n"
		       "gateway = 192.168.7.1\nport = 8080\n"),
		 0);
	CHECK(cfg.net.enabled && !cfg.net.dhcp && cfg.net.has_gateway);
	CHECK(!memcmp(cfg.net.ip, "\xc0\xa8\x07\x14", 4) && cfg.net.prefix == 24);
	CHECK(!memcmp(cfg.net.gateway, "\xc0\xa8\x07\x01", 4));
	CHECK_EQ(cfg.net.port, 8080);
	CHECK_EQ(parse("[net]\naddress = dhcp\n[vm a]\nkernel=k\n"), 0);
	CHECK(cfg.net.dhcp);
	static const char *const bad_address[] = { "10.0.0.1",	  "10.0.0.1/",	 "10.0.0.1/31",
						   "10.0.0.1/0",  "10.0.0/8",	 "10.0.0.256/8",
						   "1.2.3.4.5/8", "10.0.0.1/8x", "DHCP" };
	for (size_t i = 0; i < ARRAY_SIZE(bad_address); i++) {
		char text[64], msg[160];
		snprintf(text, sizeof text, "[net]\naddress = %s\n[vm a]\nkernel=k\n",
			 bad_address[i]);
		snprintf(msg, sizeof msg,
			 "bad value for address '%s': expected dhcp or A.B.C.D/N (N 1..30)",
			 bad_address[i]);
		CHECK_ERR(text, 2, msg);
	}
	CHECK_ERR("[net]\ngateway = 10.0.0\n", 2,
		  "bad value for gateway '10.0.0': expected A.B.C.D");
	CHECK_ERR("[net]\ngateway = 10.0.0.1 x\n", 2,
		  "bad value for gateway '10.0.0.1 x': expected A.B.C.D");
	CHECK_ERR("[net]\ngateway = 10.0.2.2\n[vm a]\nkernel=k\n", 1,
		  "[net] has a gateway but no static address");
	CHECK_ERR("[net]\nport = 0\n", 2, "bad value '0' for port: expected a number 1..65535");
	CHECK_ERR("[net]\nport = 65536\n", 2,
		  "bad value '65536' for port: expected a number 1..65535");
	CHECK_ERR("[net]\n[net]\n", 2, "duplicate [net] section");
	CHECK_ERR("[net]\nkernel = k\n", 2, "unknown key 'kernel' in [net]");
	CHECK_ERR("[hv]\naddress = dhcp\n", 2, "unknown key 'address' in [hv]");
}

/* allow = CIDR, ...: networks and hosts, up to 8; each bad item named. */
static void test_net_allow(void)
{
	CHECK_EQ(parse("[net]\n[vm a]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.net.nallow, 0);
	CHECK_EQ(parse("[net]\nallow = 10.0.0.0/8, 192.0.2.7 ,0.0.0.0/0\n[vm a]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.net.nallow, 3);
	CHECK(!memcmp(cfg.net.allow[0].ip, "\x0a\0\0\0", 4) && cfg.net.allow[0].prefix == 8);
	CHECK(!memcmp(cfg.net.allow[1].ip, "\xc0\0\x02\x07", 4) && cfg.net.allow[1].prefix == 32);
	CHECK(cfg.net.allow[2].prefix == 0);
	CHECK_EQ(parse("[net]\nallow = 1.0.0.1,1.0.0.2,1.0.0.3,1.0.0.4,1.0.0.5,1.0.0.6,1.0.0.7,"
		       "1.0.0.8\n[vm a]\nkernel=k\n"),
		 0);
	CHECK_EQ(cfg.net.nallow, 8);
	CHECK_ERR("[net]\nallow = 1.0.0.1,1.0.0.2,1.0.0.3,1.0.0.4,1.0.0.5,1.0.0.6,1.0.0.7,"
		  "1.0.0.8,1.0.0.9\n",
		  2, "allow: more than 8 networks");
	CHECK_ERR("[net]\nallow = 1.0.0.1,1.0.0.2,1.0.0.3,1.0.0.4,1.0.0.5,1.0.0.6,1.0.0.7,"
		  "1.0.0.8,\n",
		  2,
		  "bad value '' for allow: expected A.B.C.D or A.B.C.D/N (N 0..32), separated by "
		  "commas");
	static const char *const bad[] = { "10.0.0.0/33",  "10.0.0/8",	   "10.0.0.1/",
					   "host.lab",	   "10.0.0.1/8x",  "",
					   "10.0.0.0/0x8", "10.0.0.0/008", "10.0.0.0/-1" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char text[64], msg[160];
		snprintf(text, sizeof text, "[net]\nallow = 192.0.2.1, %s\n", bad[i]);
		snprintf(msg, sizeof msg,
			 "bad value '%s' for allow: expected A.B.C.D or A.B.C.D/N (N 0..32), "
			 "separated by commas",
			 bad[i]);
		CHECK_ERR(text, 2, msg);
	}
}

/* initrd = A, B, ...: a multiboot kernel's modules; one path as before. */
static void test_initrds(void)
{
	char text[2048];
	CHECK_EQ(parse("[vm a]\nkernel=k\ninitrd = /i.gz\n"), 0);
	CHECK_EQ(cfg.vms[0].ninitrds, 1);
	CHECK_STR(cfg.vms[0].initrd[0], "/i.gz");
	CHECK_EQ(cfg.vms[0].initrd_line, 3);
	CHECK_EQ(parse("[vm a]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.vms[0].ninitrds, 0);
	CHECK_EQ(parse("[vm a]\nkernel=k\ninitrd = /a.bin ,/b b.bin,  c\t\n"), 0);
	CHECK_EQ(cfg.vms[0].ninitrds, 3);
	CHECK_STR(cfg.vms[0].initrd[0], "/a.bin");
	CHECK_STR(cfg.vms[0].initrd[1], "/b b.bin");
	CHECK_STR(cfg.vms[0].initrd[2], "c");
	CHECK_ERR("[vm a]\nkernel=k\ninitrd = a,,b\n", 3,
		  "empty file name in initrd (files are separated by commas)");
	CHECK_ERR("[vm a]\nkernel=k\ninitrd = a,\n", 3,
		  "empty file name in initrd (files are separated by commas)");
	CHECK_ERR("[vm a]\nkernel=k\ninitrd = ,a\n", 3,
		  "empty file name in initrd (files are separated by commas)");
	CHECK_ERR("[vm a]\nkernel=k\ninitrd = a\ninitrd = b\n", 4, "duplicate key 'initrd'");
	CHECK_EQ(parse("[vm a]\nkernel=k\ninitrd = 1,2,3,4,5,6,7,8\n"), 0);
	CHECK_EQ(cfg.vms[0].ninitrds, CFG_MAX_INITRDS);
	CHECK_STR(cfg.vms[0].initrd[7], "8");
	CHECK_ERR("[vm a]\nkernel=k\ninitrd = 1,2,3,4,5,6,7,8,9\n", 3,
		  "too many files in initrd (max 8)");
	snprintf(text, sizeof(text), "[vm a]\nkernel=k\ninitrd=a,%s\n", repeat('i', 128));
	CHECK_ERR(text, 3, "value too long for initrd (max 127 characters)");
	snprintf(text, sizeof(text), "[vm a]\nkernel=k\ninitrd=a, %s\n", repeat('i', 127));
	CHECK_EQ(parse(text), 0);
	CHECK_EQ(strlen(cfg.vms[0].initrd[1]), 127);
}

/* exit_port = N: 4 ports from N, none of them past 0xffff. */
static void test_exit_port(void)
{
	CHECK_EQ(parse("[vm a]\nkernel=k\n"), 0);
	CHECK_EQ(cfg.vms[0].exit_port_line, 0);
	CHECK_EQ(parse("[vm a]\nkernel=k\nexit_port = 0xf4\n[vm b]\nkernel=k\nexit_port=1\n"), 0);
	CHECK_EQ(cfg.vms[0].exit_port, 0xf4);
	CHECK_EQ(cfg.vms[0].exit_port_line, 3);
	CHECK_EQ(cfg.vms[1].exit_port, 1);
	CHECK_EQ(parse("[vm a]\nkernel=k\nexit_port = 0xfffc\n"), 0);
	CHECK_EQ(cfg.vms[0].exit_port, 0xfffc);
	static const char *const bad[] = { "0", "0xfffd", "0x10000", "-1", "f4", "0xf4 0xf8" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char text[128], msg[160];
		snprintf(text, sizeof(text), "[vm a]\nkernel=k\nexit_port=%s\n", bad[i]);
		snprintf(msg, sizeof(msg),
			 "bad value '%s' for exit_port: expected an I/O port 0x1..0xfffc (it takes "
			 "4 ports, as QEMU's isa-debug-exit with iosize 4)",
			 bad[i]);
		CHECK_ERR(text, 3, msg);
	}
	CHECK_ERR("[hv]\nexit_port=0xf4\n[vm a]\nkernel=k\n", 2, "unknown key 'exit_port' in [hv]");
}

int main(void)
{
	test_full();
	test_defaults_and_syntax();
	test_numbers();
	test_errors();
	test_lengths();
	test_pv();
	test_sched();
	test_on_exit();
	test_selftest();
	test_apicv();
	test_serial();
	test_vm_pcpus();
	test_net();
	test_net_allow();
	test_initrds();
	test_exit_port();
	return test_summary();
}
