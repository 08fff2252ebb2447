/* SPDX-License-Identifier: GPL-2.0-only */
/* The PV IPI hypercall decoder (arch/x86/irq/pv_ipi.c) on a guest's arguments. Input: the
 * VM's vCPU count (1 byte, 1..256), the mode (1 byte: bit 0 set: 64-bit caller), then
 * a0, a1, a2, a3 (8 bytes each). Checked: the result is 0 or -KVM_EINVAL (with no
 * targets); a delivery mode other than fixed, lowest priority and NMI sends to no one;
 * otherwise the targets exist, ascend, are at most 128, and are exactly the vCPUs the
 * bitmap's set bits name (with the 32-bit clusters and truncated arguments of a caller
 * outside 64-bit mode). */
#include "../../arch/x86/irq/pv_ipi.c"
#include "fuzz.h"

/* Whether the bitmap (a0, a1 from a2) names APIC ID id. */
static bool named(u64 a0, u64 a1, u64 a2, bool long_mode, u32 id)
{
	u64 width = long_mode ? 64 : 32;
	if (id < a2)
		return false;
	u64 bit = id - a2;
	if (bit < width)
		return a0 >> bit & 1;
	if (bit < 2 * width)
		return a1 >> (bit - width) & 1;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	static struct pv_ipi_req req;
	u32 nvcpus = (u32)take_u8(&in) + 1;
	bool long_mode = take_u8(&in) & 1;
	u64 a0 = take_u64(&in), a1 = take_u64(&in), a2 = take_u64(&in), a3 = take_u64(&in);

	memset(&req, 0xa5, sizeof(req));
	int rc = pv_ipi_decode_mode(a0, a1, a2, a3, long_mode, nvcpus, &req);
	if (rc) {
		FUZZ_CHECK(rc == -KVM_EINVAL && req.ntargets == 0);
		return 0;
	}
	FUZZ_CHECK(req.mode == PV_IPI_FIXED || req.mode == PV_IPI_NMI);
	FUZZ_CHECK(req.ntargets <= PV_IPI_MAX_TARGETS);
	if (!long_mode) {
		a0 = (u32)a0;
		a1 = (u32)a1;
		a2 = (u32)a2;
		a3 = (u32)a3;
	}
	u32 mode = (a3 >> 8) & 7;
	if (mode != ICR_DM_FIXED && mode != ICR_DM_LOWEST && mode != ICR_DM_NMI) {
		FUZZ_CHECK(req.ntargets == 0);
		return 0;
	}
	for (u32 i = 0; i < req.ntargets; i++) {
		FUZZ_CHECK(req.targets[i] < nvcpus);
		FUZZ_CHECK(i == 0 || req.targets[i] > req.targets[i - 1]);
		FUZZ_CHECK(named(a0, a1, a2, long_mode, req.targets[i]));
	}
	u32 expect = 0;
	for (u32 id = 0; id < nvcpus; id++)
		expect += named(a0, a1, a2, long_mode, id);
	FUZZ_CHECK(req.ntargets == expect); /* every named vCPU is a target */
	if (long_mode)
		FUZZ_CHECK(pv_ipi_decode(a0, a1, a2, a3, nvcpus, &req) == 0);
	return 0;
}
