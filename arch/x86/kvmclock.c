/* SPDX-License-Identifier: GPL-2.0-only */
/* kvmclock (KVM_FEATURE_CLOCKSOURCE2): per-vCPU pvclock records and the wall clock at
 * guest-physical addresses the guest names through MSRs (Linux
 * Documentation/virt/kvm/x86/msr.rst). All pCPUs share one TSC that this hypervisor never
 * scales, and a vCPU's offset changes only when the guest writes its TSC (msr.c), so one
 * record per vCPU, written when enabled and at such a write, stays valid; the stable bit
 * is set when the CPU says its TSC is invariant. */
#include "arch/cpu.h"
#include "arch/x86/guest.h"
#include "guest_abi/kvm_para.h"
#include "hv/arch.h"
#include "hv/pvclock.h"

bool kvmclock_tsc_stable(void)
{
	u32 a, b, c, d;
	cpuid(0x80000000, 0, &a, &b, &c, &d);
	if (a < 0x80000007)
		return false;
	cpuid(0x80000007, 0, &a, &b, &c, &d);
	return d & BIT(8);
}

/* Guest memory for a record, or NULL when it is outside RAM or crosses a page. */
static void *record(struct vm *vm, u64 gpa, u64 size)
{
	if ((gpa & (PAGE_SIZE - 1)) + size > PAGE_SIZE)
		return NULL;
	return gpa_to_hva(vm, gpa, size);
}

int kvmclock_wrmsr(struct vcpu *v, u32 msr, u64 val)
{
	struct vm *vm = v->vm;
	u32 mul;
	s8 shift;
	pvclock_scale(arch_time_hz, &mul, &shift);
	if (msr == MSR_KVM_WALL_CLOCK_NEW) {
		struct pvclock_wall_clock *wc = record(vm, val, sizeof(*wc));
		if (!wc)
			return -1;
		/* The wall-clock time at which the guest's kvmclock read zero. */
		pvclock_publish_wall(wc, wallclock_ns(vm->arch.boot_tsc));
		return 0;
	}
	v->arch.kvmclock_msr = val;
	if (!(val & 1))
		return 0;
	struct pvclock_vcpu_time_info *ti = record(vm, val & ~1ull, sizeof(*ti));
	if (!ti)
		return -1;
	u64 now = rdtsc();
	pvclock_publish(ti, x86_guest_tsc(v, now),
			pvclock_scale_delta(now - vm->arch.boot_tsc, mul, shift), mul, shift,
			kvmclock_tsc_stable() ? PVCLOCK_TSC_STABLE_BIT : 0);
	return 0;
}
