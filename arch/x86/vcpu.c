/* SPDX-License-Identifier: GPL-2.0-only */
/* A vCPU on a pCPU, whichever the vendor: the run loop and the handlers of the exits that
 * are not the vendor's own (vendor.h decodes them), and the host state the vCPU puts in
 * place while it holds the pCPU (load) and takes back when it leaves (put). */
#include "arch/cpu.h"
#include "arch/x86/decode.h"
#include "arch/x86/guest.h"
#include "arch/x86/irq/pv_eoi.h"
#include "arch/x86/irq/inject.h"
#include "arch/x86/pcpu.h"
#include "arch/x86/speculation.h"
#include "arch/x86/split_access.h"
#include "arch/x86/vendor.h"
#include "arch/x86/xstate.h"
#include "hv/arch.h"
#include "hv/printk.h"
#include "hv/lib.h"
#include "hv/mem.h"
#include "hv/sched.h"

#define VEC_UD 6
#define VEC_GP 13
#define VEC_PF 14

static void inject_ud(struct vcpu *v) { x86_vendor->inject_exception(v, VEC_UD, false, 0); }
static void inject_gp(struct vcpu *v) { x86_vendor->inject_exception(v, VEC_GP, true, 0); }
static unsigned long long rip(struct vcpu *v) { return x86_get(v, X86_RIP); }

/* A CPU that completes an instruction begun with RFLAGS.TF set raises the single-step trap
 * after it: a #DB with DR6.BS (SDM vol. 3B, 18.3.1.4; APM vol. 2, 13.1), whether an
 * STI shadow covered the instruction or a MOV SS shadow held back the trap of the one
 * before it (it comes after this one, one #DB for both); so after one done here, as KVM's
 * kvm_skip_emulated_instruction does. None of them changes TF: its value after is the one
 * it began with. */
void x86_skip(struct vcpu *v, const struct x86_exit *e, u8 len)
{
	x86_vendor->skip(v, e, len);
	if (x86_get(v, X86_RFLAGS) & X86_RFLAGS_TF)
		x86_vendor->inject_db(v, X86_DR6_BS);
}

static void handle_cpuid(struct vcpu *v, const struct x86_exit *e)
{
	u32 r[4];
	x86_cpuid(v, (u32)v->arch.gpr[GPR_RAX], (u32)v->arch.gpr[GPR_RCX], r);
	v->arch.gpr[GPR_RAX] = r[0];
	v->arch.gpr[GPR_RBX] = r[1];
	v->arch.gpr[GPR_RCX] = r[2];
	v->arch.gpr[GPR_RDX] = r[3];
	x86_skip(v, e, 2);
}

/* XSETBV (APM vol. 3): #UD without CR4.OSXSAVE, #GP outside ring 0 or for an XCR0 the
 * guest may not have. */
static void handle_xsetbv(struct vcpu *v, const struct x86_exit *e)
{
	u64 val = (v->arch.gpr[GPR_RAX] & 0xFFFFFFFF) | (v->arch.gpr[GPR_RDX] << 32);
	u32 index = (u32)v->arch.gpr[GPR_RCX];
	if (!(x86_get(v, X86_CR4) & X86_CR4_OSXSAVE))
		return inject_ud(v);
	if (x86_get(v, X86_CPL) || xstate_xsetbv(v, index, val)) {
		vcpu_bad_access(v, "xsetbv %x <- %llx: #GP at rip %llx", index,
				(unsigned long long)val, rip(v));
		return inject_gp(v);
	}
	x86_skip(v, e, 3);
}

static void handle_msr(struct vcpu *v, const struct x86_exit *e)
{
	u32 msr = (u32)v->arch.gpr[GPR_RCX];
	if (e->write) {
		u64 val = (v->arch.gpr[GPR_RAX] & 0xFFFFFFFF) | (v->arch.gpr[GPR_RDX] << 32);
		if (x86_wrmsr(v, msr, val)) {
			vcpu_bad_access(v, "wrmsr %x <- %llx: #GP at rip %llx", msr,
					(unsigned long long)val, rip(v));
			return inject_gp(v);
		}
	} else {
		u64 val;
		if (x86_rdmsr(v, msr, &val)) {
			vcpu_bad_access(v, "rdmsr %x: #GP at rip %llx", msr, rip(v));
			return inject_gp(v);
		}
		v->arch.gpr[GPR_RAX] = (u32)val;
		v->arch.gpr[GPR_RDX] = val >> 32;
	}
	x86_skip(v, e, 2);
}

