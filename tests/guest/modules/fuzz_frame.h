/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The frame of the hostile-guest fuzzers, hcfuzz (x86) and a64fuzz (arm64): each module
 * includes it once (Kbuild compiles a module's one .c alone, so these are static
 * functions of that module) and keeps only its operations, its setup and its checks.
 *
 *  - The parameters seconds, seed (0: a random one, which the module prints), rounds and
 *    ops ("all" or a comma-separated list of the module's operation names).
 *  - The threads: unbound, or one bound to each of the first online CPUs; each with its
 *    state (the module's struct, struct fuzz_thread first), its random numbers (fuzz_rng.h:
 *    thread i seeded from seed and i) and its counters, summed at the end (fuzz_sum()).
 *  - The run: for `seconds`, each thread draws one selected operation after another by
 *    the module's weights and makes a step of it (fuzz_step(), the module's), checking
 *    the guard pages every 1024 steps. rounds=R splits the run into R rounds, each a
 *    benign half (the threads spin in the kernel: busy, but with no exit of their own)
 *    and an attack half; a line marks each half as it begins ("NAME: phase benign
 *    round=1", "NAME: phase attack round=1", ... "NAME: phase end") at KERN_ERR, so that
 *    it reaches the serial console of a `quiet` kernel as it happens: a victim VM's
 *    progress can be compared between the two kinds of half (tests/emu/lib.sh,
 *    victim_windows).
 *  - The scratch area: the addresses the module lets the hypervisor write to (a target,
 *    fuzz_target()) are in it or where nothing is; guard pages after it must stay
 *    untouched ("NAME: FAIL guard byte ..." otherwise, and the area is then leaked).
 *  - The summary's lines, built in fuzz_line with fuzz_add() and fuzz_add_counts().
 *
 * Before including it, a module defines FUZZ_NAME (its name: the threads' names and the
 * prefix of the lines printed here), FUZZ_SECONDS (the default of seconds) and FUZZ_OPS
 * (its operations' names, for the description of ops); after it, it defines
 *   static void fuzz_step(struct fuzz_thread *t, unsigned int op);
 *   static bool fuzz_unbacked(u64 pa); (true when nothing is within FUZZ_SLACK + 64 bytes
 *                                       of pa: no RAM, firmware table or device)
 */
#ifndef GUEST_TOOLS_FUZZ_FRAME_H
#define GUEST_TOOLS_FUZZ_FRAME_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/stringify.h>

#include "bound_threads.h"
#include "fuzz_rng.h"
#include "name_list.h"

static unsigned int seconds = FUZZ_SECONDS;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "how long to run (default " __stringify(FUZZ_SECONDS) ")");

static unsigned long seed;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "random seed (default 0: a random one, printed)");

static unsigned int rounds;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "split the run into rounds of a benign half (the threads only spin) "
			 "and an attack half, marked on the console (default 0: attack only)");

static char *ops = "all";
module_param(ops, charp, 0444);
MODULE_PARM_DESC(ops, "all, or a comma-separated list of " FUZZ_OPS);

#define FUZZ_ORDER 2		   /* scratch: 4 pages */
#define FUZZ_AREA (2 * PAGE_SIZE)  /* targets; a page boundary in the middle */
#define FUZZ_GUARD (2 * PAGE_SIZE) /* after the area, must keep FUZZ_POISON */
#define FUZZ_SLACK 1024		   /* most bytes written at one target */
#define FUZZ_POISON 0xa5
#define FUZZ_MAX_OPS 16
#define FUZZ_MAX_WEIGHT 8

/* The frame's part of a thread's state, first in the module's. */
struct fuzz_thread {
	struct task_struct *task;
	u64 rng;
};

static unsigned long fuzz_ops; /* BIT(operation), from ops; the module may clear some */
static const u8 *fuzz_weight;
static unsigned int fuzz_nr_ops;
static u8 fuzz_pick[FUZZ_MAX_OPS * FUZZ_MAX_WEIGHT];
static unsigned int fuzz_npick;
static void *fuzz_ts; /* the threads' states: fuzz_n of fuzz_size bytes */
static size_t fuzz_size;
static unsigned int fuzz_n;
static u8 *fuzz_scratch;
static phys_addr_t fuzz_scratch_pa;
static u64 fuzz_ram_end; /* set by the module: where its RAM ends */
static unsigned long fuzz_start, fuzz_half, fuzz_deadline; /* jiffies */
static atomic_t fuzz_left;
static atomic_t fuzz_guard_hit;
static atomic_t fuzz_half_shown = ATOMIC_INIT(-1);
static DECLARE_COMPLETION(fuzz_go);
static DECLARE_COMPLETION(fuzz_done);
static char fuzz_line[512];
static int fuzz_len;

static void fuzz_step(struct fuzz_thread *t, unsigned int op);
static bool fuzz_unbacked(u64 pa);

