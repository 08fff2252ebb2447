/* SPDX-License-Identifier: GPL-2.0-only */
/* Console multiplexing (see console.h). Guest output is collected per VM up to a newline
 * so lines from different VMs and from the hypervisor never interleave mid-line. */
#include "console.h"
#include "lib.h"
#include "spinlock.h"
#include "arch.h"
#include "sched.h"
#include "vm.h"

#define CTRL_T 0x14
#define CTRL_BACKSLASH 0x1c
#define LINE_MAX 256

static int (*source)(void);
static struct vm *vms[MAX_VMS];
static struct console_port {
	bool (*rx_push)(void *uart, u8 byte);
	void *uart;
} ports[MAX_VMS];
/* Input for each VM that its UART had no room for yet, in the order typed; it goes in as
 * the guest reads. Beyond the queue's size input for that VM is dropped and counted. The
 * host UART is always read to its end, so the control keys work whatever a guest does
 * with its receiver (never reads it, loops it back, keeps it full). */
#define INPUT_QUEUE 1024
static struct input_queue {
	u8 buf[INPUT_QUEUE];
	u32 head, len;
	u64 dropped;
} inq[MAX_VMS];
/* The last CONSOLE_TAIL bytes each VM wrote, for console_tail (the telemetry's
 * /console/NAME). */
static struct tail {
	char buf[CONSOLE_TAIL];
	u64 total; /* bytes written since the start; buf[total % CONSOLE_TAIL] is the next */
} tails[MAX_VMS];
static char line[MAX_VMS][LINE_MAX];
static u32 line_len[MAX_VMS];
/* When each VM last wrote, the vCPU that wrote and its steal time then. */
static u64 last_output[MAX_VMS];
static struct vcpu *writer[MAX_VMS];
static u64 writer_steal_ns[MAX_VMS];
static u32 nvms, focus;
/* The VM whose unfinished line is on the screen (the cursor is at its end), or -1. A
 * VM's line is normally printed when complete; only the focused VM's unfinished line is
 * shown once it has been quiet for a moment, so a shell prompt and typed characters
 * appear as they should. A quiet moment can also be a vCPU preempted mid-line: the line
 * stays in its buffer, so when other output cuts it on the screen, it is printed whole
 * (prefix and all) once it ends (the piece shown before the cut stays in the log too). */
static int open_line = -1;

#define PROMPT_IDLE_US 50000

void console_set_source(int (*getc)(void)) { source = getc; }

/* Ends an unfinished guest line on the screen before something else is printed. */
static void close_open_line(void)
{
	if (open_line >= 0)
		printk_emit("\n", 1);
	open_line = -1;
}

void console_register_vm(struct vm *vm, bool (*rx_push)(void *uart, u8 byte), void *uart)
{
	if (nvms == MAX_VMS)
		return;
	printk_set_before(close_open_line);
	ports[nvms] = (struct console_port){ rx_push, uart };
	vms[nvms++] = vm;
}

static bool port_input(u32 i, u8 c)
{
	struct vm *vm = vms[i];
	spin_lock(&vm->dev_lock);
	bool taken = ports[i].rx_push(ports[i].uart, c);
	spin_unlock(&vm->dev_lock);
	return taken;
}

static int slot_of(struct vm *vm)
{
	for (u32 i = 0; i < nvms; i++)
		if (vms[i] == vm)
			return (int)i;
	return -1;
}

/* Prints VM i's line so far with its prefix; the buffer keeps it. */
static void show_line(int i)
{
	char prefix[40];
	close_open_line();
	int n = snprintf(prefix, sizeof prefix, "[%s] ", vms[i]->name);
	printk_emit(prefix, (size_t)n);
	printk_emit(line[i], line_len[i]);
}

/* Ends VM i's line: on the screen (printed now unless it is the open line), and in its
 * buffer. */
static void end_line(int i)
{
	if (open_line == i)
		open_line = -1;
	else
		show_line(i);
	printk_emit("\n", 1);
	line_len[i] = 0;
}

void console_guest_putc(void *vm, u8 c)
{
	int i = slot_of(vm);
	if (i < 0 || c == '\r')
		return;
	printk_lock();
	tails[i].buf[tails[i].total++ % CONSOLE_TAIL] = (char)c;
	last_output[i] = arch_time_now();
	struct vcpu *w = sched_current();
	writer[i] = w && w->vm == vm ? w : NULL; /* else not written from the VM's own exit */
	if (writer[i])
		writer_steal_ns[i] = sched_steal_ns(writer[i], last_output[i]);
	if (c == '\n') {
		end_line(i);
	} else {
		/* A full buffer: the line ends there, unless it is on the screen already (a long
		 * command typed at a prompt): then it goes on there, the buffer starting over. */
		if (line_len[i] == LINE_MAX && open_line == i)
			line_len[i] = 0;
		else if (line_len[i] == LINE_MAX)
			end_line(i);
		line[i][line_len[i]++] = (char)c;
		if (open_line == i)
			printk_emit((const char *)&c, 1);
	}
	printk_unlock();
}

