/* SPDX-License-Identifier: GPL-2.0-only */
/* lwIP's assertions (lib/lwip/lwip_assert.c): one that fails inside net_lwip_call ends
 * that call (false, the message printed) and returns to its caller from however deep it
 * was, with the caller's state intact; one outside it stops the hypervisor (hv_exit). */
#include <setjmp.h>
#include "console_capture.h"
#include "../../lib/lwip/lwip_assert.c"
#include "test.h"

static jmp_buf exited;
static int exits;
void hv_exit(void)
{
	exits++;
	longjmp(exited, 1);
}

static int reached, after;

static void fine(void) { reached++; }

/* Fails the assertion depth calls down, as lwIP's code would. */
static void __attribute__((noinline)) deep(volatile int depth)
{
	if (depth > 0)
		deep(depth - 1);
	if (depth == 0)
		net_lwip_assert("pbuf_free: p->ref > 0", "core/pbuf.c", 753);
	after++; /* never */
}

static void fails_deep(void)
{
	reached++;
	deep(20);
	after++; /* never */
}

static void test_caught(void)
{
	console[0] = 0;
	reached = after = 0;
	volatile long keep = 0x1234567890abcdefL; /* the caller's state survives */
	CHECK(net_lwip_call(fine));
	CHECK_EQ(reached, 1);
	CHECK(!net_lwip_call(fails_deep));
	CHECK_EQ(reached, 2);
	CHECK_EQ(after, 0);
	CHECK_EQ(keep, 0x1234567890abcdefL);
	CHECK_STR(console, "hv: lwIP assertion failed: pbuf_free: p->ref > 0 (core/pbuf.c:753)\n");
	CHECK_EQ(exits, 0);
	/* a later call is guarded again, and one that returns is true */
	CHECK(!net_lwip_call(fails_deep));
	CHECK(net_lwip_call(fine));
	CHECK_EQ(reached, 4);
	CHECK_EQ(exits, 0);
}

/* Outside a guarded call (the network boot): the hypervisor stops. */
static void test_unguarded(void)
{
	console[0] = 0;
	if (!setjmp(exited))
		net_lwip_assert("bad", "core/tcp.c", 1);
	CHECK_EQ(exits, 1);
	CHECK_STR(console, "hv: lwIP assertion failed: bad (core/tcp.c:1)\n");
}

int main(void)
{
	test_caught();
	test_unguarded();
	return test_summary();
}
