/* SPDX-License-Identifier: GPL-2.0-only */
/* The guest's extended processor state (SDM vol. 1, chapter 13; APM vol. 2, 11.5).
 *
 * Every pCPU runs with CR4.OSXSAVE and an XCR0 of its own, host_xcr0: the guest's
 * components plus PKRU, which a guest can reach through CR4.PKE (not intercepted) even
 * though CPUID hides PKU. A vCPU's state lives in its XSAVE area while it is off the
 * pCPU; loading it restores every component of host_xcr0 and then puts the guest's XCR0
 * in place (VMRUN does not switch XCR0), so that its XSAVE, XGETBV and AVX see what
 * it set. Putting it back does the reverse. Nothing the hypervisor runs in between
 * touches these registers (-mgeneral-regs-only, scripts/check-no-fp.sh).
 *
 * No guest sees XSAVES (CPUID 0Dh.1, xstate_cpuid), yet on SVM nothing makes it #UD (VMX
 * leaves it disabled, vmx.c): a guest that runs it anyway saves and restores what XCR0
 * and the pCPU's IA32_XSS enable. The hypervisor uses no supervisor state, so IA32_XSS is
 * 0 on every pCPU, whatever the firmware left there (CET, PT or LBR state of the firmware
 * or of another VM is never in reach of a guest's XSAVES). */
#include "arch/x86/xstate.h"
#include "arch/cpu.h"
#include "hv/lib.h"
#include "hv/printk.h"
#include "hv/mem.h"
#include "hv/vm.h"

#define CR4_OSXSAVE BIT(18)
#define MSR_IA32_XSS 0xDA0
#define XSAVE_LEGACY_AND_HEADER 576 /* the FXSAVE image and the XSAVE header */
#define MXCSR_OFFSET 24
#define MXCSR_RESET 0x1F80

u64 xstate_guest_xcr0_mask(cpuid_fn host)
{
	u32 r[4];
	host(1, 0, r);
	if (!(r[2] & BIT(26))) /* XSAVE */
		return 0;
	host(0xD, 0, r);
	u64 mask = (r[0] | (u64)r[3] << 32) & (XCR0_X87 | XCR0_SSE | XCR0_AVX | XCR0_AVX512);
	if ((mask & (XCR0_X87 | XCR0_SSE)) != (XCR0_X87 | XCR0_SSE))
		return 0;
	if ((mask & XCR0_AVX512) != XCR0_AVX512 || !(mask & XCR0_AVX))
		mask &= ~XCR0_AVX512;
	return mask;
}

u32 xstate_area_size(cpuid_fn host, u64 xcr0)
{
	u32 size = XSAVE_LEGACY_AND_HEADER;
	for (u32 i = 2; i < 63; i++) {
		if (!(xcr0 & BIT(i)))
			continue;
		u32 r[4];
		host(0xD, i, r);
		size = MAX(size, r[1] + r[0]); /* offset + size */
	}
	return size;
}

bool xstate_xcr0_valid(u64 allowed, u64 value)
{
	if ((value & ~allowed) || !(value & XCR0_X87))
		return false;
	if ((value & XCR0_AVX) && !(value & XCR0_SSE))
		return false;
	if ((value & XCR0_AVX512) && ((value & XCR0_AVX512) != XCR0_AVX512 || !(value & XCR0_AVX)))
		return false;
	return true;
}

void xstate_cpuid(cpuid_fn host, u64 allowed, u64 guest_xcr0, u32 sub, u32 r[4])
{
	u32 h[4];
	r[0] = r[1] = r[2] = r[3] = 0;
	if (!allowed)
		return;
	if (sub == 0) {
		r[0] = (u32)allowed;
		r[1] = xstate_area_size(host, guest_xcr0); /* for what XCR0 enables now */
		r[2] = xstate_area_size(host, allowed);	   /* for everything it could enable */
		r[3] = (u32)(allowed >> 32);
	} else if (sub == 1) {
		host(0xD, 1, h);
		r[0] = h[0] & BIT(0); /* XSAVEOPT; not XSAVEC, XGETBV1, XSAVES (no IA32_XSS) */
	} else if (sub < 63 && (allowed & BIT(sub))) {
		host(0xD, sub, h);
		r[0] = h[0];	      /* size */
		r[1] = h[1];	      /* offset in the standard format */
		r[2] = h[2] & BIT(1); /* 64-byte alignment in the compacted format */
	}
}

