/* SPDX-License-Identifier: GPL-2.0-only */
/* AArch64 instructions and system registers the hypervisor uses, as inline functions. */
#ifndef ARCH_ARM64_CPU_H
#define ARCH_ARM64_CPU_H

#include "hv/types.h"

/* clang-format off */
#define read_sysreg(r) ({ u64 __v; __asm__ volatile("mrs %0, " #r : "=r"(__v)); __v; })
/* clang-format on */
#define write_sysreg(r, v) __asm__ volatile("msr " #r ", %0" ::"r"((u64)(v)) : "memory")
static inline void isb(void) { __asm__ volatile("isb" ::: "memory"); }
static inline void dsb_sy(void) { __asm__ volatile("dsb sy" ::: "memory"); }
static inline void dsb_ish(void) { __asm__ volatile("dsb ish" ::: "memory"); }

#if defined(HV_UNIT_TEST) && !defined(__aarch64__)
/* Host unit tests of arm64 code built for the build machine: no YIELD hint there. */
static inline void cpu_relax(void) { __asm__ volatile("" ::: "memory"); }
#else
static inline void cpu_relax(void) { __asm__ volatile("yield" ::: "memory"); }
#endif
static inline void irq_disable(void) { __asm__ volatile("msr daifset, #2" ::: "memory"); }
/* Lets pending host interrupts in (their handlers only set flags), then masks again. */
static inline void irq_window(void)
{
	__asm__ volatile("msr daifclr, #2; isb; msr daifset, #2" ::: "memory");
}
/* Sleeps until a host interrupt is pending: WFI wakes on a pending interrupt even while
 * PSTATE.I masks it (DDI 0487 D1.16.2), which then runs in the window after. */
static inline void wait_for_interrupt(void)
{
	__asm__ volatile("dsb sy; wfi; msr daifclr, #2; isb; msr daifset, #2" ::: "memory");
}

/* Cleans the data cache over [p, p + n) to the point of coherency (DDI 0487 D7.5.9): for
 * what a CPU with its MMU and caches off will read (a secondary starting, a guest's
 * first instructions). */
static inline void dcache_clean_poc(const void *p, size_t n)
{
	u64 line = 4u << ((read_sysreg(ctr_el0) >> 16) & 0xF);
	for (u64 a = ALIGN_DOWN((u64)(uintptr_t)p, line); a < (u64)(uintptr_t)p + n; a += line)
		__asm__ volatile("dc cvac, %0" ::"r"(a) : "memory");
	dsb_sy();
}

static inline u32 mmio_read32(u64 a) { return *(volatile u32 *)(uintptr_t)a; }
static inline void mmio_write32(u64 a, u32 v) { *(volatile u32 *)(uintptr_t)a = v; }

#if !defined(HV_UNIT_TEST) || defined(__aarch64__)
/* SMC to the firmware (SMCCC: x0 function, x1-x3 arguments, x0 result). Not in host
 * tests of arm64 code: clang refuses the arm64 register names on another machine. */
static inline u64 smc_call(u64 fn, u64 a1, u64 a2, u64 a3)
{
	register u64 x0 __asm__("x0") = fn, x1 __asm__("x1") = a1, x2 __asm__("x2") = a2,
			x3 __asm__("x3") = a3;
	__asm__ volatile("smc #0"
			 : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)
			 :
			 : "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14",
			   "x15", "x16", "x17", "memory");
	return x0;
}
#endif

/* GICv3 CPU interface and virtualization registers (IHI 0069 12.2, 12.4). */
#define ICC_SRE_EL2 S3_4_C12_C9_5
#define ICC_SRE_EL1 S3_0_C12_C12_5
#define ICC_IAR1_EL1 S3_0_C12_C12_0
#define ICC_EOIR1_EL1 S3_0_C12_C12_1
#define ICC_PMR_EL1 S3_0_C4_C6_0
#define ICC_IGRPEN1_EL1 S3_0_C12_C12_7
#define ICC_SGI1R_EL1 S3_0_C12_C11_5
#define ICC_CTLR_EL1 S3_0_C12_C12_4
#define ICH_HCR_EL2 S3_4_C12_C11_0
#define ICH_VTR_EL2 S3_4_C12_C11_1
#define ICH_MISR_EL2 S3_4_C12_C11_2
#define ICH_ELRSR_EL2 S3_4_C12_C11_5
#define ICH_VMCR_EL2 S3_4_C12_C11_7

#endif
