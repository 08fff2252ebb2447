/* SPDX-License-Identifier: GPL-2.0-only */
/* Thin wrappers over UEFI boot services (UEFI 2.10 spec, chapters 7, 9, 13). Calls go
 * straight through the tables with the ms_abi convention; no libefi. */
#include "boot/efi.h"
#include "hv/lib.h"

EFI_SYSTEM_TABLE *efi_st;
EFI_HANDLE efi_image;

void efi_console_write(const char *s, size_t n)
{
	CHAR16 buf[130];
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			buf[k++] = L'\r';
		buf[k++] = (CHAR16)(u8)s[i];
		if (k >= 126 || i + 1 == n) {
			buf[k] = 0;
			efi_st->ConOut->OutputString(efi_st->ConOut, buf);
			k = 0;
		}
	}
}

void efi_stall_us(u64 us) { efi_st->BootServices->Stall(us); }

void *efi_alloc_pages(u64 npages, u64 max_addr)
{
	EFI_PHYSICAL_ADDRESS a = max_addr;
	EFI_STATUS s = efi_st->BootServices->AllocatePages(
		max_addr ? AllocateMaxAddress : AllocateAnyPages, EfiLoaderData, npages, &a);
	return EFI_ERROR(s) ? NULL : (void *)(uintptr_t)a;
}

void efi_free(void *p) { efi_st->BootServices->FreePool(p); }

void *efi_alloc(u64 bytes)
{
	void *p = NULL;
	if (EFI_ERROR(efi_st->BootServices->AllocatePool(EfiLoaderData, bytes, &p)))
		return NULL;
	return p;
}

bool efi_random(void *buf, size_t len)
{
	EFI_GUID guid = EFI_RNG_PROTOCOL_GUID;
	EFI_RNG_PROTOCOL *rng;
	return !EFI_ERROR(efi_st->BootServices->LocateProtocol(&guid, NULL, (void **)&rng)) &&
	       !EFI_ERROR(rng->GetRNG(rng, NULL, len, buf));
}

static EFI_FILE_HANDLE boot_volume(const char **why)
{
	EFI_GUID lip = EFI_LOADED_IMAGE_PROTOCOL_GUID, sfsp = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
	EFI_LOADED_IMAGE *li;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs;
	EFI_FILE_HANDLE root;
	EFI_BOOT_SERVICES *bs = efi_st->BootServices;
	if (EFI_ERROR(bs->HandleProtocol(efi_image, &lip, (void **)&li)) ||
	    EFI_ERROR(bs->HandleProtocol(li->DeviceHandle, &sfsp, (void **)&fs)) ||
	    EFI_ERROR(fs->OpenVolume(fs, &root))) {
		*why = "cannot open the boot volume (is it a FAT file system?)";
		return NULL;
	}
	return root;
}

void *efi_read_file(const char *path, u64 *len, const char **why)
{
	CHAR16 wpath[256];
	size_t n = strlen(path);
	if (n >= ARRAY_SIZE(wpath)) {
		*why = "path too long";
		return NULL;
	}
	for (size_t i = 0; i <= n; i++)
		wpath[i] = path[i] == '/' ? L'\\' : (CHAR16)(u8)path[i];
	EFI_FILE_HANDLE root = boot_volume(why), f;
	if (!root)
		return NULL;
	if (EFI_ERROR(root->Open(root, &f, wpath, EFI_FILE_MODE_READ, 0))) {
		root->Close(root);
		*why = "file not found";
		return NULL;
	}
	EFI_GUID fid = EFI_FILE_INFO_ID;
	union {
		EFI_FILE_INFO info;
		u8 raw[sizeof(EFI_FILE_INFO) + 512];
	} u;
	UINTN isz = sizeof(u);
	void *buf = NULL;
	*why = "cannot read the file";
	if (!EFI_ERROR(f->GetInfo(f, &fid, &isz, &u.info)) &&
	    !(u.info.Attribute & EFI_FILE_DIRECTORY)) {
		UINTN size = u.info.FileSize;
		if (!EFI_ERROR(efi_st->BootServices->AllocatePool(EfiLoaderData, size + 1, &buf))) {
			if (EFI_ERROR(f->Read(f, &size, buf)) || size != u.info.FileSize) {
				efi_free(buf);
				buf = NULL;
			} else {
				((u8 *)buf)[size] = 0;
				*len = size;
			}
		}
	} else if (!EFI_ERROR(f->GetInfo(f, &fid, &isz, &u.info))) {
		*why = "is a directory";
	}
	f->Close(f);
	root->Close(root);
	return buf;
}

