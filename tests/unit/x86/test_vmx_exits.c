/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/x86/vmx/vmx.c and the shared run loop and exit handlers (arch/x86/vcpu.c), driven
 * through arch_vcpu_run with a VMCS that is an array of fields and a VM entry that plays
 * the CPU: each entry records what the hypervisor handed the guest (the event to inject,
 * RIP, the interruptibility state, the window and TPR-threshold controls, CR0 and EFER
 * with the IA-32e control) and returns the next scripted exit. Covers what the Bochs test
 * does not show: the start and INIT states as written into the VMCS, event re-injection
 * after an exit during delivery, the NMI window, the TPR threshold, the emulated CR0/CR4
 * writes, the reflected #AC, entry failures, and the exits' decoding for vcpu.c (port
 * I/O, MSRs, MMIO through an EPT violation). With APIC virtualization the entry also plays
 * what the CPU does with the virtual-APIC page (SDM vol. 3C, chapter 30: PPR
 * virtualization, the evaluation and delivery of virtual interrupts, EOI virtualization
 * with the EOI-exit bitmap), as a guest that takes and EOIs its interrupts would make it.
 * The real vLAPIC, decoder, guest walk and access split; the rest of the hypervisor
 * stubbed. */
#include "../../../arch/x86/vmx/vmx_caps.h"

/* The VMX instructions (vmx_insn.h) on the array below, the current VMCS. */
#define ARCH_X86_VMX_VMX_INSN_H
static u64 vmcs[0x8000];
static bool vmclear(void *p) { return (void)p, true; }
static bool vmptrld(void *p) { return (void)p, true; }
static bool vmwrite(u32 field, u64 value) { return vmcs[field] = value, true; }
static bool vmread(u32 field, u64 *value) { return *value = vmcs[field], true; }
static int invvpids;
static void invvpid(enum vmx_inv_type type, u16 vpid) { (void)type, (void)vpid, invvpids++; }

/* The guest's DR6, in the CPU's register while the guest runs (vmx.c reads and writes it). */
#include "arch/cpu.h"
static u64 dr6;
#define read_dr6() dr6
#define write_dr6(v) (dr6 = (v))

#include "../../../arch/x86/vmx/vmx.c"
#include "../../../arch/x86/vmx/vmx_apicv.c"
#include "../../../arch/x86/vmx/vmx_caps.c"
#include "../../../arch/x86/vmx/vmx_exit.c"
#include "../../../arch/x86/cr4.c"
#include "../../../arch/x86/alu.c"
#include "../../../arch/x86/decode.c"
#include "../../../arch/x86/guest_memory.c"
#include "../../../arch/x86/guest_walk.c"
#include "../../../arch/x86/irq/inject.c"
#include "../../../arch/x86/nested_paging.c"
#include "../../../arch/x86/split_access.c"
#include "../../../arch/x86/vcpu.c"
#include "../../../arch/x86/irq/vlapic.c"
#include "../../../arch/x86/xstate.c" /* its pure part: xstate_xcr0_valid */
#include "../test.h"

#include <stdarg.h>
#include <stdlib.h>

/* ---- stubs: what vmx.c and vcpu.c call besides ---- */

u64 arch_time_hz = 1000000000;
struct pcpu pcpus[1];
static u64 fake_now;
u64 arch_time_now(void) { return fake_now; }
struct x86_msr_caps x86_msr_caps;
char vmx_exit[1];
const struct x86_vendor *x86_vendor = &vmx_vendor;

void *alloc_pages(u64 n) /* zeroed, as the hypervisor's */
{
	void *p = aligned_alloc(PAGE_SIZE, n * PAGE_SIZE);
	return memset(p, 0, n * PAGE_SIZE);
}
void printk(const char *fmt, ...) { (void)fmt; }
void hv_exit(void) { abort(); }
int vmx_on(const struct vmx_caps *c, void *region, struct vmx_operation *op, const char **why)
{
	return (void)c, (void)region, (void)op, (void)why, 0;
}
void vmx_off(const struct vmx_operation *op) { (void)op; }
struct x86_host_tables x86_host_tables(u32 pcpu)
{
	return (void)pcpu, (struct x86_host_tables){ 0 };
}
#include "x86_run_loop_stubs.h"
static int spin_exits;
static bool watch_spin;
bool sched_watch_spin(struct vcpu *v) { return (void)v, watch_spin; }
bool sched_watch_section_end(struct vcpu *v) { return (void)v, false; }
bool sched_spin_exit(struct vcpu *v) { return (void)v, spin_exits++, false; }
void vcpu_kick(struct vcpu *v) { (void)v; }
int xstate_xsetbv(struct vcpu *v, u32 index, u64 value)
{
	return (void)v, (void)index, (void)value, -1;
}

/* ---- the CPU: a script of exits ---- */

struct entry { /* what the VM entry found */
	u32 event, error;
	u8 insn_len;
	u64 rip, rflags, rsi, cr0, cr0_shadow, cr4, efer;
	u32 interruptibility, proc, proc2, tpr_threshold, entry_ctls;
	u32 preemption_timer;
	u16 intr_status; /* RVI, SVI */
	u64 msr_bitmap;
	u16 cs, ss;
	u32 cs_ar;
	u64 cs_base, gdtr;
	bool launched;
};
struct exit { /* what it then reports; 0: that state stays */
	u32 reason, intr_info, idt_vectoring, interruptibility;
	u64 qual, rip, rflags, gpa, efer, cr4;
	u8 len;
	bool fail; /* VMfail: the guest did not run */
	/* With virtual-interrupt delivery, before that exit: the guest takes up to `takes`
	 * virtual interrupts, EOIing each unless no_eoi (an EOI in the EOI-exit bitmap ends
	 * the run with its exit instead). */
	u8 takes;
	bool no_eoi;
	u8 eois_first; /* EOIs of what was in service at the entry, before that */
	/* A posted-interrupt notification (VEC_NOTIFY) arrives in guest mode, first: the
	 * CPU's processing of it where the VMCS asks (30.6), else an external-interrupt
	 * exit instead of this one. */
	bool notified;
	/* After those `takes`, another CPU posts this vector (vlapic_accept, vmx_notify);
	 * the notification's processing, and the guest takes it (EOIs it unless no_eoi). */
	u8 posted;
	/* The handler of what the guest takes runs with RFLAGS.IF = 0 (an interrupt gate)
	 * and EOIs first, as Linux's do; this exit comes while it still runs. */
	bool handler_if0;
	/* This exit is a host interrupt under Bochs 2.7 (bochs_host_interrupt). */
	bool bochs;
};
#define MAX_EXITS 16
static struct entry entries[MAX_EXITS];
static struct exit script[MAX_EXITS];
static int nentries, nexits;
static struct vcpu vcpu;
static u32 apic_page[1024] __attribute__((aligned(4096)));
static struct vm vm;
static u8 ram[0x10000] __attribute__((aligned(4096)));
static const struct vlapic_ops no_ops;

/* ---- the CPU's APIC virtualization on the virtual-APIC page (apic_page) ---- */

static u32 *vreg(u32 off) { return &apic_page[off / 4]; }
static bool vtest(u32 base, u8 v) { return *vreg(base + v / 32 * 0x10) & 1u << v % 32; }
static void vset(u32 base, u8 v, bool on)
{
	u32 *w = vreg(base + v / 32 * 0x10);
	*w = on ? *w | 1u << v % 32 : *w & ~(1u << v % 32);
}
static u8 vhighest(u32 base)
{
	for (int v = 255; v > 0; v--)
		if (vtest(base, (u8)v))
			return (u8)v;
	return 0;
}

/* 30.1.3: PPR from VTPR and SVI. */
static void ppr_virtualization(void)
{
	u32 tpr = *vreg(APIC_REG_TPR), svi = (u32)vmcs[GUEST_INTERRUPT_STATUS] >> 8;
	*vreg(APIC_REG_PPR) = (tpr & 0xF0) >= (svi & 0xF0) ? tpr & 0xFF : svi & 0xF0;
}

/* 30.2.1 and 30.2.2: a virtual interrupt is recognized when RVI's class is above VPPR's,
 * RFLAGS.IF is set and no window exit is asked for; delivered, it moves from VIRR to VISR.
 * The vector, or 0. */
static u8 deliver_virtual(void)
{
	u8 rvi = (u8)vmcs[GUEST_INTERRUPT_STATUS];
	if ((rvi & 0xF0) <= (*vreg(APIC_REG_PPR) & 0xF0) || !(vmcs[GUEST_RFLAGS] & X86_RFLAGS_IF) ||
	    (vmcs[CPU_BASED_VM_EXEC_CONTROL] & PROC_INTR_WINDOW_EXITING))
		return 0;
	vset(APIC_REG_IRR, rvi, false);
	vset(APIC_REG_ISR, rvi, true);
	*vreg(APIC_REG_PPR) = rvi & 0xF0;
	vmcs[GUEST_INTERRUPT_STATUS] = vhighest(APIC_REG_IRR) | (u64)rvi << 8;
	return rvi;
}

