/* SPDX-License-Identifier: GPL-2.0-only */
/* What the core asks of a physical CPU on arm64: its id, time, the EL2 timer (CNTHP,
 * DDI 0487 D11), kicks (SGI 0), sleeping, and the host interrupt handler. */
#include "arch/arm64/pcpu.h"
#include "arch/arm64/gic_host.h"
#include "arch/arm64/spectre.h"
#include "arch/arm64/vgic_hw.h"
#include "arch/arm64/vsysreg.h"
#include "arch/cpu.h"
#include "hv/arch.h"
#include "hv/printk.h"
#include "hv/lib.h"
#include "hv/sched.h"
#include "hv/on_exit.h"
#include "hv/vm.h"

u64 arch_time_hz;
void arm64_pcpu_init(u32 id, u64 mpidr)
{
	write_sysreg(tpidr_el2, (u64)(uintptr_t)&pcpus[id]); /* for arch_pcpu_id */
	/* The vectors that mitigate Spectre-v2/BHB on each entry from a guest where this
	 * pCPU needs it (spectre.h) */
	write_sysreg(vbar_el2, (u64)(uintptr_t)spec_cpu_init(id));
	write_sysreg(hcr_el2, BIT(31)); /* RW: EL1 is AArch64; no traps while no guest runs */
	/* CPTR_EL2 (D17.2.36): RES1 bits, TZ [8] and TSM [12] trap SVE and SME (hidden from
	 * guests), TTA [20] trace, TAM [30] activity monitors; TFP [10] = 0: FP/SIMD is the
	 * guest's, switched by arch_vcpu_put/load. */
	write_sysreg(cptr_el2, 0x33FF | BIT(20) | BIT(30));
	write_sysreg(cnthctl_el2, BIT(0)); /* EL1PCTEN: the guest reads CNTPCT; CNTP_* trap */
	write_sysreg(cnthp_ctl_el2, 0);
	vsysreg_hw_init_cpu(); /* MDCR_EL2: debug, PMU, profiling and trace registers trap */
	/* Stage 2 (D17.2.173 VTCR_EL2): T0SZ 25 (39-bit IPA), SL0 1 (start at level 1),
	 * write-back inner/outer, inner shareable, 4 KiB granule, PS = the CPU's PA size. */
	write_sysreg(vtcr_el2, 25 | 1ull << 6 | 1ull << 8 | 1ull << 10 | 3ull << 12 |
				       (u64)MIN(read_sysreg(id_aa64mmfr0_el1) & 0xF, 5) << 16 |
				       BIT(31));
	isb();
	__asm__ volatile("tlbi alle1; dsb sy; isb" ::: "memory"); /* no stale guest translations */
	gic_host_init_cpu(id, mpidr);
	vgic_hw_init_cpu();
}

u32 arch_pcpu_id(void) { return ((struct pcpu *)(uintptr_t)read_sysreg(tpidr_el2))->id; }

u64 arch_time_now(void)
{
	isb();
	return read_sysreg(cntpct_el0);
}

void arch_timer_arm(u64 deadline)
{
	struct arch_pcpu *p = &pcpus[arch_pcpu_id()].arch;
	/* The scheduler asks before every guest entry, mostly for what is armed already;
	 * under an emulator each write reprograms a host timer. */
	if (deadline == p->timer_deadline)
		return;
	p->timer_deadline = deadline;
	if (!deadline) {
		write_sysreg(cnthp_ctl_el2, 0);
		return;
	}
	write_sysreg(cnthp_cval_el2, deadline);
	write_sysreg(cnthp_ctl_el2, 1); /* ENABLE, not masked */
	isb();
}

void arch_send_kick(u32 pcpu) { gic_host_send_sgi(pcpu, INTID_KICK); }

bool arch_notify_running(struct vcpu *v, u32 pcpu) /* no direct injection (GICv4) used */
{
	(void)v, (void)pcpu;
	return false;
}

void arch_idle(void) { wait_for_interrupt(); }

void arch_irq_window(void) { irq_window(); }

/* PSCI (DEN0022) SYSTEM_OFF and SYSTEM_RESET do not return when they work. */
static NORETURN void psci_system(u64 fn, const char *what)
{
	printk("hv: %s (PSCI %s)\n", what, fn == PSCI_SYSTEM_OFF ? "SYSTEM_OFF" : "SYSTEM_RESET");
	smc_call(fn, 0, 0, 0);
	printk("hv: the firmware did not %s; halting\n",
	       fn == PSCI_SYSTEM_OFF ? "power off" : "reset");
	for (;;)
		__asm__ volatile("wfi");
}

NORETURN void arch_power_off(void) { psci_system(PSCI_SYSTEM_OFF, "powering off"); }

NORETURN void arch_reboot(void) { psci_system(PSCI_SYSTEM_RESET, "rebooting"); }

/* Host interrupts only set state: the scheduler loop acts on it. Takes one pending
 * interrupt, from the EL2 IRQ vector (the scheduler's irq window, idle: another one still
 * pending is taken right after the return) or straight after a guest exit that an
 * interrupt caused, with interrupts masked (then the irq window takes any other). One at
 * a time: under an emulator every access to the CPU interface costs microseconds, and
 * asking for the next one would be one more. */
void arm64_host_irq(void)
{
	struct arch_pcpu *p = &pcpus[arch_pcpu_id()].arch;
	u32 iar = gic_host_ack();
	switch (iar & 0x3FF) {
	case INTID_KICK:
		p->kicks++;
		break;
	case INTID_HYP_TIMER:
		/* Level-sensitive: off until the scheduler arms it again. */
		write_sysreg(cnthp_ctl_el2, 0);
		p->timer_deadline = 0;
		p->ticks++;
		break;
	case INTID_VTIMER:
		/* The guest's timer fired: keep it quiet until the guest has taken it
		 * (vtimer.c turns it back on when the timer's line drops). */
		gic_host_ppi_enable(INTID_VTIMER, false);
		p->vtimer_masked = true;
		p->vtimer_irqs++;
		break;
	case INTID_MAINT:
		/* The exit was the point (vgic_hw_sync() counted it). */
		break;
	case 1020 ... 1023:
		return; /* spurious: nothing to end */
	default:
		p->spurious++;
		break;
	}
	gic_host_eoi(iar);
}

void arch_pcpu_describe(u32 pcpu, char *buf, size_t n)
{
	struct arch_pcpu *p = &pcpus[pcpu].arch;
	snprintf(buf, n, "kicks=%llu ticks=%llu maintenance=%llu vtimer=%llu spurious=%llu",
		 (unsigned long long)p->kicks, (unsigned long long)p->ticks,
		 (unsigned long long)p->maints, (unsigned long long)p->vtimer_irqs,
		 (unsigned long long)p->spurious);
}

void arm64_hyp_fault(s64 kind, u64 esr, u64 elr, u64 far)
{
	printk("hv: FATAL: exception in the hypervisor on pcpu%u (%s): ESR_EL2 %llx ELR_EL2 %llx "
	       "FAR_EL2 %llx\n",
	       arch_pcpu_id(), kind < 0 ? "unexpected vector" : "synchronous",
	       (unsigned long long)esr, (unsigned long long)elr, (unsigned long long)far);
	hv_exit();
}
