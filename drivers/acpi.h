/* The machine's own ACPI tables: the processors the firmware lists in the MADT. */
#ifndef DRIVERS_ACPI_H
#define DRIVERS_ACPI_H

#include "hv/types.h"

/* Walks RSDP -> XSDT (or RSDT) -> MADT and stores the APIC IDs of enabled processors
 * (local APIC and local x2APIC entries). Tables are read through identity-mapped
 * pointers. Returns the count (at most max), or -1 with *why set. */
int acpi_madt_cpus(const void *rsdp, u32 *apic_ids, u32 max, const char **why);

#endif
