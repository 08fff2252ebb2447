/* SPDX-License-Identifier: GPL-2.0-only */
/* The CPU's random numbers (hv/arch.h): RDSEED where the CPU has it (CPUID.(7,0):EBX[18],
 * the entropy source itself), else RDRAND (CPUID.1:ECX[30], its generator). Either may
 * have none to give for a moment (CF = 0): RDRAND is tried 10 times, as Intel's DRNG
 * guide advises, RDSEED 100 times with a PAUSE between (it refills more slowly). */
#include "hv/arch.h"
#include "arch/cpu.h"

static bool has_rdseed(void)
{
	u32 r[4];
	cpu_cpuid(0, 0, r);
	if (r[0] < 7)
		return false;
	cpu_cpuid(7, 0, r);
	return r[1] & BIT(18);
}

static bool has_rdrand(void)
{
	u32 r[4];
	cpu_cpuid(1, 0, r);
	return r[2] & BIT(30);
}

const char *arch_random_name(void)
{
	return has_rdseed() ? "RDSEED" : has_rdrand() ? "RDRAND" : NULL;
}

bool arch_random_u64(u64 *out)
{
	bool seed = has_rdseed(), ok = false;
	if (!seed && !has_rdrand())
		return false;
	for (int i = 0; i < (seed ? 100 : 10) && !ok; i++) {
		if (seed)
			__asm__ volatile("rdseed %0" : "=r"(*out), "=@ccc"(ok));
		else
			__asm__ volatile("rdrand %0" : "=r"(*out), "=@ccc"(ok));
		if (!ok)
			cpu_relax();
	}
	return ok;
}
