/* SPDX-License-Identifier: GPL-2.0-only */
/* An lwIP network interface on the firmware's NIC driver: the UEFI Simple Network
 * Protocol (UEFI 2.10, section 24.1), polled (no interrupts), before ExitBootServices
 * only. */
#ifndef NET_SNP_NETIF_H
#define NET_SNP_NETIF_H

#include <efi.h>
#include "lwip/netif.h"

/* Takes the SNP of handle for the hypervisor alone (the firmware's own network stack on
 * it lets go), brings it up and adds it to lwIP as the default interface, link up.
 * Returns 0, or -1 with *why; either way snp_netif_close or snp_netif_release ends it. */
int snp_netif_open(EFI_HANDLE handle, struct netif *nif, const char **why);
/* Hands the frames the NIC received to lwIP. */
void snp_netif_poll(struct netif *nif);
/* Stops the NIC (no DMA after this) and removes the interface: before the takeover. */
void snp_netif_close(struct netif *nif);
/* Removes the interface and gives the NIC back to the firmware as it was found (a boot
 * that failed: the firmware's next boot option may use it). */
void snp_netif_release(struct netif *nif);

#endif
