// SPDX-License-Identifier: GPL-2.0
/*
 * hcfuzz: a hostile guest for the hv hypervisor: its paravirtual interface, its virtual
 * x2APIC and IOAPIC, its MMIO emulation, and the CPU state it lets a guest reach.
 *
 *   insmod hcfuzz.ko [seconds=5] [seed=N] [threads=1] [nmi=1] [ops=all] [rounds=0]
 *                    [storm_us=10000] [cr4_reserved=0] [undecodable=0] && rmmod hcfuzz
 *
 * For `seconds`, `threads` kthreads (not bound: they wander over the vCPUs) draw one
 * operation after another with pseudo-random arguments (xorshift64* seeded from `seed`, or
 * from get_random_u64() when seed=0; the seed is printed for replays):
 *
 *  - ipi: KVM_HC_SEND_IPI with random bitmaps, random and out-of-range lowest APIC IDs,
 *    and ICRs with random level/trigger bits, now and then the logical-destination or
 *    shorthand bits (which KVM rejects) or garbage in the upper half;
 *  - yield, kick: KVM_HC_SCHED_YIELD and KVM_HC_KICK_CPU with random and out-of-range
 *    APIC IDs;
 *  - stats: HV_HC_GET_STATS with buffers that are unaligned, cross a page, lie outside
 *    RAM, in the IOAPIC or local APIC page, beyond 2^52 or wrap around 2^64, random sizes;
 *  - numbers: every hypercall number 1..15, random 32-bit and random 64-bit numbers;
 *  - msr: windows of rdmsr/wrmsr on MSRs 0x4b564d00..07 with random values (addresses like
 *    the ones above, with bit 0 set or clear and random low bits), plus random reads in
 *    0x4b564d00..ff;
 *  - x2apic: windows on the x2APIC MSRs: ICR writes in every delivery mode it may send
 *    (fixed, lowest priority, NMI, the reserved remote-read and ExtINT), with every
 *    shorthand, physical (random, out-of-range, broadcast) and logical destinations,
 *    random level bits and now and then a reserved bit; INIT, STARTUP and SMI only to
 *    physical IDs no CPU has (0x100000 and up); LVT writes (timer, error, LINT0/1,
 *    thermal, perf, CMCI) with random vectors, masks and modes, the timer in one-shot,
 *    periodic, TSC-deadline (deadlines in the past, now, later) and the reserved mode;
 *    the divide and initial count; TPR, ESR, EOI, SELF IPI, SVR and IA32_APIC_BASE
 *    writes, valid ones and ones with reserved bits (x2APIC -> xAPIC, never a disable);
 *    writes to read-only registers; reads of all of 0x800..0x8ff;
 *  - storm: the APIC timer in periodic mode at divide 1 and initial count 1 (armed
 *    directly, or armed one-shot and switched to periodic), for storm_us with interrupts
 *    enabled, at most 10 times a second per thread: hv's floor is one interrupt per 200
 *    us; the ticks Linux took are counted;
 *  - ioapic: windows on the IOAPIC at 0xFEC00000 (under stop_machine, so that no other
 *    CPU of the guest uses the IOAPIC meanwhile; at most 20 a second per thread):
 *    redirection entries of pins Linux keeps masked written with random vectors, modes
 *    (fixed, lowest priority, the reserved 3 and 6), masks, triggers and destinations;
 *    reads of random registers, writes to the read-only and absent ones and to the ID,
 *    accesses of 1, 2 and 8 bytes, accesses at other offsets of the page;
 *  - mmio: loads and stores of 1, 2, 4 and 8 bytes at random (also unaligned) offsets of
 *    pages where nothing is (no RAM, firmware table or device: ioremap'd at start) and
 *    loads from the local APIC page (no xAPIC page here), in many encodings: MOV in every
 *    width, MOV with an immediate, MOVZX/MOVSX, AH and SIL as operands, REX registers,
 *    SIB with disp8/disp32 and without a base, GS-relative, redundant and ignored
 *    prefixes (a REX before 66 is ignored; of two REX the last counts); each load's result
 *    is compared with what those semantics give for the bytes a plain 8-byte load read;
 *  - cr4: MOV to CR4 setting one bit that is clear, of the features CPUID offers, and with
 *    cr4_reserved=1 any of the 64 (reserved ones, features CPUID hides or the CPU lacks:
 *    these must #GP). A write that succeeds is undone at once; the bits accepted though
 *    CPUID lacks their feature are reported. cr4_reserved is off by default: QEMU 7.2's
 *    TCG answers a guest's MOV to CR4 with a bit its CPU model lacks (even VMXE or SMXE)
 *    with #VMEXIT(VMEXIT_INVALID) instead of #GP, and hv then stops the VM. PAE is never
 *    cleared (in long mode that must #GP; that TCG takes it, and its next VMRUN refuses
 *    the state);
 *  - xcr0: XSETBV with invalid XCR0 values (no x87, AVX without SSE, parts of AVX-512,
 *    bits CPUID leaf 0Dh does not offer, random values) and indices, and valid values;
 *    XCR0 is put back at once (between kernel_fpu_begin and _end);
 *  - msrscan: reads of random MSRs (0..1fff, c0000000.., c0010000.., 40000000..,
 *    4b564d00.., random 32-bit numbers) and, where a read faulted, a write;
 *  - kickstorm: for 2 ms, KVM_HC_KICK_CPU and KVM_HC_SEND_IPI (RESCHEDULE_VECTOR) in a
 *    tight loop at another of its vCPUs (whose pCPU another VM may be running), at most
 *    20 times a second per thread.
 *
 * ops= limits the run to some of these (ops=all: every one), to narrow down a failure.
 * rounds=R splits the run into R rounds, each a benign half (the threads spin in the
 * kernel: busy, but with no exit of their own) and an attack half, and prints a line as
 * each begins ("hcfuzz: phase benign round=1", "... attack round=1", ... "hcfuzz: phase
 * end"): a victim VM's progress can be compared between the two kinds of half,
 * interleaved so that whatever else changes over the run (the load of the machine under
 * an emulator) weighs on both. The threads, the rounds, the scratch area and its guard
 * pages are the frame both fuzzers share (fuzz_frame.h).
 * undecodable=N (1..6): before the run, one MMIO instruction that hv does not emulate
 * (xchg, add, movsb, cmp, movnti, lock or: in that order) to a page where nothing
 * is; under hv that stops the VM. Not part of ops=all.
 *
 * It must not break a guest that runs on real KVM, so some arguments are restricted:
 *
 *  - Whatever argument a hypervisor might write to (buffers, MSR addresses, and a0 of
 *    every other call, since KVM_HC_CLOCK_PAIRING writes there) is either inside this
 *    module's scratch area or a range no RAM or firmware table covers. The area is
 *    followed by guard pages that must stay untouched: a change is reported.
 *  - Delivery modes INIT, STARTUP and SMI are never sent to its own CPUs (KVM_HC_SEND_IPI
 *    delivers any mode; an INIT resets the vCPU). Vectors are illegal ones (0..15, which
 *    the APIC must drop), benign system vectors (timer, IRQ work, call-function,
 *    reschedule, APIC error) or device-range vectors other than 0x80; never 16..31 (they
 *    would run exception handlers), 0x80 (the int80 entry assumes user mode), 0xff (Linux
 *    does not EOI the spurious vector, so it would stay in service and mask all
 *    interrupts) or the other system vectors (REBOOT_VECTOR stops a CPU). Random 32/64-bit
 *    numbers get the same safe arguments, so they are harmless under any interpretation.
 *    LVT and IOAPIC entries get the same vectors: whatever fires is one of them.
 *  - NMIs (delivery mode NMI, by hypercall or ICR) are sent at most 4 times a second per
 *    thread, as Linux logs every NMI it cannot attribute; nmi=0 sends none.
 *  - Each MSR, x2APIC, CR4 or XCR0 window runs with interrupts disabled on one CPU and
 *    puts back what it changed before it enables them. The KVM MSR window reads the 8
 *    MSRs, does 1-8 random writes, and writes the saved values back (ASYNC_PF_INT,
 *    ASYNC_PF_EN, SYSTEM_TIME_NEW, STEAL_TIME, PV_EOI_EN, POLL_CONTROL, the ones that were
 *    readable) and reads them back to check. WALL_CLOCK_NEW and ASYNC_PF_ACK are not
 *    restored: writing them is an action (copy the wall clock, acknowledge), not a
 *    setting. This relies on the MSRs reading back what was written, as on KVM. If a
 *    value cannot be restored, the scratch area is leaked rather than freed, since the
 *    hypervisor may still write to it. The x2APIC window restores TPR, SVR, the LVTs and
 *    the divide, and re-arms the timer to fire at once (the handler of Linux's clock
 *    event device then programs it anew). The APIC is never disabled (in software or
 *    hardware): interrupts sent to it meanwhile would be lost. An EOI is written only
 *    while nothing is in service. MSRs are written by msrscan only where a read faulted,
 *    never in the x2APIC or KVM ranges or the write-only PRED_CMD, FLUSH_CMD and
 *    UCODE_WRITE, never the Hyper-V range.
 *  - CR4 bits are only set where they are clear, so nothing Linux relies on (FSGSBASE,
 *    PCIDE, SMEP ...) is ever off; FRED (bit 32) is not touched where CPUID offers it.
 *  - MMIO goes only to pages no e820 entry and no iomem resource (RAM, reserved ranges,
 *    PCI windows) covers, below the guest's physical address width; the IOAPIC only to
 *    entries of masked pins (whose lines are then idle), restored.
 *
 * Output: "hcfuzz: N hypercalls, M msr accesses, results: zero=.. positive=.. enosys=..
 * einval=.. efault=.. eperm=.. eopnotsupp=.. e2big=.. other-negative=.. msr-ok=..
 * msr-fault=..", then a line per group of operations, then "hcfuzz: hv-counted:
 * faults=F unclaimed-mmio=U": the MSR accesses that faulted (each one a #GP the
 * hypervisor answered, so its bad-accesses counter must have grown by at least F) and
 * the accesses to where nothing is (its unclaimed counter: at least U); warnings for
 * failed restores, guard damage or a load that read what its encoding cannot give;
 * "hcfuzz: done". The init function returns 0 after the run (-ENODEV without a
 * KVM-compatible hypervisor, where VMMCALL would be #UD); the caller unloads the module
 * with rmmod.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/sizes.h>
#include <linux/irqflags.h>
#include <linux/stop_machine.h>
#include <linux/kvm_para.h>
#include <asm/apic.h>
#include <asm/apicdef.h>
#include <asm/asm.h>
#include <asm/e820/api.h>
#include <asm/fpu/api.h>
#include <asm/hardirq.h>
#include <asm/irq_vectors.h>
#include <asm/msr.h>
#include <asm/page.h>
#include <asm/processor.h>
#include <asm/smp.h>

#include "hv_para.h"

#define FUZZ_NAME "hcfuzz"
#define FUZZ_SECONDS 5
#define FUZZ_OPS                                                                          \
	"ipi, yield, kick, stats, numbers, msr, x2apic, storm, ioapic, mmio, cr4, xcr0, " \
	"msrscan, kickstorm"
#include "fuzz_frame.h"

static unsigned int threads = 1;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "concurrent fuzzing threads, 1..64 (default 1)");

static bool nmi = true;
module_param(nmi, bool, 0444);
MODULE_PARM_DESC(nmi, "also send NMIs, at most 4/s per thread (default 1)");

static unsigned int storm_us = 10000;
module_param(storm_us, uint, 0444);
MODULE_PARM_DESC(storm_us, "length of one timer storm, at most 10 per second (default 10000)");

static bool cr4_reserved;
module_param(cr4_reserved, bool, 0444);
MODULE_PARM_DESC(cr4_reserved, "cr4: also set reserved CR4 bits and ones of features the CPU "
			       "lacks (under QEMU 7.2's TCG this ends the VM; default 0)");

static unsigned int undecodable;
module_param(undecodable, uint, 0444);
MODULE_PARM_DESC(undecodable, "1..6: first run one MMIO instruction hv cannot emulate "
			      "(this stops the VM under hv; default 0: none)");

#define HCF_MAX_THREADS 64
#define HCF_PHYS_LIMIT BIT_ULL(52) /* architectural physical address limit */
#define HCF_MMIO_PAGES 8	   /* pages where nothing is, mapped for the mmio op */

