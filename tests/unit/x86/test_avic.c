/* SPDX-License-Identifier: GPL-2.0-only */
/* AMD AVIC with x2AVIC (arch/x86/svm/avic.c) against a model of the hardware, since no
 * emulator here has AVIC. The model is written from AMD APM vol. 2, 15.29, and the facts
 * KVM's avic.c relies on (../notes: which ICR writes are accelerated, the exit causes, the
 * trap registers): it finds everything through what the hypervisor set up, not through
 * the hypervisor's structures: the VMCB's AVIC bits, backing page and physical APIC ID
 * table pointer with its highest index, each table entry's page, host APIC ID, IsRunning
 * and valid bits, the MSR permission map. A guest's x2APIC accesses are played as the CPU
 * would: an intercepted MSR exits; an ICR write is accelerated for fixed edge-triggered
 * IPIs (the target's IRR bit set in the page the entry names, the doorbell rung for a
 * running target, AVIC_INCOMPLETE_IPI "not running" after the bits are set, "invalid
 * type" for the others, "invalid target" for an ID without a valid entry); an EOI
 * completes in the page, or traps (AVIC_NOACCEL) for a level-triggered vector; the CPU
 * delivers the highest IRR vector above the PPR (V_TPR, ISR) at VMRUN and at a doorbell.
 * The real svm.c, run loop (vcpu.c), vLAPIC, interrupt routing (virq.c) and IOAPIC; the
 * scheduler's kick and notify are recorded, with the notify path of hv/sched.c (a target
 * in guest mode is notified, arch_notify_running). */
#include "arch/cpu.h"
static void model_wrmsr(u32 msr, u64 val);
#define wrmsr model_wrmsr
#include "../../../arch/x86/svm/avic.c"
#include "../../../arch/x86/svm/svm.c"
#undef wrmsr
#include "../../../arch/x86/cr4.c"
#include "../../../arch/x86/alu.c"
#include "../../../arch/x86/decode.c"
#include "../../../arch/x86/guest_memory.c"
#include "../../../arch/x86/guest_walk.c"
#include "../../../arch/x86/irq/inject.c"
#include "../../../arch/x86/nested_paging.c"
#include "../../../arch/x86/split_access.c"
#include "../../../arch/x86/vcpu.c"
#include "../../../arch/x86/irq/vioapic.c"
#include "../../../arch/x86/irq/virq.c"
#include "../../../arch/x86/irq/vlapic.c"
#include "../../../arch/x86/xstate.c"
#include "../test.h"

#include <stdarg.h>
#include <stdlib.h>

/* ---- stubs ---- */

u64 arch_time_hz = 1000000000;
#define NPCPUS 2
struct pcpu pcpus[NPCPUS];
u32 npcpus = NPCPUS;
struct x86_msr_caps x86_msr_caps;
char svm_vmrun_return[1], svm_guest_state_start[1], svm_guest_state_end[1];
const struct x86_vendor *x86_vendor = &svm_vendor;

static void *allocated[256]; /* freed by each machine() */
static int nallocated;
void *alloc_pages(u64 n)
{
	void *p = aligned_alloc(PAGE_SIZE, n * PAGE_SIZE);
	CHECK(nallocated < (int)ARRAY_SIZE(allocated));
	allocated[nallocated++] = p;
	return memset(p, 0, n * PAGE_SIZE);
}
static void free_all(void)
{
	while (nallocated)
		free(allocated[--nallocated]);
}
#include "../console_capture.h"
#include "x86_run_loop_stubs.h"
bool sched_watch_spin(struct vcpu *v) { return (void)v, false; }
static bool section_watched; /* the scheduler runs the vCPU in a turn extended for a section */
bool sched_watch_section_end(struct vcpu *v) { return (void)v, section_watched; }
bool sched_spin_exit(struct vcpu *v) { return (void)v, false; }
int xstate_xsetbv(struct vcpu *v, u32 index, u64 value)
{
	return (void)v, (void)index, (void)value, -1;
}

/* ---- the machine: 2 pCPUs (host APIC IDs 0x10, 0x11), one VM ---- */

#define MAXV 4
static struct vm vm;
static struct vcpu vcpus[MAXV];
static u8 ram[0x10000] __attribute__((aligned(4096)));
static struct vcpu *in_guest[NPCPUS]; /* what each pCPU runs in guest mode */
static int doorbells[NPCPUS], kicks[MAXV], notifies[MAXV];
static int taken[MAXV][64], ntaken[MAXV]; /* vectors each vCPU's guest took, in order */

/* hv/sched.c's kick_for, reduced: a target in guest mode on another pCPU is notified
 * (arch_notify_running), else kicked. */
void vcpu_kick(struct vcpu *v) { kicks[v->id]++; }
void vcpu_notify(struct vcpu *v)
{
	notifies[v->id]++;
	if (!(in_guest[v->pcpu] == v && arch_notify_running(v, v->pcpu)))
		vcpu_kick(v);
}
bool arch_notify_running(struct vcpu *v, u32 pcpu)
{
	return x86_vendor->notify && x86_vendor->notify(v, pcpu);
}

/* ---- the CPU's AVIC ---- */

static u8 *vmcb_of(struct vcpu *v) { return v->arch.svm.vmcb; }
static bool avic_on(struct vcpu *v) { return V64(vmcb_of(v), VMCB_VINTR) & VINTR_AVIC; }
/* The physical APIC ID table entry for an x2APIC ID, as the CPU finds it from the VMCB
 * of the vCPU it runs; NULL beyond the highest index. */
