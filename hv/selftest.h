/* SPDX-License-Identifier: GPL-2.0-only */
/* The hardware self-test (`selftest = yes` under [hv]), for a user who boots the
 * hypervisor on a new server: instead of configured VMs it runs the architecture's
 * built-in test guest in one VM per way the hypervisor can deliver interrupts on this
 * CPU (emulated; the CPU's APIC virtualization where it has it), each using the CPU's
 * virtualization features, and when the last one ends prints a table: each feature
 * pass (present, and every VM using it passed), fail (present, a VM using it failed) or
 * absent (the CPU lacks it; what the hypervisor does instead), then the IPI costs the
 * guests measured in TSC cycles (unicast waiting for the handler, unicast not waiting,
 * to all others waiting) through the APIC's ICR and the PV hypercall, per VM, and one
 * verdict line. Then the machine powers off as configured (on_exit). A guest that has not
 * finished after SELFTEST_TIMEOUT_S seconds (an interrupt lost on a new CPU) is stopped
 * and fails, so that the table still comes.
 *
 * The guests report through their console lines (console_tail), each starting with the
 * architecture's tag (x86: "X86TEST ok ...", "X86TEST FAIL ...", "X86TEST DONE", "X86TEST
 * ipicost PATH: unicast-wait=N unicast=N broadcast-wait=N cycles":
 * tests/guest/x86/apictest.c). */
#ifndef HV_SELFTEST_H
#define HV_SELFTEST_H

#include "types.h"

/* A feature of the CPU the self-test reports. */
struct selftest_feature {
	const char *name; /* "AVIC" */
	bool present;	  /* the CPU has it */
	bool unused;	  /* ...but the hypervisor does not use it */
	const char *vm;	  /* the self-test VM whose guest uses it; NULL: every VM */
	/* present: how it is used (NULL: by vm); absent or unused: what is done instead */
	const char *how;
};

#define SELFTEST_MAX_VMS 4
#define SELFTEST_MAX_FEATURES 24

/* A VM of the self-test: its name, and whether it runs without the CPU's APIC
 * virtualization (the architecture's part, hv/arch.h, lists them). */
struct selftest_vm {
	const char *name;
	bool apicv_off;
};

struct vm;
/* The self-test's VMs are made (boot/efi_main.c): from now on it runs, for at most
 * SELFTEST_TIMEOUT_S seconds, after which pCPU 0's housekeeping (hv/sched.h) stops the
 * VMs still running, which then fail; at the end of the run (hv_exit) it prints the table
 * and the verdict. */
#define SELFTEST_TIMEOUT_S 120
void selftest_start(struct vm *const *vms, u32 n);

#endif
