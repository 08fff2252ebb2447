/* SPDX-License-Identifier: GPL-2.0-only */
/* What lwIP (NO_SYS) asks of its platform: a millisecond clock (sys_now, from the
 * hypervisor's time base), random numbers, and the one C library function it calls that
 * hv/lib.h lacks (atoi, in netif_find); and its start (lwip_port.h). Its assertions:
 * lwip_assert.c. */
#include "lib/lwip/lwip_port.h"
#include "lwip/init.h"
#include "lwip/sys.h"
#include "hv/arch.h"
#include "hv/random.h"

void net_lwip_init(void)
{
	static bool started;
	if (!started)
		lwip_init();
	started = true;
}

u32_t sys_now(void) { return (u32_t)(arch_time_now() / (arch_time_hz / 1000)); }

/* DHCP transaction IDs, the first ephemeral ports: unguessable by another host on the
 * network (hv/random.h). */
u32 net_lwip_rand(void) { return (u32)random_u64(); }

int atoi(const char *s)
{
	int v = 0;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return v;
}
