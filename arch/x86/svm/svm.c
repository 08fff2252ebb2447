/* SPDX-License-Identifier: GPL-2.0-only */
/* AMD SVM backend (vendor.h): VMCB setup, nested paging, the entry, the decoding of exits
 * and the handling of its own, event injection (AMD APM vol. 2, chapter 15). Written for
 * CPUs without NRIP save or decode assists too (QEMU TCG): then the next RIP is computed
 * by the handlers, and MMIO instructions are decoded in software (vcpu.c). */
#include "arch/x86/svm/vmcb.h"
#include "arch/x86/svm/avic.h"
#include "arch/x86/xstate.h"
#include "arch/cpu.h"
#include "arch/x86/cr4.h"
#include "arch/x86/decode.h"
#include "arch/x86/guest.h"
#include "arch/x86/guest_walk.h"
#include "arch/x86/nested_paging.h"
#include "arch/x86/pcpu.h"
#include "arch/x86/split_access.h"
#include "arch/x86/vendor.h"
#include "hv/arch.h"
#include "hv/printk.h"
#include "hv/lib.h"
#include "hv/mem.h"
#include "hv/sched.h"

#define VEC_DB 1  /* debug exception */
#define VEC_AC 17 /* alignment check */

static u8 *msrpm, *msrpm_avic, *iopm;
static u32 max_asid;
static bool has_nrips;

/* virt_probe.c found SVM on an AMD CPU, enabled by the firmware; what else this backend
 * needs. */
static int svm_check(const char **why)
{
	u32 a, b, c, d;
	cpuid(0x8000000A, 0, &a, &b, &c, &d);
	if (!(d & BIT(0))) {
		*why = "the CPU has no nested paging (CPUID 8000_000Ah EDX[0])";
		return -1;
	}
	max_asid = b;
	has_nrips = d & BIT(3);
	avic_probe(d);
	return 0;
}

static void svm_describe(char *buf, size_t n)
{
	u32 a, b, c, d;
	cpuid(0x8000000A, 0, &a, &b, &c, &d);
	snprintf(buf, n, "SVM rev %u, %u ASIDs; NPT%s%s%s%s%s", a & 0xFF, b,
		 d & BIT(3) ? " NRIP-save" : "", d & BIT(5) ? " VMCB-clean" : "",
		 d & BIT(7) ? " decode-assists" : "", d & BIT(13) ? " AVIC" : "",
		 d & BIT(18) ? " x2AVIC" : "");
}

/* This pCPU runs guests: EFER.SVME, and the page where VMRUN keeps the host's state
 * (APM 15.4, 15.30.4). */
static void svm_pcpu_enable(struct arch_pcpu *p)
{
	p->svm.hsave = alloc_pages(1);
	p->svm.host_save = alloc_pages(1);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SVME);
	wrmsr(MSR_VM_HSAVE_PA, (u64)(uintptr_t)p->svm.hsave);
}

extern char svm_guest_state_start[], svm_guest_state_end[];

/* From the VMLOAD of a guest's state to the VMLOAD of the host's (svm_run.asm), FS, GS,
 * TR... are the guest's. No interrupt comes there on a CPU: CLGI before and STGI after
 * hold them, and #VMEXIT clears GIF (APM vol. 2, 15.17). QEMU 7.2's TCG SVM delivered host
 * interrupts there all the same (a kick right after a #VMEXIT, the timer at VMRUN:
 * docs/testing.md); x86_trap then handles them with the host's GS base. */
static bool svm_guest_gs_at(u64 rip)
{
	return rip >= (u64)(uintptr_t)svm_guest_state_start &&
	       rip < (u64)(uintptr_t)svm_guest_state_end;
}

/* The MSR's reads and / or writes without an intercept (APM 15.11: two bits an MSR, read
 * then write). */
static void msrpm_passthrough(u8 *pm, u32 msr, bool read, bool write)
{
	u32 base;
	if (msr < 0x2000)
		base = 0;
	else if (msr >= 0xC0000000 && msr < 0xC0002000)
		base = 0x800 * 8, msr -= 0xC0000000;
	else
		return;
	u32 bit = base + msr * 2;
	pm[bit / 8] &= (u8) ~((read ? 1u : 0) << (bit % 8) | (write ? 2u : 0) << (bit % 8));
}

static int svm_vm_init(struct vm *vm)
{
	if (!msrpm) {
		msrpm = alloc_pages(2);
		iopm = alloc_pages(3);
		memset(msrpm, 0xFF, 2 * PAGE_SIZE);
		memset(iopm, 0xFF, 3 * PAGE_SIZE);
		/* State that VMRUN/VMLOAD/VMSAVE switch through the VMCB: no exit needed. */
		for (size_t i = 0; i < ARRAY_SIZE(x86_msr_passthrough); i++)
			msrpm_passthrough(msrpm, x86_msr_passthrough[i], true, true);
	}
	vm->arch.svm.asid = vm->id + 1;
	if (vm->arch.svm.asid >= max_asid) {
		printk("hv: VM '%s': no ASID left (the CPU has %u)\n", vm->name, max_asid);
		return -1;
	}
	vm->arch.svm.npt_root = nested_paging_map_ram(vm, NPT_BITS);
	if (avic_vm_init(vm) && !msrpm_avic) {
		msrpm_avic = alloc_pages(2);
		memcpy(msrpm_avic, msrpm, 2 * PAGE_SIZE);
		for (u32 msr = MSR_X2APIC_FIRST; msr <= MSR_X2APIC_LAST; msr++)
			msrpm_passthrough(msrpm_avic, msr, avic_msr_read_passthrough(msr),
					  avic_msr_write_passthrough(msr));
	}
	return 0;
}

static void set_seg(u8 *vmcb, u32 off, u16 sel, u16 attr, u32 limit, u64 base)
{
	V16(vmcb, off) = sel;
	V16(vmcb, off + 2) = attr;
	V32(vmcb, off + 4) = limit;
	V64(vmcb, off + 8) = base;
}

