/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for arch/x86/bzimage.c (the setup header of a bzImage) and hv/file_kind.c on
 * a synthetic image laid out as Linux's arch/x86/boot/header.S lays it out, and on the
 * real guest kernel when build/guests/x86_64/vmlinuz exists. Images are parsed from
 * buffers of exactly their length, so ASan catches reads past the end. */
#include <stdlib.h>
#include "../../../arch/x86/bzimage.c"
#include "../../../hv/file_kind.c"
#include "../bytes.h"
#include "../test.h"

#define SETUP_SECTS 3
#define KERNEL_OFF ((SETUP_SECTS + 1) * 512)
#define IMG_LEN (KERNEL_OFF + 0x3000)

static u8 img[IMG_LEN];
static struct bzimage bz;
static const char *why;

/* A bzImage of protocol 2.15 with a 64-bit entry, relocatable, like Debian's. */
static void build(void)
{
	memset(img, 0, sizeof img);
	img[0x1F1] = SETUP_SECTS;
	w16(img + 0x1FE, 0xAA55);
	img[0x200] = 0xEB;	    /* jmp short */
	img[0x201] = 0x26C - 0x202; /* the header ends at kernel_info_offset's end */
	memcpy(img + 0x202, "HdrS", 4);
	w16(img + 0x206, 0x20F);
	img[0x211] = 1; /* LOADED_HIGH */
	w32(img + 0x214, 0x100000);
	w32(img + 0x22C, 0x7FFFFFFF);
	w32(img + 0x230, 0x200000);
	img[0x234] = 1;
	w16(img + 0x236, 0x7F);
	w32(img + 0x238, 0x7FF);
	w32(img + 0x248, 0x100);  /* payload offset */
	w32(img + 0x24C, 0x2000); /* payload length */
	w64(img + 0x258, 0x1000000);
	w32(img + 0x260, 0x40000);
}

static int parse_n(size_t len)
{
	u8 *copy = malloc(len ? len : 1);
	memcpy(copy, img, len);
	why = NULL;
	int r = bzimage_parse(copy, len, &bz, &why);
	free(copy);
	return r;
}

static int parse(void) { return parse_n(IMG_LEN); }

#define CHECK_BAD(msg)                       \
	do {                                 \
		CHECK_EQ(parse(), -1);       \
		CHECK_STR(why, msg);         \
		CHECK_EQ(bz.kernel_size, 0); \
	} while (0)

static void test_good(void)
{
	build();
	CHECK(bzimage_is(img, IMG_LEN));
	CHECK_EQ(parse(), 0);
	CHECK(why == NULL);
	CHECK_EQ(bz.version, 0x20F);
	CHECK_EQ(bz.header_end, 0x26C);
	CHECK_EQ(bz.kernel_offset, KERNEL_OFF);
	CHECK_EQ(bz.kernel_size, IMG_LEN - KERNEL_OFF);
	CHECK_EQ(bz.load_addr, 0x1000000);
	CHECK_EQ(bz.init_size, 0x40000);
	CHECK_EQ(bz.initrd_end_max, ~0ull); /* XLF_CAN_BE_LOADED_ABOVE_4G */
	CHECK_EQ(bz.cmdline_max, 0x7FF);
	/* Without that flag the initrd ends below initrd_addr_max + 1. */
	w16(img + 0x236, 0x1);
	CHECK_EQ(parse(), 0);
	CHECK_EQ(bz.initrd_end_max, 0x80000000);
	/* setup_sects 0 means 4; a longer header is cut where the zero page's own fields
	 * begin. */
	build();
	img[0x1F1] = 0;
	img[0x201] = 0xFF;
	CHECK_EQ(parse(), 0);
	CHECK_EQ(bz.kernel_offset, 5 * 512);
	CHECK_EQ(bz.header_end, BZ_HDR_MAX_END);
	/* A relocatable kernel's preferred address is aligned up; a fixed one is kept. */
	build();
	w64(img + 0x258, 0x1100000);
	CHECK_EQ(parse(), 0);
	CHECK_EQ(bz.load_addr, 0x1200000);
	img[0x234] = 0;
	CHECK_EQ(parse(), 0);
	CHECK_EQ(bz.load_addr, 0x1100000);
}

static void test_bad(void)
{
	build();
	memcpy(img + 0x202, "HdrT", 4);
	CHECK(!bzimage_is(img, IMG_LEN));
	CHECK_BAD("not a bzImage (no setup header)");
	build();
	w16(img + 0x1FE, 0x55AA);
	CHECK_BAD("not a bzImage (no setup header)");
	build();
	w16(img + 0x206, 0x20B);
	CHECK_BAD("a bzImage of boot protocol older than 2.12 (before Linux 3.8), which has no "
		  "64-bit entry");
	build();
	img[0x201] = 0x264 - 0x202 - 1;
	CHECK_BAD("a bzImage whose setup header is cut short");
	build();
	w16(img + 0x236, 0x7E);
	CHECK_BAD("a bzImage without a 64-bit entry (a 32-bit kernel)");
	build();
	img[0x1F1] = 0x40; /* setup larger than the file */
	CHECK_BAD("a bzImage cut short: no protected-mode kernel after its setup");
	build();
	w32(img + 0x24C, IMG_LEN - KERNEL_OFF - 0x100 + 1);
	CHECK_BAD("a bzImage cut short: its compressed kernel runs past the end of the file");
	build();
	w32(img + 0x248, 0xFFFFFFFF);
	CHECK_BAD("a bzImage cut short: its compressed kernel runs past the end of the file");
	build();
	w32(img + 0x230, 0x300000);
	CHECK_BAD("a bzImage whose kernel alignment is not a power of two");
	build();
	w32(img + 0x230, 0);
	CHECK_BAD("a bzImage whose kernel alignment is not a power of two");
	build();
	w32(img + 0x260, 0x1000);
	CHECK_BAD("a bzImage whose init_size is smaller than its kernel");
	build();
	w64(img + 0x258, 0x80000);
	img[0x234] = 0; /* not relocatable: it stays below 1 MiB */
	CHECK_BAD("a bzImage whose load address is outside 1 MiB-4 GiB");
	build();
	w64(img + 0x258, 0xFFFFFFFFFFE00000ull); /* a sum with init_size would wrap */
	CHECK_BAD("a bzImage whose load address is outside 1 MiB-4 GiB");
	build();
	w64(img + 0x258, 0xFFE00000);
	w32(img + 0x260, 0x400000);
	CHECK_BAD("a bzImage whose load address is outside 1 MiB-4 GiB");
	build();
	w64(img + 0x258, 0xFFFFFFFFFFFFF000ull); /* aligning up wraps to 0 */
	CHECK_BAD("a bzImage whose load address is outside 1 MiB-4 GiB");
}

