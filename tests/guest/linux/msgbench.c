// SPDX-License-Identifier: GPL-2.0-only
/* msgbench: a messaging benchmark in the manner of hackbench, for the test guests (static,
 * both architectures). `groups` groups of `fds` senders and `fds` receivers; each
 * receiver has a pipe that every sender of its group writes to; each sender writes
 * `loops` messages of 100 bytes to each receiver of its group. The time runs from the
 * moment every process is ready (a start pipe) to the last receiver's last message: it
 * measures how fast the scheduler below lets woken processes, and the vCPUs they run on,
 * run. It runs `runs` times (a run of a few hundred milliseconds swings by 2x under
 * overcommit, with where the guest happens to put its processes) and prints each run,
 * then the median:
 *
 *   msgbench: run 1/R ms=T.TTT busy_ms=B idle_ms=I steal_ms=S ctxt=C
 *   ...
 *   msgbench: groups=G fds=N loops=L runs=R messages=M ms=T.TTT ns/msg=X
 *
 * where M and ms are per run (ms the median). busy, idle and steal are the guest's own
 * account of the run (/proc/stat, all CPUs, in its 10 ms ticks): the CPU time the run cost
 * the guest (user, system, interrupts), the time its vCPUs idled, and the time they were
 * runnable without a pCPU; ctxt its context switches. So a scheduler that makes the run
 * slower shows whether the guest got less CPU time, or spent more on the same work.
 * Arguments: groups=G fds=N loops=L runs=R (defaults 2, 5, 100, 5). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"

#define MSG 100

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* Reads exactly n bytes (a pipe hands out what the writers wrote, maybe in pieces). */
static void read_full(int fd, char *buf, size_t n)
{
	while (n) {
		ssize_t r = read(fd, buf, n);
		if (r <= 0)
			die("msgbench: read");
		buf += r;
		n -= (size_t)r;
	}
}

static void write_full(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);
		if (w <= 0)
			die("msgbench: write");
		buf += w;
		n -= (size_t)w;
	}
}

/* The guest's CPU account (/proc/stat's first line and ctxt), in ms and switches. */
struct cpu_account {
	double busy, idle, steal;
	long long ctxt;
};

static struct cpu_account cpu_account(void)
{
	struct cpu_account a = { 0, 0, 0, 0 };
	FILE *f = fopen("/proc/stat", "r");
	if (!f)
		die("msgbench: /proc/stat");
	unsigned long long user, nice, sys, idle, iowait, irq, softirq, steal;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &sys, &idle,
		   &iowait, &irq, &softirq, &steal) != 8)
		die("msgbench: /proc/stat: no cpu line");
	double tick_ms = 1000.0 / (double)sysconf(_SC_CLK_TCK);
	a.busy = (double)(user + nice + sys + irq + softirq) * tick_ms;
	a.idle = (double)(idle + iowait) * tick_ms;
	a.steal = (double)steal * tick_ms;
	char line[256];
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "ctxt %lld", &a.ctxt) == 1)
			break;
	fclose(f);
	return a;
}

/* One run: forks the groups, starts them together, returns the time in ms (< 0: failed). */
static double run(long groups, long fds, long loops, struct cpu_account *used)
{
	int ready[2], start[2];
	if (pipe(ready) || pipe(start))
		die("msgbench: pipe");
	char buf[MSG];
	memset(buf, 'm', sizeof buf);
	long procs = 0;
	for (long g = 0; g < groups; g++) {
		int in[100][2];
		for (long r = 0; r < fds; r++)
			if (pipe(in[r]))
				die("msgbench: pipe");
		for (long r = 0; r < fds; r++, procs++) {
			if (fork() == 0) { /* receiver: fds * loops messages */
				write_full(ready[1], "r", 1);
				read_full(start[0], buf, 1);
				for (long m = 0; m < fds * loops; m++)
					read_full(in[r][0], buf, MSG);
				_exit(0);
			}
		}
		for (long s = 0; s < fds; s++, procs++) {
			if (fork() == 0) { /* sender: loops messages to each receiver */
				write_full(ready[1], "s", 1);
				read_full(start[0], buf, 1);
				for (long m = 0; m < loops; m++)
					for (long r = 0; r < fds; r++)
						write_full(in[r][1], buf, MSG);
				_exit(0);
			}
		}
		for (long r = 0; r < fds; r++)
			close(in[r][0]), close(in[r][1]);
	}
	for (long i = 0; i < procs; i++)
		read_full(ready[0], buf, 1);
	struct cpu_account a0 = cpu_account();
	double t0 = now_ms();
	for (long i = 0; i < procs; i++)
		write_full(start[1], "g", 1);
	int status, bad = 0;
	for (long i = 0; i < procs; i++)
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	double ms = now_ms() - t0;
	struct cpu_account a1 = cpu_account();
	*used = (struct cpu_account){ a1.busy - a0.busy, a1.idle - a0.idle, a1.steal - a0.steal,
				      a1.ctxt - a0.ctxt };
	close(ready[0]), close(ready[1]), close(start[0]), close(start[1]);
	return bad ? -1 : ms;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long groups = arg(argc, argv, "groups", 2), fds = arg(argc, argv, "fds", 5),
	     loops = arg(argc, argv, "loops", 100), runs = arg(argc, argv, "runs", 5);
	if (groups < 1 || fds < 1 || loops < 1 || groups * fds > 100 || runs < 1 || runs > 99) {
		fprintf(stderr, "msgbench: groups=1.. fds=1.. (groups*fds <= 100) loops=1.. "
				"runs=1..99\n");
		return 1;
	}
	double ms[99];
	for (long i = 0; i < runs; i++) {
		struct cpu_account used;
		ms[i] = run(groups, fds, loops, &used);
		if (ms[i] < 0) {
			fprintf(stderr, "msgbench: a process failed\n");
			return 1;
		}
		printf("msgbench: run %ld/%ld ms=%.3f busy_ms=%.0f idle_ms=%.0f steal_ms=%.0f "
		       "ctxt=%lld\n",
		       i + 1, runs, ms[i], used.busy, used.idle, used.steal, used.ctxt);
		fflush(stdout); /* before the next run's children inherit the buffer */
	}
	qsort(ms, (size_t)runs, sizeof ms[0], cmp_double);
	double median = runs % 2 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2;
	long messages = groups * fds * fds * loops;
	printf("msgbench: groups=%ld fds=%ld loops=%ld runs=%ld messages=%ld ms=%.3f ns/msg=%.0f\n",
	       groups, fds, loops, runs, messages, median, median * 1e6 / (double)messages);
	return 0;
}