static void reset_common(u8 *vmcb)
{
	memset(vmcb + 0x400, 0, PAGE_SIZE - 0x400);
	set_seg(vmcb, VMCB_LDTR, 0, 0x82, 0xFFFF, 0);
	set_seg(vmcb, VMCB_TR, 0, 0x8B, 0xFFFF, 0);
	set_seg(vmcb, VMCB_GDTR, 0, 0, 0xFFFF, 0);
	set_seg(vmcb, VMCB_IDTR, 0, 0, 0xFFFF, 0);
	V64(vmcb, VMCB_EFER) = EFER_SVME; /* required by VMRUN; the guest never sees SVM in CPUID */
	V64(vmcb, VMCB_DR6) = 0xFFFF0FF0;
	V64(vmcb, VMCB_DR7) = 0x400;
	V64(vmcb, VMCB_RFLAGS) = 2;
	V64(vmcb, VMCB_GPAT) = 0x0007040600070406ull;
}

static void svm_vcpu_reset(struct vcpu *v, u16 cs_sel, u64 cs_base, u64 rip)
{
	u8 *vmcb = v->arch.svm.vmcb;
	reset_common(vmcb);
	set_seg(vmcb, VMCB_CS, cs_sel, 0x9B, 0xFFFF, cs_base);
	for (u32 s = VMCB_ES; s <= VMCB_GS; s += 0x10)
		if (s != VMCB_CS)
			set_seg(vmcb, s, 0, 0x93, 0xFFFF, 0);
	V64(vmcb, VMCB_CR0) = 0x10; /* ET; real mode */
	V64(vmcb, VMCB_RIP) = rip;
	memset(v->arch.gpr, 0, sizeof v->arch.gpr);
	v->arch.flush_tlb = true;
	V32(vmcb, VMCB_ICPT_MISC1) &= ~ICPT_IRET;
	v->arch.svm.nmi_masked = v->arch.svm.nmi_iret_seen = false; /* INIT unblocks NMIs */
	v->arch.svm.window_step = false;
	/* No event of the old life is delivered again (the injection policy reads these). */
	V64(vmcb, VMCB_EXITINTINFO) = 0;
	V64(vmcb, VMCB_EVENTINJ) = 0;
	xstate_vcpu_reset(v); /* INIT sets XCR0 to 1 (SDM vol. 3A, table 10-1) */
	v->arch.spec_ctrl = 0;
}

static int svm_vcpu_init(struct vcpu *v, const struct x86_boot *boot)
{
	struct vm *vm = v->vm;
	u8 *vmcb = alloc_pages(1);
	v->arch.svm.vmcb = vmcb;
	V32(vmcb, VMCB_ICPT_MISC1) = ICPT_INTR | ICPT_NMI | ICPT_SMI | ICPT_INIT | ICPT_CPUID |
				     ICPT_INVD | ICPT_HLT | ICPT_INVLPGA | ICPT_IOIO | ICPT_MSR |
				     ICPT_TASK_SWITCH | ICPT_SHUTDOWN;
	V32(vmcb, VMCB_ICPT_MISC2) = ICPT2_VMRUN | ICPT2_VMMCALL | ICPT2_VMLOAD | ICPT2_VMSAVE |
				     ICPT2_STGI | ICPT2_CLGI | ICPT2_SKINIT | ICPT2_ICEBP |
				     ICPT2_MONITOR | ICPT2_MWAIT | ICPT2_XSETBV | ICPT2_WBINVD;
	/* #DB and #AC: an exception raised while the CPU delivers the same one repeats
	 * inside the CPU without end (CVE-2015-8104, CVE-2015-5307), which hangs the pCPU
	 * and every VM on it. Intercepted, each one is an exit, and goes back to the guest
	 * (reflect_exception). */
	V32(vmcb, VMCB_ICPT_EXC) = BIT(VEC_DB) | BIT(VEC_AC);
	/* CR4 writes are checked against the guest's CPUID (cr4.c): the CPU would take a
	 * bit its hardware has but the guest was not offered (PKE with PKU hidden). */
	V32(vmcb, VMCB_ICPT_CR) = ICPT_CR4_WRITE;
	V64(vmcb, VMCB_IOPM) = (u64)(uintptr_t)iopm;
	V64(vmcb, VMCB_MSRPM) = (u64)(uintptr_t)msrpm;
	V32(vmcb, VMCB_ASID) = vm->arch.svm.asid;
	/* Host interrupts exit instead of entering the guest IDT (APM 15.21.1). */
	V64(vmcb, VMCB_VINTR) = VINTR_MASKING;
	V64(vmcb, VMCB_NP_ENABLE) = 1;
	V64(vmcb, VMCB_NCR3) = (u64)(uintptr_t)vm->arch.svm.npt_root;
	if (vm->arch.svm.avic_physical)
		v->arch.svm.avic = avic_vcpu_init(v); /* on from its first entry (choose_avic) */
	xstate_vcpu_init(v);
	v->arch.sipi_vector = -1;
	v->arch.flush_tlb = true;
	if (v->id == 0) {
		/* Flat 4 GiB segments: code 0x10, data 0x18, as both entries want them. */
		reset_common(vmcb);
		set_seg(vmcb, VMCB_CS, 0x10, boot->long_mode ? 0xA9B : 0xC9B, 0xFFFFFFFF, 0);
		for (u32 s = VMCB_ES; s <= VMCB_GS; s += 0x10)
			if (s != VMCB_CS)
				set_seg(vmcb, s, 0x18, 0xC93, 0xFFFFFFFF, 0);
		V64(vmcb, VMCB_RIP) = boot->entry;
		if (boot->long_mode) {
			/* Linux boot protocol, 64-bit: paging on, RSI = boot_params. */
			set_seg(vmcb, VMCB_GDTR, 0, 0, 0x1F, GPA_BOOT_GDT);
			V64(vmcb, VMCB_CR0) = 0x80000011; /* PG, ET, PE */
			V64(vmcb, VMCB_CR3) = boot->cr3;
			V64(vmcb, VMCB_CR4) = 0x20; /* PAE */
			V64(vmcb, VMCB_EFER) |= EFER_LME | EFER_LMA;
			v->arch.gpr[GPR_RSI] = boot->arg;
		} else {
			/* PVH: 32-bit flat protected mode, paging off, EBX = start info. */
			V64(vmcb, VMCB_CR0) = 0x11; /* PE, ET */
			v->arch.gpr[GPR_RBX] = boot->arg;
		}
	}
	return 0;
}

/* ---- exits ---- */

static void window_step_cancel(struct vcpu *v);

static void svm_inject_exception(struct vcpu *v, u8 vector, bool has_err, u32 err)
{
	window_step_cancel(v);
	if (x86_exception_is_fault(vector))
		V64(v->arch.svm.vmcb, VMCB_RFLAGS) |= X86_RFLAGS_RF;
	V64(v->arch.svm.vmcb, VMCB_EVENTINJ) = vector | EVENT_TYPE_EXC | EVENT_VALID |
					       (has_err ? EVENT_HAS_ERR | ((u64)err << 32) : 0);
}