static void handle_io(struct vcpu *v, const struct x86_exit *e)
{
	if (e->string) { /* INS/OUTS: no guest of ours uses string port I/O */
		vcpu_bad_access(v, "string port I/O at port %x (unsupported): #GP at rip %llx",
				e->port, rip(v));
		return inject_gp(v);
	}
	u64 *rax = &v->arch.gpr[GPR_RAX], val = *rax;
	u64 mask = e->size == 4 ? 0xFFFFFFFFull : (1ull << (e->size * 8)) - 1;
	if (!e->write) {
		iobus_access(&v->vm->bus, IO_PORT, e->port, e->size, false, &val);
		/* A 32-bit IN writes EAX, which zero-extends into RAX. */
		*rax = e->size == 4 ? (u32)val : (*rax & ~mask) | (val & mask);
	} else {
		val &= mask;
		iobus_access(&v->vm->bus, IO_PORT, e->port, e->size, true, &val);
	}
	x86_skip(v, e, 0); /* both vendors give the length of an I/O instruction */
}

static bool cannot_emulate(struct vcpu *v, u64 gpa, const u8 *bytes)
{
	printk("hv: VM '%s' vcpu%u: cannot emulate access to %llx at rip %llx (%02x %02x %02x "
	       "%02x); stopping the VM\n",
	       v->vm->name, v->id, (unsigned long long)gpa, rip(v), bytes[0], bytes[1], bytes[2],
	       bytes[3]);
	vm_request_stop(v->vm, VM_FATAL);
	return false;
}

/* A #PF for the access at la that the guest's page tables no longer map: its error code
 * (SDM vol. 3A, 4.7) has P and RSVD for a reserved bit, W/R and U/S. */
static void inject_pf(struct vcpu *v, u64 la, int walk, bool write)
{
	u32 err = (walk == WALK_RESERVED ? BIT(0) | BIT(3) : 0) | (write ? BIT(1) : 0) |
		  (x86_get(v, X86_CPL) == 3 ? BIT(2) : 0);
	x86_vendor->inject_page_fault(v, la, err);
}

/* An access in one page: the vCPU's own xAPIC window (vlapic.h), else the VM's devices. */
static void mmio_access(struct vcpu *v, u64 gpa, u32 size, bool store, u64 *val)
{
	struct vlapic *l = &v->arch.lapic;
	u32 off = gpa & (PAGE_SIZE - 1);
	if (!vlapic_mmio_claims(l, gpa)) {
		iobus_access(&v->vm->bus, IO_MMIO, gpa, size, store, val);
	} else if (!store) {
		*val = vlapic_mmio_read(l, off, size, rdtsc());
	} else {
		vlapic_mmio_write(l, off, size, *val, rdtsc());
		if ((off & ~0xfu) == APIC_REG_TIMER_ICR)
			vcpu_kick(v); /* the pCPU re-arms its host timer for the new count */
	}
}

/*
 * One load or store of the instruction's operand (size bytes): in one page at the
 * faulting gpa; across two pages (n parts, split_access.h) each part where the guest's
 * page tables put it, RAM from RAM, MMIO on the bus. Returns WALK_OK or the error of the
 * walk of the part at *fault_la.
 */
static int operand_access(struct vcpu *v, u64 gpa, const struct x86_access_part *part,
			  unsigned int n, unsigned int size, bool store, u64 *val, u64 *fault_la)
{
	if (n == 1) {
		mmio_access(v, gpa, size, store, val);
		return WALK_OK;
	}
	struct x86_paging pg = x86_guest_paging(v);
	return x86_access_parts(v->vm, &pg, x86_read_guest, part, n, store, val, fault_la);
}

/*
 * An MMIO access, decoded here (no decode assists): a load, a store, or a read-modify-write
 * (read, compute, write back; as KVM's emulator, not atomic against other vCPUs even with
 * LOCK: each access is the device's own). Where no device is, the bus reads all-ones and
 * drops the write.
 */
