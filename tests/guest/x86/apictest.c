/* SPDX-License-Identifier: GPL-2.0-only */
/* The x86 interrupt test guest (2 vCPUs): what a VMX backend with APIC virtualization
 * must get right, each step printing an X86TEST line that tests/emu/bochs_vmx_guest.sh
 * checks, without Linux in between:
 *   mmio      IOAPIC registers through MMIO (EPT violations the hypervisor emulates): the
 *             version register read, a redirection entry written and read back;
 *   self-ipi  SELF IPIs (x2APIC MSR 0x83f), each taken and EOIed before the next;
 *   timer     the APIC timer in one-shot mode, each expiry waited for in HLT;
 *   ap        vCPU 1 started with INIT and STARTUP into the trampoline (real mode);
 *   ipi       fixed IPIs through the x2APIC ICR, vCPU 0 to 1 and back, each taken
 *             exactly once (the sender waits for it before the next);
 *   ipicost   what an IPI to the other vCPU costs the sender, in TSC cycles (the median
 *             is not kept: the mean of COST_ROUNDS), through the x2APIC ICR and through
 *             the PV hypercall KVM_HC_SEND_IPI where the VM offers it: unicast waiting
 *             for the target's handler, unicast without waiting, and to all others
 *             waiting (the shape of the seeds' ipi_bench; informational);
 *   nested    no interrupt taken with RFLAGS.IF = 0: vCPU 0 takes VEC_PROBE_HIGH with
 *             VEC_PROBE_LOW waiting behind it, EOIs it first in its handler (interrupts
 *             off, as Linux's handlers) and runs on there while vCPU 1 sends it an IPI
 *             (a host interrupt, a kick, for its pCPU); VEC_PROBE_LOW must wait for the
 *             handler's IRET (Bochs 2.7 delivered it there: issue 31, item 4);
 *   dr6       DR6 as vCPU 0 wrote it before the first step: a pattern in its writable
 *             bits, different in each VM, kept while vCPUs of other VMs ran on its pCPU
 *             (VMX has no DR6 in the VMCS: the hypervisor switches it);
 * then DONE and the ACPI power-off. A step that does not complete within its bound
 * prints X86TEST FAIL with what it saw; the timer step waits in HLT, so a timer that
 * never fires leaves the guest halted until the test's own timeout. */
#include "lib.h"
#include "guest_abi/kvm_para.h"

#define VEC_SELF 0x40
#define VEC_TO_AP 0x41
#define VEC_TIMER 0x42
#define VEC_TO_BSP 0x43
#define VEC_COST 0x44
#define VEC_PROBE_LOW 0x45  /* class 4: held back while VEC_PROBE_HIGH is in service */
#define VEC_PROBE_KICK 0x46 /* vCPU 1's IPI to vCPU 0 in its handler */
#define VEC_PROBE_HIGH 0x55
#define PROBE_ROUNDS 20
#define COST_ROUNDS 200
#define ICR_ALL_BUT_SELF (3u << 18)
#define IOAPIC 0xfec00000u
#define ROUNDS 1000
#define TIMER_ROUNDS 20
#define SPIN_BOUND 50000000u /* pauses: seconds of Bochs's time */
#define TRAMPOLINE 0x20000   /* free: past the boot info, ACPI tables and 64 KiB */

extern const u8 trampoline[], trampoline_end[];
u32 ap_stack;
static u8 ap_stack_area[8192] __attribute__((aligned(16)));
static volatile u32 counts[256], ap_up, ap_go;
/* The nested step: its round while vCPU 0 is in VEC_PROBE_HIGH's handler; vCPU 1's
 * kick for it sent; rounds in which VEC_PROBE_LOW came in the handler. */
static volatile u32 probe_in_handler, probe_kicked, probe_nested, probe_round;

static void count(struct frame *f)
{
	counts[f->vector]++;
	wrmsr(X2APIC_EOI, 0);
}

/* Waits (pausing) until *p reaches want; false after SPIN_BOUND pauses. */
static bool wait_for(volatile u32 *p, u32 want)
{
	for (u32 i = 0; *p < want; i++) {
		if (i == SPIN_BOUND)
			return false;
		cpu_relax();
	}
	return true;
}

/* DR6's bits a MOV writes: B0-B3, BD, BS, BT (SDM vol. 3B, 18.2.3); the others read
 * as the fixed 0xFFFF0FF0. */
#define DR6_FIXED 0xFFFF0FF0u
#define DR6_WRITABLE 0xE00Fu
static inline u32 read_dr6(void)
{
	u32 v;
	asm volatile("mov %%db6, %0" : "=r"(v));
	return v;
}
static inline void write_dr6(u32 v) { asm volatile("mov %0, %%db6" : : "r"(v)); }

/* A pattern of the writable bits from the TSC: another VM running this guest beside
 * writes another (one time in 127 the same, which cannot hide a failure for long). */