/* The guest's DR6 is the VMCB's (its save area, APM vol. 2, appendix B). */
static void svm_inject_db(struct vcpu *v, u64 status)
{
	u8 *vmcb = v->arch.svm.vmcb;
	V64(vmcb, VMCB_DR6) = x86_dr6_after_db(V64(vmcb, VMCB_DR6), status);
	svm_inject_exception(v, VEC_DB, false, 0);
}

/* The external interrupt whose delivery an exit cut short (EXITINTINFO, APM 15.7.2), or
 * -1. A CPU reports it as type INTR; QEMU's TCG reports one it took through V_IRQ as an
 * exception (type 3) of its vector, which is >= 32, as no exception's is. */
static int interrupted_irq(u64 info)
{
	u64 type = info & EVENT_TYPE_MASK;
	if (!(info & EVENT_VALID) ||
	    (type != EVENT_TYPE_INTR && (type != EVENT_TYPE_EXC || (u8)info < 32)))
		return -1;
	return (u8)info;
}

/* An intercepted #DB or #AC, back to the guest as the CPU raised it: DR6 in the VMCB has
 * the #DB's status already (APM 15.12); #AC's error code is 0. If it came while the CPU
 * delivered another event, that one waits (inject.c). */
static void reflect_exception(struct vcpu *v, u8 vector)
{
	svm_inject_exception(v, vector, vector == VEC_AC, 0);
}

static void svm_inject_page_fault(struct vcpu *v, u64 la, u32 err)
{
	V64(v->arch.svm.vmcb, VMCB_CR2) = la;
	svm_inject_exception(v, 14, true, err);
}

/* ---- interrupt injection ---- */

/* CR8 and the x2APIC TPR are one register (SDM vol. 3A, 11.8.6: CR8 = TPR[7:4]). With
 * V_INTR_MASKING the guest's CR8 accesses use the VMCB's V_TPR (APM 15.21.1), while
 * the x2APIC TPR MSR reaches the vLAPIC: each entry shows the vLAPIC's TPR in V_TPR,
 * each exit takes a V_TPR the guest changed back (MOV to CR8 clears TPR[3:0]). */
static void tpr_to_vmcb(struct vcpu *v)
{
	u8 *vmcb = v->arch.svm.vmcb;
	V64(vmcb, VMCB_VINTR) = (V64(vmcb, VMCB_VINTR) & ~(u64)VINTR_TPR_MASK) |
				((vlapic_tpr(&v->arch.lapic) >> 4) & VINTR_TPR_MASK);
}

static void tpr_from_vmcb(struct vcpu *v)
{
	u32 vtpr = V64(v->arch.svm.vmcb, VMCB_VINTR) & VINTR_TPR_MASK;
	if (vtpr != ((vlapic_tpr(&v->arch.lapic) >> 4) & VINTR_TPR_MASK))
		vlapic_set_tpr(&v->arch.lapic, vtpr << 4);
}

/* A guest that lowers its CR8 below a waiting interrupt takes it at once on a CPU; with
 * nothing waiting, CR8 writes need no exit. So they exit only while the TPR alone holds
 * an interrupt back (as KVM does). */
static void watch_cr8_writes(struct vcpu *v)
{
	/* Under AVIC the CPU delivers what a lower V_TPR lets through itself. */
	if (!v->arch.svm.avic_on && vlapic_tpr_holds_back(&v->arch.lapic))
		V32(v->arch.svm.vmcb, VMCB_ICPT_CR) |= ICPT_CR8_WRITE;
	else
		V32(v->arch.svm.vmcb, VMCB_ICPT_CR) &= ~ICPT_CR8_WRITE;
}

/* An intercepted MOV to CR4 or CR8 (want), before it ran: decoded here, since not every
 * CPU has decode assists (QEMU's has none). */
static void handle_cr_write(struct vcpu *v, const struct x86_exit *e, u8 want)
{
	u8 *vmcb = v->arch.svm.vmcb;
	u8 bytes[X86_MAX_INSN_LEN] = { 0 }, cr, gpr, len;
	size_t n = x86_fetch_insn(v, bytes, sizeof bytes);
	if (x86_decode_mov_to_cr(bytes, n, &cr, &gpr, &len) || cr != want) {
		vcpu_bad_access(v,
				"CR%u write exit at rip %llx: not a MOV to CR%u (%02x %02x %02x)",
				want, (unsigned long long)V64(vmcb, VMCB_RIP), want, bytes[0],
				bytes[1], bytes[2]);
		return svm_inject_exception(v, 6, false, 0); /* #UD */
	}
	u64 val = v->arch.gpr[gpr];
	if (cr == 8) {
		if (val >> 4) /* reserved bits (SDM vol. 3A, 2.5: CR8) */
			return svm_inject_exception(v, 13, true, 0);
		vlapic_set_tpr(&v->arch.lapic, (u32)val << 4);
	} else {
		u64 old = V64(vmcb, VMCB_CR4);
		if (!x86_cr4_write_ok(x86_cr4_guest_reserved(v), old, val,
				      V64(vmcb, VMCB_EFER) & EFER_LMA, V64(vmcb, VMCB_CR3))) {
			v->stats.bad_accesses++;
			return svm_inject_exception(v, 13, true, 0);
		}
		V64(vmcb, VMCB_CR4) = val;
		if ((old ^ val) & X86_CR4_PAGING_BITS)
			v->arch.flush_tlb =
				true; /* as the CPU's write would (SDM vol. 3A, 4.10.4.1) */
	}
	x86_skip(v, e, len);
}

/* While a window single step is armed (step_over) nothing goes in: the RFLAGS the CPU
 * pushes for an event would carry the step's TF, which the handler's IRET brings back;
 * the step's own exit comes after one instruction, and the event then. */
static bool svm_interruptible(struct vcpu *v)
{
	return !v->arch.svm.window_step && (V64(v->arch.svm.vmcb, VMCB_RFLAGS) & BIT(9)) &&
	       !(V64(v->arch.svm.vmcb, VMCB_INT_SHADOW) & 1);
}

static void step_over(struct vcpu *v);