/* 30.1.4: EOI virtualization; true if the vector's EOI exits (the EOI-exit bitmap). */
static bool eoi_virtualization(u8 vector)
{
	vset(APIC_REG_ISR, vector, false);
	vmcs[GUEST_INTERRUPT_STATUS] = (vmcs[GUEST_INTERRUPT_STATUS] & 0xFF) |
				       (u64)vhighest(APIC_REG_ISR) << 8;
	ppr_virtualization();
	return vmcs[EOI_EXIT_BITMAP0 + 2 * (vector / 64)] & 1ull << vector % 64;
}

/* Bochs 2.7 at a host interrupt in VMX non-root operation (cpu/event.cc: handleAsyncEvent,
 * InterruptAcknowledge): a virtual interrupt that its last evaluation recognized (RVI's
 * class above VPPR's, no interrupt-window exiting: vapic.cc,
 * VMX_Evaluate_Pending_Virtual_Interrupts, at the entry and after each virtualized EOI
 * or TPR write) is delivered before the exit, whatever RFLAGS.IF; a CPU exits and leaves
 * it pending until IF is set (30.2.1). Those delivered with IF = 0, counted: the guest
 * takes them nested in a handler that runs with interrupts off. */
static int delivered_with_if0;
static void bochs_host_interrupt(void)
{
	u8 rvi = (u8)vmcs[GUEST_INTERRUPT_STATUS];
	if ((rvi & 0xF0) <= (*vreg(APIC_REG_PPR) & 0xF0) ||
	    (vmcs[CPU_BASED_VM_EXEC_CONTROL] & PROC_INTR_WINDOW_EXITING))
		return;
	delivered_with_if0 += !(vmcs[GUEST_RFLAGS] & X86_RFLAGS_IF);
	vset(APIC_REG_IRR, rvi, false);
	vset(APIC_REG_ISR, rvi, true);
	*vreg(APIC_REG_PPR) = rvi & 0xF0;
	vmcs[GUEST_INTERRUPT_STATUS] = vhighest(APIC_REG_IRR) | (u64)rvi << 8;
}

/* The run of a guest under virtual-interrupt delivery, as x says; an EOI that exits ends
 * it (*x becomes that exit). */
static void run_with_apicv(struct exit *x)
{
	ppr_virtualization(); /* at the entry (26.3.2.5) */
	for (int i = 0; i < x->eois_first; i++) {
		u8 v = (u8)(vmcs[GUEST_INTERRUPT_STATUS] >> 8);
		if (v && eoi_virtualization(v)) {
			*x = (struct exit){ .reason = EXIT_REASON_VIRTUALIZED_EOI, .qual = v };
			return;
		}
	}
	for (int i = 0; i < x->takes; i++) {
		u8 v = deliver_virtual();
		if (v && x->handler_if0)
			vmcs[GUEST_RFLAGS] &= ~(u64)X86_RFLAGS_IF;
		if (!v || x->no_eoi)
			continue;
		if (eoi_virtualization(v)) {
			*x = (struct exit){ .reason = EXIT_REASON_VIRTUALIZED_EOI, .qual = v };
			return;
		}
	}
	if (x->bochs)
		bochs_host_interrupt();
}

#define EXT_INTR(vec) ((u32)(vec) | INTR_TYPE_EXT_INTR | INTR_INFO_VALID)

/* 30.6: posted-interrupt processing of a notification; false if it is no notification
 * for this VMCS (then it makes the run exit). */
static bool posted_interrupt_processing(u8 vector)
{
	if (!(vmcs[PIN_BASED_VM_EXEC_CONTROL] & PIN_POSTED_INTR) || vector != vmcs[POSTED_INTR_NV])
		return false;
	struct vlapic_posted *d = (void *)(uintptr_t)vmcs[POSTED_INTR_DESC_ADDR];
	d->control &= ~VLAPIC_POSTED_ON;
	u8 rvi = (u8)vmcs[GUEST_INTERRUPT_STATUS];
	for (int v = 255; v >= 0; v--)
		if (d->pir[v / 32] & 1u << v % 32) {
			vset(APIC_REG_IRR, (u8)v, true);
			rvi = MAX(rvi, (u8)v);
		}
	memset(d->pir, 0, sizeof d->pir);
	vmcs[GUEST_INTERRUPT_STATUS] = (vmcs[GUEST_INTERRUPT_STATUS] & 0xFF00) | rvi;
	return true;
}

static int host_interrupts, notifications;
static u8 host_vector;
void x86_host_interrupt(u8 vector) { host_interrupts++, host_vector = vector; }
void x86_send_notification(u32 pcpu) { (void)pcpu, notifications++; }

u32 vmx_run(u64 *gpr, u32 launched, u64 *cr2)
{
	(void)gpr, (void)cr2;
	struct entry *e = &entries[nentries++];
	*e = (struct entry){ .event = (u32)vmcs[VM_ENTRY_INTR_INFO],
			     .error = (u32)vmcs[VM_ENTRY_EXCEPTION_ERROR_CODE],
			     .insn_len = (u8)vmcs[VM_ENTRY_INSTRUCTION_LEN],
			     .rip = vmcs[GUEST_RIP],
			     .rflags = vmcs[GUEST_RFLAGS],
			     .rsi = gpr[GPR_RSI],
			     .cr0 = vmcs[GUEST_CR0],
			     .cr0_shadow = vmcs[CR0_READ_SHADOW],
			     .cr4 = vmcs[GUEST_CR4],
			     .efer = vmcs[GUEST_IA32_EFER],
			     .interruptibility = (u32)vmcs[GUEST_INTERRUPTIBILITY_INFO],
			     .proc = (u32)vmcs[CPU_BASED_VM_EXEC_CONTROL],
			     .proc2 = (u32)vmcs[SECONDARY_VM_EXEC_CONTROL],
			     .tpr_threshold = (u32)vmcs[TPR_THRESHOLD],
			     .entry_ctls = (u32)vmcs[VM_ENTRY_CONTROLS],
			     .cs = (u16)vmcs[GUEST_CS_SELECTOR],
			     .ss = (u16)vmcs[GUEST_ES_SELECTOR + 2 * X86_SEG_SS],
			     .cs_ar = (u32)vmcs[GUEST_ES_AR_BYTES + 2 * X86_SEG_CS],
			     .cs_base = vmcs[GUEST_ES_BASE + 2 * X86_SEG_CS],
			     .gdtr = vmcs[GUEST_GDTR_BASE],
			     .intr_status = (u16)vmcs[GUEST_INTERRUPT_STATUS],
			     .preemption_timer = (u32)vmcs[VMX_PREEMPTION_TIMER_VALUE],
			     .msr_bitmap = vmcs[MSR_BITMAP],
			     .launched = launched };
	struct exit *x = &script[nexits++];
	if (x->fail)
		return 1;
	u8 posted = x->posted;
	bool notified = x->notified, no_eoi = x->no_eoi;
	if (vmcs[SECONDARY_VM_EXEC_CONTROL] & PROC2_VIRT_INTR_DELIVERY)
		run_with_apicv(x);
	int sent = notifications;
	if (posted) {
		vlapic_accept(&vcpu.arch.lapic, posted, false);
		vmx_notify(&vcpu, 0);
	}
	if (notified || notifications != sent) {
		if (!posted_interrupt_processing(VEC_NOTIFY)) {
			*x = (struct exit){ .reason = EXIT_REASON_EXTERNAL_INTERRUPT,
					    .intr_info = vmcs[VM_EXIT_CONTROLS] &
									 EXIT_ACK_INTR_ON_EXIT
								 ? EXT_INTR(VEC_NOTIFY)
								 : 0 };
		} else {
			u8 v = deliver_virtual(); /* then the guest takes it */
			if (v && !no_eoi && eoi_virtualization(v))
				*x = (struct exit){ .reason = EXIT_REASON_VIRTUALIZED_EOI,
						    .qual = v };
		}
	}
	vmcs[VM_ENTRY_INTR_INFO] &= ~(u64)INTR_INFO_VALID; /* cleared by every exit (28.2.5) */
	vmcs[VM_EXIT_REASON] = x->reason;
	vmcs[EXIT_QUALIFICATION] = x->qual;
	vmcs[VM_EXIT_INTR_INFO] = x->intr_info;
	vmcs[IDT_VECTORING_INFO] = x->idt_vectoring;
	vmcs[VM_EXIT_INSTRUCTION_LEN] = x->len;
	vmcs[GUEST_INTERRUPTIBILITY_INFO] = x->interruptibility;
	vmcs[GUEST_PHYSICAL_ADDRESS] = x->gpa;
	if (x->rip)
		vmcs[GUEST_RIP] = x->rip;
	if (x->rflags)
		vmcs[GUEST_RFLAGS] = x->rflags;
	if (x->efer)
		vmcs[GUEST_IA32_EFER] = x->efer;
	if (x->cr4)
		vmcs[GUEST_CR4] = x->cr4;
	return 0;
}

/* The guest: vCPU 0 at PVH's 32-bit entry (0x1000), interrupts on, TPR 0; the CPU's fixed
 * bits as Bochs's (CR0.NE, CR4.VMXE owned). */
