// SPDX-License-Identifier: GPL-2.0-only
/* fpucheck: does the state a hypervisor must switch between vCPUs stay each guest's own?
 * (static test-guest tool, x86-64). Arguments: seconds=S (default 3) seed=N (default 1).
 *
 *   fpucheck: xcr0=0x7 avx=1
 *       XCR0 as XGETBV reads it; AVX usable (CPUID AVX and OSXSAVE, XCR0 has SSE|AVX)
 *   fpucheck: xsetbv-user=sigsegv
 *       XSETBV in user mode must raise #GP (SIGSEGV)
 *   fpucheck: cpu=C tsc_aux=ok|bad|none bad=B checks=K
 *       tsc_aux: on that CPU, RDTSCP's ECX and RDPID give the CPU number Linux put in
 *       IA32_TSC_AUX (none: the CPU offers neither);
 *       bad, checks: one process per CPU loads YMM0-14 with a pattern from the seed, the CPU and
 *       the register, and compares them for S seconds, in between doing integer work
 *       only: another VM's vCPU on the same pCPU (holding other values) must not show
 *   fpucheck: ok | fpucheck: FAIL ...
 *
 * Only this file's assembly touches the vector registers while they are checked: it is
 * built with -mgeneral-regs-only, and the checking loop calls nothing. */
#define _GNU_SOURCE
#include <cpuid.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NREGS 15 /* YMM0-14 hold the pattern, YMM15 is the comparison's scratch */

static uint8_t pattern[NREGS][32] __attribute__((aligned(32)));
static sigjmp_buf trap;

static void on_signal(int sig) { siglongjmp(trap, sig); }

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

#define LOAD(n) "vmovdqa " #n "*32(%0), %%ymm" #n "\n\t"
static void load_pattern(void)
{
	__asm__ volatile(LOAD(0) LOAD(1) LOAD(2) LOAD(3) LOAD(4) LOAD(5) LOAD(6) LOAD(7) LOAD(8)
				 LOAD(9) LOAD(10) LOAD(11) LOAD(12) LOAD(13) LOAD(14)::"r"(pattern)
			 : "memory");
}

/* 0 when YMM0-14 still hold the pattern, else 1 + the first register that does not. */
#define CMP(n)                                             \
	"vpcmpeqq " #n "*32(%1), %%ymm" #n ", %%ymm15\n\t" \
	"vpmovmskb %%ymm15, %%eax\n\t"                     \
	"cmp $-1, %%eax\n\t"                               \
	"mov $" #n "+1, %0\n\t"                            \
	"jne 1f\n\t"
static int check_pattern(void)
{
	int bad;
	__asm__ volatile(CMP(0) CMP(1) CMP(2) CMP(3) CMP(4) CMP(5) CMP(6) CMP(7) CMP(8) CMP(9)
				 CMP(10) CMP(11) CMP(12) CMP(13) CMP(14) "xor %0, %0\n"
									 "1:"
			 : "=&r"(bad)
			 : "r"(pattern)
			 : "eax", "cc", "memory");
	return bad;
}

static int avx_usable(void)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_AVX) || !(c & bit_OSXSAVE))
		return 0;
	return (xgetbv0() & 6) == 6;
}

static const char *tsc_aux_check(int cpu)
{
	unsigned a, b, c, d;
	int rdtscp = __get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27));
	int rdpid = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & (1u << 22));
	if (!rdtscp && !rdpid)
		return "none";
	for (int i = 0; i < 1000; i++) {
		uint32_t aux = 0;
		uint64_t pid = 0;
		if (rdtscp)
			__asm__ volatile("rdtscp" : "=c"(aux)::"eax", "edx");
		if (rdpid)
			__asm__ volatile("rdpid %0" : "=r"(pid));
		/* Linux puts the node in bits 12 and up; these guests have one node. */
		if ((rdtscp && (aux & 0xFFF) != (uint32_t)cpu) ||
		    (rdpid && (pid & 0xFFF) != (uint64_t)cpu))
			return "bad";
		sched_yield();
	}
	return "ok";
}

/* What XSETBV in user mode raised: SIGSEGV (#GP) as it must, or 0 if it ran. */
static int xsetbv_user(void)
{
	signal(SIGSEGV, on_signal);
	signal(SIGILL, on_signal);
	int sig = sigsetjmp(trap, 1);
	if (!sig)
		__asm__ volatile("xsetbv" ::"c"(0), "a"(7), "d"(0));
	signal(SIGSEGV, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	return sig;
}

static void run_on(int cpu, int seconds, unsigned seed)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set))
		exit(2);
	const char *aux = tsc_aux_check(cpu);
	for (int r = 0; r < NREGS; r++)
		for (int i = 0; i < 32; i++)
			pattern[r][i] = (uint8_t)(seed * 131 + cpu * 31 + r * 7 + i * 3);
	/* The TSC rate, against the clock, in integers (no FP here). */
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	uint64_t c0 = rdtsc();
	for (volatile int k = 0; k < 1000000; k++)
		;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	uint64_t ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)t1.tv_nsec -
		      (uint64_t)t0.tv_nsec;
	uint64_t end = rdtsc() + (rdtsc() - c0) * 1000000000u / (ns ? ns : 1) * (uint64_t)seconds;
	/* From here to the last check nothing but this loop runs in this process. */
	load_pattern();
	long checks = 0, bad = 0, first_bad = 0;
	while (rdtsc() < end) {
		for (volatile int k = 0; k < 20000; k++)
			;
		int b = check_pattern();
		checks++;
		if (b) {
			if (!bad)
				first_bad = b;
			bad++;
			load_pattern();
		}
	}
	/* One write per line: the processes of all CPUs print at once. */
	char line[128];
	int n = snprintf(line, sizeof line, "fpucheck: cpu=%d tsc_aux=%s bad=%ld checks=%ld", cpu,
			 aux, bad, checks);
	if (bad)
		n += snprintf(line + n, sizeof line - (size_t)n, " first-bad=ymm%ld",
			      first_bad - 1);
	n += snprintf(line + n, sizeof line - (size_t)n, "\n");
	if (write(1, line, (size_t)n) != n)
		exit(2);
	exit(bad || !strcmp(aux, "bad") ? 1 : 0);
}

int main(int argc, char **argv)
{
	int seconds = 3;
	unsigned seed = 1;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "seconds=", 8))
			seconds = atoi(argv[i] + 8);
		else if (!strncmp(argv[i], "seed=", 5))
			seed = (unsigned)atoi(argv[i] + 5);
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	int avx = avx_usable();
	printf("fpucheck: xcr0=%#llx avx=%d\n", (unsigned long long)xgetbv0(), avx);
	int sig = xsetbv_user();
	printf("fpucheck: xsetbv-user=%s\n", sig == SIGSEGV ? "sigsegv"
					     : sig	    ? "sigill"
							    : "allowed");
	int fail = !avx || sig != SIGSEGV;
	if (avx) {
		long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
		for (int c = 0; c < ncpus; c++)
			if (fork() == 0)
				run_on(c, seconds, seed);
		int status;
		while (wait(&status) > 0)
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				fail = 1;
	}
	printf(fail ? "fpucheck: FAIL\n" : "fpucheck: ok\n");
	return fail;
}
