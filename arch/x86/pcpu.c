/* SPDX-License-Identifier: GPL-2.0-only */
/* x86 physical CPU setup (see pcpu.h). The local APIC runs in x2APIC mode, through MSRs,
 * when the firmware handed it over so (as server firmware does with many CPUs) or the CPU
 * has x2APIC (SDM vol. 3 11.12); else in xAPIC mode through its MMIO page, which the
 * firmware's identity map covers (QEMU 7.2's TCG offers no x2APIC, QEMU 10's does). */
#include "pcpu.h"
#include "arch/cpu.h"
#include "arch/x86/speculation.h"
#include "arch/x86/vendor.h"
#include "arch/x86/xstate.h"
#include "hv/arch.h"
#include "hv/printk.h"
#include "hv/lib.h"
#include "hv/mem.h"
#include "hv/sched.h"
#include "hv/on_exit.h"
#include "hv/vm.h"

u64 arch_time_hz;
static u64 lapic_hz;
static volatile u32 *lapic;

#define LAPIC_ID 0x20
#define LAPIC_EOI 0xB0
#define LAPIC_SVR 0xF0
#define LAPIC_ICR_LO 0x300
#define LAPIC_ICR_HI 0x310
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_TIMER_ICR 0x380
#define LAPIC_TIMER_DCR 0x3E0
#define ICR_BUSY BIT(12)

#define MSR_APIC_BASE 0x1B
#define APIC_BASE_EXTD BIT(10) /* x2APIC mode */
#define APIC_BASE_EN BIT(11)
#define MSR_X2APIC_REGS 0x800 /* the register at MMIO offset R is MSR 0x800 + R / 16 */
#define CPUID1_ECX_X2APIC BIT(21)

static enum { APIC_UNSET, APIC_XAPIC, APIC_X2APIC_FIRMWARE, APIC_X2APIC } apic_mode;

static bool apic_owned;	   /* the firmware is gone: the switch to x2APIC may be made */
static bool x2apic_active; /* the CPUs' APICs are in x2APIC mode (or switch first thing) */

static inline bool x2apic(void) { return x2apic_active; }

static inline u32 lapic_read(u32 reg)
{
	return x2apic() ? (u32)rdmsr(MSR_X2APIC_REGS + reg / 16) : lapic[reg / 4];
}

static inline void lapic_write(u32 reg, u32 v)
{
	if (x2apic())
		wrmsr(MSR_X2APIC_REGS + reg / 16, v);
	else
		lapic[reg / 4] = v;
}

/* The mode is chosen on the boot CPU. A switch to x2APIC waits for the takeover (until
 * then the firmware may use the APIC in its own mode), and then each CPU makes it as it
 * comes up (an AP that INIT and STARTUP woke is in xAPIC mode; xAPIC -> x2APIC is a legal
 * switch, 11.12.5). */
static void lapic_setup(void)
{
	u64 base = rdmsr(MSR_APIC_BASE);
	if (apic_mode == APIC_UNSET) {
		u32 a, b, c, d;
		cpuid(1, 0, &a, &b, &c, &d);
		apic_mode = base & APIC_BASE_EXTD   ? APIC_X2APIC_FIRMWARE
			    : c & CPUID1_ECX_X2APIC ? APIC_X2APIC
						    : APIC_XAPIC;
	}
	x2apic_active = apic_mode == APIC_X2APIC_FIRMWARE ||
			(apic_mode == APIC_X2APIC && apic_owned);
	if (x2apic_active && !(base & APIC_BASE_EXTD))
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_EN | APIC_BASE_EXTD);
	lapic = (volatile u32 *)(uintptr_t)(base & ~0xFFFull);
	lapic_write(LAPIC_SVR, 0x100 | VEC_SPURIOUS);
	lapic_write(LAPIC_TIMER_DCR, 0xB);	 /* divide by 1 */
	lapic_write(LAPIC_LVT_TIMER, VEC_TIMER); /* one-shot */
	lapic_write(LAPIC_TIMER_ICR, 0);
}

