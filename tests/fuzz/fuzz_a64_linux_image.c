/* SPDX-License-Identifier: GPL-2.0-only */
/* The arm64 Image loader's layout (arch/arm64/linux_image.c) on an untrusted kernel
 * file. Input: the VM's RAM base and size, the initrd's length (8 bytes each), the
 * device tree's size (4 bytes), then the Image file (a heap copy of exactly its
 * length). Checked for an accepted layout: the kernel (text_offset above a 2 MiB
 * boundary), the initrd (page aligned, after the kernel's image_size) and the device
 * tree (2 MiB aligned, after the initrd) lie in RAM in that order without overlap, the
 * initrd inside the 32 GiB window, the copy within the file; a refusal says why. */
#include "../../arch/arm64/linux_image.c"
#include "fuzz.h"

static void check_layout(const struct linux_image_layout *lo, const u8 *img, u64 len, u64 base,
			 u64 size, u64 initrd_len, u64 fdt_size)
{
	u64 ram_end = base + size;
	u64 text_offset = rd64(img + 16) ? rd64(img + 8) : OLD_TEXT_OFFSET;

	FUZZ_CHECK(base < PA_LIMIT && ram_end <= PA_LIMIT);
	FUZZ_CHECK(lo->kernel_addr == ALIGN_UP(base, 2 * MiB) + text_offset);
	FUZZ_CHECK(lo->entry == lo->kernel_addr);
	FUZZ_CHECK(lo->kernel_copy <= len && lo->kernel_copy <= lo->kernel_size);
	FUZZ_CHECK(lo->kernel_size >= LINUX_IMAGE_HEADER_SIZE);
	FUZZ_CHECK(lo->kernel_addr >= base && lo->kernel_size <= ram_end - lo->kernel_addr);
	u64 next = lo->kernel_addr + lo->kernel_size;
	if (initrd_len) {
		FUZZ_CHECK(lo->initrd_addr % PAGE_SIZE == 0 && lo->initrd_addr >= next);
		FUZZ_CHECK(initrd_len <= ram_end - lo->initrd_addr);
		FUZZ_CHECK(lo->initrd_addr + initrd_len <=
			   ALIGN_DOWN(lo->kernel_addr, GiB) + INITRD_WINDOW);
		next = lo->initrd_addr + initrd_len;
	} else {
		FUZZ_CHECK(lo->initrd_addr == 0);
	}
	FUZZ_CHECK(lo->fdt_addr % (2 * MiB) == 0 && lo->fdt_addr >= next);
	FUZZ_CHECK(fdt_size <= LINUX_IMAGE_FDT_MAX && fdt_size <= ram_end - lo->fdt_addr);
	FUZZ_CHECK(lo->page_size == 0 || lo->page_size == 4096 || lo->page_size == 16384 ||
		   lo->page_size == 65536);
	volatile u8 last = img[lo->kernel_copy - 1]; /* the copy is in the file */
	(void)last;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in fin = { data, size };
	u64 base = take_u64(&fin), ram = take_u64(&fin), initrd = take_u64(&fin);
	u64 fdt = take_u32(&fin);
	u8 *img = fuzz_copy(fin.p, fin.n);
	struct linux_image_layout lo;
	const char *why = NULL;

	if (linux_image_layout(img, fin.n, base, ram, initrd, fdt, &lo, &why) == 0) {
		FUZZ_CHECK(why == NULL);
		check_layout(&lo, img, fin.n, base, ram, initrd, fdt);
	} else {
		FUZZ_CHECK(why && *why && lo.kernel_size == 0);
		FUZZ_CHECK(why == lo.msg || lo.msg[0] == 0);
	}
	free(img);
	return 0;
}
