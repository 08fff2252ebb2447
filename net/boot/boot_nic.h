/* SPDX-License-Identifier: GPL-2.0-only */
/* Whether hv.efi was network-booted, and through which NIC. */
#ifndef NET_BOOT_NIC_H
#define NET_BOOT_NIC_H

#include <efi.h>

/* The handle with the Simple Network Protocol that hv.efi was network-booted through,
 * or NULL when it was loaded from a disk. */
EFI_HANDLE boot_nic(void);

#endif