static u64 *table_entry(struct vcpu *runs, u32 id)
{
	u64 t = V64(vmcb_of(runs), VMCB_AVIC_PHYSICAL);
	if (id > (t & 0xFFF))
		return NULL;
	return (u64 *)(uintptr_t)(t & AVIC_ENTRY_PAGE) + id;
}
static u32 *page_of(u64 entry) { return (u32 *)(uintptr_t)(entry & AVIC_ENTRY_PAGE); }
static u32 *backing(struct vcpu *v)
{
	return (u32 *)(uintptr_t)(V64(vmcb_of(v), VMCB_AVIC_BACKING) & AVIC_ENTRY_PAGE);
}
static int highest(const u32 *page, u32 base)
{
	for (int i = 7; i >= 0; i--) {
		u32 w = __atomic_load_n(&page[(base + i * 0x10) / 4], __ATOMIC_ACQUIRE);
		if (w)
			return i * 32 + 31 - __builtin_clz(w);
	}
	return -1;
}
static void set_bit_in(u32 *page, u32 base, u8 vec)
{
	__atomic_fetch_or(&page[(base + vec / 32 * 0x10) / 4], 1u << (vec % 32), __ATOMIC_SEQ_CST);
}
static void clear_bit_in(u32 *page, u32 base, u8 vec)
{
	__atomic_fetch_and(&page[(base + vec / 32 * 0x10) / 4], ~(1u << (vec % 32)),
			   __ATOMIC_SEQ_CST);
}
static bool bit_in(const u32 *page, u32 base, u8 vec)
{
	return page[(base + vec / 32 * 0x10) / 4] & (1u << (vec % 32));
}

/* Interrupt evaluation for the vCPU the CPU runs: the highest IRR vector whose class is
 * above the PPR (V_TPR from the VMCB, the highest in service) is taken when RFLAGS.IF. */
static void evaluate(struct vcpu *v)
{
	u8 *vmcb = vmcb_of(v);
	u32 *page = backing(v);
	for (;;) {
		int irr = highest(page, APIC_REG_IRR), isr = highest(page, APIC_REG_ISR);
		u32 ppr = MAX((u32)(V64(vmcb, VMCB_VINTR) & VINTR_TPR_MASK) << 4,
			      isr < 0 ? 0 : (u32)isr & 0xF0);
		if (irr < 0 || ((u32)irr & 0xF0) <= ppr || !(V64(vmcb, VMCB_RFLAGS) & BIT(9)))
			return;
		clear_bit_in(page, APIC_REG_IRR, (u8)irr);
		set_bit_in(page, APIC_REG_ISR, (u8)irr);
		taken[v->id][ntaken[v->id]++] = irr;
	}
}

static void model_wrmsr(u32 msr, u64 val)
{
	CHECK_EQ(msr, MSR_AVIC_DOORBELL);
	for (u32 p = 0; p < NPCPUS; p++)
		if (pcpus[p].arch.apic_id == (val & 0xFFF)) {
			doorbells[p]++;
			if (in_guest[p] && avic_on(in_guest[p]))
				evaluate(in_guest[p]);
		}
}

/* A pCPU runs v in guest mode (what svm_enter does around VMRUN), while another's guest
 * acts: the entry's IsRunning and host APIC ID are the model's to check. */
static void enter(struct vcpu *v, u32 pcpu)
{
	v->pcpu = pcpu;
	x86_inject_events(v, false);
	avic_enter(v);
	in_guest[pcpu] = v;
	evaluate(v);
}
static void leave(struct vcpu *v)
{
	in_guest[v->pcpu] = NULL;
	avic_exit(v);
}

/* ---- the guest of the vCPU that arch_vcpu_run runs: one action per VMRUN ---- */

enum act { NONE, WRMSR, RDMSR, HLT };
struct action {
	enum act what;
	u32 msr;
	u64 val;
};
#define MAX_ACTS 16
static struct action acts[MAXV][MAX_ACTS];
static int nacts[MAXV], next_act[MAXV];
static u64 rdmsr_result;
static u64 injected_event; /* the last EVENTINJ a VMRUN found */
static int guest_rdmsrs;   /* RDMSRs the CPU answered from the page */
static u32 read_faults;	   /* an x2APIC MSR whose reads the CPU does not accelerate */

static bool intercepted(u8 *vmcb, u32 msr, bool write)
{
	const u8 *pm = (const u8 *)(uintptr_t)V64(vmcb, VMCB_MSRPM);
	u32 bit = msr * 2 + write; /* MSRs 0-1FFFh: the first 2 KiB (APM 15.11) */
	return pm[bit / 8] & (1u << (bit % 8));
}

static u64 exit_(u8 *vmcb, u64 code, u64 info1, u64 info2)
{
	V64(vmcb, VMCB_EXITCODE) = code;
	V64(vmcb, VMCB_EXITINFO1) = info1;
	V64(vmcb, VMCB_EXITINFO2) = info2;
	return code;
}

