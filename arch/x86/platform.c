/* SPDX-License-Identifier: GPL-2.0-only */
/* The devices of an x86 VM besides the interrupt controllers: the COM1 UART, the ACPI
 * PM register block (power off, PM timer), the reset port, and an absent 8259 PIC. */
#include "arch/cpu.h"
#include "arch/x86/guest.h"
#include "arch/x86/guest_acpi.h"
#include "hv/arch.h"
#include "hv/console.h"
#include "hv/lib.h"

#define PM_TIMER_HZ 3579545ull
#define PM1_CNT_SCI_EN BIT(0)
#define PM1_CNT_SLP_EN BIT(13)

static void uart_irq(void *ctx, bool level)
{
	struct vm *vm = ctx;
	vioapic_set_irq(&vm->arch.ioapic, IRQ_COM1, level); /* dev_lock is held by the caller */
}

/* PM1a status (0-1), enable (2-3), control (4-5), timer (8-11): ACPI 6.4, 4.8.3. */
static u64 pm_read(void *opaque, u64 off, unsigned size)
{
	struct vm *vm = opaque;
	(void)size;
	switch (off) {
	case 0:
		return vm->arch.pm1_sts;
	case 2:
		return vm->arch.pm1_en;
	case 4:
		return vm->arch.pm1_cnt | PM1_CNT_SCI_EN; /* always in ACPI mode (no SMI_CMD) */
	case 8:
		return (u64)((unsigned __int128)(rdtsc() - vm->arch.boot_tsc) * PM_TIMER_HZ /
			     arch_time_hz) &
		       0xFFFFFF;
	}
	return 0;
}

static void pm_write(void *opaque, u64 off, unsigned size, u64 val)
{
	struct vm *vm = opaque;
	(void)size;
	switch (off) {
	case 0:
		vm->arch.pm1_sts &= (u16)~val; /* write 1 to clear */
		break;
	case 2:
		vm->arch.pm1_en = (u16)val;
		break;
	case 4:
		vm->arch.pm1_cnt = (u16)val & ~PM1_CNT_SLP_EN;
		if ((val & PM1_CNT_SLP_EN) && ((val >> 10) & 7) == GUEST_ACPI_SLP_TYP_S5)
			vm_request_stop(vm, VM_POWEROFF);
		break;
	}
}

static u64 reset_read(void *opaque, u64 off, unsigned size)
{
	(void)opaque, (void)off, (void)size;
	return 0;
}

static void reset_write(void *opaque, u64 off, unsigned size, u64 val)
{
	(void)off, (void)size;
	if (val & BIT(2)) /* reset control register: RST_CPU */
		vm_request_stop(opaque, VM_RESET);
}

/* Port 0x61, the PC's NMI status and control register: no SERR or IOCHK NMI source
 * (bits 7:6 clear, so a guest NMI is not blamed on PCI), and the PIT channel 2 output
 * (bit 5) high, so a calibration loop waiting for it ends at once instead of spinning. */
static u64 nmi_status_read(void *opaque, u64 off, unsigned size)
{
	(void)opaque, (void)off, (void)size;
	return 0x20;
}

/* No 8259: Linux writes the mask register and reads it back to probe for one; reading
 * zero (not the 0xff it wrote) makes it use no legacy PIC at all. */
static u64 pic_read(void *opaque, u64 off, unsigned size)
{
	(void)opaque, (void)off, (void)size;
	return 0;
}

static void ignore_write(void *opaque, u64 off, unsigned size, u64 val)
{
	(void)opaque, (void)off, (void)size, (void)val;
}

void x86_platform_init(struct vm *vm)
{
	static const struct vuart_ops uart_ops = { .tx = console_guest_putc, .irq = uart_irq };
	vuart_init(&vm->arch.uart, &uart_ops, vm);
	console_register_vm(vm, vuart_rx_push, &vm->arch.uart);
	const struct io_region regions[] = {
		{ IO_PORT, PORT_COM1, 8, vuart_io_read, vuart_io_write, &vm->arch.uart,
		  &vm->dev_lock },
		{ IO_PORT, PORT_PM_BASE, 12, pm_read, pm_write, vm, NULL },
		{ IO_PORT, PORT_RESET, 1, reset_read, reset_write, vm, NULL },
		{ IO_PORT, 0x20, 2, pic_read, ignore_write, vm, NULL },
		{ IO_PORT, 0x61, 1, nmi_status_read, ignore_write, vm, NULL },
		{ IO_PORT, 0xA0, 2, pic_read, ignore_write, vm, NULL },
		{ IO_MMIO, GPA_IOAPIC, PAGE_SIZE, vioapic_io_read, vioapic_io_write,
		  &vm->arch.ioapic, &vm->dev_lock },
	};
	for (size_t i = 0; i < ARRAY_SIZE(regions); i++)
		iobus_register(&vm->bus, &regions[i]);
}
