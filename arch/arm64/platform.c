/* SPDX-License-Identifier: GPL-2.0-only */
/* The emulated devices of an arm64 VM: the GIC distributor (and for GICv3 the
 * redistributors; GICv2's CPU interface is the hardware's GICV frame, mapped but for
 * its second page, GICC_DIR) and the PL011 console UART. Accesses arrive from
 * handle_dabt() through the VM's iobus. */
#include "arch/arm64/guest.h"
#include "arch/arm64/vgic_hw.h"
#include "hv/arch.h"
#include "hv/console.h"
#include "hv/sched.h"
#include "hv/vm.h"

static void count_bad(struct vcpu *v, const char *what, u64 off, bool write)
{
	vcpu_bad_access(v, "%s %s at offset %llx ignored", write ? "write to" : "read of", what,
			(unsigned long long)off);
}

static u64 gicd_read(void *opaque, u64 off, unsigned size)
{
	struct vm *vm = opaque;
	struct vcpu *v = sched_current();
	u64 val = 0;
	if (!vgic_dist_access(&vm->arch.vgic, v->id, off, size, false, &val))
		count_bad(v, "an unknown GIC distributor register", off, false);
	return val;
}

/* GICv2 GICD_SGIR (IHI 0048B 4.3.15): counted like GICv3's trapped ICC_SGI1R_EL1. */
static void count_sgir(struct vcpu *v, u32 val)
{
	v->stats.ipi_icr++;
	v->stats.ipi_fixed += popcount64(vgic_v2_sgi_targets(val, v->id) &
					 (u32)(BIT(v->vm->nvcpus) - 1));
}

static void gicd_write(void *opaque, u64 off, unsigned size, u64 val)
{
	struct vm *vm = opaque;
	struct vcpu *v = sched_current();
	if (vm->arch.vgic.version == 2 && off == 0xF00 && size == 4)
		count_sgir(v, (u32)val);
	if (!vgic_dist_access(&vm->arch.vgic, v->id, off, size, true, &val))
		count_bad(v, "an unknown GIC distributor register", off, true);
}

static u64 gicr_read(void *opaque, u64 off, unsigned size)
{
	struct vm *vm = opaque;
	u64 val = 0;
	if (!vgic_redist_access(&vm->arch.vgic, off, size, false, &val))
		count_bad(sched_current(), "an unknown GIC redistributor register", off, false);
	return val;
}

static void gicr_write(void *opaque, u64 off, unsigned size, u64 val)
{
	struct vm *vm = opaque;
	if (!vgic_redist_access(&vm->arch.vgic, off, size, true, &val))
		count_bad(sched_current(), "an unknown GIC redistributor register", off, true);
}

/* The GICv2 CPU interface's second page (IHI 0048B 4.4): GICC_DIR at its start, write
 * only, trapped so that a deactivation reaches interrupts outside the list registers
 * too (vgic.h). Reads of the page are RAZ, as the hardware's. */
#define GICC_DIR_PAGE (GUEST_GICC_BASE + 4 * KiB)

static u64 gicc_dir_read(void *opaque, u64 off, unsigned size)
{
	(void)opaque;
	if (size != 4 || off % 4)
		count_bad(sched_current(), "the GIC CPU interface", 4 * KiB + off, false);
	return 0;
}

static void gicc_dir_write(void *opaque, u64 off, unsigned size, u64 val)
{
	struct vm *vm = opaque;
	struct vcpu *v = sched_current();
	/* GICC_DIR: InterruptID [9:0], CPUID [12:10] (an SGI's source). */
	if (off || size != 4)
		count_bad(v, "the GIC CPU interface", 4 * KiB + off, true);
	else if (vgic_hw_eoi_split())
		vgic_deactivate(&vm->arch.vgic, v->id, val & 0x3FF, (val >> 10) & 7);
}

static void uart_irq(void *ctx, bool level)
{
	struct vm *vm = ctx;
	vgic_set_level(&vm->arch.vgic, 0, 32 + GUEST_UART_SPI, level); /* dev_lock held */
}

/* An access to the PL011 at an offset that is no register (dev_lock held). */
static void uart_bad(void *ctx, u32 off, bool write)
{
	(void)ctx;
	count_bad(sched_current(), "an unknown PL011 register", off, write);
}

void arm64_platform_init(struct vm *vm)
{
	static const struct vpl011_ops uart_ops = { .tx = console_guest_putc,
						    .irq = uart_irq,
						    .bad = uart_bad };
	vpl011_init(&vm->arch.uart, &uart_ops, vm);
	console_register_vm(vm, vpl011_rx_push, &vm->arch.uart);
	const struct io_region regions[] = {
		{ IO_MMIO, GUEST_GICD_BASE, 64 * KiB, gicd_read, gicd_write, vm, NULL },
		{ IO_MMIO, guest_gicr_base(vm->nvcpus),
		  vm->arch.vgic.version == 3 ? vm->nvcpus * VGIC_REDIST_SIZE : 0, gicr_read,
		  gicr_write, vm, NULL },
		{ IO_MMIO, GICC_DIR_PAGE, vm->arch.vgic.version == 2 ? 4 * KiB : 0, gicc_dir_read,
		  gicc_dir_write, vm, NULL },
		{ IO_MMIO, GUEST_UART_BASE, 4 * KiB, vpl011_io_read, vpl011_io_write,
		  &vm->arch.uart, &vm->dev_lock },
	};
	for (size_t i = 0; i < ARRAY_SIZE(regions); i++)
		if (regions[i].len)
			iobus_register(&vm->bus, &regions[i]);
}
