/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for the arm64 Image layout (arch/arm64/linux_image.c): the header shapes
 * of real kernels, bad headers, and the placement rules of booting.rst checked over
 * many RAM sizes and bases. Images are buffers of exactly their file length. */
#include <stdlib.h>
#include "../../../arch/arm64/linux_image.c"
#include "../bytes.h"
#include "../test.h"

#define DEBIAN_LEN 32956352 /* Debian 12's vmlinuz-6.1.0-*-arm64 */
#define DEBIAN_IMAGE_SIZE 0x2010000

static struct linux_image_layout lo;
static const char *why;

/* An Image of len bytes with this header (and the rest zero). */
static u8 *image(u64 len, u64 text_offset, u64 image_size, u64 flags)
{
	u8 *h = calloc(1, len ? len : 1);

	if (len >= 64) {
		w32(h, 0xfa405a4d);	/* "MZ" + ccmp: the EFI stub's PE signature */
		w32(h + 4, 0x1459a356); /* b primary_entry */
		w64(h + 8, text_offset);
		w64(h + 16, image_size);
		w64(h + 24, flags);
		w32(h + 56, 0x644d5241); /* "ARM\x64" */
		w32(h + 60, 0x40);	 /* PE header offset */
	}
	return h;
}

static int layout(const u8 *img, u64 len, u64 base, u64 size, u64 initrd, u64 fdt)
{
	why = NULL;
	return linux_image_layout(img, len, base, size, initrd, fdt, &lo, &why);
}

static bool all_zero(const struct linux_image_layout *l)
{
	static const struct linux_image_layout zero;

	return !memcmp(l, &zero, sizeof(zero));
}

static void test_debian(void)
{
	u8 *img = image(DEBIAN_LEN, 0, DEBIAN_IMAGE_SIZE, 0xa);

	CHECK_EQ(layout(img, DEBIAN_LEN, 0x40000000, 512 * MiB, 0x123456, 0x2000), 0);
	CHECK(why == NULL);
	CHECK_EQ(lo.kernel_addr, 0x40000000);
	CHECK_EQ(lo.entry, 0x40000000);
	CHECK_EQ(lo.kernel_copy, DEBIAN_LEN);
	CHECK_EQ(lo.kernel_size, DEBIAN_IMAGE_SIZE);
	CHECK_EQ(lo.initrd_addr, 0x42010000);
	CHECK_EQ(lo.fdt_addr, 0x42200000);
	CHECK_EQ(lo.page_size, 4096);

	/* No initrd: the device tree follows the kernel. */
	CHECK_EQ(layout(img, DEBIAN_LEN, 0x40000000, 512 * MiB, 0, 0x2000), 0);
	CHECK_EQ(lo.initrd_addr, 0);
	CHECK_EQ(lo.fdt_addr, 0x42200000);

	/* RAM not 2 MiB aligned: the kernel goes to the next 2 MiB boundary. */
	CHECK_EQ(layout(img, DEBIAN_LEN, 0x40001000, 512 * MiB, 0, 0x2000), 0);
	CHECK_EQ(lo.kernel_addr, 0x40200000);

	/* The smallest RAM it fits in, and one byte less. */
	CHECK_EQ(layout(img, DEBIAN_LEN, 0x40000000, 0x2200000 + 0x2000, 0x1000, 0x2000), 0);
	CHECK_EQ(lo.fdt_addr, 0x42200000);
	CHECK_EQ(layout(img, DEBIAN_LEN, 0x40000000, 0x2200000 + 0x1fff, 0x1000, 0x2000), -1);
	CHECK_STR(why, "kernel + initrd + device tree do not fit in 34 MiB (need 35 MiB)");
	CHECK(why == lo.msg);

	/* A NULL why is allowed. */
	CHECK_EQ(linux_image_layout(img, DEBIAN_LEN, 0x40000000, 64 * MiB, 0, 0x2000, &lo, NULL),
		 0);
	CHECK_EQ(linux_image_layout(img, DEBIAN_LEN, 0x40000000, 32 * MiB, 0, 0x2000, &lo, NULL),
		 -1);
	free(img);
}