/* Every truncation and many random corruptions of the header must fail cleanly or give
 * a result consistent with the buffer. */
static void test_fuzz(void)
{
	static u8 good[IMG_LEN];
	int bad = 0, ok = 0;
	build();
	memcpy(good, img, IMG_LEN);
	for (size_t len = 0; len < KERNEL_OFF + 0x2100; len++)
		if (parse_n(len) != -1 || !why)
			bad++;
	CHECK_EQ(bad, 0);
	srand(1);
	for (int i = 0; i < 50000; i++) {
		memcpy(img, good, IMG_LEN);
		for (int k = 1 + rand() % 4; k > 0; k--)
			img[0x1F1 + rand() % (0x270 - 0x1F1)] = (u8)rand();
		if (parse() == 0) {
			ok++;
			if (why || bz.kernel_offset + bz.kernel_size != IMG_LEN ||
			    bz.kernel_offset < bz.header_end || bz.header_end > BZ_HDR_MAX_END ||
			    bz.load_addr < MiB || bz.load_addr + bz.init_size > 4 * GiB ||
			    bz.init_size < bz.kernel_size || bz.version < 0x20C)
				bad++;
		} else if (!why) {
			bad++;
		}
	}
	CHECK_EQ(bad, 0);
	CHECK(ok > 0);
}

static void test_file_kind(void)
{
	build();
	CHECK_STR(file_kind(img, IMG_LEN), "an x86 bzImage");
	u8 b[64] = { 0 };
	CHECK_STR(file_kind(b, sizeof b),
		  "not a kernel this hypervisor knows (no magic number it recognises)");
	memcpy(b + 56, "ARM\x64", 4);
	CHECK(file_kind(b, sizeof b) == file_kind_arm64_image);
	CHECK(file_kind(b, 59) != file_kind_arm64_image); /* the magic cut off */
	memset(b, 0, sizeof b);
	memcpy(b, "070701", 6);
	CHECK_STR(file_kind(b, sizeof b),
		  "an initramfs (a cpio archive) given as the kernel: it belongs in initrd =");
	memcpy(b, "\177ELF\2\1\1", 7);
	b[18] = 183;
	CHECK_STR(file_kind(b, sizeof b), "an arm64 ELF file (a vmlinux: arm64 boots its Image)");
	b[18] = 62;
	b[16] = 1;
	CHECK_STR(file_kind(b, sizeof b), "an x86-64 ELF object file (a kernel module?)");
	CHECK_STR(file_kind(b, 4), "an ELF file");
	memcpy(b, "MZ\0\0zimg", 8);
	CHECK_STR(file_kind(b, sizeof b), "an arm64 EFI zboot image (a compressed kernel that "
					  "only EFI firmware unpacks)");
	memcpy(b,
	       "\xfd"
	       "7zXZ",
	       6);
	CHECK_STR(file_kind(b, sizeof b), "an xz file");
	CHECK_STR(file_kind(b, 5),
		  "not a kernel this hypervisor knows (no magic number it recognises)");
	CHECK_STR(file_kind(b, 0),
		  "not a kernel this hypervisor knows (no magic number it recognises)");
}

/* Debian's vmlinuz: protocol 2.15, 64-bit, at 16 MiB. */
static void test_vmlinuz(void)
{
	size_t len = 0;
	u8 *b = read_file("build/guests/x86_64/vmlinuz", &len);
	if (!b) {
		TEST_SKIP("Debian's vmlinuz: no build/guests/x86_64/vmlinuz (make guests)");
		return;
	}
	why = NULL;
	CHECK_EQ(bzimage_parse(b, len, &bz, &why), 0);
	CHECK(why == NULL);
	CHECK(bz.version >= 0x20C);
	CHECK_EQ(bz.load_addr, 0x1000000);
	CHECK(bz.init_size > bz.kernel_size);
	CHECK_STR(file_kind(b, len), "an x86 bzImage");
	printf("vmlinuz: protocol %u.%02u, %zu KiB kernel at %#llx, init_size %llu KiB\n",
	       bz.version >> 8, bz.version & 0xFF, (size_t)(bz.kernel_size >> 10),
	       (unsigned long long)bz.load_addr, (unsigned long long)(bz.init_size >> 10));
	free(b);
}

int main(void)
{
	test_good();
	test_bad();
	test_fuzz();
	test_file_kind();
	test_vmlinuz();
	return test_summary();
}
