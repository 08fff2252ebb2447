/* SPDX-License-Identifier: GPL-2.0-only */
/* List registers and the virtual CPU interface. Encodings: GICv3 ICH_LR<n>_EL2 (IHI 0069
 * 12.4.6): vINTID [31:0], EOI [41] (with HW = 0), Priority [55:48], Group [60], State
 * [63:62]; GICv2 GICH_LR<n> (IHI 0048B 5.3.10): VirtualID [9:0], CPUID [12:10] (SGI
 * source), EOI [19], Priority [27:23] (top 5 bits), State [29:28], Grp1 [30]. ICH_HCR /
 * GICH_HCR: En [0], UIE [1], LRENPIE [2], NPIE [3], TDIR [14] (GICv3 with
 * ICH_VTR_EL2.TDS [19]), EOIcount [31:27]. ICH_VMCR / GICH_VMCR: VEOIM [9]. */
#include "arch/arm64/vgic_hw.h"
#include "arch/arm64/gic_host.h"
#include "arch/arm64/pcpu.h"
#include "arch/cpu.h"
#include "hv/arch.h"
#include "hv/lib.h"
#include "hv/sched.h"
#include "hv/vm.h"

#define HCR_EN BIT(0)
#define HCR_LRENPIE BIT(2)
#define HCR_NPIE BIT(3)
#define HCR_TDIR BIT(14)
#define HCR_EOICOUNT(hcr) ((hcr) >> 27)
#define VMCR_VEOIM BIT(9)
#define VTR_TDS BIT(19)
#define GICH_HCR 0x000
#define GICH_VTR 0x004
#define GICH_VMCR 0x008
#define GICH_MISR 0x010
#define GICH_APR 0x0F0
#define GICH_LR 0x100

static u32 nlrs, naprs;
static bool tdir; /* GICv3: DIR traps (ICH_HCR_EL2.TDIR) */

/* ICH_HCR_EL2 / GICH_HCR, written only when it changes: under an emulator each write
 * of a virtual interface register costs as much as a few hundred instructions, and most
 * exits and entries leave it as it was. */
static void write_hcr(struct arch_pcpu *p, u32 hcr)
{
	if (hcr == p->vgic_hcr)
		return;
	p->vgic_hcr = hcr;
	if (gic_host.version == 3)
		write_sysreg(ICH_HCR_EL2, hcr);
	else
		mmio_write32(gic_host.gich + GICH_HCR, hcr);
}

void vgic_hw_init_cpu(void)
{
	struct arch_pcpu *p = &pcpus[arch_pcpu_id()].arch;
	p->vgic_hcr = ~0u; /* unknown: the write below happens */
	u32 vtr = gic_host.version == 3 ? (u32)read_sysreg(ICH_VTR_EL2)
					: mmio_read32(gic_host.gich + GICH_VTR);
	nlrs = MIN((vtr & 0x1F) + 1, VGIC_MAX_LRS);
	tdir = gic_host.version == 3 && (vtr & VTR_TDS);
	/* ICH_VTR_EL2.PRIbits [31:29]: 5 bits of priority need one APR per group, 6 two,
	 * 7 four. */
	naprs = gic_host.version == 3 ? 1u << (MAX((vtr >> 29) + 1, 5u) - 5) : 1;
	write_hcr(p, 0);
}

u32 vgic_hw_nlrs(void) { return nlrs; }