/* An exit as soon as the guest can take an interrupt (APM 15.21.4: a virtual interrupt
 * with the VINTR intercept); in an interrupt shadow, a single step over its instruction
 * (step_over), as for an NMI: on a CPU as many exits (the step's #DB for the VINTR), and
 * no V_IRQ for QEMU before 9.1, which drops the VMCB's shadow at VMRUN and took the
 * interrupt before the instruction: after an STI, before its HLT, which then halted with
 * nothing left to end it (docs/emulator_faults.md, section 4). */
static void request_irq_window(struct vcpu *v)
{
	u8 *vmcb = v->arch.svm.vmcb;
	if (v->arch.svm.window_step)
		return; /* its exit is the window */
	if ((V64(vmcb, VMCB_RFLAGS) & X86_RFLAGS_IF) && (V64(vmcb, VMCB_INT_SHADOW) & 1))
		return step_over(v);
	V64(vmcb, VMCB_VINTR) |= VINTR_V_IRQ | VINTR_IGN_TPR | (0xFull << VINTR_PRIO_SHIFT);
	V32(vmcb, VMCB_ICPT_MISC1) |= ICPT_VINTR;
}

/* Interrupt vec, acknowledged in the vLAPIC, for the guest to take at its first
 * instruction boundary where it can (IF = 1, no shadow): a virtual interrupt (V_IRQ,
 * APM 15.21.4; the vLAPIC has weighed the TPR, so V_IGN_TPR), not EVENTINJ. QEMU's TCG
 * SVM (7.2 and 10.0, helper_vmrun) leaves an EVENTINJ interrupt's vector behind as its
 * CPU's pending exception after delivering it; when another emulator thread then makes
 * that CPU leave its execution loop before the guest's next exception or exit, the
 * vector is delivered a second time, whatever IF says (docs/emulator_faults.md). Its V_IRQ
 * delivery leaves nothing behind. settle_offered_irq sees at the exit whether the guest
 * took it. */
static void offer_irq(struct vcpu *v, u8 vec)
{
	u8 *vmcb = v->arch.svm.vmcb;
	V64(vmcb, VMCB_VINTR) = (V64(vmcb, VMCB_VINTR) & ~(0xFFull << VINTR_VECTOR_SHIFT)) |
				VINTR_V_IRQ | VINTR_IGN_TPR | (0xFull << VINTR_PRIO_SHIFT) |
				((u64)vec << VINTR_VECTOR_SHIFT);
	v->arch.svm.irq_offered = true;
}

/* After an exit: the interrupt offered at the entry was cut short in its delivery
 * (EXITINTINFO: it stays acknowledged, svm_redeliver offers it again; QEMU leaves V_IRQ
 * set then, as it clears it only once the delivery is done), taken (the CPU clears
 * V_IRQ), or not taken, an exit coming first: then it waits in the IRR again. */
static void settle_offered_irq(struct vcpu *v)
{
	u8 *vmcb = v->arch.svm.vmcb;
	if (!v->arch.svm.irq_offered)
		return;
	v->arch.svm.irq_offered = false;
	u8 vec = (u8)(V64(vmcb, VMCB_VINTR) >> VINTR_VECTOR_SHIFT);
	bool offered = V64(vmcb, VMCB_VINTR) & VINTR_V_IRQ;
	V64(vmcb, VMCB_VINTR) &= ~(u64)VINTR_V_IRQ;
	if (interrupted_irq(V64(vmcb, VMCB_EXITINTINFO)) == vec)
		return;
	if (offered)
		vlapic_unack(&v->arch.lapic, vec);
	else
		v->stats.irqs_injected++;
}

/* The event whose delivery the last exit cut short (EXITINTINFO, APM 15.7.2). */
static struct x86_event svm_cut_short(struct vcpu *v)
{
	u64 info = V64(v->arch.svm.vmcb, VMCB_EXITINTINFO);
	int irq = interrupted_irq(info);
	if (irq >= 0)
		return (struct x86_event){ X86_EVENT_IRQ, (u8)irq };
	if (!(info & EVENT_VALID))
		return (struct x86_event){ X86_EVENT_NONE, 0 };
	if ((info & EVENT_TYPE_MASK) == EVENT_TYPE_NMI)
		return (struct x86_event){ X86_EVENT_NMI, 2 };
	return (struct x86_event){ X86_EVENT_OTHER, (u8)info };
}

/* Delivered again (APM 15.7.2): an interrupt as it went in (still acknowledged; AVIC
 * ignores V_IRQ), anything else through EVENTINJ. */
static void svm_redeliver(struct vcpu *v)
{
	u8 *vmcb = v->arch.svm.vmcb;
	window_step_cancel(v);
	int irq = interrupted_irq(V64(vmcb, VMCB_EXITINTINFO));
	if (irq >= 0 && !v->arch.svm.avic_on)
		offer_irq(v, (u8)irq);
	else
		V64(vmcb, VMCB_EVENTINJ) = V64(vmcb, VMCB_EXITINTINFO);
}

/* EXITINTINFO is the exit's; the next exit writes it anew. */
static void svm_drop_cut_short(struct vcpu *v) { (void)v; }

static bool svm_exception_queued(struct vcpu *v)
{
	return V64(v->arch.svm.vmcb, VMCB_EVENTINJ) & EVENT_VALID;
}

/* SVM has no virtual NMI masking here: an injected NMI masks NMIs until its handler's
 * IRET has run, which the IRET intercept shows (decode_exit, svm_events_begin). An STI or
 * MOV SS shadow holds an NMI back too, as KVM and VMX have it (kvm-unit-tests' apic
 * "nmi-after-sti": no NMI on the instruction after an STI). */
static bool svm_nmi_blocked(struct vcpu *v)
{
	return v->arch.svm.nmi_masked || v->arch.svm.window_step ||
	       (V64(v->arch.svm.vmcb, VMCB_INT_SHADOW) & 1);
}

static void svm_unblock_nmi(struct vcpu *v)
{
	v->arch.svm.nmi_masked = v->arch.svm.nmi_iret_seen = false;
	V32(v->arch.svm.vmcb, VMCB_ICPT_MISC1) &= ~ICPT_IRET;
}

static void svm_inject_nmi(struct vcpu *v)
{
	u8 *vmcb = v->arch.svm.vmcb;
	V64(vmcb, VMCB_EVENTINJ) = 2 | EVENT_TYPE_NMI | EVENT_VALID;
	v->arch.svm.nmi_masked = true;
	V32(vmcb, VMCB_ICPT_MISC1) |= ICPT_IRET;
}

