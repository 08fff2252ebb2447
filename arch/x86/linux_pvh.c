/* SPDX-License-Identifier: GPL-2.0-only */
/* Boots a Linux vmlinux through its PVH entry (Xen's x86 PVH boot ABI, which Linux and
 * QEMU share): the kernel's ELF segments at their physical addresses, a start-info block
 * with the command line, the initrd as module 0, the memory map and the ACPI RSDP. The
 * vCPU starts in 32-bit flat protected mode with paging off, which avoids every
 * real-mode and long-mode-without-paging state (see EMULATION.md on QEMU's LME trap). */
#include "arch/x86/guest.h"
#include "arch/x86/guest_acpi.h"
#include "boot/config.h"
#include "hv/console.h"
#include "hv/arch.h"
#include "arch/x86/elf_pvh.h"
#include "hv/lib.h"
#include "hv/pv_features.h"

#define PVH_MAGIC 0x336ec578u
#define E820_RAM 1
#define E820_RESERVED 2
#define E820_ACPI 3

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

static bool has_word_prefix(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);
	for (const char *p = s; *p; p++)
		if ((p == s || p[-1] == ' ') && !strncmp(p, prefix, n))
			return true;
	return false;
}

/* The user's command line. Without kvmclock the guest must calibrate its TSC against
 * the PIT or the ACPI PM timer, which fails when each read costs a slow exit (as under
 * emulation: Linux rejects reads slower than 50k cycles) and leaves it without a usable
 * timer; so such a VM is told the TSC frequency, as CPUID leaf 15h tells it on Intel. */
static void build_cmdline(struct vm *vm, char *dst, size_t n, const char *user)
{
	if ((vm->pv & BIT(PV_CLOCK)) || has_word_prefix(user, "tsc_early_khz="))
		snprintf(dst, n, "%s", user);
	else
		snprintf(dst, n, "%s tsc_early_khz=%llu", user,
			 (unsigned long long)(arch_time_hz / 1000));
}

int x86_linux_load(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img,
		   u64 *entry, u64 *start_info)
{
	struct elf_image elf;
	const char *why = "";
	if (elf_pvh_parse(img->kernel, img->kernel_len, &elf, &why)) {
		printk("hv: %s: %s\n", cfg->kernel, why);
		return -1;
	}
	if (elf.lowest_paddr < 0x100000 || elf.highest_paddr_end > vm->ram_size) {
		printk("hv: %s: the kernel occupies %llx-%llx, outside the VM's %llu MiB of RAM "
		       "above 1 MiB\n",
		       cfg->kernel, (unsigned long long)elf.lowest_paddr,
		       (unsigned long long)elf.highest_paddr_end,
		       (unsigned long long)(vm->ram_size >> 20));
		return -1;
	}
	for (u32 i = 0; i < elf.nsegments; i++) {
		const struct elf_segment *s = &elf.seg[i];
		memcpy(vm->ram + s->paddr, (const u8 *)img->kernel + s->file_offset, s->filesz);
		memset(vm->ram + s->paddr + s->filesz, 0, s->memsz - s->filesz);
	}

	u64 initrd_gpa = 0;
	if (img->initrd_len) {
		initrd_gpa = ALIGN_DOWN(vm->ram_size - img->initrd_len, 2 * MiB);
		if (img->initrd_len > vm->ram_size ||
		    initrd_gpa < ALIGN_UP(elf.highest_paddr_end, 2 * MiB)) {
			printk("hv: %s: the initrd (%llu KiB) does not fit in the VM's RAM beside "
			       "the kernel\n",
			       cfg->initrd, (unsigned long long)(img->initrd_len >> 10));
			return -1;
		}
		memcpy(vm->ram + initrd_gpa, img->initrd, img->initrd_len);
	}

	build_cmdline(vm, (char *)vm->ram + GPA_CMDLINE, 4096, cfg->cmdline);

	struct guest_acpi_params acpi = {
		.gpa = GPA_ACPI,
		.nvcpus = vm->nvcpus,
		.ioapic_id = vm->arch.ioapic.id, /* what its ID register reads (4 bits) */
		.ioapic_addr = GPA_IOAPIC,
		.pm1a_evt_port = PORT_PM_BASE,
		.pm1a_cnt_port = PORT_PM_BASE + 4,
		.pm_timer_port = PORT_PM_BASE + 8,
		.reset_port = PORT_RESET,
		.reset_value = 0x06,
		.sci_irq = 9,
		.no_cmos_rtc = true,
		.oem_id = "HV    ",
	};
	u64 rsdp;
	if (!guest_acpi_build(vm->ram + GPA_ACPI, GPA_ACPI_SIZE, &acpi, &rsdp)) {
		printk("hv: VM '%s': ACPI tables do not fit\n", vm->name);
		return -1;
	}

	struct hvm_start_info *si = (void *)(vm->ram + GPA_START_INFO);
	struct hvm_memmap_entry *mm = (void *)(si + 1);
	struct hvm_modlist_entry *mod = (void *)(mm + 8);
	u32 n = 0;
	mm[n++] = (struct hvm_memmap_entry){ 0, GPA_ACPI, E820_RAM, 0 };
	mm[n++] = (struct hvm_memmap_entry){ GPA_ACPI, GPA_ACPI_SIZE, E820_ACPI, 0 };
	mm[n++] = (struct hvm_memmap_entry){ GPA_ACPI + GPA_ACPI_SIZE,
					     0x9F000 - GPA_ACPI - GPA_ACPI_SIZE, E820_RAM, 0 };
	mm[n++] = (struct hvm_memmap_entry){ 0x9F000, 0x100000 - 0x9F000, E820_RESERVED, 0 };
	mm[n++] = (struct hvm_memmap_entry){ 0x100000, vm->ram_size - 0x100000, E820_RAM, 0 };
	mm[n++] = (struct hvm_memmap_entry){ GPA_IOAPIC, PAGE_SIZE, E820_RESERVED, 0 };
	mm[n++] = (struct hvm_memmap_entry){ 0xFEE00000, PAGE_SIZE, E820_RESERVED, 0 };
	*si = (struct hvm_start_info){
		.magic = PVH_MAGIC,
		.version = 1,
		.nr_modules = img->initrd_len ? 1 : 0,
		.modlist_paddr = (u64)((u8 *)mod - vm->ram),
		.cmdline_paddr = GPA_CMDLINE,
		.rsdp_paddr = rsdp,
		.memmap_paddr = (u64)((u8 *)mm - vm->ram),
		.memmap_entries = n,
	};
	*mod = (struct hvm_modlist_entry){ initrd_gpa, img->initrd_len, 0, 0 };
	*entry = elf.pvh_entry;
	*start_info = GPA_START_INFO;
	return 0;
}
