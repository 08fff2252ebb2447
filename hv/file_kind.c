/* SPDX-License-Identifier: GPL-2.0-only */
/* Magic numbers of the files users mistake for one another (file_kind.h). */
#include "hv/file_kind.h"
#include "hv/lib.h"

const char file_kind_arm64_image[] = "an arm64 Image";

static bool has(const u8 *b, size_t len, size_t off, const char *magic, size_t n)
{
	return len >= off + n && !memcmp(b + off, magic, n);
}

static const char *elf_kind(const u8 *b, size_t len)
{
	if (len < 20)
		return "an ELF file";
	u16 machine = (u16)(b[18] | b[19] << 8);
	if (b[5] != 1) /* big-endian */
		return "a big-endian ELF file";
	switch (machine) {
	case 62:
		return b[16] == 1 ? "an x86-64 ELF object file (a kernel module?)"
				  : "an x86-64 ELF file";
	case 183:
		return "an arm64 ELF file (a vmlinux: arm64 boots its Image)";
	case 3:
		return "a 32-bit x86 ELF file";
	}
	return "an ELF file for another architecture";
}

const char *file_kind(const void *buf, size_t len)
{
	const u8 *b = buf;
	if (has(b, len, 0, "\177ELF", 4))
		return elf_kind(b, len);
	if (has(b, len, 0x202, "HdrS", 4))
		return "an x86 bzImage";
	if (has(b, len, 56, "ARM\x64", 4))
		return file_kind_arm64_image;
	if (has(b, len, 0, "MZ", 2) && has(b, len, 4, "zimg", 4))
		return "an arm64 EFI zboot image (a compressed kernel that only EFI firmware "
		       "unpacks)";
	if (has(b, len, 0, "070701", 6) || has(b, len, 0, "070702", 6) ||
	    has(b, len, 0, "070707", 6))
		return "an initramfs (a cpio archive) given as the kernel: it belongs in initrd =";
	if (has(b, len, 0, "\x1f\x8b", 2))
		return "a gzip file";
	if (has(b, len, 0,
		"\xfd"
		"7zXZ",
		6))
		return "an xz file";
	if (has(b, len, 0, "\x28\xb5\x2f\xfd", 4))
		return "a zstd file";
	if (has(b, len, 0, "\x02\x21\x4c\x18", 4) || has(b, len, 0, "\x04\x22\x4d\x18", 4))
		return "an lz4 file";
	if (has(b, len, 0, "BZh", 3))
		return "a bzip2 file";
	if (has(b, len, 0, "MZ", 2))
		return "a PE/COFF file (an EFI application?)";
	if (has(b, len, 0, "#!", 2))
		return "a script";
	return "not a kernel this hypervisor knows (no magic number it recognises)";
}
