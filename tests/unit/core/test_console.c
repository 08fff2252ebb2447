/* SPDX-License-Identifier: GPL-2.0-only */
/* The console multiplexer's input side (hv/console.c): whatever a guest does with its
 * receiver, the control keys get through and other VMs get their input. The host UART
 * is a scripted byte stream, each VM's receiver a small FIFO the test drains or not. */
#include "../../../hv/console.c"
#include "../../../hv/printk.c"
#include "../test.h"

u64 arch_time_hz = 1000000000; /* ticks are ns */
static u64 now_ns;
u64 arch_time_now(void) { return now_ns; }

/* The vCPU in whose exit a byte is written, and its steal time (the scheduler's). */
static struct vcpu *running;
static u64 steal_ns;
struct vcpu *sched_current(void) { return running; }
u64 sched_steal_ns(const struct vcpu *v, u64 now)
{
	(void)v;
	(void)now;
	return steal_ns;
}

static const u8 *host_in;
static size_t host_len;
static int host_getc(void) { return host_len ? (host_len--, *host_in++) : -1; }

static unsigned dumps;
void vm_dump(struct vm *vm)
{
	(void)vm;
	dumps++;
}

static char printed[4096];
static void sink_write(const char *s, size_t n)
{
	size_t l = strlen(printed);
	if (l + n < sizeof printed) {
		memcpy(printed + l, s, n);
		printed[l + n] = 0;
	}
}

/* A receiver of `room` bytes that its guest reads only when the test says so. */
struct rx {
	u8 got[8192];
	unsigned n, room;
};

static bool rx_push(void *uart, u8 byte)
{
	struct rx *r = uart;
	if (r->n >= r->room)
		return false;
	r->got[r->n++] = byte;
	return true;
}

static struct vm vm_a = { .name = "a" }, vm_b = { .name = "b" };
static struct rx rx_a, rx_b;

static void type(const char *s, size_t n)
{
	host_in = (const u8 *)s;
	host_len = n;
	console_poll_input();
}

/* VM a never reads (room 16 of a 16550's FIFO, as a stuck guest leaves it): Ctrl-\ and
 * Ctrl-T still work, b gets what is typed after Ctrl-T, and a's input beyond the queue
 * is dropped and counted. */
static void test_stuck_guest_does_not_lock_out(void)
{
	static char flood[3000];
	memset(flood, 'x', sizeof flood);
	rx_a.room = 16;
	rx_b.room = sizeof rx_b.got;
	type(flood, sizeof flood);
	CHECK_EQ(rx_a.n, 16);
	CHECK_EQ(inq[0].len, INPUT_QUEUE);
	CHECK_EQ(inq[0].dropped, sizeof flood - 16 - INPUT_QUEUE);
	CHECK(strstr(printed, "VM 'a' does not read its console") != NULL);
	type("\x1c", 1); /* Ctrl-\ */
	CHECK_EQ(dumps, 2);
	type("\x14hi", 3); /* Ctrl-T, then input for b */
	CHECK(strstr(printed, "console input now goes to VM 'b'") != NULL);
	CHECK_EQ(rx_b.n, 2);
	CHECK(rx_b.got[0] == 'h' && rx_b.got[1] == 'i');
	CHECK_EQ(rx_a.n, 16); /* nothing of b's went to a */
}

/* A guest that reads late gets its queued input, in order, before anything newer. */
static void test_queued_input_keeps_order(void)
{
	type("\x14", 1); /* back to a */
	rx_a.n = 0;	 /* a's guest read its 16 bytes */
	rx_a.room = sizeof rx_a.got;
	type("yz", 2);
	CHECK_EQ(inq[0].len, 0);
	CHECK_EQ(rx_a.n, INPUT_QUEUE + 2);
	CHECK(rx_a.got[INPUT_QUEUE - 1] == 'x');
	CHECK(rx_a.got[INPUT_QUEUE] == 'y' && rx_a.got[INPUT_QUEUE + 1] == 'z');
}

/* Input for a VM that has stopped is dropped, not queued. */
static void test_stopped_vm(void)
{
	vm_a.stop_reason = VM_POWEROFF;
	rx_a.room = 0;
	type("q", 1);
	CHECK_EQ(inq[0].len, 0);
	vm_a.stop_reason = VM_RUNNING;
}

static void put_text(struct vm *vm, const char *s)
{
	for (; *s; s++)
		console_guest_putc(vm, (u8)*s);
}

/* console_tail: the last bytes of a VM, from a line's start once older ones are gone. */
static void test_tail(void)
{
	static char out[CONSOLE_TAIL + 1];
	CHECK_EQ(console_tail("nosuch", out, sizeof out), (size_t)-1);
	put_text(&vm_b, "one\r\ntwo\n");
	CHECK_EQ(console_tail("b", out, sizeof out), 8);
	CHECK(!memcmp(out, "one\ntwo\n", 8));	/* CR dropped, as on the console */
	CHECK_EQ(console_tail("b", out, 6), 4); /* "o\ntwo\n" cut to its whole line */
	CHECK(!memcmp(out, "two\n", 4));
	for (int i = 0; i < 1000; i++)
		put_text(&vm_b, "0123456789abcdef\n"); /* 17000 bytes: the ring wrapped */
	size_t n = console_tail("b", out, sizeof out);
	CHECK(n > CONSOLE_TAIL - 17 && n <= CONSOLE_TAIL && n % 17 == 0);
	CHECK(!memcmp(out, "0123456789abcdef\n", 17));
	CHECK(!memcmp(out + n - 17, "0123456789abcdef\n", 17));
}

