// SPDX-License-Identifier: GPL-2.0-only
/* timerlat: a guest's timer wake-up latency, as cyclictest measures it (static test-guest
 * tool, any architecture). Arguments: seconds=S (default 20), procs=N (default 2),
 * period_us=P (default 1000), prio=R (default 50; 0: SCHED_OTHER).
 *
 * N processes at real-time priority R (SCHED_FIFO) each sleep to absolute deadlines P us
 * apart on CLOCK_MONOTONIC (clock_nanosleep, TIMER_ABSTIME) for S seconds, and take the
 * latency of each wakeup: the time it was due to when the process ran again. In a VM that
 * is the guest's timer interrupt (the hypervisor's timer emulation and injection), the
 * wake-up of a halted vCPU, any wait for its pCPU, and the guest's own scheduling. Each
 * prints one line when it ends:
 *
 *   timerlat: proc=I n=WAKEUPS mean_us=M max_us=X max_at_ms=T over1ms=A over10ms=B
 *
 * max_at_ms: when (ms after the start) the longest wakeup was due, to find it in the
 * hypervisor's counters or trace; over1ms, over10ms: wakeups later than 1 and 10 ms. Then
 *
 *   timerlat: done procs=N
 */
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tool.h"

static long long ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000 + t->tv_nsec;
}

static void measure(int id, long seconds, long period_us, long prio)
{
	if (prio > 0) {
		struct sched_param sp = { .sched_priority = (int)prio };
		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			perror("timerlat: sched_setscheduler");
	}
	struct timespec t, now;
	clock_gettime(CLOCK_MONOTONIC, &t);
	long long start = ns(&t), end = start + seconds * 1000000000ll, period = period_us * 1000;
	long long n = 0, sum = 0, max = 0, max_at = 0, over1 = 0, over10 = 0;
	for (long long due = start + period; due < end; due += period) {
		t.tv_sec = due / 1000000000;
		t.tv_nsec = due % 1000000000;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL))
			;
		clock_gettime(CLOCK_MONOTONIC, &now);
		long long lat = ns(&now) - due;
		n++;
		sum += lat;
		over1 += lat > 1000000;
		over10 += lat > 10000000;
		if (lat > max)
			max = lat, max_at = due - start;
		if (ns(&now) > due + period) /* a late wakeup skips the deadlines it missed */
			due += (ns(&now) - due) / period * period;
	}
	char line[200];
	int len = snprintf(line, sizeof line,
			   "timerlat: proc=%d n=%lld mean_us=%lld max_us=%lld max_at_ms=%lld "
			   "over1ms=%lld over10ms=%lld\n",
			   id, n, n ? sum / n / 1000 : 0, max / 1000, max_at / 1000000, over1,
			   over10);
	if (write(1, line, (size_t)len) != len)
		_exit(1);
}

int main(int argc, char **argv)
{
	long seconds = arg(argc, argv, "seconds", 20), procs = arg(argc, argv, "procs", 2);
	long period_us = arg(argc, argv, "period_us", 1000), prio = arg(argc, argv, "prio", 50);
	if (seconds < 1 || procs < 1 || procs > 64 || period_us < 10) {
		fprintf(stderr, "timerlat: seconds >= 1, procs 1..64, period_us >= 10\n");
		return 2;
	}
	fflush(stdout);
	for (int i = 0; i < procs; i++)
		if (!fork()) {
			measure(i, seconds, period_us, prio);
			_exit(0);
		}
	int ok = 0, status;
	while (wait(&status) > 0)
		ok += WIFEXITED(status) && !WEXITSTATUS(status);
	printf("timerlat: done procs=%d\n", ok);
	return ok == procs ? 0 : 1;
}