/* x2APIC IDs are 32 bits; the xAPIC's 8 are the top byte of its ID register. */
u32 x86_lapic_id(void) { return x2apic() ? lapic_read(LAPIC_ID) : lapic_read(LAPIC_ID) >> 24; }

const char *x86_lapic_mode(void)
{
	return apic_mode == APIC_X2APIC_FIRMWARE ? "x2APIC (as the firmware left it)"
	       : apic_mode == APIC_X2APIC ? "x2APIC (switched on at the takeover: the CPU has it)"
					  : "xAPIC (MMIO)";
}

u64 x86_tsc_hz(void) { return arch_time_hz; }

/* 20 ms of the timebase: the TSC's ticks in it (unless the CPU gave its frequency), and the
 * APIC timer's against the TSC's. */
void x86_calibrate(const struct timebase *tb)
{
	lapic_setup();
	lapic_write(LAPIC_LVT_TIMER, BIT(16) | VEC_TIMER); /* masked while measuring */
	lapic_write(LAPIC_TIMER_ICR, 0xFFFFFFFF);
	u64 t0 = rdtsc();
	tb->wait_us(20000);
	u64 t1 = rdtsc();
	u32 left = lapic_read(0x390);
	lapic_write(LAPIC_TIMER_ICR, 0);
	arch_time_hz = tb->tsc_hz ? tb->tsc_hz : (t1 - t0) * 50;
	lapic_hz = (u64)((unsigned __int128)(0xFFFFFFFFu - left) * arch_time_hz / (t1 - t0));
}

u64 arch_time_now(void) { return rdtsc(); }

void arch_timer_arm(u64 deadline)
{
	if (!deadline) {
		lapic_write(LAPIC_TIMER_ICR, 0);
		return;
	}
	u64 now = rdtsc();
	u64 delta = deadline > now ? deadline - now : 1;
	u64 count = (u64)((unsigned __int128)delta * lapic_hz / arch_time_hz);
	lapic_write(LAPIC_TIMER_ICR, (u32)MIN(MAX(count, 1ull), 0xFFFFFFFFull));
}

/* x2APIC: one 64-bit ICR write, the destination in the high half, and no delivery status
 * to wait for (11.12.9). */
static void send_ipi(u32 apic_id, u32 icr_lo)
{
	if (x2apic()) {
		wrmsr(MSR_X2APIC_REGS + LAPIC_ICR_LO / 16, (u64)apic_id << 32 | icr_lo);
		return;
	}
	while (lapic_read(LAPIC_ICR_LO) & ICR_BUSY)
		cpu_relax();
	lapic_write(LAPIC_ICR_HI, apic_id << 24);
	lapic_write(LAPIC_ICR_LO, icr_lo);
}

void arch_send_kick(u32 pcpu) { send_ipi(pcpus[pcpu].arch.apic_id, VEC_KICK); }

void x86_send_notification(u32 pcpu) { send_ipi(pcpus[pcpu].arch.apic_id, VEC_NOTIFY); }

bool arch_notify_running(struct vcpu *v, u32 pcpu)
{
	return x86_vendor->notify && x86_vendor->notify(v, pcpu);
}

/* %gs holds this pCPU's struct pcpu, whose first field is its id. */
u32 arch_pcpu_id(void)
{
	u32 id;
	__asm__ volatile("movl %%gs:0, %0" : "=r"(id));
	return id;
}

void arch_idle(void) { wait_for_interrupt(); }

void arch_irq_window(void) { irq_window(); }

/* ---- descriptor tables ---- */

#define GDT_CODE64 0x00AF9A000000FFFFull /* 0x08 */
#define GDT_DATA 0x00CF92000000FFFFull	 /* 0x10 */
#define TSS_SELECTOR 0x18

struct idt_entry {
	u16 off_lo, sel;
	u8 ist, type;
	u16 off_mid;
	u32 off_hi, zero;
} PACKED;
static struct idt_entry idt[256];