/*
 * Reads ops (names[i]: operation i of nr, drawn weight[i] times as often as one of
 * weight 1, at most FUZZ_MAX_WEIGHT) into fuzz_ops, and draws a seed where none was
 * given. Returns 0 or a negative error.
 */
static int fuzz_parse_ops(const char *const names[], const u8 weight[], unsigned int nr)
{
	if (nr > FUZZ_MAX_OPS)
		return -EINVAL;
	fuzz_weight = weight;
	fuzz_nr_ops = nr;
	if (!seed)
		seed = get_random_u64() ?: 1;
	return parse_name_list(FUZZ_NAME, ops, names, nr, &fuzz_ops);
}

static struct fuzz_thread *fuzz_thread(unsigned int i) { return fuzz_ts + i * fuzz_size; }

static int fuzz_scratch_alloc(void)
{
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_ZERO, FUZZ_ORDER);

	if (!page)
		return -ENOMEM;
	fuzz_scratch = page_address(page);
	fuzz_scratch_pa = page_to_phys(page);
	memset(fuzz_scratch + FUZZ_AREA, FUZZ_POISON, FUZZ_GUARD);
	return 0;
}

/* Frees the scratch area, unless the hypervisor may still write to it (keep) or wrote
 * beyond it. */
static void fuzz_scratch_free(bool keep)
{
	if (!keep && !atomic_read(&fuzz_guard_hit))
		free_pages((unsigned long)fuzz_scratch, FUZZ_ORDER);
}

static void fuzz_check_guard(void)
{
	u8 *bad = memchr_inv(fuzz_scratch + FUZZ_AREA, FUZZ_POISON, FUZZ_GUARD);

	if (bad && !atomic_xchg(&fuzz_guard_hit, 1))
		pr_err(FUZZ_NAME ": FAIL guard byte at area+%ld changed: the hypervisor wrote more "
				 "than %u bytes at a target\n",
		       (long)(bad - fuzz_scratch), FUZZ_SLACK);
}

/*
 * A guest-physical address the hypervisor may write up to FUZZ_SLACK bytes at, even
 * after its low 6 bits are changed, by the random bits r: in the scratch area (across
 * its page boundary, aligned to align bytes, unaligned), beyond any physical address or
 * wrapping around, or else right after the end of RAM, own (the module's kind, for
 * r & 7 == 5) or anywhere below 2^48 where fuzz_unbacked() says nothing is (if something
 * is, one in the area instead).
 */
static u64 fuzz_target(u64 r, unsigned int align, u64 own)
{
	u64 v = r >> 8, pa;

	switch (r & 7) {
	case 0: /* across the page boundary in the area */
		return fuzz_scratch_pa + PAGE_SIZE - 1 - v % 64;
	case 1: /* aligned in the area */
		return fuzz_scratch_pa + ALIGN_DOWN(v % (FUZZ_AREA - FUZZ_SLACK), align);
	case 2: /* unaligned in the area */
		return fuzz_scratch_pa + 1 + v % (FUZZ_AREA - FUZZ_SLACK - 64);
	case 3: /* right after the end of RAM */
		pa = fuzz_ram_end + (v & 0xfffff);
		break;
	case 4: /* beyond any physical address, or wrapping around */
		return (r & 8) ? v | BIT_ULL(52) : U64_MAX - (v & 0xfff);
	case 5:
		pa = own;
		break;
	default: /* anywhere below 2^48 */
		pa = v & (BIT_ULL(48) - 1);
		break;
	}
	if (fuzz_unbacked(pa))
		return pa;
	return fuzz_scratch_pa + v % (FUZZ_AREA - FUZZ_SLACK - 64);
}

/* With rounds: whether this is a benign half (the even ones from fuzz_start on). */
/*
 * With rounds: whether this is a benign half (the even ones from fuzz_start on). The
 * first to see a half begin, a thread between two steps or the loading thread as it
 * wakes, prints its line: the threads may all be in long steps, and the loading thread
 * may wait for a CPU they hold.
 */
static bool fuzz_benign_now(void)
{
	int half, shown;

	if (!rounds)
		return false;
	half = (int)min((jiffies - fuzz_start) / fuzz_half, 2UL * rounds - 1);
	shown = atomic_read(&fuzz_half_shown);
	while (shown < half) {
		if (atomic_try_cmpxchg(&fuzz_half_shown, &shown, shown + 1)) {
			shown++;
			pr_err(FUZZ_NAME ": phase %s round=%d\n", (shown & 1) ? "attack" : "benign",
			       shown / 2 + 1);
		}
	}
	return !(half & 1);
}

static int fuzz_thread_fn(void *data)
{
	struct fuzz_thread *t = data;
	unsigned long n = 0;

	wait_for_completion(&fuzz_go);
	while (time_before(jiffies, fuzz_deadline)) {
		if (fuzz_benign_now()) {
			cpu_relax(); /* merely busy: no exit of its own */
		} else {
			fuzz_step(t, fuzz_pick[fuzz_rand(&t->rng) % fuzz_npick]);
			if (!(++n % 1024))
				fuzz_check_guard();
		}
		cond_resched();
	}
	if (atomic_dec_and_test(&fuzz_left))
		complete(&fuzz_done);
	return bound_threads_wait_for_stop();
}

