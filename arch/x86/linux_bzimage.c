/* SPDX-License-Identifier: GPL-2.0-only */
/* Boots a bzImage through the 64-bit entry of the Linux x86 boot protocol
 * (Documentation/arch/x86/boot.rst, "64-bit Boot Protocol"): the protected-mode kernel
 * at its preferred address, a zero page (struct boot_params) holding the file's setup
 * header, the e820 map, the command line, the initrd and the ACPI RSDP, and the vCPU in
 * 64-bit mode with an identity map of the low 4 GiB, a GDT with flat code (0x10) and data
 * (0x18) and RSI pointing at the zero page. The kernel's own decompressor runs from
 * there, in 64-bit mode all along (so neither real mode nor QEMU's LME trap, see
 * EMULATION.md). */
#include "arch/x86/linux_boot.h"
#include "arch/x86/bzimage.h"
#include "hv/vm_config.h"
#include "hv/printk.h"
#include "hv/lib.h"

/* struct boot_params (arch/x86/include/uapi/asm/bootparam.h), the fields written here. */
#define ZP_ACPI_RSDP_ADDR 0x070
#define ZP_EXT_RAMDISK_IMAGE 0x0C0
#define ZP_EXT_RAMDISK_SIZE 0x0C4
#define ZP_EXT_CMD_LINE_PTR 0x0C8
#define ZP_E820_ENTRIES 0x1E8
#define ZP_TYPE_OF_LOADER 0x210
#define ZP_RAMDISK_IMAGE 0x218
#define ZP_RAMDISK_SIZE 0x21C
#define ZP_CMD_LINE_PTR 0x228
#define ZP_E820_TABLE 0x2D0
#define LOADER_UNDEFINED 0xFF /* a boot loader without an assigned ID */
#define ENTRY_64 0x200	      /* the 64-bit entry: load address + 0x200 */

static void wr32(u8 *p, u64 v) { memcpy(p, &v, 4); } /* little-endian host */
static void wr64(u8 *p, u64 v) { memcpy(p, &v, 8); }

/* PML4, PDPT and four page directories of 2 MiB pages: virtual = physical below 4 GiB.
 * Returns CR3. */
static u64 build_identity_map(struct vm *vm)
{
	u64 *pml4 = (u64 *)(vm->ram + GPA_BOOT_PAGING), *pdpt = pml4 + 512, *pd = pdpt + 512;
	memset(pml4, 0, 6 * PAGE_SIZE);
	pml4[0] = (GPA_BOOT_PAGING + PAGE_SIZE) | 3; /* present, writable */
	for (u64 i = 0; i < 4; i++)
		pdpt[i] = (GPA_BOOT_PAGING + (2 + i) * PAGE_SIZE) | 3;
	for (u64 i = 0; i < 4 * 512; i++)
		pd[i] = (i * 2 * MiB) | 0x83; /* present, writable, 2 MiB page */
	return GPA_BOOT_PAGING;
}

int linux_bzimage_load(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img,
		       struct x86_boot *boot)
{
	struct bzimage bz;
	const char *why = "";
	if (bzimage_parse(img->kernel, img->kernel_len, &bz, &why)) {
		printk("hv: VM '%s': %s: %s\n", vm->name, cfg->kernel, why);
		return -1;
	}
	if (bz.load_addr + bz.init_size > x86_low_ram_end(vm)) {
		printk("hv: VM '%s': %s: the kernel needs RAM up to %llu MiB to unpack itself "
		       "(its init_size from %llu MiB); the VM has %llu MiB\n",
		       vm->name, cfg->kernel,
		       (unsigned long long)((bz.load_addr + bz.init_size) >> 20),
		       (unsigned long long)(bz.load_addr >> 20),
		       (unsigned long long)(x86_low_ram_end(vm) >> 20));
		return -1;
	}
	memcpy(vm->ram + bz.load_addr, (const u8 *)img->kernel + bz.kernel_offset, bz.kernel_size);

	struct linux_boot lb = {
		.kernel_end = bz.load_addr + bz.init_size,
		.initrd_end_max = bz.initrd_end_max,
		.cmdline_max = bz.cmdline_max,
	};
	if (linux_boot_common(vm, cfg, img, &lb))
		return -1;

	u8 *zp = vm->ram + GPA_BOOT_INFO;
	memset(zp, 0, PAGE_SIZE);
	memcpy(zp + BZ_HDR_START, (const u8 *)img->kernel + BZ_HDR_START,
	       bz.header_end - BZ_HDR_START);
	zp[ZP_TYPE_OF_LOADER] = LOADER_UNDEFINED;
	wr32(zp + ZP_RAMDISK_IMAGE, lb.initrd_gpa);
	wr32(zp + ZP_RAMDISK_SIZE, lb.initrd_len);
	wr32(zp + ZP_EXT_RAMDISK_IMAGE, lb.initrd_gpa >> 32);
	wr32(zp + ZP_EXT_RAMDISK_SIZE, lb.initrd_len >> 32);
	wr32(zp + ZP_CMD_LINE_PTR, lb.cmdline_gpa);
	wr32(zp + ZP_EXT_CMD_LINE_PTR, lb.cmdline_gpa >> 32);
	wr64(zp + ZP_ACPI_RSDP_ADDR, lb.tables.rsdp_gpa);
	zp[ZP_E820_ENTRIES] = (u8)lb.tables.nmap;
	memcpy(zp + ZP_E820_TABLE, lb.tables.map, lb.tables.nmap * sizeof lb.tables.map[0]);

	/* The GDT: null, unused, 64-bit code at 0x10, data at 0x18 (flat, present, ring 0). */
	u64 *gdt = (u64 *)(vm->ram + GPA_BOOT_GDT);
	gdt[0] = gdt[1] = 0;
	gdt[2] = 0x00AF9B000000FFFFull;
	gdt[3] = 0x00CF93000000FFFFull;

	*boot = (struct x86_boot){
		.long_mode = true,
		.entry = bz.load_addr + ENTRY_64,
		.arg = GPA_BOOT_INFO,
		.cr3 = build_identity_map(vm),
	};
	printk("hv: VM '%s': %s: bzImage, boot protocol %u.%02u, %llu KiB at %llu MiB, "
	       "64-bit entry\n",
	       vm->name, cfg->kernel, bz.version >> 8, bz.version & 0xFF,
	       (unsigned long long)(bz.kernel_size >> 10),
	       (unsigned long long)(bz.load_addr >> 20));
	return 0;
}
