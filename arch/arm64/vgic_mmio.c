/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual GIC register models: the GICv2 distributor (IHI 0048B chapter 4), the
 * GICv3 distributor and redistributors (IHI 0069 chapter 12). Enough for Linux's
 * irq-gic.c and irq-gic-v3.c; see vgic.h for what is modelled.
 *
 * Access sizes (IHI 0048B, IHI 0069 "GIC memory-mapped register access"): 32-bit
 * accesses to every register, byte accesses to IPRIORITYR, ITARGETSR, CPENDSGIR and
 * SPENDSGIR, 64-bit accesses (and 32-bit ones to either half) to GICD_IROUTER<n> and
 * GICR_TYPER. */
#include "arch/arm64/vgic.h"
#include "arch/arm64/vcpu_mpidr.h"

#define GICD_CTLR 0x0000
#define GICD_TYPER 0x0004
#define GICD_IIDR 0x0008
#define GICD_TYPER2 0x000C    /* v3 */
#define GICD_SGIR 0x0F00      /* v2 */
#define GICD_CPENDSGIR 0x0F10 /* v2, one byte per SGI */
#define GICD_SPENDSGIR 0x0F20 /* v2, one byte per SGI */
#define GICD_IROUTER 0x6000   /* v3, 8 bytes per INTID, 32-1019 */
#define GICD_PIDR2 0xFFE8

#define GICR_CTLR 0x0000
#define GICR_IIDR 0x0004
#define GICR_TYPER 0x0008
#define GICR_WAKER 0x0014
#define GICR_PIDR2 0xFFE8
#define GICR_SGI_BASE 0x10000 /* IGROUPR0 ... ICFGR1, laid out as in GICD */

#define GICD_CTLR_ENABLE_GRP 3 /* EnableGrp0 [0], EnableGrp1 [1] */
#define GICD_CTLR_ARE BIT(4)
#define GICD_CTLR_DS BIT(6)
#define GICD_TYPER_IDBITS(n) ((u32)((n)-1) << 19)

#define GICR_TYPER_LAST BIT(4)
#define GICR_WAKER_PROCESSOR_SLEEP BIT(1)
#define GICR_WAKER_CHILDREN_ASLEEP BIT(2)

/* GICD_IIDR / GICR_IIDR: ProductID [31:24] 'H', Implementer [11:0] 0x43B (Arm's JEP106
 * code, as KVM does with product 'K'); matches none of Linux's GIC quirks. */
#define VGIC_IIDR ((u32)'H' << 24 | 0x43B)
/* PIDR2: ArchRev [7:4], JEDEC [3] = 1, DES_1 [2:0] = 3 (Arm's JEP106 code 0x3B). */
#define VGIC_PIDR2(rev) ((u32)(rev) << 4 | 0xB)

enum vgic_field {
	F_GROUP,
	F_SET_ENABLE,
	F_CLR_ENABLE,
	F_SET_PEND,
	F_CLR_PEND,
	F_SET_ACTIVE,
	F_CLR_ACTIVE,
	F_PRIORITY,
	F_TARGET,
	F_CONFIG,
};

/* The registers with a field per INTID, `bits` wide, from INTID 0 at `base`. GICR
 * SGI_base repeats the first word (INTIDs 0-31) of each at the same offsets. */
static const struct vgic_field_reg {
	u16 base, end;
	u8 bits;
	u8 field;
} field_regs[] = {
	{ 0x080, 0x100, 1, F_GROUP },	   /* IGROUPR */
	{ 0x100, 0x180, 1, F_SET_ENABLE }, /* ISENABLER */
	{ 0x180, 0x200, 1, F_CLR_ENABLE }, /* ICENABLER */
	{ 0x200, 0x280, 1, F_SET_PEND },   /* ISPENDR */
	{ 0x280, 0x300, 1, F_CLR_PEND },   /* ICPENDR */
	{ 0x300, 0x380, 1, F_SET_ACTIVE }, /* ISACTIVER */
	{ 0x380, 0x400, 1, F_CLR_ACTIVE }, /* ICACTIVER */
	{ 0x400, 0x7FC, 8, F_PRIORITY },   /* IPRIORITYR, INTIDs 0-1019 */
	{ 0x800, 0xBFC, 8, F_TARGET },	   /* ITARGETSR (v2), INTIDs 0-1019 */
	{ 0xC00, 0xD00, 2, F_CONFIG },	   /* ICFGR */
};

/* GICv2 CPU interfaces present (nvcpus <= 8). */
static u32 vgic_v2_cpu_mask(const struct vgic *g) { return (u32)BIT(g->nvcpus) - 1; }