#ifndef HV_UNIT_TEST
static u64 host_xcr0, guest_mask;
static u32 area_size;

static inline void xsetbv(u32 index, u64 value)
{
	__asm__ volatile("xsetbv" ::"c"(index), "a"((u32)value), "d"((u32)(value >> 32)));
}

static inline u64 xgetbv(u32 index)
{
	u32 lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(index));
	return (u64)hi << 32 | lo;
}

int xstate_probe(const char **why)
{
	guest_mask = xstate_guest_xcr0_mask(cpu_cpuid);
	if (!guest_mask) {
		*why = "the CPU has no XSAVE with x87 and SSE state (CPUID 1 ECX[26], leaf 0Dh)";
		return -1;
	}
	u32 r[4];
	cpu_cpuid(0xD, 0, r);
	host_xcr0 = guest_mask | (r[0] & XCR0_PKRU);
	area_size = xstate_area_size(cpu_cpuid, host_xcr0);
	printk("hv: guest FPU state: XSAVE with XCR0 up to %#llx (x87 SSE%s%s), %u bytes a "
	       "vCPU%s\n",
	       (unsigned long long)guest_mask, guest_mask & XCR0_AVX ? " AVX" : "",
	       guest_mask & XCR0_AVX512 ? " AVX-512" : "", area_size,
	       host_xcr0 & XCR0_PKRU ? " (PKRU switched too)" : "");
	return 0;
}

void xstate_pcpu_init(void)
{
	write_cr4(read_cr4() | CR4_OSXSAVE);
	xsetbv(0, host_xcr0);
	u32 r[4];
	cpu_cpuid(0xD, 1, r);
	if (r[0] & BIT(3)) /* XSAVES, hence IA32_XSS (SDM vol. 1, 13.3) */
		wrmsr(MSR_IA32_XSS, 0);
}

u64 xstate_guest_mask(void) { return guest_mask; }

void xstate_vcpu_reset(struct vcpu *v) { v->arch.xcr0 = XCR0_X87; }

void xstate_vcpu_init(struct vcpu *v)
{
	/* Zeroed: XSTATE_BV = 0 puts every component in its initial state at the first
	 * load; MXCSR is loaded from the image whenever SSE or AVX is restored. */
	v->arch.xsave = alloc_zeroed(area_size);
	*(u32 *)(v->arch.xsave + MXCSR_OFFSET) = MXCSR_RESET;
	xstate_vcpu_reset(v);
}

int xstate_xsetbv(struct vcpu *v, u32 index, u64 value)
{
	if (index != 0 || !xstate_xcr0_valid(guest_mask, value))
		return -1;
	v->arch.xcr0 = value;
	xsetbv(0, value); /* the vCPU is loaded here */
	return 0;
}

void xstate_load(struct vcpu *v)
{
	__asm__ volatile("xrstor64 %0" ::"m"(*v->arch.xsave), "a"((u32)host_xcr0),
			 "d"((u32)(host_xcr0 >> 32))
			 : "memory");
	if (v->arch.xcr0 != host_xcr0)
		xsetbv(0, v->arch.xcr0);
}

u64 xstate_guest_xcr0(struct vcpu *v)
{
	(void)v; /* it is loaded: its XCR0 is the CPU's */
	return xgetbv(0);
}

void xstate_put(struct vcpu *v)
{
	/* Read back rather than trusted from XSETBV exits: QEMU 7.2's TCG does not take the
	 * XSETBV intercept (Linux's XSETBV never exited there), the guest's XSETBV then
	 * sets XCR0 itself. */
	v->arch.xcr0 = xgetbv(0);
	if (v->arch.xcr0 != host_xcr0)
		xsetbv(0, host_xcr0);
	__asm__ volatile("xsave64 %0"
			 : "=m"(*v->arch.xsave)
			 : "a"((u32)host_xcr0), "d"((u32)(host_xcr0 >> 32))
			 : "memory");
}
#endif
