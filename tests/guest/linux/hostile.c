// SPDX-License-Identifier: GPL-2.0-only
/* hostile: the user-space half of the hostile guest (static test-guest tool, x86-64; the
 * kernel half is tests/guest/modules/hcfuzz.c). Argument: rounds=N (default 1000).
 *
 * Exceptions a hypervisor intercepts, N times each, from user space:
 *   hostile: ac=A/N        #AC: EFLAGS.AC set (Linux runs with CR0.AM), an unaligned load;
 *                          each must raise SIGBUS (BUS_ADRALN)
 *   hostile: step=S/N      #DB: EFLAGS.TF set by POPF, each must raise one SIGTRAP
 *   hostile: bp=B/N        #DB: a hardware write breakpoint (perf_event_open), N writes
 *                          must count N hits
 *   hostile: icebp=sigtrap|sigill|...   INT1 (ICEBP, F1) raises #DB on a CPU: SIGTRAP
 *                          (QEMU's TCG decodes F1 as an invalid opcode: SIGILL)
 * then MMIO from user space, through /dev/mem, at a page where nothing is (no /proc/iomem
 * entry), with page-table games for the hypervisor's instruction fetch (it walks the
 * guest's page tables to decode the instruction that faulted):
 *   hostile: mmio pa=P moffs=ok|BAD ...  MOV with a 64-bit absolute address (A0-A3),
 *                          the page mapped at a fixed address
 *   hostile: mmio page-end=ok|BAD ...    the load is the last instruction of its page and
 *                          the next page is not mapped (PROT_NONE): a fetch of 15 bytes
 *                          runs into it (SIGSEGV at the next fetch returns)
 *   hostile: mmio straddle=ok|BAD ...    the load straddles two pages mapped in the
 *                          reverse order of their physical pages, split after each byte
 *   hostile: mmio split ram|mmio load=0x.. expected=0x.. store=kept|lost, and mmio|ram:
 *                          an 8-byte access across a RAM page and an MMIO page (the
 *                          expected value: the RAM half from RAM, the other half what a
 *                          load at the MMIO page reads)
 *   hostile: mmio accesses=M   the MMIO accesses made (each one the hypervisor's to count)
 *   hostile: done
 * A wrong value says BAD with what was read; the test decides what is a failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "tool.h"

#define PAGE 4096ul
#define FIXED_VA 0x6f0000000000ul /* where the MMIO page goes for the moffs forms */

/* Probes in assembly (calls: no red zone of a caller is under the stack pointer). */
uint32_t ac_probe(const void *p);    /* AC on, mov (%rdi),%eax (8b 07), AC off */
void tf_probe(void);		     /* TF on by POPF: a trap after the next instruction */
void icebp_probe(void);		     /* F1 */
uint64_t moffs_probe(uint64_t *out); /* the moffs loads and a store, see below */
__asm__(".text\n"
	".globl ac_probe\n"
	"ac_probe:\n"
	"	pushfq\n"
	"	orl $0x40000, (%rsp)\n"
	"	popfq\n"
	"	.byte 0x8b, 0x07\n"
	"	pushfq\n"
	"	andl $~0x40000, (%rsp)\n"
	"	popfq\n"
	"	ret\n"
	".globl tf_probe\n"
	"tf_probe:\n"
	"	pushfq\n"
	"	orl $0x100, (%rsp)\n"
	"	popfq\n"
	"	nop\n"
	"	nop\n"
	"	ret\n"
	".globl icebp_probe\n"
	"icebp_probe:\n"
	"	.byte 0xf1\n"
	"	ret\n"
	/* out[0]: A1 (eax), out[1]: 48 A1 (rax), out[2]: A0 (al into a preset rax),
	 * out[3]: 66 A1 (ax into a preset rax); then A3 and 48 A3 (stores) */
	".globl moffs_probe\n"
	"moffs_probe:\n"
	"	movabs 0x6f0000000010, %eax\n"
	"	mov %rax, 0(%rdi)\n"
	"	movabs 0x6f0000000010, %rax\n"
	"	mov %rax, 8(%rdi)\n"
	"	movabs $0x1122334455667788, %rax\n"
	"	movabs 0x6f0000000010, %al\n"
	"	mov %rax, 16(%rdi)\n"
	"	movabs $0x1122334455667788, %rax\n"
	"	movabs 0x6f0000000010, %ax\n"
	"	mov %rax, 24(%rdi)\n"
	"	movabs %eax, 0x6f0000000020\n"
	"	movabs %rax, 0x6f0000000028\n"
	"	ret\n");

static volatile int ac_hits, step_hits, icebp_sig, segv_returns;
static volatile uint32_t watched;
static uintptr_t guard_page; /* the PROT_NONE page after the page-end code */

