/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual machines and virtual CPUs: the architecture-neutral part. Each backend adds
 * its own state through struct arch_vm / struct arch_vcpu (arch/<arch>/include/arch/vm.h). */
#ifndef HV_VM_H
#define HV_VM_H

#include "types.h"
#include "pcpu_set.h"
#include "iobus.h"
#include "stats.h"
#include "spinlock.h"
#include "arch/vm.h"
#include "arch/limits.h"
#include "vm_config.h"

#define MAX_VCPUS ARCH_MAX_VCPUS
#define MAX_VMS 8

enum vcpu_state {
	VCPU_WAIT_START, /* not started yet (x86: waiting for INIT/SIPI; arm64: for PSCI CPU_ON) */
	VCPU_RUNNABLE,
	VCPU_HALTED,  /* waiting for an interrupt */
	VCPU_STOPPED, /* its VM has stopped */
};

struct vm;
struct vm_config;

struct vcpu {
	struct vm *vm;
	u32 id;
	u32 pcpu;		  /* the physical CPU it runs on (aware: changes when it moves) */
	struct pcpu_set affinity; /* the pCPUs it may run on, set before start */
	u64 moved_at;		  /* when it last moved to another pCPU (aware) */
	struct vcpu *inbox_next;  /* in a pCPU's inbox, moving there */
	bool on_runq;	       /* on the run list of pcpu (set and cleared by that list's pCPU) */
	enum vcpu_state state; /* written by its own pCPU only */
	bool in_guest;	       /* true while its pCPU is in guest mode running it */
	bool kick_pending;     /* someone queued work for it: re-evaluate before the next entry */
	u64 wait_since;	       /* when it became runnable without running (0: not waiting) */
	u64 vruntime;	       /* run time its turns were charged (aware: the fair-share clock) */
	u64 kicked_at;	       /* the first kick since its pCPU last looked (0: none) */
	u64 woken_at;	       /* when an interrupt made it runnable, until its guest entry */
	u64 spin_quiet_until;  /* its spin-waits are not watched before (sched_watch_spin);
				* SPIN_QUIET_NEXT_ENTRY: the quiet time starts at its next entry */
	u32 spin_next;	       /* the vCPU of its VM its last spin exit yielded to */
	u8 preempted_critical; /* lost its pCPU inside a critical section (enum
				  * critical_section: which kind), not run since */
	bool boost_due;	       /* ...before its turn was extended for it (owner only) */
	struct vcpu *rq_next;  /* the pCPU's run list */
	struct vcpu_stats stats;
	struct arch_vcpu arch;
};

enum vm_stop_reason {
	VM_RUNNING,
	VM_POWEROFF,
	VM_RESET,
	VM_TRIPLE_FAULT,
	VM_FATAL,
	VM_EXIT_PORT /* x86: a write to its test exit port (exit_port in hv.cfg) */
};

struct vm {
	u32 id;
	char name[32];
	u64 ram_gpa, ram_size;	 /* guest-physical RAM from ram_gpa, ram_size bytes (set by the */
	u64 hole_gpa, hole_size; /* backend), less a hole: RAM that would be at hole_gpa.. is */
				 /* at hole_gpa + hole_size.. (x86: the 32-bit MMIO hole); */
	u8 *ram;		 /* size 0: none. ram: host address of ram_gpa */
	u32 nvcpus;
	u32 pv; /* enabled paravirtual features (hv/pv_features.h) */
	/* apicv = off: no APIC virtualization by the CPU, even where it has it */
	bool apicv_off;
	struct vcpu *vcpus[MAX_VCPUS];
	struct iobus bus;
	struct spinlock dev_lock; /* serialises the emulated devices (UART, interrupt controller) */
	enum vm_stop_reason stop_reason;
	u32 vcpus_stopped;
	struct arch_vm arch;
};

