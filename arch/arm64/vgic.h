/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual GIC, version 2 (Arm IHI 0048B) or 3 (Arm IHI 0069, without LPIs or ITS):
 * the distributor and redistributor register models of one VM, the interrupt state
 * and the list-register bookkeeping. Pure logic: the arm64 glue owns the hardware.
 * It forwards trapped GICD/GICR accesses (vgic_dist_access, vgic_redist_access) and
 * ICC_SGI1R_EL1 writes (vgic_v3_send_sgi), and moves interrupts between this model
 * and the ICH_LR<n>_EL2 / GICH_LR<n> list registers:
 *
 *   vgic_flush()  before every entry of a vCPU: the interrupts to put in its LRs;
 *   vgic_sync()   after every exit of that vCPU, before the exit is handled: the same
 *                 LRs, with the states the hardware left in them.
 *
 * Between the two the interrupts are "in flight": the guest may acknowledge and
 * deactivate them without the model knowing. The model keeps an interrupt in at most
 * one LR of one vCPU, and an SPI that is active stays on the vCPU that has it active.
 *
 * More interrupts than LRs: pending ones go first, active ones wait outside (as in KVM
 * since its 2025 LR-overflow rework), so that active interrupts a guest never
 * deactivates cannot keep a pending one out: a GIC signals a pending interrupt by its
 * priority against the running priority (the active priority registers), whatever else
 * is active. A guest ends an
 * active interrupt outside the LRs in one of three ways, all seen here: GICD_ICACTIVER
 * (trapped), a DIR (ICC_DIR_EL1 trapped by ICH_HCR_EL2.TDIR; GICv2's GICC_DIR page is
 * not mapped), or with EOImode 0 an EOI, which the hardware counts in EOIcount and
 * announces with the LRENPIE maintenance interrupt (vgic_sync).
 *
 * Model:
 *  - INTIDs 0-15 SGIs and 16-31 PPIs, banked per vCPU; SPIs 32-127
 *    (GICD_TYPER.ITLinesNumber = 3). SGIs are edge-triggered; PPIs and SPIs reset to
 *    level-sensitive, GICD_ICFGR / GICR_ICFGR1 make them edge.
 *  - GICv3: affinity routing always on, a single Security state (GICD_CTLR.ARE and
 *    DS read as 1), interrupts reset to Group 1. vCPU n has the affinity of
 *    vcpu_mpidr(n). An SPI goes to the vCPU GICD_IROUTER names; with IRM = 1
 *    (1 of N) always to vCPU 0. GICR_WAKER.ProcessorSleep is plain storage.
 *  - GICv2: no Security Extensions, at most 8 vCPUs, interrupts reset to Group 0.
 *    An SPI goes to the lowest CPU set in GICD_ITARGETSR. SGIs keep one pending bit
 *    per source CPU; the LR presents one source at a time.
 *  - An SPI with no target (no such vCPU) stays pending here until routing changes.
 *  - An interrupt is forwarded as pending when it is enabled and its group is
 *    enabled in GICD_CTLR; pending = pending_latch, or for level-sensitive ones
 *    line_level || pending_latch.
 *  - Changes other vCPUs make through the registers to an interrupt that sits in a
 *    running vCPU's LR (ICPENDR, ICACTIVER, ...) change the model only: the LR copy
 *    is folded back when that vCPU exits (as KVM does without halting the guest).
 *
 * Locking: one spinlock per VM, taken by every public function, protects all of it.
 * It is the weak point: every injection, register access, entry and exit of every
 * vCPU serializes on it. Per-vCPU state with lock-free injection mailboxes is the
 * way forward when that shows. kick() is called with the lock held: it must only
 * set flags or send an IPI, never call back into the vgic. */
#ifndef ARCH_ARM64_VGIC_H
#define ARCH_ARM64_VGIC_H

#include "arch/arm64/vcpu_set.h"
#include "hv/types.h"
#include "hv/spinlock.h"