enum hcf_op {
	HCF_OP_IPI,
	HCF_OP_YIELD,
	HCF_OP_KICK,
	HCF_OP_STATS,
	HCF_OP_NUMBERS,
	HCF_OP_MSR,
	HCF_OP_X2APIC,
	HCF_OP_STORM,
	HCF_OP_IOAPIC,
	HCF_OP_MMIO,
	HCF_OP_CR4,
	HCF_OP_XCR0,
	HCF_OP_MSRSCAN,
	HCF_OP_KICKSTORM,
	HCF_OP_NR
};

static const char *const hcf_op_names[HCF_OP_NR] = {
	"ipi",	 "yield",  "kick", "stats", "numbers", "msr",	  "x2apic",
	"storm", "ioapic", "mmio", "cr4",   "xcr0",    "msrscan", "kickstorm",
};

/* How often each operation is drawn, relative to the others. */
static const u8 hcf_weight[HCF_OP_NR] = {
	[HCF_OP_IPI] = 3,     [HCF_OP_YIELD] = 2,     [HCF_OP_KICK] = 2,   [HCF_OP_STATS] = 2,
	[HCF_OP_NUMBERS] = 6, [HCF_OP_MSR] = 1,	      [HCF_OP_X2APIC] = 3, [HCF_OP_STORM] = 1,
	[HCF_OP_IOAPIC] = 1,  [HCF_OP_MMIO] = 3,      [HCF_OP_CR4] = 1,	   [HCF_OP_XCR0] = 1,
	[HCF_OP_MSRSCAN] = 2, [HCF_OP_KICKSTORM] = 1,
};

enum hcf_result {
	HCF_R_ZERO,
	HCF_R_POSITIVE,
	HCF_R_ENOSYS,
	HCF_R_EINVAL,
	HCF_R_EFAULT,
	HCF_R_EPERM,
	HCF_R_EOPNOTSUPP,
	HCF_R_E2BIG,
	HCF_R_NEGATIVE,
	HCF_R_NR
};

static const char *const hcf_result_names[HCF_R_NR] = {
	"zero",	 "positive",   "enosys", "einval",	   "efault",
	"eperm", "eopnotsupp", "e2big",	 "other-negative",
};

struct hcf_thread {
	struct fuzz_thread f;
	unsigned long next_nmi; /* jiffies */
	unsigned long next_storm, next_ioapic, next_kickstorm;
	u32 bad_msr; /* the last one that could not be restored */
	u64 bad_value;
	/* CR4 bits accepted without CPUID, and refused although CPUID offers them */
	u64 cr4_hidden, cr4_unexpected_gp;
	/* clang-format off */
	struct_group(c, /* counters, summed over the threads */
		u64 hypercalls;
		u64 results[HCF_R_NR];
		u64 msr_ok, msr_fault;
		u64 restore_failures;
		/* x2apic, storm */
		u64 apic_windows, icr_writes, apic_reserved_ok;
		u64 storms, storm_ticks, storm_ns;
		/* ioapic, mmio */
		u64 ioapic_windows, ioapic_accesses;
		u64 mmio, mmio_wrong;
		/* cr4, xcr0 */
		u64 cr4_gp, cr4_ok;
		u64 xsetbv_gp, xsetbv_ok, xsetbv_invalid_ok, xsetbv_valid_gp;
		/* msrscan, kickstorm */
		u64 scan_reads, scan_writes;
		u64 kicks, kick_ipis;
	);
	/* clang-format on */
};

static atomic_t hcf_wrong_seen;

static void __iomem *hcf_ioapic;
static void __iomem *hcf_lapic_page;
static void __iomem *hcf_mmio_va[HCF_MMIO_PAGES];
static phys_addr_t hcf_mmio_pa[HCF_MMIO_PAGES];
static unsigned int hcf_nmmio;

/* The KVM PV MSRs, and the project's own one. */
static const u32 hcf_msrs[] = {
	MSR_KVM_WALL_CLOCK_NEW, MSR_KVM_SYSTEM_TIME_NEW, MSR_KVM_ASYNC_PF_EN,
	MSR_KVM_STEAL_TIME,	MSR_KVM_PV_EOI_EN,	 MSR_KVM_POLL_CONTROL,
	MSR_KVM_ASYNC_PF_INT,	MSR_KVM_ASYNC_PF_ACK,	 HV_MSR_PREEMPT_COUNT,
};

/* Restored at the end of a window, in this order (the vector before the enable). */
static const u32 hcf_restored[] = {
	MSR_KVM_ASYNC_PF_INT, MSR_KVM_ASYNC_PF_EN,  MSR_KVM_SYSTEM_TIME_NEW, MSR_KVM_STEAL_TIME,
	MSR_KVM_PV_EOI_EN,    MSR_KVM_POLL_CONTROL, HV_MSR_PREEMPT_COUNT,
};

static unsigned int hcf_msr_index(u32 msr)
{
	unsigned int i = 0;

	while (hcf_msrs[i] != msr)
		i++;
	return i;
}

/*
 * Interrupt vectors Linux tolerates receiving at any time: their handlers EOI. Not
 * SPURIOUS_APIC_VECTOR: its handler does not EOI (a real spurious interrupt sets no ISR
 * bit), so a delivered 0xff would stay in service and mask every interrupt.
 */
static const u8 hcf_benign_vectors[] = {
	LOCAL_TIMER_VECTOR,   IRQ_WORK_VECTOR,	 CALL_FUNCTION_SINGLE_VECTOR,
	CALL_FUNCTION_VECTOR, RESCHEDULE_VECTOR, ERROR_APIC_VECTOR,
};

/* Delivery modes; NMI last, chosen only under the NMI budget (hcf_icr). */
static const u32 hcf_modes[] = {
	APIC_DM_FIXED, APIC_DM_LOWEST, APIC_DM_REMRD, APIC_DM_EXTINT, APIC_DM_NMI,
};

static u64 hcf_rand(struct hcf_thread *t) { return fuzz_rand(&t->f.rng); }

static long hcf_hypercall(u64 nr, u64 a0, u64 a1, u64 a2, u64 a3)
{
	long ret;

	asm volatile(KVM_HYPERCALL
		     : "=a"(ret)
		     : "a"(nr), "b"(a0), "c"(a1), "d"(a2), "S"(a3)
		     : "memory");
	return ret;
}

static void hcf_count(struct hcf_thread *t, long ret)
{
	enum hcf_result r;

	if (ret == 0)
		r = HCF_R_ZERO;
	else if (ret > 0)
		r = HCF_R_POSITIVE;
	else if (ret == -KVM_ENOSYS)
		r = HCF_R_ENOSYS;
	else if (ret == -KVM_EINVAL)
		r = HCF_R_EINVAL;
	else if (ret == -KVM_EFAULT)
		r = HCF_R_EFAULT;
	else if (ret == -KVM_EPERM)
		r = HCF_R_EPERM;
	else if (ret == -KVM_EOPNOTSUPP)
		r = HCF_R_EOPNOTSUPP;
	else if (ret == -KVM_E2BIG)
		r = HCF_R_E2BIG;
	else
		r = HCF_R_NEGATIVE;
	t->results[r]++;
	t->hypercalls++;
}

/* True when nothing (RAM, firmware table, reserved range) is near gpa. */
static bool fuzz_unbacked(u64 gpa)
{
	u64 start = gpa & ~63ULL;

	if (start >= HCF_PHYS_LIMIT)
		return true;
	return !e820__mapped_any(start, start + 64 + FUZZ_SLACK, 0) &&
	       region_intersects(start, 64 + FUZZ_SLACK, IORESOURCE_SYSTEM_RAM, IORES_DESC_NONE) ==
		       REGION_DISJOINT;
}

/* A target (fuzz_target(), 64-byte aligned in the area); of its own kind the IOAPIC or
 * the local APIC page. */
static u64 hcf_gpa(struct hcf_thread *t)
{
	u64 r = hcf_rand(t);

	if ((r & 7) == 5)
		return ((r & 8) ? IO_APIC_DEFAULT_PHYS_BASE : APIC_DEFAULT_PHYS_BASE) +
		       ((r >> 8) & 0xfff);
	return fuzz_target(r, 64, 0);
}

static u64 hcf_apic_id(struct hcf_thread *t)
{
	u64 r = hcf_rand(t);

	switch (r & 3) {
	case 0:
	case 1: /* around the real ones */
		return (r >> 8) % (nr_cpu_ids + 4);
	case 2:
		return (u32)(r >> 8);
	default:
		return r >> 2;
	}
}