static void machine(void)
{
	free(vcpu.arch.vmx.vmcs);
	memset(vmcs, 0, sizeof vmcs);
	memset(&vcpu, 0, sizeof vcpu);
	memset(&vm, 0, sizeof vm);
	memset(ram, 0, sizeof ram);
	memset(entries, 0, sizeof entries);
	memset(script, 0, sizeof script);
	memset(&bus, 0, sizeof bus);
	nentries = nexits = bad_accesses = stops = invvpids = spin_exits = 0;
	watch_spin = false;
	caps.pause_loop = caps.pause_exiting = false;
	apicv = false;
	ctls[VMX_PROC2] = 0;
	caps.vpid = true;
	caps.invvpid = BIT(VMX_INV_SINGLE);
	cr0_owned = BIT(5);
	cr4_owned = X86_CR4_VMXE;
	ctls[VMX_PROC] = PROC_INTR_WINDOW_EXITING | PROC_HLT_EXITING | PROC_TPR_SHADOW |
			 PROC_NMI_WINDOW_EXITING | PROC_USE_IO_BITMAPS | PROC_USE_MSR_BITMAPS;
	ctls[VMX_ENTRY] = ENTRY_IA32E_MODE_GUEST | ENTRY_LOAD_EFER;
	vm.ram = ram;
	vm.ram_size = sizeof ram;
	vm.nvcpus = 1;
	vcpu.vm = &vm;
	vm.vcpus[0] = &vcpu;
	vmx_vcpu_init(&vcpu, &(struct x86_boot){ .entry = 0x1000 });
	vlapic_init(&vcpu.arch.lapic, apic_page, 0, true, 48, arch_time_hz, &no_ops, &vcpu);
	vlapic_wrmsr(&vcpu.arch.lapic, MSR_IA32_APIC_BASE,
		     APIC_DEFAULT_BASE | APIC_BASE_EN | APIC_BASE_EXTD, 0); /* as Linux */
	VLAPIC_REG(&vcpu.arch.lapic, APIC_REG_SVR) = 0x1ff;
	write_controls(&vcpu);
	vcpu.arch.vmx.regs.rflags = 0x202; /* IF */
}

/* Runs the vCPU through the exits given, then a host interrupt. */
static enum run_result run(int n, ...)
{
	va_list ap;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		script[i] = va_arg(ap, struct exit);
	va_end(ap);
	script[n] = (struct exit){ .reason = EXIT_REASON_EXTERNAL_INTERRUPT };
	nentries = nexits = 0;
	return arch_vcpu_run(&vcpu);
}

#define EXIT(...) ((struct exit){ __VA_ARGS__ })
#define HW_EXC(vec) ((u32)(vec) | INTR_TYPE_HW_EXCEPTION | INTR_INFO_VALID)
#define GP_EVENT (HW_EXC(13) | INTR_INFO_HAS_ERROR)

/* The start states as written into the VMCS at the first entry: PVH's flat 32-bit mode
 * (CR0 PE|ET as the guest sees it, NE too as it is), the 64-bit boot protocol's long mode
 * (EFER.LME|LMA with the IA-32e control, the boot GDT, RSI), and after INIT and STARTUP
 * real mode at the vector's page; the accessors give the new state before that entry.
 * DR6 as at reset, whatever the last vCPU on the pCPU left there (table 10-1). */
static void test_start_states(void)
{
	machine();
	dr6 = 0xFFFF6FF5;
	CHECK_EQ(run(0), RUN_PREEMPTED);
	CHECK_EQ(dr6, 0xFFFF0FF0);
	CHECK_EQ(entries[0].rip, 0x1000);
	CHECK_EQ(entries[0].cs, 0x10);
	CHECK_EQ(entries[0].ss, 0x18);
	CHECK_EQ(entries[0].cs_ar, 0xC09B); /* G, D/B, present code (25.4.1) */
	CHECK_EQ(entries[0].cr0_shadow, 0x11);
	CHECK_EQ(entries[0].cr0, 0x31);
	CHECK_EQ(entries[0].efer, 0);
	CHECK_EQ(entries[0].entry_ctls & ENTRY_IA32E_MODE_GUEST, 0);
	CHECK_EQ(vmcs[VMCS_LINK_POINTER], ~0ull);
	CHECK(!entries[0].launched);
	run(0);
	CHECK(entries[0].launched); /* VMRESUME from the second entry on */

	machine();
	free(vcpu.arch.vmx.vmcs);
	vmx_vcpu_init(&vcpu,
		      &(struct x86_boot){
			      .long_mode = true, .entry = 0x2000, .arg = 0x7000, .cr3 = 0x9000 });
	run(0);
	CHECK_EQ(entries[0].efer, EFER_LME | EFER_LMA);
	CHECK(entries[0].entry_ctls & ENTRY_IA32E_MODE_GUEST);
	CHECK_EQ(entries[0].cs_ar, 0xA09B); /* G, L */
	CHECK_EQ(entries[0].gdtr, GPA_BOOT_GDT);
	CHECK_EQ(entries[0].rsi, 0x7000);
	CHECK_EQ(entries[0].cr4, X86_CR4_PAE | X86_CR4_VMXE);
	CHECK_EQ(x86_guest_mode(&vcpu), 64);

	/* A STARTUP to page 9A: real mode at 9A00:0000, the IA-32e control off again. */
	vmx_vcpu_reset(&vcpu, 0x9a00, 0x9a000, 0);
	CHECK_EQ(x86_get(&vcpu, X86_CR0), 0x10);
	CHECK_EQ(x86_get(&vcpu, X86_RIP), 0);
	CHECK_EQ(x86_guest_mode(&vcpu), 16);
	run(0);
	CHECK_EQ(entries[0].rip, 0);
	CHECK_EQ(entries[0].cs, 0x9a00);
	CHECK_EQ(entries[0].cs_base, 0x9a000);
	CHECK_EQ(entries[0].cs_ar, 0x9B);
	CHECK_EQ(entries[0].cr0_shadow, 0x10);
	CHECK_EQ(entries[0].cr0, 0x30);
	CHECK_EQ(entries[0].efer, 0);
	CHECK_EQ(entries[0].entry_ctls & ENTRY_IA32E_MODE_GUEST, 0);
}

/* Instruction exits: RIP moves by the length the CPU gives and an STI shadow ends; port
 * I/O from the qualification (OUT of AL, IN of a dword: all-ones from nowhere; INS: #GP);
 * WRMSR/RDMSR by the exit reason; an MMIO store and a read-modify-write through an EPT
 * violation, decoded. */
static void test_instruction_exits(void)
{
	machine();
	vcpu.arch.gpr[GPR_RAX] = 0x41;
	run(2, EXIT(.reason = EXIT_REASON_IO_INSTRUCTION, .qual = 0x80ull << 16, .len = 1),
	    EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .interruptibility = INTERRUPTIBILITY_STI));
	CHECK(bus.write);
	CHECK_EQ(bus.addr, 0x80);
	CHECK_EQ(bus.size, 1);
	CHECK_EQ(bus.val, 0x41);
	CHECK_EQ(entries[1].rip, 0x1001);
	CHECK_EQ(entries[2].rip, 0x1003);
	CHECK_EQ(entries[2].interruptibility, 0);

	run(1, EXIT(.reason = EXIT_REASON_IO_INSTRUCTION, .qual = 0x608ull << 16 | 3 | BIT(3),
		    .len = 1));
	CHECK(!bus.write);
	CHECK_EQ(bus.size, 4);
	CHECK_EQ(vcpu.arch.gpr[GPR_RAX], 0xffffffffull);
	run(1, EXIT(.reason = EXIT_REASON_IO_INSTRUCTION, .qual = 0x608ull << 16 | BIT(3) | BIT(4),
		    .len = 1));
	CHECK_EQ(entries[1].event, GP_EVENT);
	CHECK_EQ(entries[1].rip, 0x1004);

	machine();
	vcpu.arch.gpr[GPR_RCX] = 0x808; /* the x2APIC TPR */
	vcpu.arch.gpr[GPR_RAX] = 0x20;
	run(2, EXIT(.reason = EXIT_REASON_WRMSR, .len = 2),
	    EXIT(.reason = EXIT_REASON_RDMSR, .len = 2));
	CHECK_EQ(vlapic_tpr(&vcpu.arch.lapic), 0x20);
	CHECK_EQ(vcpu.arch.gpr[GPR_RAX], 0x20);
	CHECK_EQ(entries[2].rip, 0x1004);

	/* mov [0xfec00000], eax (A3 moffs32) */
	machine();
	memcpy(ram + 0x1000, "\xa3\x00\x00\xc0\xfe", 5);
	vcpu.arch.gpr[GPR_RAX] = 0x12345678;
	run(1, EXIT(.reason = EXIT_REASON_EPT_VIOLATION, .qual = BIT(1), .gpa = 0xfec00000));
	CHECK_EQ(bus.n, 1);
	CHECK(bus.write);
	CHECK_EQ(bus.addr, 0xfec00000);
	CHECK_EQ(bus.val, 0x12345678);
	CHECK_EQ(entries[1].rip, 0x1005);
	/* orl $1,0xfed00010, where no device is: read, written back; RFLAGS' status flags
	 * as the OR leaves them (SF, PF), the others kept */
	memcpy(ram + 0x1005, "\x83\x0d\x10\x00\xd0\xfe\x01", 7);
	vmcs[GUEST_RFLAGS] = 0x202 | X86_RFLAGS_CF | X86_RFLAGS_ZF;
	bus.n = 0;
	run(1,
	    EXIT(.reason = EXIT_REASON_EPT_VIOLATION, .qual = BIT(0) | BIT(1), .gpa = 0xfed00010));
	CHECK_EQ(bus.n, 2);
	CHECK(bus.write);
	CHECK_EQ(bus.val, 0xffffffff);
	CHECK_EQ(entries[1].rip, 0x100c);
	CHECK_EQ(entries[1].rflags, 0x202 | X86_RFLAGS_SF | X86_RFLAGS_PF);

	/* HLT halts the vCPU, past the instruction. */
	machine();
	CHECK_EQ(run(1, EXIT(.reason = EXIT_REASON_HLT, .len = 1)), RUN_HALTED);
	CHECK_EQ(x86_get(&vcpu, X86_RIP), 0x1001);
}

