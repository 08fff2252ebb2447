/* SPDX-License-Identifier: GPL-2.0-only */
/* Where hv.cfg and the images it names come from: the FAT volume hv.efi was loaded from
 * (a disk, a USB stick) or, when the firmware network-booted it (net/boot/boot_nic.h), the
 * server that booted it, over TFTP, and http:// URLs over HTTP (net/boot/netboot.h). The code
 * that parses hv.cfg and loads the images reads through here and does not know which. */
#ifndef BOOT_FILES_H
#define BOOT_FILES_H

#include "hv/types.h"

/* Chooses the source; on a network boot brings the NIC up. Returns 0, or -1 with *why. */
int files_init(const char **why);
/* The whole file at path ('/' separated, from the root of the volume or of the server)
 * plus a NUL, in firmware pool memory (efi_free); NULL with *why on failure. */
void *files_read(const char *path, u64 *len, const char **why);
/* Reading is over (before ExitBootServices): the NIC is stopped. */
void files_done(void);
/* The boot failed and hv.efi returns to the firmware: the NIC is given back as it was
 * found, for the firmware's next boot option. */
void files_release(void);

#endif
