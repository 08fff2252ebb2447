/* SPDX-License-Identifier: GPL-2.0-only */
/* Power-off and reset of a PC the way its firmware's ACPI tables say: the S5 sleep state
 * through the PM1a/PM1b control registers with the SLP_TYP values of the DSDT's \_S5
 * (ACPI 6.4 4.8.3.2.1, 7.4.2), and the FADT's reset register (4.8.3.6); without one, the
 * 8042 keyboard controller's reset line, the PC's oldest way (Linux's reboot=k). */
#include "arch/cpu.h"
#include "arch/x86/pcpu.h"
#include "drivers/acpi.h"
#include "hv/arch.h"
#include "hv/printk.h"
#include "hv/lib.h"

#define PM1_SLP_TYP_SHIFT 10
#define PM1_SLP_TYP_MASK (7u << PM1_SLP_TYP_SHIFT)
#define PM1_SLP_EN BIT(13)
#define PCI_CONFIG_ADDRESS 0xCF8
#define PCI_CONFIG_DATA 0xCFC
#define KBC_COMMAND 0x64
#define KBC_PULSE_RESET 0xFE

static struct acpi_power power;
static const char *no_acpi; /* why there are no tables to go by, or NULL */

static const char *space_name(u8 space)
{
	return space == ACPI_SPACE_IO ? "io" : space == ACPI_SPACE_MEMORY ? "mmio" : "pci";
}

static u16 reg_read16(struct acpi_reg r)
{
	if (r.space == ACPI_SPACE_IO)
		return inw((u16)r.addr);
	return *(volatile u16 *)(uintptr_t)r.addr;
}

static void reg_write(struct acpi_reg r, u16 v, bool wide)
{
	if (r.space == ACPI_SPACE_IO) {
		if (wide)
			outw((u16)r.addr, v);
		else
			outb((u16)r.addr, (u8)v);
	} else if (r.space == ACPI_SPACE_MEMORY) {
		if (wide)
			*(volatile u16 *)(uintptr_t)r.addr = v;
		else
			*(volatile u8 *)(uintptr_t)r.addr = (u8)v;
	} else if (r.space == ACPI_SPACE_PCI_CONFIG) {
		/* Segment 0, bus 0 (ACPI 5.2.3.2); configuration mechanism 1. */
		u32 dev = (u32)(r.addr >> 32) & 0x1F, fn = (u32)(r.addr >> 16) & 7;
		u32 off = (u32)r.addr & 0xFF;
		outl(PCI_CONFIG_ADDRESS, BIT(31) | dev << 11 | fn << 8 | (off & 0xFC));
		outb((u16)(PCI_CONFIG_DATA + (off & 3)), (u8)v);
	}
}

static bool usable(struct acpi_reg r)
{
	return r.addr && (r.space == ACPI_SPACE_IO || r.space == ACPI_SPACE_MEMORY);
}

void x86_power_init(const void *rsdp)
{
	const char *why = "";
	if (acpi_power_info(rsdp, &power, &why))
		no_acpi = why;
	char off[80], reset[80];
	if (no_acpi)
		snprintf(off, sizeof off, "none (%s)", no_acpi);
	else if (!usable(power.pm1a_cnt) || !power.s5)
		snprintf(off, sizeof off, "none (%s)",
			 power.s5 ? "no PM1a control register in the FADT"
				  : "no \\_S5 in the DSDT");
	else
		snprintf(off, sizeof off, "ACPI S5 (PM1a_CNT %s 0x%llx, SLP_TYP %u)",
			 space_name(power.pm1a_cnt.space), (unsigned long long)power.pm1a_cnt.addr,
			 power.slp_typ_a);
	if (power.reset)
		snprintf(reset, sizeof reset, "FADT reset register (%s 0x%llx = 0x%02x)",
			 space_name(power.reset_reg.space),
			 (unsigned long long)power.reset_reg.addr, power.reset_value);
	else
		snprintf(reset, sizeof reset,
			 "keyboard controller (the FADT has no reset register)");
	printk("hv: power-off: %s; reboot: %s\n", off, reset);
}

/* Time for a register write to take the machine down before the next way is tried. */
static void settle(void)
{
	u64 end = rdtsc() + arch_time_hz / 10;
	while (rdtsc() < end)
		cpu_relax();
}

static NORETURN void halt_forever(void)
{
	irq_disable();
	for (;;)
		__asm__ volatile("hlt");
}

NORETURN void arch_power_off(void)
{
	if (no_acpi || !usable(power.pm1a_cnt) || !power.s5) {
		printk("hv: cannot power off: %s; halting\n",
		       no_acpi ? no_acpi : "the ACPI tables say not how");
		halt_forever();
	}
	printk("hv: powering off (ACPI S5)\n");
	/* SLP_TYP first, then SLP_EN with it, PM1a then PM1b (ACPI 4.8.3.2.1). */
	struct acpi_reg regs[2] = { power.pm1a_cnt, power.pm1b_cnt };
	u8 typ[2] = { power.slp_typ_a, power.slp_typ_b };
	for (u32 i = 0; i < 2; i++) {
		if (!usable(regs[i]))
			continue;
		u16 v = (u16)(reg_read16(regs[i]) & ~(PM1_SLP_TYP_MASK | PM1_SLP_EN));
		v |= (u16)((typ[i] & 7) << PM1_SLP_TYP_SHIFT);
		reg_write(regs[i], v, true);
		reg_write(regs[i], v | PM1_SLP_EN, true);
	}
	settle();
	printk("hv: power-off did not take effect; halting\n");
	halt_forever();
}

NORETURN void arch_reboot(void)
{
	if (power.reset) {
		printk("hv: rebooting (FADT reset register)\n");
		reg_write(power.reset_reg, power.reset_value, false);
		settle();
		printk("hv: the reset register did not reset the machine; trying the keyboard "
		       "controller\n");
	} else {
		printk("hv: rebooting (keyboard controller)\n");
	}
	outb(KBC_COMMAND, KBC_PULSE_RESET);
	settle();
	printk("hv: reboot did not take effect; halting\n");
	halt_forever();
}
