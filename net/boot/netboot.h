/* SPDX-License-Identifier: GPL-2.0-only */
/* Network boot, before ExitBootServices: the NIC hv.efi was booted through, an address
 * by DHCP, and files from the boot server over TFTP or from http:// URLs. */
#ifndef NET_NETBOOT_H
#define NET_NETBOOT_H

#include <efi.h>
#include "hv/types.h"

/* Brings nic up (net/boot/snp_netif.h), gets an address by DHCP (RFC 2131) and prints it with
 * the boot server that the DHCP answer names (net/boot/boot_server.h). Returns 0, or -1 with
 * *why. */
int netboot_up(EFI_HANDLE nic, const char **why);
/* The whole of path from the boot server over TFTP (net/boot/tftp_client.h), or, for an
 * http:// URL, from the server it names over HTTP (net/boot/http_client.h). */
void *netboot_read(const char *path, u64 *len, const char **why);
/* Stops the NIC: reading is over, the machine is taken over next. */
void netboot_down(void);
/* Gives the NIC back to the firmware as it was found (net/boot/snp_netif.h): the boot failed
 * and hv.efi returns to the firmware. netboot_up does it itself when it fails. */
void netboot_release(void);

#endif
