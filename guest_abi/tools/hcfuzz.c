// SPDX-License-Identifier: GPL-2.0
/*
 * hcfuzz: a hostile guest for the hv hypervisor's paravirtual interface.
 *
 *   insmod hcfuzz.ko [seconds=5] [seed=N] [threads=1] [nmi=1] [ops=all] && rmmod hcfuzz
 *
 * For `seconds`, `threads` kthreads (not bound: they wander over the vCPUs) issue
 * hypercalls and KVM PV MSR accesses with pseudo-random arguments (xorshift64* seeded
 * from `seed`, or from get_random_u64() when seed=0; the seed is printed for replays):
 *
 *  - KVM_HC_SEND_IPI with random bitmaps, random and out-of-range lowest APIC IDs, and
 *    ICRs with random level/trigger bits, now and then the logical-destination or
 *    shorthand bits (which KVM rejects) or garbage in the upper half;
 *  - KVM_HC_SCHED_YIELD and KVM_HC_KICK_CPU with random and out-of-range APIC IDs;
 *  - HV_HC_GET_STATS with buffers that are unaligned, cross a page, lie outside RAM, in
 *    the IOAPIC or local APIC page, beyond 2^52 or wrap around 2^64, and random sizes;
 *  - every number 1..15, random 32-bit and random 64-bit numbers;
 *  - windows of rdmsr/wrmsr on MSRs 0x4b564d00..07 with random values (addresses like
 *    the ones above, with bit 0 set or clear and random low bits), plus random reads
 *    in 0x4b564d00..ff.
 *
 * ops= limits the run to some of these, to narrow down a failure: ipi, yield, kick,
 * stats, numbers (1..15, random 32- and 64-bit numbers), msr.
 *
 * It must not break a guest that runs on real KVM, so some arguments are restricted:
 *
 *  - Whatever argument a hypervisor might write to (buffers, MSR addresses, and a0 of
 *    every other call, since KVM_HC_CLOCK_PAIRING writes there) is either inside this
 *    module's scratch area or a range no RAM or firmware table covers. The area is
 *    followed by guard pages that must stay untouched: a change is reported.
 *  - Delivery modes INIT, STARTUP and SMI are never sent (KVM_HC_SEND_IPI delivers any
 *    mode; an INIT resets the vCPU). Vectors are illegal ones (0..15, which the APIC must
 *    drop), benign system vectors (timer, IRQ work, call-function, reschedule, APIC
 *    error) or device-range vectors other than 0x80; never 16..31 (they would run
 *    exception handlers), 0x80 (the int80 entry assumes user mode), 0xff (Linux does
 *    not EOI the spurious vector, so it would stay in service and mask all interrupts)
 *    or the other system vectors (REBOOT_VECTOR stops a CPU). Random 32/64-bit numbers
 *    get the same safe arguments, so they are harmless under any interpretation.
 *  - NMIs (KVM_HC_SEND_IPI with delivery mode NMI) are tried at most 4 times a second
 *    per thread, as Linux logs every NMI it cannot attribute; nmi=0 sends none.
 *  - Each MSR window runs with interrupts disabled on one CPU: it reads the 8 MSRs, does
 *    1-8 random writes, and writes the saved values back (ASYNC_PF_INT, ASYNC_PF_EN,
 *    SYSTEM_TIME_NEW, STEAL_TIME, PV_EOI_EN, POLL_CONTROL, the ones that were readable)
 *    and reads them back to check. WALL_CLOCK_NEW and ASYNC_PF_ACK are not restored:
 *    writing them is an action (copy the wall clock, acknowledge), not a setting. With
 *    interrupts disabled no interrupt is injected (PV EOI) and no async page fault is
 *    delivered while the settings are foreign. This relies on the MSRs reading back what
 *    was written, as on KVM. If a value cannot be restored, the scratch area is leaked
 *    rather than freed, since the hypervisor may still write to it.
 *
 * Output: "hcfuzz: N hypercalls, M msr accesses, results: zero=.. positive=..
 * enosys=.. einval=.. efault=.. eperm=.. eopnotsupp=.. e2big=.. other-negative=..
 * msr-ok=.. msr-fault=..", warnings for failed restores or guard damage, "hcfuzz: done".
 * The init function returns 0 after the run (-ENODEV without a KVM-compatible
 * hypervisor, where VMMCALL would be #UD); the caller unloads the module with rmmod.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/ioport.h>
#include <linux/string.h>
#include <linux/random.h>
#include <linux/cpumask.h>
#include <linux/irqflags.h>
#include <linux/kvm_para.h>
#include <asm/apicdef.h>
#include <asm/irq_vectors.h>
#include <asm/e820/api.h>
#include <asm/msr.h>
#include <asm/page.h>

#include "bound_threads.h"
#include "hv_para.h"
#include "name_list.h"

static unsigned int seconds = 5;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "how long to run (default 5)");

static unsigned long seed;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "random seed (default 0: a random one, printed)");

static unsigned int threads = 1;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "concurrent fuzzing threads, 1..64 (default 1)");

static bool nmi = true;
module_param(nmi, bool, 0444);
MODULE_PARM_DESC(nmi, "also send NMIs, at most 4/s per thread (default 1)");

static char *ops = "all";
module_param(ops, charp, 0444);
MODULE_PARM_DESC(ops, "all, or a comma-separated list of ipi, yield, kick, stats, numbers, msr");

#define HCF_MAX_THREADS 64
#define HCF_ORDER 2		  /* scratch: 4 pages */
#define HCF_AREA (2 * PAGE_SIZE)  /* targets; page boundary in the middle */
#define HCF_GUARD (2 * PAGE_SIZE) /* after the area, must keep HCF_POISON */
#define HCF_SLACK 1024		  /* most bytes written at one target */
#define HCF_POISON 0xa5
#define HCF_PHYS_LIMIT BIT_ULL(52) /* architectural physical address limit */

