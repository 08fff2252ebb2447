/* SPDX-License-Identifier: GPL-2.0-only */
/* The CPU's random numbers (hv/arch.h): RNDR (FEAT_RNG, ID_AA64ISAR0_EL1.RNDR = 1). It
 * may have none to give for a moment (then NZCV = 0b0100 and the value 0, as the Arm ARM
 * describes RNDR): tried 10 times. */
#include "hv/arch.h"
#include "arch/cpu.h"

static bool has_rndr(void) { return (read_sysreg(id_aa64isar0_el1) >> 60 & 0xF) >= 1; }

const char *arch_random_name(void) { return has_rndr() ? "RNDR" : NULL; }

bool arch_random_u64(u64 *out)
{
	if (!has_rndr())
		return false;
	for (int i = 0; i < 10; i++) {
		u64 ne;
		/* RNDR is s3_3_c2_c4_0: the name needs an assembler that knows FEAT_RNG. */
		__asm__ volatile("mrs %0, s3_3_c2_c4_0\n\tcset %1, ne"
				 : "=r"(*out), "=r"(ne)::"cc");
		if (ne)
			return true;
	}
	return false;
}