void console_unregister_vm(struct vm *vm)
{
	int i = slot_of(vm);
	if (i < 0)
		return;
	printk_lock();
	if (line_len[i])
		end_line(i);
	printk_unlock();
	if (inq[i].dropped)
		printk("hv: VM '%s': %llu bytes of console input dropped (its UART was full)\n",
		       vm->name, (unsigned long long)inq[i].dropped);
	if (focus == (u32)i) /* hand the console to the next VM still running */
		for (u32 k = 1; k < nvms; k++)
			if (vms[(i + k) % nvms]->stop_reason == VM_RUNNING) {
				focus = (i + k) % nvms;
				break;
			}
}

size_t console_tail(const char *name, char *out, size_t max)
{
	size_t n = 0;
	printk_lock();
	for (u32 i = 0; i < nvms; i++) {
		if (strcmp(vms[i]->name, name))
			continue;
		const struct tail *t = &tails[i];
		u64 have = MIN(t->total, (u64)CONSOLE_TAIL), from = t->total - have;
		n = (size_t)MIN(have, (u64)max);
		from += have - n;
		/* From the first whole line when the oldest bytes are gone (and one follows). */
		for (u64 k = from; from > 0 && k + 1 < t->total; k++)
			if (t->buf[k % CONSOLE_TAIL] == '\n') {
				n -= (size_t)(k + 1 - from);
				from = k + 1;
				break;
			}
		for (size_t k = 0; k < n; k++)
			out[k] = t->buf[(from + k) % CONSOLE_TAIL];
		printk_unlock();
		return n;
	}
	printk_unlock();
	return (size_t)-1;
}

/* Shows the focused VM's unfinished line (a prompt) once it has been quiet a moment: of
 * its writer's own time, not counting its waits for a pCPU (a writer preempted mid-line
 * is not at a prompt). */
static void show_prompt(void)
{
	int f = (int)focus;
	if (!nvms || !line_len[f] || open_line == f) /* racy hints, checked again below */
		return;
	printk_lock();
	u64 now = arch_time_now();
	if (line_len[f] && open_line != f && now > last_output[f]) {
		u64 quiet_ns = (now - last_output[f]) * 1000 / (arch_time_hz / 1000000);
		if (writer[f])
			quiet_ns -= MIN(quiet_ns,
					sched_steal_ns(writer[f], now) - writer_steal_ns[f]);
		if (quiet_ns >= PROMPT_IDLE_US * 1000) {
			show_line(f);
			open_line = f;
		}
	}
	printk_unlock();
}

/* Moves queued input into VM i's UART while it takes it. */
static void drain(u32 i)
{
	struct input_queue *q = &inq[i];
	if (vms[i]->stop_reason != VM_RUNNING)
		q->len = 0;
	while (q->len && port_input(i, q->buf[q->head])) {
		q->head = (q->head + 1) % INPUT_QUEUE;
		q->len--;
	}
}

static void input_for(u32 i, u8 c)
{
	struct input_queue *q = &inq[i];
	if (vms[i]->stop_reason != VM_RUNNING || (!q->len && port_input(i, c)))
		return;
	if (q->len < INPUT_QUEUE) {
		q->buf[(q->head + q->len++) % INPUT_QUEUE] = c;
		return;
	}
	if (!q->dropped++)
		printk("hv: VM '%s' does not read its console: input it has no room for is "
		       "dropped (Ctrl-T switches)\n",
		       vms[i]->name);
}

void console_poll_input(void)
{
	show_prompt();
	for (u32 i = 0; i < nvms; i++)
		drain(i);
	for (int c; source && (c = source()) >= 0;) {
		if (!nvms)
			continue;
		if (c == CTRL_BACKSLASH) {
			for (u32 i = 0; i < nvms; i++)
				vm_dump(vms[i]);
			continue;
		}
		if (c == CTRL_T) {
			focus = (focus + 1) % nvms;
			printk("hv: console input now goes to VM '%s' (Ctrl-T switches)\n",
			       vms[focus]->name);
			continue;
		}
		input_for(focus, (u8)c);
	}
}

void console_focus(const char *name)
{
	for (u32 i = 0; i < nvms; i++)
		if (!strcmp(vms[i]->name, name))
			focus = i;
}