struct table_ptr {
	u16 limit;
	u64 base;
} PACKED;

extern void *trap_table[32];
extern char trap_0xf0[], trap_0xf1[], trap_0xf2[], trap_0xff[];

static void idt_set(int vec, void *handler)
{
	u64 a = (u64)(uintptr_t)handler;
	idt[vec] = (struct idt_entry){ (u16)a, 0x08, 0, 0x8E, (u16)(a >> 16), (u32)(a >> 32), 0 };
}

/* The pCPU's own GDT, for its own TSS: LTR marks a TSS descriptor busy, so no two CPUs
 * load the same one. The TSS descriptor is 16 bytes, an available 64-bit TSS (type 9;
 * SDM vol. 3A, 8.2.3). */
static void tables_load(struct arch_pcpu *p)
{
	u64 tss = (u64)(uintptr_t)&p->tss, limit = sizeof p->tss - 1;
	p->tss.iomap_base = sizeof p->tss; /* no I/O permission bitmap */
	p->gdt[0] = 0;
	p->gdt[1] = GDT_CODE64;
	p->gdt[2] = GDT_DATA;
	p->gdt[3] = (limit & 0xFFFF) | (tss & 0xFFFFFF) << 16 | 0x89ull << 40 |
		    (limit >> 16 & 0xF) << 48 | (tss >> 24 & 0xFF) << 56;
	p->gdt[4] = tss >> 32;
	struct table_ptr g = { sizeof p->gdt - 1, (u64)(uintptr_t)p->gdt };
	struct table_ptr i = { sizeof(idt) - 1, (u64)(uintptr_t)idt };
	__asm__ volatile("lgdt %0\n\t"
			 "mov $0x10, %%ax\n\t"
			 "mov %%ax, %%ds\n\t mov %%ax, %%es\n\t mov %%ax, %%ss\n\t"
			 "xor %%ax, %%ax\n\t mov %%ax, %%fs\n\t mov %%ax, %%gs\n\t"
			 "pushq $0x08\n\t"
			 "lea 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1: lidt %1\n\t"
			 "mov %2, %%ax\n\t"
			 "ltr %%ax"
			 :
			 : "m"(g), "m"(i), "i"(TSS_SELECTOR)
			 : "rax", "memory");
}

struct x86_host_tables x86_host_tables(u32 pcpu)
{
	struct arch_pcpu *p = &pcpus[pcpu].arch;
	return (struct x86_host_tables){ .gdt = (u64)(uintptr_t)p->gdt,
					 .idt = (u64)(uintptr_t)idt,
					 .tss = (u64)(uintptr_t)&p->tss,
					 .tss_selector = TSS_SELECTOR };
}

struct trap_frame {
	u64 r15, r14, r13, r12, r11, r10, r9, r8, rdi, rsi, rbp, rbx, rdx, rcx, rax;
	u64 vector, error, rip, cs, rflags, rsp, ss;
};

void arch_pcpu_describe(u32 pcpu, char *buf, size_t n)
{
	struct arch_pcpu *p = &pcpus[pcpu].arch;
	snprintf(buf, n, "kicks=%llu timer-irqs=%llu notifications=%llu nmis=%llu",
		 (unsigned long long)p->kick_irqs, (unsigned long long)p->timer_irqs,
		 (unsigned long long)p->notify_irqs, (unsigned long long)p->nmis);
}

/* The host's interrupts only end a guest's run or an idle wait: the scheduler then looks
 * at what they were for. A notification that finds the pCPU out of guest mode is seen
 * by the owner's next entry (vlapic_sync_pir). */
static void host_interrupt(struct arch_pcpu *p, u8 vector)
{
	if (vector == VEC_SPURIOUS)
		return;
	if (vector == VEC_KICK)
		p->kick_irqs++;
	else if (vector == VEC_TIMER)
		p->timer_irqs++;
	else if (vector == VEC_NOTIFY)
		p->notify_irqs++;
	lapic_write(LAPIC_EOI, 0);
}