static const void *config_table(const EFI_GUID *guid)
{
	for (UINTN i = 0; i < efi_st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &efi_st->ConfigurationTable[i];
		if (!memcmp(&t->VendorGuid, guid, sizeof *guid))
			return t->VendorTable;
	}
	return NULL;
}

const void *efi_acpi_rsdp(void)
{
	EFI_GUID acpi20 = ACPI_20_TABLE_GUID;
	return config_table(&acpi20);
}

const void *efi_fdt(void)
{
	/* EFI_DTB_TABLE_GUID (UEFI 2.10, 4.6.1.3) */
	EFI_GUID dtb = {
		0xb1b621d5, 0xf19c, 0x41a5, { 0x83, 0x0b, 0xd9, 0x15, 0x2c, 0x69, 0xaa, 0xe0 }
	};
	return config_table(&dtb);
}

static EFI_MEMORY_DESCRIPTOR *memory_map(UINTN *size, UINTN *key, UINTN *dsize)
{
	static u8 buf[64 * 1024] __attribute__((aligned(8)));
	UINT32 dver;
	*size = sizeof buf;
	if (EFI_ERROR(efi_st->BootServices->GetMemoryMap(size, (EFI_MEMORY_DESCRIPTOR *)buf, key,
							 dsize, &dver)))
		return NULL;
	return (EFI_MEMORY_DESCRIPTOR *)buf;
}

u64 efi_ram_bytes(void)
{
	UINTN size, key, dsize;
	EFI_MEMORY_DESCRIPTOR *m = memory_map(&size, &key, &dsize);
	u64 total = 0;
	for (UINTN off = 0; m && off < size; off += dsize) {
		EFI_MEMORY_DESCRIPTOR *d = (void *)((u8 *)m + off);
		if (d->Type == EfiConventionalMemory || d->Type == EfiLoaderCode ||
		    d->Type == EfiLoaderData || d->Type == EfiBootServicesCode ||
		    d->Type == EfiBootServicesData)
			total += d->NumberOfPages * PAGE_SIZE;
	}
	return total;
}

bool efi_exit_boot_services(void)
{
	for (int tries = 0; tries < 8; tries++) {
		UINTN size, key, dsize;
		if (!memory_map(&size, &key, &dsize))
			return false;
		if (!EFI_ERROR(efi_st->BootServices->ExitBootServices(efi_image, key)))
			return true;
	}
	return false;
}

u64 efi_unix_time_ns(void)
{
	EFI_TIME t;
	if (EFI_ERROR(efi_st->RuntimeServices->GetTime(&t, NULL)))
		return 0;
	/* Days since 1970-01-01 of a proleptic Gregorian date (years from March). */
	s64 y = t.Year - (t.Month <= 2), m = t.Month <= 2 ? t.Month + 9 : t.Month - 3;
	s64 era = y / 400, yoe = y - era * 400;
	s64 doy = (153 * m + 2) / 5 + t.Day - 1, doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	s64 days = era * 146097 + doe - 719468;
	s64 secs = days * 86400 + t.Hour * 3600 + t.Minute * 60 + t.Second;
	if (t.TimeZone != EFI_UNSPECIFIED_TIMEZONE)
		secs += t.TimeZone * 60; /* UEFI: local time = UTC - TimeZone minutes */
	return (u64)secs * 1000000000ull + t.Nanosecond;
}