/* Interrupts: injected when the guest can take them, else the interrupt window; held back
 * by the TPR alone, the TPR threshold is that interrupt's class (a CR8 write below it
 * exits). An event whose delivery the exit cut short is delivered again, a software
 * interrupt with its instruction's length. */
static void test_interrupts(void)
{
	machine();
	vlapic_accept(&vcpu.arch.lapic, 0x40, false);
	run(0);
	CHECK_EQ(entries[0].event, EXT_INTR(0x40));
	CHECK_EQ(vcpu.stats.irqs_injected, 1);

	machine();
	vcpu.arch.vmx.regs.rflags = 0x2;
	vlapic_accept(&vcpu.arch.lapic, 0x40, false);
	run(1, EXIT(.reason = EXIT_REASON_INTERRUPT_WINDOW, .rflags = 0x202));
	CHECK_EQ(entries[0].event, 0);
	CHECK(entries[0].proc & PROC_INTR_WINDOW_EXITING);
	CHECK_EQ(entries[1].event, EXT_INTR(0x40));
	CHECK(!(entries[1].proc & PROC_INTR_WINDOW_EXITING));

	machine();
	vlapic_set_tpr(&vcpu.arch.lapic, 0x60);
	vlapic_accept(&vcpu.arch.lapic, 0x50, false);
	run(0);
	CHECK_EQ(entries[0].event, 0);
	CHECK_EQ(entries[0].tpr_threshold, 5);
	CHECK(!(entries[0].proc & PROC_INTR_WINDOW_EXITING));

	machine();
	run(1, EXIT(.reason = EXIT_REASON_EXTERNAL_INTERRUPT, .idt_vectoring = EXT_INTR(0x41)));
	CHECK_EQ(vlapic_pending_vector(&vcpu.arch.lapic), -1); /* not back to pending */
	run(0);
	CHECK_EQ(entries[0].event, EXT_INTR(0x41));
	machine();
	run(1, EXIT(.reason = EXIT_REASON_CPUID, .len = 2,
		    .idt_vectoring = 0x80 | INTR_TYPE_SW_INTR | INTR_INFO_VALID));
	CHECK_EQ(entries[1].event, 0x80 | INTR_TYPE_SW_INTR | INTR_INFO_VALID);
	CHECK_EQ(entries[1].insn_len, 2);
}

/* NMIs with virtual NMIs: blocked (by an NMI not yet IRETed), the NMI window; its exit
 * then injects it. */
static void test_nmi_window(void)
{
	machine();
	vcpu.arch.vmx.regs.interruptibility = INTERRUPTIBILITY_NMI;
	vcpu.arch.nmi_pending = true;
	run(1, EXIT(.reason = EXIT_REASON_NMI_WINDOW));
	CHECK_EQ(entries[0].event, 0);
	CHECK(entries[0].proc & PROC_NMI_WINDOW_EXITING);
	CHECK_EQ(entries[1].event, VEC_NMI | INTR_TYPE_NMI | INTR_INFO_VALID);
	CHECK(!(entries[1].proc & PROC_NMI_WINDOW_EXITING));
	CHECK_EQ(vcpu.stats.nmis_injected, 1);
	CHECK(!vcpu.arch.nmi_pending);

	/* An interrupt waiting beside the NMI: its window follows the NMI's injection. */
	machine();
	vcpu.arch.nmi_pending = true;
	vlapic_accept(&vcpu.arch.lapic, 0x44, false);
	run(0);
	CHECK_EQ(entries[0].event, VEC_NMI | INTR_TYPE_NMI | INTR_INFO_VALID);
	CHECK(entries[0].proc & PROC_INTR_WINDOW_EXITING);
}

/* MOV to CR0 of a bit VMX owns (NE) exits and is emulated: the guest reads what it wrote,
 * the CPU runs with NE; turning paging on with EFER.LME enters IA-32e mode (LMA, the
 * entry control). MOV to CR4 with VMXE and PG without PE: #GP, RIP kept. */
static void test_cr_writes(void)
{
	machine();
	vcpu.arch.gpr[GPR_RAX] = 0x80000031;
	vcpu.arch.gpr[GPR_RCX] = X86_CR4_PAE | X86_CR4_VMXE;
	/* the guest has set EFER.LME and CR4.PAE */
	run(2,
	    EXIT(.reason = EXIT_REASON_TPR_BELOW_THRESHOLD, .efer = EFER_LME,
		 .cr4 = X86_CR4_PAE | X86_CR4_VMXE),
	    EXIT(.reason = EXIT_REASON_CR_ACCESS, .qual = 0, .len = 3));
	CHECK_EQ(entries[2].cr0_shadow, 0x80000031);
	CHECK_EQ(entries[2].cr0, 0x80000031);
	CHECK_EQ(x86_get(&vcpu, X86_CR0), 0x80000031);
	CHECK_EQ(entries[2].efer, EFER_LME | EFER_LMA);
	CHECK(entries[2].entry_ctls & ENTRY_IA32E_MODE_GUEST);
	CHECK_EQ(entries[2].rip, 0x1003);

	run(1, EXIT(.reason = EXIT_REASON_CR_ACCESS, .qual = 4 | 1 << 8, .len = 3));
	CHECK_EQ(entries[1].event, GP_EVENT);
	CHECK_EQ(entries[1].rip, 0x1003);
	CHECK(entries[1].rflags & X86_RFLAGS_RF); /* a fault: RF in the RFLAGS it pushes */

	/* Paging off in 64-bit code: #GP (in compatibility mode it leaves IA-32e mode). */
	vmcs[GUEST_ES_AR_BYTES + 2 * X86_SEG_CS] = 0xA09B;
	vcpu.arch.gpr[GPR_RAX] = 0x31;
	run(1, EXIT(.reason = EXIT_REASON_CR_ACCESS, .qual = 0, .len = 3));
	CHECK_EQ(entries[1].event, GP_EVENT);
	CHECK_EQ(entries[1].cr0_shadow, 0x80000031);

	machine();
	vcpu.arch.gpr[GPR_RDX] = 0x80000000;
	run(1, EXIT(.reason = EXIT_REASON_CR_ACCESS, .qual = 2 << 8, .len = 3));
	CHECK_EQ(entries[1].event, GP_EVENT);
	CHECK_EQ(entries[1].cr0_shadow, 0x11);
}

/* A legacy PAE guest (no long mode): the emulated CR0 write that turns paging on loads the
 * PDPTEs at CR3 into the VMCS (an entry takes them from there); one with a reserved bit,
 * or CR3 outside RAM, is #GP and paging stays off. A CR3 write (exiting without the TRUE
 * controls) loads them too; in long mode nothing is loaded. */
