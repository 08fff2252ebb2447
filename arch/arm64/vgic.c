/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual GIC: interrupt state, injection, SGIs, and the list-register flush/sync
 * (see vgic.h for the model). The register models are in vgic_mmio.c. */
#include "arch/arm64/vgic.h"
#include "arch/arm64/vcpu_mpidr.h"
#include "hv/lib.h"

bool vgic_init(struct vgic *g, int version, u32 nvcpus, struct vgic_cpu *cpus,
	       void (*kick)(void *ctx, u32 vcpu), void *ctx)
{
	u32 max = version == 2 ? VGIC_V2_MAX_VCPUS : VGIC_MAX_VCPUS;
	u32 v, i;

	if ((version != 2 && version != 3) || !nvcpus || nvcpus > max)
		return false;
	memset(g, 0, sizeof(*g));
	memset(cpus, 0, nvcpus * sizeof(*cpus));
	g->cpu = cpus;
	g->version = version;
	g->nvcpus = nvcpus;
	g->kick = kick;
	g->ctx = ctx;
	for (v = 0; v < nvcpus; v++) {
		/* GICR_WAKER resets with ProcessorSleep = ChildrenAsleep = 1. */
		g->cpu[v].asleep = true;
		for (i = 0; i < VGIC_NR_PRIVATE; i++) {
			struct vgic_irq *irq = &g->cpu[v].priv[i];

			irq->intid = i;
			irq->owner = v;
			irq->edge = i < VGIC_NR_SGIS;
			irq->group1 = version == 3;
		}
	}
	for (i = 0; i < VGIC_MAX_SPIS; i++) {
		g->spi[i].intid = VGIC_NR_PRIVATE + i;
		g->spi[i].owner = VGIC_NO_VCPU;
		g->spi[i].group1 = version == 3;
	}
	return true;
}

struct vgic_irq *vgic_get_irq(struct vgic *g, u32 vcpu, u32 intid)
{
	if (intid < VGIC_NR_PRIVATE)
		return vcpu < g->nvcpus ? &g->cpu[vcpu].priv[intid] : NULL;
	if (intid < VGIC_NR_IRQS)
		return &g->spi[intid - VGIC_NR_PRIVATE];
	return NULL;
}

bool vgic_is_v2_sgi(const struct vgic *g, const struct vgic_irq *irq)
{
	return g->version == 2 && irq->intid < VGIC_NR_SGIS;
}

bool vgic_irq_pending(const struct vgic *g, const struct vgic_irq *irq)
{
	if (vgic_is_v2_sgi(g, irq))
		return irq->sgi_sources;
	return irq->pending_latch || (!irq->edge && irq->line_level);
}

static bool vgic_irq_forwardable(const struct vgic *g, const struct vgic_irq *irq)
{
	return irq->enabled && (g->ctlr & BIT(irq->group1)) && vgic_irq_pending(g, irq);
}

/* The vCPU an interrupt goes to: its bank (private), the vCPU that holds it (an SPI
 * in flight or active stays there until deactivated), else the SPI's routing. */
static u32 vgic_irq_target(const struct vgic *g, const struct vgic_irq *irq)
{
	int v;

	if (irq->owner != VGIC_NO_VCPU)
		return irq->owner;
	if (g->version == 2)
		return irq->targets ? (u32)__builtin_ctz(irq->targets) : VGIC_NO_VCPU;
	/* IHI 0069 GICD_IROUTER<n>: IRM = 1 lets the GIC pick any participating PE. */
	if (irq->route & VGIC_IROUTER_IRM)
		return 0;
	v = mpidr_to_vcpu(irq->route, g->nvcpus);
	return v < 0 ? VGIC_NO_VCPU : (u32)v;
}

/* The vCPU that should take the interrupt now, or VGIC_NO_VCPU. */
u32 vgic_irq_pending_target(const struct vgic *g, const struct vgic_irq *irq)
{
	return vgic_irq_forwardable(g, irq) ? vgic_irq_target(g, irq) : VGIC_NO_VCPU;
}

/* After a change to irq: kick the vCPU that should now take it, unless it already
 * had reason to (`before`: vgic_irq_pending_target before the change). */
