/* SPDX-License-Identifier: GPL-2.0-only */
/* The x86 guest platform: what the exit handlers call into. */
#ifndef ARCH_X86_GUEST_H
#define ARCH_X86_GUEST_H

#include "arch/x86/guest_layout.h"
#include "arch/x86/guest_walk.h"
#include "hv/vm.h"

/* Where the VM's RAM below 4 GiB ends. */
static inline u64 x86_low_ram_end(const struct vm *vm)
{
	return MIN(vm->ram_size, GPA_LOW_RAM_END);
}

/* The vCPU's TSC when the host's reads host: the CPU adds the vCPU's offset (msr.c's
 * write_tsc) to what RDTSC reads in the guest. */
static inline u64 x86_guest_tsc(const struct vcpu *v, u64 host)
{
	return host + v->arch.lapic.tsc_offset;
}

#define PORT_COM1 0x3F8
#define PORT_PM_BASE 0x600 /* PM1a event (0x600), control (0x604), timer (0x608) */
#define PORT_RESET 0xCF9
#define IRQ_COM1 4

/* CPUID as the guest sees it (cpuid.c). */
void x86_cpuid(struct vcpu *v, u32 leaf, u32 sub, u32 r[4]);
/* What of the guest-visible MSRs depends on the CPU (msr.c, from CPUID at boot). */
struct x86_msr_caps {
	u64 spec_ctrl_bits; /* IA32_SPEC_CTRL bits a guest may set; 0: no such MSR */
	bool ibpb;	    /* IA32_PRED_CMD.IBPB */
	bool tsc_aux;	    /* IA32_TSC_AUX (RDTSCP, RDPID) */
};
extern struct x86_msr_caps x86_msr_caps;
void x86_msr_probe(void);
#define MSR_IA32_SPEC_CTRL 0x48
#define MSR_IA32_PRED_CMD 0x49
#define PRED_CMD_IBPB BIT(0)
#define MSR_TSC_AUX 0xC0000103
/* The MSRs a guest reads and writes without exits, on either vendor: their state is
 * switched with the guest's (SVM: the VMCB and VMLOAD; VMX: the VMCS's guest state, its
 * PAT and EFER controls, and the vCPU's load and put for the SYSCALL MSRs and
 * KERNEL_GS_BASE). */
static const u32 x86_msr_passthrough[] = {
	0x174,	    /* SYSENTER_CS */
	0x175,	    /* SYSENTER_ESP */
	0x176,	    /* SYSENTER_EIP */
	0x277,	    /* PAT */
	0xC0000080, /* EFER */
	0xC0000081, /* STAR */
	0xC0000082, /* LSTAR */
	0xC0000083, /* CSTAR */
	0xC0000084, /* SFMASK */
	0xC0000100, /* FS base */
	0xC0000101, /* GS base */
	0xC0000102, /* KERNEL_GS base */
};
/* Guest MSR accesses (msr.c): 0, or -1 to inject #GP. */
int x86_rdmsr(struct vcpu *v, u32 msr, u64 *val);
void x86_msr_vcpu_init(struct vcpu *v); /* the values at power-up */
int x86_wrmsr(struct vcpu *v, u32 msr, u64 val);
/* kvmclock MSRs (kvmclock.c): 0, or -1 when the address is unusable (ignored, counted). */
int kvmclock_wrmsr(struct vcpu *v, u32 msr, u64 val);
bool kvmclock_tsc_stable(void);
/* Steal time (steal_time.c): its MSR write returns -1 for #GP. */
int steal_time_wrmsr(struct vcpu *v, u64 val);
void steal_time_enter(struct vcpu *v);
void steal_time_preempted(struct vcpu *v);
/* The guest's preempt count (critical_section.c): -1 for #GP. */
int preempt_count_wrmsr(struct vcpu *v, u64 val);
/* VMMCALL (hypercall.c): RAX, RBX, RCX, RDX, RSI in, RAX out. */
void x86_hypercall(struct vcpu *v);
/* Loads the kernel (a multiboot kernel, a PVH vmlinux or a bzImage), its initrd or
 * modules, command line and ACPI tables (kernel_load.c); says in *boot how vCPU 0 starts. */
int x86_kernel_load(struct vm *vm, const struct vm_config *cfg, const struct guest_images *img,
		    struct x86_boot *boot);
/* Platform devices: UART, ACPI PM block, reset port (platform.c). */
void x86_platform_init(struct vm *vm);
/* The test exit port where the configuration asks for one (exit_port.c): 0, or -1 after
 * saying why (its ports are a device's). */
int x86_exit_port_init(struct vm *vm, const struct vm_config *cfg);

/* The guest's memory as its CPU sees it now (guest_memory.c). */
struct x86_paging x86_guest_paging(struct vcpu *v);
/* Reads guest-physical memory of vm (a gpa_read_fn of guest_walk.h). */
bool x86_read_guest(void *vm, u64 gpa, void *buf, size_t len);
/* What the guest's own page tables say about gva, in words for a report (a WALK_*
 * code): where the CPU found a mapping that this walk does not (or the reverse), the
 * paging state it used was not the guest's. */
int x86_guest_mapping(struct vcpu *v, u64 gva, char *buf, size_t n);
/* Reads up to `want` bytes of the instruction at the guest's CS:RIP; returns how many. */
size_t x86_fetch_insn(struct vcpu *v, u8 *buf, size_t want);
#define X86_CR4_OSXSAVE BIT(18)

#endif