/* The CPU's handling of a WRMSR to the x2APIC ICR that is not intercepted. */
static u64 icr_write(struct vcpu *v, u64 icr)
{
	u8 *vmcb = vmcb_of(v);
	u32 *own = backing(v);
	own[APIC_REG_ICR_LO / 4] = (u32)icr; /* AMD keeps the x2APIC ICR split */
	own[APIC_REG_ICR_HI / 4] = (u32)(icr >> 32);
	u8 vec = icr & 0xFF, mode = (icr >> 8) & 7, sh = (icr >> 18) & 3;
	if (mode != APIC_DM_FIXED || (icr & BIT(15))) { /* BUSY may stay set (KVM's avic.c) */
		own[APIC_REG_ICR_LO / 4] |= BIT(12);
		return exit_(vmcb, SVM_EXIT_AVIC_INCOMPLETE_IPI, icr | BIT(12),
			     (u64)AVIC_IPI_INVALID_TYPE << 32);
	}
	if (vec < 16)
		return exit_(vmcb, SVM_EXIT_AVIC_INCOMPLETE_IPI, icr,
			     (u64)AVIC_IPI_INVALID_VECTOR << 32);
	if (sh == APIC_SH_SELF) { /* no table: straight into the own IRR */
		set_bit_in(own, APIC_REG_IRR, vec);
		evaluate(v);
		return 0;
	}
	u32 dest = (u32)(icr >> 32), ids[MAXV * 2], n = 0;
	if (sh != APIC_SH_NONE || dest == APIC_BROADCAST) {
		for (u32 id = 0; id <= (V64(vmcb, VMCB_AVIC_PHYSICAL) & 0xFFF); id++)
			if (!(sh == APIC_SH_OTHERS && id == v->id))
				ids[n++] = id;
	} else if (icr & BIT(11)) { /* logical, x2APIC: cluster 31:16, bitmap 15:0 */
		for (u32 b = 0; b < 16; b++)
			if (dest & BIT(b))
				ids[n++] = (dest >> 16) << 4 | b;
	} else {
		ids[n++] = dest;
	}
	for (u32 i = 0; i < n; i++) {
		u64 *e = table_entry(v, ids[i]);
		if (!e || !(*e & AVIC_ENTRY_VALID))
			return exit_(vmcb, SVM_EXIT_AVIC_INCOMPLETE_IPI, icr,
				     (u64)AVIC_IPI_INVALID_TARGET << 32 | ids[i]);
	}
	bool not_running = false;
	for (u32 i = 0; i < n; i++) {
		u64 e = __atomic_load_n(table_entry(v, ids[i]), __ATOMIC_SEQ_CST);
		set_bit_in(page_of(e), APIC_REG_IRR, vec);
		if (e & AVIC_ENTRY_RUNNING)
			model_wrmsr(MSR_AVIC_DOORBELL, e & AVIC_ENTRY_HOST_ID);
		else
			not_running = true;
	}
	if (not_running)
		return exit_(vmcb, SVM_EXIT_AVIC_INCOMPLETE_IPI, icr,
			     (u64)AVIC_IPI_NOT_RUNNING << 32);
	return 0;
}

/* An EOI write that is not intercepted: completed in the page, unless the highest vector
 * in service is level-triggered (TMR): then it traps, the ISR left to the hypervisor. */
static u64 eoi_write(struct vcpu *v)
{
	u32 *page = backing(v);
	int isr = highest(page, APIC_REG_ISR);
	if (isr >= 0 && bit_in(page, APIC_REG_TMR, (u8)isr))
		return exit_(vmcb_of(v), SVM_EXIT_AVIC_NOACCEL, AVIC_NOACCEL_WRITE | APIC_REG_EOI,
			     0);
	if (isr >= 0)
		clear_bit_in(page, APIC_REG_ISR, (u8)isr);
	evaluate(v);
	return 0;
}

static struct vcpu *vcpu_of_vmcb(u8 *vmcb)
{
	for (int i = 0; i < MAXV; i++)
		if (vcpus[i].arch.svm.vmcb == vmcb)
			return &vcpus[i];
	abort();
}

u64 svm_run(u64 vmcb_pa, u64 *gpr, u64 host_save_pa)
{
	(void)host_save_pa;
	u8 *vmcb = (u8 *)(uintptr_t)vmcb_pa;
	struct vcpu *v = vcpu_of_vmcb(vmcb);
	if (avic_on(v)) { /* the entry says it runs here */
		u64 e = *table_entry(v, v->id);
		CHECK(e & AVIC_ENTRY_RUNNING);
		CHECK_EQ(e & AVIC_ENTRY_HOST_ID, pcpus[v->pcpu].arch.apic_id);
		CHECK_EQ((uintptr_t)page_of(e), (uintptr_t)backing(v));
	}
	in_guest[v->pcpu] = v;
	if (V64(vmcb, VMCB_EVENTINJ) & EVENT_VALID)
		injected_event = V64(vmcb, VMCB_EVENTINJ);
	/* An interrupt offered through V_IRQ (no VINTR intercept): the guest takes it, but
	 * under AVIC, which ignores V_IRQ (APM 15.29.2). */
	if (!avic_on(v) && (V64(vmcb, VMCB_VINTR) & VINTR_V_IRQ) &&
	    !(V32(vmcb, VMCB_ICPT_MISC1) & ICPT_VINTR))
		V64(vmcb, VMCB_VINTR) &= ~(u64)VINTR_V_IRQ;
	if (avic_on(v))
		evaluate(v); /* VMRUN looks at the page's IRR */
	u64 code = 0;
	while (!code) {
		if (next_act[v->id] == nacts[v->id]) {
			code = exit_(vmcb, SVM_EXIT_INTR, 0, 0);
			break;
		}
		const struct action *a = &acts[v->id][next_act[v->id]++];
		V64(vmcb, VMCB_NRIP) = V64(vmcb, VMCB_RIP) + (a->what == HLT ? 1 : 2);
		bool x2 = a->msr >= MSR_X2APIC_FIRST && a->msr <= MSR_X2APIC_LAST;
		if (a->what == HLT) {
			code = exit_(vmcb, SVM_EXIT_HLT, 0, 0);
		} else if (intercepted(vmcb, a->msr, a->what == WRMSR) || !avic_on(v) || !x2) {
			gpr[GPR_RCX] = a->msr;
			V64(vmcb, VMCB_RAX) = (u32)a->val;
			gpr[GPR_RDX] = a->val >> 32;
			code = exit_(vmcb, SVM_EXIT_MSR, a->what == WRMSR, 0);
		} else if (a->what == RDMSR && a->msr == read_faults) {
			/* A read this CPU does not accelerate: before the access. */
			code = exit_(vmcb, SVM_EXIT_AVIC_NOACCEL, (a->msr - MSR_X2APIC_FIRST) << 4,
				     0);
			V64(vmcb, VMCB_NRIP) = 0; /* not given for this exit */
			gpr[GPR_RCX] = a->msr;
		} else if (a->what == RDMSR) {
			u32 off = (a->msr - MSR_X2APIC_FIRST) << 4;
			rdmsr_result = backing(v)[off / 4];
			guest_rdmsrs++;
			V64(vmcb, VMCB_RIP) += 2;
		} else {
			V64(vmcb, VMCB_RIP) += 2; /* traps come after the instruction */
			if (a->msr == MSR_X2APIC_FIRST + (APIC_REG_ICR_LO >> 4))
				code = icr_write(v, a->val);
			else if (a->msr == MSR_X2APIC_FIRST + (APIC_REG_EOI >> 4))
				code = eoi_write(v);
			else if (a->msr == MSR_X2APIC_FIRST + (APIC_REG_TPR >> 4)) {
				backing(v)[APIC_REG_TPR / 4] = (u32)a->val;
				V64(vmcb, VMCB_VINTR) = (V64(vmcb, VMCB_VINTR) & ~0xFull) |
							(a->val >> 4 & 0xF);
				evaluate(v);
			} else
				CHECK(!"a write AVIC does not accelerate was not intercepted");
		}
	}
	in_guest[v->pcpu] = NULL;
	return 0;
}

