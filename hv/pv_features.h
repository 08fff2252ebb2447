/* SPDX-License-Identifier: GPL-2.0-only */
/* The paravirtual features a VM offers its guest, by architecture-neutral names.
 *
 * A set is a u32 bitmask of BIT(enum pv_feature). The configuration key `pv` of a
 * [vm ...] section gives it (default: all). A feature that is not in the set is hidden
 * from the guest (on x86: its KVM_FEATURE_* bit is clear in CPUID 0x40000001, and its
 * MSRs and hypercalls behave as on a KVM host without it), so the guest falls back to
 * the native mechanism (emulated APIC writes, HLT, plain IPIs, ...).
 *
 * What each name maps to on x86 (Linux Documentation/virt/kvm/x86/{cpuid,msr,
 * hypercalls}.rst):
 *   clock   kvmclock: KVM_FEATURE_CLOCKSOURCE2, MSR_KVM_SYSTEM_TIME_NEW and
 *           MSR_KVM_WALL_CLOCK_NEW (pvclock records), KVM_FEATURE_CLOCKSOURCE_STABLE_BIT
 *   steal   KVM_FEATURE_STEAL_TIME: MSR_KVM_STEAL_TIME, the per-vCPU steal time record
 *           with its `preempted` flag (the guest's vcpu_is_preempted())
 *   eoi     KVM_FEATURE_PV_EOI: MSR_KVM_PV_EOI_EN, EOI without an exit when the
 *           hypervisor says no EOI side effect is needed
 *   unhalt  KVM_FEATURE_PV_UNHALT: paravirtual spinlocks, a waiter halts and the lock
 *           holder wakes it with KVM_HC_KICK_CPU
 *   tlb     KVM_FEATURE_PV_TLB_FLUSH: remote TLB flushes skip preempted vCPUs and set
 *           KVM_VCPU_FLUSH_TLB in their steal time record instead
 *   ipi     KVM_FEATURE_PV_SEND_IPI: KVM_HC_SEND_IPI, one hypercall for an IPI to up to
 *           128 vCPUs (arch/x86/irq/pv_ipi.h)
 *   yield   KVM_FEATURE_PV_SCHED_YIELD: KVM_HC_SCHED_YIELD, yield to a preempted vCPU
 *           the caller waits for (smp_call_function)
 *   preempt this project's extension (guest_abi/hv_para.h): HV_FEATURE_PREEMPT_COUNT and
 *           HV_MSR_PREEMPT_COUNT (x86: the per-CPU count), HV_SMCCC_PREEMPT_COUNT
 *           (arm64: a word naming the running task's count), through which a guest
 *           module publishes its preempt count, so that the scheduler sees critical
 *           sections with interrupts on (hv/sched.c, "Boost")
 *
 * The set is taken as given: no feature implies another. Note that Linux uses `tlb`
 * and `yield` only together with `steal` (they need the preempted flag), and `ipi`,
 * `unhalt`, `tlb` and `yield` only with more than one vCPU. */
#ifndef HV_PV_FEATURES_H
#define HV_PV_FEATURES_H

#include "types.h"

enum pv_feature {
	PV_CLOCK,     /* "clock" */
	PV_STEAL,     /* "steal" */
	PV_EOI,	      /* "eoi" */
	PV_UNHALT,    /* "unhalt" */
	PV_TLB_FLUSH, /* "tlb" */
	PV_IPI,	      /* "ipi" */
	PV_YIELD,     /* "yield" */
	PV_PREEMPT,   /* "preempt" (this project's extension) */
	PV_FEATURES   /* number of features */
};

#define PV_FEATURES_NONE 0u
#define PV_FEATURES_ALL ((u32)(BIT(PV_FEATURES) - 1))

static inline bool pv_has(u32 set, enum pv_feature f) { return set & BIT(f); }

/* "clock", "steal", ...; NULL if f is not a feature. */
const char *pv_feature_name(enum pv_feature f);

/* Parses a feature list: comma-separated items, blanks allowed around each one,
 * processed left to right starting from the empty set:
 *   all       every feature            none    the empty set
 *   NAME      adds NAME                +NAME   adds NAME
 *   -NAME     removes NAME
 * So "all,-ipi" is every feature but ipi, "clock,ipi" exactly those two. Names are
 * case-sensitive; '+' and '-' take a feature name, not all or none.
 * Returns 0 and sets *out, or -1 with *out unchanged and a one-line reason in err
 * (errlen bytes, always terminated; err may be NULL), e.g. "unknown PV feature 'x'
 * (known: clock steal eoi unhalt tlb ipi yield preempt all none)". */
int pv_features_parse(const char *value, u32 *out, char *err, size_t errlen);

/* The set as "clock,steal,eoi" (in enum order; bits above the last feature are
 * ignored), or "none". Always terminated when n > 0, cut short if n is too small;
 * 48 bytes hold every feature. */
void pv_features_format(u32 set, char *buf, size_t n);

#endif
