/* SPDX-License-Identifier: GPL-2.0-only */
/* x86 instructions the hypervisor uses, as inline functions. */
#ifndef ARCH_X86_CPU_H
#define ARCH_X86_CPU_H

#include "hv/types.h"

static inline void outb(u16 port, u8 v) { __asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port)); }
static inline void outw(u16 port, u16 v) { __asm__ volatile("outw %0, %1" ::"a"(v), "Nd"(port)); }
static inline void outl(u16 port, u32 v) { __asm__ volatile("outl %0, %1" ::"a"(v), "Nd"(port)); }
static inline u32 inl(u16 port)
{
	u32 v;
	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u16 inw(u16 port)
{
	u16 v;
	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline u8 inb(u16 port)
{
	u8 v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ volatile("wrmsr" ::"c"(msr), "a"((u32)v), "d"((u32)(v >> 32)) : "memory");
}

static inline u64 rdtsc(void)
{
	u32 lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

static inline void cpuid(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(sub));
}

/* The same, as EAX, EBX, ECX, EDX in r[0..3]. */
static inline void cpu_cpuid(u32 leaf, u32 sub, u32 r[4])
{
	cpuid(leaf, sub, &r[0], &r[1], &r[2], &r[3]);
}

/* MAXPHYADDR (CPUID 80000008h EAX[7:0]; 36 without the leaf, SDM vol. 3A, 4.1.4): the
 * guests' too (cpuid_policy.c passes the leaf on). */
static inline u32 cpu_phys_bits(void)
{
	u32 r[4];
	cpu_cpuid(0x80000000, 0, r);
	if (r[0] < 0x80000008)
		return 36;
	cpu_cpuid(0x80000008, 0, r);
	return r[0] & 0xFF;
}

static inline u64 read_cr0(void)
{
	u64 v;
	__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}
static inline u64 read_cr3(void)
{
	u64 v;
	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}
static inline u64 read_cr4(void)
{
	u64 v;
	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}
static inline u64 read_dr6(void)
{
	u64 v;
	__asm__ volatile("mov %%db6, %0" : "=r"(v));
	return v;
}
static inline void write_dr6(u64 v) { __asm__ volatile("mov %0, %%db6" ::"r"(v)); }
static inline void write_cr4(u64 v) { __asm__ volatile("mov %0, %%cr4" ::"r"(v) : "memory"); }
static inline void write_cr0(u64 v) { __asm__ volatile("mov %0, %%cr0" ::"r"(v) : "memory"); }

static inline void cpu_relax(void) { __asm__ volatile("pause" ::: "memory"); }
static inline void irq_disable(void) { __asm__ volatile("cli" ::: "memory"); }
/* Lets pending host interrupts in (their handlers only set flags), then masks again. */
static inline void irq_window(void) { __asm__ volatile("sti; nop; cli" ::: "memory"); }
/* Sleeps until the next host interrupt; sti's one-instruction shadow closes the race. */
static inline void wait_for_interrupt(void) { __asm__ volatile("sti; hlt; cli" ::: "memory"); }

#define MSR_EFER 0xC0000080u
#define MSR_STAR 0xC0000081u
#define MSR_LSTAR 0xC0000082u
#define MSR_CSTAR 0xC0000083u
#define MSR_SFMASK 0xC0000084u
#define MSR_GS_BASE 0xC0000101u
#define MSR_KERNEL_GS_BASE 0xC0000102u
#define MSR_VM_CR 0xC0010114u
#define MSR_VM_HSAVE_PA 0xC0010117u
#define EFER_SCE BIT(0)
#define EFER_LME BIT(8)
#define EFER_LMA BIT(10)
#define EFER_NXE BIT(11)
#define EFER_SVME BIT(12)

#endif
