/* SPDX-License-Identifier: GPL-2.0-only */
/* The setup header of a bzImage (bzimage.h). Field offsets: Linux's
 * Documentation/arch/x86/boot.rst, "The real-mode kernel header". */
#include "arch/x86/bzimage.h"
#include "hv/lib.h"

#define OFF_SETUP_SECTS 0x1F1
#define OFF_BOOT_FLAG 0x1FE
#define OFF_JUMP 0x200 /* a short jump over the header: its end is 0x202 + the byte at 0x201 */
#define OFF_HEADER 0x202
#define OFF_VERSION 0x206
#define OFF_INITRD_ADDR_MAX 0x22C
#define OFF_KERNEL_ALIGNMENT 0x230
#define OFF_RELOCATABLE 0x234
#define OFF_XLOADFLAGS 0x236
#define OFF_CMDLINE_SIZE 0x238
#define OFF_PAYLOAD_OFFSET 0x248 /* the compressed kernel, from the protected-mode part */
#define OFF_PAYLOAD_LENGTH 0x24C
#define OFF_PREF_ADDRESS 0x258
#define OFF_INIT_SIZE 0x260
#define HDR_MIN_END 0x264 /* through init_size: protocol 2.10 and later */

#define XLF_KERNEL_64 BIT(0)		  /* a 64-bit entry at load address + 0x200 */
#define XLF_CAN_BE_LOADED_ABOVE_4G BIT(1) /* the initrd too */

static u16 rd16(const u8 *p) { return (u16)(p[0] | p[1] << 8); }
static u32 rd32(const u8 *p) { return rd16(p) | (u32)rd16(p + 2) << 16; }
static u64 rd64(const u8 *p) { return rd32(p) | (u64)rd32(p + 4) << 32; }

bool bzimage_is(const void *buf, size_t len)
{
	const u8 *b = buf;
	return len >= OFF_HEADER + 4 && rd16(b + OFF_BOOT_FLAG) == 0xAA55 &&
	       !memcmp(b + OFF_HEADER, "HdrS", 4);
}

static int fail(struct bzimage *out, const char **why, const char *msg)
{
	memset(out, 0, sizeof *out);
	*why = msg;
	return -1;
}

int bzimage_parse(const void *buf, size_t len, struct bzimage *out, const char **why)
{
	const u8 *b = buf;
	memset(out, 0, sizeof *out);
	if (!bzimage_is(buf, len))
		return fail(out, why, "not a bzImage (no setup header)");
	if (len < HDR_MIN_END)
		return fail(out, why, "a bzImage whose setup header is cut short");
	out->version = rd16(b + OFF_VERSION);
	if (out->version < 0x20C)
		return fail(out, why,
			    "a bzImage of boot protocol older than 2.12 (before Linux 3.8), "
			    "which has no 64-bit entry");
	out->header_end = OFF_HEADER + b[OFF_JUMP + 1];
	if (out->header_end < HDR_MIN_END || len < out->header_end)
		return fail(out, why, "a bzImage whose setup header is cut short");
	out->header_end = MIN(out->header_end, BZ_HDR_MAX_END);
	if (!(rd16(b + OFF_XLOADFLAGS) & XLF_KERNEL_64))
		return fail(out, why, "a bzImage without a 64-bit entry (a 32-bit kernel)");
	u32 setup_sects = b[OFF_SETUP_SECTS] ? b[OFF_SETUP_SECTS] : 4;
	out->kernel_offset = (u64)(setup_sects + 1) * 512;
	if (out->kernel_offset < out->header_end || out->kernel_offset >= len)
		return fail(out, why,
			    "a bzImage cut short: no protected-mode kernel after its setup");
	out->kernel_size = len - out->kernel_offset;
	u64 payload_end = (u64)rd32(b + OFF_PAYLOAD_OFFSET) + rd32(b + OFF_PAYLOAD_LENGTH);
	if (payload_end > out->kernel_size)
		return fail(
			out, why,
			"a bzImage cut short: its compressed kernel runs past the end of the file");
	out->load_addr = rd64(b + OFF_PREF_ADDRESS);
	if (b[OFF_RELOCATABLE]) {
		u32 align = rd32(b + OFF_KERNEL_ALIGNMENT);
		if (!align || (align & (align - 1)))
			return fail(out, why,
				    "a bzImage whose kernel alignment is not a power of two");
		out->load_addr = ALIGN_UP(out->load_addr, (u64)align);
	}
	out->init_size = rd32(b + OFF_INIT_SIZE);
	if (out->init_size < out->kernel_size)
		return fail(out, why, "a bzImage whose init_size is smaller than its kernel");
	if (out->load_addr < 1 * MiB || out->load_addr > 4 * GiB ||
	    out->init_size > 4 * GiB - out->load_addr)
		return fail(out, why, "a bzImage whose load address is outside 1 MiB-4 GiB");
	out->initrd_end_max = rd16(b + OFF_XLOADFLAGS) & XLF_CAN_BE_LOADED_ABOVE_4G
				      ? ~0ull
				      : (u64)rd32(b + OFF_INITRD_ADDR_MAX) + 1;
	out->cmdline_max = rd32(b + OFF_CMDLINE_SIZE);
	return 0;
}