void vgic_irq_notify(struct vgic *g, const struct vgic_irq *irq, u32 before)
{
	u32 t = vgic_irq_pending_target(g, irq);

	if (t != VGIC_NO_VCPU && t != before)
		vgic_kick(g, t);
}

void vgic_set_level(struct vgic *g, u32 vcpu, u32 intid, bool level)
{
	struct vgic_irq *irq;
	u32 before;

	/* Called on every exit for the virtual timer: most calls change nothing. Each line
	 * has one source (a device under its lock, or the timer on its vCPU's pCPU), so
	 * its level cannot change under this look. */
	irq = vgic_get_irq(g, vcpu, intid);
	if (!irq || intid < VGIC_NR_SGIS ||
	    __atomic_load_n(&irq->line_level, __ATOMIC_RELAXED) == level)
		return;
	spin_lock(&g->lock);
	before = vgic_irq_pending_target(g, irq);
	if (irq->edge && level && !irq->line_level)
		irq->pending_latch = true;
	irq->line_level = level;
	vgic_irq_notify(g, irq, before);
	vgic_changed(g);
	spin_unlock(&g->lock);
}

void vgic_inject_edge(struct vgic *g, u32 vcpu, u32 intid)
{
	struct vgic_irq *irq;
	u32 before;

	spin_lock(&g->lock);
	irq = vgic_get_irq(g, vcpu, intid);
	if (irq && intid >= VGIC_NR_SGIS) {
		before = vgic_irq_pending_target(g, irq);
		irq->pending_latch = true;
		vgic_irq_notify(g, irq, before);
		vgic_changed(g);
	}
	spin_unlock(&g->lock);
}

/* ICC_SGI1R_EL1 (IHI 0069): TargetList [15:0], Aff1 [23:16], INTID [27:24],
 * Aff2 [39:32], IRM [40], RS [47:44], Aff3 [55:48]. Target n of the list has
 * Aff0 = RS * 16 + n; IRM = 1 means every PE but the sender. */
u32 vgic_v3_sgi_targets(u64 icc_sgi1r, u32 sender, u32 nvcpus, struct vcpu_set *targets)
{
	u64 aff = ((icc_sgi1r >> 48) & 0xFF) << 32 | ((icc_sgi1r >> 32) & 0xFF) << 16 |
		  ((icc_sgi1r >> 16) & 0xFF) << 8;
	u32 rs = (icc_sgi1r >> 44) & 0xF, n;
	int v;

	nvcpus = MIN(nvcpus, VGIC_MAX_VCPUS);
	memset(targets, 0, sizeof(*targets));
	if (icc_sgi1r & BIT(40)) {
		for (n = 0; n < nvcpus; n++)
			if (n != sender)
				vcpu_set_add(targets, n);
	} else {
		for (n = 0; n < 16; n++) {
			if (!(icc_sgi1r & BIT(n)))
				continue;
			v = mpidr_to_vcpu(aff | (rs * 16 + n), nvcpus);
			if (v >= 0)
				vcpu_set_add(targets, (u32)v);
		}
	}
	return (icc_sgi1r >> 24) & 0xF;
}

/* Sets the SGI that an ICC_SGI1R_EL1/ICC_SGI0R_EL1 value names pending at its targets;
 * with group0_only only at those where it is Group 0. Returns how many. */
static u32 vgic_v3_sgi(struct vgic *g, u32 sender, u64 val, bool group0_only)
{
	struct vcpu_set targets;
	u32 intid, t, before, n = 0;

	if (g->version != 3 || sender >= g->nvcpus)
		return 0;
	spin_lock(&g->lock);
	intid = vgic_v3_sgi_targets(val, sender, g->nvcpus, &targets);
	for_each_vcpu_in(t, &targets, g->nvcpus)
	{
		struct vgic_irq *irq = &g->cpu[t].priv[intid];

		if (group0_only && irq->group1)
			continue;
		before = vgic_irq_pending_target(g, irq);
		irq->pending_latch = true;
		vgic_irq_notify(g, irq, before);
		n++;
	}
	vgic_changed(g);
	spin_unlock(&g->lock);
	return n;
}

/* With GICD_CTLR.DS = 1 an ICC_SGI1R_EL1 write from EL1 raises the SGI whatever its
 * group at the target (IHI 0069, forwarding an SGI to a target PE; KVM agrees). */
