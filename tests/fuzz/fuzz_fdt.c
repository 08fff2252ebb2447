/* SPDX-License-Identifier: GPL-2.0-only */
/* Devicetree discovery (drivers/fdt_platform.c, through libfdt) on a blob the firmware
 * hands over: the input is the blob. The reader may read its first 8 bytes (magic,
 * totalsize) and then nothing past totalsize, so the harness gives it a heap copy of
 * exactly totalsize bytes, or of the whole input with totalsize set to its length when
 * the input is shorter than the header says. Checked: an accepted tree gives 1..256
 * CPUs with distinct MPIDRs, a GIC distributor, a known GIC version and at most 8
 * redistributor ranges; a refusal says why. */
#include "../../drivers/fdt_platform.c"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct acpi_arm_platform plat;
	const char *why = NULL;

	bool fits = size >= 8 && be32(data + 4) <= size;
	size_t len = fits ? MAX(be32(data + 4), 8u) : MAX(size, 8u);
	u8 *blob = calloc(1, len); /* malloc's alignment: 16 bytes */
	memcpy(blob, data, MIN(len, size));
	if (!fits)
		fdt_set_totalsize(blob, (u32)len);

	if (fdt_arm_platform(blob, &plat, &why) == 0) {
		FUZZ_CHECK(why == NULL);
		FUZZ_CHECK(plat.ncpus >= 1 && plat.ncpus <= ACPI_ARM_MAX_CPUS);
		for (u32 i = 0; i < plat.ncpus; i++)
			for (u32 j = 0; j < i; j++)
				FUZZ_CHECK(plat.cpus[i].mpidr != plat.cpus[j].mpidr);
		FUZZ_CHECK(plat.gic_version == 2 || plat.gic_version == 3);
		FUZZ_CHECK(plat.ngicr <= ACPI_ARM_MAX_GICR);
		FUZZ_CHECK(plat.gic_version == 2 || plat.ngicr >= 1);
	} else {
		FUZZ_CHECK(why && *why);
	}
	free(blob);
	return 0;
}