/* An NMI that waits behind its predecessor's IRET: the IRET's exit (ICPT_IRET) comes
 * first, then the IRET is single-stepped, as KVM does: with TF set when it starts, the CPU
 * raises a #DB trap right after it (SDM vol. 3B, 18.3.1.4), which exits (intercepted),
 * and there NMIs unblock (svm_events_begin: RIP has moved on). The IRET restores TF and RF
 * from the stack, so nothing of ours stays in the guest's RFLAGS. An interrupt window would
 * not do: the IRET often returns to code with IF = 0 (another handler) or that runs on
 * without an exit, and the NMI waited for some later exit (kvm-unit-tests' eventinj hung,
 * apic's test_sti_nmi lost one). */
static void svm_request_nmi_window(struct vcpu *v)
{
	struct svm_vcpu *s = &v->arch.svm;
	/* Behind a handler that has not reached its IRET yet, the IRET's exit comes first. */
	if (!s->nmi_masked || s->nmi_iret_seen)
		step_over(v); /* the IRET, or the instruction in an interrupt shadow */
}

/* The instruction at RIP single-stepped: an exit right after it (the #DB, or its own).
 * Not while an event goes in at this entry (svm_interruptible): the window is asked for
 * again at the next exit. */
static void step_over(struct vcpu *v)
{
	struct svm_vcpu *s = &v->arch.svm;
	u8 *vmcb = s->vmcb;
	if (s->window_step || (V64(vmcb, VMCB_EVENTINJ) & EVENT_VALID) || s->irq_offered)
		return;
	s->window_step = true;
	s->window_step_tf = V64(vmcb, VMCB_RFLAGS) & X86_RFLAGS_TF;
	s->window_step_dr6 = V64(vmcb, VMCB_DR6);
	V64(vmcb, VMCB_RFLAGS) |= X86_RFLAGS_TF | X86_RFLAGS_RF;
}

/* That single step given up, or over after an instruction other than an IRET: TF is the
 * guest's again and RF clear, as a CPU leaves it after an instruction it completes (SDM
 * vol. 3B, 18.3.1.1). Given up when the hypervisor injects an exception, or delivers an
 * event again that an exit cut short, before the instruction ran (a fault of the stepped
 * instruction it emulates; an exception the CPU was delivering): the RFLAGS the CPU
 * pushes for it must be the guest's own, or the handler's IRET brings our TF back, and
 * once the step has ended meanwhile (an exit of the handler's) its #DB reaches the guest
 * (x86_apictest's "vector 1" after a self IPI and an STI under QEMU 7.2, which loses the
 * STI shadow at VMRUN: an interrupt went in in the middle of a step). Asked for anew at
 * the next entry. */
static void window_step_cancel(struct vcpu *v)
{
	struct svm_vcpu *s = &v->arch.svm;
	u8 *vmcb = s->vmcb;
	if (!s->window_step)
		return;
	s->window_step = false;
	V64(vmcb, VMCB_RFLAGS) = (V64(vmcb, VMCB_RFLAGS) & ~(X86_RFLAGS_TF | X86_RFLAGS_RF)) |
				 (s->window_step_tf ? X86_RFLAGS_TF : 0);
}

/* That single step is over: after an IRET (even one back to itself) NMIs unblock, and TF
 * and RF are what it popped; after another instruction as window_step_cancel leaves them. */
static void window_step_end(struct vcpu *v)
{
	struct svm_vcpu *s = &v->arch.svm;
	if (s->nmi_iret_seen) {
		s->window_step = false;
		s->nmi_masked = s->nmi_iret_seen = false;
	} else {
		window_step_cancel(v);
	}
}

/* The #DB of that single step, at its end: ours alone, unless the guest's own TF was set
 * as the instruction began: then the CPU's single-step trap is the guest's too, and goes
 * back to it (reflected). Ours alone, it leaves the guest's DR6 as it was. */
static bool window_step_done(struct vcpu *v)
{
	struct svm_vcpu *s = &v->arch.svm;
	if (!s->window_step)
		return false;
	window_step_end(v);
	if (s->window_step_tf)
		return false;
	V64(s->vmcb, VMCB_DR6) = s->window_step_dr6;
	return true;
}

/* RIP past the exiting instruction (its length as the CPU gives it, else len), done: the
 * interrupt shadow of an STI or MOV SS before it over (it covers one instruction), RF clear,
 * and a single step over it for an NMI window (svm_request_nmi_window) over too. */
static void svm_skip(struct vcpu *v, const struct x86_exit *e, u8 len)
{
	u8 *vmcb = v->arch.svm.vmcb;
	if (v->arch.svm.window_step)
		window_step_end(v);
	V64(vmcb, VMCB_RIP) += e->insn_len ? e->insn_len : len;
	V64(vmcb, VMCB_INT_SHADOW) = 0;
	V64(vmcb, VMCB_RFLAGS) &= ~X86_RFLAGS_RF;
}

static bool svm_cpu_delivers(struct vcpu *v) { return v->arch.svm.avic_on; }

/* ---- the run loop ---- */

extern u64 svm_run(u64 vmcb_pa, u64 *gpr, u64 host_save_pa);
extern char svm_vmrun_return[];

static enum exit_kind exit_kind_of(u64 code)
{
	switch (code) {
	case SVM_EXIT_INTR:
	case SVM_EXIT_NMI:
	case SVM_EXIT_SMI:
	case SVM_EXIT_INIT:
		return EXIT_HOST_IRQ;
	case SVM_EXIT_IOIO:
		return EXIT_IO;
	case SVM_EXIT_NPF:
		return EXIT_MMIO;
	case SVM_EXIT_MSR:
		return EXIT_MSR;
	case SVM_EXIT_CPUID:
		return EXIT_CPUID;
	case SVM_EXIT_HLT:
		return EXIT_HALT;
	case SVM_EXIT_VMMCALL:
		return EXIT_HYPERCALL;
	case SVM_EXIT_VINTR:
		return EXIT_IRQ_WINDOW;
	case SVM_EXIT_SHUTDOWN:
		return EXIT_SHUTDOWN;
	default:
		return code >= SVM_EXIT_EXC_BASE && code < SVM_EXIT_EXC_BASE + 32 ? EXIT_EXCEPTION
										  : EXIT_OTHER;
	}
}