/* A vector that is safe to deliver (see the header), from the random bits r. */
static u32 hcf_vector(u64 r)
{
	u32 vector;

	switch (r & 3) {
	case 0: /* illegal */
		return (r >> 7) & 15;
	case 1:
	case 2:
		return hcf_benign_vectors[((r >> 7) & 0xff) % ARRAY_SIZE(hcf_benign_vectors)];
	default:
		vector = FIRST_EXTERNAL_VECTOR +
			 ((r >> 7) & 0xff) % (FIRST_SYSTEM_VECTOR - FIRST_EXTERNAL_VECTOR);
		return vector == IA32_SYSCALL_VECTOR ? RESCHEDULE_VECTOR : vector;
	}
}

/* Whether an NMI may be sent now (at most 4 a second per thread); takes the budget. */
static bool hcf_nmi_ok(struct hcf_thread *t)
{
	if (!nmi || time_before(jiffies, t->next_nmi))
		return false;
	t->next_nmi = jiffies + HZ / 4;
	return true;
}

/* An ICR value; NMI delivery only when allow_nmi and the NMI budget permits. */
static u64 hcf_icr(struct hcf_thread *t, bool allow_nmi)
{
	u64 r = hcf_rand(t), icr;
	u32 mode, vector;

	if (allow_nmi && (r & 0x100) && hcf_nmi_ok(t)) {
		mode = APIC_DM_NMI;
	} else {
		mode = hcf_modes[(r & 0xff) % (ARRAY_SIZE(hcf_modes) - 1)];
	}

	vector = hcf_vector(r >> 9);
	icr = mode | vector | (r & (APIC_INT_ASSERT | APIC_INT_LEVELTRIG));
	if (!((r >> 24) & 7))
		icr |= APIC_DEST_LOGICAL;
	if (!((r >> 27) & 7))
		icr |= ((r >> 30) & 3) << 18; /* destination shorthand */
	if (!((r >> 32) & 7))
		icr |= hcf_rand(t) << 32;
	return icr;
}

static void hcf_send_ipi(struct hcf_thread *t)
{
	u64 r = hcf_rand(t), lo, hi, min;

	switch (r & 3) {
	case 0:
		lo = hcf_rand(t);
		break;
	case 1:
		lo = BIT_ULL((r >> 8) & 63);
		break;
	case 2:
		lo = U64_MAX;
		break;
	default:
		lo = 0;
		break;
	}
	hi = (r & 4) ? hcf_rand(t) : 0;
	switch ((r >> 3) & 3) {
	case 0:
		min = 0;
		break;
	case 1: /* min + 64 or + 128 wraps around 2^32 */
		min = U32_MAX - (r >> 16) % 200;
		break;
	default:
		min = hcf_apic_id(t);
		break;
	}
	hcf_count(t, hcf_hypercall(KVM_HC_SEND_IPI, lo, hi, min, hcf_icr(t, true)));
}

static void hcf_get_stats(struct hcf_thread *t)
{
	static const u64 sizes[] = {
		0,
		1,
		7,
		8,
		sizeof(struct hv_guest_stats) - 1,
		sizeof(struct hv_guest_stats),
		sizeof(struct hv_guest_stats) + 1,
		PAGE_SIZE,
		U32_MAX,
		U64_MAX,
	};
	u64 r = hcf_rand(t), size;

	size = (r & 1) ? r >> 32 : sizes[(r >> 1) % ARRAY_SIZE(sizes)];
	hcf_count(t,
		  hcf_hypercall(HV_HC_GET_STATS, hcf_gpa(t), size, hcf_rand(t), hcf_icr(t, false)));
}

/* A call by number with arguments that are safe under any interpretation. */
static void hcf_generic(struct hcf_thread *t, u64 nr)
{
	hcf_count(t, hcf_hypercall(nr, hcf_gpa(t), hcf_rand(t), hcf_apic_id(t), hcf_icr(t, false)));
}

static bool hcf_rdmsr(struct hcf_thread *t, u32 msr, u64 *val)
{
	if (rdmsrl_safe(msr, val)) {
		t->msr_fault++;
		return false;
	}
	t->msr_ok++;
	return true;
}

static bool hcf_wrmsr(struct hcf_thread *t, u32 msr, u64 val)
{
	if (wrmsrl_safe(msr, val)) {
		t->msr_fault++;
		return false;
	}
	t->msr_ok++;
	return true;
}

static u64 hcf_msr_value(struct hcf_thread *t, u32 msr)
{
	u64 r = hcf_rand(t);

	switch (msr) {
	case MSR_KVM_POLL_CONTROL:
	case MSR_KVM_ASYNC_PF_ACK:
		return (r & 4) ? hcf_rand(t) : (r >> 3) & 1;
	case MSR_KVM_ASYNC_PF_INT:
		return (r & 4) ? hcf_rand(t) : (r >> 3) & 0xff;
	default: /* a guest-physical address with flags in the low bits */
		switch (r & 3) {
		case 0:
			return 0;
		case 1:
			return hcf_gpa(t) | 1;
		case 2:
			return hcf_gpa(t) & ~1ULL;
		default:
			return hcf_gpa(t) ^ ((r >> 2) & 63);
		}
	}
}

static void hcf_msr_window(struct hcf_thread *t)
{
	u64 saved[ARRAY_SIZE(hcf_msrs)], val;
	bool readable[ARRAY_SIZE(hcf_msrs)];
	unsigned long flags;
	unsigned int i, j, n;

	local_irq_save(flags);
	for (i = 0; i < ARRAY_SIZE(hcf_msrs); i++)
		readable[i] = hcf_rdmsr(t, hcf_msrs[i], &saved[i]);
	for (n = 1 + hcf_rand(t) % 8; n; n--) {
		u32 msr = hcf_msrs[hcf_rand(t) % ARRAY_SIZE(hcf_msrs)];

		hcf_wrmsr(t, msr, hcf_msr_value(t, msr));
		hcf_rdmsr(t, msr, &val);
	}
	hcf_rdmsr(t, MSR_KVM_WALL_CLOCK_NEW + hcf_rand(t) % 256, &val);

	for (j = 0; j < ARRAY_SIZE(hcf_restored); j++) {
		u32 msr = hcf_restored[j];

		i = hcf_msr_index(msr);
		if (!readable[i])
			continue;
		if (hcf_wrmsr(t, msr, saved[i]) && hcf_rdmsr(t, msr, &val) && val == saved[i])
			continue;
		t->restore_failures++;
		t->bad_msr = msr;
		t->bad_value = saved[i];
	}
	local_irq_restore(flags);
}

/* ---- the x2APIC ---- */

#define X2_TPR 0x808
#define X2_EOI 0x80b
#define X2_SVR 0x80f
#define X2_ISR0 0x810
#define X2_ESR 0x828
#define X2_LVT_CMCI 0x82f
#define X2_ICR 0x830
#define X2_LVT_TIMER 0x832
#define X2_LVT_ERROR 0x837
#define X2_TMICT 0x838
#define X2_TMCCT 0x839
#define X2_TDCR 0x83e
#define X2_SELF_IPI 0x83f
#define X2_TIMER_PERIODIC (1u << 17)
#define X2_TIMER_DEADLINE (2u << 17)
#define X2_ICR_RSVD (BIT_ULL(12) | BIT_ULL(13) | BIT_ULL(16) | BIT_ULL(17) | 0xfff00000ULL)
#define X2_ICR_NOWHERE 0x100000u /* physical IDs from here on name no CPU (see header) */

/* The LVTs besides the timer's, restored at the end of a window. */
static const u32 hcf_lvts[] = { X2_LVT_CMCI, 0x833, 0x834, 0x835, 0x836, X2_LVT_ERROR };

struct hcf_timer {
	u64 lvt, dcr, icr;
	bool ok;
};

static void hcf_timer_save(struct hcf_thread *t, struct hcf_timer *s)
{
	s->ok = hcf_rdmsr(t, X2_LVT_TIMER, &s->lvt) && hcf_rdmsr(t, X2_TDCR, &s->dcr) &&
		hcf_rdmsr(t, X2_TMICT, &s->icr);
}

static void hcf_restore_failed(struct hcf_thread *t, u32 msr, u64 val)
{
	t->restore_failures++;
	t->bad_msr = msr;
	t->bad_value = val;
}

/* Linux's timer as it was, re-armed to fire at once (see the header). */
static void hcf_timer_restore(struct hcf_thread *t, const struct hcf_timer *s)
{
	u64 val;

	if (!s->ok)
		return;
	hcf_wrmsr(t, X2_TDCR, s->dcr);
	hcf_wrmsr(t, X2_LVT_TIMER, s->lvt);
	if ((s->lvt & (3u << 17)) == X2_TIMER_DEADLINE)
		hcf_wrmsr(t, MSR_IA32_TSC_DEADLINE, rdtsc());
	else if (s->icr)
		hcf_wrmsr(t, X2_TMICT, (s->lvt & X2_TIMER_PERIODIC) ? s->icr : 1);
	if (!hcf_rdmsr(t, X2_LVT_TIMER, &val) || val != s->lvt)
		hcf_restore_failed(t, X2_LVT_TIMER, s->lvt);
	if (!hcf_rdmsr(t, X2_TDCR, &val) || val != s->dcr)
		hcf_restore_failed(t, X2_TDCR, s->dcr);
}

