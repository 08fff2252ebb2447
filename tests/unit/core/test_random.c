/* SPDX-License-Identifier: GPL-2.0-only */
/* The boot secret and what is made of it (hv/random.c, hv/siphash.c) and TCP's initial
 * sequence numbers (lib/lwip/tcp_isn.c): SipHash-2-4 against its paper's vectors, the
 * secret from each source the machine offers (a CPU instruction that gives up, the
 * firmware's protocol, none: the warning), and RFC 6528's ISN: a 4 us clock plus a hash
 * of the connection's ends under the secret. */
#include "../console_capture.h"
#include "../../../hv/random.c"
#include "../../../hv/siphash.c"
#include "../../../lib/lwip/tcp_isn.c"
#include "../test.h"

u64 arch_time_hz = 1000000000; /* ticks are ns */
static u64 now;
u64 arch_time_now(void) { return now += 1000; }

static const char *cpu_name;
static int cpu_gives; /* numbers the CPU's instruction gives before it fails */
static u64 cpu_next = 0x1111;
const char *arch_random_name(void) { return cpu_name; }
bool arch_random_u64(u64 *out)
{
	if (!cpu_name || cpu_gives == 0)
		return false;
	cpu_gives--;
	*out = cpu_next++ * 0x9E3779B97F4A7C15ull;
	return true;
}

static int firmware_calls;
static bool firmware_rng(void *buf, size_t len)
{
	firmware_calls++;
	memset(buf, 0x5A + firmware_calls, len);
	return true;
}
static bool no_firmware_rng(void *buf, size_t len)
{
	(void)buf, (void)len;
	return false;
}

/* The paper's appendix A: key 00..0f, message 00..0e; and the reference implementation's
 * first vectors (the empty message, one byte), and 8 bytes: the length word alone. */
static void test_siphash_vectors(void)
{
	const u64 key[2] = { 0x0706050403020100ull, 0x0F0E0D0C0B0A0908ull };
	u8 msg[64];
	for (int i = 0; i < 64; i++)
		msg[i] = (u8)i;
	CHECK_EQ(siphash24(key, msg, 15), 0xA129CA6149BE45E5ull);
	CHECK_EQ(siphash24(key, msg, 0), 0x726FDB47DD0E0E31ull);
	CHECK_EQ(siphash24(key, msg, 1), 0x74F839C593DC67FDull);
	CHECK_EQ(siphash24(key, msg, 8), 0x93F5F5799A932462ull);
}

static void reset(void)
{
	memset(secret, 0, sizeof secret);
	sources[0] = 0;
	counter = 0;
	console[0] = 0;
}

static void test_sources(void)
{
	/* The CPU's and the firmware's, both mixed in, both said. */
	reset();
	cpu_name = "RDSEED", cpu_gives = 4;
	random_init(firmware_rng);
	CHECK_STR(random_sources(), "RDSEED and the firmware's RNG protocol");
	CHECK(strstr(console, "hv: random numbers (TCP sequence numbers, DHCP, ports) from "
			      "RDSEED and the firmware's RNG protocol\n"));
	u64 both[4];
	memcpy(both, secret, sizeof both);

	/* A CPU instruction that gives up partway counts for nothing. */
	reset();
	cpu_name = "RDRAND", cpu_gives = 2;
	random_init(firmware_rng);
	CHECK_STR(random_sources(), "the firmware's RNG protocol");
	CHECK(memcmp(both, secret, sizeof both));

	/* Neither: a warning, and still a secret of the time base (not 0). */
	reset();
	cpu_name = NULL;
	random_init(no_firmware_rng);
	CHECK(random_sources() == NULL);
	CHECK(strstr(console, "hv: no random source"));
	CHECK(secret[0] && secret[2]);
	reset();
	random_init(NULL);
	CHECK(random_sources() == NULL);
}

/* random_u64: no two alike over many; random_hash: a function of the message and the
 * secret alone. */
static void test_numbers(void)
{
	reset();
	cpu_name = "RNDR", cpu_gives = 4;
	random_init(NULL);
	u64 seen[256];
	bool distinct = true;
	for (int i = 0; i < 256; i++) {
		seen[i] = random_u64();
		for (int k = 0; k < i; k++)
			distinct &= seen[k] != seen[i];
	}
	CHECK(distinct);
	CHECK_EQ(random_hash("abc", 3), random_hash("abc", 3));
	CHECK(random_hash("abc", 3) != random_hash("abd", 3));
	u64 h = random_hash("abc", 3);
	CHECK(h != siphash24(secret, "abc", 3)); /* its own key, not random_u64's */
	reset();
	cpu_name = "RNDR", cpu_gives = 4;
	random_init(NULL);
	CHECK(random_hash("abc", 3) != h); /* another boot's secret */
}

/* RFC 6528: the same ends a moment later: the 4 us clock's advance exactly; other ends:
 * unrelated; another secret: unrelated. */
static void test_tcp_isn(void)
{
	reset();
	cpu_name = "RDSEED", cpu_gives = 4;
	random_init(NULL);
	const u32 local = 0x0F02000A, remote = 0x0202000A; /* 10.0.2.15, 10.0.2.2 */
	now = 4000000; /* 4 ms: 1000 ticks of 4 us (each call adds 1 us) */
	u32 a = tcp_isn(local, 8080, remote, 40000);
	now = 4000000 + 100000000; /* 100 ms later: 25,000 ticks */
	u32 b = tcp_isn(local, 8080, remote, 40000);
	CHECK_EQ(b - a, 25000);
	now = 4000000;
	u32 c = tcp_isn(local, 8080, remote, 40001);
	now = 4000000;
	u32 d = tcp_isn(local, 8081, remote, 40000);
	now = 4000000;
	u32 e = tcp_isn(local, 8080, 0x0302000A, 40000);
	CHECK(c - a > 1000000 && a - c > 1000000); /* not the clock's neighbours */
	CHECK(d != a && e != a && d != e);
	reset();
	cpu_name = "RDSEED", cpu_gives = 4;
	random_init(NULL);
	now = 4000000;
	CHECK(tcp_isn(local, 8080, remote, 40000) != a);
}

int main(void)
{
	test_siphash_vectors();
	test_sources();
	test_numbers();
	test_tcp_isn();
	return test_summary();
}