static void test_shapes(void)
{
	u8 *img;

	/* v3.17..v5.7: text_offset 0x80000, image_size set; no page size stated. */
	img = image(0x1000000, 0x80000, 0x1400000, 0);
	CHECK_EQ(layout(img, 0x1000000, 0x80000000, 256 * MiB, 0x10000, 0x1000), 0);
	CHECK_EQ(lo.kernel_addr, 0x80080000);
	CHECK_EQ(lo.entry, 0x80080000);
	CHECK_EQ(lo.kernel_copy, 0x1000000);
	CHECK_EQ(lo.kernel_size, 0x1400000);
	CHECK_EQ(lo.initrd_addr, 0x81480000);
	CHECK_EQ(lo.fdt_addr, 0x81600000);
	CHECK_EQ(lo.page_size, 0);
	free(img);

	/* The page size from flags bits 1-2. */
	static const u32 pages[] = { 0, 4096, 16384, 65536 };
	u32 i;
	for (i = 0; i < 4; i++) {
		img = image(4096, 0, 0x200000, i << 1 | 8);
		CHECK_EQ(layout(img, 4096, 0x40000000, 64 * MiB, 0, 0x1000), 0);
		CHECK_EQ(lo.page_size, pages[i]);
		free(img);
	}

	/* A signature after image_size is not copied: the initrd may go there. */
	img = image(0x300000, 0, 0x200100, 0xa);
	CHECK_EQ(layout(img, 0x300000, 0x40000000, 64 * MiB, 0x1000, 0x1000), 0);
	CHECK_EQ(lo.kernel_copy, 0x200100);
	CHECK_EQ(lo.initrd_addr, 0x40201000);
	free(img);

	/* Before v3.17: image_size 0, text_offset 0x80000 whatever the field says (its
	 * endianness was unspecified); the initrd and the device tree go as high as
	 * possible, leaving room for the bss after the kernel. */
	img = image(0x600000, 0x0000080000000000ull, 0, 0);
	CHECK_EQ(layout(img, 0x600000, 0x40000000, 256 * MiB, 0x100000, 0x10000), 0);
	CHECK_EQ(lo.kernel_addr, 0x40080000);
	CHECK_EQ(lo.kernel_copy, 0x600000);
	CHECK_EQ(lo.kernel_size, 0x600000);
	CHECK_EQ(lo.fdt_addr, 0x4fe00000);
	CHECK_EQ(lo.initrd_addr, 0x4fc80000);
	/* Not in 8 MiB; in 10 MiB, with less than a 2 MiB block to move up by. */
	CHECK_EQ(layout(img, 0x600000, 0x40000000, 8 * MiB, 0x100000, 0x10000), -1);
	CHECK_STR(why, "kernel + initrd + device tree do not fit in 8 MiB (need 9 MiB)");
	CHECK_EQ(layout(img, 0x600000, 0x40000000, 10 * MiB, 0x100000, 0x10000), 0);
	CHECK_EQ(lo.fdt_addr, 0x40800000);
	CHECK_EQ(lo.initrd_addr, 0x40680000);
	/* With 64 GiB, no higher than 32 GiB from the kernel's 1 GiB block. */
	CHECK_EQ(layout(img, 0x600000, 0x40000000, 64 * GiB, 0x100000, 0x10000), 0);
	CHECK_EQ(lo.fdt_addr, 0x40000000 + 32 * GiB - 2 * MiB);
	CHECK_EQ(lo.initrd_addr, 0x40000000 + 32 * GiB - 2 * MiB - 0x180000);
	free(img);
}

