/* SPDX-License-Identifier: GPL-2.0-only */
/* KVM hypercalls (Linux Documentation/virt/kvm/x86/hypercalls.rst) and this project's
 * own (guest_abi/hv_para.h). VMMCALL with the number in RAX and arguments in RBX, RCX,
 * RDX, RSI; the result goes to RAX. From CPL > 0 every hypercall fails with -KVM_EPERM,
 * an unknown number or a feature this VM does not have with -KVM_ENOSYS, as on KVM. */
#include "arch/x86/guest.h"
#include "arch/x86/irq/virq.h"
#include "arch/x86/irq/pv_ipi.h"
#include "arch/x86/vendor.h"
#include "guest_abi/hv_para.h"
#include "guest_abi/kvm_para.h"
#include "hv/lib.h"
#include "hv/pv_features.h"
#include "hv/sched.h"

static s64 send_ipi(struct vcpu *v, u64 a0, u64 a1, u64 a2, u64 a3, bool long_mode)
{
	struct pv_ipi_req req;
	int r = pv_ipi_decode_mode(a0, a1, a2, a3, long_mode, v->vm->nvcpus, &req);
	if (r < 0 || req.out_of_range)
		v->stats.bad_accesses++;
	if (r < 0)
		return r;
	/* One exit for any number of targets; each target is kicked only if it needs it. */
	u32 delivered = x86_deliver_to(v, req.targets, req.ntargets, req.mode, req.vector);
	v->stats.ipi_pv += delivered;
	return delivered;
}

static s64 sched_yield(struct vcpu *v, u64 dest)
{
	if (dest < v->vm->nvcpus)
		sched_yield_to(v, v->vm->vcpus[dest]);
	return 0; /* KVM also answers 0 whether or not it could yield */
}

static s64 kick_cpu(struct vcpu *v, u64 dest)
{
	if (dest >= v->vm->nvcpus) {
		v->stats.bad_accesses++;
		return 0;
	}
	struct vcpu *t = v->vm->vcpus[dest];
	__atomic_fetch_add(&t->arch.pv_kicks, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&t->arch.pv_unhalt, true, __ATOMIC_RELEASE);
	vcpu_kick(t);
	return 0;
}

static s64 get_stats(struct vcpu *v, u64 gpa, u64 len)
{
	s64 n = vm_copy_guest_stats(v, gpa, len);
	return n < 0 ? -KVM_EFAULT : n;
}

void x86_hypercall(struct vcpu *v)
{
	u64 *g = v->arch.gpr, nr = g[GPR_RAX];
	u64 a0 = g[GPR_RBX], a1 = g[GPR_RCX], a2 = g[GPR_RDX], a3 = g[GPR_RSI];
	u32 pv = v->vm->pv;
	s64 ret;
	/* Outside 64-bit mode the registers count as 32 bits (KVM: is_64_bit_hypercall). */
	bool long_mode = x86_guest_mode(v) == 64;
	if (!long_mode) {
		nr &= 0xFFFFFFFF;
		a0 &= 0xFFFFFFFF, a1 &= 0xFFFFFFFF;
	}
	if (x86_get(v, X86_CPL) != 0)
		ret = -KVM_EPERM;
	else if (nr == KVM_HC_SEND_IPI && (pv & BIT(PV_IPI)))
		ret = send_ipi(v, a0, a1, a2, a3, long_mode);
	else if (nr == KVM_HC_SCHED_YIELD && (pv & BIT(PV_YIELD)))
		ret = sched_yield(v, a0);
	else if (nr == KVM_HC_KICK_CPU && (pv & BIT(PV_UNHALT)))
		ret = kick_cpu(v, a1);
	else if (nr == HV_HC_GET_STATS)
		ret = get_stats(v, a0, a1);
	else
		ret = -KVM_ENOSYS;
	g[GPR_RAX] = (u64)ret;
}