static void test_pae_pdptes(void)
{
	const u64 pdptes[4] = { 0x5001, 0, 0x6001, 0x7000 };
	machine();
	memcpy(ram + 0x3000, pdptes, sizeof pdptes);
	vcpu.arch.vmx.regs.cr3 = 0x3000; /* the start state's */
	vcpu.arch.gpr[GPR_RAX] = 0x80000031;
	run(2, EXIT(.reason = EXIT_REASON_TPR_BELOW_THRESHOLD, .cr4 = X86_CR4_PAE | X86_CR4_VMXE),
	    EXIT(.reason = EXIT_REASON_CR_ACCESS, .qual = 0, .len = 3));
	CHECK_EQ(entries[2].event, 0);
	CHECK_EQ(entries[2].cr0_shadow, 0x80000031);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(vmcs[GUEST_PDPTE0 + 2 * i], pdptes[i]);

	machine();
	memcpy(ram + 0x3000, pdptes, sizeof pdptes);
	((u64 *)(ram + 0x3000))[2] |= BIT(1); /* reserved */
	vcpu.arch.vmx.regs.cr3 = 0x3000;
	vcpu.arch.gpr[GPR_RAX] = 0x80000031;
	run(2, EXIT(.reason = EXIT_REASON_TPR_BELOW_THRESHOLD, .cr4 = X86_CR4_PAE | X86_CR4_VMXE),
	    EXIT(.reason = EXIT_REASON_CR_ACCESS, .qual = 0, .len = 3));
	CHECK_EQ(entries[2].event, GP_EVENT);
	CHECK_EQ(entries[2].cr0_shadow, 0x11);
	CHECK_EQ(vmcs[GUEST_PDPTE0 + 4], 0);

	/* CR3 outside RAM: #GP. Then in PAE paging, a CR3 write loads the new table. */
	vmcs[GUEST_CR3] = 0x80000000;
	run(1, EXIT(.reason = EXIT_REASON_CR_ACCESS, .qual = 0, .len = 3));
	CHECK_EQ(entries[1].event, GP_EVENT);
	((u64 *)(ram + 0x3000))[2] &= ~BIT(1);
	vmcs[GUEST_CR3] = 0x3000;
	run(1, EXIT(.reason = EXIT_REASON_CR_ACCESS, .qual = 0, .len = 3));
	CHECK_EQ(entries[1].event, 0);
	memcpy(ram + 0x4000, pdptes + 2, 2 * sizeof(u64));
	vcpu.arch.gpr[GPR_RBX] = 0x4000;
	run(1, EXIT(.reason = EXIT_REASON_CR_ACCESS, .qual = 3 | 3 << 8, .len = 3));
	CHECK_EQ(entries[1].event, 0);
	CHECK_EQ(vmcs[GUEST_PDPTE0], 0x6001);
	CHECK_EQ(vmcs[GUEST_PDPTE0 + 2], 0x7000);

	/* A present PDPTE with a bit above MAXPHYADDR (36 here) or in 62:52: #GP, not an entry
	 * that fails on the VMCS's PDPTE checks. */
	for (int bit = 40; bit <= 55; bit += 15) {
		machine();
		memcpy(ram + 0x3000, pdptes, sizeof pdptes);
		((u64 *)(ram + 0x3000))[0] |= 1ull << bit;
		vcpu.arch.vmx.regs.cr3 = 0x3000;
		vcpu.arch.gpr[GPR_RAX] = 0x80000031;
		run(2,
		    EXIT(.reason = EXIT_REASON_TPR_BELOW_THRESHOLD,
			 .cr4 = X86_CR4_PAE | X86_CR4_VMXE),
		    EXIT(.reason = EXIT_REASON_CR_ACCESS, .qual = 0, .len = 3));
		CHECK_EQ(entries[2].event, GP_EVENT);
	}

	/* Long mode (EFER.LME): the CR0 write enters IA-32e mode, no PDPTE is loaded. */
	machine();
	vcpu.arch.vmx.regs.cr3 = 0x3000;
	((u64 *)(ram + 0x3000))[0] = 0x5001;
	vcpu.arch.gpr[GPR_RAX] = 0x80000031;
	run(2,
	    EXIT(.reason = EXIT_REASON_TPR_BELOW_THRESHOLD, .efer = EFER_LME,
		 .cr4 = X86_CR4_PAE | X86_CR4_VMXE),
	    EXIT(.reason = EXIT_REASON_CR_ACCESS, .qual = 0, .len = 3));
	CHECK_EQ(entries[2].event, 0);
	CHECK_EQ(vmcs[GUEST_PDPTE0], 0);
}

/* An intercepted #AC goes back to the guest (error code 0); an interrupt whose delivery
 * it interrupted goes back to pending and follows. */
static void test_ac_reflected(void)
{
	machine();
	run(2,
	    EXIT(.reason = EXIT_REASON_EXCEPTION_NMI,
		 .intr_info = HW_EXC(VEC_AC) | INTR_INFO_HAS_ERROR,
		 .idt_vectoring = EXT_INTR(0x42)),
	    EXIT(.reason = EXIT_REASON_CPUID, .len = 2));
	CHECK_EQ(entries[1].event, HW_EXC(VEC_AC) | INTR_INFO_HAS_ERROR);
	CHECK_EQ(entries[1].error, 0);
	CHECK_EQ(entries[2].event, EXT_INTR(0x42));
}

/* A #DB the CPU raised (a data breakpoint, B1 in the qualification) goes back with B1 in
 * DR6 and BS, set before, still set (kvm-unit-tests' debug, "hw watchpoint (test that
 * dr6.BS is not cleared)"). */
static void test_db_reflected(void)
{
	machine();
	run(0); /* the start state, with DR6's */
	dr6 = 0xFFFF4FF0;
	run(1, EXIT(.reason = EXIT_REASON_EXCEPTION_NMI, .intr_info = HW_EXC(VEC_DB), .qual = 2));
	CHECK_EQ(entries[1].event, HW_EXC(VEC_DB));
	CHECK_EQ(dr6, 0xFFFF4FF2);
}

/* Single-stepping (RFLAGS.TF) over instructions done in the guest's place: after a CPUID
 * and a MOV to CR4 (vmx.c's) a #DB goes in, DR6.BS set, B0-B3 cleared; an MMIO store
 * through an EPT violation, whose exit saves RF as 1, leaves RF clear; without TF no
 * #DB. */
static void test_singlestep(void)
{
	const u64 tf = 0x202 | X86_RFLAGS_TF;
	machine();
	run(0);
	dr6 = 0xFFFF0FF3;
	run(1, EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .rflags = tf));
	CHECK_EQ(entries[1].event, HW_EXC(VEC_DB));
	CHECK_EQ(entries[1].rip, 0x1002);
	CHECK_EQ(dr6, 0xFFFF4FF0);
	vcpu.arch.gpr[GPR_RAX] = vcpu.arch.vmx.regs.cr4;
	run(1, EXIT(.reason = EXIT_REASON_CR_ACCESS, .qual = 4, .len = 3, .rflags = tf));
	CHECK_EQ(entries[1].event, HW_EXC(VEC_DB));
	CHECK_EQ(entries[1].rip, 0x1005);

	/* mov [0xfec00000], eax (A3 moffs32) */
	machine();
	memcpy(ram + 0x1000, "\xa3\x00\x00\xc0\xfe", 5);
	run(1, EXIT(.reason = EXIT_REASON_EPT_VIOLATION, .qual = BIT(1), .gpa = 0xfec00000,
		    .rflags = 0x202 | X86_RFLAGS_RF));
	CHECK_EQ(entries[1].rip, 0x1005);
	CHECK_EQ(entries[1].rflags, 0x202);
	CHECK_EQ(entries[1].event, 0);
}

/* Spin detection: while the scheduler watches, PAUSE-loop exiting where the CPU has it,
 * else PAUSE exiting; the exit (RIP kept: the PAUSE runs at the next entry) goes to the
 * scheduler's directed yield. Not watched, neither. */
static void test_spin_watch(void)
{
	machine();
	caps.pause_loop = caps.pause_exiting = true;
	run(0);
	CHECK(!(entries[0].proc2 & PROC2_PAUSE_LOOP_EXITING));
	CHECK(!(entries[0].proc & PROC_PAUSE_EXITING));
	watch_spin = true;
	run(1, EXIT(.reason = EXIT_REASON_PAUSE, .len = 2));
	CHECK(entries[0].proc2 & PROC2_PAUSE_LOOP_EXITING);
	CHECK(!(entries[0].proc & PROC_PAUSE_EXITING));
	CHECK_EQ(spin_exits, 1);
	CHECK_EQ(entries[1].rip, 0x1000);
	caps.pause_loop = false;
	run(0);
	CHECK(!(entries[0].proc2 & PROC2_PAUSE_LOOP_EXITING));
	CHECK(entries[0].proc & PROC_PAUSE_EXITING);
}

/* RDTSCP/RDPID and INVPCID hidden from guests where the CPU cannot enable them in VMX
 * non-root operation, shown where it can. */
static void test_cpuid_filter(void)
{
	u32 r[4] = { ~0u, ~0u, ~0u, ~0u };
	ctls[VMX_PROC2] = PROC2_ENABLE_EPT;
	vmx_cpuid_filter(0x80000001, 0, r);
	CHECK_EQ(r[3], (u32)~BIT(27));
	memset(r, 0xFF, sizeof r);
	vmx_cpuid_filter(7, 0, r);
	CHECK_EQ(r[1], (u32)~BIT(10));
	CHECK_EQ(r[2], (u32)~BIT(22));
	ctls[VMX_PROC2] |= PROC2_ENABLE_RDTSCP | PROC2_ENABLE_INVPCID;
	memset(r, 0xFF, sizeof r);
	vmx_cpuid_filter(7, 0, r);
	vmx_cpuid_filter(0x80000001, 0, r);
	CHECK_EQ(r[0] & r[1] & r[2] & r[3], ~0u);
}

/* Review findings: an NMI whose delivery an exit cut short is injected again with NMI
 * blocking lifted (an entry injecting an NMI with it set fails); an exception from a
 * handler (INS: #GP) goes first, the interrupt it cut short goes back to the vLAPIC and
 * the window follows. */
static void test_review_findings(void)
{
	machine();
	run(1, EXIT(.reason = EXIT_REASON_TPR_BELOW_THRESHOLD,
		    .idt_vectoring = VEC_NMI | INTR_TYPE_NMI | INTR_INFO_VALID,
		    .interruptibility = INTERRUPTIBILITY_NMI));
	CHECK_EQ(entries[1].event, VEC_NMI | INTR_TYPE_NMI | INTR_INFO_VALID);
	CHECK_EQ(entries[1].interruptibility & INTERRUPTIBILITY_NMI, 0);

	machine();
	run(1, EXIT(.reason = EXIT_REASON_IO_INSTRUCTION, .qual = 0x608ull << 16 | BIT(3) | BIT(4),
		    .len = 1, .idt_vectoring = EXT_INTR(0x43)));
	CHECK_EQ(entries[1].event, GP_EVENT);
	CHECK(entries[1].proc & PROC_INTR_WINDOW_EXITING);
	CHECK_EQ(vlapic_pending_vector(&vcpu.arch.lapic), 0x43);
}