static bool handle_mmio(struct vcpu *v, const struct x86_exit *e)
{
	u8 bytes[X86_MAX_INSN_LEN] = { 0 };
	size_t n = x86_fetch_insn(v, bytes, sizeof bytes);
	int mode = x86_guest_mode(v);
	struct x86_mmio_insn insn;
	/* The access is the CPU's read of the IDT or GDT or its push to the stack while it
	 * delivered an event, no instruction's; KVM stops such a guest too
	 * (KVM_INTERNAL_ERROR_DELIVERY_EV). */
	if (e->delivering) {
		printk("hv: VM '%s' vcpu%u: delivering event %llx touched %llx, where there is no "
		       "RAM (an IDT, GDT or stack on a device?); stopping the VM\n",
		       v->vm->name, v->id, (unsigned long long)e->event,
		       (unsigned long long)e->gpa);
		vm_request_stop(v->vm, VM_FATAL);
		return false;
	}
	if (gpa_to_hva(v->vm, e->gpa, 1) || x86_decode_mmio(bytes, n, mode, &insn))
		return cannot_emulate(v, e->gpa, bytes);
	bool store = insn.op == X86_MMIO_STORE, write = x86_mmio_writes(&insn);
	u64 val = store ? x86_mmio_store_value(&insn, v->arch.gpr) : 0, fault_la = 0;
	u64 la = x86_mmio_linear_address(&insn, mode, v->arch.gpr, rip(v),
					 x86_vendor->segment(v, insn.mem.seg).base);
	struct x86_access_part part[2];
	unsigned int parts = x86_split_at_page(la, insn.size, mode, part);
	int rc = operand_access(v, e->gpa, part, parts, insn.size, store, &val, &fault_la);
	if (rc == WALK_OK && insn.op == X86_MMIO_RMW) {
		u64 rflags = x86_get(v, X86_RFLAGS), old = val;
		val = x86_mmio_rmw(&insn, v->arch.gpr, &rflags, old);
		if (write)
			rc = operand_access(v, e->gpa, part, parts, insn.size, true, &val,
					    &fault_la);
		if (rc == WALK_OK)
			x86_vendor->set_rflags(v, rflags);
		val = old; /* what XCHG's register gets */
	}
	if (rc == WALK_BAD_GPA)
		return cannot_emulate(v, e->gpa, bytes);
	if (rc != WALK_OK) {
		/* an RMW's read faults as a write (W/R set) */
		inject_pf(v, fault_la, rc, write);
		return true;
	}
	if (insn.dst_size)
		x86_mmio_load_complete(&insn, v->arch.gpr, val);
	x86_skip(v, &(struct x86_exit){ 0 }, insn.len);
	return true;
}

/* Exits whose handling touches only the vCPU's own registers: after them no L1D flush is
 * needed before the next entry (speculation.c, L1TF), as after KVM's fast exits. */
static bool fast_exit(enum x86_exit_reason r)
{
	return r == X86_EXIT_CPUID || r == X86_EXIT_XSETBV || r == X86_EXIT_IRQ_WINDOW ||
	       r == X86_EXIT_CACHE_FLUSH || r == X86_EXIT_ICEBP;
}