static u32 dr6_written;
static void dr6_write(void)
{
	u32 t = (u32)rdtsc(), b = (t ^ t >> 7 ^ t >> 13) & 0x7F;
	b = b ? b : 1;
	dr6_written = DR6_FIXED | (b & 0xF) | (b >> 4) << 13;
	write_dr6(dr6_written);
}

static bool test_dr6(void)
{
	u32 got = read_dr6();
	bool ok = got == dr6_written;
	print("X86TEST %s dr6: %s %x (written %x)\n", ok ? "ok" : "FAIL", ok ? "kept" : "read", got,
	      dr6_written);
	return ok;
}

static bool check(bool ok, const char *what, u32 got, u32 want)
{
	print("X86TEST %s %s: %u of %u\n", ok ? "ok" : "FAIL", what, got, want);
	return ok;
}

static bool test_mmio(void)
{
	w32(IOAPIC, 1); /* IOREGSEL: the version register */
	u32 ver = r32(IOAPIC + 0x10);
	w32(IOAPIC, 0x10); /* redirection entry 0, low word: masked, vector 0x55 */
	w32(IOAPIC + 0x10, 0x10055);
	u32 back = r32(IOAPIC + 0x10);
	print("X86TEST %s mmio: ioapic version %x, entries %u, entry 0 %x\n",
	      (ver & 0xff) && ver != ~0u && back == 0x10055 ? "ok" : "FAIL", ver & 0xff,
	      (ver >> 16 & 0xff) + 1, back);
	return (ver & 0xff) && ver != ~0u && back == 0x10055;
}

static bool test_self_ipi(void)
{
	u32 i;
	for (i = 0; i < ROUNDS; i++) {
		wrmsr(X2APIC_SELF_IPI, VEC_SELF);
		sti();
		if (!wait_for(&counts[VEC_SELF], i + 1))
			break;
		cli();
	}
	cli();
	return check(counts[VEC_SELF] == ROUNDS, "self-ipi", counts[VEC_SELF], ROUNDS);
}

static bool test_timer(void)
{
	wrmsr(X2APIC_TIMER_DCR, 0xb);	    /* divide by 1 */
	wrmsr(X2APIC_LVT_TIMER, VEC_TIMER); /* one-shot */
	for (u32 i = 0; i < TIMER_ROUNDS; i++) {
		wrmsr(X2APIC_TIMER_ICR, 200000); /* 0.2 ms of the hypervisor's 1 GHz APIC bus */
		for (u32 k = 0; counts[VEC_TIMER] <= i && k < 100000; k++)
			sti_hlt();
	}
	return check(counts[VEC_TIMER] == TIMER_ROUNDS, "timer", counts[VEC_TIMER], TIMER_ROUNDS);
}

static bool start_ap(u32 apic_id)
{
	memcpy((void *)TRAMPOLINE, trampoline, (u32)(trampoline_end - trampoline));
	ap_stack = (u32)(ap_stack_area + sizeof ap_stack_area);
	wrmsr(X2APIC_ICR, (u64)apic_id << 32 | ICR_INIT);
	for (int k = 0; k < 2; k++)
		wrmsr(X2APIC_ICR, (u64)apic_id << 32 | ICR_STARTUP | TRAMPOLINE >> 12);
	bool up = wait_for(&ap_up, 1);
	return check(up, "ap", ap_up, 1);
}

/* Fixed IPIs to `to`, each waited for on `taken` before the next. */
static u32 send_ipis(u32 to, u8 vector, volatile u32 *taken)
{
	u32 i;
	for (i = 0; i < ROUNDS; i++) {
		wrmsr(X2APIC_ICR, (u64)to << 32 | vector); /* fixed, physical, edge */
		if (!wait_for(taken, i + 1))
			break;
	}
	return *taken;
}

void ap_main(void);
void ap_main(void)
{
	u32 id = x2apic_enable();
	ap_up = 1;
	sti();
	while (!ap_go) /* vCPU 0 sends VEC_TO_AP meanwhile: taken here */
		cpu_relax();
	u32 got = send_ipis(0, VEC_TO_BSP, &counts[VEC_TO_BSP]);
	check(got == ROUNDS, "ipi ap->bsp", got, ROUNDS);
	print("X86TEST ap %u done\n", id);
	ap_up = 2;
	sti();				  /* taking interrupts (ipicost) */
	for (u32 round = 0;; cpu_relax()) /* the nested step's kicks */
		if (probe_in_handler == round + 1) {
			wrmsr(X2APIC_ICR, VEC_PROBE_KICK); /* to APIC ID 0, vCPU 0 */
			probe_kicked = ++round;
		}
}

/* One IPI of VEC_COST to `to` (all other vCPUs with `all`), through the ICR or the PV
 * hypercall (its bitmap from APIC ID `to`: 2 vCPUs). */