#define VGIC_NR_SGIS 16
#define VGIC_NR_PRIVATE 32 /* SGIs + PPIs */
#define VGIC_MAX_SPIS 96
#define VGIC_NR_IRQS (VGIC_NR_PRIVATE + VGIC_MAX_SPIS)
#define VGIC_MAX_VCPUS ARCH_MAX_VCPUS /* GICv3 (arch/limits.h says why) */
#define VGIC_V2_MAX_VCPUS 8	      /* GICv2: 8 CPU interfaces */
#define VGIC_MAX_LRS 16
#define VGIC_NO_VCPU 0xFF /* in struct vgic_irq's owner byte: no vCPU */
_Static_assert(VGIC_MAX_VCPUS <= VGIC_NO_VCPU, "vCPU numbers stay below VGIC_NO_VCPU");

#define VGIC_DIST_SIZE 0x10000	 /* GICD frame */
#define VGIC_REDIST_SIZE 0x20000 /* one GICR: RD_base + SGI_base, 64 KiB each */

/* GICD_IROUTER<n>: Aff3 [39:32], Interrupt_Routing_Mode [31], Aff2.Aff1.Aff0 [23:0]. */
#define VGIC_IROUTER_IRM BIT(31)
#define VGIC_IROUTER_MASK (0xFF00FFFFFFull | VGIC_IROUTER_IRM)

struct vgic_irq {
	u64 route; /* v3 SPIs: GICD_IROUTER */
	u16 intid;
	u8 priority;	  /* IPRIORITYR byte, all 8 bits as written */
	u8 targets;	  /* v2 SPIs: GICD_ITARGETSR byte (existing CPUs only) */
	u8 sgi_sources;	  /* v2 SGIs: source CPUs with an instance pending here */
	u8 active_source; /* v2 SGIs: source CPU of the active instance */
	u8 owner;	  /* private: its vCPU; SPIs: the vCPU that has it in an
				 * LR or active, else VGIC_NO_VCPU */
	bool enabled;
	bool edge; /* Int_config: edge-triggered, else level-sensitive */
	bool group1;
	bool pending_latch; /* edge pending, or soft pending (ISPENDR) */
	bool line_level;    /* input line (vgic_set_level) */
	bool active;
	bool in_lr;	 /* in flight in the owner's LRs */
	bool lr_latched; /* in flight, and it took pending_latch with it */
	bool lr_pending; /* in flight, pending in its LR */
	bool acked;	 /* active by the guest's acknowledgement (not ISACTIVER):
				 * holds a running priority until its EOI */
};

struct vgic_cpu {
	struct vgic_irq priv[VGIC_NR_PRIVATE];
	bool asleep;  /* GICR_WAKER.ProcessorSleep */
	u64 idle_gen; /* gen + 1 when vgic_flush last found nothing for it */
};

struct vgic {
	struct spinlock lock;
	int version; /* 2 or 3 */
	u32 nvcpus;
	u32 ctlr; /* GICD_CTLR.EnableGrp0 [0], EnableGrp1 [1] */
	void (*kick)(void *ctx, u32 vcpu);
	void *ctx;
	struct vgic_irq spi[VGIC_MAX_SPIS];
	struct vgic_cpu *cpu; /* nvcpus of them, the caller's (vgic_init) */
	/* Bumped (under the lock) by every change of interrupt state, so that vgic_flush
	 * answers "nothing" without the lock while nothing changed since it last did: the
	 * common guest entry. See vgic_kick for why that is safe. */
	u64 gen;
};

/* Callers hold the lock. */
static inline void vgic_changed(struct vgic *g)
{
	__atomic_store_n(&g->gen, g->gen + 1, __ATOMIC_RELEASE);
}

