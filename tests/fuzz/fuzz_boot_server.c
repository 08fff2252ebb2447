/* SPDX-License-Identifier: GPL-2.0-only */
/* The boot server from an untrusted DHCP acknowledgement (net/boot/boot_server.c): the input is
 * siaddr and option 54 (4 bytes each), the lengths of options 150 and 66 (a byte each),
 * then their bytes. Checked: the address chosen is one of those given, usable (not 0,
 * loopback, multicast or broadcast) and the one of the first source that has one; a note
 * is terminated, printable and short. */
#include "../../net/boot/boot_server.c"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct boot_server_dhcp d = { 0 };
	for (int i = 0; i < 4; i++)
		d.siaddr[i] = take_u8(&in);
	for (int i = 0; i < 4; i++)
		d.server_id[i] = take_u8(&in);
	d.opt150_len = take_u8(&in);
	d.opt66_len = take_u8(&in);
	for (int i = 0; i < d.opt150_len; i++)
		d.opt150[i] = take_u8(&in);
	for (int i = 0; i < d.opt66_len; i++)
		d.opt66[i] = take_u8(&in);
	u8 addr[4] = { 0 };
	const char *note;
	enum boot_server_from from = boot_server_choose(&d, addr, &note);
	if (from == BOOT_SERVER_NONE) {
		FUZZ_CHECK(!usable(d.siaddr) && !usable(d.server_id));
	} else {
		FUZZ_CHECK(usable(addr));
		FUZZ_CHECK(from != BOOT_SERVER_SIADDR || !memcmp(addr, d.siaddr, 4));
		FUZZ_CHECK(from == BOOT_SERVER_SIADDR || !usable(d.siaddr));
		FUZZ_CHECK(from != BOOT_SERVER_DHCP || !memcmp(addr, d.server_id, 4));
		if (from == BOOT_SERVER_OPT150) {
			bool found = false;
			for (int i = 0; i + 4 <= d.opt150_len; i += 4)
				found |= !memcmp(addr, d.opt150 + i, 4);
			FUZZ_CHECK(found && d.opt150_len % 4 == 0);
		}
	}
	if (note) {
		FUZZ_CHECK(memchr(note, 0, 160));
		for (const char *t = note; *t; t++)
			FUZZ_CHECK(*t >= ' ' && *t < 0x7f);
	}
	return 0;
}
