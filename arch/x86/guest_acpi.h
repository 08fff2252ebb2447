/* SPDX-License-Identifier: GPL-2.0-only */
/* ACPI tables for an x86 guest (ACPI 6.4): enough for Linux to find every vCPU, the
 * IOAPIC, the PM timer and the power-off / reset registers, on a machine without
 * legacy devices. Built into one buffer that the hypervisor copies to params.gpa;
 * the tables point at each other by guest-physical address.
 *
 * Layout (offsets from gpa, every table 8-byte aligned or better):
 *   RSDP (revision 2, 16-byte aligned) -> XSDT -> FADT, MADT
 *   FADT -> FACS (64-byte aligned), DSDT
 * No RSDT (RsdtAddress = 0): every OS that reads revision-2 RSDPs uses the XSDT. */
#ifndef ARCH_X86_GUEST_ACPI_H
#define ARCH_X86_GUEST_ACPI_H

#include "hv/types.h"

struct guest_acpi_params {
	u64 gpa;	    /* where buf will be placed; tables reference each other by GPA */
	u32 nvcpus;	    /* local x2APIC entries, APIC IDs and UIDs 0..nvcpus-1, enabled */
	u32 ioapic_id;	    /* one IOAPIC at GSI base 0, with the ID its register reads */
	u64 ioapic_addr;    /* 0xFEC00000; must be below 4 GiB (MADT field is 32-bit) */
	u16 pm1a_evt_port;  /* 0x600: PM1a event block, 4 bytes (status, enable) */
	u16 pm1a_cnt_port;  /* 0x604: PM1a control block, 2 bytes; SLP_TYP|SLP_EN to power off */
	u16 pm_timer_port;  /* 0x608: 24-bit ACPI PM timer, 3.579545 MHz */
	u16 reset_port;	    /* 0xCF9: FADT RESET_REG, system I/O, 8 bits */
	u8 reset_value;	    /* 0x06 */
	u8 sci_irq;	    /* 9: ISA IRQ = GSI of the SCI, level / active low */
	bool no_cmos_rtc;   /* set FADT IAPC_BOOT_ARCH "CMOS RTC Not Present" (bit 5) */
	const char *oem_id; /* up to 6 chars, space padded, e.g. "HVHVHV" */
};

/* The value the _S5 package gives for SLP_TYPa/b: the guest powers off by writing
 * (GUEST_ACPI_SLP_TYP_S5 << 10) | BIT(13) (SLP_TYP | SLP_EN) to PM1a_CNT. */
#define GUEST_ACPI_SLP_TYP_S5 5
#define GUEST_ACPI_PM1_CNT_SLP_TYP(v) (((v) >> 10) & 7) /* ACPI 6.4, PM1 control register bits */
#define GUEST_ACPI_PM1_CNT_SLP_EN BIT(13)

/* Builds the tables into buf. Returns the bytes used, or 0 if bufsize is too small
 * or the parameters are invalid (nvcpus 0 or above 65536, ioapic_addr at or
 * above 4 GiB). *rsdp_gpa receives the RSDP's GPA (for hvm_start_info.rsdp_paddr). */
size_t guest_acpi_build(void *buf, size_t bufsize, const struct guest_acpi_params *p,
			u64 *rsdp_gpa);

#endif