/* clang-format off */
#define LR_CASE(n, crm, op2) \
	case n: \
		if (write) \
			write_sysreg(S3_4_C12_##crm##_##op2, *val); \
		else \
			*val = read_sysreg(S3_4_C12_##crm##_##op2); \
		break;
/* clang-format on */

static void v3_lr(u32 n, bool write, u64 *val)
{
	/* clang-format off */
	switch (n) {
	LR_CASE(0, C12, 0) LR_CASE(1, C12, 1) LR_CASE(2, C12, 2) LR_CASE(3, C12, 3)
	LR_CASE(4, C12, 4) LR_CASE(5, C12, 5) LR_CASE(6, C12, 6) LR_CASE(7, C12, 7)
	LR_CASE(8, C13, 0) LR_CASE(9, C13, 1) LR_CASE(10, C13, 2) LR_CASE(11, C13, 3)
	LR_CASE(12, C13, 4) LR_CASE(13, C13, 5) LR_CASE(14, C13, 6) LR_CASE(15, C13, 7)
	}
	/* clang-format on */
}

static u64 encode(const struct vgic_lr *l)
{
	if (gic_host.version == 3)
		return (u64)l->intid | (l->eoi_maint ? BIT(41) : 0) | (u64)l->priority << 48 |
		       (l->group1 ? BIT(60) : 0) | (u64)(l->state & 3) << 62;
	return (l->intid & 0x3FF) | (u32)(l->source & 7) << 10 | (l->eoi_maint ? BIT(19) : 0) |
	       (u32)(l->priority >> 3) << 23 | (u32)(l->state & 3) << 28 |
	       (l->group1 ? BIT(30) : 0);
}

static void decode(u64 raw, struct vgic_lr *l)
{
	if (gic_host.version == 3) {
		l->state = (u8)(raw >> 62);
	} else {
		l->state = (u8)((raw >> 28) & 3);
		l->source = (u8)((raw >> 10) & 7);
	}
}

static u32 read_vmcr(void)
{
	return gic_host.version == 3 ? (u32)read_sysreg(ICH_VMCR_EL2)
				     : mmio_read32(gic_host.gich + GICH_VMCR);
}

bool vgic_hw_eoi_split(void) { return read_vmcr() & VMCR_VEOIM; }

/* The guest's deactivations outside the LRs are all seen (vgic.h) unless a DIR can
 * neither trap nor be told apart from an EOI in EOIcount: GICv3 without TDIR, with the
 * guest in EOImode 1. There the active interrupts keep their LRs. */
static bool may_evict_active(void) { return gic_host.version == 2 || tdir || !vgic_hw_eoi_split(); }

void vgic_hw_flush(struct vcpu *v)
{
	struct vgic_lr lrs[VGIC_MAX_LRS];
	struct arch_pcpu *p = &pcpus[v->pcpu].arch;
	u32 maint = 0, hcr = HCR_EN;
	u32 n = vgic_flush(&v->vm->arch.vgic, v->id, lrs, nlrs, may_evict_active(), &maint);
	p->vgic_maint = maint;
	for (u32 i = 0; i < n; i++) {
		u64 raw = encode(&lrs[i]);
		if (gic_host.version == 3)
			v3_lr(i, true, &raw);
		else
			mmio_write32(gic_host.gich + GICH_LR + 4 * i, (u32)raw);
		p->vgic_maint |= lrs[i].eoi_maint;
	}
	v->arch.nlrs_used = n;
	memcpy(v->arch.lrs, lrs, n * sizeof lrs[0]);
	v->stats.irqs_injected += n;
	/* More pending than list registers: exit once the guest has taken them all. */
	if (maint & VGIC_MAINT_NPIE)
		hcr |= HCR_NPIE;
	/* Active ones outside: exit on an EOI of one (EOIcount > 0), trap DIR. Setting
	 * LRENPIE writes the register, which clears an EOIcount left from before. */
	if (maint & VGIC_MAINT_ACTIVE_OUT)
		hcr |= HCR_LRENPIE | (tdir ? HCR_TDIR : 0);
	write_hcr(p, hcr);
	isb();
}

/* EOIs of interrupts in no LR since the entry, where they deactivate (EOImode 0): with
 * EOImode 1 an EOI only drops the priority and a DIR traps, yet both count. */
static u32 eoicount(const struct arch_pcpu *p)
{
	u32 n;
	if (!(p->vgic_hcr & HCR_LRENPIE))
		return 0;
	n = HCR_EOICOUNT(gic_host.version == 3 ? (u32)read_sysreg(ICH_HCR_EL2)
					       : mmio_read32(gic_host.gich + GICH_HCR));
	return n && !vgic_hw_eoi_split() ? n : 0;
}

void vgic_hw_sync(struct vcpu *v)
{
	u32 n = v->arch.nlrs_used;
	struct vgic_lr *lrs = v->arch.lrs;
	struct arch_pcpu *p = &pcpus[v->pcpu].arch;
	if (!n && p->vgic_hcr == HCR_EN)
		return; /* nothing in flight, nothing to clear */
	/* Count the maintenance interrupts here: clearing the list registers below drops
	 * the (level) maintenance line, so the host interrupt is seldom still pending. Only
	 * an LR's EOI bit and NPIE can raise one (the other ICH_HCR enables stay clear). */
	if (p->vgic_maint && (gic_host.version == 3 ? read_sysreg(ICH_MISR_EL2)
						    : mmio_read32(gic_host.gich + GICH_MISR)))
		p->maints++;
	u32 eois = eoicount(p);
	for (u32 i = 0; i < n; i++) {
		u64 raw = 0;
		if (gic_host.version == 3) {
			v3_lr(i, false, &raw);
			u64 zero = 0;
			v3_lr(i, true, &zero);
		} else {
			raw = mmio_read32(gic_host.gich + GICH_LR + 4 * i);
			mmio_write32(gic_host.gich + GICH_LR + 4 * i, 0);
		}
		decode(raw, &lrs[i]);
	}
	/* Cleared list registers, EOIcount and no NPIE: the maintenance line drops. */
	write_hcr(p, HCR_EN);
	p->vgic_maint = false;
	isb();
	v->arch.nlrs_used = 0;
	if (n || eois)
		vgic_sync(&v->vm->arch.vgic, v->id, lrs, n, eois);
}

/* ICH_AP0R<n>_EL2 / ICH_AP1R<n>_EL2 (IHI 0069 12.4.1-2): one 32-bit register per 32
 * preemption levels of each group; the registers past what the CPU's priority bits need
 * do not exist. */
/* clang-format off */
#define APR(n) \
	do { \
		if (write) { \
			write_sysreg(S3_4_C12_C8_##n, ap0r[n]); \
			write_sysreg(S3_4_C12_C9_##n, ap1r[n]); \
		} else { \
			ap0r[n] = read_sysreg(S3_4_C12_C8_##n); \
			ap1r[n] = read_sysreg(S3_4_C12_C9_##n); \
		} \
	} while (0)
/* clang-format on */

static void v3_aprs(bool write, u64 *ap0r, u64 *ap1r)
{
	if (naprs == 4) {
		APR(3);
		APR(2);
	}
	if (naprs >= 2)
		APR(1);
	APR(0);
}

void vgic_hw_load(struct vcpu *v)
{
	if (gic_host.version == 3) {
		write_sysreg(ICH_VMCR_EL2, v->arch.vmcr);
		v3_aprs(true, v->arch.ap0r, v->arch.ap1r);
	} else {
		mmio_write32(gic_host.gich + GICH_VMCR, (u32)v->arch.vmcr);
		mmio_write32(gic_host.gich + GICH_APR, (u32)v->arch.ap1r[0]);
	}
}

void vgic_hw_put(struct vcpu *v)
{
	if (gic_host.version == 3) {
		v->arch.vmcr = read_sysreg(ICH_VMCR_EL2);
		v3_aprs(false, v->arch.ap0r, v->arch.ap1r);
	} else {
		v->arch.vmcr = mmio_read32(gic_host.gich + GICH_VMCR);
		v->arch.ap1r[0] = mmio_read32(gic_host.gich + GICH_APR);
	}
}