/* The vCPU's last entries, oldest first (the last one is the exit being reported). */
static void print_entry_trace(struct vcpu *v)
{
	for (u32 i = 0; i < ENTRY_TRACE_LEN; i++) {
		u32 n = v->arch.svm.trace_next + i;
		if (n < ENTRY_TRACE_LEN)
			continue; /* fewer entries than slots so far */
		const struct entry_trace *t = &v->arch.svm.trace[n % ENTRY_TRACE_LEN];
		printk("hv: VM '%s' vcpu%u: entry %u: resumed at rip %llx (eventinj %llx, "
		       "irq %x, shadow %llx), exit %llx (info1 %llx) at rip %llx\n",
		       v->vm->name, v->id, n - ENTRY_TRACE_LEN, (unsigned long long)t->rip,
		       (unsigned long long)t->eventinj, t->irq, (unsigned long long)t->int_shadow,
		       (unsigned long long)t->exit_code, (unsigned long long)t->exit_info1,
		       (unsigned long long)t->exit_rip);
	}
}

/* What a guest developer needs to find the fault that could not be delivered (segment
 * bases and limits at +8 and +4 of a descriptor). The last fault address (CR2) is looked
 * up in the guest's own page tables: a supervisor read of an IDT entry that they map
 * present cannot fault, so "a mapped IDT entry" there means that the CPU walked some
 * other paging state than the guest's (seen under QEMU TCG: docs/testing.md). */
static void report_triple_fault(struct vcpu *v)
{
	u8 *vmcb = v->arch.svm.vmcb;
	u64 cr2 = V64(vmcb, VMCB_CR2), idt = V64(vmcb, VMCB_IDTR + 8);
	u32 idt_limit = V32(vmcb, VMCB_IDTR + 4);
	char state[256], cr2_map[48];
	arch_vcpu_describe(v, state, sizeof state);
	bool idt_entry_mapped = x86_guest_mapping(v, cr2, cr2_map, sizeof cr2_map) == WALK_OK &&
				cr2 - idt <= idt_limit;
	printk("hv: VM '%s' vcpu%u: triple fault at rip %llx: %s rsp=%llx cs=%x cr0=%llx "
	       "cr2=%llx (%sin the guest's page tables: %s) cr3=%llx cr4=%llx idt=%llx/%x "
	       "gdt=%llx/%x tr=%x exitintinfo=%llx\n",
	       v->vm->name, v->id, (unsigned long long)V64(vmcb, VMCB_RIP), state,
	       (unsigned long long)v->arch.gpr[GPR_RSP], V16(vmcb, VMCB_CS),
	       (unsigned long long)V64(vmcb, VMCB_CR0), (unsigned long long)cr2,
	       idt_entry_mapped ? "a mapped IDT entry; " : "", cr2_map,
	       (unsigned long long)V64(vmcb, VMCB_CR3), (unsigned long long)V64(vmcb, VMCB_CR4),
	       (unsigned long long)idt, idt_limit, (unsigned long long)V64(vmcb, VMCB_GDTR + 8),
	       V32(vmcb, VMCB_GDTR + 4), V16(vmcb, VMCB_TR),
	       (unsigned long long)V64(vmcb, VMCB_EXITINTINFO));
	print_entry_trace(v);
}

/* Whether the next entry of a vCPU that has AVIC runs with it (avic.h): not while its
 * guest's APIC is outside x2APIC mode (its x2APIC MSRs must #GP, which AVIC would not
 * do), nor when it needs the interrupt window (AVIC ignores V_IRQ, APM 15.29.2): then it
 * runs with its APIC emulated, for itself alone and for that entry, from the same
 * register page (IsRunning stays clear: senders exit, and it is kicked). */
static void choose_avic(struct vcpu *v, bool window)
{
	u8 *vmcb = v->arch.svm.vmcb;
	bool x2apic = vlapic_x2apic_mode(&v->arch.lapic);
	bool on = v->arch.svm.avic && !window && x2apic;
	if (v->arch.svm.avic && !on) {
		if (!x2apic)
			v->stats.fallback_apic_mode++;
		else
			v->stats.fallback_window++;
	}
	if (on == v->arch.svm.avic_on)
		return;
	v->arch.svm.avic_on = on;
	if (on)
		V64(vmcb, VMCB_VINTR) |= VINTR_AVIC | VINTR_X2AVIC;
	else
		V64(vmcb, VMCB_VINTR) &= ~(u64)(VINTR_AVIC | VINTR_X2AVIC);
	/* Without AVIC an x2APIC MSR left unintercepted would reach the host's own APIC. */
	V64(vmcb, VMCB_MSRPM) = (u64)(uintptr_t)(on ? msrpm_avic : msrpm);
}

/* Before the policy (inject.h) looks: the last entry's window and offer off; NMIs
 * unblocked once the handler's IRET has run, which it has once RIP moved on (any exit
 * after it; with an NMI waiting, the single step's: svm_request_nmi_window); AVIC or not
 * for this entry. */
static void svm_events_begin(struct vcpu *v, bool window)
{
	u8 *vmcb = v->arch.svm.vmcb;
	V32(vmcb, VMCB_ICPT_MISC1) &= ~ICPT_VINTR;
	V64(vmcb, VMCB_VINTR) &= ~(u64)VINTR_V_IRQ;
	if (v->arch.svm.nmi_iret_seen && V64(vmcb, VMCB_RIP) != v->arch.svm.nmi_iret_rip)
		v->arch.svm.nmi_masked = v->arch.svm.nmi_iret_seen = false;
	choose_avic(v, window);
}

