/* SPDX-License-Identifier: GPL-2.0-only */
/* The few UEFI boot services the hypervisor uses before it takes the machine. */
#ifndef BOOT_EFI_H
#define BOOT_EFI_H

#include <efi.h>
#include "hv/types.h"

extern EFI_SYSTEM_TABLE *efi_st;
extern EFI_HANDLE efi_image;

/* Reads a whole file from the volume hv.efi was loaded from; path uses '/'. On error
 * returns NULL and sets *why. The buffer is firmware pool memory (efi_free). */
void *efi_read_file(const char *path, u64 *len, const char **why);
void efi_free(void *p);
void *efi_alloc(u64 bytes); /* firmware pool memory (efi_free), NULL on failure */
/* Pages of memory the firmware will not touch again; NULL on failure. */
void *efi_alloc_pages(u64 npages, u64 max_addr);
void efi_stall_us(u64 us);
void efi_console_write(const char *s, size_t n);
const void *efi_acpi_rsdp(void);
const void *efi_fdt(void); /* the firmware's flattened device tree, NULL if none */
/* The enabled CPUs' ids as the firmware's MP Services protocol gives them (x86: APIC IDs),
 * the boot CPU first, at most max (efi_mp.c): their number, or -1 with *why. */
int efi_mp_cpus(u64 *ids, u32 max, const char **why);
u64 efi_ram_bytes(void);
/* The firmware's clock as nanoseconds since the Unix epoch (0 if it has none). */
u64 efi_unix_time_ns(void);
/* len bytes from the firmware's EFI_RNG_PROTOCOL (its default algorithm); false where
 * it has none or it fails. */
bool efi_random(void *buf, size_t len);
/* Leaves boot services; returns false when the firmware refused. */
bool efi_exit_boot_services(void);

#endif
