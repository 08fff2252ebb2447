/* SPDX-License-Identifier: GPL-2.0-only */
#include "lib/lwip/lwip_assert.h"
#include "hv/printk.h"
#include "hv/on_exit.h"

/* Where a failed assertion goes back to: GCC's __builtin_setjmp buffer (5 words: frame,
 * resume address, stack pointer; the function that sets it treats every callee-saved
 * register as clobbered, so nothing else needs saving), valid while `guarded`. */
static void *escape[5];
static bool guarded;

/* noinline: __builtin_setjmp's frame must be this function's own. */
static __attribute__((noinline)) bool call_guarded(void (*fn)(void))
{
	if (__builtin_setjmp(escape))
		return false;
	fn();
	return true;
}

bool net_lwip_call(void (*fn)(void))
{
	guarded = true;
	bool ok = call_guarded(fn);
	guarded = false;
	return ok;
}

NORETURN void net_lwip_assert(const char *msg, const char *file, int line)
{
	printk("hv: lwIP assertion failed: %s (%s:%d)\n", msg, file, line);
	if (guarded)
		__builtin_longjmp(escape, 1);
	hv_exit();
}
