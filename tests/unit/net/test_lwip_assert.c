/* SPDX-License-Identifier: GPL-2.0-only */
/* lwIP's assertions (lib/lwip/lwip_assert.c): one that fails inside net_lwip_call ends
 * that call (false, the message printed) and returns to its caller from however deep it
 * was, with the caller's state intact; one outside it stops the hypervisor (hv_exit). */
#include <setjmp.h>
#include "../console_capture.h"
#include "../../../lib/lwip/lwip_assert.c"
#include "../test.h"

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

/* A caller with values live in callee-saved registers across the failed call (noinline,
 * and enough of them that the compiler cannot keep them all in memory): they must come
 * back as they were. */
static __attribute__((noinline)) u64 caller_state(u64 seed)
{
	u64 a = seed * 3, b = seed ^ 0x5555, c = seed + 7, d = seed << 3, e = seed * seed,
	    f = ~seed;
	bool ok = net_lwip_call(fails_deep);
	return (ok ? 1 : 0) + a + 2 * b + 3 * c + 5 * d + 7 * e + 11 * f;
}

static void test_caught(void)
{
	console[0] = 0;
	reached = after = 0;
	CHECK(net_lwip_call(fine));
	CHECK_EQ(reached, 1);
	CHECK(!net_lwip_call(fails_deep));
	CHECK_EQ(reached, 2);
	CHECK_EQ(after, 0);
	CHECK_STR(console, "hv: lwIP assertion failed: pbuf_free: p->ref > 0 (core/pbuf.c:753)\n");
	CHECK_EQ(exits, 0);
	u64 s = 0x1234567890abcdefull; /* the caller's registers survive */
	CHECK_EQ(caller_state(s),
		 s * 3 + 2 * (s ^ 0x5555) + 3 * (s + 7) + 5 * (s << 3) + 7 * (s * s) + 11 * ~s);
	CHECK_EQ(reached, 3);
	/* a later call is guarded again, and one that returns is true */
	CHECK(!net_lwip_call(fails_deep));
	CHECK(net_lwip_call(fine));
	CHECK_EQ(reached, 5);
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
