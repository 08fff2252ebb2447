/* SPDX-License-Identifier: GPL-2.0-only */
/* Guest MSRs that exit (arch/x86/msr.c), those a guest touches without asking CPUID, as
 * KVM answers them: the legacy performance counters (read 0, writes dropped: there is no
 * PMU), IA32_MISC_ENABLE (kept, but for its read-only bits) and the TSC (written through
 * the vCPU's offset). The PV MSRs' handlers are stubbed (their own tests cover them). */
#include "../../../arch/x86/msr.c"
#include "../../../arch/x86/irq/vlapic.c"
#include "../test.h"

/* ---- stubs: the PV MSRs, the vendor's TSC offset and what the vCPU kick needs ---- */
static u32 kvmclock_writes;
int kvmclock_wrmsr(struct vcpu *v, u32 msr, u64 val)
{
	kvmclock_writes++;
	return (void)v, (void)msr, (void)val, 0;
}
static u64 vendor_tsc_offset;
static void set_tsc_offset(struct vcpu *v, u64 offset) { (void)v, vendor_tsc_offset = offset; }
static const struct x86_vendor stub_vendor = { .set_tsc_offset = set_tsc_offset };
const struct x86_vendor *x86_vendor = &stub_vendor;
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

/* How far a's TSC reading may trail b's here: the test runs on a host that may be busy. */
#define SLACK 5000000000ull
#define NEAR(a, b) ((a) - (b) < SLACK)

/* WRMSR to the TSC (kvm-unit-tests' tsc test writes 0 and 100,000,000,000): the vCPU's TSC
 * goes on from the value written, through the CPU's offset; its TSC-deadline timer and its
 * kvmclock record follow. */
static void test_write_tsc(void)
{
	struct vlapic *l = &vcpu.arch.lapic;
	const u64 big = 100000000000ull;
	CHECK_EQ(x86_wrmsr(&vcpu, 0x10, big), 0);
	u64 guest = rd(0x10), host = rdtsc();
	CHECK(NEAR(guest, big));
	CHECK_EQ(vendor_tsc_offset, l->tsc_offset); /* the CPU adds what the model assumes */
	CHECK(NEAR(host + vendor_tsc_offset, guest));
	CHECK_EQ(x86_wrmsr(&vcpu, 0x10, 0), 0);
	CHECK(NEAR(rd(0x10), 0));

	/* A TSC-deadline timer in x2APIC mode, armed in the guest's TSC. */
	CHECK_EQ(x86_wrmsr(&vcpu, MSR_IA32_APIC_BASE, 0xFEE00000 | 0xC00 | 0x100), 0);
	CHECK_EQ(x86_wrmsr(&vcpu, 0x80F, 0x1FF), 0);		 /* SVR: enabled */
	CHECK_EQ(x86_wrmsr(&vcpu, 0x832, (2u << 17) | 0x40), 0); /* LVT timer: TSC-deadline */
	CHECK_EQ(x86_wrmsr(&vcpu, 0x10, big), 0);
	host = rdtsc();
	CHECK_EQ(x86_wrmsr(&vcpu, MSR_IA32_TSC_DEADLINE, big + 1000000000), 0);
	/* The host's TSC reaches what the guest's will (the CPU adds the offset). */
	CHECK_EQ(vlapic_next_deadline(l), big + 1000000000 - vendor_tsc_offset);
	CHECK(vlapic_next_deadline(l) - host <= 1000000000);
	u64 deadline;
	CHECK_EQ(x86_rdmsr(&vcpu, MSR_IA32_TSC_DEADLINE, &deadline), 0);
	CHECK_EQ(deadline, big + 1000000000); /* reads back as written */
	/* The TSC written back to 0: the same deadline is now 100 s of cycles away. */
	CHECK_EQ(x86_wrmsr(&vcpu, 0x10, 0), 0);
	CHECK_EQ(vlapic_next_deadline(l), big + 1000000000 - vendor_tsc_offset);
	CHECK(vlapic_next_deadline(l) - rdtsc() > big);
	/* A deadline the guest's TSC has passed fires at the next look. */
	CHECK_EQ(x86_wrmsr(&vcpu, 0x10, big), 0);
	CHECK_EQ(x86_wrmsr(&vcpu, MSR_IA32_TSC_DEADLINE, 5), 0);
	CHECK(vlapic_next_deadline(l) <= rdtsc());
	vlapic_timer_update(l, rdtsc());
	CHECK_EQ(l->timer_fires, 1);

	/* kvmclock's record is rewritten for the new TSC only when it is enabled. */
	u32 writes = kvmclock_writes;
	CHECK_EQ(x86_wrmsr(&vcpu, 0x10, 0), 0);
	CHECK_EQ(kvmclock_writes, writes);
	vcpu.arch.kvmclock_msr = 0x5000 | 1;
	CHECK_EQ(x86_wrmsr(&vcpu, 0x10, 0), 0);
	CHECK_EQ(kvmclock_writes, writes + 1);
}

int main(void)
{
	static u32 page[PAGE_SIZE / 4] __attribute__((aligned(PAGE_SIZE)));
	vlapic_init(&vcpu.arch.lapic, page, 0, true, 48, 0, NULL, NULL);
	x86_msr_vcpu_init(&vcpu);
	test_legacy_pmu();
	test_misc_enable();
	test_write_tsc();
	return test_summary();
}
