/* SPDX-License-Identifier: GPL-2.0-only */
/* AMD AVIC with x2AVIC: see avic.h. */
#include "arch/x86/svm/avic.h"
#include "arch/cpu.h"
#include "arch/x86/guest.h"
#include "arch/x86/irq/virq.h"
#include "arch/x86/svm/vmcb.h"
#include "hv/printk.h"
#include "hv/lib.h"
#include "hv/mem.h"
#include "hv/sched.h"

static bool has_avic, has_x2avic;

void avic_probe(u32 edx)
{
	has_avic = edx & BIT(13);
	has_x2avic = has_avic && (edx & BIT(18));
}

bool avic_available(void) { return has_x2avic; }

bool avic_vm_init(struct vm *vm)
{
	const char *why = vm->apicv_off ? "apicv = off"
			  : !has_avic	? "the CPU has no AVIC"
			  : !has_x2avic
				  ? "the CPU has AVIC but not x2AVIC, and the guest's APIC is "
				    "in x2APIC mode"
				  : NULL;
	for (u32 p = 0; !why && p < npcpus; p++)
		if (pcpus[p].arch.apic_id > AVIC_ENTRY_HOST_ID)
			why = "a pCPU's APIC ID does not fit AVIC's table";
	if (why) {
		printk("hv: VM '%s': APIC emulated, interrupts injected (%s)\n", vm->name, why);
		return false;
	}
	vm->arch.svm.avic_physical = alloc_pages(1);
	/* Logical destinations go through the physical table in x2APIC mode (the logical
	 * ID follows from the x2APIC ID); the CPU still wants a table. */
	vm->arch.svm.avic_logical = alloc_pages(1);
	printk("hv: VM '%s': AVIC (x2AVIC): the CPU delivers interrupts, completes EOIs and "
	       "sends fixed IPIs\n",
	       vm->name);
	return true;
}

/* What the vLAPIC keeps in the page as a read returns it, and KVM leaves to x2AVIC (tested
 * on the CPUs it runs on: arch/x86/kvm/svm/avic.c, avic_set_x2apic_msr_interception): the
 * first word of ISR, TMR and IRR only, no LVT timer. Not PPR, which AVIC is not known to
 * keep in the page (the vLAPIC computes it). Reads of the rest exit as MSR intercepts. */
bool avic_msr_read_passthrough(u32 msr)
{
	u32 reg = (msr - MSR_X2APIC_FIRST) << 4;
	bool first_word = reg == APIC_REG_ISR || reg == APIC_REG_TMR || reg == APIC_REG_IRR;
	bool vectors = reg >= APIC_REG_ISR && reg < APIC_REG_IRR + 0x80;
	return vlapic_page_read(msr) && (first_word || !vectors) && reg != APIC_REG_LVT_TIMER;
}

bool avic_msr_write_passthrough(u32 msr)
{
	return msr == MSR_X2APIC_FIRST + (APIC_REG_TPR >> 4) ||
	       msr == MSR_X2APIC_FIRST + (APIC_REG_EOI >> 4) ||
	       msr == MSR_X2APIC_FIRST + (APIC_REG_ICR_LO >> 4);
}

static u64 *entry_of(struct vcpu *v) { return &v->vm->arch.svm.avic_physical[v->id]; }

bool avic_vcpu_init(struct vcpu *v)
{
	struct vm *vm = v->vm;
	u8 *vmcb = v->arch.svm.vmcb;
	if (v->id > AVIC_MAX_ID || vm->nvcpus - 1 > AVIC_MAX_ID) {
		printk("hv: VM '%s' vcpu%u: APIC emulated (x2APIC IDs above %u do not fit "
		       "AVIC's table)\n",
		       vm->name, v->id, AVIC_MAX_ID);
		return false;
	}
	/* Every vCPU has a valid entry from the start: the CPU skips invalid ones of a
	 * broadcast without an exit (KVM's avic_init_backing_page says so). */
	__atomic_store_n(entry_of(v), (u64)(uintptr_t)v->arch.lapic.regs | AVIC_ENTRY_VALID,
			 __ATOMIC_SEQ_CST);
	V64(vmcb, VMCB_AVIC_APIC_BAR) = APIC_DEFAULT_BASE;
	V64(vmcb, VMCB_AVIC_BACKING) = (u64)(uintptr_t)v->arch.lapic.regs;
	V64(vmcb, VMCB_AVIC_LOGICAL) = (u64)(uintptr_t)vm->arch.svm.avic_logical;
	V64(vmcb, VMCB_AVIC_PHYSICAL) = (u64)(uintptr_t)vm->arch.svm.avic_physical |
					(vm->nvcpus - 1);
	/* VINTR_AVIC and VINTR_X2AVIC per entry (svm.c, choose_avic). The CPU delivers: PV
	 * EOI is not armed, even for entries without AVIC. */
	v->arch.lapic.cpu_delivers = true;
	return true;
}

void avic_enter(struct vcpu *v)
{
	u64 e = __atomic_load_n(entry_of(v), __ATOMIC_RELAXED) & ~AVIC_ENTRY_HOST_ID;
	__atomic_store_n(entry_of(v), e | pcpus[v->pcpu].arch.apic_id | AVIC_ENTRY_RUNNING,
			 __ATOMIC_SEQ_CST);
	vlapic_run_begin(&v->arch.lapic, &v->arch.svm.avic_run);
}

