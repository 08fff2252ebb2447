/* SPDX-License-Identifier: GPL-2.0-only */
/* Which TFTP server a network boot reads from, chosen from the DHCP acknowledgement: the
 * BOOTP siaddr ("next server", RFC 2131 section 2) first, as EDK2's PXE driver and iPXE
 * take it for the boot file; where that is 0, the first address of option 150 (TFTP
 * server addresses, RFC 5859), then option 66 (TFTP server name, RFC 2132 9.4) when it
 * is a dotted IPv4 address (a host name would need DNS, which the hypervisor lacks); last
 * the DHCP server itself (option 54), as EDK2 does. Pure: the host unit tests run it. */
#ifndef NET_BOOT_SERVER_H
#define NET_BOOT_SERVER_H

#include "hv/types.h"

/* What the acknowledgement says; addresses in network byte order, 0 where absent. */
struct boot_server_dhcp {
	u8 siaddr[4];
	u8 server_id[4];
	u8 opt150[255], opt150_len;
	u8 opt66[255], opt66_len;
};

enum boot_server_from {
	BOOT_SERVER_NONE,
	BOOT_SERVER_SIADDR,
	BOOT_SERVER_OPT150,
	BOOT_SERVER_OPT66,
	BOOT_SERVER_DHCP,
};

/* The server's address in addr; returns where it came from (BOOT_SERVER_NONE: nowhere
 * usable). *note: why an option that was present is not used, or NULL (a buffer of the
 * last call). */
enum boot_server_from boot_server_choose(const struct boot_server_dhcp *d, u8 addr[4],
					 const char **note);
/* "BOOTP next-server", "DHCP option 150", ... for the console. */
const char *boot_server_from_name(enum boot_server_from from);

#endif