u32 vgic_v3_send_sgi(struct vgic *g, u32 sender, u64 icc_sgi1r)
{
	return vgic_v3_sgi(g, sender, icc_sgi1r, false);
}

/* ICC_SGI0R_EL1 raises a Group 0 SGI: only targets where that SGI is Group 0 take it
 * (IHI 0069, ICC_SGI0R_EL1; KVM's vgic_v3_dispatch_sgi). */
u32 vgic_v3_send_sgi0(struct vgic *g, u32 sender, u64 icc_sgi0r)
{
	return vgic_v3_sgi(g, sender, icc_sgi0r, true);
}

/* GICD_SGIR (IHI 0048B): TargetListFilter [25:24] (0: CPUTargetList, 1: all
 * but the sender, 2: the sender only, 3: reserved), CPUTargetList [23:16],
 * SGIINTID [3:0]. Each target records the sender as a source. */
u32 vgic_v2_sgi_targets(u32 sgir, u32 sender)
{
	switch ((sgir >> 24) & 3) { /* TargetListFilter */
	case 0:
		return (sgir >> 16) & 0xFF;
	case 1:
		return 0xFF & ~(u32)BIT(sender);
	case 2:
		return BIT(sender);
	}
	return 0;
}

void vgic_v2_sgir_write(struct vgic *g, u32 sender, u32 sgir)
{
	u32 list = vgic_v2_sgi_targets(sgir, sender), t, before;

	for (t = 0; t < g->nvcpus; t++) {
		struct vgic_irq *irq = &g->cpu[t].priv[sgir & 0xF];

		if (!(list & BIT(t)))
			continue;
		before = vgic_irq_pending_target(g, irq);
		irq->sgi_sources |= BIT(sender);
		vgic_irq_notify(g, irq, before);
	}
}

/* LR order. The candidates are active or pending. Pending and not active ones come
 * first when evict_active (they are what the guest waits for: whether one is signalled
 * depends on the running priority, which the active priority registers hold, not the
 * LRs), else the active ones (as KVM did before its 2025 LR-overflow rework).
 * Acknowledged ones before those set active through ISACTIVER; then by priority (lower
 * value first), then by INTID. Among the active ones that is the order in which a guest
 * in EOImode 0 ends them with EOIs: the last acknowledged, the highest priority, first
 * (IHI 0069 ICC_EOIR1_EL1: an EOI names the most recent acknowledgement), while
 * ISACTIVER's hold no running priority. */
static bool vgic_lr_before(const struct vgic_irq *a, const struct vgic_irq *b, bool evict_active)
{
	if (a->active != b->active)
		return a->active != evict_active;
	if (a->acked != b->acked)
		return a->acked;
	if (a->priority != b->priority)
		return a->priority < b->priority;
	return a->intid < b->intid;
}

/* Moves irq into an LR of vCPU vcpu. Pending state leaves the model with it (edge
 * pending_latch, a GICv2 SGI source) and comes back at vgic_sync if the LR is still
 * pending. A GICv2 SGI presents one source at a time; the LR of an active one must
 * carry the active source, so other sources wait for its deactivation (eoi_maint),
 * as do further sources after the one presented. Level-sensitive interrupts ask for
 * eoi_maint so that a line still high is presented again. */
static void vgic_lr_fill(struct vgic *g, u32 vcpu, struct vgic_irq *irq, struct vgic_lr *lr)
{
	bool fwd = vgic_irq_forwardable(g, irq);

	memset(lr, 0, sizeof(*lr));
	lr->intid = irq->intid;
	lr->priority = irq->priority;
	lr->group1 = irq->group1;
	lr->eoi_maint = !irq->edge;
	if (irq->active)
		lr->state = VGIC_LR_ACTIVE;
	if (vgic_is_v2_sgi(g, irq)) {
		u32 src = irq->active ? irq->active_source : (u32)__builtin_ctz(irq->sgi_sources);

		lr->source = src;
		if (fwd && (irq->sgi_sources & BIT(src))) {
			lr->state |= VGIC_LR_PENDING;
			irq->sgi_sources &= ~BIT(src);
		}
		lr->eoi_maint = fwd && irq->sgi_sources;
	} else if (fwd) {
		lr->state |= VGIC_LR_PENDING;
		irq->lr_latched = irq->pending_latch;
		irq->pending_latch = false;
	}
	irq->lr_pending = lr->state & VGIC_LR_PENDING;
	irq->in_lr = true;
	irq->owner = vcpu;
}

