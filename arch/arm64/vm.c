/* SPDX-License-Identifier: GPL-2.0-only */
/* The arm64 side of VM and vCPU life: stage 2, the vGIC, devices, and the Linux Image
 * boot protocol (Documentation/arch/arm64/booting.rst): the kernel at its 2 MiB-aligned
 * place, the initrd and a device tree in RAM, vCPU 0 entered at the kernel with x0 = the
 * device tree and the MMU off; the others wait for PSCI CPU_ON. */
#include "arch/arm64/gic_host.h"
#include "arch/arm64/guest.h"
#include "arch/arm64/guest_fdt.h"
#include "arch/arm64/linux_image.h"
#include "arch/arm64/pvtime.h"
#include "arch/cpu.h"
#include "hv/vm_config.h"
#include "hv/arch.h"
#include "hv/printk.h"
#include "hv/file_kind.h"
#include "hv/lib.h"
#include "hv/pv_features.h"
#include "hv/mem.h"
#include "hv/vm.h"

#define FDT_MAX (64 * KiB)

/* PV stolen time (DEN0057A) is the one KVM PV feature arm64 guests have; `preempt` is
 * this project's own (critical_section.c). */
const u32 arch_pv_features = BIT(PV_STEAL) | BIT(PV_PREEMPT);

static void kick_vcpu(void *ctx, u32 id)
{
	struct vm *vm = ctx;
	vcpu_kick(vm->vcpus[id]);
}

static int load_linux(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img)
{
	struct linux_image_layout lay;
	const char *why = "", *kind = file_kind(img->kernel, img->kernel_len);
	struct guest_file rd;
	if (kind != file_kind_arm64_image) {
		printk("hv: VM '%s': %s: %s; an arm64 VM boots an arm64 Image, raw or gzip'd (a "
		       "distribution's vmlinuz)\n",
		       vm->name, cfg->kernel, kind);
		return -1;
	}
	if (vm_linux_initrd(vm, cfg, img, &rd))
		return -1;
	if (linux_image_layout(img->kernel, img->kernel_len, vm->ram_gpa, vm->ram_size, rd.len,
			       FDT_MAX, &lay, &why)) {
		printk("hv: VM '%s': %s: %s\n", vm->name, cfg->kernel, why);
		return -1;
	}
	/* The layout keeps every part inside RAM. */
	u8 *kernel = gpa_to_hva(vm, lay.kernel_addr, lay.kernel_copy);
	u8 *fdt = gpa_to_hva(vm, lay.fdt_addr, FDT_MAX);
	memcpy(kernel, img->kernel, lay.kernel_copy);
	dcache_clean_poc(kernel, lay.kernel_copy);
	if (rd.len) {
		u8 *initrd = gpa_to_hva(vm, lay.initrd_addr, rd.len);
		memcpy(initrd, rd.data, rd.len);
		dcache_clean_poc(initrd, rd.len);
	}
	struct guest_fdt_params p = {
		.nvcpus = vm->nvcpus,
		.ram_base = vm->ram_gpa,
		.ram_size = vm->ram_size,
		.gic_version = vm->arch.vgic.version,
		.gicd_base = GUEST_GICD_BASE,
		.gicr_base = guest_gicr_base(vm->nvcpus),
		.gicc_base = GUEST_GICC_BASE,
		.uart_base = GUEST_UART_BASE,
		.uart_spi = GUEST_UART_SPI,
		.cmdline = cfg->cmdline,
		.initrd_start = rd.len ? lay.initrd_addr : 0,
		.initrd_end = rd.len ? lay.initrd_addr + rd.len : 0,
	};
	int n = guest_fdt_build(fdt, FDT_MAX, &p);
	if (n < 0) {
		printk("hv: VM '%s': the device tree does not fit in %llu KiB\n", vm->name,
		       (unsigned long long)(FDT_MAX >> 10));
		return -1;
	}
	dcache_clean_poc(fdt, (size_t)n);
	vm->arch.boot_entry = lay.entry;
	vm->arch.boot_fdt = lay.fdt_addr;
	return 0;
}

int arch_vm_create(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img)
{
	u32 max_vcpus = gic_host.version == 2 ? VGIC_V2_MAX_VCPUS : VGIC_MAX_VCPUS;
	if (vm->ram_size & (2 * MiB - 1)) {
		printk("hv: VM '%s': memory must be a multiple of 2 MiB\n", vm->name);
		return -1;
	}
	if (cfg->exit_port_line) {
		printk("hv: VM '%s': %s:%d: exit_port: an arm64 VM has no I/O ports\n", vm->name,
		       config_file, cfg->exit_port_line);
		return -1;
	}
	if (vm->nvcpus > max_vcpus) {
		printk("hv: VM '%s': GICv%d guests have at most %u vCPUs\n", vm->name,
		       gic_host.version, max_vcpus);
		return -1;
	}
	vm->ram_gpa = GUEST_RAM_BASE;
	vm->arch.vmid = (u16)(vm->id + 1);
	vm->arch.cntvoff = read_sysreg(cntpct_el0);
	vm->arch.s2_root = stage2_create();
	u64 pvtime_bytes = ALIGN_UP(vm->nvcpus * PVTIME_RECORD_SIZE, PAGE_SIZE);
	vm->arch.pvtime_page = alloc_pages(pvtime_bytes / PAGE_SIZE);
	for (u32 i = 0; i < vm->nvcpus; i++)
		pvtime_init_record(vm->arch.pvtime_page + PVTIME_RECORD_SIZE * i);
	if (stage2_map(vm->arch.s2_root, vm->ram_gpa, (u64)(uintptr_t)vm->ram, vm->ram_size,
		       false) ||
	    stage2_map(vm->arch.s2_root, GUEST_PVTIME_BASE, (u64)(uintptr_t)vm->arch.pvtime_page,
		       pvtime_bytes, false) ||
	    (gic_host.version == 2 &&
	     stage2_map(vm->arch.s2_root, GUEST_GICC_BASE, gic_host.gicv, 4 * KiB, true))) {
		printk("hv: VM '%s': cannot build its stage-2 tables\n", vm->name);
		return -1;
	}
	vgic_init(&vm->arch.vgic, gic_host.version, vm->nvcpus,
		  alloc_zeroed(vm->nvcpus * sizeof(struct vgic_cpu)), kick_vcpu, vm);
	arm64_platform_init(vm);
	return load_linux(vm, cfg, img);
}

int arch_vcpu_create(struct vcpu *v)
{
	v->arch.pvtime_ipa = GUEST_PVTIME_BASE + 64 * v->id;
	if (v->id == 0) {
		arm64_vcpu_reset(v, v->vm->arch.boot_entry, v->vm->arch.boot_fdt);
		v->arch.power = POWER_ON;
	}
	return 0;
}
