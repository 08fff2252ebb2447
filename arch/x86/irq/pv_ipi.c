/* SPDX-License-Identifier: GPL-2.0-only */
/* KVM_HC_SEND_IPI argument checks and bitmap expansion (see pv_ipi.h for the
 * semantics and where they come from). */
#include "arch/x86/irq/pv_ipi.h"
#include "guest_abi/kvm_para.h"
#include "hv/lib.h"

/* ICR fields (SDM Figure 11-12 / 11-28) */
#define ICR_VECTOR 0xffull
#define ICR_MODE(icr) (((icr) >> 8) & 7)
#define ICR_DEST_LOGICAL BIT(11)
#define ICR_SHORTHAND (3ull << 18)

#define ICR_DM_FIXED 0
#define ICR_DM_LOWEST 1
#define ICR_DM_NMI 4

static u32 count_bits(u64 x)
{
	u32 n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

/* Adds the vCPUs named by the set bits of `bits` (cluster bits wide), bit i naming
 * APIC ID base + i (base < nvcpus + 64, so base + i does not wrap). */
static void expand(struct pv_ipi_req *req, u64 bits, unsigned int cluster, u64 base, u32 nvcpus)
{
	unsigned int i;

	for (i = 0; i < cluster; i++) {
		if (!(bits & BIT(i)))
			continue;
		if (base + i >= nvcpus) {
			req->out_of_range++;
			continue;
		}
		req->targets[req->ntargets++] = (u32)(base + i);
	}
}

int pv_ipi_decode_mode(u64 a0, u64 a1, u64 a2, u64 a3, bool long_mode, u32 nvcpus,
		       struct pv_ipi_req *req)
{
	unsigned int cluster = long_mode ? 64 : 32;
	u8 vector;

	req->vector = 0;
	req->mode = PV_IPI_FIXED;
	req->ntargets = 0;
	req->out_of_range = 0;

	if (!long_mode) {
		/* KVM: the arguments of a hypercall from outside 64-bit mode are 32 bits. */
		a0 = (u32)a0;
		a1 = (u32)a1;
		a2 = (u32)a2;
		a3 = (u32)a3;
	}

	if (a3 & (ICR_DEST_LOGICAL | ICR_SHORTHAND))
		return -KVM_EINVAL;
	vector = a3 & ICR_VECTOR;
	switch (ICR_MODE(a3)) {
	case ICR_DM_FIXED:
	case ICR_DM_LOWEST:
		req->mode = PV_IPI_FIXED;
		req->vector = vector; /* below 16: no APIC accepts it (vlapic_accept) */
		break;
	case ICR_DM_NMI:
		req->mode = PV_IPI_NMI;
		break;
	default: /* SMI, INIT, SIPI, remote read, ExtINT: sent to no one */
		return 0;
	}

	/* IDs do not wrap, so from here on every named ID is >= nvcpus; count them
	 * without forming a2 + i, which could pass 2^64. */
	if (a2 >= nvcpus) {
		req->out_of_range = count_bits(a0) + count_bits(a1);
		return 0;
	}
	expand(req, a0, cluster, a2, nvcpus);
	expand(req, a1, cluster, a2 + cluster, nvcpus);
	return 0;
}

int pv_ipi_decode(u64 a0, u64 a1, u64 a2, u64 a3, u32 nvcpus, struct pv_ipi_req *req)
{
	return pv_ipi_decode_mode(a0, a1, a2, a3, true, nvcpus, req);
}
