/* SPDX-License-Identifier: GPL-2.0-only */
/* What /console/NAME serves (net/telemetry/console_page.c): the Host headers that name
 * this server and those that do not (DNS rebinding: a page of evil.example whose name now
 * points at this address sends Host: evil.example), and a guest's console bytes as text a
 * terminal cannot be made to run: escape sequences, C1 controls raw and in UTF-8, DEL,
 * the CR of CR LF, backslashes, and an output buffer that ends inside an escape. */
#include "../../../net/telemetry/console_page.c"
#include "../test.h"

static void test_host(void)
{
	CHECK(console_host_ok("", "10.0.2.15", "", 80)); /* HTTP/1.0 without a Host */
	CHECK(console_host_ok("10.0.2.15", "10.0.2.15", "", 80));
	CHECK(console_host_ok("10.0.2.15:80", "10.0.2.15", "", 80));
	CHECK(console_host_ok("10.0.2.15:8080", "10.0.2.15", "", 8080));
	CHECK(console_host_ok("HV-Lab-3.example:8080", "10.0.2.15", "hv-lab-3.example", 8080));
	CHECK(console_host_ok("hv-lab-3.example", "10.0.2.15", "hv-lab-3.example", 80));
	CHECK(!console_host_ok("10.0.2.15", "10.0.2.15", "", 8080)); /* port 80 implied */
	CHECK(!console_host_ok("10.0.2.15:81", "10.0.2.15", "", 80));
	CHECK(!console_host_ok("10.0.2.15:", "10.0.2.15", "", 80));
	CHECK(!console_host_ok("10.0.2.15:8o", "10.0.2.15", "", 80));
	CHECK(!console_host_ok("10.0.2.15:65616", "10.0.2.15", "", 80)); /* 80 + 65536 */
	CHECK(!console_host_ok("evil.example", "10.0.2.15", "", 80));
	CHECK(!console_host_ok("evil.example", "10.0.2.15", "hv-lab-3.example", 80));
	CHECK(!console_host_ok("10.0.2.1", "10.0.2.15", "", 80));
	CHECK(!console_host_ok("10.0.2.150", "10.0.2.15", "", 80));
	CHECK(!console_host_ok("hv-lab-3.example.evil", "10.0.2.15", "hv-lab-3.example", 80));
	CHECK(!console_host_ok("[::1]:80", "10.0.2.15", "", 80));
}

static char out[256];

static void test_text(void)
{
	static const char guest[] = "login: root\r\n\x1b]0;pwned\x07\x1b[2J\tok\x7f\x9b"
				    "31m\xc2\x9b\\n\r";
	size_t n = console_text(guest, sizeof guest - 1, out, sizeof out);
	CHECK_STR(out, "login: root\n\\x1b]0;pwned\\x07\\x1b[2J\tok\\x7f\\x9b31m\\xc2\\x9b\\\\n"
		       "\\x0d");
	CHECK_EQ(n, strlen(out));
	for (size_t i = 0; i < n; i++) /* printable ASCII, LF and TAB only */
		CHECK((out[i] >= 0x20 && out[i] < 0x7f) || out[i] == '\n' || out[i] == '\t');
	/* No room for a whole escape: the text stops before it. */
	CHECK_EQ(console_text("ab\x1b", 3, out, 5), 2);
	CHECK_STR(out, "ab");
	CHECK_EQ(console_text("ab\x1b", 3, out, 7), 6);
	CHECK_STR(out, "ab\\x1b");
	CHECK_EQ(console_text("abc", 3, out, 3), 2); /* and the NUL */
	CHECK_STR(out, "ab");
	CHECK_EQ(console_text("", 0, out, 1), 0);
	CHECK_STR(out, "");
	CHECK_EQ(console_text("abc", 3, out, 0), 0);
}

int main(void)
{
	test_host();
	test_text();
	return test_summary();
}