static void test_bad(void)
{
	u8 *img = image(4096, 0, 0x200000, 0xa);
	u8 *tiny;

	/* Short files, read from buffers of exactly that size. */
	tiny = image(0, 0, 0, 0);
	CHECK_EQ(layout(tiny, 0, 0x40000000, 64 * MiB, 0, 0x1000), -1);
	CHECK_STR(why, "not an arm64 Image (shorter than its 64-byte header)");
	free(tiny);
	tiny = malloc(63);
	memcpy(tiny, img, 63);
	CHECK_EQ(layout(tiny, 63, 0x40000000, 64 * MiB, 0, 0x1000), -1);
	CHECK_STR(why, "not an arm64 Image (shorter than its 64-byte header)");
	CHECK(all_zero(&lo));
	free(tiny);
	tiny = malloc(64);
	memcpy(tiny, img, 64);
	CHECK_EQ(layout(tiny, 64, 0x40000000, 64 * MiB, 0, 0x1000), 0);
	free(tiny);

	/* Bad magic: an ELF vmlinux's bytes there, one byte off. */
	memcpy(img + 56, "\177ELF", 4);
	CHECK_EQ(layout(img, 4096, 0x40000000, 64 * MiB, 0, 0x1000), -1);
	CHECK_STR(why, "not an arm64 Image (bad magic)");
	free(img);
	img = image(4096, 0, 0x200000, 0xa);
	img[56 + 3] = 0x65;
	CHECK_EQ(layout(img, 4096, 0x40000000, 64 * MiB, 0, 0x1000), -1);
	CHECK_STR(why, "not an arm64 Image (bad magic)");
	CHECK(all_zero(&lo));
	free(img);

	img = image(4096, 0, 0x200000, 0xb);
	CHECK_EQ(layout(img, 4096, 0x40000000, 64 * MiB, 0, 0x1000), -1);
	CHECK_STR(why, "big-endian kernel");
	free(img);

	img = image(4096, 0, 63, 0xa);
	CHECK_EQ(layout(img, 4096, 0x40000000, 64 * MiB, 0, 0x1000), -1);
	CHECK_STR(why, "bad arm64 Image header (image_size smaller than the header)");
	free(img);

	img = image(4096, 0, 0x200000, 0xa);
	CHECK_EQ(layout(img, 4096, 0x40000000, 64 * MiB, 0, 2 * MiB), 0);
	CHECK_EQ(layout(img, 4096, 0x40000000, 64 * MiB, 0, 2 * MiB + 1), -1);
	CHECK_STR(why, "device tree larger than 2 MiB");
	CHECK_EQ(layout(img, 4096, BIT(48) - 64 * MiB, 64 * MiB, 0, 0x1000), 0);
	CHECK_EQ(layout(img, 4096, BIT(48) - 64 * MiB, 64 * MiB + 1, 0, 0x1000), -1);
	CHECK_STR(why, "guest RAM beyond the 48-bit physical address space");
	CHECK_EQ(layout(img, 4096, UINT64_MAX - 10, 64 * MiB, 0, 0x1000), -1);
	CHECK_STR(why, "guest RAM beyond the 48-bit physical address space");

	/* Sizes that would overflow do not fit. */
	CHECK_EQ(layout(img, 4096, 0x40000000, 64 * MiB, UINT64_MAX, 0x1000), -1);
	CHECK(why && !strncmp(why, "kernel + initrd + device tree do not fit in 64 MiB", 50));
	free(img);
	img = image(4096, UINT64_MAX - 0x1000, 0x200000, 0xa);
	CHECK_EQ(layout(img, 4096, 0x40000000, 64 * MiB, 0, 0x1000), -1);
	CHECK(why && !strncmp(why, "kernel + initrd + device tree do not fit", 40));
	free(img);
	img = image(4096, 0, UINT64_MAX, 0xa);
	CHECK_EQ(layout(img, 4096, 0x40000000, 64 * MiB, 0, 0x1000), -1);
	CHECK(why && !strncmp(why, "kernel + initrd + device tree do not fit", 40));
	free(img);

	/* An initrd beyond the 32 GiB window that covers the kernel. */
	img = image(4096, 0, 0x200000, 0xa);
	CHECK_EQ(layout(img, 4096, 0x40000000, 64 * GiB, 32 * GiB - 2 * MiB, 0x1000), 0);
	CHECK_EQ(layout(img, 4096, 0x40000000, 64 * GiB, 32 * GiB - 2 * MiB + 1, 0x1000), -1);
	CHECK_STR(why, "initrd ends beyond 32 GiB from the kernel's 1 GiB block");
	free(img);
}