/* ---- set-up ---- */

static const u8 VEC_A = 0x41, VEC_B = 0x52, VEC_LEVEL = 0x61;
#define ICR_MSR (MSR_X2APIC_FIRST + (APIC_REG_ICR_LO >> 4))
#define EOI_MSR (MSR_X2APIC_FIRST + (APIC_REG_EOI >> 4))

/* A VM of n vCPUs on a CPU whose CPUID 8000_000Ah EDX is edx; every vCPU's APIC
 * software-enabled, interrupts on. */
static void machine(u32 n, u32 edx, bool apicv_off)
{
	free_all();
	memset(vcpus, 0, sizeof vcpus);
	memset(&vm, 0, sizeof vm);
	memset(in_guest, 0, sizeof in_guest);
	memset(doorbells, 0, sizeof doorbells);
	memset(kicks, 0, sizeof kicks);
	memset(notifies, 0, sizeof notifies);
	memset(ntaken, 0, sizeof ntaken);
	memset(nacts, 0, sizeof nacts);
	memset(next_act, 0, sizeof next_act);
	console[0] = 0;
	guest_rdmsrs = 0;
	read_faults = 0;
	section_watched = false;
	msrpm = msrpm_avic = NULL;
	for (u32 p = 0; p < NPCPUS; p++)
		pcpus[p].arch.apic_id = 0x10 + p;
	max_asid = 16;
	avic_probe(edx);
	strcpy(vm.name, "t");
	vm.ram = ram;
	vm.ram_size = sizeof ram;
	vm.nvcpus = n;
	vm.apicv_off = apicv_off;
	x86_vm_irq_init(&vm);
	CHECK_EQ(svm_vm_init(&vm), 0);
	for (u32 i = 0; i < n; i++) {
		struct vcpu *v = &vcpus[i];
		v->id = i;
		v->vm = &vm;
		v->pcpu = i % NPCPUS;
		vm.vcpus[i] = v;
		x86_vcpu_irq_init(v);
		CHECK_EQ(vlapic_wrmsr(&v->arch.lapic, MSR_IA32_APIC_BASE,
				      APIC_DEFAULT_BASE | APIC_BASE_EN | APIC_BASE_EXTD, 0),
			 0); /* as Linux switches at boot */
		CHECK_EQ(svm_vcpu_init(v, &(struct x86_boot){ .entry = 0x1000 }), 0);
		CHECK_EQ(vlapic_wrmsr(&v->arch.lapic, MSR_X2APIC_FIRST + (APIC_REG_SVR >> 4), 0x1ff,
				      0),
			 0);
		V16(v->arch.svm.vmcb, VMCB_CS + 2) = 0xC9B;
		V64(v->arch.svm.vmcb, VMCB_RFLAGS) = 0x202;
	}
}
#define AVIC_X2AVIC (BIT(0) | BIT(13) | BIT(18))

static void act(u32 id, enum act what, u32 msr, u64 val)
{
	acts[id][nacts[id]++] = (struct action){ what, msr, val };
}

/* Runs vCPU id (on its pCPU) through its actions, to the host interrupt at their end. */
static enum run_result run(u32 id) { return arch_vcpu_run(&vcpus[id]); }

/* ---- tests ---- */

/* What the hypervisor hands the CPU: the AVIC and x2AVIC bits, the backing page (the
 * vLAPIC's register page), both tables, the highest index; every vCPU's entry valid from
 * the start, not running, naming its page; the x2APIC MSRs a guest reaches without an
 * intercept. */
