/* SPDX-License-Identifier: GPL-2.0-only */
/* Which hardware virtualization the boot CPU offers, decided once at boot and in one place
 * (virt_probe.c): its vendor (CPUID 0) picks the extension (AMD SVM, Intel VMX), its
 * feature flag says whether the CPU has it, and only then are that vendor's MSRs read to
 * see whether the firmware left it usable. A backend (vendor.h) runs what this chose. */
#ifndef ARCH_X86_VIRT_PROBE_H
#define ARCH_X86_VIRT_PROBE_H

#include "arch/x86/xstate.h"

enum x86_virt { X86_VIRT_NONE, X86_VIRT_SVM, X86_VIRT_VMX, X86_VIRTS };

/* The MSRs, or recorded ones in the unit tests. */
typedef u64 (*rdmsr_fn)(u32 msr);

struct x86_virt_probe {
	enum x86_virt virt; /* the extension to run guests with, or X86_VIRT_NONE: */
	char why[224];	    /*   what is missing, in words for the user */
	char vendor[13];    /* CPUID 0's vendor string ("AuthenticAMD") */
	char brand[49];	    /* the processor brand string, "" where the CPU gives none */
};

/* Fills *out for the CPU whose CPUID host reads and whose MSRs read_msr reads; `built` is
 * the set of extensions this hv.efi has a backend for (BIT(X86_VIRT_SVM) ...). */
void x86_virt_probe(cpuid_fn host, rdmsr_fn read_msr, u32 built, struct x86_virt_probe *out);

#endif
