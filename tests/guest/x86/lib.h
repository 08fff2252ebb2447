/* SPDX-License-Identifier: GPL-2.0-only */
/* What the x86 test guests share (start.S, lib.c): types, port I/O, MSRs, the x2APIC,
 * the console (COM1), the interrupt table, and the ACPI power-off, so that an image runs
 * under the hypervisor's VMX and SVM backends alike. 32-bit protected mode, paging off. */
#ifndef TEST_GUEST_X86_LIB_H
#define TEST_GUEST_X86_LIB_H

#include <stdbool.h>

typedef unsigned long long u64;
typedef unsigned int u32;
typedef unsigned short u16;
typedef unsigned char u8;

/* x2APIC MSRs (SDM vol. 3A, 11.12.1.2) */
#define MSR_APIC_BASE 0x1b
#define APIC_BASE_EN (1u << 11)
#define APIC_BASE_EXTD (1u << 10)
#define X2APIC_ID 0x802
#define X2APIC_EOI 0x80b
#define X2APIC_SVR 0x80f
#define X2APIC_ICR 0x830
#define X2APIC_LVT_TIMER 0x832
#define X2APIC_TIMER_ICR 0x838
#define X2APIC_TIMER_DCR 0x83e
#define X2APIC_SELF_IPI 0x83f
#define ICR_INIT 0x4500u    /* INIT, level assert */
#define ICR_STARTUP 0x4600u /* STARTUP; the vector is the start page */

struct frame { /* what start.S pushes: pusha, vector, error code, the CPU's frame */
	u32 edi, esi, ebp, esp, ebx, edx, ecx, eax;
	u32 vector, error, eip, cs, eflags;
};

/* The PVH start-info block (Xen's hvm_start_info), its first fields. */
struct start_info {
	u32 magic, version, flags, nr_modules;
	u64 modlist_paddr, cmdline_paddr, rsdp_paddr;
} __attribute__((packed));

static inline void outb(u16 port, u8 v) { asm volatile("outb %0, %1" : : "a"(v), "Nd"(port)); }
static inline void outw(u16 port, u16 v) { asm volatile("outw %0, %1" : : "a"(v), "Nd"(port)); }
static inline u8 inb(u16 port)
{
	u8 v;
	asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;
	asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (u64)hi << 32 | lo;
}
static inline void wrmsr(u32 msr, u64 v)
{
	asm volatile("wrmsr" : : "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)) : "memory");
}
static inline void w32(u32 addr, u32 v) { *(volatile u32 *)addr = v; }
static inline u32 r32(u32 addr) { return *(volatile u32 *)addr; }
static inline void sti(void) { asm volatile("sti" : : : "memory"); }
static inline void cli(void) { asm volatile("cli" : : : "memory"); }
/* Interrupts on for one instruction, the halt: an interrupt that is pending wakes it. */
static inline void sti_hlt(void) { asm volatile("sti; hlt; cli" : : : "memory"); }
static inline void cpu_relax(void) { asm volatile("pause" : : : "memory"); }
static inline u64 rdtsc(void)
{
	u32 lo, hi;
	asm volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (u64)hi << 32 | lo;
}
static inline void cpuid(u32 leaf, u32 r[4])
{
	asm volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(0));
}

void print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A KVM hypercall (guest_abi/kvm_para.h) in 32-bit mode: VMCALL on Intel, VMMCALL on AMD;
 * its return value. */
long hypercall(u32 nr, u32 a0, u32 a1, u32 a2, u32 a3);
/* Every vector's gate (its start.S stub), before interrupts are on; then the handler of
 * vector v: a vector without one (an exception) is reported and stops the CPU. */
void idt_init(void);
void set_handler(u8 v, void (*fn)(struct frame *f));
/* This CPU's local APIC in x2APIC mode, software-enabled; returns its APIC ID. */
u32 x2apic_enable(void);
/* Powers the VM off through its ACPI tables (FADT PM1a control, \_S5); does not return. */
void acpi_poweroff(const struct start_info *si) __attribute__((noreturn));
void *memcpy(void *d, const void *s, u32 n);
int memcmp(const void *a, const void *b, u32 n);

#endif
