/* SPDX-License-Identifier: GPL-2.0-only */
/* What the architecture-neutral core asks of a backend. Each architecture implements
 * these once; the core never includes an architecture header other than through
 * arch/vm.h (the backend's part of struct vm and struct vcpu). */
#ifndef HV_ARCH_H
#define HV_ARCH_H

#include "types.h"

struct vm;
struct vcpu;
struct vm_config;
struct guest_images;
struct selftest_vm;
struct selftest_feature;

/* Physical CPUs and time. Time is in ticks of arch_time_hz (the TSC / counter). */
u32 arch_pcpu_id(void);
u64 arch_time_now(void);
extern u64 arch_time_hz;
void arch_timer_arm(u64 deadline); /* one-shot host timer interrupt at `deadline` */
void arch_send_kick(u32 pcpu);	   /* host IPI: makes that pCPU leave guest mode or wake */
/* pCPU pcpu runs v in guest mode and v has a new interrupt posted: true if the hardware
 * delivers it there without an exit (x86 posted interrupts: the notification sent, or
 * already outstanding); false: a kick is needed. */
bool arch_notify_running(struct vcpu *v, u32 pcpu);
void arch_idle(void);	    /* sleep until the next host interrupt */
void arch_irq_window(void); /* let pending host interrupts run */
/* The CPU's random number instruction (x86: RDSEED, else RDRAND; arm64: RNDR): its
 * name, or NULL where the CPU has none; arch_random_u64 gives one number from it, false
 * when it has none to give after a few tries. */
const char *arch_random_name(void);
bool arch_random_u64(u64 *out);
/* The machine's own power-off and reset, each saying on the console how it does it; if
 * that does not take effect, they say so and halt. */
NORETURN void arch_power_off(void);
NORETURN void arch_reboot(void);
/* The backend's counters of a pCPU (host interrupts by kind), one line for the report
 * printed at power off. */
void arch_pcpu_describe(u32 pcpu, char *buf, size_t n);

/* The paravirtual features (hv/pv_features.h) this backend implements; a VM's `pv`
 * set is cut down to them. */
extern const u32 arch_pv_features;

/* VMs and vCPUs. */
/* Memory map, devices and the guest image; prints the reason and returns -1 on error. */
int arch_vm_create(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img);
int arch_vcpu_create(struct vcpu *v);

enum run_result {
	/* Back to the scheduler: a host interrupt, the end of the time slice, a kick or a
	 * stop request (the scheduler finds a stopping VM when it polls its vCPUs). */
	RUN_PREEMPTED,
	RUN_HALTED, /* the guest waits for an interrupt */
};
/* Runs the guest until something the scheduler must see. */
enum run_result arch_vcpu_run(struct vcpu *v);
/* Work posted by other pCPUs (INIT/SIPI, interrupts) and due timers, done by the owner. */
void arch_vcpu_poll(struct vcpu *v, u64 now);
bool arch_vcpu_wants_to_run(struct vcpu *v); /* an interrupt or start request is pending */
u64 arch_vcpu_next_timer(struct vcpu *v);    /* absolute time of its next timer, 0 if none */
void arch_vcpu_load(struct vcpu *v);	     /* about to run on this pCPU after another vCPU */
void arch_vcpu_put(struct vcpu *v);	     /* another vCPU is about to run here */
/* Whether the guest, back from arch_vcpu_run, was stopped inside a critical section:
 * kernel mode with interrupts masked (x86 CPL 0 and RFLAGS.IF=0, arm64 EL1 and
 * PSTATE.I=1), or else a non-zero preempt count the guest published (`pv = preempt`: x86
 * HV_MSR_PREEMPT_COUNT, arm64 HV_SMCCC_PREEMPT_COUNT, guest_abi/ABI.md). Read by the
 * scheduler's boost (hv/sched.c). */
enum critical_section { CS_NONE, CS_IRQS_MASKED, CS_PREEMPT_COUNT };
enum critical_section arch_vcpu_in_critical_section(struct vcpu *v);
/* Whether the backend returns to the scheduler as soon as v, stopped inside a critical
 * section, leaves it (sched_watch_section_end): x86 when interrupts are masked (an exit
 * at the interrupt window); arm64 has no exit when the guest unmasks them. */
bool arch_vcpu_sees_section_end(struct vcpu *v);
/* One line of backend state (registers, interrupt controller) for vm_dump, which prints
 * the architecture-neutral fields itself (read racily from another pCPU). */
void arch_vcpu_describe(struct vcpu *v, char *buf, size_t n);

/* The hardware self-test's architecture part (hv/selftest.h): its VMs (a NULL-terminated
 * list; NULL, after saying why, where this architecture has no built-in guest), the
 * built-in guest's image and the tag its report lines start with, and the CPU's features
 * (up to max into f; their number). */
const struct selftest_vm *arch_selftest_vms(void);
const void *arch_selftest_guest(u64 *len, const char **tag);
u32 arch_selftest_features(struct selftest_feature *f, u32 max);
/* The speculative-execution mitigations in force, in words (decided at boot, which the
 * boot console says too), for the self-test's report. */
const char *arch_speculation(void);

#endif