static void poll_after_ms(u64 ms)
{
	now_ns += ms * 1000000;
	type("", 0);
}

/* The focused VM's unfinished line (a prompt) is shown once its writer has been quiet
 * 50 ms of its own time, and goes on where it is when nothing else was printed. */
static void test_prompt(void)
{
	static struct vcpu v = { .vm = &vm_a };
	running = &v;
	printed[0] = 0;
	put_text(&vm_a, "# ");
	poll_after_ms(49);
	CHECK_EQ(strlen(printed), 0);
	poll_after_ms(1);
	CHECK(!strcmp(printed, "[a] # "));
	put_text(&vm_a, "ls\n");
	CHECK(!strcmp(printed, "[a] # ls\n"));
}

/* A line cut on the screen by other output is printed whole once it ends, so that the
 * log holds it in one piece; a prompt cut that way is shown again. */
static void test_cut_line_printed_whole(void)
{
	printed[0] = 0;
	put_text(&vm_a, "GUEST-READY cpus=2 online=");
	poll_after_ms(50);
	put_text(&vm_b, "other\n");
	printk("hv: message\n");
	put_text(&vm_a, "0-1\n");
	CHECK(!strcmp(printed, "[a] GUEST-READY cpus=2 online=\n[b] other\nhv: message\n"
			       "[a] GUEST-READY cpus=2 online=0-1\n"));
	printed[0] = 0;
	put_text(&vm_a, "# ");
	poll_after_ms(50);
	printk("hv: message\n");
	poll_after_ms(50);
	CHECK(!strcmp(printed, "[a] # \nhv: message\n[a] # "));
	put_text(&vm_a, "\n");
}

/* A writer preempted mid-line is not at a prompt: its waits for a pCPU do not count as
 * quiet time, so its line is not shown (and cut) before it ends. */
static void test_preempted_writer(void)
{
	printed[0] = 0;
	put_text(&vm_a, "GUEST-READY cpus=2 online=");
	steal_ns += 200000000; /* 200 ms preempted */
	poll_after_ms(200);
	CHECK_EQ(strlen(printed), 0);
	poll_after_ms(49);
	CHECK_EQ(strlen(printed), 0);
	poll_after_ms(1); /* 50 ms of its own time */
	CHECK(!strcmp(printed, "[a] GUEST-READY cpus=2 online="));
	put_text(&vm_a, "0-1\n");
}

/* A command longer than the line buffer typed at a prompt (the guest echoes it): it goes
 * on on the screen, not cut into lines; a VM's line that is not on the screen is. */
static void test_long_line_at_prompt(void)
{
	static char typed[LINE_MAX + 50];
	memset(typed, 'x', sizeof typed - 1);
	printed[0] = 0;
	put_text(&vm_a, "# ");
	poll_after_ms(50);
	put_text(&vm_a, typed);
	CHECK_EQ(strlen(printed), 4 + 2 + sizeof typed - 1);
	CHECK(!strchr(printed, '\n'));
	put_text(&vm_a, "\n");
	printed[0] = 0;
	put_text(&vm_b, typed); /* not shown: cut at the buffer's size */
	CHECK_EQ(strlen(printed), 4 + LINE_MAX + 1);
	put_text(&vm_b, "\n");
}

/* A VM that stops with an unfinished line: the line is printed and ended. */
static void test_unregister_ends_line(void)
{
	printed[0] = 0;
	put_text(&vm_b, "partial");
	console_unregister_vm(&vm_b);
	CHECK(!strcmp(printed, "[b] partial\n"));
}

/* A message longer than printk's buffer ends with " [cut]" and its newline: the next
 * message starts a line of its own (the power-off report's line that once ran into the
 * next one and lost its last counter). */
static void test_printk_cut(void)
{
	char long_text[PRINTK_MAX + 200];
	memset(long_text, 'x', sizeof long_text - 1);
	long_text[sizeof long_text - 1] = 0;
	printed[0] = 0;
	printk("%s\n", long_text);
	printk("next\n");
	const char *nl = strchr(printed, '\n');
	CHECK(nl && nl - printed == PRINTK_MAX - 1 && !strncmp(nl - 6, " [cut]", 6));
	CHECK(nl && !strcmp(nl + 1, "next\n"));
	printed[0] = 0;
	/* PRINTK_MAX - 1 x and the newline: whole */
	printk("%s\n", long_text + sizeof long_text - PRINTK_MAX);
	CHECK(strlen(printed) == PRINTK_MAX && printed[PRINTK_MAX - 2] == 'x' &&
	      printed[PRINTK_MAX - 1] == '\n');
}

int main(void)
{
	printk_set_sink(sink_write);
	console_set_source(host_getc);
	console_register_vm(&vm_a, rx_push, &rx_a);
	console_register_vm(&vm_b, rx_push, &rx_b);
	test_stuck_guest_does_not_lock_out();
	test_queued_input_keeps_order();
	test_stopped_vm();
	test_tail();
	test_prompt();
	test_cut_line_printed_whole();
	test_preempted_writer();
	test_long_line_at_prompt();
	test_unregister_ends_line();
	test_printk_cut();
	return test_summary();
}
