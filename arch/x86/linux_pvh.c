/* SPDX-License-Identifier: GPL-2.0-only */
/* Boots a Linux vmlinux through its PVH entry (Xen's x86 PVH boot ABI, which Linux and
 * QEMU share): the kernel's ELF segments at their physical addresses, a start-info block
 * with the command line, the initrd as module 0, the memory map and the ACPI RSDP. The
 * vCPU starts in 32-bit flat protected mode with paging off, which avoids every
 * real-mode and long-mode-without-paging state (see EMULATION.md on QEMU's LME trap). */
#include "arch/x86/linux_boot.h"
#include "arch/x86/elf_pvh.h"
#include "arch/x86/kernel_load.h"
#include "hv/vm_config.h"
#include "hv/printk.h"
#include "hv/lib.h"

#define PVH_MAGIC 0x336ec578u

struct hvm_start_info {
	u32 magic, version, flags, nr_modules;
	u64 modlist_paddr, cmdline_paddr, rsdp_paddr, memmap_paddr;
	u32 memmap_entries, reserved;
} PACKED;

struct hvm_modlist_entry {
	u64 paddr, size, cmdline_paddr, reserved;
} PACKED;

struct hvm_memmap_entry {
	u64 addr, size;
	u32 type, reserved;
} PACKED;

int linux_pvh_load(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img,
		   struct x86_boot *boot)
{
	struct elf_image elf;
	const char *why = "";
	if (elf_pvh_parse(img->kernel, img->kernel_len, &elf, &why)) {
		printk("hv: VM '%s': %s: %s\n", vm->name, cfg->kernel, why);
		return -1;
	}
	if (elf.lowest_paddr < 0x100000 || elf.highest_paddr_end > x86_low_ram_end(vm)) {
		printk("hv: VM '%s': %s: the kernel occupies %llx-%llx, outside the VM's %llu MiB "
		       "of RAM between 1 MiB and 3 GiB\n",
		       vm->name, cfg->kernel, (unsigned long long)elf.lowest_paddr,
		       (unsigned long long)elf.highest_paddr_end,
		       (unsigned long long)(x86_low_ram_end(vm) >> 20));
		return -1;
	}
	x86_load_segments(vm, img, &elf);

	struct linux_boot lb = {
		.kernel_end = elf.highest_paddr_end,
		.initrd_end_max = ~0ull,
		.cmdline_max = PAGE_SIZE - 1,
	};
	if (linux_boot_common(vm, cfg, img, &lb))
		return -1;

	struct hvm_start_info *si = (void *)(vm->ram + GPA_BOOT_INFO);
	struct hvm_memmap_entry *mm = (void *)(si + 1);
	struct hvm_modlist_entry *mod = (void *)(mm + E820_MAX);
	for (u32 i = 0; i < lb.tables.nmap; i++)
		mm[i] = (struct hvm_memmap_entry){ lb.tables.map[i].addr, lb.tables.map[i].size,
						   lb.tables.map[i].type, 0 };
	*si = (struct hvm_start_info){
		.magic = PVH_MAGIC,
		.version = 1,
		.nr_modules = lb.initrd_len ? 1 : 0,
		.modlist_paddr = (u64)((u8 *)mod - vm->ram),
		.cmdline_paddr = lb.cmdline_gpa,
		.rsdp_paddr = lb.tables.rsdp_gpa,
		.memmap_paddr = (u64)((u8 *)mm - vm->ram),
		.memmap_entries = lb.tables.nmap,
	};
	*mod = (struct hvm_modlist_entry){ lb.initrd_gpa, lb.initrd_len, 0, 0 };
	*boot = (struct x86_boot){ .entry = elf.entry, .arg = GPA_BOOT_INFO };
	return 0;
}
