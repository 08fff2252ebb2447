/* UEFI entry point: banner, configuration, images, platform discovery, takeover. */
#include <efi.h>
#include "hv/lib.h"

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	(void)image;
	st->ConOut->OutputString(st->ConOut, L"hv " HV_VERSION_W "\r\n");
	return EFI_SUCCESS;
}