/* An x2APIC ICR value (see the header for what is sent where). */
static u64 hcf_x2apic_icr(struct hcf_thread *t)
{
	u64 r = hcf_rand(t), icr;
	u32 mode, dest, sh = 0;
	bool logical = false;

	switch (r & 15) {
	case 0 ... 6:
		mode = APIC_DM_FIXED;
		break;
	case 7 ... 9:
		mode = APIC_DM_LOWEST;
		break;
	case 10:
		mode = hcf_nmi_ok(t) ? APIC_DM_NMI : APIC_DM_FIXED;
		break;
	case 11:
		mode = APIC_DM_REMRD;
		break;
	case 12:
		mode = APIC_DM_EXTINT;
		break;
	default: {
		static const u32 nowhere[] = { APIC_DM_INIT, APIC_DM_STARTUP, APIC_DM_SMI };

		mode = nowhere[(r >> 4) % 3];
		dest = X2_ICR_NOWHERE + (u32)(r >> 32) % (0xfffffff0u - X2_ICR_NOWHERE);
		return mode | hcf_vector(r >> 8) | ((r & BIT(20)) ? APIC_INT_ASSERT : 0) |
		       ((u64)dest << 32);
	}
	}
	if (!((r >> 4) & 1))
		sh = (r >> 5) & 3;
	switch ((r >> 7) & 7) {
	case 0:
		dest = U32_MAX; /* broadcast */
		break;
	case 1:
	case 2:
		logical = true;
		dest = (((r >> 10) & 1) ? (u32)(r >> 48) << 16 : 0) | (u16)(r >> 32);
		break;
	default:
		dest = (u32)hcf_apic_id(t);
		break;
	}
	icr = mode | hcf_vector(r >> 11) | ((u64)sh << 18) | ((u64)dest << 32) |
	      (logical ? APIC_DEST_LOGICAL : 0) | (r & (APIC_INT_ASSERT | APIC_INT_LEVELTRIG));
	if (!((r >> 24) & 7)) { /* a reserved bit: must #GP */
		u64 bit = BIT_ULL(12 + (r >> 27) % 20);

		icr |= (bit & X2_ICR_RSVD) ? bit : BIT_ULL(13);
	}
	return icr;
}

/* A value for an LVT (and the reserved-bit variant with reserved set). */
static u64 hcf_lvt_value(struct hcf_thread *t, u32 msr, bool *reserved)
{
	u64 r = hcf_rand(t), val = hcf_vector(r) | ((r & BIT(16)) ? APIC_LVT_MASKED : 0);

	*reserved = false;
	if (msr == X2_LVT_TIMER) {
		val |= (u64)((r >> 17) & 3) << 17; /* 3: reserved, must #GP */
		*reserved = ((r >> 17) & 3) == 3;
	} else if (msr != X2_LVT_ERROR) {
		val |= (r & BIT(20)) ? APIC_DM_NMI : APIC_DM_FIXED;
		if (msr == 0x835 || msr == 0x836) /* LINT0/1: polarity, trigger */
			val |= r & (BIT(13) | BIT(15));
	}
	if (!((r >> 24) & 7)) {
		val |= BIT_ULL(21 + (r >> 27) % 43);
		*reserved = true;
	}
	return val;
}

/* A write that must fault (a reserved bit was set); counts one that did not. */
static void hcf_wrmsr_reserved(struct hcf_thread *t, u32 msr, u64 val, bool reserved)
{
	if (hcf_wrmsr(t, msr, val) && reserved)
		t->apic_reserved_ok++;
}

static void hcf_x2apic_step(struct hcf_thread *t)
{
	static const u32 read_only[] = { 0x802, 0x803, 0x80a, 0x80d, 0x810,   0x817,
					 0x818, 0x81f, 0x820, 0x827, X2_TMCCT };
	u64 r = hcf_rand(t), val, isr = 0;
	bool reserved;
	unsigned int i;
	u32 msr;

	switch (r % 12) {
	case 0 ... 2:
		val = hcf_x2apic_icr(t);
		hcf_wrmsr_reserved(t, X2_ICR, val, val & X2_ICR_RSVD);
		t->icr_writes++;
		break;
	case 3: /* an LVT */
		msr = (r >> 8) % 7 ? 0x831 + (r >> 8) % 7 : X2_LVT_CMCI;
		val = hcf_lvt_value(t, msr, &reserved);
		hcf_wrmsr_reserved(t, msr, val, reserved);
		break;
	case 4: /* the timer: divide, initial count, TSC deadline */
		switch ((r >> 8) & 3) {
		case 0:
			val = (r >> 10) & ((r & BIT(30)) ? 0xff : 0xb);
			hcf_wrmsr_reserved(t, X2_TDCR, val, val & ~0xbULL);
			break;
		case 1:
			hcf_wrmsr(t, X2_TMICT,
				  (r >> 12) & 1 ? 1 : (u32)(r >> 16) >> ((r >> 13) & 31));
			break;
		default: { /* in the past, now, soon, far */
			static const u64 when[] = { 0, 1 };
			u64 now = rdtsc();

			switch ((r >> 10) & 3) {
			case 0:
				val = when[(r >> 12) & 1];
				break;
			case 1:
				val = now - ((r >> 16) & 0xffffff);
				break;
			case 2:
				val = now + ((r >> 16) & 0xfffff);
				break;
			default:
				val = hcf_rand(t);
				break;
			}
			hcf_wrmsr(t, MSR_IA32_TSC_DEADLINE, val);
			break;
		}
		}
		break;
	case 5: /* TPR, sometimes with reserved bits */
		val = (r >> 8) & ((r & BIT(20)) ? 0xffff : 0xff);
		hcf_wrmsr_reserved(t, X2_TPR, val, val > 0xff);
		break;
	case 6: /* ESR and EOI: 0 is valid, anything else must #GP */
		val = (r & BIT(8)) ? 0 : r >> 32;
		if (r & BIT(9)) {
			hcf_wrmsr_reserved(t, X2_ESR, val, val);
			break;
		}
		for (i = 0; i < 8 && !val; i++) {
			u64 w;

			if (hcf_rdmsr(t, X2_ISR0 + i, &w))
				isr |= w;
		}
		if (val || !isr) /* an EOI only while nothing is in service */
			hcf_wrmsr_reserved(t, X2_EOI, val, val);
		break;
	case 7: /* SELF IPI: a safe vector, an illegal one, or reserved bits */
		val = hcf_vector(r >> 8) | ((r & BIT(20)) ? (r >> 32) << 8 : 0);
		hcf_wrmsr_reserved(t, X2_SELF_IPI, val, val > 0xff);
		break;
	case 8: /* IA32_APIC_BASE: as it is, to xAPIC, or reserved bits; never disabled */
		if (!hcf_rdmsr(t, MSR_IA32_APICBASE, &val))
			break;
		switch ((r >> 8) & 3) {
		case 0:
			hcf_wrmsr(t, MSR_IA32_APICBASE, val);
			break;
		case 1:
			hcf_wrmsr_reserved(t, MSR_IA32_APICBASE, val & ~X2APIC_ENABLE, true);
			break;
		default:
			hcf_wrmsr_reserved(t, MSR_IA32_APICBASE,
					   val | ((r & BIT(12)) ? BIT_ULL(9) : BIT_ULL(60)), true);
			break;
		}
		break;
	case 9: /* SVR: focus bit flipped, or reserved bits; enable and vector kept */
		if (!hcf_rdmsr(t, X2_SVR, &val))
			break;
		if (r & BIT(8))
			hcf_wrmsr(t, X2_SVR, val ^ APIC_SPIV_FOCUS_DISABLED);
		else
			hcf_wrmsr_reserved(t, X2_SVR, val | BIT_ULL(13 + (r >> 9) % 51), true);
		break;
	case 10: /* a read-only register */
		hcf_wrmsr_reserved(t, read_only[(r >> 8) % ARRAY_SIZE(read_only)], r >> 32, true);
		break;
	default: /* any register, including absent and write-only ones */
		hcf_rdmsr(t, 0x800 + ((r >> 8) & 0xff), &val);
		break;
	}
}

static void hcf_x2apic_window(struct hcf_thread *t)
{
	u64 saved[ARRAY_SIZE(hcf_lvts)], tpr = 0, svr = 0, val;
	bool ok[ARRAY_SIZE(hcf_lvts)], tpr_ok, svr_ok;
	struct hcf_timer timer;
	unsigned long flags;
	unsigned int i, n;

	local_irq_save(flags);
	for (i = 0; i < ARRAY_SIZE(hcf_lvts); i++)
		ok[i] = hcf_rdmsr(t, hcf_lvts[i], &saved[i]);
	tpr_ok = hcf_rdmsr(t, X2_TPR, &tpr);
	svr_ok = hcf_rdmsr(t, X2_SVR, &svr);
	hcf_timer_save(t, &timer);

	for (n = 1 + hcf_rand(t) % 12; n; n--)
		hcf_x2apic_step(t);

	if (svr_ok && (!hcf_wrmsr(t, X2_SVR, svr) || !hcf_rdmsr(t, X2_SVR, &val) || val != svr))
		hcf_restore_failed(t, X2_SVR, svr);
	for (i = 0; i < ARRAY_SIZE(hcf_lvts); i++) {
		if (ok[i] && (!hcf_wrmsr(t, hcf_lvts[i], saved[i]) ||
			      !hcf_rdmsr(t, hcf_lvts[i], &val) || val != saved[i]))
			hcf_restore_failed(t, hcf_lvts[i], saved[i]);
	}
	hcf_timer_restore(t, &timer);
	if (tpr_ok && (!hcf_wrmsr(t, X2_TPR, tpr) || !hcf_rdmsr(t, X2_TPR, &val) || val != tpr))
		hcf_restore_failed(t, X2_TPR, tpr);
	t->apic_windows++;
	local_irq_restore(flags);
}

/*
 * A timer storm: periodic, divide by 1, initial count 1 (or armed in one-shot mode and
 * switched to periodic right after), with interrupts on, for storm_us. The vector is
 * Linux's own timer vector: its handler is run more often than asked, which it takes.
 */
static void hcf_storm(struct hcf_thread *t)
{
	struct hcf_timer timer;
	unsigned int ticks;
	ktime_t start;
	u64 r = hcf_rand(t), ns;

	if (time_before(jiffies, t->next_storm))
		return;
	t->next_storm = jiffies + HZ / 10;
	preempt_disable();
	local_irq_disable();
	hcf_timer_save(t, &timer);
	if (!timer.ok) {
		local_irq_enable();
		preempt_enable();
		return;
	}
	ticks = this_cpu_read(irq_stat.apic_timer_irqs);
	start = ktime_get();
	hcf_wrmsr(t, X2_TDCR, 0xb);
	if (r & 1) {
		hcf_wrmsr(t, X2_LVT_TIMER, LOCAL_TIMER_VECTOR | X2_TIMER_PERIODIC);
		hcf_wrmsr(t, X2_TMICT, 1);
	} else {
		hcf_wrmsr(t, X2_LVT_TIMER, LOCAL_TIMER_VECTOR);
		hcf_wrmsr(t, X2_TMICT, 1);
		hcf_wrmsr(t, X2_LVT_TIMER, LOCAL_TIMER_VECTOR | X2_TIMER_PERIODIC);
	}
	local_irq_enable();
	while (ktime_us_delta(ktime_get(), start) < storm_us)
		cpu_relax();
	local_irq_disable();
	hcf_timer_restore(t, &timer);
	ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	t->storm_ticks += this_cpu_read(irq_stat.apic_timer_irqs) - ticks;
	t->storm_ns += ns;
	t->storms++;
	local_irq_enable();
	preempt_enable();
}