void x86_host_interrupt(u8 vector) { host_interrupt(&pcpus[arch_pcpu_id()].arch, vector); }

static void trap(struct trap_frame *f, u32 id)
{
	struct arch_pcpu *p = &pcpus[id].arch;
	switch (f->vector) {
	case VEC_KICK:
	case VEC_TIMER:
	case VEC_NOTIFY:
	case VEC_SPURIOUS:
		host_interrupt(p, (u8)f->vector);
		return;
	case 2: /* host NMI (e.g. a platform watchdog): nothing of ours uses NMIs */
		p->nmis++;
		return;
	}
	u64 cr2;
	__asm__ volatile("mov %%cr2, %0" : "=r"(cr2));
	extern char ImageBase[];
	printk("\nhv: FATAL: exception %llu (error %llx) on pcpu%u at rip=%llx (hv.so+%llx) "
	       "rsp=%llx cr2=%llx\n"
	       "hv: rax=%llx rbx=%llx rcx=%llx rdx=%llx rsi=%llx rdi=%llx\n",
	       (unsigned long long)f->vector, (unsigned long long)f->error, id,
	       (unsigned long long)f->rip, (unsigned long long)(f->rip - (u64)(uintptr_t)ImageBase),
	       (unsigned long long)f->rsp, (unsigned long long)cr2, (unsigned long long)f->rax,
	       (unsigned long long)f->rbx, (unsigned long long)f->rcx, (unsigned long long)f->rdx,
	       (unsigned long long)f->rsi, (unsigned long long)f->rdi);
	hv_exit();
}

/* This CPU's pCPU by its APIC ID, where %gs:0 cannot be trusted. */
static u32 pcpu_by_apic_id(void)
{
	u32 apic_id = x86_lapic_id();
	for (u32 i = 0; i < npcpus; i++)
		if (pcpus[i].arch.apic_id == apic_id)
			return i;
	return 0;
}

/* A trap where the backend's world switch holds the guest's GS base (vendor.h,
 * guest_gs_at), which no interrupt should reach on a CPU: %gs:0 is no pCPU there, so the
 * handler's GS read would fault, and so would the handler of that fault, until the stack
 * ran out (a triple fault of the machine with nothing on the console). Such an event is
 * handled with the host's GS base, the guest's is put back before the return, and the
 * first few are reported. An interrupt taken so did not make the guest exit (it may come
 * before the entry), so the timer is armed to come again shortly: the scheduler then
 * looks at what the timer or the kick was for. */
void x86_trap(struct trap_frame *f);
void x86_trap(struct trap_frame *f)
{
	if (!x86_vendor || !x86_vendor->guest_gs_at || !x86_vendor->guest_gs_at(f->rip)) {
		trap(f, arch_pcpu_id());
		return;
	}
	u64 guest_gs = rdmsr(MSR_GS_BASE);
	u32 id = pcpu_by_apic_id();
	wrmsr(MSR_GS_BASE, (u64)(uintptr_t)&pcpus[id]);
	if (pcpus[id].arch.world_switch_traps++ < 4)
		printk("hv: pcpu%u: BUG (the CPU's): vector %llu taken at rip %llx, in the %s "
		       "world switch where the CPU holds interrupts and GS is a guest's: handled "
		       "with the host's\n",
		       id, (unsigned long long)f->vector, (unsigned long long)f->rip,
		       x86_vendor->name);
	trap(f, id);
	if (f->vector >= 32)
		arch_timer_arm(arch_time_now() + arch_time_hz / 10000); /* 100 us */
	wrmsr(MSR_GS_BASE, guest_gs);
}