static void test_layout(void)
{
	machine(3, AVIC_X2AVIC, false);
	CHECK(strstr(console, "hv: VM 't': AVIC (x2AVIC)"));
	for (u32 i = 0; i < 3; i++) {
		CHECK_EQ(run(i), RUN_PREEMPTED); /* its first entry */
		u8 *vmcb = vmcb_of(&vcpus[i]);
		CHECK(avic_on(&vcpus[i]));
		CHECK(V64(vmcb, VMCB_VINTR) & VINTR_X2AVIC);
		CHECK_EQ((uintptr_t)backing(&vcpus[i]), (uintptr_t)vcpus[i].arch.lapic.regs);
		CHECK_EQ(V64(vmcb, VMCB_AVIC_PHYSICAL) & 0xFFF, 2);
		CHECK(V64(vmcb, VMCB_AVIC_LOGICAL));
		u64 e = *table_entry(&vcpus[i], i);
		CHECK(e & AVIC_ENTRY_VALID);
		CHECK(!(e & AVIC_ENTRY_RUNNING));
		CHECK_EQ((uintptr_t)page_of(e), (uintptr_t)vcpus[i].arch.lapic.regs);
		CHECK(vcpus[i].arch.lapic.cpu_delivers);
	}
	CHECK(table_entry(&vcpus[0], 3) == NULL); /* beyond the highest index */
	CHECK(!vcpus[0].arch.lapic.posted_requests);
	u8 *vmcb = vmcb_of(&vcpus[0]);
	CHECK(!intercepted(vmcb, ICR_MSR, true));
	CHECK(!intercepted(vmcb, EOI_MSR, true));
	CHECK(!intercepted(vmcb, MSR_X2APIC_FIRST + (APIC_REG_TPR >> 4), true));
	CHECK(!intercepted(vmcb, MSR_X2APIC_FIRST + (APIC_REG_IRR >> 4), false));
	/* KVM's read list: only the first word of ISR, TMR and IRR, no LVT timer. */
	CHECK(intercepted(vmcb, MSR_X2APIC_FIRST + (APIC_REG_IRR >> 4) + 7, false));
	CHECK(intercepted(vmcb, MSR_X2APIC_FIRST + (APIC_REG_LVT_TIMER >> 4), false));
	CHECK(!intercepted(vmcb, MSR_X2APIC_FIRST + (APIC_REG_ID >> 4), false));
	/* Computed by the vLAPIC, or with side effects it must see: intercepted. */
	CHECK(intercepted(vmcb, MSR_X2APIC_FIRST + (APIC_REG_PPR >> 4), false));
	CHECK(intercepted(vmcb, MSR_X2APIC_FIRST + (APIC_REG_TIMER_CCR >> 4), false));
	CHECK(intercepted(vmcb, ICR_MSR, false));
	CHECK(intercepted(vmcb, MSR_X2APIC_FIRST + (APIC_REG_SELF_IPI >> 4), true));
	CHECK(intercepted(vmcb, MSR_X2APIC_FIRST + (APIC_REG_LVT_TIMER >> 4), true));
	CHECK(intercepted(vmcb, MSR_X2APIC_FIRST + (APIC_REG_TIMER_ICR >> 4), true));
	CHECK(intercepted(vmcb, MSR_X2APIC_FIRST + (APIC_REG_SVR >> 4), true));
	CHECK(intercepted(vmcb, MSR_IA32_TSC_DEADLINE, true));
	/* The other MSRs as for emulated vCPUs. */
	CHECK(intercepted(vmcb, MSR_IA32_APIC_BASE, true));
}

/* The fallback, chosen per VM with its reason said: no AVIC, AVIC without x2AVIC, or
 * apicv = off. Then nothing of AVIC is set, x2APIC MSRs are intercepted, and interrupts
 * are injected (V_IRQ) by the hypervisor. */
static void test_fallback(void)
{
	static const struct {
		u32 edx;
		bool off;
		const char *why;
	} cases[] = {
		{ BIT(0), false, "(the CPU has no AVIC)" },
		{ BIT(0) | BIT(13), false, "(the CPU has AVIC but not x2AVIC" },
		{ AVIC_X2AVIC, true, "(apicv = off)" },
	};
	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		machine(2, cases[c].edx, cases[c].off);
		CHECK(strstr(console, "hv: VM 't': APIC emulated, interrupts injected"));
		CHECK(strstr(console, cases[c].why));
		CHECK(!avic_on(&vcpus[0]) && !vcpus[0].arch.svm.avic);
		CHECK(!vcpus[0].arch.lapic.cpu_delivers);
		CHECK(intercepted(vmcb_of(&vcpus[0]), EOI_MSR, true));
		CHECK(x86_deliver_to(&vcpus[1], (u32[]){ 0 }, 1, APIC_DM_FIXED, VEC_A) == 1);
		CHECK_EQ(kicks[0], 1); /* not in guest mode: kicked */
		CHECK_EQ(doorbells[0] + doorbells[1], 0);
		CHECK_EQ(run(0), RUN_PREEMPTED);
		CHECK_EQ(vcpus[0].stats.irqs_injected, 1);
	}
}

/* A fixed IPI to a vCPU that runs in guest mode on the other pCPU: the sender's CPU sets
 * the IRR bit in the target's page and rings the target pCPU's doorbell; the target takes
 * it at once; neither exits. Its EOI completes in the page. The counts come from the IRR
 * and ISR around the target's run. */