/* ---- the IOAPIC ---- */

#define IOA_SEL 0x00
#define IOA_WIN 0x10
#define IOA_EOI 0x40 /* version 0x20 IOAPICs: EOI by vector */
#define IOA_MAX_PINS 64
#define IOA_MASKED BIT(16)

static u32 hcf_ioa_read(u32 reg)
{
	writel(reg, hcf_ioapic + IOA_SEL);
	return readl(hcf_ioapic + IOA_WIN);
}

static void hcf_ioa_write(u32 reg, u32 val)
{
	writel(reg, hcf_ioapic + IOA_SEL);
	writel(val, hcf_ioapic + IOA_WIN);
}

/* A read of width 1, 2, 4 or 8 at an offset of the IOAPIC page. */
static void hcf_ioa_read_width(unsigned int off, unsigned int w)
{
	switch (w) {
	case 1:
		readb(hcf_ioapic + off);
		break;
	case 2:
		readw(hcf_ioapic + off);
		break;
	case 4:
		readl(hcf_ioapic + off);
		break;
	default:
		readq(hcf_ioapic + off);
		break;
	}
}

/* Runs under stop_machine: no other CPU of the guest touches the IOAPIC meanwhile. */
static int hcf_ioapic_fn(void *data)
{
	struct hcf_thread *t = data;
	u32 sel, id, ver, lo[IOA_MAX_PINS], hi[IOA_MAX_PINS], val;
	unsigned int npins, i, n, pin, nfree = 0;
	u8 free[IOA_MAX_PINS];
	u64 r;

	sel = readl(hcf_ioapic + IOA_SEL);
	id = hcf_ioa_read(0);
	ver = hcf_ioa_read(1);
	npins = min(((ver >> 16) & 0xff) + 1, (u32)IOA_MAX_PINS);
	for (i = 0; i < npins; i++) {
		lo[i] = hcf_ioa_read(0x10 + 2 * i);
		hi[i] = hcf_ioa_read(0x11 + 2 * i);
		if (lo[i] & IOA_MASKED)
			free[nfree++] = i;
	}
	for (n = nfree ? 1 + hcf_rand(t) % 16 : 0; n; n--) {
		r = hcf_rand(t);
		pin = free[(r >> 8) % nfree];
		switch (r & 7) {
		case 0: { /* a redirection entry: low half */
			static const u32 modes[] = { 0, 1, 3,
						     6 }; /* never SMI, NMI, INIT, ExtINT */

			val = hcf_vector(r >> 16) | modes[(r >> 24) & 3] << 8 |
			      (u32)(r & (BIT(11) | BIT(13) | BIT(15) | BIT(16)));
			if (!((r >> 26) & 3))
				val |= (u32)(r >> 32) & 0xfffe0000u; /* reserved */
			hcf_ioa_write(0x10 + 2 * pin, val);
			break;
		}
		case 1: /* high half: destination and reserved bits */
			hcf_ioa_write(0x11 + 2 * pin, (u32)(r >> 32));
			break;
		case 2: /* any register */
			hcf_ioa_read((r >> 16) & 0xff);
			break;
		case 3: /* read-only (version, arbitration) or absent registers */
			val = (r >> 16) & 1 ? 1 + ((r >> 17) & 1)
					    : 0x10 + 2 * npins +
						      (u32)(r >> 17) % (0x100 - 0x10 - 2 * npins);
			hcf_ioa_write(val, (u32)(r >> 32));
			break;
		case 4: /* the ID (put back at the end) */
			hcf_ioa_write(0, (u32)(r >> 32));
			break;
		case 5: /* other widths on the index and window registers */
			hcf_ioa_read_width((r & BIT(8)) ? IOA_WIN : IOA_SEL, 1u << ((r >> 9) & 3));
			if (r & BIT(11)) /* select a free pin's entry through a 1-byte write */
				writeb(0x10 + 2 * pin, hcf_ioapic + IOA_SEL);
			break;
		case 6: /* elsewhere in the page: any read; writes that no register takes */
			i = (r >> 16) % (PAGE_SIZE - 8);
			hcf_ioa_read_width(i, 1u << ((r >> 12) & 3));
			i &= ~3u;
			if (i != IOA_SEL && i != IOA_WIN && i != IOA_EOI)
				writel((u32)(r >> 32), hcf_ioapic + i);
			break;
		default: /* unmasked for a moment: its line is idle, nothing fires */
			hcf_ioa_write(0x10 + 2 * pin, hcf_vector(r >> 16));
			hcf_ioa_write(0x10 + 2 * pin, lo[pin]);
			break;
		}
		t->ioapic_accesses++;
	}
	for (i = 0; i < nfree; i++) {
		pin = free[i];
		hcf_ioa_write(0x11 + 2 * pin, hi[pin]);
		hcf_ioa_write(0x10 + 2 * pin, lo[pin]);
		/* delivery status (12) and remote IRR (14) are read-only */
		if (((hcf_ioa_read(0x10 + 2 * pin) ^ lo[pin]) & ~(BIT(12) | BIT(14))) ||
		    hcf_ioa_read(0x11 + 2 * pin) != hi[pin])
			hcf_restore_failed(t, 0x10 + 2 * pin, lo[pin]);
	}
	hcf_ioa_write(0, id);
	if (hcf_ioa_read(0) != id)
		hcf_restore_failed(t, 0, id);
	writel(sel, hcf_ioapic + IOA_SEL);
	t->ioapic_windows++;
	return 0;
}

static void hcf_ioapic_window(struct hcf_thread *t)
{
	if (!hcf_ioapic || time_before(jiffies, t->next_ioapic))
		return;
	t->next_ioapic = jiffies + HZ / 20;
	stop_machine(hcf_ioapic_fn, t, NULL);
}

/* ---- MMIO where nothing is ---- */

#define HCF_PRESET 0x1122334455667788ULL

enum hcf_ld_kind {
	LD_M8,	   /* an 8-bit register: the rest kept */
	LD_M8H,	   /* AH */
	LD_M16,	   /* a 16-bit register: the rest kept */
	LD_Z32,	   /* a 32-bit register: zero-extended into 64 */
	LD_64,	   /* all 64 bits */
	LD_ZX8_32, /* movzbl */
	LD_ZX16_32,
	LD_SX8_32,
	LD_SX16_32,
	LD_SX8_64,
	LD_SX16_64,
	LD_ZX8_16, /* movzbw: 16-bit destination, the rest kept */
	LD_SX8_16,
};

/* What a load of the bytes v (little-endian, from its address on) leaves in a register
 * that held HCF_PRESET. */
static u64 hcf_expect(enum hcf_ld_kind kind, u64 v)
{
	const u64 p = HCF_PRESET;

	switch (kind) {
	case LD_M8:
		return (p & ~0xffULL) | (u8)v;
	case LD_M8H:
		return (p & ~0xff00ULL) | (u64)(u8)v << 8;
	case LD_M16:
		return (p & ~0xffffULL) | (u16)v;
	case LD_Z32:
		return (u32)v;
	case LD_64:
		return v;
	case LD_ZX8_32:
		return (u8)v;
	case LD_ZX16_32:
		return (u16)v;
	case LD_SX8_32:
		return (u32)(s32)(s8)v;
	case LD_SX16_32:
		return (u32)(s32)(s16)v;
	case LD_SX8_64:
		return (u64)(s64)(s8)v;
	case LD_SX16_64:
		return (u64)(s64)(s16)v;
	case LD_ZX8_16:
		return (p & ~0xffffULL) | (u8)v;
	default: /* LD_SX8_16 */
		return (p & ~0xffffULL) | (u16)(s16)(s8)v;
	}
}

/*
 * insn with %0 a register (constraint reg) that holds HCF_PRESET and %1 the address (in
 * RDI); returns the register afterwards: what a load left there, or for a store what must
 * still be HCF_PRESET.
 */
#define HCF_ASM(name, insn, reg)                                     \
	static noinline u64 name(void __iomem *p)                    \
	{                                                            \
		u64 r = HCF_PRESET;                                  \
		asm volatile(insn : "+" reg(r) : "D"(p) : "memory"); \
		return r;                                            \
	}

HCF_ASM(hcf_ld_b, "movb (%1), %b0", "a")
HCF_ASM(hcf_ld_ah, "movb (%1), %h0", "a")
HCF_ASM(hcf_ld_w, "movw (%1), %w0", "a")
HCF_ASM(hcf_ld_l, "movl (%1), %k0", "a")
HCF_ASM(hcf_ld_q, "movq (%1), %q0", "a")
HCF_ASM(hcf_ld_sil, "movb (%1), %b0", "S")
HCF_ASM(hcf_ld_zbl, "movzbl (%1), %k0", "a")
HCF_ASM(hcf_ld_zwl, "movzwl (%1), %k0", "a")
HCF_ASM(hcf_ld_sbl, "movsbl (%1), %k0", "a")
HCF_ASM(hcf_ld_swl, "movswl (%1), %k0", "c")
HCF_ASM(hcf_ld_sbq, "movsbq (%1), %q0", "d")
HCF_ASM(hcf_ld_swq, "movswq (%1), %q0", "b")
HCF_ASM(hcf_ld_zbw, "movzbw (%1), %w0", "a")
HCF_ASM(hcf_ld_sbw, "movsbw (%1), %w0", "a")
/* an explicit DS prefix (the assembler drops a written %ds: as the default) */
HCF_ASM(hcf_ld_ds, ".byte 0x3e; movl (%1), %k0", "a")
/* 66 with REX.W: REX.W wins, 64 bits */
HCF_ASM(hcf_ld_66w, ".byte 0x66, 0x48, 0x8b, 0x07", "a")
/* a REX before 66 is not next to the opcode: ignored, 16 bits */
HCF_ASM(hcf_ld_w66, ".byte 0x48, 0x66, 0x8b, 0x07", "a")
/* segment prefixes around 66: mov (%rdi),%ax */
HCF_ASM(hcf_ld_seg66, ".byte 0x3e, 0x66, 0x2e, 0x8b, 0x07", "a")
/* cs mov (%rdi),%ah */
HCF_ASM(hcf_ld_csah, ".byte 0x2e, 0x8a, 0x27", "a")

