/* SPDX-License-Identifier: GPL-2.0-only */
/* The machine from the firmware's flattened devicetree (DTB), for firmware that
 * publishes one instead of ACPI tables (AAVMF under QEMU -M virt,acpi=off; boards
 * with only a devicetree): the CPUs, the GIC, PSCI and the console, in the form
 * drivers/acpi.h gives them. */
#ifndef DRIVERS_FDT_PLATFORM_H
#define DRIVERS_FDT_PLATFORM_H

#include "drivers/acpi.h"

/* Fills *out (zeroed first) from the blob at fdt (read with libfdt): enabled
 * /cpus/cpu nodes (beyond ACPI_ARM_MAX_CPUS only counted, as cpus_ignored), the first
 * enabled GICv2/v3 node, /psci, and a PL011 console (/chosen stdout-path, else the
 * first enabled PL011). Reads nothing past the header's totalsize once the first 8
 * bytes (magic, totalsize) are read; the blob must be 4-byte aligned (DTSpec 5.1 has
 * firmware place it 8-byte aligned). Returns 0, or -1 with *why set when the blob is
 * malformed or a required node is missing. */
int fdt_arm_platform(const void *fdt, struct acpi_arm_platform *out, const char **why);

#endif