static void test_ipi_to_running(void)
{
	machine(2, AVIC_X2AVIC, false);
	enter(&vcpus[1], 1);
	act(0, WRMSR, ICR_MSR, (u64)1 << 32 | VEC_A);
	CHECK_EQ(run(0), RUN_PREEMPTED);
	CHECK_EQ(vcpus[0].stats.exits[EXIT_MSR] + vcpus[0].stats.exits[EXIT_OTHER], 0);
	CHECK_EQ(doorbells[1], 1);
	CHECK_EQ(ntaken[1], 1);
	CHECK_EQ(taken[1][0], VEC_A);
	CHECK_EQ(kicks[1] + notifies[1], 0);
	leave(&vcpus[1]);
	CHECK_EQ(vcpus[1].stats.irqs_cpu_delivered, 1);
	CHECK(!(*table_entry(&vcpus[0], 1) & AVIC_ENTRY_RUNNING));
	/* Its handler's EOI, in its next run: no exit, the ISR bit gone. */
	act(1, WRMSR, EOI_MSR, 0);
	CHECK_EQ(run(1), RUN_PREEMPTED);
	CHECK_EQ(vcpus[1].stats.exits[EXIT_MSR] + vcpus[1].stats.exits[EXIT_OTHER], 0);
	CHECK(!vlapic_test_vec(&vcpus[1].arch.lapic, APIC_REG_ISR, VEC_A));
	CHECK_EQ(vcpus[1].stats.virtual_eois, 1);
	CHECK_EQ(vcpus[1].arch.lapic.eois, 0); /* the vLAPIC saw none */
}

/* To a halted vCPU (not in guest mode): the CPU sets its IRR bit, the sender exits
 * ("target not running"), and the hypervisor only tells the target, which wakes with
 * the vector pending and takes it at its next VMRUN. Migrated to the other pCPU, its
 * entry names that pCPU's APIC ID while it runs there. */
static void test_ipi_to_halted(void)
{
	machine(2, AVIC_X2AVIC, false);
	act(1, HLT, 0, 0);
	CHECK_EQ(run(1), RUN_HALTED);
	CHECK(!(*table_entry(&vcpus[1], 1) & AVIC_ENTRY_RUNNING));
	CHECK_EQ(vlapic_pending_vector(&vcpus[1].arch.lapic), -1); /* what wakes it (vm.c) */
	act(0, WRMSR, ICR_MSR, (u64)1 << 32 | VEC_B);
	CHECK_EQ(run(0), RUN_PREEMPTED);
	CHECK_EQ(vcpus[0].stats.ipi_not_running, 1);
	CHECK_EQ(vcpus[0].stats.ipi_icr, 0); /* not emulated: the CPU set the bit */
	CHECK_EQ(doorbells[0] + doorbells[1], 0);
	CHECK_EQ(kicks[1], 1);
	CHECK(vlapic_test_vec(&vcpus[1].arch.lapic, APIC_REG_IRR, VEC_B));
	CHECK_EQ(vlapic_pending_vector(&vcpus[1].arch.lapic), VEC_B);
	vcpus[1].pcpu = 0; /* woken on the other pCPU */
	CHECK_EQ(run(1), RUN_PREEMPTED);
	CHECK_EQ(ntaken[1], 1);
	CHECK_EQ(taken[1][0], VEC_B);
	CHECK_EQ(vcpus[1].stats.irqs_cpu_delivered, 1);
	CHECK_EQ(*table_entry(&vcpus[1], 1) & AVIC_ENTRY_HOST_ID, 0x10);
	CHECK(!(*table_entry(&vcpus[1], 1) & AVIC_ENTRY_RUNNING));
}

/* Broadcast to all others and a logical (x2APIC cluster) destination: every target's bit,
 * a doorbell for the running one, one exit for the others, which are told. */
static void test_broadcast_and_logical(void)
{
	machine(3, AVIC_X2AVIC, false);
	enter(&vcpus[1], 1);
	act(0, WRMSR, ICR_MSR, (u64)APIC_SH_OTHERS << 18 | VEC_A);
	act(0, WRMSR, ICR_MSR, (u64)(BIT(1) | BIT(2)) << 32 | BIT(11) | VEC_B);
	CHECK_EQ(run(0), RUN_PREEMPTED);
	CHECK_EQ(taken[1][0], VEC_A);
	CHECK_EQ(ntaken[0], 0); /* not itself */
	CHECK_EQ(ntaken[1], 2);
	CHECK_EQ(taken[1][1], VEC_B); /* higher class, taken in its handler */
	CHECK_EQ(doorbells[1], 2);
	CHECK_EQ(vcpus[0].stats.ipi_not_running, 2); /* vCPU 2 each time */
	CHECK(vlapic_test_vec(&vcpus[2].arch.lapic, APIC_REG_IRR, VEC_A));
	CHECK(vlapic_test_vec(&vcpus[2].arch.lapic, APIC_REG_IRR, VEC_B));
	CHECK_EQ(kicks[2], 2);
	leave(&vcpus[1]);
	/* To all including itself, vCPU 2 halted: the sender is not told of its own (it
	 * takes it at its next entry, as it does). */
	memset(kicks, 0, sizeof kicks);
	act(0, WRMSR, ICR_MSR, (u64)APIC_SH_ALL << 18 | VEC_LEVEL);
	CHECK_EQ(run(0), RUN_PREEMPTED);
	CHECK_EQ(kicks[0] + notifies[0], 0);
	CHECK_EQ(taken[0][0], VEC_LEVEL);
	CHECK_EQ(kicks[1] + kicks[2], 2);
}

/* What AVIC does not accelerate: an NMI or INIT through the ICR ("invalid type": the
 * vLAPIC sends it), a vector below 16 (the sender's ESR), an ID without an entry
 * ("invalid target": sent by the vLAPIC to those that exist, here none). */