static void on_signal(int sig, siginfo_t *si, void *ctx)
{
	greg_t *g = ((ucontext_t *)ctx)->uc_mcontext.gregs;

	switch (sig) {
	case SIGBUS: /* #AC at the 2-byte load: skip it, AC off */
		if (si->si_code == BUS_ADRALN)
			ac_hits++;
		g[REG_EFL] &= ~0x40000;
		g[REG_RIP] += 2;
		break;
	case SIGTRAP:
		if (g[REG_EFL] & 0x100) {
			g[REG_EFL] &= ~0x100;
			step_hits++;
		} else {
			icebp_sig = SIGTRAP;
		}
		break;
	case SIGILL: /* ICEBP answered with #UD: RIP is at the F1 */
		icebp_sig = SIGILL;
		g[REG_RIP] += 1;
		break;
	case SIGSEGV: /* the fetch after the page-end load: return to the caller */
		if ((uintptr_t)g[REG_RIP] != guard_page)
			_exit(100);
		g[REG_RIP] = *(greg_t *)g[REG_RSP];
		g[REG_RSP] += 8;
		segv_returns++;
		break;
	}
}

static void traps(long rounds)
{
	static uint64_t buf[4];
	struct perf_event_attr a = {
		.type = PERF_TYPE_BREAKPOINT,
		.size = sizeof(a),
		.bp_type = HW_BREAKPOINT_W,
		.bp_addr = (uintptr_t)&watched,
		.bp_len = HW_BREAKPOINT_LEN_4,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	uint64_t hits = 0;
	long i;
	int fd;

	for (i = 0; i < rounds; i++)
		ac_probe((char *)buf + 1);
	printf("hostile: ac=%d/%ld\n", ac_hits, rounds);
	for (i = 0; i < rounds; i++)
		tf_probe();
	printf("hostile: step=%d/%ld\n", step_hits, rounds);
	fd = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		printf("hostile: bp=unavailable (%s)\n", strerror(errno));
	} else {
		for (i = 0; i < rounds; i++)
			watched = (uint32_t)i;
		if (read(fd, &hits, sizeof(hits)) != sizeof(hits))
			hits = 0;
		close(fd);
		printf("hostile: bp=%" PRIu64 "/%ld\n", hits, rounds);
	}
	icebp_probe();
	printf("hostile: icebp=%s\n", icebp_sig == SIGTRAP  ? "sigtrap"
				      : icebp_sig == SIGILL ? "sigill"
							    : "none");
}

/* A physical page (and the two after it) that no /proc/iomem line covers, or 0. */
static uint64_t free_page(void)
{
	for (uint64_t pa = 0xd0000000; pa < 0xfe000000; pa += 0x1000000) {
		char line[256];
		int hit = 0;
		FILE *f = fopen("/proc/iomem", "r");

		if (!f)
			return 0;
		while (!hit && fgets(line, sizeof(line), f)) {
			uint64_t s, e;

			if (sscanf(line, " %" SCNx64 "-%" SCNx64, &s, &e) == 2)
				hit = s <= pa + 3 * PAGE - 1 && pa <= e;
		}
		fclose(f);
		if (!hit)
			return pa;
	}
	return 0;
}

static long mmio_accesses;

static uint64_t load64(const volatile void *p)
{
	mmio_accesses++;
	return *(const volatile uint64_t *)p;
}

/* A memfd of two pages, its RW view in *rw. */
static int two_pages(uint8_t **rw)
{
	int fd = (int)syscall(SYS_memfd_create, "hostile", 0);

	if (fd < 0 || ftruncate(fd, 2 * PAGE))
		return -1;
	*rw = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	return *rw == MAP_FAILED ? -1 : fd;
}