void x86_pcpu_init(u32 id, u32 apic_id)
{
	_Static_assert(offsetof(struct pcpu, id) == 0, "arch_pcpu_id reads %gs:0");
	struct arch_pcpu *p = &pcpus[id].arch;
	p->apic_id = apic_id;
	if (!idt[0].type) {
		for (int v = 0; v < 32; v++)
			idt_set(v, trap_table[v]);
		idt_set(VEC_KICK, trap_0xf0);
		idt_set(VEC_TIMER, trap_0xf1);
		idt_set(VEC_NOTIFY, trap_0xf2);
		idt_set(VEC_SPURIOUS, trap_0xff);
	}
	tables_load(p);
	wrmsr(MSR_GS_BASE, (u64)(uintptr_t)&pcpus[id]);
	apic_owned = true;
	lapic_setup();
	write_cr4(read_cr4() | BIT(9) | BIT(10)); /* OSFXSR, OSXMMEXCPT: the guest's SSE */
	xstate_pcpu_init();
	x86_speculation_pcpu_init();
	x86_vendor->pcpu_enable(p);
}

/* ---- application processors ---- */

extern char ap_trampoline_start[], ap_trampoline_end[], ap_tramp_params[];
extern char ap_tramp_gdt_base[], ap_tramp_pm_jump[], ap_tramp_lm_jump[];
extern u64 ap_tramp_off_gdt, ap_tramp_off_pm, ap_tramp_off_lm;

struct tramp_params {
	u64 cr0, cr3, cr4, efer, stack, entry;
};

static void (*ap_main_fn)(u32 id);
static volatile u32 ap_started_id;
static volatile u32 ap_next_id;

static void delay_us(u64 us)
{
	u64 end = rdtsc() + arch_time_hz / 1000000 * us;
	while (rdtsc() < end)
		cpu_relax();
}

static void ap_entry(void)
{
	u32 id = ap_next_id;
	lapic_setup(); /* its APIC in the boot CPU's mode before its ID is read */
	x86_pcpu_init(id, x86_lapic_id());
	ap_started_id = id;
	ap_main_fn(id);
}

u32 x86_start_aps(const u32 *apic_ids, u32 n, u64 tramp_page, void (*ap_main)(u32 id))
{
	u8 *t = (u8 *)(uintptr_t)tramp_page;
	size_t len = (size_t)(ap_trampoline_end - ap_trampoline_start);
	memcpy(t, ap_trampoline_start, len);
	*(u32 *)(t + (ap_tramp_gdt_base - ap_trampoline_start)) = (u32)(tramp_page +
									ap_tramp_off_gdt);
	*(u32 *)(t + (ap_tramp_pm_jump - ap_trampoline_start)) = (u32)(tramp_page +
								       ap_tramp_off_pm);
	*(u32 *)(t + (ap_tramp_lm_jump - ap_trampoline_start)) = (u32)(tramp_page +
								       ap_tramp_off_lm);
	struct tramp_params *tp = (struct tramp_params *)(t +
							  (ap_tramp_params - ap_trampoline_start));
	tp->cr0 = read_cr0();
	tp->cr3 = read_cr3();
	tp->cr4 = read_cr4();
	/* The host's mode bits; what a backend turns on (SVM's SVME) is its pcpu_enable's. */
	tp->efer = rdmsr(MSR_EFER) & (EFER_SCE | EFER_LME | EFER_NXE);
	tp->entry = (u64)(uintptr_t)ap_entry;
	ap_main_fn = ap_main;
	u32 up = 1;
	for (u32 i = 1; i < n; i++) {
		ap_next_id = up;
		ap_started_id = 0;
		tp->stack = (u64)(uintptr_t)alloc_pages(16) + 16 * PAGE_SIZE;
		send_ipi(apic_ids[i], 0x4500); /* INIT */
		delay_us(10000);
		for (int k = 0; k < 2; k++) {
			send_ipi(apic_ids[i], 0x4600 | (u32)(tramp_page >> 12)); /* STARTUP */
			delay_us(200);
		}
		u64 give_up = rdtsc() + arch_time_hz; /* 1 s */
		while (ap_started_id != up && rdtsc() < give_up)
			cpu_relax();
		if (ap_started_id == up)
			up++;
		else
			printk("hv: pcpu with APIC ID %u did not start; continuing without it\n",
			       apic_ids[i]);
	}
	return up;
}