/* Of two REX prefixes only the last counts: 4c (W, R) then 48 (W) is mov (%rdi),%rax,
 * not %r8, which must keep its value. */
static noinline u64 hcf_ld_2rex(void __iomem *p)
{
	register u64 r8 asm("r8") = ~HCF_PRESET;
	u64 r = HCF_PRESET;

	asm volatile(".byte 0x4c, 0x48, 0x8b, 0x07" : "+a"(r), "+r"(r8) : "D"(p) : "memory");
	return r8 == ~HCF_PRESET ? r : 0xbad0bad0bad0bad0ULL;
}

/* As HCF_ASM, with the register and the address in the named registers (REX ones). */
#define HCF_ASM_REGS(name, insn, reg, addr)                       \
	static noinline u64 name(void __iomem *p)                 \
	{                                                         \
		register void __iomem *q asm(addr) = p;           \
		register u64 r asm(reg) = HCF_PRESET;             \
		asm volatile(insn : "+r"(r) : "r"(q) : "memory"); \
		return r;                                         \
	}

/* As HCF_ASM, with %1 a base and %2 an index (index * scale + disp: the address). */
#define HCF_ASM_SIB(name, insn, reg, disp, scale, index)                            \
	static noinline u64 name(void __iomem *p)                                   \
	{                                                                           \
		unsigned long i = index, b = (unsigned long)p - (disp) - (scale)*i; \
		u64 r = HCF_PRESET;                                                 \
		asm volatile(insn : "+" reg(r) : "r"(b), "r"(i) : "memory");        \
		return r;                                                           \
	}

/* REX registers: r10d from (%r9), r11b from (%r13) (mod 01 with disp8 0) */
HCF_ASM_REGS(hcf_ld_r10, "movl (%1), %k0", "r10", "r9")
HCF_ASM_REGS(hcf_ld_r11b, "movb 0(%1), %b0", "r11", "r13")
/* SIB: base + index * 2 + disp8; base + index * 8 - disp32 */
HCF_ASM_SIB(hcf_ld_sib8, "movl 0x7f(%1,%2,2), %k0", "a", 0x7f, 2, 5)
HCF_ASM_SIB(hcf_ld_sib32, "movq -0x12345(%1,%2,8), %q0", "d", -0x12345, 8, 3)

/* SIB without a base: disp32 + index */
static noinline u64 hcf_ld_nobase(void __iomem *p)
{
	unsigned long i = (unsigned long)p - 0x10;
	u64 r = HCF_PRESET;

	asm volatile("movw 0x10(,%1,1), %w0" : "+a"(r) : "r"(i) : "memory");
	return r;
}

/* GS-relative: the CPU adds the per-CPU base */
static noinline u64 hcf_ld_gs(void __iomem *p)
{
	unsigned long flags, q;
	u64 r = HCF_PRESET;

	local_irq_save(flags);
	q = (unsigned long)p - this_cpu_read(this_cpu_off);
	asm volatile("movl %%gs:(%1), %k0" : "+a"(r) : "r"(q) : "memory");
	local_irq_restore(flags);
	return r;
}

static const struct hcf_load {
	const char *name;
	u64 (*fn)(void __iomem *p);
	u8 kind, width;
} hcf_loads[] = {
	{ "mov8", hcf_ld_b, LD_M8, 1 },
	{ "mov-ah", hcf_ld_ah, LD_M8H, 1 },
	{ "mov16", hcf_ld_w, LD_M16, 2 },
	{ "mov32", hcf_ld_l, LD_Z32, 4 },
	{ "mov64", hcf_ld_q, LD_64, 8 },
	{ "mov-sil", hcf_ld_sil, LD_M8, 1 },
	{ "movzbl", hcf_ld_zbl, LD_ZX8_32, 1 },
	{ "movzwl", hcf_ld_zwl, LD_ZX16_32, 2 },
	{ "movsbl", hcf_ld_sbl, LD_SX8_32, 1 },
	{ "movswl", hcf_ld_swl, LD_SX16_32, 2 },
	{ "movsbq", hcf_ld_sbq, LD_SX8_64, 1 },
	{ "movswq", hcf_ld_swq, LD_SX16_64, 2 },
	{ "movzbw", hcf_ld_zbw, LD_ZX8_16, 1 },
	{ "movsbw", hcf_ld_sbw, LD_SX8_16, 1 },
	{ "ds-mov32", hcf_ld_ds, LD_Z32, 4 },
	{ "66-rexw-mov", hcf_ld_66w, LD_64, 8 },
	{ "rexw-66-mov", hcf_ld_w66, LD_M16, 2 },
	{ "ds-66-cs-mov", hcf_ld_seg66, LD_M16, 2 },
	{ "cs-mov-ah", hcf_ld_csah, LD_M8H, 1 },
	{ "rex-rexw-mov", hcf_ld_2rex, LD_64, 8 },
	{ "mov-r10d", hcf_ld_r10, LD_Z32, 4 },
	{ "mov-r11b", hcf_ld_r11b, LD_M8, 1 },
	{ "sib-disp8", hcf_ld_sib8, LD_Z32, 4 },
	{ "sib-disp32", hcf_ld_sib32, LD_64, 8 },
	{ "sib-nobase", hcf_ld_nobase, LD_M16, 2 },
	{ "gs-mov32", hcf_ld_gs, LD_Z32, 4 },
};

HCF_ASM(hcf_st_b, "movb %b0, (%1)", "a")
HCF_ASM(hcf_st_ah, "movb %h0, (%1)", "a")
HCF_ASM(hcf_st_w, "movw %w0, (%1)", "a")
HCF_ASM(hcf_st_l, "movl %k0, (%1)", "a")
HCF_ASM(hcf_st_q, "movq %q0, (%1)", "a")
HCF_ASM(hcf_st_sil, "movb %b0, (%1)", "S")
HCF_ASM(hcf_st_ib, "movb $0x5a, (%1)", "a")
HCF_ASM(hcf_st_iw, "movw $0x5a5a, (%1)", "a")
HCF_ASM(hcf_st_il, "movl $0x5a5a5a5a, (%1)", "a")
HCF_ASM(hcf_st_iq, "movq $-0x5a5a5a5, (%1)", "a")
HCF_ASM(hcf_st_w66, ".byte 0x48, 0x66, 0x89, 0x07", "a")
HCF_ASM(hcf_st_iw66, ".byte 0x66, 0xc7, 0x07, 0x34, 0x12", "a")
HCF_ASM(hcf_st_es, "movl %k0, %%es:(%1)", "c")

HCF_ASM_REGS(hcf_st_r10, "movq %0, (%1)", "r10", "r9")
HCF_ASM_SIB(hcf_st_sib, "movl %k0, 0x40(%1,%2,8)", "a", 0x40, 8, 2)

static const struct hcf_store {
	const char *name;
	u64 (*fn)(void __iomem *p);
} hcf_stores[] = {
	{ "mov8", hcf_st_b },	    { "mov-ah", hcf_st_ah },	   { "mov16", hcf_st_w },
	{ "mov32", hcf_st_l },	    { "mov64", hcf_st_q },	   { "mov-sil", hcf_st_sil },
	{ "mov-imm8", hcf_st_ib },  { "mov-imm16", hcf_st_iw },	   { "mov-imm32", hcf_st_il },
	{ "mov-imm64", hcf_st_iq }, { "rexw-66-mov", hcf_st_w66 }, { "66-mov-imm", hcf_st_iw66 },
	{ "es-mov32", hcf_st_es },  { "mov-r10", hcf_st_r10 },	   { "sib-disp8", hcf_st_sib },
};

static void hcf_mmio_access(struct hcf_thread *t)
{
	u64 r = hcf_rand(t), v, got;
	const struct hcf_load *ld;
	unsigned long off;
	void __iomem *p;
	bool lapic;

	if (!hcf_nmmio)
		return;
	lapic = hcf_lapic_page && !(r & 15);
	p = lapic ? hcf_lapic_page : hcf_mmio_va[(r >> 4) % hcf_nmmio];
	off = (r >> 8) % (PAGE_SIZE - 8);
	if (r & BIT(20))
		off &= ~7UL; /* aligned, else anywhere */
	p += off;
	if (lapic || (r & BIT(21))) {
		ld = &hcf_loads[(r >> 24) % ARRAY_SIZE(hcf_loads)];
		v = readq(p); /* what is there, to know what each encoding must give */
		got = ld->fn(p);
		t->mmio += 2;
		if (got != hcf_expect(ld->kind, v)) {
			t->mmio_wrong++;
			if (!atomic_xchg(&hcf_wrong_seen, 1))
				pr_err("hcfuzz: mmio: %s at %s+0x%lx read 0x%llx, expected 0x%llx "
				       "(bytes there: 0x%llx)\n",
				       ld->name, lapic ? "lapic" : "nothing", off, got,
				       hcf_expect(ld->kind, v), v);
		}
	} else {
		const struct hcf_store *st = &hcf_stores[(r >> 24) % ARRAY_SIZE(hcf_stores)];

		got = st->fn(p);
		t->mmio++;
		if (got != HCF_PRESET) {
			t->mmio_wrong++;
			if (!atomic_xchg(&hcf_wrong_seen, 1))
				pr_err("hcfuzz: mmio: store %s at +0x%lx changed its register to "
				       "0x%llx\n",
				       st->name, off, got);
		}
	}
}

/* Instructions with a memory operand that hv's MMIO decoder does not take. */
static noinline void hcf_un_xchg(void __iomem *p)
{
	u32 r = 0;

	asm volatile("xchgl %0, (%1)" : "+a"(r) : "D"(p) : "memory");
}

static noinline void hcf_un_add(void __iomem *p)
{
	asm volatile("addl $1, (%0)" ::"D"(p) : "memory");
}

static noinline void hcf_un_movsb(void __iomem *p)
{
	u64 buf = 0;
	void *d = &buf;

	asm volatile("movsb" : "+S"(p), "+D"(d) : : "memory");
}

static noinline void hcf_un_cmp(void __iomem *p)
{
	asm volatile("cmpl $0, (%0)" ::"D"(p) : "memory", "cc");
}

