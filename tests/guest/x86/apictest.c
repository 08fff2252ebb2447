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
 * then DONE and the ACPI power-off. A step that does not complete within its bound
 * prints X86TEST FAIL with what it saw. */
#include "lib.h"

#define VEC_SELF 0x40
#define VEC_TO_AP 0x41
#define VEC_TIMER 0x42
#define VEC_TO_BSP 0x43
#define IOAPIC 0xfec00000u
#define ROUNDS 1000
#define TIMER_ROUNDS 20
#define SPIN_BOUND 50000000u /* pauses: seconds of Bochs's time */
#define TRAMPOLINE 0x20000   /* free: past the boot info, ACPI tables and 64 KiB */

extern const u8 trampoline[], trampoline_end[];
u32 ap_stack;
static u8 ap_stack_area[8192] __attribute__((aligned(16)));
static volatile u32 counts[256], ap_up, ap_go;

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
	for (;;)
		asm volatile("cli; hlt");
}

void main(const struct start_info *si);
void main(const struct start_info *si)
{
	for (u32 v = 0x40; v <= 0x43; v++)
		set_handler((u8)v, count);
	u32 id = x2apic_enable();
	print("X86TEST start: APIC ID %u\n", id);
	bool ok = test_mmio() & test_self_ipi() & test_timer();
	if (start_ap(id + 1)) {
		u32 got = send_ipis(id + 1, VEC_TO_AP, &counts[VEC_TO_AP]);
		ok &= check(got == ROUNDS, "ipi bsp->ap", got, ROUNDS);
		sti(); /* the AP's IPIs now */
		ap_go = 1;
		ok &= wait_for(&ap_up, 2) && counts[VEC_TO_BSP] == ROUNDS;
		cli();
	} else {
		ok = false;
	}
	print("X86TEST %s\n", ok ? "DONE" : "FAIL: a step failed");
	acpi_poweroff(si);
}