static void test_emulated_ipis(void)
{
	machine(2, AVIC_X2AVIC, false);
	act(0, WRMSR, ICR_MSR, (u64)1 << 32 | APIC_DM_NMI << 8);
	act(0, WRMSR, ICR_MSR, (u64)1 << 32 | APIC_DM_INIT << 8 | BIT(14));
	act(0, WRMSR, ICR_MSR, (u64)1 << 32 | 7);
	act(0, WRMSR, ICR_MSR, (u64)9 << 32 | VEC_A);
	CHECK_EQ(run(0), RUN_PREEMPTED);
	CHECK(vcpus[1].arch.nmi_pending);
	CHECK(vcpus[1].arch.init_pending);
	CHECK_EQ(vcpus[0].stats.ipi_nmi, 1);
	CHECK_EQ(vcpus[0].stats.ipi_init, 1);
	CHECK_EQ(vcpus[0].stats.ipi_icr, 3); /* NMI, INIT, to ID 9 */
	CHECK_EQ(vcpus[0].stats.ipi_no_target, 1);
	CHECK(vcpus[0].arch.lapic.esr_pending & APIC_ESR_SEND_ILLEGAL_VECTOR);
	CHECK_EQ(vcpus[0].stats.exits[EXIT_OTHER], 4);
	CHECK_EQ(stops, 0);
}

/* Interrupts the hypervisor sends (a PV IPI, the IOAPIC) go straight to the IRR (no
 * posted requests: AVIC's CPU sets IRR bits atomically too) and ring the doorbell of a
 * target in guest mode. A level-triggered one's EOI traps; the hypervisor completes it
 * (ISR, the IOAPIC's remote IRR), and the IOAPIC can send it again. */
static void test_hypervisor_sends_and_level_eoi(void)
{
	machine(2, AVIC_X2AVIC, false);
	enter(&vcpus[1], 1);
	CHECK_EQ(x86_deliver_to(&vcpus[0], (u32[]){ 1 }, 1, APIC_DM_FIXED, VEC_A), 1);
	CHECK_EQ(notifies[1], 1);
	CHECK_EQ(kicks[1], 0);
	CHECK_EQ(doorbells[1], 1);
	CHECK_EQ(ntaken[1], 1);
	leave(&vcpus[1]);
	/* IOAPIC pin 5, level, to vCPU 0. */
	struct vioapic *io = &vm.arch.ioapic;
	io->rte[5] = VEC_LEVEL | IOAPIC_RTE_LEVEL;
	vioapic_set_irq(io, 5, true);
	vioapic_set_irq(io, 5, false); /* accepted: remote IRR stays until the EOI */
	CHECK(io->rte[5] & IOAPIC_RTE_REMOTE_IRR);
	CHECK(vlapic_test_vec(&vcpus[0].arch.lapic, APIC_REG_TMR, VEC_LEVEL));
	act(0, WRMSR, EOI_MSR, 0);
	CHECK_EQ(run(0), RUN_PREEMPTED);
	CHECK_EQ(ntaken[0], 1);
	CHECK_EQ(taken[0][0], VEC_LEVEL);
	CHECK_EQ(vcpus[0].stats.exits[EXIT_OTHER], 1); /* the trap */
	CHECK(!vlapic_test_vec(&vcpus[0].arch.lapic, APIC_REG_ISR, VEC_LEVEL));
	CHECK(!(io->rte[5] & IOAPIC_RTE_REMOTE_IRR));
	CHECK_EQ(vcpus[0].arch.lapic.eois, 1);
	CHECK_EQ(vcpus[0].stats.virtual_eois, 0); /* completed by the hypervisor */
	/* Raised again while in service: sent again only after the EOI (remote IRR). */
	vioapic_set_irq(io, 5, true);
	act(0, WRMSR, EOI_MSR, 0);
	CHECK_EQ(run(0), RUN_PREEMPTED);
	CHECK_EQ(ntaken[0], 3); /* taken, EOIed, sent again (the line is high), taken */
	CHECK(vlapic_test_vec(&vcpus[0].arch.lapic, APIC_REG_ISR, VEC_LEVEL));
	CHECK(io->rte[5] & IOAPIC_RTE_REMOTE_IRR);
}

/* A SELF IPI through the ICR's shorthand needs no table; one through the SELF IPI
 * register is intercepted and sent by the vLAPIC. Register reads the page answers (SVR)
 * need no exit; PPR is the vLAPIC's. A TPR written through the MSR holds an interrupt back
 * until lowered. */
static void test_self_and_reads(void)
{
	machine(1, AVIC_X2AVIC, false);
	act(0, WRMSR, MSR_X2APIC_FIRST + (APIC_REG_TPR >> 4), 0x50);
	act(0, WRMSR, ICR_MSR, (u64)APIC_SH_SELF << 18 | VEC_A);
	act(0, RDMSR, MSR_X2APIC_FIRST + (APIC_REG_SVR >> 4), 0);
	act(0, WRMSR, MSR_X2APIC_FIRST + (APIC_REG_TPR >> 4), 0);
	act(0, WRMSR, MSR_X2APIC_FIRST + (APIC_REG_SELF_IPI >> 4), VEC_B);
	act(0, RDMSR, MSR_X2APIC_FIRST + (APIC_REG_PPR >> 4), 0);
	CHECK_EQ(run(0), RUN_PREEMPTED);
	CHECK_EQ(guest_rdmsrs, 1);
	CHECK_EQ(rdmsr_result, 0x1ff);
	CHECK_EQ(vlapic_pending_vector(&vcpus[0].arch.lapic), -1);
	CHECK_EQ(ntaken[0], 2);
	CHECK_EQ(taken[0][0], VEC_A);
	CHECK_EQ(taken[0][1], VEC_B);		     /* SELF IPI register: at the next VMRUN */
	CHECK_EQ(vcpus[0].stats.exits[EXIT_MSR], 2); /* SELF IPI, PPR */
	CHECK_EQ(vcpus[0].arch.gpr[GPR_RAX], 0x50);  /* PPR: VEC_B's class in service */
	CHECK_EQ(vlapic_tpr(&vcpus[0].arch.lapic), 0);
	/* A passed-through read the CPU does not accelerate faults (AVIC_NOACCEL, before the
	 * access): answered as an intercepted RDMSR, RIP past it. */
	read_faults = MSR_X2APIC_FIRST + (APIC_REG_TIMER_DCR >> 4);
	CHECK_EQ(vlapic_wrmsr(&vcpus[0].arch.lapic, read_faults, 0xb, 0), 0);
	u64 rip = V64(vmcb_of(&vcpus[0]), VMCB_RIP);
	act(0, RDMSR, read_faults, 0);
	CHECK_EQ(run(0), RUN_PREEMPTED);
	CHECK_EQ(vcpus[0].arch.gpr[GPR_RAX], 0xb);
	CHECK_EQ(V64(vmcb_of(&vcpus[0]), VMCB_RIP), rip + 2);
	CHECK_EQ(vcpus[0].stats.exits[EXIT_OTHER], 1);
}