enum hcf_op {
	HCF_OP_IPI,
	HCF_OP_YIELD,
	HCF_OP_KICK,
	HCF_OP_STATS,
	HCF_OP_NUMBERS,
	HCF_OP_MSR,
	HCF_OP_NR
};

static const char *const hcf_op_names[HCF_OP_NR] = {
	"ipi", "yield", "kick", "stats", "numbers", "msr",
};

/* The mix: each step draws one of these 16 slots. */
static const u8 hcf_mix[16] = {
	HCF_OP_IPI,	HCF_OP_IPI,	HCF_OP_IPI,	HCF_OP_YIELD,
	HCF_OP_YIELD,	HCF_OP_KICK,	HCF_OP_KICK,	HCF_OP_STATS,
	HCF_OP_STATS,	HCF_OP_NUMBERS, HCF_OP_NUMBERS, HCF_OP_NUMBERS,
	HCF_OP_NUMBERS, HCF_OP_NUMBERS, HCF_OP_NUMBERS, HCF_OP_MSR,
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
	struct task_struct *task;
	u64 rng;
	unsigned long next_nmi; /* jiffies */
	u64 hypercalls;
	u64 results[HCF_R_NR];
	u64 msr_ok;
	u64 msr_fault;
	unsigned int restore_failures;
	u32 bad_msr; /* the last one that could not be restored */
	u64 bad_value;
};

static unsigned long hcf_ops; /* BIT(enum hcf_op) */
static u8 *hcf_scratch;
static phys_addr_t hcf_scratch_pa;
static u64 hcf_ram_end;
static unsigned long hcf_deadline;
static atomic_t hcf_left;
static atomic_t hcf_guard_hit;
static DECLARE_COMPLETION(hcf_go);
static DECLARE_COMPLETION(hcf_done);

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