/* A failed entry (VMfail, or an exit with bit 31: the guest state) stops the VM. */
static void test_entry_failures(void)
{
	machine();
	CHECK_EQ(run(1, EXIT(.fail = true)), RUN_PREEMPTED);
	CHECK_EQ(stops, 1);
	machine();
	CHECK_EQ(run(1, EXIT(.reason = VMX_EXIT_ENTRY_FAILURE | EXIT_REASON_INVALID_GUEST_STATE)),
		 RUN_PREEMPTED);
	CHECK_EQ(stops, 1);
	CHECK_EQ(nexits, 1);
}

/* ---- APIC virtualization (vmx_apicv.h) ---- */

static int level_eois;
static u8 level_eoi_vector;
static void count_level_eoi(void *ctx, u8 vector)
{
	(void)ctx, level_eois++, level_eoi_vector = vector;
}
static const struct vlapic_ops apicv_ops = { .eoi_level = count_level_eoi };

/* The machine on a CPU with the three APICv controls (Bochs's corei7_skylake_x). */
static void machine_apicv(void)
{
	machine();
	ctls[VMX_PROC2] = PROC2_ENABLE_EPT | PROC2_APICV;
	apicv = (ctls[VMX_PROC] & PROC_TPR_SHADOW) &&
		(ctls[VMX_PROC2] & PROC2_APICV) == PROC2_APICV;
	if (!msr_bitmap) { /* vmx_vm_init's bitmaps, once */
		vm.ram_size = 0;
		vmx_vm_init(&vm);
		free((void *)(uintptr_t)(vm.arch.vmx.eptp & ~0xFFFull)); /* no EPT here */
		vm.ram_size = sizeof ram;
	}
	vlapic_init(&vcpu.arch.lapic, apic_page, 0, true, 48, arch_time_hz, &apicv_ops, &vcpu);
	vlapic_wrmsr(&vcpu.arch.lapic, MSR_IA32_APIC_BASE,
		     APIC_DEFAULT_BASE | APIC_BASE_EN | APIC_BASE_EXTD, 0); /* as Linux */
	VLAPIC_REG(&vcpu.arch.lapic, APIC_REG_SVR) = 0x1ff;
	vcpu.arch.lapic.cpu_delivers = vcpu.arch.lapic.posted_requests = apicv;
	level_eois = level_eoi_vector = 0;
	write_controls(&vcpu);
}

/* Whether an access to msr exits under the bitmap (25.6.9). */
static bool bitmap_exits(const u8 *bitmap, u32 msr, bool write)
{
	return bitmap[(write ? 2048 : 0) + msr / 8] & 1u << msr % 8;
}

/* The controls: virtual-interrupt delivery always, x2APIC virtualization and register
 * virtualization while the guest's APIC is in x2APIC mode, each with its MSR bitmap: the
 * registers the page holds as read pass (ESR too: the page has what a read returns), the
 * ICR, the timer's count and the write-only ones exit; only TPR and EOI writes pass. No TPR
 * threshold. */
static void test_apicv_controls(void)
{
	machine_apicv();
	CHECK(vcpu.arch.lapic.cpu_delivers);
	vlapic_set_tpr(&vcpu.arch.lapic, 0x60);
	vlapic_accept(&vcpu.arch.lapic, 0x50, false);
	run(0);
	CHECK_EQ(entries[0].proc2 & PROC2_APICV, PROC2_APICV);
	CHECK_EQ(entries[0].msr_bitmap, (u64)(uintptr_t)msr_bitmap_x2apic);
	CHECK_EQ(entries[0].tpr_threshold, 0);
	const u8 *b = msr_bitmap_x2apic;
	for (u32 msr = 0x802; msr <= 0x80F; msr++)
		CHECK_EQ(bitmap_exits(b, msr, false),
			 msr == 0x809 || msr == 0x80B || msr == 0x80C || msr == 0x80E ||
				 msr == 0x804 || msr == 0x805 || msr == 0x806 || msr == 0x807);
	for (u32 msr = 0x810; msr <= 0x827; msr++)
		CHECK(!bitmap_exits(b, msr, false)); /* ISR, TMR, IRR */
	CHECK(!bitmap_exits(b, 0x828, false));	     /* ESR */
	CHECK(!bitmap_exits(b, 0x82F, false));	     /* LVT CMCI */
	CHECK(bitmap_exits(b, 0x830, false));	     /* ICR: 64 bits at 0x300 for the CPU */
	for (u32 msr = 0x832; msr <= 0x838; msr++)
		CHECK(!bitmap_exits(b, msr, false)); /* LVTs, initial count */
	CHECK(bitmap_exits(b, 0x839, false));	     /* current count */
	CHECK(!bitmap_exits(b, 0x83E, false));	     /* divide configuration */
	CHECK(bitmap_exits(b, 0x83F, false));	     /* SELF IPI: write-only */
	for (u32 msr = 0x800; msr <= 0x8FF; msr++)
		CHECK_EQ(!bitmap_exits(b, msr, true), msr == 0x808 || msr == 0x80B);
	for (u32 msr = 0x800; msr <= 0x8FF; msr++)
		CHECK(bitmap_exits(msr_bitmap, msr, false) && bitmap_exits(msr_bitmap, msr, true));

	/* The guest's APIC leaves x2APIC mode: every x2APIC MSR exits (and #GPs). */
	vcpu.arch.lapic.apic_base &= ~(u64)APIC_BASE_EXTD;
	run(0);
	CHECK_EQ(entries[0].proc2 & PROC2_APICV, PROC2_VIRT_INTR_DELIVERY);
	CHECK_EQ(entries[0].msr_bitmap, (u64)(uintptr_t)msr_bitmap);
	vcpu.arch.lapic.apic_base |= APIC_BASE_EXTD;
	run(0);
	CHECK_EQ(entries[0].msr_bitmap, (u64)(uintptr_t)msr_bitmap_x2apic);

	/* A CPU without one of them: none, the TPR threshold as before. */
	machine();
	ctls[VMX_PROC2] = PROC2_ENABLE_EPT | PROC2_VIRT_X2APIC_MODE | PROC2_VIRT_INTR_DELIVERY;
	write_controls(&vcpu);
	vlapic_set_tpr(&vcpu.arch.lapic, 0x60);
	vlapic_accept(&vcpu.arch.lapic, 0x50, false);
	run(0);
	CHECK_EQ(entries[0].proc2 & PROC2_APICV, 0);
	CHECK_EQ(entries[0].tpr_threshold, 5);
}

/* Delivery: a request from another CPU waits in the PIR (the IRR is the CPU's while the
 * guest runs), goes to the IRR and RVI at the entry, and the CPU delivers it: no event
 * injected, no window, counted as delivered and its EOI as virtual. The TPR holds a vector
 * back (not delivered, not counted); SVI says what is in service. */