enum run_result arch_vcpu_run(struct vcpu *v)
{
	const u64 host_spec_ctrl = x86_speculation.host_spec_ctrl;
	bool fast = false; /* only a fast exit handled since the last entry */
	for (;;) {
		if (!sched_enter_guest(v))
			return RUN_PREEMPTED;
		/* A turn that runs on for a section with interrupts masked ends with it. */
		x86_inject_events(v, sched_watch_section_end(v));
		steal_time_enter(v);
		pv_eoi_enter(v);
		if (!fast)
			x86_speculation_before_entry();
		if (v->arch.spec_ctrl != host_spec_ctrl)
			wrmsr(MSR_IA32_SPEC_CTRL, v->arch.spec_ctrl);
		x86_vendor->enter(v);
		if (v->arch.spec_ctrl != host_spec_ctrl)
			wrmsr(MSR_IA32_SPEC_CTRL, host_spec_ctrl);
		sched_left_guest(v);
		pv_eoi_exit(v);
		struct x86_exit e;
		x86_vendor->decode(v, &e);
		v->stats.exits[e.kind]++;
		fast = fast_exit(e.reason);
		switch (e.reason) {
		case X86_EXIT_HANDLED:
			break;
		case X86_EXIT_HOST:
		case X86_EXIT_STOP:
			return RUN_PREEMPTED;
		case X86_EXIT_IRQ_WINDOW:
			/* the next entry injects what waits */
			if (sched_watch_section_end(v))
				return RUN_PREEMPTED; /* the section is over */
			break;
		case X86_EXIT_CPUID:
			handle_cpuid(v, &e);
			break;
		case X86_EXIT_MSR:
			handle_msr(v, &e);
			break;
		case X86_EXIT_XSETBV:
			handle_xsetbv(v, &e);
			break;
		case X86_EXIT_IO:
			handle_io(v, &e);
			if (vm_stopping(v->vm))
				return RUN_PREEMPTED;
			break;
		case X86_EXIT_MMIO:
			if (!handle_mmio(v, &e))
				return RUN_PREEMPTED;
			break;
		case X86_EXIT_HLT:
			/* A single-step trap waits in the halted vCPU until it wakes, then goes
			 * before the interrupt that woke it, as a CPU holds it pending in the
			 * HLT state (SDM vol. 3C, 26.3.1.5: a VMCS in that state with TF set
			 * must have BS pending). */
			x86_skip(v, &e, 1);
			if (__atomic_exchange_n(&v->arch.pv_unhalt, false, __ATOMIC_ACQ_REL)) {
				v->arch.pv_unhalts++;
				break; /* kicked (PV unhalt) before it halted: it ends at once */
			}
			return RUN_HALTED;
		case X86_EXIT_HYPERCALL:
			x86_hypercall(v);
			x86_skip(v, &e, 3);
			break;
		case X86_EXIT_TRIPLE_FAULT:
			vm_request_stop(v->vm, VM_TRIPLE_FAULT);
			return RUN_PREEMPTED;
		case X86_EXIT_CACHE_FLUSH:
			/* No cache the guest could see is incoherent (no device DMA): as KVM
			 * does without assigned devices, nothing to do. */
			x86_skip(v, &e, 2);
			break;
		case X86_EXIT_ICEBP:
			/* INT1 (F1): on a CPU a trap-like #DB after it, with no gate DPL check
			 * (a hardware exception, not INT n), and no BS in DR6. Its delivery
			 * clears TF: no single-step trap with it (kvm-unit-tests' debug,
			 * "Single-Step + ICEBP"). */
			x86_vendor->skip(v, &e, 1);
			x86_vendor->inject_db(v, 0);
			break;
		case X86_EXIT_PAUSE:
			/* It runs unwatched at the next entry (in the quiet time sched_spin_exit
			 * starts), so RIP stays. */
			sched_spin_exit(v);
			break;
		case X86_EXIT_UNSUPPORTED:
			/* SVM instructions, MONITOR/MWAIT, task switches: not offered (CPUID
			 * hides them), so #UD as on a CPU without them. */
			vcpu_bad_access(
				v,
				"unsupported instruction (exit %llx, info1 %llx): #UD at rip %llx",
				(unsigned long long)e.code, (unsigned long long)e.info, rip(v));
			inject_ud(v);
			break;
		}
	}
}

void arch_vcpu_load(struct vcpu *v)
{
	struct arch_pcpu *p = &pcpus[v->pcpu].arch;
	/* No branch predictions trained by another VM steer this one (Spectre v2). */
	if (x86_msr_caps.ibpb && p->last_vm != v->vm)
		wrmsr(MSR_IA32_PRED_CMD, PRED_CMD_IBPB);
	p->last_vm = v->vm;
	xstate_load(v);
	if (x86_vendor->load)
		x86_vendor->load(v);
	if (x86_msr_caps.tsc_aux) /* what the guest's RDTSCP and RDPID read */
		wrmsr(MSR_TSC_AUX, v->arch.tsc_aux);
	__asm__ volatile("mov %0, %%db0\n\tmov %1, %%db1\n\tmov %2, %%db2\n\tmov %3, %%db3" ::"r"(
				 v->arch.dr[0]),
			 "r"(v->arch.dr[1]), "r"(v->arch.dr[2]), "r"(v->arch.dr[3]));
}

void arch_vcpu_put(struct vcpu *v)
{
	if (v->state == VCPU_RUNNABLE)
		steal_time_preempted(v);
	xstate_put(v);
	if (x86_vendor->put)
		x86_vendor->put(v);
	__asm__ volatile("mov %%db0, %0\n\tmov %%db1, %1\n\tmov %%db2, %2\n\tmov %%db3, %3"
			 : "=r"(v->arch.dr[0]), "=r"(v->arch.dr[1]), "=r"(v->arch.dr[2]),
			   "=r"(v->arch.dr[3]));
}
