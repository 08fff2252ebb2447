/* SPDX-License-Identifier: GPL-2.0-only */
/* Boots a multiboot (v1) kernel as QEMU's -kernel does (multiboot.h): its segments where
 * its header or ELF file says, each file of initrd = as a module on its own pages after
 * it, and the information structure in the VM's boot data (guest_layout.h), with the
 * command line (the kernel's path first, as QEMU and GRUB give it), the modules' paths,
 * mem_lower and mem_upper and the memory map that Linux gets as e820. The vCPU starts as
 * section 3.2 says: 32-bit protected mode, paging off, flat segments, EAX = 0x2BADB002,
 * EBX = the information's address (the PVH entry's state, plus EAX). */
#include "arch/x86/kernel_load.h"
#include "arch/x86/boot_tables.h"
#include "arch/x86/multiboot.h"
#include "hv/vm_config.h"
#include "hv/printk.h"
#include "hv/lib.h"

#define MB_INFO_SIZE (GPA_BOOT_DATA_END - GPA_BOOT_INFO)

/* mem_lower and mem_upper (3.3), in KiB, from the memory map: memory from 0 up to the
 * first reserved range, and the RAM from 1 MiB on. */
static void mem_sizes(const struct boot_tables *t, u32 *lower, u32 *upper)
{
	u64 low = 640 * KiB;
	*upper = 0;
	for (u32 i = 0; i < t->nmap; i++) {
		const struct e820_entry *e = &t->map[i];
		if (e->type == E820_RESERVED && e->addr < low)
			low = e->addr;
		if (e->type == E820_RAM && e->addr == MiB)
			*upper = (u32)(e->size >> 10);
	}
	*lower = (u32)(low >> 10);
}

int multiboot_load(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img,
		   struct x86_boot *boot)
{
	struct elf_image k;
	const char *why = "";
	u64 mod_gpa[CFG_MAX_INITRDS], mod_len[CFG_MAX_INITRDS];
	const char *mod_string[CFG_MAX_INITRDS];

	if (multiboot_parse(img->kernel, img->kernel_len, &k, &why)) {
		printk("hv: VM '%s': %s: a multiboot kernel: %s\n", vm->name, cfg->kernel, why);
		return -1;
	}
	for (u32 i = 0; i < img->ninitrds; i++) {
		mod_len[i] = img->initrd[i].len;
		mod_string[i] = cfg->initrd[i];
	}
	if (multiboot_place(&k, x86_low_ram_end(vm), mod_len, img->ninitrds, mod_gpa, &why)) {
		printk("hv: VM '%s': %s: %s (the kernel occupies %llx-%llx, the VM has %llu MiB "
		       "below %llu MiB)\n",
		       vm->name, cfg->kernel, why, (unsigned long long)k.lowest_paddr,
		       (unsigned long long)k.highest_paddr_end,
		       (unsigned long long)(x86_low_ram_end(vm) >> 20),
		       (unsigned long long)(GPA_LOW_RAM_END >> 20));
		return -1;
	}
	x86_load_segments(vm, img, &k);
	for (u32 i = 0; i < img->ninitrds; i++)
		memcpy(vm->ram + mod_gpa[i], img->initrd[i].data, mod_len[i]);

	struct boot_tables t;
	if (x86_boot_tables(vm, &t))
		return -1;
	struct multiboot_mmap map[E820_MAX];
	for (u32 i = 0; i < t.nmap; i++)
		map[i] = (struct multiboot_mmap){ t.map[i].addr, t.map[i].size, t.map[i].type };
	char cmdline[CFG_PATH_MAX + CFG_CMDLINE_MAX];
	snprintf(cmdline, sizeof cmdline, "%s%s%s", cfg->kernel, cfg->cmdline[0] ? " " : "",
		 cfg->cmdline);
	struct multiboot_params p = {
		.cmdline = cmdline,
		.loader_name = "hv",
		.nmods = img->ninitrds,
		.mod_gpa = mod_gpa,
		.mod_len = mod_len,
		.mod_string = mod_string,
		.nmap = t.nmap,
		.map = map,
	};
	mem_sizes(&t, &p.mem_lower, &p.mem_upper);
	if (multiboot_info_build(vm->ram + GPA_BOOT_INFO, MB_INFO_SIZE, GPA_BOOT_INFO, &p, &why)) {
		printk("hv: VM '%s': %s\n", vm->name, why);
		return -1;
	}
	*boot = (struct x86_boot){ .entry = k.entry,
				   .arg = GPA_BOOT_INFO,
				   .eax = MULTIBOOT_BOOT_MAGIC };
	printk("hv: VM '%s': %s: multiboot kernel, %llx-%llx, entry %llx, %u module%s\n", vm->name,
	       cfg->kernel, (unsigned long long)k.lowest_paddr,
	       (unsigned long long)k.highest_paddr_end, (unsigned long long)k.entry, img->ninitrds,
	       img->ninitrds == 1 ? "" : "s");
	return 0;
}
