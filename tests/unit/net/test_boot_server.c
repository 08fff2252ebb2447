/* SPDX-License-Identifier: GPL-2.0-only */
/* The boot server chosen from a DHCP acknowledgement (net/boot/boot_server.c): siaddr first,
 * then option 150's first address, option 66 as a dotted address, the DHCP server; an
 * option that cannot be used is said why, only where it was looked at. */
#include "../../../net/boot/boot_server.c"
#include "../test.h"

static struct boot_server_dhcp d;
static u8 addr[4];
static const char *note;

#define IP(a, b, c, e) ((const u8[4]){ a, b, c, e })
#define SET(field, lit) (memcpy(d.field, lit, sizeof(lit) - 1), d.field##_len = sizeof(lit) - 1)

static enum boot_server_from choose(void)
{
	memset(addr, 0xee, sizeof addr);
	return boot_server_choose(&d, addr, &note);
}

static bool is(const u8 want[4]) { return !memcmp(addr, want, 4); }

int main(void)
{
	/* QEMU's user networking: siaddr and the DHCP server are both 10.0.2.2. */
	memcpy(d.siaddr, IP(10, 0, 2, 2), 4);
	memcpy(d.server_id, IP(10, 0, 2, 2), 4);
	CHECK_EQ(choose(), BOOT_SERVER_SIADDR);
	CHECK(is(IP(10, 0, 2, 2)) && !note);
	CHECK_STR(boot_server_from_name(BOOT_SERVER_SIADDR), "BOOTP next-server");

	/* siaddr wins over the options, which are then not looked at (no note). */
	SET(opt150, "\xc0\xa8\x01\x05");
	SET(opt66, "tftp.example.com");
	memcpy(d.siaddr, IP(192, 168, 1, 4), 4);
	CHECK_EQ(choose(), BOOT_SERVER_SIADDR);
	CHECK(is(IP(192, 168, 1, 4)) && !note);

	/* No siaddr (0.0.0.0): option 150's first usable address. */
	memset(d.siaddr, 0, 4);
	SET(opt150, "\0\0\0\0\xc0\xa8\x01\x05\xc0\xa8\x01\x06");
	CHECK_EQ(choose(), BOOT_SERVER_OPT150);
	CHECK(is(IP(192, 168, 1, 5)) && !note);

	/* Then option 66 as a dotted address, with or without a trailing NUL. */
	d.opt150_len = 0;
	SET(opt66, "192.168.1.7");
	CHECK_EQ(choose(), BOOT_SERVER_OPT66);
	CHECK(is(IP(192, 168, 1, 7)) && !note);
	SET(opt66, "10.1.2.3\0");
	CHECK_EQ(choose(), BOOT_SERVER_OPT66);
	CHECK(is(IP(10, 1, 2, 3)));

	/* A host name in option 66: the DHCP server, and a note says why. */
	SET(opt66, "tftp.example.com");
	CHECK_EQ(choose(), BOOT_SERVER_DHCP);
	CHECK(is(IP(10, 0, 2, 2)));
	CHECK_STR(note, "DHCP option 66 \"tftp.example.com\" is a host name, not an address (no "
			"DNS here)");
	/* ... as for anything that is not exactly four decimals of 0..255. */
	static const char *const bad[] = { "1.2.3",    "1.2.3.4.5",   "1.2.3.256", "1..2.3",
					   "1.2.3.4 ", "01234.1.1.1", ".1.2.3",	   "" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memcpy(d.opt66, bad[i], strlen(bad[i]));
		d.opt66_len = (u8)strlen(bad[i]);
		CHECK_EQ(choose(), BOOT_SERVER_DHCP);
	}
	SET(opt66, "255.255.255.255");
	CHECK_EQ(choose(), BOOT_SERVER_DHCP);
	CHECK_STR(note, "DHCP option 66 \"255.255.255.255\" is no server's address");
	/* Unprintable bytes of a name are not printed as they are. */
	SET(opt66, "a\x1b[2Jb");
	choose();
	CHECK_STR(note, "DHCP option 66 \"a?[2Jb\" is a host name, not an address (no DNS here)");

	/* A malformed option 150 is said, and option 66 still used. */
	SET(opt150, "\xc0\xa8\x01");
	SET(opt66, "192.168.1.7");
	CHECK_EQ(choose(), BOOT_SERVER_OPT66);
	CHECK(is(IP(192, 168, 1, 7)));
	CHECK_STR(note, "DHCP option 150 is 3 bytes long, not a list of addresses");
	SET(opt150, "\x7f\0\0\1");
	d.opt66_len = 0;
	CHECK_EQ(choose(), BOOT_SERVER_DHCP);
	CHECK_STR(note, "DHCP option 150 has no server's address");
	/* Both notes at once. */
	SET(opt66, "boot");
	CHECK_EQ(choose(), BOOT_SERVER_DHCP);
	CHECK_STR(note, "DHCP option 150 has no server's address; DHCP option 66 \"boot\" is a "
			"host name, not an address (no DNS here)");

	/* Nothing usable at all. */
	memset(d.server_id, 0, 4);
	CHECK_EQ(choose(), BOOT_SERVER_NONE);
	CHECK_STR(boot_server_from_name(BOOT_SERVER_NONE), "nowhere");
	/* Loopback and multicast siaddr are not servers. */
	memcpy(d.siaddr, IP(127, 0, 0, 1), 4);
	CHECK_EQ(choose(), BOOT_SERVER_NONE);
	memcpy(d.siaddr, IP(224, 0, 0, 1), 4);
	CHECK_EQ(choose(), BOOT_SERVER_NONE);
	return test_summary();
}