static void test_apicv_delivery(void)
{
	machine_apicv();
	struct vlapic *l = &vcpu.arch.lapic;
	vlapic_accept(l, 0x41, false);
	CHECK_EQ(VLAPIC_VEC_WORD(l, APIC_REG_IRR, 2), 0);
	CHECK_EQ(l->posted.pir[2], 2);
	CHECK_EQ(vlapic_pending_vector(l), 0x41);
	run(1, EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .takes = 1));
	CHECK_EQ(entries[0].intr_status, 0x41);
	CHECK_EQ(entries[0].event, 0);
	CHECK(!(entries[0].proc & PROC_INTR_WINDOW_EXITING));
	CHECK_EQ(l->posted.pir[2], 0);
	CHECK_EQ(VLAPIC_VEC_WORD(l, APIC_REG_IRR, 2), 0);
	CHECK_EQ(vcpu.stats.irqs_cpu_delivered, 1);
	CHECK_EQ(vcpu.stats.virtual_eois, 1);
	CHECK_EQ(vcpu.stats.irqs_injected, 0);

	/* Interrupts off: not delivered; the window exits first (the CPU would take it when
	 * IF is set again, 30.2.1, but Bochs 2.7 takes it at a host interrupt). */
	machine_apicv();
	vmcs[GUEST_RFLAGS] = 0x2;
	vcpu.arch.vmx.regs.rflags = 0x2;
	vlapic_accept(l, 0x41, false);
	run(2, EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .takes = 1),
	    EXIT(.reason = EXIT_REASON_INTERRUPT_WINDOW, .rflags = 0x202));
	CHECK(entries[0].proc & PROC_INTR_WINDOW_EXITING);
	CHECK_EQ(vcpu.stats.irqs_cpu_delivered, 0);
	CHECK(!(entries[2].proc & PROC_INTR_WINDOW_EXITING));
	CHECK_EQ(entries[2].intr_status, 0x41);
	vmcs[GUEST_RFLAGS] = 0x2;
	vcpu.arch.vmx.regs.rflags = 0x2;
	CHECK_EQ(vlapic_pending_vector(l), 0x41); /* pending, for when IF is set */
	CHECK_EQ(VLAPIC_VEC_WORD(l, APIC_REG_IRR, 2), 2);

	/* The TPR: 0x50 holds 0x41 back; in service 0x61 (SVI), then 0x71 delivered and left
	 * in service (no EOI yet). */
	machine_apicv();
	vmcs[GUEST_RFLAGS] = 0x202;
	vlapic_set_tpr(l, 0x50);
	vlapic_accept(l, 0x41, false);
	run(1, EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .takes = 1));
	CHECK_EQ(vcpu.stats.irqs_cpu_delivered, 0);
	CHECK_EQ(*vreg(APIC_REG_PPR), 0x50);
	vlapic_set_tpr(l, 0);
	vlapic_accept(l, 0x61, false);
	run(1, EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .takes = 1, .no_eoi = true));
	CHECK_EQ(vcpu.stats.irqs_cpu_delivered, 1);
	CHECK_EQ(vcpu.stats.virtual_eois, 0);
	CHECK(vlapic_test_vec(l, APIC_REG_ISR, 0x61));
	CHECK(vlapic_test_vec(l, APIC_REG_IRR, 0x41));
	vlapic_accept(l, 0x71, false);
	run(1, EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .takes = 2));
	CHECK_EQ(entries[0].intr_status, 0x6171);
	/* 0x71 taken and EOIed; 0x61 in service holds 0x41 back. 0x41 waits in the IRR:
	 * the EOIs of the run exit (test_apicv_bochs_eoi). */
	CHECK_EQ(vcpu.stats.irqs_cpu_delivered, 2);
	CHECK_EQ(vcpu.stats.virtual_eois, 0);
	CHECK_EQ(entries[1].intr_status, 0x6141);
	/* 0x61's EOI (it exits) lets 0x41 in, at the next entry; its EOI does not exit */
	run(2, EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .eois_first = 1),
	    EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .takes = 1));
	CHECK_EQ(entries[1].intr_status, 0x41);
	CHECK_EQ(vcpu.stats.irqs_cpu_delivered, 3);
	CHECK_EQ(vcpu.stats.virtual_eois, 1);
	CHECK_EQ(entries[2].intr_status, 0);

	/* A SELF IPI write exits: posted like any request, delivered by the CPU at the next
	 * entry. */
	machine_apicv();
	vcpu.arch.gpr[GPR_RCX] = 0x83F;
	vcpu.arch.gpr[GPR_RAX] = 0x80;
	run(2, EXIT(.reason = EXIT_REASON_WRMSR, .len = 2),
	    EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .takes = 1, .no_eoi = true));
	CHECK_EQ(entries[1].intr_status, 0x80);
	CHECK(vlapic_test_vec(l, APIC_REG_ISR, 0x80));
	CHECK_EQ(vcpu.stats.irqs_cpu_delivered, 1);
	CHECK_EQ(vcpu.stats.virtual_eois, 0);
}

/* A virtual interrupt whose delivery an exit cut short, when an exception from the handler
 * goes first: back to the IRR (the CPU had moved it to the ISR), delivered again by the CPU
 * after the exception, and counted once. */
static void test_apicv_requeue(void)
{
	machine_apicv();
	struct vlapic *l = &vcpu.arch.lapic;
	vlapic_accept(l, 0x43, false);
	/* The CPU delivers 0x43 (ISR set) and exits on its way into the guest's handler; the
	 * exit's handler (INS) raises #GP. */
	run(2,
	    EXIT(.reason = EXIT_REASON_IO_INSTRUCTION, .qual = 0x608ull << 16 | BIT(3) | BIT(4),
		 .len = 1, .idt_vectoring = EXT_INTR(0x43), .takes = 1, .no_eoi = true),
	    EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .takes = 1));
	CHECK_EQ(entries[1].event, GP_EVENT);
	CHECK_EQ(entries[1].intr_status, 0x43); /* back in the IRR, out of the ISR */
	CHECK_EQ(vcpu.stats.irqs_cpu_delivered, 1);
	CHECK_EQ(vcpu.stats.virtual_eois, 0); /* it waited behind the #GP: its EOI exited */
}

/* A level-triggered vector's EOI exits (the EOI-exit bitmap from the TMR), after the CPU
 * cleared its ISR bit: the IOAPIC hears it once; an edge one's does not exit. */
static void test_apicv_level_eoi(void)
{
	machine_apicv();
	struct vlapic *l = &vcpu.arch.lapic;
	vlapic_accept(l, 0x52, true);
	vlapic_accept(l, 0x93, false);
	/* 0x93 first, with 0x52 waiting behind it: its EOI exits too (test_apicv_bochs_eoi),
	 * and 0x52 is taken at the next entry. */
	run(2, EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .takes = 1),
	    EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .takes = 1));
	CHECK_EQ(entries[0].intr_status, 0x93);
	CHECK_EQ(vmcs[EOI_EXIT_BITMAP0 + 2], 1ull << (0x52 - 64));
	CHECK_EQ(vmcs[EOI_EXIT_BITMAP0 + 4], 0);
	CHECK_EQ(level_eois, 1);
	CHECK_EQ(level_eoi_vector, 0x52);
	CHECK(!vlapic_test_vec(l, APIC_REG_ISR, 0x52));
	CHECK_EQ(vcpu.stats.irqs_cpu_delivered, 2);
	CHECK_EQ(vcpu.stats.virtual_eois, 0);	   /* both EOIs exited */
	CHECK_EQ(vcpu.stats.exits[EXIT_OTHER], 2); /* the EOI exits; then the host interrupt */
	CHECK_EQ(entries[1].rip, entries[0].rip);  /* trap-like: nothing to skip */
	CHECK_EQ(entries[2].rip, entries[0].rip);
}

/* Issue 31, item 4, on Bochs 2.7: the guest takes 0xFB (an IPI) at the entry with 0xEC
 * (its timer) waiting behind it, and EOIs it first in its handler, which runs with IF = 0;
 * then a host interrupt comes. Bochs would deliver 0xEC there, nested in the handler (in
 * Linux the tick then takes the runqueue lock that the IPI's wakeup holds: the vCPU spins
 * on itself, halts as the lock's PV waiter with IF = 0, and no kick comes). While a vector
 * waits behind the one the entry delivers, that EOI exits instead; the next entry, with
 * IF = 0, asks for the window, and 0xEC is taken when IF is set again. The same with 0xEC
 * held back by 0xFB in service at the entry. */
static void test_apicv_bochs_eoi(void)
{
	machine_apicv();
	struct vlapic *l = &vcpu.arch.lapic;
	vlapic_accept(l, 0xEC, false);
	vlapic_accept(l, 0xFB, false);
	delivered_with_if0 = 0;
	run(2,
	    EXIT(.reason = EXIT_REASON_EXTERNAL_INTERRUPT, .takes = 1, .handler_if0 = true,
		 .bochs = true),
	    EXIT(.reason = EXIT_REASON_EXTERNAL_INTERRUPT, .bochs = true));
	CHECK_EQ(delivered_with_if0, 0);
	CHECK_EQ(entries[0].intr_status, 0xFB);
	CHECK_EQ(nentries, 2); /* the EOI's exit, then the host interrupt's */
	CHECK(entries[1].proc & PROC_INTR_WINDOW_EXITING);
	CHECK_EQ(entries[1].intr_status, 0xEC);
	CHECK(vlapic_test_vec(l, APIC_REG_IRR, 0xEC));
	CHECK(!vlapic_test_vec(l, APIC_REG_ISR, 0xFB));
	/* IF set again (the handler's IRET): the window's exit, then the CPU delivers 0xEC
	 * at the entry; nothing waits behind it, so its EOI does not exit. */
	run(2, EXIT(.reason = EXIT_REASON_INTERRUPT_WINDOW, .rflags = 0x202),
	    EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .takes = 1));
	CHECK(!(entries[1].proc & PROC_INTR_WINDOW_EXITING));
	CHECK_EQ(entries[1].intr_status, 0xEC);
	CHECK_EQ(vmcs[EOI_EXIT_BITMAP0 + 6], 0);
	CHECK(!vlapic_test_vec(l, APIC_REG_IRR, 0xEC) && !vlapic_test_vec(l, APIC_REG_ISR, 0xEC));
	CHECK_EQ(vcpu.stats.irqs_cpu_delivered, 2);
	CHECK_EQ(delivered_with_if0, 0);

	/* 0xFB in service at the entry (the run ended in its handler, IF = 0), 0xEC held
	 * back by it: no window (nothing above PPR), but 0xFB's EOI exits. */
	machine_apicv();
	delivered_with_if0 = 0;
	vlapic_accept(l, 0xFB, false);
	vlapic_accept(l, 0xEC, false);
	run(1,
	    EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .takes = 1, .no_eoi = true, .rflags = 0x2));
	CHECK(vlapic_test_vec(l, APIC_REG_ISR, 0xFB));
	vcpu.arch.vmx.regs.rflags = vmcs[GUEST_RFLAGS] = 0x2;
	run(2, EXIT(.reason = EXIT_REASON_EXTERNAL_INTERRUPT, .eois_first = 1, .bochs = true),
	    EXIT(.reason = EXIT_REASON_EXTERNAL_INTERRUPT, .bochs = true));
	CHECK_EQ(entries[0].intr_status, 0xFBEC);
	CHECK(!(entries[0].proc & PROC_INTR_WINDOW_EXITING));
	CHECK_EQ(delivered_with_if0, 0);
	CHECK(entries[1].proc & PROC_INTR_WINDOW_EXITING);
	CHECK(vlapic_test_vec(l, APIC_REG_IRR, 0xEC));
}