/* The exit the CPU reported, for vcpu.c, or handled here (this vendor's own intercepts). */
static void decode_exit(struct vcpu *v, struct x86_exit *e)
{
	u8 *vmcb = v->arch.svm.vmcb;
	u64 code = V64(vmcb, VMCB_EXITCODE), info1 = V64(vmcb, VMCB_EXITINFO1);
	*e = (struct x86_exit){
		.reason = X86_EXIT_HANDLED, .kind = exit_kind_of(code), .code = code, .info = info1
	};
	/* The instruction's length, where the CPU says it (NRIP save, APM 15.7.1). */
	if (has_nrips)
		e->insn_len = (u8)(V64(vmcb, VMCB_NRIP) - V64(vmcb, VMCB_RIP));
	switch (code) {
	case SVM_EXIT_INTR:
	case SVM_EXIT_NMI:
	case SVM_EXIT_SMI:
	case SVM_EXIT_INIT:
		e->reason = X86_EXIT_HOST;
		break;
	case SVM_EXIT_VINTR:
		e->reason = X86_EXIT_IRQ_WINDOW;
		break;
	case SVM_EXIT_IRET:
		/* Intercepted before it runs: NMIs unblock once RIP has moved on. */
		V32(vmcb, VMCB_ICPT_MISC1) &= ~ICPT_IRET;
		v->arch.svm.nmi_iret_seen = true;
		v->arch.svm.nmi_iret_rip = V64(vmcb, VMCB_RIP);
		break;
	case SVM_EXIT_CPUID:
		e->reason = X86_EXIT_CPUID;
		break;
	case SVM_EXIT_MSR:
		e->reason = X86_EXIT_MSR;
		e->write = info1 != 0;
		break;
	case SVM_EXIT_XSETBV:
		e->reason = X86_EXIT_XSETBV;
		break;
	case SVM_EXIT_CR4_WRITE:
		handle_cr_write(v, e, 4);
		break;
	case SVM_EXIT_CR8_WRITE:
		handle_cr_write(v, e, 8);
		break;
	case SVM_EXIT_IOIO:
		/* APM 15.10.2: the port, the size, IN, INS/OUTS; EXITINFO2 the next RIP */
		e->reason = X86_EXIT_IO;
		e->port = (u16)(info1 >> 16);
		e->size = info1 & BIT(4) ? 1 : info1 & BIT(5) ? 2 : 4;
		e->write = !(info1 & 1);
		e->string = info1 & BIT(2);
		e->insn_len = (u8)(V64(vmcb, VMCB_EXITINFO2) - V64(vmcb, VMCB_RIP));
		break;
	case SVM_EXIT_NPF:
		e->reason = X86_EXIT_MMIO;
		e->gpa = V64(vmcb, VMCB_EXITINFO2);
		e->insn_len = 0; /* decoded by the handler */
		/* The CPU was delivering an event (EXITINTINFO, APM 15.7.2). */
		e->event = V64(vmcb, VMCB_EXITINTINFO);
		e->delivering = e->event & EVENT_VALID;
		break;
	case SVM_EXIT_HLT:
		e->reason = X86_EXIT_HLT;
		break;
	case SVM_EXIT_VMMCALL:
		e->reason = X86_EXIT_HYPERCALL;
		break;
	case SVM_EXIT_SHUTDOWN:
		report_triple_fault(v);
		e->reason = X86_EXIT_TRIPLE_FAULT;
		break;
	case SVM_EXIT_INVD:
	case SVM_EXIT_WBINVD:
		e->reason = X86_EXIT_CACHE_FLUSH;
		break;
	case SVM_EXIT_EXC_BASE + VEC_DB:
		if (!window_step_done(v))
			reflect_exception(v, VEC_DB);
		break;
	case SVM_EXIT_EXC_BASE + VEC_AC:
		reflect_exception(v, VEC_AC);
		break;
	case SVM_EXIT_ICEBP:
		e->reason = X86_EXIT_ICEBP;
		break;
	case SVM_EXIT_PAUSE:
		e->reason = X86_EXIT_PAUSE;
		break;
	case SVM_EXIT_AVIC_INCOMPLETE_IPI:
		avic_incomplete_ipi(v, info1, V64(vmcb, VMCB_EXITINFO2));
		break;
	case SVM_EXIT_AVIC_NOACCEL:
		if (avic_unaccelerated(v, info1, &e->write)) {
			e->reason = X86_EXIT_MSR;
			e->insn_len = 0; /* the WRMSR or RDMSR: 2 bytes (vcpu.c) */
		}
		break;
	default:
		if (code == (u64)-1 || (u32)code == 0xFFFFFFFFu) {
			printk("hv: VM '%s' vcpu%u: VMRUN refused the guest state "
			       "(VMEXIT_INVALID); stopping the VM\n",
			       v->vm->name, v->id);
			vm_request_stop(v->vm, VM_FATAL);
			e->reason = X86_EXIT_STOP;
			break;
		}
		e->reason = X86_EXIT_UNSUPPORTED;
		break;
	}
}

static void svm_enter(struct vcpu *v)
{
	u8 *vmcb = v->arch.svm.vmcb;
	struct arch_pcpu *p = &pcpus[v->pcpu].arch;
	/* The ASID is the VM's: entries another vCPU of it left here, or this one's from
	 * before it ran on another pCPU (where its INVLPGs went), are stale. */
	if (v->arch.flush_tlb || p->last_vcpu != v || v->arch.ran_on != v->pcpu + 1) {
		V32(vmcb, VMCB_TLB_CTL) = 1; /* flush everything: TCG has no flush-by-ASID */
		v->arch.flush_tlb = false;
		p->last_vcpu = v;
		v->arch.ran_on = v->pcpu + 1;
	}
	if (sched_watch_spin(v))
		V32(vmcb, VMCB_ICPT_MISC1) |= ICPT_PAUSE;
	else
		V32(vmcb, VMCB_ICPT_MISC1) &= ~ICPT_PAUSE;
	tpr_to_vmcb(v);
	watch_cr8_writes(v);
	struct entry_trace *t = &v->arch.svm.trace[v->arch.svm.trace_next++ % ENTRY_TRACE_LEN];
	*t = (struct entry_trace){ .rip = V64(vmcb, VMCB_RIP),
				   .eventinj = V64(vmcb, VMCB_EVENTINJ),
				   .irq = v->arch.svm.irq_offered ? (u8)(V64(vmcb, VMCB_VINTR) >>
									 VINTR_VECTOR_SHIFT)
								  : 0,
				   .int_shadow = V64(vmcb, VMCB_INT_SHADOW) };
	/* VMRUN takes RAX and RSP from the VMCB and saves them there. */
	V64(vmcb, VMCB_RAX) = v->arch.gpr[GPR_RAX];
	V64(vmcb, VMCB_RSP) = v->arch.gpr[GPR_RSP];
	if (v->arch.svm.avic_on)
		avic_enter(v);
	svm_run((u64)(uintptr_t)vmcb, v->arch.gpr, (u64)(uintptr_t)p->svm.host_save);
	if (v->arch.svm.avic_on)
		avic_exit(v);
	settle_offered_irq(v);
	v->arch.gpr[GPR_RAX] = V64(vmcb, VMCB_RAX);
	v->arch.gpr[GPR_RSP] = V64(vmcb, VMCB_RSP);
	tpr_from_vmcb(v);
	V32(vmcb, VMCB_TLB_CTL) = 0;
	/* An injected event that the exit interrupted is in EXITINTINFO. */
	V64(vmcb, VMCB_EVENTINJ) = 0;
	t->exit_code = V64(vmcb, VMCB_EXITCODE);
	t->exit_info1 = V64(vmcb, VMCB_EXITINFO1);
	t->exit_rip = V64(vmcb, VMCB_RIP);
}