/*
 * Creates n threads (bound: one on each of the first n online CPUs, in their order, at
 * most one a CPU; else unbound, wandering over the CPUs), each with size bytes of state,
 * zeroed but for the frame's part; not woken yet. Returns 0, or a negative error
 * (-EINVAL: no operation left in fuzz_ops) with nothing left behind.
 */
static int fuzz_create(size_t size, unsigned int n, bool bound)
{
	unsigned int i, op, w;
	int cpu = -1;

	fuzz_npick = 0;
	for (op = 0; op < fuzz_nr_ops; op++)
		for (w = 0; (fuzz_ops & BIT(op)) && w < min_t(u8, fuzz_weight[op], FUZZ_MAX_WEIGHT);
		     w++)
			fuzz_pick[fuzz_npick++] = op;
	if (!fuzz_npick)
		return -EINVAL;
	if (bound)
		n = min(n, num_online_cpus());
	fuzz_ts = kcalloc(n, size, GFP_KERNEL);
	if (!fuzz_ts)
		return -ENOMEM;
	fuzz_size = size;
	for (i = 0; i < n; i++) {
		struct fuzz_thread *t = fuzz_thread(i);

		t->rng = fuzz_seed(seed, i);
		if (bound) {
			cpu = cpumask_next(cpu, cpu_online_mask);
			t->task = kthread_create_on_cpu(fuzz_thread_fn, t, cpu, FUZZ_NAME "/%u");
		} else {
			t->task = kthread_create(fuzz_thread_fn, t, FUZZ_NAME "/%u", i);
		}
		if (IS_ERR(t->task)) {
			int err = PTR_ERR(t->task);

			/* Not woken yet: kthread_stop() ends them without running them. */
			while (i)
				kthread_stop(fuzz_thread(--i)->task);
			kfree(fuzz_ts);
			fuzz_ts = NULL;
			return err;
		}
	}
	fuzz_n = n;
	return 0;
}

/*
 * The run: starts the threads, prints the phase lines as the halves begin (with
 * rounds), waits for the threads' end and stops them.
 */
static void fuzz_run(void)
{
	unsigned int i;

	atomic_set(&fuzz_left, fuzz_n);
	fuzz_start = jiffies;
	fuzz_deadline = fuzz_start + (unsigned long)seconds * HZ;
	if (rounds) {
		fuzz_half = max((unsigned long)seconds * HZ / (2 * rounds), 1UL);
		fuzz_deadline = fuzz_start + 2 * rounds * fuzz_half;
	}
	for (i = 0; i < fuzz_n; i++)
		wake_up_process(fuzz_thread(i)->task);
	complete_all(&fuzz_go);
	/* In sleeps of under 64 jiffies, which the timer wheel keeps to the jiffy (a longer
	 * one may end up to an eighth of it late). */
	while (rounds && time_before(jiffies, fuzz_deadline)) {
		fuzz_benign_now();
		schedule_timeout_uninterruptible(min(fuzz_deadline - jiffies, 32UL));
	}
	wait_for_completion(&fuzz_done);
	if (rounds)
		pr_err(FUZZ_NAME ": phase end\n");
	for (i = 0; i < fuzz_n; i++)
		kthread_stop(fuzz_thread(i)->task);
}

static void fuzz_free(void)
{
	kfree(fuzz_ts);
	fuzz_ts = NULL;
}

/* Sums the threads' u64 counters at offset off of their state, len bytes, into sum. */
static void fuzz_sum(size_t off, size_t len, u64 *sum)
{
	unsigned int i, k;

	memset(sum, 0, len);
	for (i = 0; i < fuzz_n; i++) {
		const u64 *c = (const void *)fuzz_thread(i) + off;

		for (k = 0; k < len / sizeof(u64); k++)
			sum[k] += c[k];
	}
}

/* FUZZ_SUM(&sum, type, member): the threads' member (a struct_group of u64 counters in
 * the module's state of that type) summed into sum->member. */
#define FUZZ_SUM(sum, type, member)                                          \
	do {                                                                 \
		BUILD_BUG_ON(sizeof_field(type, member) % sizeof(u64));      \
		fuzz_sum(offsetof(type, member), sizeof_field(type, member), \
			 (u64 *)&(sum)->member);                             \
	} while (0)

/* Appends to fuzz_line (fuzz_len = 0 starts it anew). */
static __printf(1, 2) void fuzz_add(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	fuzz_len += vscnprintf(fuzz_line + fuzz_len, sizeof(fuzz_line) - fuzz_len, fmt, args);
	va_end(args);
}

/* Appends " name=count" for each of n counters. */
static void fuzz_add_counts(const char *const names[], const u64 *counts, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		fuzz_add(" %s=%llu", names[i], counts[i]);
}

#endif