/* Inserts irq into pick[] (n entries, sorted, room for nlrs); returns the candidate
 * that does not fit (irq itself or the last one), or NULL. */
static struct vgic_irq *vgic_pick(struct vgic_irq **pick, u32 *n, u32 nlrs, struct vgic_irq *irq,
				  bool evict_active)
{
	struct vgic_irq *out = NULL;
	u32 j;

	if (*n == nlrs) {
		if (!vgic_lr_before(irq, pick[nlrs - 1], evict_active))
			return irq;
		out = pick[--*n];
	}
	for (j = (*n)++; j > 0 && vgic_lr_before(irq, pick[j - 1], evict_active); j--)
		pick[j] = pick[j - 1];
	pick[j] = irq;
	return out;
}

/* A cheap first look for the scans below (every entry after a change, every halted
 * vCPU's poll): whether irq is active or might be pending (a superset). Most of the 128
 * interrupts are neither, and the full test, with its routing lookup, costs several
 * times more under an emulator, where every call and return is an indirect jump. */
static inline bool vgic_irq_busy(const struct vgic_irq *irq)
{
	return irq->active ||
	       (irq->enabled && (irq->pending_latch || irq->line_level || irq->sgi_sources));
}

u32 vgic_flush(struct vgic *g, u32 vcpu, struct vgic_lr *lrs, u32 nlrs, bool evict_active,
	       u32 *maint)
{
	struct vgic_irq *pick[VGIC_MAX_LRS], *out;
	bool dropped = false, any_pending = false;
	u32 n = 0, i;

	*maint = 0;
	nlrs = MIN(nlrs, VGIC_MAX_LRS);
	if (vcpu >= g->nvcpus || !nlrs)
		return 0;
	if (__atomic_load_n(&g->gen, __ATOMIC_ACQUIRE) + 1 == g->cpu[vcpu].idle_gen)
		return 0;
	spin_lock(&g->lock);
	for (i = 0; i < VGIC_NR_IRQS; i++) {
		struct vgic_irq *irq = i < VGIC_NR_PRIVATE ? &g->cpu[vcpu].priv[i]
							   : &g->spi[i - VGIC_NR_PRIVATE];

		if (!vgic_irq_busy(irq) || irq->in_lr || vgic_irq_target(g, irq) != vcpu ||
		    !(irq->active || vgic_irq_forwardable(g, irq)))
			continue;
		out = vgic_pick(pick, &n, nlrs, irq, evict_active);
		if (out && vgic_irq_forwardable(g, out))
			dropped = true;
		if (out && out->active)
			*maint |= VGIC_MAINT_ACTIVE_OUT;
	}
	for (i = 0; i < n; i++) {
		vgic_lr_fill(g, vcpu, pick[i], &lrs[i]);
		any_pending |= lrs[i].state & VGIC_LR_PENDING;
	}
	if (dropped && any_pending)
		*maint |= VGIC_MAINT_NPIE;
	else if (dropped)
		for (i = 0; i < n; i++)
			lrs[i].eoi_maint = true;
	g->cpu[vcpu].idle_gen = n ? 0 : g->gen + 1;
	spin_unlock(&g->lock);
	return n;
}

void vgic_irq_deactivate(struct vgic_irq *irq)
{
	irq->active = false;
	irq->acked = false;
	if (irq->intid >= VGIC_NR_PRIVATE && !irq->in_lr)
		irq->owner = VGIC_NO_VCPU;
}

/* After irq changed on vCPU vcpu's exit: kick the other vCPU that should now take it
 * (routing may have changed while it was in flight or active). */
static void vgic_kick_other(struct vgic *g, const struct vgic_irq *irq, u32 vcpu)
{
	u32 t = vgic_irq_pending_target(g, irq);

	if (t != VGIC_NO_VCPU && t != vcpu)
		vgic_kick(g, t);
}

