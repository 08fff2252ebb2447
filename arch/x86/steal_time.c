/* SPDX-License-Identifier: GPL-2.0-only */
/* Steal time (KVM_FEATURE_STEAL_TIME, Linux Documentation/virt/kvm/x86/msr.rst
 * MSR_KVM_STEAL_TIME): a 64-byte record per vCPU where the hypervisor publishes how long
 * the vCPU was runnable but not running, and whether it is preempted right now. The guest
 * may set KVM_VCPU_FLUSH_TLB in `preempted` instead of sending a TLB-shootdown IPI to a
 * preempted vCPU (PV TLB flush); the flush then happens at that vCPU's next entry. */
#include "arch/x86/guest.h"
#include "guest_abi/kvm_para.h"
#include "hv/pv_features.h"

struct kvm_steal_time {
	u64 steal;
	u32 version;
	u32 flags;
	u8 preempted;
	u8 u8_pad[3];
	u32 pad[11];
} PACKED;

static struct kvm_steal_time *record(struct vcpu *v)
{
	u64 msr = v->arch.steal_msr;
	if (!(msr & KVM_MSR_ENABLED))
		return NULL;
	return gpa_to_hva(v->vm, msr & ~63ull, sizeof(struct kvm_steal_time));
}

int steal_time_wrmsr(struct vcpu *v, u64 val)
{
	if (val & 0x3E) /* reserved bits 5:1 (the record is 64-byte aligned) */
		return -1;
	v->arch.steal_msr = val;
	v->arch.steal_published = ~0ull; /* publish into the new record at the next entry */
	v->arch.steal_preempted = false;
	return 0;
}

/* Before a guest entry: publish the steal time if it grew, and after a preemption clear
 * `preempted` and honour a TLB flush the guest asked for meanwhile (the guest sets
 * KVM_VCPU_FLUSH_TLB only on a vCPU it sees preempted). Nothing to do otherwise, so
 * the common entry costs two compares. */
void steal_time_enter(struct vcpu *v)
{
	if (!v->arch.steal_preempted && v->arch.steal_published == v->stats.steal_ns)
		return;
	struct kvm_steal_time *st = record(v);
	if (!st)
		return;
	if (v->arch.steal_preempted) {
		v->arch.steal_preempted = false;
		u8 flags = __atomic_exchange_n(&st->preempted, 0, __ATOMIC_ACQ_REL);
		if ((flags & KVM_VCPU_FLUSH_TLB) && (v->vm->pv & BIT(PV_TLB_FLUSH)))
			v->arch.flush_tlb = true;
	}
	if (v->arch.steal_published == v->stats.steal_ns)
		return;
	v->arch.steal_published = v->stats.steal_ns;
	volatile struct kvm_steal_time *vst = st;
	u32 odd = vst->version | 1; /* odd while updating, then the next even number */
	vst->version = odd;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	vst->steal = v->stats.steal_ns;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	vst->version = odd + 1;
}

/* The vCPU leaves its pCPU while still runnable: tell the guest it is preempted. */
void steal_time_preempted(struct vcpu *v)
{
	struct kvm_steal_time *st = record(v);
	if (st) {
		__atomic_fetch_or(&st->preempted, KVM_VCPU_PREEMPTED, __ATOMIC_RELEASE);
		v->arch.steal_preempted = true;
	}
}
