/* SPDX-License-Identifier: GPL-2.0-only */
/* What lwIP (NO_SYS) asks of its platform: a millisecond clock (sys_now, from the
 * hypervisor's time base), random numbers, and the one C library function it calls that
 * hv/lib.h lacks (atoi, in netif_find); and its start (lwip_port.h). Its assertions:
 * lwip_assert.c. */
#include "lib/lwip/lwip_port.h"
#include "lwip/init.h"
#include "lwip/sys.h"
#include "hv/arch.h"

void net_lwip_init(void)
{
	static bool started;
	if (!started)
		lwip_init();
	started = true;
}

u32_t sys_now(void) { return (u32_t)(arch_time_now() / (arch_time_hz / 1000)); }

/* DHCP transaction IDs and the first ephemeral UDP port: they need to differ between
 * boots, not to be secret; the time base's low bits do (xorshift to spread them). */
u32 net_lwip_rand(void)
{
	static u32 x;
	x ^= (u32)arch_time_now();
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x;
}

int atoi(const char *s)
{
	int v = 0;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return v;
}