void avic_exit(struct vcpu *v)
{
	/* Not running, before anything looks at the IRR (a HLT's last look): a sender's CPU
	 * that sets an IRR bit after this store sees IsRunning clear and exits, and one
	 * that saw it set had set its bit before (its locked write), which the look sees. */
	__atomic_fetch_and(entry_of(v), ~AVIC_ENTRY_RUNNING, __ATOMIC_SEQ_CST);
	u64 delivered, eois;
	vlapic_run_count(&v->arch.lapic, &v->arch.svm.avic_run, &delivered, &eois);
	v->stats.irqs_cpu_delivered += delivered;
	v->stats.virtual_eois += eois;
}

bool avic_notify(struct vcpu *v, u32 pcpu)
{
	/* Only while it runs with AVIC (IsRunning, set right before VMRUN): an entry without
	 * it takes nothing from a doorbell, and must be kicked. A doorbell that comes after
	 * its exit costs nothing: its next VMRUN looks at the IRR anyway. */
	(void)pcpu;
	if (!v->arch.svm.avic)
		return false;
	u64 e = __atomic_load_n(entry_of(v), __ATOMIC_SEQ_CST);
	if (!(e & AVIC_ENTRY_RUNNING))
		return false;
	wrmsr(MSR_AVIC_DOORBELL, e & AVIC_ENTRY_HOST_ID);
	return true;
}

void avic_incomplete_ipi(struct vcpu *v, u64 info1, u64 info2)
{
	/* A trap: the ICR holds the value written (EXITINFO1), RIP is past the WRMSR. The CPU
	 * may leave the delivery-status bit (12) set there (KVM's avic.c works around it):
	 * it is not the guest's, and the vLAPIC refuses it as reserved. */
	info1 &= ~(u64)BIT(12);
	VLAPIC_REG(&v->arch.lapic, APIC_REG_ICR_LO) &= ~BIT(12);
	struct vlapic_ipi ipi = vlapic_icr_decode(info1);
	switch ((enum avic_ipi_failure)(info2 >> 32)) {
	case AVIC_IPI_NOT_RUNNING:
		/* The CPU has set every target's IRR bit and rung the doorbell of those it
		 * found running: the others are told, as if a sender here had set them. */
		v->stats.ipi_not_running++;
		for (u32 i = 0; i < v->vm->nvcpus; i++) {
			struct vcpu *t = v->vm->vcpus[i];
			if (t != v && /* it takes its own at its next entry */
			    x86_ipi_target(t, v, ipi.shorthand, ipi.dest, ipi.logical) &&
			    !(__atomic_load_n(entry_of(t), __ATOMIC_SEQ_CST) & AVIC_ENTRY_RUNNING))
				vcpu_notify(t);
		}
		return;
	case AVIC_IPI_INVALID_TYPE:
	case AVIC_IPI_INVALID_TARGET: /* the valid targets get their IRR bit once more */
	case AVIC_IPI_INVALID_VECTOR: /* the vLAPIC sets the ESR's send-illegal-vector bit */
		if (x86_wrmsr(v, MSR_X2APIC_FIRST + (APIC_REG_ICR_LO >> 4), info1))
			vcpu_bad_access(v, "AVIC passed an ICR write the vLAPIC refuses (%llx)",
					(unsigned long long)info1);
		return;
	case AVIC_IPI_INVALID_BACKING_PAGE:
		break;
	}
	printk("hv: VM '%s' vcpu%u: AVIC refused an IPI (ICR %llx, EXITINFO2 %llx): a table "
	       "entry of the hypervisor is wrong; stopping the VM\n",
	       v->vm->name, v->id, (unsigned long long)info1, (unsigned long long)info2);
	vm_request_stop(v->vm, VM_FATAL);
}

/* Registers whose AVIC_NOACCEL exit comes after the write (a trap), the rest before the
 * access (a fault): KVM's list, arch/x86/kvm/svm/avic.c, from the APM's table 15-22. */
static bool is_trap(u32 off)
{
	switch (off) {
	case APIC_REG_ID:
	case APIC_REG_EOI:
	case 0xC0: /* remote read */
	case APIC_REG_LDR:
	case 0xE0: /* DFR */
	case APIC_REG_SVR:
	case APIC_REG_ESR:
	case APIC_REG_ICR_LO:
	case APIC_REG_TIMER_ICR:
	case APIC_REG_TIMER_DCR:
		return true;
	}
	return off >= APIC_REG_LVT_TIMER && off <= APIC_REG_LVT_ERROR;
}

bool avic_unaccelerated(struct vcpu *v, u64 info1, bool *write)
{
	u32 off = (u32)(info1 & AVIC_NOACCEL_OFFSET);
	*write = info1 & AVIC_NOACCEL_WRITE;
	if (!*write || !is_trap(off))
		return true; /* a fault: the RDMSR or WRMSR is emulated as intercepted */
	/* The value is in the page, RIP past the WRMSR: what is left is the write's effect
	 * (the EOI of a level-triggered vector, for the IOAPIC). */
	struct vlapic *l = &v->arch.lapic;
	u64 val = VLAPIC_REG(l, off);
	if (off == APIC_REG_ICR_LO)
		val |= (u64)VLAPIC_REG(l, APIC_REG_ICR_HI) << 32;
	if (x86_wrmsr(v, MSR_X2APIC_FIRST + (off >> 4), val))
		vcpu_bad_access(v, "x2APIC write %llx to offset %x: refused after AVIC took it",
				(unsigned long long)val, off);
	return false;
}