/* An entry that AVIC cannot serve runs with the APIC emulated, for that vCPU alone: its
 * guest's APIC out of x2APIC mode (x2APIC MSRs must #GP: all intercepted, none reaching
 * the host's APIC), or an interrupt window wanted (a critical section's end with IF = 0:
 * AVIC ignores V_IRQ). IsRunning stays clear, so an interrupt for it is a kick, not a
 * doorbell; what waits is injected. The next entry that can runs with AVIC again. */
static void test_entries_without_avic(void)
{
	machine(2, AVIC_X2AVIC, false);
	CHECK_EQ(run(0), RUN_PREEMPTED);
	CHECK(avic_on(&vcpus[0]));
	/* xAPIC mode: EN without EXTD, through disabled (SDM 11.12.5). */
	struct vlapic *l = &vcpus[0].arch.lapic;
	CHECK_EQ(vlapic_wrmsr(l, MSR_IA32_APIC_BASE, APIC_DEFAULT_BASE, 0), 0);
	CHECK_EQ(vlapic_wrmsr(l, MSR_IA32_APIC_BASE, APIC_DEFAULT_BASE | APIC_BASE_EN, 0), 0);
	act(0, RDMSR, MSR_X2APIC_FIRST + (APIC_REG_ID >> 4), 0);
	CHECK_EQ(run(0), RUN_PREEMPTED);
	CHECK(!avic_on(&vcpus[0]));
	CHECK(intercepted(vmcb_of(&vcpus[0]), EOI_MSR, true));
	CHECK(intercepted(vmcb_of(&vcpus[0]), MSR_X2APIC_FIRST + (APIC_REG_ID >> 4), false));
	CHECK_EQ(guest_rdmsrs, 0);
	CHECK_EQ(vcpus[0].stats.exits[EXIT_MSR], 1); /* and the vLAPIC refused it: #GP */
	CHECK_EQ(injected_event & 0xFF, 13);
	CHECK_EQ(vlapic_wrmsr(l, MSR_IA32_APIC_BASE,
			      APIC_DEFAULT_BASE | APIC_BASE_EN | APIC_BASE_EXTD, 0),
		 0);
	CHECK_EQ(vlapic_wrmsr(l, MSR_X2APIC_FIRST + (APIC_REG_SVR >> 4), 0x1ff, 0), 0);
	CHECK_EQ(run(0), RUN_PREEMPTED);
	CHECK(avic_on(&vcpus[0]));
	CHECK_EQ(vcpus[0].stats.fallback_apic_mode, 2); /* the RDMSR's entry, the next */
	CHECK_EQ(vcpus[0].stats.fallback_window, 0);

	/* A section's end with IF = 0 wants the window: emulated for that entry; an
	 * interrupt for it meanwhile is a kick; injected once the window comes. */
	section_watched = true;
	V64(vmcb_of(&vcpus[1]), VMCB_RFLAGS) = 0x2;
	x86_inject_events(&vcpus[1], true);
	CHECK(!avic_on(&vcpus[1]));
	CHECK(V64(vmcb_of(&vcpus[1]), VMCB_VINTR) & VINTR_V_IRQ);
	CHECK(!arch_notify_running(&vcpus[1], 1)); /* not running with AVIC: no doorbell */
	CHECK_EQ(x86_deliver_to(&vcpus[0], (u32[]){ 1 }, 1, APIC_DM_FIXED, VEC_A), 1);
	CHECK_EQ(doorbells[0] + doorbells[1], 0);
	CHECK_EQ(kicks[1], 1);
	section_watched = false;
	V64(vmcb_of(&vcpus[1]), VMCB_RFLAGS) = 0x202;
	CHECK_EQ(run(1), RUN_PREEMPTED);
	CHECK(avic_on(&vcpus[1]));
	CHECK_EQ(ntaken[1], 1); /* by the CPU at its VMRUN with AVIC */
	CHECK_EQ(taken[1][0], VEC_A);
	CHECK_EQ(vcpus[1].stats.fallback_window, 1);
}

int main(void)
{
	test_layout();
	test_fallback();
	test_ipi_to_running();
	test_ipi_to_halted();
	test_broadcast_and_logical();
	test_emulated_ipis();
	test_hypervisor_sends_and_level_eoi();
	test_self_and_reads();
	test_entries_without_avic();
	free_all();
	return test_summary();
}
