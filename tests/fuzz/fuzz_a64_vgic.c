/* SPDX-License-Identifier: GPL-2.0-only */
/* The virtual GIC (arch/arm64/vgic.c, vgic_mmio.c), v2 and v3, driven as guests and
 * devices drive it. Input: the version (first byte: even 2, odd 3), the vCPU count
 * (second byte: 1..8 for v2, 1..VGIC_MAX_VCPUS for v3), then operations, each an opcode
 * byte and its arguments (a vCPU byte names vCPU (byte & 0x7f) % count):
 *   0 GICD access: vCPU, offset (2 bytes), size/direction byte (bits 0-1: 1, 2, 4 or 8
 *     bytes; bit 2: write), and for a write the value (8 bytes)
 *   1 GICR access (v3): offset (4 bytes, below the vCPUs' frames and one past), size and
 *     direction, value as above
 *   2 device line: vCPU, INTID (0..255), level (low bit of the vCPU byte's bit 7)
 *   3 edge injection: vCPU, INTID
 *   4 ICC_SGI1R_EL1 write (v3): vCPU, value (8 bytes)
 *   5 guest entry: vCPU, LR count (1..16): vgic_sync of what it had in flight, then
 *     vgic_flush
 *   6 the guest works on an LR in flight: vCPU, LR index, action (0 acknowledge, 1
 *     deactivate, 2 both)
 *   7 guest exit: vCPU (vgic_sync)
 *   other: vgic_vcpu_has_pending(vCPU)
 * Checked: registers that are not there read as 0; kicks name existing vCPUs; an SGI
 * write targets no more than the VM's vCPUs; a flush fills at most the LRs given, with
 * valid INTIDs and states, no INTID twice in one vCPU's LRs, no SPI in flight on two
 * vCPUs at once, and GICv2 SGI sources that exist. */
#include "../../arch/arm64/vgic.c"
#include "../../arch/arm64/vgic_mmio.c"
#include "fuzz.h"

static struct vgic G;
static struct vgic_cpu CPUS[VGIC_MAX_VCPUS];

struct inflight {
	struct vgic_lr lr[VGIC_MAX_LRS];
	u32 n;
	bool entered;
};
static struct inflight cpu[VGIC_MAX_VCPUS];

static void kick(void *ctx, u32 vcpu)
{
	(void)ctx;
	FUZZ_CHECK(vcpu < G.nvcpus);
}

static void access(bool redist, u32 vcpu, u64 off, u8 how, struct fuzz_in *in)
{
	static const unsigned sizes[4] = { 1, 2, 4, 8 };
	unsigned size = sizes[how & 3];
	bool write = how & 4;
	u64 v = write ? take_u64(in) : 0x5a5a5a5a5a5a5a5aull;
	bool ok = redist ? vgic_redist_access(&G, off, size, write, &v)
			 : vgic_dist_access(&G, vcpu, off, size, write, &v);
	if (!write) {
		FUZZ_CHECK(ok || v == 0);
		FUZZ_CHECK(size == 8 || v >> (8 * size) == 0);
	}
}

/* eois: EOIs of interrupts in no LR (EOIcount), which end active ones waiting outside. */
static void exit_vcpu(u32 v, u32 eois)
{
	if (cpu[v].entered)
		vgic_sync(&G, v, cpu[v].lr, cpu[v].n, eois);
	cpu[v].entered = false;
	cpu[v].n = 0;
}

static void check_lrs(u32 v)
{
	const struct inflight *c = &cpu[v];
	for (u32 i = 0; i < c->n; i++) {
		const struct vgic_lr *lr = &c->lr[i];
		FUZZ_CHECK(lr->intid < VGIC_NR_IRQS);
		FUZZ_CHECK(lr->state && !(lr->state & ~(VGIC_LR_PENDING | VGIC_LR_ACTIVE)));
		if (G.version == 2 && lr->intid < VGIC_NR_SGIS)
			FUZZ_CHECK(lr->source < G.nvcpus);
		for (u32 j = 0; j < i; j++)
			FUZZ_CHECK(c->lr[j].intid != lr->intid);
		if (lr->intid < VGIC_NR_PRIVATE)
			continue;
		for (u32 o = 0; o < G.nvcpus; o++)
			for (u32 j = 0; o != v && j < cpu[o].n; j++)
				FUZZ_CHECK(cpu[o].lr[j].intid != lr->intid);
	}
}

static void enter_vcpu(u32 v, u32 nlrs, bool evict_active)
{
	u32 maint;

	exit_vcpu(v, 0);
	cpu[v].n = vgic_flush(&G, v, cpu[v].lr, nlrs, evict_active, &maint);
	FUZZ_CHECK(!(maint & ~(VGIC_MAINT_NPIE | VGIC_MAINT_ACTIVE_OUT)));
	cpu[v].entered = true;
	FUZZ_CHECK(cpu[v].n <= nlrs);
	check_lrs(v);
}

/* What a guest does to an LR: acknowledge (pending -> active), deactivate. */
static void guest_lr(u32 v, u8 idx, u8 action)
{
	struct inflight *c = &cpu[v];
	if (!c->n)
		return;
	struct vgic_lr *lr = &c->lr[idx % c->n];
	if ((action % 3 == 0 || action % 3 == 2) && lr->state == VGIC_LR_PENDING)
		lr->state = VGIC_LR_ACTIVE;
	if (action % 3 >= 1 && lr->state == VGIC_LR_ACTIVE)
		lr->state = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	int version = take_u8(&in) & 1 ? 3 : 2;
	u32 n = take_u8(&in) % (version == 3 ? VGIC_MAX_VCPUS : VGIC_V2_MAX_VCPUS) + 1;

	FUZZ_CHECK(vgic_init(&G, version, n, CPUS, kick, NULL));
	memset(cpu, 0, n * sizeof(cpu[0]));
	while (in.n) {
		u8 op = take_u8(&in);
		u8 a = take_u8(&in);
		u32 v = (a & 0x7f) % n;
		switch (op % 9) {
		case 0: {
			u64 off = take_u16(&in);
			access(false, v, off, take_u8(&in), &in);
			break;
		}
		case 1: {
			u64 off = take_u32(&in) % ((u64)(n + 1) * VGIC_REDIST_SIZE);
			access(true, 0, off, take_u8(&in), &in);
			break;
		}
		case 2:
			vgic_set_level(&G, v, take_u8(&in), a >> 7);
			break;
		case 3:
			vgic_inject_edge(&G, v, take_u8(&in));
			break;
		case 4:
			FUZZ_CHECK(vgic_v3_send_sgi(&G, v, take_u64(&in)) <= n);
			break;
		case 5:
			enter_vcpu(v, take_u8(&in) % VGIC_MAX_LRS + 1, a >> 7);
			break;
		case 6: {
			u8 idx = take_u8(&in);
			guest_lr(v, idx, take_u8(&in));
			break;
		}
		case 7:
			exit_vcpu(v, a >> 7 ? take_u8(&in) % 4 : 0);
			break;
		default:
			vgic_vcpu_has_pending(&G, v);
		}
	}
	return 0;
}
