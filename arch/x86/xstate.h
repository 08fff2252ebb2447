/* SPDX-License-Identifier: GPL-2.0-only */
/* The guest's extended processor state (x87, SSE, AVX, AVX-512, PKRU): which XSAVE
 * components a guest may enable in XCR0, the sizes CPUID leaf 0Dh reports for them,
 * and the per-vCPU XSAVE area switched when vCPUs share a pCPU. */
#ifndef ARCH_X86_XSTATE_H
#define ARCH_X86_XSTATE_H

#include "hv/types.h"

#define XCR0_X87 BIT(0)
#define XCR0_SSE BIT(1)
#define XCR0_AVX BIT(2)
#define XCR0_OPMASK BIT(5)
#define XCR0_ZMM_HI256 BIT(6)
#define XCR0_HI16_ZMM BIT(7)
#define XCR0_AVX512 (XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM)
#define XCR0_PKRU BIT(9)

/* The CPU's CPUID, or a recorded one in the unit tests. */
typedef void (*cpuid_fn)(u32 leaf, u32 sub, u32 r[4]);

/* The XCR0 bits a guest may set: x87, SSE, AVX and AVX-512, as far as the CPU has them
 * (AVX-512 only whole). Other components are not offered: MPX and AMX need more than
 * their registers, PKRU goes with PKU (hidden). 0 when the CPU has no XSAVE. */
u64 xstate_guest_xcr0_mask(cpuid_fn host);
/* Size of a standard-format XSAVE area holding the components in xcr0 (SDM vol. 1,
 * 13.4.3: each component at the offset CPUID.(0Dh, i).EBX gives). */
u32 xstate_area_size(cpuid_fn host, u64 xcr0);
/* Whether XSETBV may load `value` into XCR0 (SDM vol. 2, XSETBV: x87 always set, AVX
 * needs SSE, AVX-512 all three together and with AVX, nothing outside `allowed`). */
bool xstate_xcr0_valid(u64 allowed, u64 value);
/* CPUID leaf 0Dh as a guest with this XCR0 and `allowed` components sees it. */
void xstate_cpuid(cpuid_fn host, u64 allowed, u64 guest_xcr0, u32 sub, u32 r[4]);

struct vcpu;
/* Host side. At boot: what the guests get, in a banner line; -1 with *why when the CPU
 * has no XSAVE. Then every pCPU enables XSAVE with all the components it switches. */
int xstate_probe(const char **why);
void xstate_pcpu_init(void);
void xstate_vcpu_init(struct vcpu *v);
void xstate_vcpu_reset(struct vcpu *v);
/* XSETBV from the guest: 0, or -1 for #GP. */
int xstate_xsetbv(struct vcpu *v, u32 index, u64 value);
/* The vCPU's registers and XCR0 onto this pCPU, and back into its area. */
void xstate_load(struct vcpu *v);
void xstate_put(struct vcpu *v);
/* The XCR0 of a vCPU that is loaded on this pCPU. */
u64 xstate_guest_xcr0(struct vcpu *v);
u64 xstate_guest_mask(void);

#endif