/* One case of test_properties: img (len bytes, text_offset toff, image_size isize) in ram
 * bytes at base with an initrd and an FDT of these sizes. Returns whether it fit. */
static bool check_case(const u8 *img, u64 len, u64 toff_field, u64 isize, u64 base, u64 ram,
		       u64 initrd, u64 fdt)
{
	u64 toff = isize ? toff_field : 0x80000;
	u64 ksize = isize ? isize : len;
	u64 kbase = ALIGN_UP(base, 2 * MiB), kend = kbase + toff + ksize;
	u64 close = ALIGN_UP(ALIGN_UP(kend, 4096) + initrd, 2 * MiB);
	int r = layout(img, len, base, ram, initrd, fdt);

	CHECK_EQ(r, close + fdt <= base + ram ? 0 : -1);
	if (r) {
		CHECK(why && !strncmp(why, "kernel + initrd + device tree do not fit", 40));
		return false;
	}
	/* Kernel: text_offset above a 2 MiB boundary, the first in RAM. */
	CHECK_EQ(lo.kernel_addr, kbase + toff);
	CHECK_EQ(lo.entry, lo.kernel_addr);
	CHECK_EQ(lo.kernel_size, ksize);
	CHECK_EQ(lo.kernel_copy, MIN(len, ksize));
	CHECK(lo.kernel_addr >= base);
	/* Initrd: page aligned, after the kernel's image_size, in RAM. */
	if (initrd) {
		CHECK_EQ(lo.initrd_addr % 4096, 0);
		CHECK(lo.initrd_addr >= kend);
		CHECK(lo.initrd_addr + initrd <= lo.fdt_addr);
		CHECK(lo.initrd_addr + initrd - ALIGN_DOWN(lo.kernel_addr, GiB) <= 32 * GiB);
	} else {
		CHECK_EQ(lo.initrd_addr, 0);
	}
	/* FDT: a 2 MiB block to itself (so 8-byte aligned), inside RAM. */
	CHECK_EQ(lo.fdt_addr % (2 * MiB), 0);
	CHECK(lo.fdt_addr >= kend);
	CHECK(lo.fdt_addr + fdt <= base + ram);
	/* As close to the kernel as that allows, or, for an old kernel, to the end of RAM. */
	if (isize)
		CHECK_EQ(lo.fdt_addr, close);
	else
		CHECK(base + ram - (lo.fdt_addr + fdt) < 2 * MiB);
	return true;
}

/* booting.rst's rules, for many RAM bases and sizes, kernel, initrd and FDT sizes. */
static void test_properties(void)
{
	static const u64 bases[] = { 0, 0x40000000, 0x40001000, 0x801fffff000ull, 0x8000000000ull };
	static const u64 toffs[] = { 0, 0x80000, 0x1000 };
	static const u64 isizes[] = { 0, 0x200000, 0x2010000, 0x1234567 };
	static const u64 initrds[] = { 0, 1, 4095, 4096, 5 * MiB + 1 };
	static const u64 fdts[] = { 1, 0x2000, 2 * MiB };
	u64 len = 0x1000000, ram, fits = 0, fails = 0;
	size_t b, t, s, i, f;

	for (t = 0; t < ARRAY_SIZE(toffs); t++) {
		for (s = 0; s < ARRAY_SIZE(isizes); s++) {
			u8 *img = image(len, toffs[t], isizes[s], 0xa);

			for (b = 0; b < ARRAY_SIZE(bases); b++)
				for (ram = 2 * MiB; ram <= 128 * MiB; ram += 3 * MiB + 0x1000)
					for (i = 0; i < ARRAY_SIZE(initrds); i++)
						for (f = 0; f < ARRAY_SIZE(fdts); f++) {
							if (check_case(img, len, toffs[t],
								       isizes[s], bases[b], ram,
								       initrds[i], fdts[f]))
								fits++;
							else
								fails++;
						}
			free(img);
		}
	}
	/* Both outcomes were exercised. */
	CHECK(fits > 1000);
	CHECK(fails > 1000);
}

int main(void)
{
	test_debian();
	test_shapes();
	test_bad();
	test_properties();
	return test_summary();
}