static noinline void hcf_un_movnti(void __iomem *p)
{
	asm volatile("movnti %1, (%0)" ::"D"(p), "a"(0) : "memory");
}

static noinline void hcf_un_lock_or(void __iomem *p)
{
	asm volatile("lock orl $0, (%0)" ::"D"(p) : "memory", "cc");
}

static const struct {
	const char *name;
	void (*fn)(void __iomem *p);
} hcf_undecodable[] = {
	{ "xchg", hcf_un_xchg }, { "add", hcf_un_add },	      { "movsb", hcf_un_movsb },
	{ "cmp", hcf_un_cmp },	 { "movnti", hcf_un_movnti }, { "lock-or", hcf_un_lock_or },
};

/* True when no RAM, e820 entry or iomem resource (PCI windows too) is in the page. */
static bool hcf_page_free(phys_addr_t pa)
{
	if (pa < SZ_1M || (pa >= IO_APIC_DEFAULT_PHYS_BASE && pa < SZ_4G) ||
	    pa >= BIT_ULL(boot_cpu_data.x86_phys_bits))
		return false;
	/* IORESOURCE_MEM matches every top-level memory resource: RAM, reserved, PCI. */
	return !e820__mapped_any(pa, pa + PAGE_SIZE, 0) &&
	       region_intersects(pa, PAGE_SIZE, IORESOURCE_MEM, IORES_DESC_NONE) == REGION_DISJOINT;
}

/* Maps up to HCF_MMIO_PAGES pages where nothing is: above RAM below the 32-bit device
 * range, and above 4 GiB within the physical address width. */
static void hcf_mmio_setup(u64 rng)
{
	unsigned int tries;
	u64 top = BIT_ULL(min_t(unsigned int, boot_cpu_data.x86_phys_bits, 46));

	for (tries = 0; tries < 256 && hcf_nmmio < HCF_MMIO_PAGES; tries++) {
		phys_addr_t pa;

		rng = fuzz_seed(rng, 0); /* splitmix64 of the last */
		if (rng & 1 && fuzz_ram_end < IO_APIC_DEFAULT_PHYS_BASE)
			pa = fuzz_ram_end +
			     (rng >> 12) % (IO_APIC_DEFAULT_PHYS_BASE - fuzz_ram_end);
		else
			pa = SZ_4G + (rng >> 12) % (top - SZ_4G);
		pa &= PAGE_MASK;
		if (!hcf_page_free(pa))
			continue;
		hcf_mmio_va[hcf_nmmio] = ioremap(pa, PAGE_SIZE);
		if (hcf_mmio_va[hcf_nmmio])
			hcf_mmio_pa[hcf_nmmio++] = pa;
	}
	hcf_ioapic = ioremap(IO_APIC_DEFAULT_PHYS_BASE, PAGE_SIZE);
	/* The local APIC page: x2APIC mode, reads only. */
	if (x2apic_enabled())
		hcf_lapic_page = ioremap(APIC_DEFAULT_PHYS_BASE, PAGE_SIZE);
}

static void hcf_mmio_teardown(void)
{
	while (hcf_nmmio)
		iounmap(hcf_mmio_va[--hcf_nmmio]);
	if (hcf_ioapic)
		iounmap(hcf_ioapic);
	if (hcf_lapic_page)
		iounmap(hcf_lapic_page);
}

/* ---- CR4 and XCR0 ---- */

/* Nonzero when the instruction at 1 faulted: the exception table entry skips the xor. */
static int hcf_write_cr4(unsigned long val)
{
	int err = 1;

	asm volatile("1: mov %1, %%cr4\n"
		     "xor %0, %0\n"
		     "2:\n" _ASM_EXTABLE(1b, 2b)
		     : "+r"(err)
		     : "r"(val)
		     : "memory", "cc");
	return err;
}

static unsigned long hcf_read_cr4(void)
{
	unsigned long val;

	asm volatile("mov %%cr4, %0" : "=r"(val));
	return val;
}

/* CR4 bits whose feature this CPU's CPUID offers (the rest must #GP when set). */
static u64 hcf_cr4_offered;
static u64 hcf_xcr0_offered; /* CPUID 0Dh: the XCR0 bits this guest may set */

static void hcf_cpuid_setup(void)
{
	u32 a, b, c, d, b7 = 0, c7 = 0, d7 = 0, a71 = 0, x;
	u64 m = X86_CR4_PCE;

	if (cpuid_eax(0) >= 7) {
		cpuid_count(7, 0, &a, &b7, &c7, &d7);
		if (a >= 1)
			cpuid_count(7, 1, &a71, &x, &x, &x);
	}
	if (cpuid_eax(0) >= 0xd) {
		cpuid_count(0xd, 0, &a, &x, &x, &d);
		hcf_xcr0_offered = a | (u64)d << 32;
	}
	cpuid(1, &a, &b, &c, &d);
	m |= (d & BIT(3)) ? X86_CR4_PSE : 0;
	m |= (d & BIT(6)) ? X86_CR4_PAE : 0;
	m |= (d & BIT(7)) ? X86_CR4_MCE : 0;
	m |= (d & BIT(13)) ? X86_CR4_PGE : 0;
	m |= (d & BIT(1)) ? X86_CR4_VME | X86_CR4_PVI : 0;
	m |= (d & BIT(4)) ? X86_CR4_TSD : 0;
	m |= (d & BIT(2)) ? X86_CR4_DE : 0;
	m |= (d & BIT(24)) ? X86_CR4_OSFXSR : 0;
	m |= (d & BIT(25)) ? X86_CR4_OSXMMEXCPT : 0;
	m |= (c & BIT(5)) ? X86_CR4_VMXE : 0;
	m |= (c & BIT(6)) ? X86_CR4_SMXE : 0;
	m |= (c & BIT(17)) ? X86_CR4_PCIDE : 0;
	m |= (c & BIT(26)) ? X86_CR4_OSXSAVE : 0;
	m |= (b7 & BIT(0)) ? X86_CR4_FSGSBASE : 0;
	m |= (b7 & BIT(7)) ? X86_CR4_SMEP : 0;
	m |= (b7 & BIT(20)) ? X86_CR4_SMAP : 0;
	m |= (c7 & BIT(2)) ? X86_CR4_UMIP : 0;
	m |= (c7 & BIT(3)) ? X86_CR4_PKE : 0;
	m |= ((c7 & BIT(7)) || (d7 & BIT(20))) ? X86_CR4_CET : 0;
	m |= (c7 & BIT(23)) ? BIT_ULL(19) : 0;	/* Key Locker */
	m |= (c7 & BIT(31)) ? BIT_ULL(24) : 0;	/* PKS */
	m |= (d7 & BIT(5)) ? BIT_ULL(25) : 0;	/* UINTR */
	m |= (a71 & BIT(26)) ? BIT_ULL(28) : 0; /* LAM_SUP */
	m |= (a71 & BIT(17)) ? BIT_ULL(32) : 0; /* FRED */
	hcf_cr4_offered = m;
}

static void hcf_cr4(struct hcf_thread *t)
{
	u64 r = hcf_rand(t), bit, offered;
	unsigned long flags, cr4;
	int err;

	bit = BIT_ULL((r >> 8) % 64);
	if (bit == BIT_ULL(32) && (hcf_cr4_offered & bit))
		return; /* FRED would change how every event is delivered */
	if (!cr4_reserved && !(hcf_cr4_offered & bit))
		return;
	local_irq_save(flags);
	cr4 = hcf_read_cr4();
	if (cr4 & bit) {
		local_irq_restore(flags);
		return;
	}
	err = hcf_write_cr4(cr4 | bit);
	/* LA57 cannot change in long mode */
	offered = (hcf_cr4_offered & bit) && bit != X86_CR4_LA57;
	if (!err) {
		if (hcf_write_cr4(cr4))
			hcf_restore_failed(t, 0, cr4);
		t->cr4_ok++;
		if (!offered)
			t->cr4_hidden |= bit;
	} else {
		t->cr4_gp++;
		if (offered)
			t->cr4_unexpected_gp |= bit;
	}
	local_irq_restore(flags);
}

static int hcf_xsetbv(u32 index, u64 val)
{
	int err = 1;

	asm volatile("1: xsetbv\n"
		     "xor %0, %0\n"
		     "2:\n" _ASM_EXTABLE(1b, 2b)
		     : "+r"(err)
		     : "c"(index), "a"((u32)val), "d"((u32)(val >> 32))
		     : "memory", "cc");
	return err;
}

static u64 hcf_xgetbv(u32 index)
{
	u32 lo, hi;

	asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(index));
	return (u64)hi << 32 | lo;
}

/* SDM vol. 1, 13.3: x87 always; AVX needs SSE; AVX-512 whole and with AVX; MPX's two
 * together; AMX's two together. */
static bool hcf_xcr0_valid(u64 v)
{
	if ((v & ~hcf_xcr0_offered) || !(v & 1))
		return false;
	if ((v & 4) && !(v & 2))
		return false;
	if ((v & 0xe0) && ((v & 0xe0) != 0xe0 || !(v & 4)))
		return false;
	if (!!(v & BIT(3)) != !!(v & BIT(4)) || !!(v & BIT(17)) != !!(v & BIT(18)))
		return false;
	return true;
}

static void hcf_xcr0(struct hcf_thread *t)
{
	u64 r = hcf_rand(t), old, val;
	unsigned long flags;
	u32 index = 0;
	bool valid;
	int err;

	if (!boot_cpu_has(X86_FEATURE_OSXSAVE))
		return;
	kernel_fpu_begin();
	local_irq_save(flags);
	old = hcf_xgetbv(0);
	switch (r & 7) {
	case 0:
	case 1: /* 0..7: no x87 (0, 2, 4, 6), AVX without SSE (5), valid ones */
		val = (r >> 8) & 7;
		break;
	case 2:
		val = old | BIT_ULL((r >> 8) % 64);
		break;
	case 3:
		val = old | (0x20ULL << ((r >> 8) % 3)); /* one part of AVX-512 */
		break;
	case 4:
		val = hcf_rand(t);
		break;
	case 5:
		index = (r & BIT(8)) ? 1 : (u32)(r >> 32); /* XCR1 or anything */
		val = old;
		break;
	default:
		val = (r & BIT(8)) ? 3 : old; /* valid */
		break;
	}
	valid = index == 0 && hcf_xcr0_valid(val);
	err = hcf_xsetbv(index, val);
	if (!err) {
		t->xsetbv_ok++;
		if (!valid)
			t->xsetbv_invalid_ok++;
		if (hcf_xsetbv(0, old))
			hcf_restore_failed(t, 0, old);
	} else {
		t->xsetbv_gp++;
		if (valid)
			t->xsetbv_valid_gp++;
	}
	local_irq_restore(flags);
	kernel_fpu_end();
}