static u32 vgic_field_read(const struct vgic *g, u32 vcpu, const struct vgic_irq *irq, int field)
{
	switch (field) {
	case F_GROUP:
		return irq->group1;
	case F_SET_ENABLE:
	case F_CLR_ENABLE:
		return irq->enabled;
	case F_SET_PEND:
	case F_CLR_PEND:
		return vgic_irq_pending(g, irq);
	case F_SET_ACTIVE:
	case F_CLR_ACTIVE:
		return irq->active;
	case F_PRIORITY:
		return irq->priority;
	case F_TARGET:
		/* IHI 0048B GICD_ITARGETSR: SGI and PPI bytes read as the reader. */
		return irq->intid < VGIC_NR_PRIVATE ? (u32)BIT(vcpu) : irq->targets;
	default: /* F_CONFIG: Int_config [1] = 1 edge-triggered, [0] RES0 */
		return irq->edge ? 2 : 0;
	}
}

static void vgic_field_write(struct vgic *g, u32 vcpu, struct vgic_irq *irq, int field, u32 val)
{
	u32 before = vgic_irq_pending_target(g, irq);
	bool v2_sgi = vgic_is_v2_sgi(g, irq);

	switch (field) {
	case F_GROUP:
		irq->group1 = val;
		break;
	case F_SET_ENABLE:
		if (val)
			irq->enabled = true;
		break;
	case F_CLR_ENABLE:
		if (val)
			irq->enabled = false;
		break;
	/* IHI 0048B GICD_ISPENDR, GICD_ICPENDR: GICv2 SGI pending bits ignore writes
	 * here; GICD_SPENDSGIR / GICD_CPENDSGIR set and clear them per source. */
	case F_SET_PEND:
		if (val && !v2_sgi)
			irq->pending_latch = true;
		break;
	case F_CLR_PEND:
		if (val && !v2_sgi)
			irq->pending_latch = false;
		break;
	case F_SET_ACTIVE:
		if (val) {
			irq->active = true;
			if (v2_sgi)
				irq->active_source = vcpu;
		}
		break;
	case F_CLR_ACTIVE:
		if (val)
			vgic_irq_deactivate(irq);
		break;
	case F_PRIORITY:
		irq->priority = val;
		break;
	case F_TARGET:
		/* Read-only for SGIs and PPIs; bits of absent CPU interfaces are RAZ/WI. */
		if (irq->intid >= VGIC_NR_PRIVATE)
			irq->targets = val & vgic_v2_cpu_mask(g);
		break;
	default: /* F_CONFIG: SGIs are always edge-triggered (GICD_ICFGR<n>) */
		if (irq->intid >= VGIC_NR_SGIS)
			irq->edge = val & 2;
		break;
	}
	vgic_irq_notify(g, irq, before);
}

/* The per-INTID registers: of the GICD (redist false), or of vCPU vcpu's GICR
 * SGI_base (INTIDs 0-31 only). In the GICD, GICv2 banks INTIDs 0-31 per accessing
 * vCPU; under GICv3 affinity routing they are RAZ/WI there (IHI 0069, GICD_CTLR.ARE). */
static bool vgic_fields_access(struct vgic *g, u32 vcpu, u32 off, unsigned size, bool write,
			       u64 *val, bool redist)
{
	const struct vgic_field_reg *r = NULL;
	u32 i, first, nr, mask;
	u64 out = 0;

	for (i = 0; i < ARRAY_SIZE(field_regs); i++)
		if (off >= field_regs[i].base && off < field_regs[i].end)
			r = &field_regs[i];
	if (!r || (r->field == F_TARGET && g->version != 2))
		return false;
	first = (off - r->base) * 8 / r->bits;
	if ((size != 4 && !(size == 1 && r->bits == 8)) || off % size ||
	    (redist && first >= VGIC_NR_PRIVATE))
		return false;
	nr = size * 8 / r->bits;
	mask = (1u << r->bits) - 1;
	for (i = 0; i < nr; i++) {
		u32 intid = first + i;
		struct vgic_irq *irq = NULL;

		if (redist || g->version == 2 || intid >= VGIC_NR_PRIVATE)
			irq = vgic_get_irq(g, vcpu, intid);
		if (!irq)
			continue;
		if (write)
			vgic_field_write(g, vcpu, irq, r->field, (*val >> (i * r->bits)) & mask);
		else
			out |= (u64)vgic_field_read(g, vcpu, irq, r->field) << (i * r->bits);
	}
	if (!write)
		*val = out;
	return true;
}

