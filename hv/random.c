/* SPDX-License-Identifier: GPL-2.0-only */
/* The boot secret and what is made of it: see random.h. */
#include "hv/random.h"
#include "hv/arch.h"
#include "hv/lib.h"
#include "hv/printk.h"
#include "hv/siphash.h"

/* [0..1]: random_u64's key, [2..3]: random_hash's. */
static u64 secret[4];
static u64 counter;
static char sources[64];

/* Each source is XORed in: the secret is as good as the best of them. */
static void mix(const u64 *v)
{
	for (int i = 0; i < 4; i++)
		secret[i] ^= v[i];
}

static void add_source(const char *name)
{
	size_t n = strlen(sources);
	snprintf(sources + n, sizeof sources - n, "%s%s", n ? " and " : "", name);
}

void random_init(bool (*firmware)(void *buf, size_t len))
{
	u64 v[4];
	const char *cpu = arch_random_name();
	int i = 0;
	while (cpu && i < 4 && arch_random_u64(&v[i]))
		i++;
	if (cpu && i == 4) {
		mix(v);
		add_source(cpu);
	}
	if (firmware && firmware(v, sizeof v)) {
		mix(v);
		add_source("the firmware's RNG protocol");
	}
	/* The time base at boot, always: it differs from boot to boot, but not by much. */
	for (i = 0; i < 4; i++)
		v[i] = arch_time_now();
	mix(v);
	if (sources[0])
		printk("hv: random numbers (TCP sequence numbers, DHCP, ports) from %s\n", sources);
	else
		printk("hv: no random source (the CPU has no random instruction, the "
		       "firmware no RNG protocol): TCP sequence numbers and DHCP transaction IDs "
		       "can be guessed from the boot time\n");
}

const char *random_sources(void) { return sources[0] ? sources : NULL; }

u64 random_u64(void)
{
	u64 n = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
	return siphash24(secret, &n, sizeof n);
}

u64 random_hash(const void *msg, size_t len) { return siphash24(secret + 2, msg, len); }
