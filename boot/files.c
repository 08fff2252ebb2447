/* SPDX-License-Identifier: GPL-2.0-only */
/* The boot volume or the network (files.h). */
#include "boot/files.h"
#include "boot/efi.h"
#include "net/boot/boot_nic.h"
#include "net/boot/http_proto.h"
#include "net/boot/netboot.h"

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
	if (network)
		return netboot_read(path, len, why);
	if (http_is_url(path)) {
		*why = "an http:// path needs a network boot (hv.efi was loaded from a volume, and "
		       "the hypervisor brings up the network only when the firmware booted it "
		       "from there)";
		return NULL;
	}
	return efi_read_file(path, len, why);
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