static void send_cost_ipi(bool pv, u32 to, bool all)
{
	if (pv)
		hypercall(KVM_HC_SEND_IPI, 1, 0, to, VEC_COST);
	else
		wrmsr(X2APIC_ICR, all ? ICR_ALL_BUT_SELF | VEC_COST : (u64)to << 32 | VEC_COST);
}

/* Mean cycles per IPI over COST_ROUNDS, waiting for each to be taken or not. */
static u32 cost(bool pv, u32 to, bool all, bool wait)
{
	u32 base = counts[VEC_COST];
	u64 t0 = rdtsc();
	for (u32 i = 0; i < COST_ROUNDS; i++) {
		send_cost_ipi(pv, to, all);
		if (wait && !wait_for(&counts[VEC_COST], base + i + 1))
			return 0;
	}
	u64 total = rdtsc() - t0; /* 32-bit division only: no libgcc */
	u32 cycles = total >> 32 ? ~0u : (u32)total / COST_ROUNDS;
	if (!wait) { /* let the last ones arrive (some coalesced in the IRR) */
		wait_for(&counts[VEC_COST], base + 1);
		for (volatile u32 k = 0; k < 100000; k++)
			;
	}
	return cycles;
}

/* VEC_PROBE_HIGH's handler, interrupts off: EOI first, then on until vCPU 1's kick has
 * been sent and a while after it (no exit of its own: a loop without PAUSE). */
static void probe_high(struct frame *f)
{
	(void)f;
	wrmsr(X2APIC_EOI, 0);
	u32 low = counts[VEC_PROBE_LOW];
	probe_in_handler = probe_round;
	for (volatile u32 k = 0; k < SPIN_BOUND / 10 && probe_kicked != probe_round; k++)
		;
	for (volatile u32 k = 0; k < 200000; k++)
		;
	probe_in_handler = 0;
	probe_nested += counts[VEC_PROBE_LOW] != low;
	counts[VEC_PROBE_HIGH]++;
}

static bool test_nested(void)
{
	for (u32 i = 1; i <= PROBE_ROUNDS; i++) {
		probe_round = i;
		wrmsr(X2APIC_SELF_IPI, VEC_PROBE_LOW);
		wrmsr(X2APIC_SELF_IPI, VEC_PROBE_HIGH);
		sti(); /* HIGH, then LOW after its handler's IRET, then the kick */
		bool taken = wait_for(&counts[VEC_PROBE_LOW], i) &&
			     wait_for(&counts[VEC_PROBE_KICK], i);
		cli();
		if (!taken)
			break;
	}
	bool ok = counts[VEC_PROBE_LOW] == PROBE_ROUNDS && !probe_nested;
	print("X86TEST %s nested: %u of %u rounds took the waiting vector in the handler "
	      "(interrupts off); %u kicks sent, %u taken\n",
	      ok ? "ok" : "FAIL", probe_nested, PROBE_ROUNDS, probe_kicked, counts[VEC_PROBE_KICK]);
	return ok;
}

static void test_ipi_cost(u32 to)
{
	u32 r[4];
	cpuid(KVM_CPUID_SIGNATURE, r);
	bool kvm = r[1] == 0x4b4d564b; /* "KVMK" */
	cpuid(KVM_CPUID_FEATURES, r);
	bool pv_ipi = kvm && (r[0] & 1u << KVM_FEATURE_PV_SEND_IPI);
	for (int pv = 0; pv < 2; pv++) {
		if (pv && !pv_ipi) {
			print("X86TEST ipicost pv: absent (no KVM_FEATURE_PV_SEND_IPI)\n");
			continue;
		}
		u32 uw = cost(pv, to, false, true), u = cost(pv, to, false, false);
		u32 bw = cost(pv, to, true, true);
		print("X86TEST ipicost %s: unicast-wait=%u unicast=%u broadcast-wait=%u cycles\n",
		      pv ? "pv" : "icr", uw, u, bw);
	}
}

void main(const struct start_info *si);
void main(const struct start_info *si)
{
	idt_init();
	for (u32 v = 0x40; v <= VEC_PROBE_KICK; v++)
		set_handler((u8)v, count);
	set_handler(VEC_PROBE_HIGH, probe_high);
	u32 id = x2apic_enable();
	print("X86TEST start: APIC ID %u\n", id);
	dr6_write();
	bool ok = test_mmio() & test_self_ipi() & test_timer();
	if (start_ap(id + 1)) {
		u32 got = send_ipis(id + 1, VEC_TO_AP, &counts[VEC_TO_AP]);
		ok &= check(got == ROUNDS, "ipi bsp->ap", got, ROUNDS);
		sti(); /* the AP's IPIs now */
		ap_go = 1;
		ok &= wait_for(&ap_up, 2) && counts[VEC_TO_BSP] == ROUNDS;
		cli();
		test_ipi_cost(id + 1);
		ok &= test_nested();
	} else {
		ok = false;
	}
	ok &= test_dr6();
	print("X86TEST %s\n", ok ? "DONE" : "FAIL: a step failed");
	acpi_poweroff(si);
}