static u64 hcf_rand(struct hcf_thread *t)
{
	u64 x = t->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	t->rng = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static u64 hcf_splitmix(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

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
static bool hcf_unbacked(u64 gpa)
{
	u64 start = gpa & ~63ULL;

	if (start >= HCF_PHYS_LIMIT)
		return true;
	return !e820__mapped_any(start, start + 64 + HCF_SLACK, 0) &&
	       region_intersects(start, 64 + HCF_SLACK, IORESOURCE_SYSTEM_RAM, IORES_DESC_NONE) ==
		       REGION_DISJOINT;
}

/*
 * A guest-physical address the hypervisor may write up to HCF_SLACK bytes at, even
 * after its low 6 bits are changed: in the scratch area, or where nothing is.
 */
static u64 hcf_gpa(struct hcf_thread *t)
{
	u64 r = hcf_rand(t), v = r >> 8, gpa;

	switch (r & 7) {
	case 0: /* crossing the page boundary in the area */
		return hcf_scratch_pa + PAGE_SIZE - 1 - v % 64;
	case 1: /* 64-byte aligned in the area */
		return hcf_scratch_pa + ALIGN_DOWN(v % (HCF_AREA - HCF_SLACK), 64);
	case 2: /* unaligned in the area */
		return hcf_scratch_pa + 1 + v % (HCF_AREA - HCF_SLACK - 64);
	case 3: /* right after the end of RAM */
		gpa = hcf_ram_end + (v & 0xfffff);
		break;
	case 4: /* beyond any physical address, or wrapping around */
		return (r & 8) ? v | HCF_PHYS_LIMIT : U64_MAX - (v & 0xfff);
	case 5: /* the IOAPIC or the local APIC page */
		return ((r & 8) ? IO_APIC_DEFAULT_PHYS_BASE : APIC_DEFAULT_PHYS_BASE) + (v & 0xfff);
	default: /* anywhere below 2^48 */
		gpa = v & (BIT_ULL(48) - 1);
		break;
	}
	if (hcf_unbacked(gpa))
		return gpa;
	return hcf_scratch_pa + v % (HCF_AREA - HCF_SLACK - 64);
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

/* An ICR value; NMI delivery only when allow_nmi and the NMI budget permits. */
static u64 hcf_icr(struct hcf_thread *t, bool allow_nmi)
{
	u64 r = hcf_rand(t), icr;
	u32 mode, vector;

	if (allow_nmi && nmi && time_after_eq(jiffies, t->next_nmi) && (r & 0x100)) {
		mode = APIC_DM_NMI;
		t->next_nmi = jiffies + HZ / 4;
	} else {
		mode = hcf_modes[(r & 0xff) % (ARRAY_SIZE(hcf_modes) - 1)];
	}

	switch ((r >> 9) & 3) {
	case 0: /* illegal */
		vector = (r >> 16) & 15;
		break;
	case 1:
	case 2:
		vector = hcf_benign_vectors[((r >> 16) & 0xff) % ARRAY_SIZE(hcf_benign_vectors)];
		break;
	default:
		vector = FIRST_EXTERNAL_VECTOR +
			 ((r >> 16) & 0xff) % (FIRST_SYSTEM_VECTOR - FIRST_EXTERNAL_VECTOR);
		if (vector == IA32_SYSCALL_VECTOR)
			vector = RESCHEDULE_VECTOR;
		break;
	}
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

static void hcf_check_guard(void)
{
	u8 *bad = memchr_inv(hcf_scratch + HCF_AREA, HCF_POISON, HCF_GUARD);

	if (bad && !atomic_xchg(&hcf_guard_hit, 1))
		pr_err("hcfuzz: guard byte at area+%ld changed: the hypervisor wrote more than %u "
		       "bytes at a target\n",
		       (long)(bad - hcf_scratch), HCF_SLACK);
}

static int hcf_thread_fn(void *data)
{
	struct hcf_thread *t = data;
	unsigned long n = 0;
	u64 r;

	wait_for_completion(&hcf_go);
	while (time_before(jiffies, hcf_deadline)) {
		do {
			r = hcf_rand(t);
		} while (!(hcf_ops & BIT(hcf_mix[r & 15])));
		switch (hcf_mix[r & 15]) {
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
		default:
			hcf_msr_window(t);
			break;
		}
		if (!(++n % 1024))
			hcf_check_guard();
		cond_resched();
	}
	if (atomic_dec_and_test(&hcf_left))
		complete(&hcf_done);

	return bound_threads_wait_for_stop();
}

static int __init hcf_init(void)
{
	u64 results[HCF_R_NR] = { 0 }, hypercalls = 0, msr_ok = 0, msr_fault = 0;
	unsigned int restore_failures = 0, i, n;
	struct hcf_thread *ts, *bad = NULL;
	struct page *page;
	char line[512];
	int len, r;

	if (!kvm_para_available()) {
		pr_err("hcfuzz: no KVM-compatible hypervisor\n");
		return -ENODEV;
	}
	r = parse_name_list("hcfuzz", ops, hcf_op_names, HCF_OP_NR, &hcf_ops);
	if (r)
		return r;
	n = clamp(threads, 1U, (unsigned int)HCF_MAX_THREADS);
	if (!seed)
		seed = get_random_u64() ?: 1;
	ts = kcalloc(n, sizeof(*ts), GFP_KERNEL);
	if (!ts)
		return -ENOMEM;
	page = alloc_pages(GFP_KERNEL | __GFP_ZERO, HCF_ORDER);
	if (!page) {
		kfree(ts);
		return -ENOMEM;
	}
	hcf_scratch = page_address(page);
	hcf_scratch_pa = __pa(hcf_scratch);
	memset(hcf_scratch + HCF_AREA, HCF_POISON, HCF_GUARD);
	hcf_ram_end = __pa(high_memory - 1) + 1;

	for (i = 0; i < n; i++) {
		ts[i].rng = hcf_splitmix(seed + i) ?: 1;
		ts[i].task = kthread_create(hcf_thread_fn, &ts[i], "hcfuzz/%u", i);
		if (IS_ERR(ts[i].task)) {
			r = PTR_ERR(ts[i].task);
			/* Not woken yet: kthread_stop() ends them without running them. */
			while (i)
				kthread_stop(ts[--i].task);
			__free_pages(page, HCF_ORDER);
			kfree(ts);
			return r;
		}
	}
	pr_info("hcfuzz: seed=%lu seconds=%u threads=%u nmi=%d ops=%s scratch=%pa ram-end=0x%llx\n",
		seed, seconds, n, nmi, ops, &hcf_scratch_pa, hcf_ram_end);

	atomic_set(&hcf_left, n);
	hcf_deadline = jiffies + (unsigned long)seconds * HZ;
	for (i = 0; i < n; i++)
		wake_up_process(ts[i].task);
	complete_all(&hcf_go);
	wait_for_completion(&hcf_done);

	for (i = 0; i < n; i++) {
		struct hcf_thread *t = &ts[i];

		kthread_stop(t->task);
		hypercalls += t->hypercalls;
		msr_ok += t->msr_ok;
		msr_fault += t->msr_fault;
		for (r = 0; r < HCF_R_NR; r++)
			results[r] += t->results[r];
		restore_failures += t->restore_failures;
		if (t->restore_failures)
			bad = t;
	}
	hcf_check_guard();

	len = scnprintf(line, sizeof(line),
			"hcfuzz: %llu hypercalls, %llu msr accesses, results:", hypercalls,
			msr_ok + msr_fault);
	for (r = 0; r < HCF_R_NR; r++)
		len += scnprintf(line + len, sizeof(line) - len, " %s=%llu", hcf_result_names[r],
				 results[r]);
	pr_info("%s msr-ok=%llu msr-fault=%llu\n", line, msr_ok, msr_fault);

	if (restore_failures) {
		pr_err("hcfuzz: %u MSR restores failed (last: MSR 0x%x value 0x%llx); scratch area "
		       "leaked\n",
		       restore_failures, bad->bad_msr, bad->bad_value);
	} else {
		__free_pages(page, HCF_ORDER);
	}
	kfree(ts);
	pr_info("hcfuzz: done\n");
	return 0;
}

static void __exit hcf_exit(void) {}

module_init(hcf_init);
module_exit(hcf_exit);
MODULE_DESCRIPTION("Hostile-guest fuzzer for the hv paravirtual interface");
MODULE_LICENSE("GPL");
