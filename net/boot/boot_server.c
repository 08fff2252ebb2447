/* SPDX-License-Identifier: GPL-2.0-only */
/* The boot server from a DHCP acknowledgement (boot_server.h). */
#include "net/boot/boot_server.h"
#include "hv/lib.h"

static char note_buf[160];

/* An address a TFTP request can go to: not 0.0.0.0, loopback (127/8), multicast or
 * broadcast (224/4 and above). */
static bool usable(const u8 a[4])
{
	return (a[0] || a[1] || a[2] || a[3]) && a[0] != 127 && a[0] < 224;
}

/* A dotted IPv4 address, four decimals of at most 255 each, the whole of s[0..n) (a
 * trailing NUL, which some servers send, aside). */
static bool dotted(const u8 *s, size_t n, u8 out[4])
{
	if (n && !s[n - 1])
		n--;
	size_t i = 0;
	for (int part = 0; part < 4; part++) {
		u32 v = 0;
		size_t digits = 0;
		if (part && (i >= n || s[i++] != '.'))
			return false;
		for (; i < n && s[i] >= '0' && s[i] <= '9' && digits < 4; i++, digits++)
			v = v * 10 + (u32)(s[i] - '0');
		if (!digits || digits > 3 || v > 255)
			return false;
		out[part] = (u8)v;
	}
	return i == n;
}

/* Adds a note for an option that was present but is not used. */
static void add_note(const char *fmt, ...) PRINTF_LIKE(1, 2);
static void add_note(const char *fmt, ...)
{
	size_t k = strlen(note_buf);
	va_list ap;
	if (k)
		k += (size_t)snprintf(note_buf + k, sizeof note_buf - k, "; ");
	if (k >= sizeof note_buf)
		return;
	va_start(ap, fmt);
	vsnprintf(note_buf + k, sizeof note_buf - k, fmt, ap);
	va_end(ap);
}

/* Option 66 as printable text for a note, cut short. */
static void opt66_text(const struct boot_server_dhcp *d, char *buf, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < d->opt66_len && k + 1 < n && d->opt66[i]; i++)
		buf[k++] = d->opt66[i] >= ' ' && d->opt66[i] < 0x7f ? (char)d->opt66[i] : '?';
	buf[k] = 0;
}

/* Option 150's first usable address; a note when it is malformed. */
static bool from_opt150(const struct boot_server_dhcp *d, u8 addr[4])
{
	if (d->opt150_len % 4) {
		add_note("DHCP option 150 is %u bytes long, not a list of addresses",
			 d->opt150_len);
		return false;
	}
	for (u32 i = 0; i < d->opt150_len; i += 4)
		if (usable(d->opt150 + i)) {
			memcpy(addr, d->opt150 + i, 4);
			return true;
		}
	if (d->opt150_len)
		add_note("DHCP option 150 has no server's address");
	return false;
}

/* Option 66 when it is a dotted address; a note when it is not. */
static bool from_opt66(const struct boot_server_dhcp *d, u8 addr[4])
{
	u8 a[4];
	char text[48];
	if (!d->opt66_len)
		return false;
	opt66_text(d, text, sizeof text);
	if (!dotted(d->opt66, d->opt66_len, a)) {
		add_note("DHCP option 66 \"%s\" is a host name, not an address (no DNS here)",
			 text);
		return false;
	}
	if (!usable(a)) {
		add_note("DHCP option 66 \"%s\" is no server's address", text);
		return false;
	}
	memcpy(addr, a, 4);
	return true;
}

/* Options are looked at only where the ones before them gave nothing: a note says why
 * one that was present could not be used. */
enum boot_server_from boot_server_choose(const struct boot_server_dhcp *d, u8 addr[4],
					 const char **note)
{
	enum boot_server_from from = BOOT_SERVER_NONE;
	note_buf[0] = 0;
	if (usable(d->siaddr)) {
		memcpy(addr, d->siaddr, 4);
		from = BOOT_SERVER_SIADDR;
	} else if (from_opt150(d, addr)) {
		from = BOOT_SERVER_OPT150;
	} else if (from_opt66(d, addr)) {
		from = BOOT_SERVER_OPT66;
	} else if (usable(d->server_id)) {
		memcpy(addr, d->server_id, 4);
		from = BOOT_SERVER_DHCP;
	}
	*note = note_buf[0] ? note_buf : NULL;
	return from;
}

const char *boot_server_from_name(enum boot_server_from from)
{
	switch (from) {
	case BOOT_SERVER_SIADDR:
		return "BOOTP next-server";
	case BOOT_SERVER_OPT150:
		return "DHCP option 150";
	case BOOT_SERVER_OPT66:
		return "DHCP option 66";
	case BOOT_SERVER_DHCP:
		return "the DHCP server";
	default:
		return "nowhere";
	}
}
