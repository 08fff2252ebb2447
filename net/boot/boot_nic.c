/* SPDX-License-Identifier: GPL-2.0-only */
/* Network-booted or not (boot_nic.h), from the device path of the device hv.efi was
 * loaded from (EFI_LOADED_IMAGE_PROTOCOL.DeviceHandle, UEFI 2.10 section 9.1). A PXE or
 * HTTP boot loads it from a device whose path ends in the NIC's MAC address node
 * (messaging type 3, subtype 11: UEFI 2.10 10.3.5.11), then an IPv4 (subtype 12) or IPv6
 * node: EDK2's PXE driver loads it through a child of the NIC, .../MAC(..)/IPv4(..), and
 * iPXE (the NIC's option ROM under QEMU) from its SNP handle, .../MAC(..). A disk's path
 * has neither. The
 * NIC is the handle on that path nearest its end with the Simple Network Protocol
 * (LocateDevicePath, 7.3), else the first one the firmware lists. */
#include "net/boot/boot_nic.h"
#include "boot/efi.h"

static bool network_path(EFI_DEVICE_PATH *dp)
{
	for (int i = 0; i < 64 && !IsDevicePathEnd(dp); i++, dp = NextDevicePathNode(dp)) {
		if (DevicePathNodeLength(dp) < 4) /* malformed: stop rather than loop */
			return false;
		if (DevicePathType(dp) == MESSAGING_DEVICE_PATH &&
		    (DevicePathSubType(dp) == MSG_MAC_ADDR_DP ||
		     DevicePathSubType(dp) == MSG_IPv4_DP))
			return true;
	}
	return false;
}

EFI_HANDLE boot_nic(void)
{
	EFI_GUID lip = EFI_LOADED_IMAGE_PROTOCOL_GUID, dpp = EFI_DEVICE_PATH_PROTOCOL_GUID;
	EFI_GUID snpp = EFI_SIMPLE_NETWORK_PROTOCOL_GUID;
	EFI_BOOT_SERVICES *bs = efi_st->BootServices;
	EFI_LOADED_IMAGE *li;
	EFI_DEVICE_PATH *dp;
	EFI_HANDLE nic = NULL, *all = NULL;
	UINTN n = 0;
	if (EFI_ERROR(bs->HandleProtocol(efi_image, &lip, (void **)&li)) ||
	    EFI_ERROR(bs->HandleProtocol(li->DeviceHandle, &dpp, (void **)&dp)) ||
	    !network_path(dp))
		return NULL;
	if (!EFI_ERROR(bs->LocateDevicePath(&snpp, &dp, &nic)))
		return nic;
	if (!EFI_ERROR(bs->LocateHandleBuffer(ByProtocol, &snpp, NULL, &n, &all)) && n)
		nic = all[0];
	if (all)
		efi_free(all);
	return nic;
}
