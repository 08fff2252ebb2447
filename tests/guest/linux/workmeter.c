// SPDX-License-Identifier: GPL-2.0-only
/* workmeter: a VM's own measure of its progress (static test-guest tool, any architecture),
 * for a victim VM beside a hostile one. Arguments: seconds=S (default 30), work=N
 * (default 20: N million rounds a window).
 *
 * One process per CPU, pinned to it, runs a fixed CPU-bound loop (N million rounds of
 * integer arithmetic in registers: no memory traffic, no system call) in windows, until S
 * seconds have passed since the start, and prints a line as each window ends:
 *
 *   workmeter: cpu=C window=W ms=T steal=S
 *
 * T is the window's time on CLOCK_MONOTONIC (what the guest's clock says: under a
 * hypervisor, the real time, including the time the vCPU waited for its pCPU), S the steal
 * time the kernel accounted to the CPU meanwhile (/proc/stat, in ms; 0 without PV steal
 * time): T - S is about the time the vCPU ran, so S / T tells a slower pCPU (or a busier
 * host) from a smaller share of it. Each line is one write(), so lines of different CPUs
 * do not mix. At the end:
 *
 *   workmeter: done cpus=N windows=M
 *
 * A test reads the lines in the order they reach the console, beside the phase lines of
 * another VM, to compare windows run while that VM did one thing or another. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tool.h"

/* N million rounds of a 64-bit LCG; the empty asm keeps the compiler from folding it. */
static uint64_t work(long n, uint64_t x)
{
	for (long i = 0; i < n * 1000000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

/* The steal time of a CPU so far, in ms, from /proc/stat (its 8th value). */
static long long steal_ms(int cpu)
{
	long long steal = 0, v[8];
	char line[256];
	FILE *f = fopen("/proc/stat", "r");
	int c;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu%d %lld %lld %lld %lld %lld %lld %lld %lld", &c, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 9 &&
		    c == cpu) {
			steal = v[7] * 1000 / sysconf(_SC_CLK_TCK);
			break;
		}
	if (f)
		fclose(f);
	return steal;
}

static volatile uint64_t sink; /* keeps the loop's result alive */

static int run(int cpu, long seconds, long n)
{
	double start = now_ms(), t0 = start, t1;
	long long s0 = steal_ms(cpu), s1;
	uint64_t x = (uint64_t)cpu + 1;
	int windows = 0;
	cpu_set_t set;
	char line[96];

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("workmeter: sched_setaffinity");
	while (t0 - start < seconds * 1e3) {
		x = work(n, x);
		t1 = now_ms();
		s1 = steal_ms(cpu);
		int len = snprintf(line, sizeof(line),
				   "workmeter: cpu=%d window=%d ms=%.1f steal=%lld\n", cpu, windows,
				   t1 - t0, s1 - s0);
		if (write(1, line, (size_t)len) != len)
			return -1;
		windows++;
		t0 = t1;
		s0 = s1;
	}
	sink = x;
	return windows;
}

int main(int argc, char **argv)
{
	long seconds = arg(argc, argv, "seconds", 30), n = arg(argc, argv, "work", 20);
	int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN), windows = 0, status;

	setvbuf(stdout, NULL, _IONBF, 0);
	for (int cpu = 0; cpu < cpus; cpu++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(run(cpu, seconds, n) & 255);
		if (pid < 0)
			perror("workmeter: fork");
	}
	while (wait(&status) > 0)
		if (WIFEXITED(status))
			windows += WEXITSTATUS(status);
	printf("workmeter: done cpus=%d windows=%d\n", cpus, windows);
	return 0;
}
