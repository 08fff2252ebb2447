/* SPDX-License-Identifier: GPL-2.0-only */
/* /console/NAME's text (net/telemetry/console_page.c) from a guest's bytes, and its Host
 * check from a client's header. Checked: the text is NUL-terminated inside the buffer,
 * holds only printable ASCII, LF and TAB, its length is what was returned, and with room
 * enough (four bytes per input byte) every input byte but a CR LF's CR is there; a Host
 * that passes names the address or the name, with the server's port or none for port 80. */
#include "../../net/telemetry/console_page.c"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	size_t max = take_u16(&in) % 512;
	u16 port = take_u8(&in) & 1 ? 80 : take_u16(&in);
	size_t n = in.n;
	uint8_t *guest = fuzz_copy(in.p, n);
	char *out = malloc(max ? max : 1);
	size_t len = console_text((const char *)guest, n, out, max);
	if (max) {
		FUZZ_CHECK(len < max && out[len] == 0);
		for (size_t i = 0; i < len; i++)
			FUZZ_CHECK((out[i] >= 0x20 && out[i] < 0x7f) || out[i] == '\n' ||
				   out[i] == '\t');
		size_t dropped = 0; /* the CR of each CR LF */
		for (size_t i = 0; i + 1 < n; i++)
			dropped += guest[i] == '\r' && guest[i + 1] == '\n';
		if (max > 4 * n)
			FUZZ_CHECK(len >= n - dropped);
	} else {
		FUZZ_CHECK(len == 0);
	}
	/* The same bytes as a Host header (NUL-terminated at their first NUL). */
	char *host = malloc(n + 1);
	memcpy(host, guest, n);
	host[n] = 0;
	if (console_host_ok(host, "10.0.2.15", "hv-lab", port) && *host) {
		char *colon = strchr(host, ':');
		size_t name = colon ? (size_t)(colon - host) : strlen(host);
		FUZZ_CHECK((name == 9 && !memcmp(host, "10.0.2.15", 9)) ||
			   (name == 6 && !strncasecmp(host, "hv-lab", 6)));
		FUZZ_CHECK(colon ? (u16)strtoul(colon + 1, NULL, 10) == port : port == 80);
	}
	free(host);
	free(out);
	free(guest);
	return 0;
}
