/* SPDX-License-Identifier: GPL-2.0-only */
/* Guest MSRs that exit (arch/x86/msr.c), those a guest touches without asking CPUID, as
 * KVM answers them: the legacy performance counters (read 0, writes dropped: there is no
 * PMU) and IA32_MISC_ENABLE (kept, but for its read-only bits). The PV MSRs' handlers are
 * stubbed (their own tests cover them). */
#include "../../arch/x86/msr.c"
#include "../../arch/x86/irq/vlapic.c"
#include "test.h"

/* ---- stubs: the PV MSRs and what the vCPU kick needs ---- */
int kvmclock_wrmsr(struct vcpu *v, u32 msr, u64 val) { return (void)v, (void)msr, (void)val, 0; }
int steal_time_wrmsr(struct vcpu *v, u64 val) { return (void)v, (void)val, 0; }
int pv_eoi_wrmsr(struct vcpu *v, u64 val) { return (void)v, (void)val, 0; }
int preempt_count_wrmsr(struct vcpu *v, u64 val) { return (void)v, (void)val, 0; }
void vcpu_kick(struct vcpu *v) { (void)v; }
u64 cpuid_spec_ctrl_bits(cpuid_fn host) { return (void)host, 0; }
bool cpuid_has_ibpb(cpuid_fn host) { return (void)host, false; }
bool cpuid_has_tsc_aux(cpuid_fn host) { return (void)host, false; }

static struct vm vm = { .name = "t" };
static struct vcpu vcpu = { .vm = &vm };

static u64 rd(u32 msr)
{
	u64 val = 0xdead;
	CHECK_EQ(x86_rdmsr(&vcpu, msr, &val), 0);
	return val;
}

/* PerfEvtSel0-3 / PerfCtr0-3 (AMD), PerfCtr0-1 / PerfEvtSel0-1 (P6): every AMD64 CPU has
 * the first, and Linux's perf and kvm-unit-tests' start-up code write them. */
static void test_legacy_pmu(void)
{
	u32 msrs[] = { 0xC0010000, 0xC0010003, 0xC0010004, 0xC0010007, 0xC1, 0xC2, 0x186, 0x187 };
	u64 val;
	for (u32 i = 0; i < ARRAY_SIZE(msrs); i++) {
		CHECK_EQ(x86_wrmsr(&vcpu, msrs[i], 0), 0);
		CHECK_EQ(x86_wrmsr(&vcpu, msrs[i], 0x430076), 0);
		CHECK_EQ(rd(msrs[i]), 0);
	}
	CHECK_EQ(x86_rdmsr(&vcpu, 0xC0010008, &val), -1); /* not one of them: #GP */
	CHECK_EQ(x86_wrmsr(&vcpu, 0xC3, 0), -1);
}

/* IA32_MISC_ENABLE: kvm-unit-tests' msr test writes 0x400c50809 keeping bits 7, 11 and 12
 * and reads it back. */
static void test_misc_enable(void)
{
	CHECK_EQ(rd(0x1A0), 0x1800); /* BTS and PEBS unavailable */
	CHECK_EQ(x86_wrmsr(&vcpu, 0x1A0, 0x400c51889), 0);
	CHECK_EQ(rd(0x1A0), 0x400c51809);		    /* EMON (7) read-only */
	CHECK_EQ(x86_wrmsr(&vcpu, 0x1A0, 0x400c50809), -1); /* BTS unavailable cleared: #GP */
	CHECK_EQ(x86_wrmsr(&vcpu, 0x1A0, 0x400c41809), 0);
	CHECK_EQ(rd(0x1A0), 0x400c41809);
	x86_msr_vcpu_init(&vcpu); /* power-up */
	CHECK_EQ(rd(0x1A0), 0x1800);
}

int main(void)
{
	static u32 page[PAGE_SIZE / 4] __attribute__((aligned(PAGE_SIZE)));
	vlapic_init(&vcpu.arch.lapic, page, 0, true, 48, 0, NULL, NULL);
	x86_msr_vcpu_init(&vcpu);
	test_legacy_pmu();
	test_misc_enable();
	return test_summary();
}
