/* SPDX-License-Identifier: GPL-2.0-only */
/* What boot/efi_main.c asks of a backend to bring the machine up. The order is fixed:
 * arch_boot_probe and arch_boot_reserve while the firmware still owns the machine (they
 * may print, allocate and fail with a reason), then ExitBootServices, then
 * arch_boot_takeover and arch_boot_start_secondaries on the boot CPU. */
#ifndef HV_ARCH_BOOT_H
#define HV_ARCH_BOOT_H

#include "types.h"

/* Calibrates time, finds the CPUs in the firmware's tables, or where it has none as its
 * boot services list them (the boot CPU first: ids[0]), prints the banner, and checks that
 * the CPU can run guests. Returns the number of CPUs or -1 with *why set. */
int arch_boot_probe(const void *acpi_rsdp, u64 *cpu_ids, u32 max, const char **why);
struct serial_choice;
/* The machine's console: the configuration's choice (boot/config.h), else the one the
 * firmware's SPCR names, else the architecture's usual one; taken over by
 * arch_boot_takeover. 0, or -1 with *why when this architecture cannot drive it. */
int arch_boot_console(const struct serial_choice *c, const char **why);
/* That console in words ("16550 at io 0x2f8, 115200 baud (hv.cfg serial)"). */
const char *arch_boot_console_name(void);
/* Memory and state the secondaries and the backend need after ExitBootServices. */
int arch_boot_reserve(const char **why);
/* Right after ExitBootServices, interrupts off: the boot CPU becomes pCPU 0 and the
 * machine's console UART is taken over. */
void arch_boot_takeover(void);
/* Starts pCPUs 1..n-1 (ids as arch_boot_probe listed them); each runs entry(id) once it
 * is set up. Returns how many pCPUs run, the boot CPU included. */
u32 arch_boot_start_secondaries(const u64 *cpu_ids, u32 n, void (*entry)(u32 id));

#endif
