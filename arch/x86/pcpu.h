/* SPDX-License-Identifier: GPL-2.0-only */
/* x86 physical CPUs: descriptor tables, the local APIC, host timer and IPIs, and
 * bringing up the application processors after the firmware is gone. */
#ifndef ARCH_X86_PCPU_H
#define ARCH_X86_PCPU_H

#include "hv/types.h"

#define VEC_KICK 0xf0
#define VEC_TIMER 0xf1
#define VEC_NOTIFY 0xf2 /* posted-interrupt notifications (VMX; SDM vol. 3C, 30.6) */
#define VEC_SPURIOUS 0xff

/* What the TSC and the APIC timer are measured against (timebase.c): its name for the
 * banner, the TSC frequency when the CPU says it (else 0: measured), and a busy wait. */
struct timebase {
	const char *name;
	u64 tsc_hz;
	void (*wait_us)(u64 us);
};
struct timebase x86_timebase(const void *acpi_rsdp, void (*firmware_stall_us)(u64 us));
/* Before ExitBootServices (boot CPU): the TSC and local APIC timer frequencies. */
void x86_calibrate(const struct timebase *tb);
/* On every pCPU once it owns the machine: GDT, IDT, local APIC, %gs, SVM. */
void x86_pcpu_init(u32 id, u32 apic_id);
/* Starts the APs listed (boot CPU, after ExitBootServices); each runs ap_main(id).
 * tramp_page: a page below 1 MiB set aside before the takeover. Returns how many came up. */
u32 x86_start_aps(const u32 *apic_ids, u32 n, u64 tramp_page, void (*ap_main)(u32 id));
u32 x86_lapic_id(void);
/* A posted-interrupt notification (VEC_NOTIFY) to that pCPU. */
void x86_send_notification(u32 pcpu);
/* A host interrupt the CPU acknowledged at a VM exit (VMX "acknowledge interrupt on
 * exit"): handled as its IDT entry would, the local APIC's EOI included. */
void x86_host_interrupt(u8 vector);
/* Where a pCPU's descriptor tables are (code 0x08, data 0x10), for a VM exit to load. */
struct x86_host_tables {
	u64 gdt, idt, tss;
	u16 tss_selector;
};
struct x86_host_tables x86_host_tables(u32 pcpu);
u64 x86_tsc_hz(void);
/* The host local APIC's mode, for the banner. */
const char *x86_lapic_mode(void);
/* Reads how the machine powers off and resets from its ACPI tables, and says so (power.c). */
void x86_power_init(const void *acpi_rsdp);

#endif
