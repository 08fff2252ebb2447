/* SPDX-License-Identifier: GPL-2.0-only */
/* For unit tests on the real lwIP build (tests/unit/test_lwip_*.c): what lwIP asks of the
 * hypervisor that such a test does not look at (lib/lwip/lwip_port.c, lwip_assert.c):
 * DHCP options go nowhere, a failed lwIP assertion ends the test. Include after lwIP's
 * headers and <stdlib.h>. */
#ifndef TESTS_UNIT_LWIP_PLATFORM_H
#define TESTS_UNIT_LWIP_PLATFORM_H

void netboot_dhcp_option(unsigned char msg_type, unsigned char option, unsigned char len,
			 struct pbuf *p, unsigned short offset)
{
	(void)msg_type, (void)option, (void)len, (void)p, (void)offset;
}

void net_lwip_assert(const char *msg, const char *file, int line)
{
	fprintf(stderr, "lwIP assertion failed: %s (%s:%d)\n", msg, file, line);
	abort();
}

#endif