/* Host pointer for a guest-physical range, or NULL when it is not all guest RAM. */
static inline void *gpa_to_hva(struct vm *vm, u64 gpa, u64 len)
{
	if (vm->hole_size && gpa >= vm->hole_gpa) {
		if (gpa - vm->hole_gpa < vm->hole_size)
			return NULL; /* in the hole */
		gpa -= vm->hole_size;
	} else if (vm->hole_size && len > vm->hole_gpa - gpa) {
		return NULL; /* runs into the hole */
	}
	u64 off = gpa - vm->ram_gpa;
	if (gpa < vm->ram_gpa || off >= vm->ram_size || len > vm->ram_size - off)
		return NULL;
	return vm->ram + off;
}

/* Builds a VM from its configuration section (before the machine is taken over): RAM
 * (already allocated by the caller), vCPUs, devices and the guest image. NULL on error,
 * after printing the reason. */
struct guest_file {
	const void *data;
	u64 len;
};
struct guest_images {
	const void *kernel;
	u64 kernel_len;
	u32 ninitrds; /* initrd = A, B, ...: the files, in that order */
	struct guest_file initrd[CFG_MAX_INITRDS];
};
struct vm *vm_create(u32 id, const struct vm_config *cfg, void *ram,
		     const struct guest_images *img);

/* The initrd of a Linux kernel, which takes one: 0 and *rd (len 0: none), or -1 after
 * saying why when the configuration names several. */
int vm_linux_initrd(const struct vm *vm, const struct vm_config *cfg,
		    const struct guest_images *img, struct guest_file *rd);

/* The counters of all its vCPUs added up. */
void vm_stats(const struct vm *vm, struct vcpu_stats *sum);
/* The stats call of the guest ABI (x86 HV_HC_GET_STATS, arm64 HV_SMCCC_GET_STATS): copies
 * struct hv_guest_stats of v's VM to guest-physical gpa, at most len bytes. Returns the
 * bytes written, or -1 (counted as a bad access) when the buffer is not all RAM. */
s64 vm_copy_guest_stats(struct vcpu *v, u64 gpa, u64 len);
/* Prints each vCPU's scheduling state and the backend's view of it. */
void vm_dump(struct vm *vm);

/* Makes the vCPU's pCPU look at it again: wakes it if halted, interrupts the guest if it
 * runs. Only the pCPU that runs the target is disturbed, and only when needed: a pCPU
 * running another vCPU only when the wakeup would change what runs before its next
 * scheduling decision (hv/sched.c, kick_for).
 * Everything the caller stored before the kick (an IRR bit, a vGIC change, with release
 * or stronger ordering) is seen by the target's next guest entry: the kick stores
 * kick_pending and then reads whether the target's pCPU is in guest mode or asleep (both
 * seq_cst); sched_enter_guest stores "in guest mode" and then reads every kick_pending.
 * One of the two sees the other: the target goes back to the scheduler (having seen the
 * flag, and so what came before it), or it gets a host IPI right after its entry (or,
 * running another vCPU, finds the flag when it next leaves guest mode). A target must
 * not decide from state it read before sched_enter_guest. */
void vcpu_kick(struct vcpu *v);
/* vcpu_kick for an interrupt the target's interrupt controller has accepted: a target
 * running in guest mode may take it there without an exit (arch_notify_running); the
 * vCPU whose exit the caller handles takes it at its next entry, unkicked. */
void vcpu_notify(struct vcpu *v);
/* A guest error answered as the hardware would (a fault, all-ones, a dropped write):
 * counted, and the first few of each vCPU logged with what happened. */
void vcpu_bad_access(struct vcpu *v, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Stops the whole VM (any vCPU may call this); its vCPUs leave the guest at their next exit.
 * True for the one call that stopped it, false when it was already stopping. */
bool vm_request_stop(struct vm *vm, enum vm_stop_reason why);
bool vm_stopping(const struct vm *vm);
const char *vm_stop_reason_name(enum vm_stop_reason r);
/* Called by each vCPU's pCPU when it drops a stopped vCPU; the last one reports the VM. */
void vm_vcpu_stopped(struct vcpu *v);

#endif