/* GICD_CPENDSGIR<n> / GICD_SPENDSGIR<n> (IHI 0048B): byte n holds SGI n's
 * pending bit per source CPU, for the accessing vCPU as target. */
static bool vgic_v2_sgi_pend_access(struct vgic *g, u32 vcpu, u32 off, unsigned size, bool write,
				    u64 *val)
{
	bool set = off >= GICD_SPENDSGIR;
	u32 first = off & 0xF, i, before;
	u64 out = 0;

	if ((size != 1 && size != 4) || off % size)
		return false;
	for (i = 0; i < size; i++) {
		struct vgic_irq *irq = &g->cpu[vcpu].priv[first + i];
		u8 bits = (*val >> (i * 8)) & vgic_v2_cpu_mask(g);

		if (!write) {
			out |= (u64)irq->sgi_sources << (i * 8);
			continue;
		}
		before = vgic_irq_pending_target(g, irq);
		if (set)
			irq->sgi_sources |= bits;
		else
			irq->sgi_sources &= ~bits;
		vgic_irq_notify(g, irq, before);
	}
	if (!write)
		*val = out;
	return true;
}

/* GICD_IROUTER<n> (IHI 0069), n = 32-1019; INTIDs past the last SPI RAZ/WI. */
static bool vgic_irouter_access(struct vgic *g, u32 off, unsigned size, bool write, u64 *val)
{
	u32 intid = (off - GICD_IROUTER) / 8, before;
	bool high = off & 4;
	struct vgic_irq *irq;
	u64 r;

	if (intid < VGIC_NR_PRIVATE || intid > 1019 || (size != 4 && size != 8) || off % size)
		return false;
	irq = vgic_get_irq(g, 0, intid);
	if (!write) {
		r = irq ? irq->route : 0;
		*val = size == 8 ? r : high ? r >> 32 : (u32)r;
		return true;
	}
	if (!irq)
		return true;
	before = vgic_irq_pending_target(g, irq);
	if (size == 8)
		r = *val;
	else if (high)
		r = (irq->route & 0xFFFFFFFFull) | *val << 32;
	else
		r = (irq->route & ~0xFFFFFFFFull) | *val;
	irq->route = r & VGIC_IROUTER_MASK;
	vgic_irq_notify(g, irq, before);
	return true;
}

/* GICD_CTLR: a group just enabled may release pending interrupts; kick each vCPU
 * that now has one, once. */
static void vgic_ctlr_write(struct vgic *g, u32 val)
{
	u32 en = val & GICD_CTLR_ENABLE_GRP & ~g->ctlr, v, i, t;
	struct vcpu_set kick = { 0 };

	g->ctlr = val & GICD_CTLR_ENABLE_GRP;
	if (!en)
		return;
	for (v = 0; v < g->nvcpus; v++) {
		for (i = 0; i < VGIC_NR_IRQS; i++) {
			struct vgic_irq *irq = vgic_get_irq(g, v, i);

			if (v && i >= VGIC_NR_PRIVATE)
				break; /* SPIs once */
			t = vgic_irq_pending_target(g, irq);
			if ((en & BIT(irq->group1)) && t != VGIC_NO_VCPU)
				vcpu_set_add(&kick, t);
		}
	}
	for_each_vcpu_in(v, &kick, g->nvcpus) vgic_kick(g, v);
}

static bool vgic_dist_reg(struct vgic *g, u32 vcpu, u32 off, unsigned size, bool write, u64 *val)
{
	bool v3 = g->version == 3;
	u32 r;

	if (v3 && off >= GICD_IROUTER && off < GICD_IROUTER + 8 * 1024)
		return vgic_irouter_access(g, off, size, write, val);
	if (!v3 && off >= GICD_CPENDSGIR && off < GICD_SPENDSGIR + VGIC_NR_SGIS)
		return vgic_v2_sgi_pend_access(g, vcpu, off, size, write, val);
	if (off >= field_regs[0].base && off < field_regs[ARRAY_SIZE(field_regs) - 1].end)
		return vgic_fields_access(g, vcpu, off, size, write, val, false);
	if (size != 4 || off % 4)
		return false;
	switch (off) {
	case GICD_CTLR:
		/* v3 with DS = 1: ARE (bit 4) and DS RAO/WI, RWP (bit 31) reads 0. */
		if (write)
			vgic_ctlr_write(g, *val);
		r = g->ctlr | (v3 ? GICD_CTLR_ARE | GICD_CTLR_DS : 0);
		break;
	case GICD_TYPER:
		/* ITLinesNumber [4:0]; v2 CPUNumber [7:5]; v3 IDbits [23:19] (10 bits of
		 * INTID), CPUNumber 0 under affinity routing, no LPIs, no MBIs. */
		r = VGIC_NR_IRQS / 32 - 1;
		r |= v3 ? GICD_TYPER_IDBITS(10) : (g->nvcpus - 1) << 5;
		break;
	case GICD_IIDR:
		r = VGIC_IIDR;
		break;
	case GICD_TYPER2:
		if (!v3)
			return false;
		r = 0;
		break;
	case GICD_SGIR:
		if (v3)
			return false;
		if (write)
			vgic_v2_sgir_write(g, vcpu, *val);
		r = 0; /* write-only */
		break;
	case GICD_PIDR2:
		r = VGIC_PIDR2(g->version);
		break;
	default:
		return false;
	}
	if (!write)
		*val = r;
	return true;
}