/* The VMX-preemption timer, where the CPU has it, ends a run at the pCPU's next decision
 * (look_at) in TSC ticks >> IA32_VMX_MISC[4:0], and at the latest after 10 ms (1 ms with
 * IF = 0: Bochs's host interrupts do not make such a guest exit); due: 0, an exit at once.
 * Its exit returns to the scheduler like a host interrupt. */
static void test_preemption_timer(void)
{
	machine();
	ctls[VMX_PIN] = PIN_EXT_INTR_EXITING | PIN_PREEMPTION_TIMER;
	caps.misc = 5;
	fake_now = 1000000;
	pcpus[0].look_at = fake_now + 3200;
	run(0);
	CHECK_EQ(entries[0].preemption_timer, 100);
	pcpus[0].look_at = ~0ull; /* nothing to decide: 10 ms, 10^7 ns of this TSC */
	run(0);
	CHECK_EQ(entries[0].preemption_timer, 10000000 >> 5);
	vcpu.arch.vmx.regs.rflags = 0x2; /* 1 ms */
	run(0);
	CHECK_EQ(entries[0].preemption_timer, 1000000 >> 5);
	vcpu.arch.vmx.regs.rflags = 0x202;
	pcpus[0].look_at = fake_now - 1;
	run(0);
	CHECK_EQ(entries[0].preemption_timer, 0);
	pcpus[0].look_at = fake_now + (1ull << 40);
	CHECK_EQ(run(1, EXIT(.reason = EXIT_REASON_PREEMPTION_TIMER)), RUN_PREEMPTED);
	CHECK_EQ(entries[0].preemption_timer, 10000000 >> 5);
	CHECK_EQ(nentries, 1);
	CHECK_EQ(vcpu.stats.exits[EXIT_HOST_IRQ], 5);
	ctls[VMX_PIN] = 0;
	caps.misc = 0;
	pcpus[0].look_at = 0;
}

/* Posted interrupts where the CPU has them (and acknowledges interrupts at exits): the
 * descriptor is the vLAPIC's posted requests, the notification vector VEC_NOTIFY; a
 * request for the running vCPU sends one notification while ON is set, and the CPU's
 * processing of it delivers with no exit. */
static void test_posted_interrupts(void)
{
	ctls[VMX_PIN] = PIN_EXT_INTR_EXITING | PIN_POSTED_INTR;
	ctls[VMX_EXIT] = EXIT_ACK_INTR_ON_EXIT;
	machine_apicv();
	struct vlapic *l = &vcpu.arch.lapic;
	CHECK(vmcs[PIN_BASED_VM_EXEC_CONTROL] & PIN_POSTED_INTR);
	CHECK(vmcs[VM_EXIT_CONTROLS] & EXIT_ACK_INTR_ON_EXIT);
	CHECK_EQ(vmcs[POSTED_INTR_NV], VEC_NOTIFY);
	CHECK_EQ(vmcs[POSTED_INTR_DESC_ADDR], (u64)(uintptr_t)&l->posted);
	CHECK_EQ(vmcs[POSTED_INTR_DESC_ADDR] & 63, 0);	       /* 26.2.1.1 */
	CHECK_EQ(offsetof(struct vlapic_posted, control), 32); /* ON is bit 256 */

	notifications = host_interrupts = 0;
	CHECK(vlapic_accept(l, 0x61, false));
	CHECK(vmx_notify(&vcpu, 0));
	CHECK(vlapic_accept(l, 0x72, false));
	CHECK(vmx_notify(&vcpu, 0)); /* ON still set: no second notification */
	CHECK_EQ(notifications, 1);
	CHECK_EQ(l->posted.control & VLAPIC_POSTED_ON, VLAPIC_POSTED_ON);
	/* The entry moves them into the IRR (ON cleared); the guest takes both, 0x61 at the
	 * next entry: 0x72's EOI exits, as 0x61 waited behind it (test_apicv_bochs_eoi). */
	run(2, EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .takes = 2),
	    EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .takes = 1));
	CHECK_EQ(entries[0].intr_status, 0x72);
	CHECK_EQ(entries[1].intr_status, 0x61);
	CHECK_EQ(l->posted.control, 0);
	CHECK_EQ(vcpu.stats.irqs_cpu_delivered, 2);
	CHECK_EQ(vcpu.stats.virtual_eois, 1);

	/* Posted while the guest runs: the notification's processing puts it into the IRR
	 * and RVI, the CPU delivers it, and the run goes on to its next exit. */
	run(1, EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .posted = 0x83, .takes = 1));
	CHECK_EQ(notifications, 2);
	CHECK_EQ(entries[0].intr_status, 0);
	CHECK_EQ(l->posted.pir[4], 0);
	CHECK_EQ(l->posted.control, 0);
	CHECK(!vlapic_test_vec(l, APIC_REG_IRR, 0x83) && !vlapic_test_vec(l, APIC_REG_ISR, 0x83));
	CHECK_EQ(host_interrupts, 0);
	CHECK_EQ(vcpu.stats.irqs_cpu_delivered, 2); /* taken and EOIed in the run: not seen */
	CHECK_EQ(vcpu.stats.virtual_eois, 1);
	/* Posted in a run and still in service at its exit: delivered, no EOI (the counts
	 * do not wrap below 0). */
	run(1, EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .posted = 0x94, .takes = 1,
		    .no_eoi = true));
	CHECK(vlapic_test_vec(l, APIC_REG_ISR, 0x94));
	CHECK_EQ(vcpu.stats.irqs_cpu_delivered, 3);
	CHECK_EQ(vcpu.stats.virtual_eois, 1);
	VLAPIC_VEC_WORD(l, APIC_REG_ISR, 4) = 0;
	run(1, EXIT(.reason = EXIT_REASON_EXTERNAL_INTERRUPT, .intr_info = EXT_INTR(VEC_TIMER)));
	/* Requested at the entry, taken and still in service, posted again in the run (it
	 * waits behind itself): one delivered, no EOI; nothing wraps. */
	vlapic_accept(l, 0x61, false);
	run(1, EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .takes = 1, .no_eoi = true,
		    .posted = 0x61));
	CHECK(vlapic_test_vec(l, APIC_REG_ISR, 0x61) && vlapic_test_vec(l, APIC_REG_IRR, 0x61));
	CHECK_EQ(vcpu.stats.irqs_cpu_delivered, 4);
	CHECK_EQ(vcpu.stats.virtual_eois, 1);
	VLAPIC_VEC_WORD(l, APIC_REG_ISR, 3) = 0;
	VLAPIC_VEC_WORD(l, APIC_REG_IRR, 3) = 0;

	/* A host interrupt ends the run acknowledged: handled from the exit's vector. */
	host_interrupts = 0;
	run(1, EXIT(.reason = EXIT_REASON_EXTERNAL_INTERRUPT, .intr_info = EXT_INTR(VEC_TIMER)));
	CHECK_EQ(host_interrupts, 1);
	CHECK_EQ(host_vector, VEC_TIMER);

	/* A vCPU whose APIC is emulated (apicv = off) gets no posting: kicks, and a
	 * notification meant for another vCPU makes it exit, handled as the host's. */
	vm.apicv_off = true;
	machine_apicv();
	vm.apicv_off = false;
	vcpu.arch.lapic.cpu_delivers = vcpu.arch.lapic.posted_requests = false;
	write_controls(&vcpu);
	CHECK(!(vmcs[PIN_BASED_VM_EXEC_CONTROL] & PIN_POSTED_INTR));
	CHECK(!vmx_notify(&vcpu, 0));
	host_interrupts = 0;
	run(1, EXIT(.reason = EXIT_REASON_CPUID, .len = 2, .notified = true));
	CHECK_EQ(host_interrupts, 1);
	CHECK_EQ(host_vector, VEC_NOTIFY);

	/* A CPU without posted interrupts (Bochs): the software PIR, kicks. */
	ctls[VMX_PIN] = PIN_EXT_INTR_EXITING;
	machine_apicv();
	CHECK(vcpu.arch.lapic.cpu_delivers);
	CHECK(!(vmcs[PIN_BASED_VM_EXEC_CONTROL] & PIN_POSTED_INTR));
	CHECK(!vmx_notify(&vcpu, 0));
	ctls[VMX_PIN] = 0;
	ctls[VMX_EXIT] = 0;
}

int main(void)
{
	test_start_states();
	test_instruction_exits();
	test_interrupts();
	test_nmi_window();
	test_cr_writes();
	test_pae_pdptes();
	test_ac_reflected();
	test_db_reflected();
	test_singlestep();
	test_entry_failures();
	test_spin_watch();
	test_cpuid_filter();
	test_review_findings();
	test_apicv_controls();
	test_apicv_delivery();
	test_apicv_bochs_eoi();
	test_apicv_level_eoi();
	test_apicv_requeue();
	test_preemption_timer();
	test_posted_interrupts();
	free(vcpu.arch.vmx.vmcs);
	free(msr_bitmap);
	free(msr_bitmap_x2apic);
	free(io_bitmaps);
	return test_summary();
}