/* Tells vCPU `vcpu` that an interrupt waits for it; callers hold the lock and have
 * changed the state. The kick protocol (hv/sched.h, vcpu_kick) makes the target see
 * everything published before the kick; vgic_flush's lock-free look at gen is part of
 * what it must see, so gen moves first:
 *
 *   sender (any pCPU)                      target's pCPU, before each guest entry
 *   1. change the state under the lock     a. pcpu_in_guest = 1          (seq_cst)
 *   2. gen++                    (release)  b. read every kick_pending     (seq_cst);
 *   3. kick_pending = 1         (seq_cst)     set: back to the scheduler, which clears
 *   4. read pcpu_in_guest/idle  (seq_cst)     them and comes back to a
 *      set: host IPI to that pCPU          c. vgic_flush reads gen      (acquire);
 *                                             unchanged since it last found nothing:
 *                                             nothing to do, else the locked walk
 *
 * Either b sees 3, and then c sees 2 and takes the lock, behind 1; or b misses 3, and
 * then 4 sees the target in guest mode (or asleep) and the IPI makes it exit right
 * after entry, and b sees 3 the next time round. With 2 after 3 (as it was), a target
 * that the IPI or the flag sent round again while the sender was still writing the
 * IPI could read the old gen at c and enter with nothing, and a guest that spins
 * without exits never got the SGI: the first SGI lost in 3 of 34 GICv3 boots, and in
 * every run of tests/unit/arm64/test_race_vgic.c. */
static inline void vgic_kick(struct vgic *g, u32 vcpu)
{
	vgic_changed(g);
	g->kick(g->ctx, vcpu);
}

/* A list register as the glue writes it into (and reads it back from) the hardware. */
#define VGIC_LR_PENDING 1
#define VGIC_LR_ACTIVE 2

struct vgic_lr {
	u32 intid;
	u8 priority;
	u8 state; /* VGIC_LR_PENDING | VGIC_LR_ACTIVE; 0: invalid */
	bool group1;
	bool eoi_maint; /* ask for a maintenance interrupt when the guest
				 * deactivates it (ICH_LR_EL2.EOI / GICH_LR.EOI): level-
				 * sensitive ones, GICv2 SGIs with more sources waiting,
				 * and see vgic_flush */
	u8 source;	/* v2 SGIs: source CPU (GICH_LR.CPUID) */
};

/* Reset state, with the vCPUs' banked state in cpus[0 .. nvcpus) (memory the caller
 * keeps for the VM's life: a VM pays for the vCPUs it has, about 1 KiB each). False
 * (and nothing set up) unless version is 2 or 3 and 1 <= nvcpus <= VGIC_MAX_VCPUS
 * (GICv2: VGIC_V2_MAX_VCPUS). kick must not be NULL: it is called whenever an
 * interrupt becomes pending for vCPU `vcpu`, which should then exit (if running) or
 * wake (if in WFI) and go through vgic_sync/vgic_flush. */
bool vgic_init(struct vgic *g, int version, u32 nvcpus, struct vgic_cpu *cpus,
	       void (*kick)(void *ctx, u32 vcpu), void *ctx);

/* Device inputs. INTIDs 16-127; vcpu selects the bank for PPIs only. A level-sensitive
 * interrupt is pending while its line is high; on an edge-triggered one a rising level
 * latches pending. vgic_inject_edge latches pending (on a level-sensitive interrupt
 * it acts as a write to ISPENDR). SGIs and unknown INTIDs are ignored. */
void vgic_set_level(struct vgic *g, u32 vcpu, u32 intid, bool level);
void vgic_inject_edge(struct vgic *g, u32 vcpu, u32 intid);

/* GICv3 SGIs: a trapped ICC_SGI1R_EL1 write by vCPU `sender` (IHI 0069); returns the
 * number of vCPUs it targets. vgic_v3_sgi_targets decodes it alone: returns the INTID
 * and sets *targets to the vCPUs (below nvcpus) it targets. */
u32 vgic_v3_send_sgi(struct vgic *g, u32 sender, u64 icc_sgi1r);
/* The same for ICC_SGI0R_EL1 (same layout): only targets where the SGI is Group 0 take
 * it; returns how many did. */
u32 vgic_v3_send_sgi0(struct vgic *g, u32 sender, u64 icc_sgi0r);
u32 vgic_v3_sgi_targets(u64 icc_sgi1r, u32 sender, u32 nvcpus, struct vcpu_set *targets);