static u64 vgic_size_mask(unsigned size) { return size >= 8 ? ~0ull : BIT(size * 8) - 1; }

bool vgic_dist_access(struct vgic *g, u32 vcpu, u64 offset, unsigned size, bool write, u64 *value)
{
	u64 val = write ? *value & vgic_size_mask(size) : 0;
	bool ok = false;

	spin_lock(&g->lock);
	if (vcpu < g->nvcpus && offset < VGIC_DIST_SIZE)
		ok = vgic_dist_reg(g, vcpu, (u32)offset, size, write, &val);
	if (write)
		vgic_changed(g);
	spin_unlock(&g->lock);
	if (!write)
		*value = ok ? val : 0;
	return ok;
}

/* GICR RD_base of vCPU vcpu (IHI 0069). */
static bool vgic_rd_reg(struct vgic *g, u32 vcpu, u32 off, unsigned size, bool write, u64 *val)
{
	u64 mpidr = vcpu_mpidr(vcpu), typer;
	u32 r;

	if (off == GICR_TYPER || off == GICR_TYPER + 4) {
		/* Affinity_Value [63:32] = Aff3.Aff2.Aff1.Aff0, Processor_Number [23:8],
		 * Last [4]; no LPIs (PLPIS, VLPIS, DirectLPI 0), PPInum 0 (16 PPIs). */
		if ((size != 4 && size != 8) || off % size)
			return false;
		typer = (((mpidr >> 32) & 0xFF) << 24 | (mpidr & 0xFFFFFF)) << 32;
		typer |= (u64)vcpu << 8;
		if (vcpu == g->nvcpus - 1)
			typer |= GICR_TYPER_LAST;
		if (!write)
			*val = size == 8 ? typer : off == GICR_TYPER ? (u32)typer : typer >> 32;
		return true;
	}
	if (size != 4 || off % 4)
		return false;
	switch (off) {
	case GICR_CTLR:
		r = 0; /* no LPIs: EnableLPIs RAZ/WI; RWP, UWP read 0 */
		break;
	case GICR_IIDR:
		r = VGIC_IIDR;
		break;
	case GICR_WAKER:
		/* ChildrenAsleep follows ProcessorSleep at once (IHI 0069 GICR_WAKER). */
		if (write)
			g->cpu[vcpu].asleep = *val & GICR_WAKER_PROCESSOR_SLEEP;
		r = g->cpu[vcpu].asleep ? GICR_WAKER_PROCESSOR_SLEEP | GICR_WAKER_CHILDREN_ASLEEP
					: 0;
		break;
	case GICR_PIDR2:
		r = VGIC_PIDR2(3);
		break;
	default:
		return false;
	}
	if (!write)
		*val = r;
	return true;
}

bool vgic_redist_access(struct vgic *g, u64 offset, unsigned size, bool write, u64 *value)
{
	u64 val = write ? *value & vgic_size_mask(size) : 0;
	u32 vcpu = offset / VGIC_REDIST_SIZE, off = offset % VGIC_REDIST_SIZE;
	bool ok = false;

	spin_lock(&g->lock);
	if (g->version == 3 && offset < (u64)g->nvcpus * VGIC_REDIST_SIZE) {
		if (off >= GICR_SGI_BASE)
			ok = vgic_fields_access(g, vcpu, off - GICR_SGI_BASE, size, write, &val,
						true);
		else
			ok = vgic_rd_reg(g, vcpu, off, size, write, &val);
	}
	if (write)
		vgic_changed(g);
	spin_unlock(&g->lock);
	if (!write)
		*value = ok ? val : 0;
	return ok;
}
