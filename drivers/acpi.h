/* SPDX-License-Identifier: GPL-2.0-only */
/* The machine's own ACPI tables: the processors and interrupt controllers the
 * firmware lists in the MADT, and on arm64 the PSCI flags (FADT) and the console
 * (SPCR), and the PCI Express configuration space windows (MCFG). Tables are read
 * through identity-mapped pointers. */
#ifndef DRIVERS_ACPI_H
#define DRIVERS_ACPI_H

#include "hv/types.h"

/* Walks RSDP -> XSDT (or RSDT) -> MADT and stores the APIC IDs of enabled processors
 * (local APIC and local x2APIC entries). Returns the count (at most max), or -1 with
 * *why set. */
int acpi_madt_cpus(const void *rsdp, u32 *apic_ids, u32 max, const char **why);

/* A register the FADT names (a Generic Address Structure, ACPI 6.4 5.2.3.2). */
#define ACPI_SPACE_MEMORY 0
#define ACPI_SPACE_IO 1
#define ACPI_SPACE_PCI_CONFIG 2 /* address: device << 32 | function << 16 | offset */
struct acpi_reg {
	u8 space;	 /* ACPI_SPACE_* */
	u8 access_bytes; /* the GAS's access size: 1, 2, 4 or 8; 0: not given */
	u64 addr;	 /* 0: the machine has none */
};

/* How the machine powers off and resets (x86: FADT 5.2.9, \_S5 in the DSDT 7.4.2). */
struct acpi_power {
	struct acpi_reg pm1a_cnt, pm1b_cnt; /* PM1 control registers, 16 bits */
	bool s5;			    /* the DSDT gives \_S5: */
	u8 slp_typ_a, slp_typ_b;	    /*   the SLP_TYP values for PM1a and PM1b */
	bool reset;			    /* the FADT has a reset register (RESET_REG_SUP): */
	struct acpi_reg reset_reg;	    /*   write reset_value (8 bits) there */
	u8 reset_value;
};

/* Fills *out from the FADT and the DSDT; what the tables do not give stays 0. Returns 0,
 * or -1 with *why set when there is no valid RSDP or FADT. */
int acpi_power_info(const void *rsdp, struct acpi_power *out, const char **why);

/* The console the SPCR names (Microsoft's Serial Port Console Redirection Table): its
 * interface type (ACPI_SPCR_*), registers and baud rate (0: as the firmware left it). */
#define ACPI_SPCR_16550 0x00
#define ACPI_SPCR_16450 0x01
#define ACPI_SPCR_16550_GAS 0x12 /* registers as its Generic Address Structure says */
struct acpi_spcr {
	u8 type;
	struct acpi_reg base;
	u32 baud;
};
/* 0, or -1 when there is no usable SPCR (none, too short for its base address, or none
 * given); a table that ends before the baud rate leaves it 0. */
int acpi_spcr(const void *rsdp, struct acpi_spcr *out);

/* The ACPI PM timer (FADT PM_TMR_BLK / X_PM_TMR_BLK, 3.579545 MHz; ACPI 6.4 4.8.3.3):
 * 0, or -1 with *why when the FADT gives none. *ext32: 32 bits wide, else 24. */
int acpi_pm_timer(const void *rsdp, struct acpi_reg *out, bool *ext32, const char **why);

/* One MCFG allocation (PCI Firmware Specification 3.0, 4.1.2): the ECAM window of PCI
 * segment `segment`, buses start_bus..end_bus. base is where bus 0's configuration space
 * would lie: bus b, device d, function f is at base + (b << 20 | d << 15 | f << 12), also
 * when start_bus is not 0. */
struct acpi_mcfg_entry {
	u64 base;
	u16 segment;
	u8 start_bus, end_bus;
};
#define ACPI_MCFG_MAX 16

/* The MCFG's allocations, in table order, without those with no base or with end_bus
 * below start_bus. Returns the count (at most max), or -1 with *why set when there is
 * no valid RSDP or MCFG, or the MCFG lists no usable allocation. */
int acpi_mcfg(const void *rsdp, struct acpi_mcfg_entry *out, u32 max, const char **why);

#define ACPI_ARM_MAX_CPUS 256 /* MAX_PCPUS */
#define ACPI_ARM_MAX_GICR 8

/* FADT ARM_BOOT_ARCH flags (ACPI 6.4 5.2.9: the 16-bit field at offset 129). */
#define ACPI_ARM_PSCI_COMPLIANT BIT(0)
#define ACPI_ARM_PSCI_USE_HVC BIT(1)

/* SPCR interface types (DBG2 serial port subtypes) of the UARTs drivers/pl011.c
 * drives. */
#define ACPI_SPCR_PL011 0x03
#define ACPI_SPCR_SBSA_32BIT 0x0D /* SBSA generic UART, 32-bit accesses only */
#define ACPI_SPCR_SBSA 0x0E

/* One enabled processor: a MADT GICC entry (ACPI 6.4 5.2.12.14). */
struct acpi_arm_cpu {
	u64 mpidr;	     /* affinity: Aff3 in bits 39:32, Aff2-Aff0 in 23:0 */
	u32 cpu_interface;   /* GIC CPU interface number (GICv2 SGI target bit) */
	u32 vgic_maint_gsiv; /* VGIC maintenance interrupt (a PPI), 0: none given */
	u64 gicc_base;	     /* GICv2 CPU interface; 0 with GICv3 system registers */
	u64 gicv_base;	     /* GICv2 virtual CPU interface, 0: none */
	u64 gich_base;	     /* GICv2 virtual interface control, 0: none */
	u64 gicr_base;	     /* its GICv3 redistributor when listed per CPU, else 0 */
};

/* A GICR entry (5.2.12.17): redistributors packed from base, length bytes. */
struct acpi_arm_gicr_range {
	u64 base;
	u32 length;
};

struct acpi_arm_platform {
	struct acpi_arm_cpu cpus[ACPI_ARM_MAX_CPUS]; /* in MADT order */
	u32 ncpus;
	u32 cpus_ignored; /* enabled GICCs past ACPI_ARM_MAX_CPUS, not stored */
	u64 gicd_base;	  /* GICD entry (5.2.12.15) */
	u8 gic_version;	  /* 1..4, or 0: "find out from the hardware" (ACPI 5.1) */
	u32 ngicr;
	struct acpi_arm_gicr_range gicr[ACPI_ARM_MAX_GICR];
	u16 arm_boot_flags; /* ACPI_ARM_PSCI_* */
	bool spcr;	    /* an SPCR with a memory-mapped console exists: */
	u8 spcr_type;	    /*   its interface type (ACPI_SPCR_*) */
	u64 spcr_base;	    /*   its registers' physical address */
};

/* Walks RSDP -> XSDT (or RSDT) to the MADT, FADT and (optional) SPCR and fills
 * *out. Enabled GICCs beyond ACPI_ARM_MAX_CPUS are only counted (cpus_ignored): the
 * hypervisor then runs on the first ACPI_ARM_MAX_CPUS the MADT lists. Returns 0, or
 * -1 with *why set when a required table is missing, malformed or inconsistent. */
int acpi_arm_platform(const void *rsdp, struct acpi_arm_platform *out, const char **why);

#endif
