/* SPDX-License-Identifier: GPL-2.0-only */
/* arm64 Image placement (see linux_image.h). The header, from booting.rst:
 *   0  code0, code1	8  text_offset	16 image_size	24 flags
 *   32 res2..res4	56 magic "ARM\x64"	60 res5 (PE header offset)
 * all little endian, read byte by byte. */
#include "arch/arm64/linux_image.h"
#include "hv/lib.h"

#define IMAGE_MAGIC 0x644d5241
#define FLAG_BE BIT(0)			   /* bit 0: big-endian kernel */
#define FLAG_PAGE_SIZE(f) (((f) >> 1) & 3) /* bits 1-2: 0 unstated, 1 4K, 2 16K, 3 64K */
#define OLD_TEXT_OFFSET 0x80000		   /* image_size 0: before v3.17 */
#define PA_LIMIT BIT(48)
#define INITRD_WINDOW (32 * GiB) /* 1 GiB aligned, must cover kernel and initrd */

static u32 rd32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static u64 rd64(const u8 *p) { return (u64)rd32(p) | (u64)rd32(p + 4) << 32; }

static int fail(struct linux_image_layout *out, const char **why, const char *msg)
{
	memset(out, 0, sizeof(*out));
	if (why)
		*why = msg;
	return -1;
}

int linux_image_layout(const void *img, u64 len, u64 ram_base, u64 ram_size, u64 initrd_len,
		       u64 fdt_size, struct linux_image_layout *out, const char **why)
{
	const u8 *h = img;
	u64 text_offset, image_size, flags, size, kaddr, initrd, fdt, end, ram_end, win_end;

	memset(out, 0, sizeof(*out));
	if (len < LINUX_IMAGE_HEADER_SIZE)
		return fail(out, why, "not an arm64 Image (shorter than its 64-byte header)");
	if (rd32(h + 56) != IMAGE_MAGIC)
		return fail(out, why, "not an arm64 Image (bad magic)");
	text_offset = rd64(h + 8);
	image_size = rd64(h + 16);
	flags = rd64(h + 24);
	if (flags & FLAG_BE)
		return fail(out, why, "big-endian kernel");
	if (image_size && image_size < LINUX_IMAGE_HEADER_SIZE)
		return fail(out, why,
			    "bad arm64 Image header (image_size smaller than the header)");
	if (fdt_size > LINUX_IMAGE_FDT_MAX)
		return fail(out, why, "device tree larger than 2 MiB");
	if (ram_base >= PA_LIMIT || ram_size > PA_LIMIT - ram_base)
		return fail(out, why, "guest RAM beyond the 48-bit physical address space");

	/* "Prior to v3.17 ... image_size is zero and text_offset is 0x80000." */
	if (!image_size)
		text_offset = OLD_TEXT_OFFSET;
	size = image_size ? image_size : len;

	/* Everything is below 2^48 (or clamped there, and then does not fit): no sum
	 * below can overflow. */
	ram_end = ram_base + ram_size;
	kaddr = ALIGN_UP(ram_base, 2 * MiB) + MIN(text_offset, PA_LIMIT);
	initrd = ALIGN_UP(kaddr + MIN(size, PA_LIMIT), PAGE_SIZE);
	fdt = ALIGN_UP(initrd + MIN(initrd_len, PA_LIMIT), 2 * MiB);
	end = fdt + fdt_size;
	if (end > ram_end) {
		memset(out, 0, sizeof(*out));
		snprintf(out->msg, sizeof(out->msg),
			 "kernel + initrd + device tree do not fit in %llu MiB (need %llu MiB)",
			 (unsigned long long)(ram_size / MiB),
			 (unsigned long long)(ALIGN_UP(end - ram_base, MiB) / MiB));
		if (why)
			*why = out->msg;
		return -1;
	}

	/* The initrd must lie in a 1 GiB aligned window of up to 32 GiB that covers
	 * the kernel too. An old kernel's bss is not in the file: move the initrd and
	 * the device tree as high as that and RAM allow, in whole 2 MiB blocks. */
	win_end = ALIGN_DOWN(kaddr, GiB) + INITRD_WINDOW;
	if (!image_size && MIN(ram_end, win_end) > end) {
		u64 up = ALIGN_DOWN(MIN(ram_end, win_end) - end, 2 * MiB);

		initrd += up;
		fdt += up;
	}
	if (initrd_len && initrd + initrd_len > win_end)
		return fail(out, why, "initrd ends beyond 32 GiB from the kernel's 1 GiB block");

	out->kernel_addr = kaddr;
	out->kernel_copy = MIN(len, size); /* a signature may follow image_size */
	out->kernel_size = size;
	out->entry = kaddr;
	out->initrd_addr = initrd_len ? initrd : 0;
	out->fdt_addr = fdt;
	out->page_size = FLAG_PAGE_SIZE(flags) ? 4096u << (2 * (FLAG_PAGE_SIZE(flags) - 1)) : 0;
	return 0;
}
