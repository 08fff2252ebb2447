/* SPDX-License-Identifier: GPL-2.0-only */
/* The vGIC (arch/arm64/vgic.c) on the racing machine of race.h: senders write
 * ICC_SGI1R_EL1 (vgic_v3_send_sgi), each its own SGI; the target enters as
 * arch_vcpu_run does (vgic_flush before guest mode, vgic_sync after it when list
 * registers were used), and its guest acknowledges and deactivates what its list
 * registers hold (they read back as 0). With the vGIC's gen bumped after the kick
 * instead of before it, the first run loses its first SGI every time (the target, sent
 * round by the IPI, read the old gen and entered with nothing), as a GICv3 guest did in
 * 3 of 34 boots. */
#include "../../../hv/sched.c"
#include "../../../arch/arm64/vgic.c"
#include "../race.h"

static struct vcpu vcpus[3];
static struct vgic G;
static struct vgic_cpu CPUS[VGIC_MAX_VCPUS];
static struct vgic_lr lrs[4];
static u32 nlrs;

static void kick(void *ctx, u32 id)
{
	(void)ctx;
	vcpu_kick(&vcpus[id]);
}

static void send(u32 sender, u32 intid)
{
	vgic_v3_send_sgi(&G, sender, (u64)intid << 24 | BIT(TARGET)); /* Aff0 1: vCPU 1 */
}

static u32 enter(u32 *irqs, u32 max)
{
	u32 maint;
	u32 n = 0;

	nlrs = vgic_flush(&G, TARGET, lrs, ARRAY_SIZE(lrs), true, &maint);
	for (u32 i = 0; i < nlrs; i++) {
		if ((lrs[i].state & VGIC_LR_PENDING) && n < max)
			irqs[n++] = lrs[i].intid;
		lrs[i].state = 0; /* acknowledged and deactivated */
	}
	return n;
}

static void handled(u32 intid) { (void)intid; }
static bool window(void) { return false; }

static void exit_guest(void)
{
	if (nlrs) /* as vgic_hw_sync: no list register used, nothing to fold back */
		vgic_sync(&G, TARGET, lrs, nlrs, 0);
}

int main(void)
{
	static const struct race_ops ops = { send,	 enter, handled, window,
					     exit_guest, "SGI", NULL,	 NULL };
	struct sender senders[NSENDERS] = { { .vcpu = 0, .irq = 1 }, { .vcpu = 2, .irq = 5 } };
	struct vcpu *v[3] = { &vcpus[0], &vcpus[1], &vcpus[2] };

	CHECK(vgic_init(&G, 3, 3, CPUS, kick, NULL));
	G.ctlr = BIT(1); /* GICD_CTLR.EnableGrp1 */
	for (u32 i = 0; i < NSENDERS; i++)
		G.cpu[TARGET].priv[senders[i].irq].enabled = true;
	race_main(&ops, v, senders);
	return test_summary();
}
