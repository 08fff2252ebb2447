/* SPDX-License-Identifier: GPL-2.0-only */
/* Boots Linux on x86: a vmlinux through its PVH entry (linux_pvh.c) or a bzImage, the
 * vmlinuz distributions ship, through the 64-bit boot protocol (linux_bzimage.c). Here:
 * what both entries give the kernel alike: the initrd, the command line, and the ACPI
 * tables and memory map (boot_tables.c). */
#include "arch/x86/linux_boot.h"
#include "hv/vm_config.h"
#include "hv/arch.h"
#include "hv/printk.h"
#include "hv/lib.h"
#include "hv/pv_features.h"

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
 * timer; so such a VM is told the TSC frequency, as CPUID leaf 15h tells it on Intel.
 * Returns the length, which may exceed n - 1 (then the line was cut). */
static int build_cmdline(struct vm *vm, char *dst, size_t n, const char *user)
{
	if ((vm->pv & BIT(PV_CLOCK)) || has_word_prefix(user, "tsc_early_khz="))
		return snprintf(dst, n, "%s", user);
	return snprintf(dst, n, "%s tsc_early_khz=%llu", user,
			(unsigned long long)(arch_time_hz / 1000));
}

int linux_boot_common(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img,
		      struct linux_boot *lb)
{
	struct guest_file rd;
	if (vm_linux_initrd(vm, cfg, img, &rd))
		return -1;
	if (rd.len) {
		u64 top = MIN(x86_low_ram_end(vm), lb->initrd_end_max);
		lb->initrd_gpa = ALIGN_DOWN(top - MIN(top, rd.len), 2 * MiB);
		if (rd.len > top || lb->initrd_gpa < ALIGN_UP(lb->kernel_end, 2 * MiB)) {
			printk("hv: VM '%s': %s: the initrd (%llu KiB) does not fit in the "
			       "VM's RAM beside the kernel (which needs up to %llu MiB)\n",
			       vm->name, cfg->initrd[0], (unsigned long long)(rd.len >> 10),
			       (unsigned long long)(lb->kernel_end >> 20));
			return -1;
		}
		lb->initrd_len = rd.len;
		memcpy(vm->ram + lb->initrd_gpa, rd.data, rd.len);
	}

	u32 max = MIN(lb->cmdline_max, PAGE_SIZE - 1);
	int len = build_cmdline(vm, (char *)vm->ram + GPA_CMDLINE, max + 1, cfg->cmdline);
	if (len > (int)max) {
		printk("hv: VM '%s': %s:%d: the command line with what the hypervisor "
		       "adds is %d bytes; this kernel takes at most %u\n",
		       vm->name, config_file, cfg->line, len, max);
		return -1;
	}
	lb->cmdline_gpa = GPA_CMDLINE;

	return x86_boot_tables(vm, &lb->tables);
}