/* The exit the last entry ended with (svm_enter), for vcpu.c. */
static void svm_decode(struct vcpu *v, struct x86_exit *e)
{
	u8 *vmcb = v->arch.svm.vmcb;
	if (V64(vmcb, VMCB_RIP) == (u64)(uintptr_t)svm_vmrun_return) {
		/* Seen under QEMU 7.2 TCG now and then with vCPUs sharing pCPUs: the guest
		 * state saved at #VMEXIT is the host's (RIP right after our VMRUN). The guest
		 * cannot continue; stop it rather than run host state. */
		printk("hv: VM '%s' vcpu%u: BUG: the state saved at #VMEXIT "
		       "(code %llx, info1 %llx, info2 %llx) is the host's, "
		       "not the guest's; stopping the VM (pcpu%u vmcb %p hsave %p "
		       "VM_HSAVE_PA %llx host cr3 %llx)\n",
		       v->vm->name, v->id, (unsigned long long)V64(vmcb, VMCB_EXITCODE),
		       (unsigned long long)V64(vmcb, VMCB_EXITINFO1),
		       (unsigned long long)V64(vmcb, VMCB_EXITINFO2), v->pcpu, (void *)vmcb,
		       (void *)pcpus[v->pcpu].arch.svm.hsave,
		       (unsigned long long)rdmsr(MSR_VM_HSAVE_PA), (unsigned long long)read_cr3());
		print_entry_trace(v);
		vm_request_stop(v->vm, VM_FATAL);
		*e = (struct x86_exit){ .reason = X86_EXIT_STOP,
					.kind = exit_kind_of(V64(vmcb, VMCB_EXITCODE)) };
		return;
	}
	decode_exit(v, e);
}

/* ---- the guest's registers ---- */

static const u32 reg_offset[] = {
	[X86_RIP] = VMCB_RIP, [X86_RFLAGS] = VMCB_RFLAGS, [X86_CR0] = VMCB_CR0,
	[X86_CR3] = VMCB_CR3, [X86_CR4] = VMCB_CR4,	  [X86_EFER] = VMCB_EFER,
};

static u64 svm_get(struct vcpu *v, enum x86_reg r)
{
	return r == X86_CPL ? V8(v->arch.svm.vmcb, VMCB_CPL) : V64(v->arch.svm.vmcb, reg_offset[r]);
}

static void svm_set_rflags(struct vcpu *v, u64 rflags)
{
	V64(v->arch.svm.vmcb, VMCB_RFLAGS) = rflags;
}

static struct x86_segment svm_segment(struct vcpu *v, enum x86_seg s)
{
	u32 off = VMCB_ES + 16 * s;
	u8 *vmcb = v->arch.svm.vmcb;
	return (struct x86_segment){ V16(vmcb, off), V16(vmcb, off + 2), V32(vmcb, off + 4),
				     V64(vmcb, off + 8) };
}

static void svm_set_tsc_offset(struct vcpu *v, u64 offset)
{
	V64(v->arch.svm.vmcb, VMCB_TSC_OFFSET) = offset; /* APM vol. 2, 15.30.5 */
}

/* ---- the hardware self-test ---- */

static u32 svm_selftest_features(struct selftest_feature *f, u32 max)
{
	u32 a, b, c, d, n = 0;
	cpuid(0x8000000A, 0, &a, &b, &c, &d);
	bool avic = d & BIT(13);
	const struct selftest_feature all[] = {
		{ "SVM", true, false, NULL, NULL },
		{ "nested paging (NPT)", true, false, NULL, NULL },
		{ "ASIDs", b > 1, false, NULL, NULL },
		{ "NRIP save", d & BIT(3), false, NULL,
		  d & BIT(3) ? NULL : "instruction lengths decoded in software" },
		{ "decode assists", d & BIT(7), true, NULL,
		  "MMIO instructions decoded in software" },
		{ "pause filter", d & BIT(10), true, NULL,
		  "every PAUSE exits while a spin is watched (sched = aware)" },
		{ "AVIC", avic, !avic_available(), "avic",
		  !avic		      ? "interrupts injected by the hypervisor, EOIs exit"
		  : !avic_available() ? "unused without x2AVIC: interrupts injected"
				      : NULL },
		{ "x2AVIC", d & BIT(18), false, "avic",
		  d & BIT(18) ? NULL : "x2APIC accesses exit (the APIC is emulated)" },
	};
	for (; n < ARRAY_SIZE(all) && n < max; n++)
		f[n] = all[n];
	return n;
}

const struct x86_vendor svm_vendor = {
	.name = "AMD SVM",
	.check = svm_check,
	.describe = svm_describe,
	.guest_gs_at = svm_guest_gs_at,
	.pcpu_enable = svm_pcpu_enable,
	.vm_init = svm_vm_init,
	.vcpu_init = svm_vcpu_init,
	.vcpu_reset = svm_vcpu_reset,
	.events_begin = svm_events_begin,
	.cut_short = svm_cut_short,
	.redeliver = svm_redeliver,
	.drop_cut_short = svm_drop_cut_short,
	.exception_queued = svm_exception_queued,
	.nmi_blocked = svm_nmi_blocked,
	.unblock_nmi = svm_unblock_nmi,
	.inject_nmi = svm_inject_nmi,
	.request_nmi_window = svm_request_nmi_window,
	.cpu_delivers = svm_cpu_delivers,
	.inject_irq = offer_irq,
	.request_irq_window = request_irq_window,
	.enter = svm_enter,
	.decode = svm_decode,
	.skip = svm_skip,
	.inject_exception = svm_inject_exception,
	.inject_db = svm_inject_db,
	.inject_page_fault = svm_inject_page_fault,
	.get = svm_get,
	.set_rflags = svm_set_rflags,
	.segment = svm_segment,
	.set_tsc_offset = svm_set_tsc_offset,
	.interruptible = svm_interruptible,
	.notify = avic_notify,
	.apicv_vm = "avic",
	.apic_virtualization = avic_available,
	.selftest_features = svm_selftest_features,
};
