/* SPDX-License-Identifier: GPL-2.0-only */
/* The boot volume or the network (files.h). */
#include "boot/files.h"
#include "boot/efi.h"
#include "net/boot_nic.h"
#include "net/netboot.h"

static bool network;

int files_init(const char **why)
{
	EFI_HANDLE nic = boot_nic();
	if (!nic)
		return 0;
	network = true;
	return netboot_up(nic, why);
}

void *files_read(const char *path, u64 *len, const char **why)
{
	return network ? netboot_read(path, len, why) : efi_read_file(path, len, why);
}

void files_done(void)
{
	if (network)
		netboot_down();
}

void files_release(void)
{
	if (network)
		netboot_release();
}
