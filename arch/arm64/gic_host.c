/* SPDX-License-Identifier: GPL-2.0-only */
/* The host GIC driver. IHI 0069 (GICv3) 12.1 distributor, 12.10 redistributor, 12.2 CPU
 * interface registers; IHI 0048B (GICv2) 4.3 distributor, 4.4 CPU interface. */
#include "arch/arm64/gic_host.h"
#include "arch/cpu.h"
#include "hv/arch.h"
#include "hv/vm.h"

struct gic_host gic_host;

#define GICD_CTLR 0x0000
#define GICD_TYPER 0x0004
#define GICD_IGROUPR 0x0080
#define GICD_ICENABLER 0x0180
#define GICD_ISENABLER 0x0100
#define GICD_IPRIORITYR 0x0400
#define GICD_SGIR 0xF00
#define GICC_CTLR 0x0000
#define GICC_PMR 0x0004
#define GICC_IAR 0x000C
#define GICC_EOIR 0x0010
#define GICR_STRIDE 0x20000
#define GICR_TYPER 0x0008
#define GICR_WAKER 0x0014
#define GICR_SGI 0x10000 /* SGI_base frame: IGROUPR0 0x80, ISENABLER0 0x100, ICENABLER0 0x180 */
#define GICR_TYPER_LAST BIT(4)

static u64 gicr_of_pcpu[MAX_PCPUS];
static u64 mpidr_of_pcpu[MAX_PCPUS];
static u8 v2_cpuif_of_pcpu[MAX_PCPUS];

static u32 private_bits(void)
{
	return BIT(INTID_KICK) | BIT(INTID_MAINT) | BIT(INTID_HYP_TIMER) | BIT(INTID_VTIMER);
}

void gic_host_init(void)
{
	u64 d = gic_host.gicd;
	u32 lines = ((mmio_read32(d + GICD_TYPER) & 0x1F) + 1) * 32;
	for (u32 i = 32; i < lines && i < 1020; i += 32)
		mmio_write32(d + GICD_ICENABLER + i / 8, ~0u); /* no device interrupt reaches us */
	if (gic_host.version == 3)
		mmio_write32(d + GICD_CTLR, BIT(4) | BIT(1)); /* ARE_NS, EnableGrp1NS */
	else
		mmio_write32(d + GICD_CTLR, 1);
}

/* v3: the redistributor whose GICR_TYPER.Affinity matches this CPU's MPIDR. */
static u64 find_redistributor(u64 mpidr)
{
	u64 aff = ((mpidr >> 8) & 0xFF000000) | (mpidr & 0xFFFFFF); /* Aff3.Aff2.Aff1.Aff0 */
	for (u64 r = gic_host.gicr_base; r < gic_host.gicr_base + gic_host.gicr_len;
	     r += GICR_STRIDE) {
		u64 typer = mmio_read32(r + GICR_TYPER) | (u64)mmio_read32(r + GICR_TYPER + 4)
								  << 32;
		if ((typer >> 32) == aff)
			return r;
		if (typer & GICR_TYPER_LAST)
			break;
	}
	return 0;
}

void gic_host_init_cpu(u32 pcpu, u64 mpidr)
{
	mpidr_of_pcpu[pcpu] = mpidr;
	if (gic_host.version == 3) {
		u64 r = find_redistributor(mpidr);
		gicr_of_pcpu[pcpu] = r;
		mmio_write32(r + GICR_WAKER, mmio_read32(r + GICR_WAKER) & ~BIT(1));
		while (mmio_read32(r + GICR_WAKER) & BIT(2))
			cpu_relax();
		mmio_write32(r + GICR_SGI + 0x180, ~0u); /* ICENABLER0 */
		mmio_write32(r + GICR_SGI + 0x80, ~0u);	 /* IGROUPR0: group 1 */
		for (u32 i = 0; i < 32; i += 4)
			mmio_write32(r + GICR_SGI + 0x400 + i, 0x80808080); /* IPRIORITYR */
		mmio_write32(r + GICR_SGI + 0x100, private_bits());	    /* ISENABLER0 */
		write_sysreg(ICC_SRE_EL2,
			     read_sysreg(ICC_SRE_EL2) | 0x9); /* SRE, Enable (EL1 may use SRE) */
		isb();
		write_sysreg(ICC_PMR_EL1, 0xFF);
		write_sysreg(ICC_CTLR_EL1, 0); /* EOImode 0: EOI drops priority and deactivates */
		write_sysreg(ICC_IGRPEN1_EL1, 1);
		isb();
	} else {
		u64 d = gic_host.gicd;
		/* ITARGETSR0 reads as this CPU's own interface bit (IHI 0048B 4.3.12). */
		u32 self = mmio_read32(d + 0x800) & 0xFF;
		v2_cpuif_of_pcpu[pcpu] = (u8)__builtin_ctz(self ? self : 1);
		mmio_write32(d + GICD_ICENABLER, ~0u);
		for (u32 i = 0; i < 32; i += 4)
			mmio_write32(d + GICD_IPRIORITYR + i, 0x80808080);
		mmio_write32(d + GICD_ISENABLER, private_bits());
		mmio_write32(gic_host.gicc + GICC_PMR, 0xFF);
		mmio_write32(gic_host.gicc + GICC_CTLR, 1);
	}
}

u32 gic_host_ack(void)
{
	if (gic_host.version == 3) {
		u32 v = (u32)read_sysreg(ICC_IAR1_EL1) & 0xFFFFFF;
		__asm__ volatile("dsb sy" ::: "memory");
		return v;
	}
	return mmio_read32(gic_host.gicc + GICC_IAR); /* SGIs keep the source in [12:10] */
}

void gic_host_eoi(u32 intid)
{
	if (gic_host.version == 3) {
		write_sysreg(ICC_EOIR1_EL1, intid);
		isb();
	} else {
		mmio_write32(gic_host.gicc + GICC_EOIR, intid);
	}
}

void gic_host_send_sgi(u32 pcpu, u32 sgi)
{
	dsb_ish(); /* what the target will look at is visible before the interrupt */
	if (gic_host.version == 3) {
		u64 m = mpidr_of_pcpu[pcpu];
		u64 v = ((m >> 32) & 0xFF) << 48 | ((m >> 16) & 0xFF) << 32 |
			((m >> 8) & 0xFF) << 16 | (u64)((m & 0xFF) / 16) << 44 | (u64)sgi << 24 |
			BIT(m & 0xF);
		write_sysreg(ICC_SGI1R_EL1, v);
		isb();
	} else {
		mmio_write32(gic_host.gicd + GICD_SGIR, BIT(16 + v2_cpuif_of_pcpu[pcpu]) | sgi);
	}
}

void gic_host_ppi_enable(u32 intid, bool on)
{
	u64 base = gic_host.version == 3 ? gicr_of_pcpu[arch_pcpu_id()] + GICR_SGI : gic_host.gicd;
	mmio_write32(base + (on ? GICD_ISENABLER : GICD_ICENABLER), BIT(intid));
}