static void mmio(void)
{
	static const uint8_t insn8[] = {
		0x3e, 0x48, 0x8b, 0x87, 0x10, 0, 0, 0
	}; /* ds mov 0x10(%rdi),%rax */
	uint64_t pa = free_page(), out[4], v, want, ram;
	int mem, code, bad = 0, k;
	uint8_t *m, *x, *rw, *d;

	mem = open("/dev/mem", O_RDWR | O_SYNC);
	if (!pa || mem < 0) {
		printf("hostile: mmio unavailable (free page 0x%" PRIx64 ", /dev/mem %s)\n", pa,
		       mem < 0 ? strerror(errno) : "ok");
		return;
	}
	m = mmap((void *)FIXED_VA, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE,
		 mem, (off_t)pa);
	if (m != (void *)FIXED_VA) {
		printf("hostile: mmio unavailable (mmap of /dev/mem at 0x%" PRIx64 ": %s)\n", pa,
		       strerror(errno));
		return;
	}

	/* moffs: a 64-bit absolute address */
	v = load64(m + 0x10);
	moffs_probe(out);
	mmio_accesses += 6;
	bad = out[0] != (uint32_t)v || out[1] != v ||
	      out[2] != ((0x1122334455667788ull & ~0xffull) | (uint8_t)v) ||
	      out[3] != ((0x1122334455667788ull & ~0xffffull) | (uint16_t)v);
	printf("hostile: mmio pa=0x%" PRIx64 " moffs=%s (eax 0x%" PRIx64 " rax 0x%" PRIx64
	       " al 0x%" PRIx64 " ax 0x%" PRIx64 ", bytes 0x%" PRIx64 ")\n",
	       pa, bad ? "BAD" : "ok", out[0], out[1], out[2], out[3], v);

	/* page-end: mov (%rdi),%eax (8b 07) as the last bytes of an executable page */
	x = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (x == MAP_FAILED || mprotect(x + PAGE, PAGE, PROT_NONE))
		return;
	guard_page = (uintptr_t)(x + PAGE);
	x[PAGE - 2] = 0x8b;
	x[PAGE - 1] = 0x07;
	v = load64(m + 0x30);
	uint32_t got = ((uint32_t(*)(void *))(x + PAGE - 2))(m + 0x30);
	mmio_accesses++;
	printf("hostile: mmio page-end=%s (eax 0x%x, bytes 0x%" PRIx64 ", returns %d)\n",
	       got == (uint32_t)v && segv_returns == 1 ? "ok" : "BAD", got, v, segv_returns);

	/* straddle: virtual page 0 is the memfd's page 1 and the other way round */
	code = two_pages(&rw);
	d = mmap(NULL, 2 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code < 0 || d == MAP_FAILED ||
	    mmap(d, PAGE, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_FIXED, code, PAGE) != d ||
	    mmap(d + PAGE, PAGE, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_FIXED, code, 0) !=
		    d + PAGE)
		return;
	want = load64(m + 0x10);
	bad = 0;
	for (k = 1; k < (int)sizeof(insn8); k++) {
		memcpy(rw + 2 * PAGE - k, insn8, (size_t)k);
		memcpy(rw, insn8 + k, sizeof(insn8) - (size_t)k);
		rw[sizeof(insn8) - (size_t)k] = 0xc3; /* ret */
		__asm__ volatile("" ::: "memory");
		v = ((uint64_t(*)(void *))(d + PAGE - k))(m);
		mmio_accesses++;
		if (v != want && !bad++)
			printf("hostile: mmio straddle split after %d bytes: rax 0x%" PRIx64
			       ", expected 0x%" PRIx64 "\n",
			       k, v, want);
	}
	printf("hostile: mmio straddle=%s (%d of %zu splits wrong)\n", bad ? "BAD" : "ok", bad,
	       sizeof(insn8) - 1);

	/* split: RAM page then MMIO page, and MMIO page then RAM page */
	for (int order = 0; order < 2; order++) {
		int ramfd = two_pages(&rw);
		uint8_t *r0 = order ? d + PAGE : d, *m0 = order ? d : d + PAGE;
		uint64_t mm, st = 0x8877665544332211ull;
		volatile uint32_t *ram_half;

		if (ramfd < 0 ||
		    mmap(r0, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, ramfd, 0) !=
			    r0 ||
		    mmap(m0, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, mem,
			 (off_t)pa + PAGE) != m0)
			return;
		memset(rw, 0xa5, PAGE);
		mm = order ? load64(m0 + PAGE - 8) : load64(m0); /* the MMIO half's bytes */
		/* the RAM half through its other view: volatile, or the compiler takes the
		 * memset's bytes for it and never sees the store through d */
		ram_half = (volatile uint32_t *)(order ? rw : rw + PAGE - 4);
		ram = *ram_half;
		want = order ? (mm >> 32) | ram << 32 : ram | mm << 32;
		v = load64(d + PAGE - 4);
		*(volatile uint64_t *)(d + PAGE - 4) = st;
		mmio_accesses++;
		ram = *ram_half;
		printf("hostile: mmio split %s load=0x%016" PRIx64 " expected=0x%016" PRIx64
		       " store=%s\n",
		       order ? "mmio|ram" : "ram|mmio", v, want,
		       ram == (order ? (uint32_t)(st >> 32) : (uint32_t)st) ? "kept" : "lost");
		close(ramfd);
	}
	printf("hostile: mmio accesses=%ld\n", mmio_accesses);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_sigaction = on_signal, .sa_flags = SA_SIGINFO };
	long rounds = arg(argc, argv, "rounds", 1000);

	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGTRAP, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	traps(rounds);
	mmio();
	printf("hostile: done\n");
	return 0;
}