/* The active interrupt of vCPU vcpu outside its LRs that ranks first in vgic_lr_before
 * (the one a guest with EOImode 0 ends first), or NULL. */
static struct vgic_irq *vgic_first_active_outside(struct vgic *g, u32 vcpu)
{
	struct vgic_irq *first = NULL;
	u32 i;

	for (i = 0; i < VGIC_NR_IRQS; i++) {
		struct vgic_irq *irq = vgic_get_irq(g, vcpu, i);

		if (irq && irq->active && !irq->in_lr && vgic_irq_target(g, irq) == vcpu &&
		    (!first || vgic_lr_before(irq, first, true)))
			first = irq;
	}
	return first;
}

/* Folds an LR back (ICH_LR<n>_EL2.State, IHI 0069; GICH_LR<n>.State, IHI 0048B): the
 * LR's active state replaces the model's; pending that is still in the LR returns to
 * where vgic_lr_fill took it from, on top of whatever was injected meanwhile. A level-sensitive
 * interrupt that was pending only through its line is pending again only if the line
 * still is: pending_latch is set back only if it went into the LR.
 *
 * eoicount: EOIs of interrupts in no LR (ICH_HCR_EL2.EOIcount, IHI 0069 12.4.3; GICH_HCR,
 * IHI 0048B 5.3.1), each a deactivation with EOImode 0. EOIs come in vgic_lr_before's
 * order of the active ones, and the LRs held the first of them: the count ends that
 * many of the rest, in that order. Done before the LRs return, while their interrupts
 * are still in_lr. */
void vgic_sync(struct vgic *g, u32 vcpu, const struct vgic_lr *lrs, u32 n, u32 eoicount)
{
	struct vgic_irq *irq;
	u32 i;

	spin_lock(&g->lock);
	for (; eoicount && (irq = vgic_first_active_outside(g, vcpu)); eoicount--) {
		vgic_irq_deactivate(irq);
		vgic_kick_other(g, irq, vcpu);
	}
	for (i = 0; i < n; i++) {
		struct vgic_irq *irq = vgic_get_irq(g, vcpu, lrs[i].intid);
		bool pending = lrs[i].state & VGIC_LR_PENDING;
		bool active = lrs[i].state & VGIC_LR_ACTIVE;

		if (!irq || !irq->in_lr || irq->owner != vcpu)
			continue;
		if (vgic_is_v2_sgi(g, irq)) {
			if (pending)
				irq->sgi_sources |= BIT(lrs[i].source & 7);
			if (active)
				irq->active_source = lrs[i].source & 7;
		} else if (pending && irq->lr_latched) {
			irq->pending_latch = true;
		}
		/* Pending in, active alone out: the guest acknowledged it. */
		irq->acked = active && (irq->acked || (irq->lr_pending && !pending));
		irq->lr_latched = false;
		irq->lr_pending = false;
		irq->in_lr = false;
		irq->active = active;
		if (irq->intid >= VGIC_NR_PRIVATE && !active)
			irq->owner = VGIC_NO_VCPU;
		vgic_kick_other(g, irq, vcpu);
	}
	vgic_changed(g);
	spin_unlock(&g->lock);
}

void vgic_deactivate(struct vgic *g, u32 vcpu, u32 intid, u32 source)
{
	struct vgic_irq *irq;
	u32 before;

	spin_lock(&g->lock);
	irq = vgic_get_irq(g, vcpu, intid);
	if (irq && irq->active && (!vgic_is_v2_sgi(g, irq) || irq->active_source == source)) {
		before = vgic_irq_pending_target(g, irq);
		vgic_irq_deactivate(irq);
		vgic_irq_notify(g, irq, before);
		vgic_changed(g);
	}
	spin_unlock(&g->lock);
}

bool vgic_vcpu_has_pending(struct vgic *g, u32 vcpu)
{
	bool found = false;
	u32 i;

	spin_lock(&g->lock);
	if (vcpu < g->nvcpus)
		for (i = 0; i < VGIC_NR_IRQS && !found; i++) {
			struct vgic_irq *irq = vgic_get_irq(g, vcpu, i);

			found = vgic_irq_busy(irq) && vgic_irq_pending_target(g, irq) == vcpu;
		}
	spin_unlock(&g->lock);
	return found;
}