/* Guest register accesses (vgic_mmio.c). offset is into the 64 KiB GICD frame, or
 * (GICv3 only) into the redistributors laid out back to back, VGIC_REDIST_SIZE each,
 * vCPU n at n * VGIC_REDIST_SIZE. size is 1, 2, 4 or 8 bytes, value the data (low
 * `size` bytes). vcpu is the accessing vCPU (banked GICv2 registers and SGI sources).
 * False for an offset that is no register or a size/alignment the register does not
 * take; a read then returns 0 and a write is ignored. */
bool vgic_dist_access(struct vgic *g, u32 vcpu, u64 offset, unsigned size, bool write, u64 *value);
bool vgic_redist_access(struct vgic *g, u64 offset, unsigned size, bool write, u64 *value);

/* What vgic_flush asks of the maintenance interrupt (ICH_HCR_EL2 / GICH_HCR). */
#define VGIC_MAINT_NPIE 1 /* pending ones left out: exit when no LR is pending */
#define VGIC_MAINT_ACTIVE_OUT \
	2 /* active ones left out: exit on an EOI of one
				 * (LRENPIE), trap DIR (TDIR) */

/* Before entering vCPU `vcpu`: fills up to nlrs (<= VGIC_MAX_LRS) LRs and returns how
 * many. With evict_active the pending (not active) interrupts come first, else the
 * active ones; then by priority (lower value first), then by INTID. The glue passes
 * evict_active false only where it could not see the guest deactivate an interrupt
 * outside the LRs: a GICv3 CPU without ICH_HCR_EL2.TDIR and a guest in EOImode 1.
 * *maint gets VGIC_MAINT_NPIE when forwardable pending interrupts were left out and at
 * least one LR is pending (when the LRs are all taken by active-only interrupts, these
 * are marked eoi_maint instead: an NPIE would fire at once), VGIC_MAINT_ACTIVE_OUT when
 * active ones were left out. Call it after vgic_sync: what is still in flight since the
 * last flush is not presented again. */
u32 vgic_flush(struct vgic *g, u32 vcpu, struct vgic_lr *lrs, u32 nlrs, bool evict_active,
	       u32 *maint);

/* After an exit of vCPU `vcpu`: the n LRs vgic_flush returned, with the state the
 * hardware left in them (0 once the guest deactivated one), and the hardware's
 * EOIcount where the guest is in EOImode 0 (else 0): that many EOIs of active
 * interrupts outside the LRs. */
void vgic_sync(struct vgic *g, u32 vcpu, const struct vgic_lr *lrs, u32 n, u32 eoicount);

/* A DIR write by vCPU `vcpu` (IHI 0069 ICC_DIR_EL1, IHI 0048B GICC_DIR): deactivates
 * interrupt intid (a GICv2 SGI only if source is its active source). Called after
 * vgic_sync, so the model holds the state of every interrupt. */
void vgic_deactivate(struct vgic *g, u32 vcpu, u32 intid, u32 source);

/* Whether a forwardable pending interrupt waits for vCPU `vcpu` (wakes it from WFI). */
bool vgic_vcpu_has_pending(struct vgic *g, u32 vcpu);

/* Shared by vgic.c and vgic_mmio.c; callers hold g->lock. */
struct vgic_irq *vgic_get_irq(struct vgic *g, u32 vcpu, u32 intid);
u32 vgic_irq_pending_target(const struct vgic *g, const struct vgic_irq *irq);
void vgic_irq_notify(struct vgic *g, const struct vgic_irq *irq, u32 before);
bool vgic_irq_pending(const struct vgic *g, const struct vgic_irq *irq);
bool vgic_is_v2_sgi(const struct vgic *g, const struct vgic_irq *irq);
/* Clears the active state; an SPI outside the LRs is then no vCPU's. Callers notify. */
void vgic_irq_deactivate(struct vgic_irq *irq);
void vgic_v2_sgir_write(struct vgic *g, u32 sender, u32 sgir);

/* GICv2 GICD_SGIR (IHI 0048B 4.3.15) written by vCPU `sender`: the CPU interfaces it
 * targets (bit n = vCPU n; 0 for the reserved filter), before limiting to the VM. */
u32 vgic_v2_sgi_targets(u32 sgir, u32 sender);

#endif