/* ---- random MSRs ---- */

static bool hcf_msr_writable(u32 msr)
{
	return msr != MSR_IA32_PRED_CMD && msr != MSR_IA32_FLUSH_CMD &&
	       msr != MSR_IA32_UCODE_WRITE && (msr < 0x800 || msr > 0x8ff) &&
	       (msr < 0x40000000 || msr > 0x400fffff) && (msr < 0x4b564d00 || msr > 0x4b564dff);
}

static void hcf_msrscan(struct hcf_thread *t)
{
	static const u32 bases[] = { 0, 0xc0000000, 0xc0010000, 0x40000000, 0x4b564d00 };
	u64 r = hcf_rand(t), val;
	unsigned long flags;
	u32 msr;

	if ((r & 7) == 7)
		msr = (u32)(r >> 32);
	else
		msr = bases[(r & 7) % ARRAY_SIZE(bases)] + (u32)((r >> 8) & 0x1fff);
	local_irq_save(flags);
	t->scan_reads++;
	if (!hcf_rdmsr(t, msr, &val) && hcf_msr_writable(msr)) {
		t->scan_writes++;
		hcf_wrmsr(t, msr, (r & BIT(3)) ? 0 : hcf_rand(t));
	}
	local_irq_restore(flags);
}

/* ---- a kick storm at its own vCPUs ---- */

static void hcf_kickstorm(struct hcf_thread *t)
{
	unsigned int cpu, self, target;
	ktime_t start;
	long ret;

	if (time_before(jiffies, t->next_kickstorm))
		return;
	t->next_kickstorm = jiffies + HZ / 20;
	self = get_cpu();
	target = self;
	for_each_online_cpu(cpu) {
		if (cpu != self) {
			target = cpu;
			if (hcf_rand(t) & 1)
				break;
		}
	}
	target = cpu_physical_id(target);
	start = ktime_get();
	while (ktime_us_delta(ktime_get(), start) < 2000) {
		ret = hcf_hypercall(KVM_HC_KICK_CPU, 0, target, 0, 0);
		hcf_count(t, ret);
		t->kicks++;
		ret = hcf_hypercall(KVM_HC_SEND_IPI, 1, 0, target,
				    APIC_DM_FIXED | RESCHEDULE_VECTOR);
		hcf_count(t, ret);
		t->kick_ipis++;
	}
	put_cpu();
}

static void fuzz_step(struct fuzz_thread *f, unsigned int op)
{
	struct hcf_thread *t = container_of(f, struct hcf_thread, f);
	u64 r = hcf_rand(t);

	switch (op) {
	case HCF_OP_IPI:
		hcf_send_ipi(t);
		break;
	case HCF_OP_YIELD:
		hcf_count(t, hcf_hypercall(KVM_HC_SCHED_YIELD, hcf_apic_id(t), hcf_rand(t),
					   hcf_rand(t), hcf_icr(t, false)));
		break;
	case HCF_OP_KICK:
		hcf_count(t, hcf_hypercall(KVM_HC_KICK_CPU, (r & 16) ? hcf_rand(t) : 0,
					   hcf_apic_id(t), hcf_rand(t), hcf_icr(t, false)));
		break;
	case HCF_OP_STATS:
		hcf_get_stats(t);
		break;
	case HCF_OP_NUMBERS:
		switch ((r >> 4) % 6) {
		case 0 ... 2:
			hcf_generic(t, 1 + (r >> 8) % 15);
			break;
		case 3 ... 4:
			hcf_generic(t, (u32)(r >> 8));
			break;
		default:
			hcf_generic(t, hcf_rand(t));
			break;
		}
		break;
	case HCF_OP_MSR:
		hcf_msr_window(t);
		break;
	case HCF_OP_X2APIC:
		hcf_x2apic_window(t);
		break;
	case HCF_OP_STORM:
		hcf_storm(t);
		break;
	case HCF_OP_IOAPIC:
		hcf_ioapic_window(t);
		break;
	case HCF_OP_MMIO:
		hcf_mmio_access(t);
		break;
	case HCF_OP_CR4:
		hcf_cr4(t);
		break;
	case HCF_OP_XCR0:
		hcf_xcr0(t);
		break;
	case HCF_OP_MSRSCAN:
		hcf_msrscan(t);
		break;
	default:
		hcf_kickstorm(t);
		break;
	}
}

/* Sums the threads' counters into *sum (the CR4 bits: their union; *bad: the last thread
 * whose restores failed). */
static void hcf_sum(struct hcf_thread *sum, struct hcf_thread **bad)
{
	unsigned int i;

	memset(sum, 0, sizeof(*sum));
	FUZZ_SUM(sum, struct hcf_thread, c);
	for (i = 0; i < fuzz_n; i++) {
		struct hcf_thread *t = container_of(fuzz_thread(i), struct hcf_thread, f);

		if (t->restore_failures)
			*bad = t;
		sum->cr4_hidden |= t->cr4_hidden;
		sum->cr4_unexpected_gp |= t->cr4_unexpected_gp;
	}
}

static void hcf_report(struct hcf_thread *s, struct hcf_thread *bad)
{
	fuzz_len = 0;
	fuzz_add("hcfuzz: %llu hypercalls, %llu msr accesses, results:", s->hypercalls,
		 s->msr_ok + s->msr_fault);
	fuzz_add_counts(hcf_result_names, s->results, HCF_R_NR);
	pr_info("%s msr-ok=%llu msr-fault=%llu\n", fuzz_line, s->msr_ok, s->msr_fault);
	pr_info("hcfuzz: x2apic: windows=%llu icr-writes=%llu reserved-accepted=%llu; storm: "
		"storms=%llu ticks=%llu ms=%llu us-per-tick=%llu\n",
		s->apic_windows, s->icr_writes, s->apic_reserved_ok, s->storms, s->storm_ticks,
		s->storm_ns / NSEC_PER_MSEC,
		s->storm_ticks ? s->storm_ns / NSEC_PER_USEC / s->storm_ticks : 0);
	pr_info("hcfuzz: ioapic: windows=%llu accesses=%llu; mmio: accesses=%llu wrong=%llu "
		"pages=%u\n",
		s->ioapic_windows, s->ioapic_accesses, s->mmio, s->mmio_wrong, hcf_nmmio);
	pr_info("hcfuzz: cr4: gp=%llu accepted=%llu accepted-without-cpuid=0x%llx "
		"refused-with-cpuid=0x%llx; xsetbv: gp=%llu accepted=%llu invalid-accepted=%llu "
		"valid-refused=%llu\n",
		s->cr4_gp, s->cr4_ok, s->cr4_hidden, s->cr4_unexpected_gp, s->xsetbv_gp,
		s->xsetbv_ok, s->xsetbv_invalid_ok, s->xsetbv_valid_gp);
	pr_info("hcfuzz: msrscan: reads=%llu writes=%llu; kickstorm: kicks=%llu pv-ipis=%llu\n",
		s->scan_reads, s->scan_writes, s->kicks, s->kick_ipis);
	if (s->restore_failures)
		pr_err("hcfuzz: %llu restores failed (last: MSR or register 0x%x value 0x%llx); "
		       "scratch area leaked\n",
		       s->restore_failures, bad->bad_msr, bad->bad_value);
	pr_info("hcfuzz: hv-counted: faults=%llu unclaimed-mmio=%llu\n", s->msr_fault, s->mmio);
}

/* The undecodable=N instruction, before the run: under hv the VM stops here. */
static void hcf_run_undecodable(void)
{
	unsigned int i = undecodable - 1;

	if (!undecodable)
		return;
	if (i >= ARRAY_SIZE(hcf_undecodable) || !hcf_nmmio) {
		pr_err("hcfuzz: undecodable=%u: no such instruction (1..%zu) or no page\n",
		       undecodable, ARRAY_SIZE(hcf_undecodable));
		return;
	}
	pr_err("hcfuzz: undecodable: %s at 0x%llx\n", hcf_undecodable[i].name,
	       (unsigned long long)hcf_mmio_pa[0]);
	hcf_undecodable[i].fn(hcf_mmio_va[0] + 0x10);
	pr_err("hcfuzz: undecodable: %s done, the VM runs on\n", hcf_undecodable[i].name);
}

static int __init hcf_init(void)
{
	struct hcf_thread *bad = NULL, sum;
	int r;

	if (!kvm_para_available()) {
		pr_err("hcfuzz: no KVM-compatible hypervisor\n");
		return -ENODEV;
	}
	r = fuzz_parse_ops(hcf_op_names, hcf_weight, HCF_OP_NR);
	if (r)
		return r;
	r = fuzz_scratch_alloc();
	if (r)
		return r;
	fuzz_ram_end = __pa(high_memory - 1) + 1;
	hcf_cpuid_setup();
	hcf_mmio_setup(seed);
	r = fuzz_create(sizeof(struct hcf_thread), clamp(threads, 1U, HCF_MAX_THREADS), false);
	if (r) {
		hcf_mmio_teardown();
		fuzz_scratch_free(false);
		return r;
	}
	pr_info("hcfuzz: seed=%lu seconds=%u threads=%u nmi=%d ops=%s scratch=%pa ram-end=0x%llx "
		"mmio-pages=%u first=0x%llx\n",
		seed, seconds, fuzz_n, nmi, ops, &fuzz_scratch_pa, fuzz_ram_end, hcf_nmmio,
		hcf_nmmio ? (unsigned long long)hcf_mmio_pa[0] : 0ULL);
	hcf_run_undecodable();

	fuzz_run();
	fuzz_check_guard();
	hcf_sum(&sum, &bad);
	hcf_report(&sum, bad);
	fuzz_scratch_free(sum.restore_failures);
	hcf_mmio_teardown();
	fuzz_free();
	pr_info("hcfuzz: done\n");
	return 0;
}

static void __exit hcf_exit(void) {}

module_init(hcf_init);
module_exit(hcf_exit);
MODULE_DESCRIPTION("Hostile-guest fuzzer for the hv hypervisor");
MODULE_LICENSE("GPL");
