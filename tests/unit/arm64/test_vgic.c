/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual GIC (arch/arm64/vgic.c, vgic_mmio.c): the registers Linux 6.1's irq-gic.c
 * and irq-gic-v3.c read and write, routing, SGIs of both versions, LR flush/sync, and
 * a randomized check that interrupts are delivered once, to one vCPU, and never lost. */
#include "../../../arch/arm64/vgic.c"
#include "../../../arch/arm64/vgic_mmio.c"
#include "../test.h"

/* Offsets from the specs, independent of the ones in vgic_mmio.c. */
#define D_CTLR 0x000
#define D_TYPER 0x004
#define D_IIDR 0x008
#define D_TYPER2 0x00C
#define D_IGROUPR 0x080
#define D_ISENABLER 0x100
#define D_ICENABLER 0x180
#define D_ISPENDR 0x200
#define D_ICPENDR 0x280
#define D_ISACTIVER 0x300
#define D_ICACTIVER 0x380
#define D_IPRIORITYR 0x400
#define D_ITARGETSR 0x800
#define D_ICFGR 0xC00
#define D_SGIR 0xF00
#define D_CPENDSGIR 0xF10
#define D_SPENDSGIR 0xF20
#define D_IROUTER(n) (0x6000 + 8 * (n))
#define D_PIDR2 0xFFE8
#define R_FRAME(v) ((u64)(v)*0x20000)
#define R_CTLR 0x0
#define R_IIDR 0x4
#define R_TYPER 0x8
#define R_WAKER 0x14
#define R_PIDR2 0xFFE8
#define R_SGI 0x10000 /* + the GICD offset of IGROUPR0 ... ICFGR1 */

static struct vgic G;
static struct vgic_cpu CPUS[VGIC_MAX_VCPUS];
static u64 kicked;		   /* vCPUs 0-63 kicked since the last clear */
static struct vcpu_set kicked_all; /* every vCPU kicked since the last clear */
static int nkicks;

static void kick(void *ctx, u32 vcpu)
{
	(void)ctx;
	kicked |= vcpu < 64 ? BIT(vcpu) : 0;
	vcpu_set_add(&kicked_all, vcpu);
	nkicks++;
}

static void clear_kicks(void)
{
	kicked = 0;
	memset(&kicked_all, 0, sizeof(kicked_all));
	nkicks = 0;
}

static void setup(int version, u32 nvcpus)
{
	CHECK(vgic_init(&G, version, nvcpus, CPUS, kick, NULL));
	clear_kicks();
}

static u64 drd(u32 vcpu, u32 off, unsigned size)
{
	u64 v = 0xdead;
	CHECK(vgic_dist_access(&G, vcpu, off, size, false, &v));
	return v;
}

static void dwr(u32 vcpu, u32 off, unsigned size, u64 v)
{
	CHECK(vgic_dist_access(&G, vcpu, off, size, true, &v));
}

static u64 rrd(u64 off, unsigned size)
{
	u64 v = 0xdead;
	CHECK(vgic_redist_access(&G, off, size, false, &v));
	return v;
}

static void rwr(u64 off, unsigned size, u64 v)
{
	CHECK(vgic_redist_access(&G, off, size, true, &v));
}

static bool dist_ok(u32 vcpu, u32 off, unsigned size, bool write)
{
	u64 v = 0;
	bool ok = vgic_dist_access(&G, vcpu, off, size, write, &v);
	if (!ok && !write)
		CHECK_EQ(v, 0);
	return ok;
}

static bool redist_ok(u64 off, unsigned size, bool write)
{
	u64 v = 0;
	return vgic_redist_access(&G, off, size, write, &v);
}

/* Routing value naming vCPU n (its MPIDR affinity). */
static u64 route_to(u32 n) { return vcpu_mpidr(n) & MPIDR_AFF_MASK; }

/* One SPI made ready to deliver: enabled, its group on, edge or level. */
static void spi_setup(u32 intid, bool edge, u8 prio)
{
	u32 cfg = (u32)drd(0, D_ICFGR + intid / 16 * 4, 4);

	dwr(0, D_ISENABLER + intid / 32 * 4, 4, BIT(intid % 32));
	dwr(0, D_IPRIORITYR + intid, 1, prio);
	cfg = edge ? cfg | BIT(intid % 16 * 2 + 1) : cfg & ~(u32)BIT(intid % 16 * 2 + 1);
	dwr(0, D_ICFGR + intid / 16 * 4, 4, cfg);
	dwr(0, D_CTLR, 4, 3);
}

static bool guest_ack(struct vgic_lr *lr)
{
	if (lr->state != VGIC_LR_PENDING)
		return false;
	lr->state = VGIC_LR_ACTIVE;
	return true;
}

static void test_init_args(void)
{
	CHECK(!vgic_init(&G, 4, 1, CPUS, kick, NULL));
	CHECK(!vgic_init(&G, 3, 0, CPUS, kick, NULL));
	CHECK(!vgic_init(&G, 3, VGIC_MAX_VCPUS + 1, CPUS, kick, NULL));
	CHECK(!vgic_init(&G, 2, 9, CPUS, kick, NULL));
	CHECK(vgic_init(&G, 2, 8, CPUS, kick, NULL));
	CHECK(vgic_init(&G, 3, VGIC_MAX_VCPUS, CPUS, kick, NULL));
}

/* gic_validate_dist_version(), gic_init_bases(), gic_dist_init() of irq-gic-v3.c. */
static void test_v3_dist_ids(void)
{
	u32 typer;

	setup(3, 4);
	CHECK_EQ(drd(0, D_PIDR2, 4) & 0xF0, 0x30);
	typer = (u32)drd(0, D_TYPER, 4);
	CHECK_EQ(typer & 0x1F, 3);			   /* ITLinesNumber: 128 INTIDs */
	CHECK_EQ((typer >> 19) & 0x1F, 9);		   /* IDbits: 10 bits */
	CHECK_EQ((typer >> 5) & 7, 0);			   /* CPUNumber */
	CHECK_EQ(typer & (BIT(16) | BIT(17) | BIT(8)), 0); /* no MBIS, LPIS, ESPI */
	CHECK_EQ(drd(0, D_TYPER2, 4), 0);
	CHECK_EQ(drd(0, D_IIDR, 4), 0x4800043B);
	CHECK_EQ(drd(0, D_CTLR, 4), 0x50); /* ARE, DS; groups off; RWP 0 */
	dwr(0, D_CTLR, 4, 0);
	dwr(0, D_CTLR, 4, 0x13); /* ARE_NS | EnableGrp1A | EnableGrp1 */
	CHECK_EQ(drd(0, D_CTLR, 4), 0x53);
	/* All 96 SPIs group 1 at reset, SGI/PPI words RAZ/WI under ARE. */
	CHECK_EQ(drd(0, D_IGROUPR + 4, 4), 0xFFFFFFFF);
	CHECK_EQ(drd(0, D_IGROUPR + 12, 4), 0xFFFFFFFF);
	CHECK_EQ(drd(0, D_IGROUPR + 16, 4), 0); /* INTIDs 128-159: none */
	CHECK_EQ(drd(0, D_IGROUPR, 4), 0);
	dwr(0, D_ISENABLER, 4, 0xFFFFFFFF);
	CHECK_EQ(drd(0, D_ISENABLER, 4), 0);
	CHECK_EQ(rrd(R_SGI + D_ISENABLER, 4), 0);
	/* gic_dist_init: SPIs to the boot CPU, 64-bit writes. */
	dwr(0, D_IROUTER(32), 8, route_to(0));
	CHECK_EQ(drd(0, D_IROUTER(32), 8), 0);
	dwr(0, D_IROUTER(127), 8, 0xFFFFFFFFFFFFFFFFull);
	CHECK_EQ(drd(0, D_IROUTER(127), 8), 0xFF80FFFFFFull);
	CHECK_EQ(drd(0, D_IROUTER(127) + 4, 4), 0xFF);
	CHECK_EQ(drd(0, D_IROUTER(127), 4), 0x80FFFFFF);
	CHECK(dist_ok(0, D_IROUTER(1000), 8, false)); /* past the last SPI: RAZ/WI */
	CHECK(!dist_ok(0, D_IROUTER(31), 8, false));  /* reserved */
	CHECK(!dist_ok(0, D_IROUTER(40) + 4, 8, false));
	CHECK(!dist_ok(0, D_IROUTER(40), 2, false));
}

/* __gic_populate_rdist(): walk the frames by PIDR2 and TYPER until Last. */
static void test_v3_redist_typer(void)
{
	static const u32 counts[] = { 1, 2, 17, 72, VGIC_MAX_VCPUS };
	u32 c, v, k;

	for (c = 0; c < ARRAY_SIZE(counts); c++) {
		u32 n = counts[c];

		setup(3, n);
		for (v = 0; v < n; v++) {
			u64 typer = rrd(R_FRAME(v) + R_TYPER, 8);

			CHECK_EQ(rrd(R_FRAME(v) + R_PIDR2, 4) & 0xF0, 0x30);
			CHECK_EQ(typer >> 32, (v / 16) << 8 | v % 16);
			CHECK_EQ((typer >> 8) & 0xFFFF, v);
			CHECK_EQ(!!(typer & BIT(4)), v == n - 1);
			CHECK_EQ(typer & 0xF, 0); /* no PLPIS, VLPIS, DirectLPI */
			CHECK_EQ(rrd(R_FRAME(v) + R_TYPER, 4), (u32)typer);
			CHECK_EQ(rrd(R_FRAME(v) + R_TYPER + 4, 4), typer >> 32);
			CHECK_EQ(rrd(R_FRAME(v) + R_IIDR, 4), 0x4800043B);
			CHECK_EQ(rrd(R_FRAME(v) + R_CTLR, 4), 0);
		}
		CHECK(!redist_ok(R_FRAME(n) + R_PIDR2, 4, false));
		/* Each vCPU finds its own frame the way Linux does. */
		for (k = 0; k < n; k++) {
			u64 m = vcpu_mpidr(k), aff = ((m >> 32) & 0xFF) << 24 | (m & 0xFFFFFF);
			u32 found = ~0u;

			for (v = 0; v < VGIC_MAX_VCPUS; v++) {
				u64 typer = rrd(R_FRAME(v) + R_TYPER, 8);

				if (typer >> 32 == aff) {
					found = v;
					break;
				}
				if (typer & BIT(4))
					break;
			}
			CHECK_EQ(found, k);
		}
	}
	CHECK(!redist_ok(R_TYPER + 4, 8, false));
	CHECK(!redist_ok(R_TYPER, 2, false));
	CHECK(!redist_ok(0x10, 4, false));
	setup(2, 2);
	CHECK(!redist_ok(R_TYPER, 8, false));
}

/* gic_enable_redist(): clear ProcessorSleep, wait for ChildrenAsleep to clear. */
static void test_v3_waker(void)
{
	setup(3, 2);
	CHECK_EQ(rrd(R_FRAME(1) + R_WAKER, 4), 6);
	rwr(R_FRAME(1) + R_WAKER, 4, rrd(R_FRAME(1) + R_WAKER, 4) & ~2ull);
	CHECK_EQ(rrd(R_FRAME(1) + R_WAKER, 4), 0);
	CHECK_EQ(rrd(R_FRAME(0) + R_WAKER, 4), 6);
	rwr(R_FRAME(1) + R_WAKER, 4, 2);
	CHECK_EQ(rrd(R_FRAME(1) + R_WAKER, 4), 6);
}

static void test_set_clear(void)
{
	setup(3, 2);
	/* SPIs 32-63: ISENABLER1 / ICENABLER1 */
	dwr(0, D_ISENABLER + 4, 4, 0x5);
	CHECK_EQ(drd(0, D_ISENABLER + 4, 4), 0x5);
	CHECK_EQ(drd(0, D_ICENABLER + 4, 4), 0x5);
	dwr(0, D_ISENABLER + 4, 4, 0x8);
	dwr(0, D_ICENABLER + 4, 4, 0x1);
	CHECK_EQ(drd(0, D_ISENABLER + 4, 4), 0xC);
	dwr(0, D_ISPENDR + 8, 4, 0x80000001);
	CHECK_EQ(drd(0, D_ICPENDR + 8, 4), 0x80000001);
	dwr(0, D_ICPENDR + 8, 4, 0x1);
	CHECK_EQ(drd(0, D_ISPENDR + 8, 4), 0x80000000);
	dwr(0, D_ISACTIVER + 12, 4, 0x30);
	CHECK_EQ(drd(0, D_ICACTIVER + 12, 4), 0x30);
	dwr(0, D_ICACTIVER + 12, 4, 0xFFFFFFFF);
	CHECK_EQ(drd(0, D_ISACTIVER + 12, 4), 0);
	dwr(0, D_IGROUPR + 4, 4, 0xFFFF0000);
	CHECK_EQ(drd(0, D_IGROUPR + 4, 4), 0xFFFF0000);
	/* A level SPI stays pending while its line is high, whatever ICPENDR says. */
	vgic_set_level(&G, 0, 40, true);
	dwr(0, D_ICPENDR + 4, 4, BIT(8));
	CHECK_EQ(drd(0, D_ISPENDR + 4, 4), BIT(8));
	vgic_set_level(&G, 0, 40, false);
	CHECK_EQ(drd(0, D_ISPENDR + 4, 4), 0);
	/* ICFGR: SPIs read back what was written (gic_configure_irq checks). */
	CHECK_EQ(drd(0, D_ICFGR + 8, 4), 0);
	dwr(0, D_ICFGR + 8, 4, 0xAAAAAAAA);
	CHECK_EQ(drd(0, D_ICFGR + 8, 4), 0xAAAAAAAA);
	dwr(0, D_ICFGR + 8, 4, 0xFFFF0000);
	CHECK_EQ(drd(0, D_ICFGR + 8, 4), 0xAAAA0000);
	/* GICR SGI_base: banked per redistributor. */
	rwr(R_FRAME(1) + R_SGI + D_ISENABLER, 4, 0x0000FFFF); /* GICD_INT_EN_SET_SGI */
	CHECK_EQ(rrd(R_FRAME(1) + R_SGI + D_ISENABLER, 4), 0xFFFF);
	CHECK_EQ(rrd(R_FRAME(0) + R_SGI + D_ICENABLER, 4), 0);
	rwr(R_FRAME(1) + R_SGI + D_ICENABLER, 4, 0x00010001);
	CHECK_EQ(rrd(R_FRAME(1) + R_SGI + D_ISENABLER, 4), 0xFFFE);
	CHECK_EQ(rrd(R_FRAME(1) + R_SGI + D_IGROUPR, 4), 0xFFFFFFFF);
	rwr(R_FRAME(1) + R_SGI + D_ISPENDR, 4, 0x00020004);
	CHECK_EQ(rrd(R_FRAME(1) + R_SGI + D_ICPENDR, 4), 0x00020004);
	CHECK_EQ(rrd(R_FRAME(0) + R_SGI + D_ISPENDR, 4), 0);
	CHECK_EQ(rrd(R_FRAME(1) + R_SGI + D_ICFGR, 4), 0xAAAAAAAA); /* SGIs: edge */
	rwr(R_FRAME(1) + R_SGI + D_ICFGR, 4, 0);
	CHECK_EQ(rrd(R_FRAME(1) + R_SGI + D_ICFGR, 4), 0xAAAAAAAA);
	CHECK_EQ(rrd(R_FRAME(1) + R_SGI + D_ICFGR + 4, 4), 0); /* PPIs: level */
	rwr(R_FRAME(1) + R_SGI + D_ICFGR + 4, 4, 0x8);
	CHECK_EQ(rrd(R_FRAME(1) + R_SGI + D_ICFGR + 4, 4), 0x8);
	/* Not registers, or not at that size. */
	CHECK(!redist_ok(R_SGI + D_ISENABLER + 4, 4, false));
	CHECK(!redist_ok(R_SGI + D_IPRIORITYR + 32, 4, false));
	CHECK(!redist_ok(R_SGI + D_ICFGR + 8, 4, false));
	CHECK(!redist_ok(R_SGI + 0x0, 4, false));
	CHECK(!dist_ok(0, D_ISENABLER + 4, 2, false));
	CHECK(!dist_ok(0, D_ISENABLER + 4, 1, false));
	CHECK(!dist_ok(0, D_ISENABLER + 5, 4, false));
	CHECK(!dist_ok(0, D_ISENABLER + 4, 8, false));
	CHECK(!dist_ok(0, D_ICFGR, 1, true));
	CHECK(!dist_ok(0, D_CTLR, 8, false));
	CHECK(!dist_ok(0, D_CTLR, 0, false));
	CHECK(!dist_ok(0, 0x10, 4, false));
	CHECK(!dist_ok(0, D_ITARGETSR + 32, 4, false)); /* v3 */
	CHECK(!dist_ok(0, D_SGIR, 4, true));		/* v3 */
	CHECK(!dist_ok(0, 0x10000, 4, false));
	CHECK(!dist_ok(2, D_CTLR, 4, false));		 /* no such vCPU */
	CHECK(dist_ok(0, D_ISENABLER + 0x20, 4, false)); /* INTIDs 256-287: RAZ/WI */
	CHECK(dist_ok(0, D_PIDR2, 4, true));		 /* RO: write ignored */
	CHECK_EQ(drd(0, D_PIDR2, 4) & 0xF0, 0x30);
}

static void test_priority_bytes(void)
{
	setup(3, 2);
	dwr(0, D_IPRIORITYR + 33, 1, 0xA0);
	CHECK_EQ(drd(0, D_IPRIORITYR + 32, 4), 0x0000A000);
	dwr(0, D_IPRIORITYR + 36, 4, 0x11223344);
	CHECK_EQ(drd(0, D_IPRIORITYR + 36, 1), 0x44);
	CHECK_EQ(drd(0, D_IPRIORITYR + 39, 1), 0x11);
	dwr(0, D_IPRIORITYR + 38, 1, 0x1FF); /* only the byte counts */
	CHECK_EQ(drd(0, D_IPRIORITYR + 36, 4), 0x11FF3344);
	CHECK(!dist_ok(0, D_IPRIORITYR + 36, 2, false));
	CHECK(!dist_ok(0, D_IPRIORITYR + 37, 4, false));
	CHECK_EQ(drd(0, D_IPRIORITYR, 4), 0); /* private: RAZ/WI in the GICD */
	rwr(R_FRAME(1) + R_SGI + D_IPRIORITYR + 3, 1, 0x80);
	CHECK_EQ(rrd(R_FRAME(1) + R_SGI + D_IPRIORITYR, 4), 0x80000000);
	CHECK_EQ(rrd(R_FRAME(0) + R_SGI + D_IPRIORITYR, 4), 0);
	rwr(R_FRAME(0) + R_SGI + D_IPRIORITYR + 28, 4, 0xA0A0A0A0); /* GICD_INT_DEF_PRI_X4 */
	CHECK_EQ(rrd(R_FRAME(0) + R_SGI + D_IPRIORITYR + 31, 1), 0xA0);
	/* GICv2: banked bytes for INTIDs 0-31. */
	setup(2, 2);
	dwr(0, D_IPRIORITYR + 5, 1, 0x10);
	dwr(1, D_IPRIORITYR + 5, 1, 0x20);
	CHECK_EQ(drd(0, D_IPRIORITYR + 4, 4), 0x1000);
	CHECK_EQ(drd(1, D_IPRIORITYR + 4, 4), 0x2000);
}

/* IROUTER picks the vCPU by affinity; a pending SPI follows its routing. */
static void test_irouter_routing(void)
{
	struct vgic_lr lr[4];
	u32 ovf;

	setup(3, 20);
	spi_setup(40, false, 0x80);
	dwr(0, D_IROUTER(40), 8, route_to(17)); /* Aff1 = 1, Aff0 = 1 */
	CHECK_EQ(drd(0, D_IROUTER(40), 8), 0x101);
	kicked = 0;
	vgic_set_level(&G, 0, 40, true);
	CHECK_EQ(kicked, BIT(17));
	CHECK(vgic_vcpu_has_pending(&G, 17));
	CHECK(!vgic_vcpu_has_pending(&G, 0));
	kicked = 0;
	dwr(0, D_IROUTER(40), 4, 3); /* low half: vCPU 3 */
	CHECK_EQ(kicked, BIT(3));
	CHECK(!vgic_vcpu_has_pending(&G, 17));
	CHECK(vgic_vcpu_has_pending(&G, 3));
	/* No such vCPU: it waits in the distributor. */
	kicked = 0;
	dwr(0, D_IROUTER(40), 8, 0x500); /* Aff1 = 5: vCPU 80 */
	dwr(0, D_IROUTER(40) + 4, 4, 0);
	CHECK_EQ(kicked, 0);
	for (u32 v = 0; v < 20; v++)
		CHECK(!vgic_vcpu_has_pending(&G, v));
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 0);
	dwr(0, D_IROUTER(40), 8, BIT(32) | 2); /* Aff3 = 1: nobody */
	CHECK_EQ(kicked, 0);
	dwr(0, D_IROUTER(40), 8, VGIC_IROUTER_IRM | 5); /* 1 of N: vCPU 0 */
	CHECK_EQ(kicked, BIT(0));
	kicked = 0;
	dwr(0, D_IROUTER(40), 8, route_to(2));
	CHECK_EQ(kicked, BIT(2));
	/* In flight on vCPU 2: re-routing leaves it there; vCPU 2's exit hands it on. */
	CHECK_EQ(vgic_flush(&G, 2, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].intid, 40);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING);
	CHECK(lr[0].eoi_maint);
	CHECK(lr[0].group1);
	kicked = 0;
	dwr(0, D_IROUTER(40), 8, route_to(5));
	CHECK_EQ(kicked, 0);
	CHECK_EQ(vgic_flush(&G, 5, lr + 1, 3, true, &ovf), 0);
	vgic_sync(&G, 2, lr, 1, 0);
	CHECK_EQ(kicked, BIT(5));
	CHECK_EQ(vgic_flush(&G, 2, lr, 4, true, &ovf), 0);
	CHECK_EQ(vgic_flush(&G, 5, lr, 4, true, &ovf), 1);
	/* Acknowledged there: active, it stays on vCPU 5 whatever the routing says. */
	lr[0].state = VGIC_LR_ACTIVE;
	vgic_sync(&G, 5, lr, 1, 0);
	dwr(0, D_IROUTER(40), 8, route_to(6));
	CHECK_EQ(vgic_flush(&G, 6, lr, 4, true, &ovf), 0);
	CHECK_EQ(vgic_flush(&G, 5, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING | VGIC_LR_ACTIVE); /* line still high */
	vgic_set_level(&G, 0, 40, false);
	lr[0].state = 0; /* deactivated */
	kicked = 0;
	vgic_sync(&G, 5, lr, 1, 0);
	CHECK_EQ(kicked, 0);
	CHECK_EQ(vgic_flush(&G, 5, lr, 4, true, &ovf), 0);
	CHECK_EQ(vgic_flush(&G, 6, lr, 4, true, &ovf), 0);
	vgic_set_level(&G, 0, 40, true);
	CHECK_EQ(kicked, BIT(6));
	/* Active on vCPU 6, then deactivated through ICACTIVER: routing applies again. */
	CHECK_EQ(vgic_flush(&G, 6, lr, 4, true, &ovf), 1);
	CHECK(guest_ack(&lr[0]));
	vgic_sync(&G, 6, lr, 1, 0);
	kicked = 0;
	dwr(0, D_IROUTER(40), 8, route_to(7));
	CHECK_EQ(kicked, 0);
	dwr(0, D_ICACTIVER + 4, 4, BIT(8));
	CHECK_EQ(kicked, BIT(7));
	CHECK_EQ(vgic_flush(&G, 6, lr, 4, true, &ovf), 0);
	CHECK_EQ(vgic_flush(&G, 7, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING);
}

/* A second flush without the sync in between presents nothing twice. */
static void test_inflight_once(void)
{
	struct vgic_lr lr[4];
	u32 ovf;

	setup(3, 1);
	spi_setup(33, true, 0);
	rwr(R_SGI + D_ISENABLER, 4, BIT(16));
	rwr(R_SGI + D_ISPENDR, 4, BIT(16));
	vgic_inject_edge(&G, 0, 33);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 2);
	CHECK_EQ(vgic_flush(&G, 0, lr + 2, 2, true, &ovf), 0);
	vgic_sync(&G, 0, lr, 2, 0);
	vgic_sync(&G, 0, lr, 2, 0); /* twice: the second finds nothing in flight */
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 2);
	lr[0].state = lr[1].state = 0;
	vgic_sync(&G, 0, lr, 2, 0);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 0);
	CHECK_EQ(vgic_flush(&G, 0, lr, 0, true, &ovf), 0);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 0); /* no such vCPU */
}

/* GICv2: ITARGETSR bytes, gic_get_cpumask(), and SPI routing to the lowest target. */
static void test_v2_dist(void)
{
	struct vgic_lr lr[4];
	u32 ovf;
	u32 v, i, mask;

	setup(2, 4);
	CHECK_EQ(drd(0, D_PIDR2, 4) & 0xF0, 0x20);
	CHECK_EQ(drd(0, D_TYPER, 4) & 0xFF, 3 | 3 << 5); /* ITLinesNumber, CPUNumber */
	CHECK_EQ(drd(0, D_CTLR, 4), 0);
	dwr(0, D_CTLR, 4, 0xFFFFFFFF);
	CHECK_EQ(drd(0, D_CTLR, 4), 3);
	CHECK_EQ(drd(0, D_IGROUPR + 4, 4), 0); /* group 0 at reset */
	CHECK(!dist_ok(0, D_TYPER2, 4, false));
	CHECK(!dist_ok(0, D_IROUTER(40), 8, false));
	for (v = 0; v < 4; v++) {
		for (i = 0, mask = 0; i < 32; i += 4) {
			u32 m = (u32)drd(v, D_ITARGETSR + i, 4);
			mask |= m | m >> 16;
			mask |= mask >> 8;
		}
		CHECK_EQ(mask & 0xFF, BIT(v));
	}
	dwr(1, D_ITARGETSR + 4, 4, 0xFFFFFFFF); /* read-only */
	CHECK_EQ(drd(1, D_ITARGETSR + 4, 4), 0x02020202);
	dwr(0, D_ITARGETSR + 33, 1, 0x0C);
	CHECK_EQ(drd(0, D_ITARGETSR + 32, 4), 0x0C00);
	dwr(0, D_ITARGETSR + 34, 1, 0xF0); /* CPUs 4-7 absent */
	CHECK_EQ(drd(0, D_ITARGETSR + 34, 1), 0);
	spi_setup(33, true, 0);
	kicked = 0;
	vgic_inject_edge(&G, 0, 33);
	CHECK_EQ(kicked, BIT(2));
	CHECK_EQ(vgic_flush(&G, 3, lr, 4, true, &ovf), 0);
	CHECK_EQ(vgic_flush(&G, 2, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].intid, 33);
	CHECK(!lr[0].group1);
	CHECK(!lr[0].eoi_maint); /* edge */
	lr[0].state = 0;
	vgic_sync(&G, 2, lr, 1, 0);
	/* No target: stays pending until ITARGETSR names one. */
	dwr(0, D_ITARGETSR + 33, 1, 0);
	kicked = 0;
	vgic_inject_edge(&G, 0, 33);
	CHECK_EQ(kicked, 0);
	CHECK_EQ(drd(0, D_ISPENDR + 4, 4), BIT(1));
	dwr(0, D_ITARGETSR + 33, 1, 0x0A);
	CHECK_EQ(kicked, BIT(1));
	/* Banked GICD words: each vCPU sees its own SGIs and PPIs. */
	dwr(1, D_ISENABLER, 4, 0x0001FFFF);
	CHECK_EQ(drd(1, D_ISENABLER, 4), 0x0001FFFF);
	CHECK_EQ(drd(0, D_ISENABLER, 4), 0);
	dwr(1, D_ICFGR + 4, 4, 0x2);
	CHECK_EQ(drd(1, D_ICFGR + 4, 4), 0x2);
	CHECK_EQ(drd(0, D_ICFGR + 4, 4), 0);
	CHECK_EQ(drd(0, D_ICFGR, 4), 0xAAAAAAAA);
}

static void test_v3_sgi_targets(void)
{
	struct vcpu_set mask;
	u32 v;

	/* TargetList 0b101, Aff1 0, INTID 5 */
	CHECK_EQ(vgic_v3_sgi_targets(5ull << 24 | 0x5, 0, 20, &mask), 5);
	CHECK_EQ(mask.w[0], BIT(0) | BIT(2));
	/* Aff1 = 1: vCPUs 16-31; 20 and up do not exist. */
	CHECK_EQ(vgic_v3_sgi_targets(1ull << 16 | BIT(3) | BIT(4) | 0xF0, 0, 20, &mask), 0);
	CHECK_EQ(mask.w[0], BIT(19));
	CHECK_EQ(vgic_v3_sgi_targets(1ull << 16 | 0xF, 0, 20, &mask), 0);
	CHECK_EQ(mask.w[0], 0xFull << 16);
	/* RS = 1: Aff0 16-31, which no vCPU has. */
	vgic_v3_sgi_targets(1ull << 44 | 0xFFFF, 0, 20, &mask);
	CHECK_EQ(mask.w[0], 0);
	/* Aff2 or Aff3 set: nobody. */
	vgic_v3_sgi_targets(1ull << 32 | 0x1, 0, 20, &mask);
	CHECK_EQ(mask.w[0], 0);
	vgic_v3_sgi_targets(1ull << 48 | 0x1, 0, 20, &mask);
	CHECK_EQ(mask.w[0], 0);
	/* IRM: everyone but the sender; the target list is ignored. */
	CHECK_EQ(vgic_v3_sgi_targets(BIT(40) | 15ull << 24 | 0x1, 7, 20, &mask), 15);
	CHECK_EQ(mask.w[0], (BIT(20) - 1) & ~BIT(7));
	vgic_v3_sgi_targets(BIT(40), 63, 64, &mask);
	CHECK_EQ(mask.w[0], ~0ull >> 1);
	vgic_v3_sgi_targets(BIT(40), 0, 1, &mask);
	CHECK_EQ(mask.w[0], 0);
	/* Linux's gic_send_sgi() for CPU 33 (Aff1 = 2, Aff0 = 1) with 40 vCPUs. */
	vgic_v3_sgi_targets(2ull << 16 | 1ull << 24 | BIT(1), 0, 40, &mask);
	CHECK_EQ(mask.w[0], BIT(33));

	/* Through the model: pending at the targets only, which alone are kicked. */
	setup(3, 20);
	dwr(0, D_CTLR, 4, 2);
	rwr(R_FRAME(19) + R_SGI + D_ISENABLER, 4, 0xFFFF);
	rwr(R_FRAME(2) + R_SGI + D_ISENABLER, 4, 0xFFFF);
	kicked = 0;
	vgic_v3_send_sgi(&G, 0, 1ull << 16 | 3ull << 24 | BIT(3));
	CHECK_EQ(kicked, BIT(19));
	CHECK_EQ(rrd(R_FRAME(19) + R_SGI + D_ISPENDR, 4), BIT(3));
	CHECK_EQ(rrd(R_FRAME(3) + R_SGI + D_ISPENDR, 4), 0);
	/* A disabled SGI becomes pending but wakes nobody. */
	kicked = 0;
	vgic_v3_send_sgi(&G, 0, 4ull << 24 | BIT(3));
	CHECK_EQ(kicked, 0);
	CHECK_EQ(rrd(R_FRAME(3) + R_SGI + D_ISPENDR, 4), BIT(4));
	vgic_v3_send_sgi(&G, 20, 4ull << 24 | BIT(2)); /* no such sender */
	CHECK_EQ(rrd(R_FRAME(2) + R_SGI + D_ISPENDR, 4), 0);
	vgic_v3_send_sgi(&G, 5, BIT(40) | 6ull << 24);
	CHECK_EQ(kicked, BIT(2) | BIT(19));
	CHECK_EQ(rrd(R_FRAME(5) + R_SGI + D_ISPENDR, 4), 0);
	CHECK_EQ(rrd(R_FRAME(0) + R_SGI + D_ISPENDR, 4), BIT(6));

	/* ICC_SGI0R_EL1: Group 0 SGIs, taken only where that SGI is Group 0 (a guest's
	 * write used to get UNDEF: found by a64fuzz). */
	setup(3, 4);
	dwr(0, D_CTLR, 4, 3);
	for (v = 1; v < 4; v++)
		rwr(R_FRAME(v) + R_SGI + D_ISENABLER, 4, 0xFFFF);
	rwr(R_FRAME(1) + R_SGI + D_IGROUPR, 4, ~BIT(5)); /* SGI 5: Group 0 at vCPU 1 */
	rwr(R_FRAME(2) + R_SGI + D_IGROUPR, 4, ~0u);	 /* Group 1 at vCPU 2 */
	kicked = 0;
	CHECK_EQ(vgic_v3_send_sgi0(&G, 0, 5ull << 24 | BIT(1) | BIT(2)), 1);
	CHECK_EQ(kicked, BIT(1));
	CHECK_EQ(rrd(R_FRAME(1) + R_SGI + D_ISPENDR, 4), BIT(5));
	CHECK_EQ(rrd(R_FRAME(2) + R_SGI + D_ISPENDR, 4), 0);
	/* all but self (IRM): Group 0 at vCPUs 0 (disabled: pending, not kicked) and 3 */
	rwr(R_FRAME(0) + R_SGI + D_IGROUPR, 4, 0);
	rwr(R_FRAME(3) + R_SGI + D_IGROUPR, 4, 0);
	kicked = 0;
	CHECK_EQ(vgic_v3_send_sgi0(&G, 1, BIT(40) | 7ull << 24), 2);
	CHECK_EQ(kicked, BIT(3));
	CHECK_EQ(rrd(R_FRAME(0) + R_SGI + D_ISPENDR, 4), BIT(7));
	CHECK_EQ(rrd(R_FRAME(3) + R_SGI + D_ISPENDR, 4), BIT(7));
	CHECK_EQ(rrd(R_FRAME(2) + R_SGI + D_ISPENDR, 4), 0);
	/* Group 1 SGIs through ICC_SGI1R_EL1 still reach every target. */
	CHECK_EQ(vgic_v3_send_sgi(&G, 0, 5ull << 24 | BIT(1) | BIT(2)), 2);
	CHECK_EQ(rrd(R_FRAME(2) + R_SGI + D_ISPENDR, 4), BIT(5));
}

/* vCPUs past 64 (Aff1 4-15): SGI target lists in several clusters, "all but self"
 * (IRM), SPI routing and GICD_CTLR's kicks reach them; the others stay untouched. */
static void test_v3_wide(void)
{
	const u32 n = VGIC_MAX_VCPUS, sender = 100;
	struct vcpu_set t;
	struct vgic_lr lr[4];
	u32 v, count, ovf;

	/* Linux's gic_send_sgi() per cluster: Aff1 4 (vCPUs 64-79), Aff1 15 (240-254:
	 * Aff0 15 there would be vCPU 255, which no VM has). */
	CHECK_EQ(vgic_v3_sgi_targets(4ull << 16 | 2ull << 24 | BIT(0) | BIT(9), 0, n, &t), 2);
	CHECK_EQ(t.w[0], 0);
	CHECK_EQ(t.w[1], BIT(0) | BIT(9));
	vgic_v3_sgi_targets(15ull << 16 | 0xFFFF, 0, n, &t);
	CHECK_EQ(t.w[3], (BIT(15) - 1) << 48);
	CHECK_EQ(t.w[0] | t.w[1] | t.w[2], 0);
	/* IRM with 255 vCPUs: 254 targets, every word. */
	vgic_v3_sgi_targets(BIT(40), sender, n, &t);
	for (v = 0, count = 0; v < n; v++)
		count += vcpu_set_has(&t, v);
	CHECK_EQ(count, n - 1);
	CHECK(!vcpu_set_has(&t, sender));
	CHECK(vcpu_set_has(&t, 0) && vcpu_set_has(&t, 64) && vcpu_set_has(&t, n - 1));

	setup(3, n);
	dwr(0, D_CTLR, 4, 2);
	for (v = 0; v < n; v++)
		rwr(R_FRAME(v) + R_SGI + D_ISENABLER, 4, 0xFFFF);
	clear_kicks();
	/* Two clusters past 64 in turn: pending at those targets only. */
	CHECK_EQ(vgic_v3_send_sgi(&G, 0, 5ull << 16 | 1ull << 24 | BIT(3)), 1);
	CHECK_EQ(vgic_v3_send_sgi(&G, 0, 12ull << 16 | 1ull << 24 | BIT(14)), 1);
	CHECK_EQ(kicked, 0);
	CHECK_EQ(kicked_all.w[1], BIT(83 - 64));
	CHECK_EQ(kicked_all.w[3], BIT(206 - 192));
	CHECK_EQ(nkicks, 2);
	CHECK_EQ(rrd(R_FRAME(83) + R_SGI + D_ISPENDR, 4), BIT(1));
	CHECK_EQ(rrd(R_FRAME(206) + R_SGI + D_ISPENDR, 4), BIT(1));
	CHECK_EQ(rrd(R_FRAME(82) + R_SGI + D_ISPENDR, 4), 0);
	/* All but self, from vCPU 100: every other vCPU, each kicked once. */
	clear_kicks();
	CHECK_EQ(vgic_v3_send_sgi(&G, sender, BIT(40) | 7ull << 24), n - 1);
	CHECK_EQ(nkicks, (int)n - 1);
	CHECK(!vcpu_set_has(&kicked_all, sender));
	CHECK_EQ(rrd(R_FRAME(sender) + R_SGI + D_ISPENDR, 4), 0);
	CHECK_EQ(rrd(R_FRAME(n - 1) + R_SGI + D_ISPENDR, 4), BIT(7));
	CHECK_EQ(rrd(R_FRAME(64) + R_SGI + D_ISPENDR, 4), BIT(7));
	CHECK(vgic_vcpu_has_pending(&G, n - 1));

	/* GICD_IROUTER to vCPU 200 (Aff1 12, Aff0 8): it alone gets the SPI. */
	setup(3, n);
	spi_setup(40, false, 0x80);
	dwr(0, D_IROUTER(40), 8, route_to(200));
	CHECK_EQ(drd(0, D_IROUTER(40), 8), 0xC08);
	clear_kicks();
	vgic_set_level(&G, 0, 40, true);
	CHECK_EQ(nkicks, 1);
	CHECK(vcpu_set_has(&kicked_all, 200));
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 0);
	CHECK_EQ(vgic_flush(&G, 8, lr, 4, true, &ovf), 0);
	CHECK_EQ(vgic_flush(&G, 200, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].intid, 40);

	/* Groups enabled last: GICD_CTLR kicks vCPU 250, which has one waiting. */
	setup(3, n);
	rwr(R_FRAME(250) + R_SGI + D_ISENABLER, 4, BIT(2));
	vgic_v3_send_sgi(&G, 0, 15ull << 16 | 2ull << 24 | BIT(10));
	clear_kicks();
	dwr(0, D_CTLR, 4, 2);
	CHECK_EQ(nkicks, 1);
	CHECK(vcpu_set_has(&kicked_all, 250));
}

/* GICD_SGIR filters and the per-source pending bytes. */
static void test_v2_sgir(void)
{
	u32 v;

	setup(2, 4);
	dwr(0, D_CTLR, 4, 1);
	for (v = 0; v < 4; v++)
		dwr(v, D_ISENABLER, 4, 0xFFFF);
	kicked = 0;
	dwr(0, D_SGIR, 4, 0x6 << 16 | 3); /* list: CPUs 1, 2 */
	CHECK_EQ(kicked, BIT(1) | BIT(2));
	CHECK_EQ(drd(1, D_SPENDSGIR + 3, 1), 0x01);
	CHECK_EQ(drd(2, D_SPENDSGIR, 4), 0x01000000);
	CHECK_EQ(drd(0, D_SPENDSGIR, 4), 0);
	CHECK_EQ(drd(1, D_ISPENDR, 4), BIT(3));
	kicked = 0;
	dwr(2, D_SGIR, 4, 1 << 24 | 0xFF << 16 | 4); /* all but self */
	CHECK_EQ(kicked, BIT(0) | BIT(1) | BIT(3));
	CHECK_EQ(drd(3, D_CPENDSGIR + 4, 1), BIT(2));
	CHECK_EQ(drd(2, D_CPENDSGIR + 4, 1), 0);
	kicked = 0;
	dwr(3, D_SGIR, 4, 2 << 24 | 0x1 << 16 | 5); /* self only */
	CHECK_EQ(kicked, BIT(3));
	CHECK_EQ(drd(3, D_SPENDSGIR + 5, 1), BIT(3));
	CHECK_EQ(drd(0, D_SPENDSGIR + 5, 1), 0);
	kicked = 0;
	dwr(0, D_SGIR, 4, 3 << 24 | 0xFF << 16 | 6); /* reserved filter */
	dwr(0, D_SGIR, 4, 0xF0 << 16 | 6);	     /* CPUs 4-7 absent */
	CHECK_EQ(kicked, 0);
	for (v = 0; v < 4; v++)
		CHECK_EQ(drd(v, D_SPENDSGIR + 4, 4) & 0xFF0000, 0);
	/* A second source for SGI 3 on CPU 1; ISPENDR0 cannot touch SGIs. */
	dwr(3, D_SGIR, 4, 0x2 << 16 | 3);
	CHECK_EQ(drd(1, D_SPENDSGIR + 3, 1), 0x09);
	dwr(1, D_ICPENDR, 4, 0xFFFF);
	dwr(1, D_ISPENDR, 4, BIT(7));
	CHECK_EQ(drd(1, D_ISPENDR, 4), BIT(3) | BIT(4));
	dwr(1, D_CPENDSGIR + 3, 1, 0x01);
	CHECK_EQ(drd(1, D_SPENDSGIR + 3, 1), 0x08);
	kicked = 0;
	dwr(0, D_SPENDSGIR, 4, 0xF0F00300); /* SGI 1 from CPUs 0, 1; absent CPUs dropped */
	CHECK_EQ(kicked, BIT(0));
	CHECK_EQ(drd(0, D_SPENDSGIR, 4), 0x00000300);
	CHECK_EQ(drd(0, D_SGIR, 4), 0);
	/* ISACTIVER0 makes an SGI active with the writer as its source. */
	{
		struct vgic_lr lr[4];
		u32 ovf;

		dwr(2, D_ISACTIVER, 4, BIT(9));
		CHECK_EQ(drd(2, D_ISACTIVER, 4), BIT(9));
		CHECK_EQ(vgic_flush(&G, 2, lr, 4, true, &ovf), 2);
		CHECK_EQ(lr[0].intid, 3);
		CHECK_EQ(lr[0].source, 0);
		CHECK_EQ(lr[1].intid, 9);
		CHECK_EQ(lr[1].state, VGIC_LR_ACTIVE);
		CHECK_EQ(lr[1].source, 2);
	}
	CHECK(!dist_ok(0, D_SPENDSGIR + 1, 2, false));
	CHECK(!dist_ok(0, D_SGIR, 1, true));
}

/* Two sources of one SGI: two LRs in turn, each with its source; an active
 * instance keeps its source in the LR and holds the others back. */
static void test_v2_sgi_sources(void)
{
	struct vgic_lr lr[4];
	u32 ovf;

	setup(2, 4);
	dwr(0, D_CTLR, 4, 1);
	dwr(1, D_ISENABLER, 4, 0xFFFF);
	dwr(0, D_SGIR, 4, 0x2 << 16 | 1);
	dwr(2, D_SGIR, 4, 0x2 << 16 | 1);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].intid, 1);
	CHECK_EQ(lr[0].source, 0);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING);
	CHECK(lr[0].eoi_maint); /* source 2 waits for the deactivation */
	CHECK(!ovf);
	CHECK(guest_ack(&lr[0]));
	lr[0].state = 0;
	vgic_sync(&G, 1, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].source, 2);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING);
	CHECK(!lr[0].eoi_maint);
	/* Exit before the guest took it: back to pending from source 2. */
	vgic_sync(&G, 1, lr, 1, 0);
	CHECK_EQ(drd(1, D_SPENDSGIR + 1, 1), BIT(2));
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].source, 2);
	CHECK(guest_ack(&lr[0]));
	/* While source 2's instance is active, sources 0 and 2 send again. */
	dwr(0, D_SGIR, 4, 0x2 << 16 | 1);
	dwr(2, D_SGIR, 4, 0x2 << 16 | 1);
	vgic_sync(&G, 1, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].source, 2);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING | VGIC_LR_ACTIVE);
	CHECK(lr[0].eoi_maint);
	lr[0].state = VGIC_LR_PENDING; /* guest deactivated the first */
	vgic_sync(&G, 1, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].source, 0);
	CHECK(guest_ack(&lr[0]));
	vgic_sync(&G, 1, lr, 1, 0);
	/* Source 0 active, only source 2 pending: the LR shows the active one alone. */
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].source, 0);
	CHECK_EQ(lr[0].state, VGIC_LR_ACTIVE);
	CHECK(lr[0].eoi_maint);
	CHECK(vgic_vcpu_has_pending(&G, 1));
	lr[0].state = 0;
	vgic_sync(&G, 1, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].source, 2);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING);
	CHECK(guest_ack(&lr[0]));
	lr[0].state = 0;
	vgic_sync(&G, 1, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 0);
	CHECK(!vgic_vcpu_has_pending(&G, 1));
}

/* Six pending SPIs, four LRs: priority order, overflow, then the active ones. */
static void test_flush_order_overflow(void)
{
	static const u8 prio[6] = { 0x80, 0x20, 0x40, 0x20, 0xA0, 0x10 };
	struct vgic_lr lr[4];
	u32 ovf;
	u32 i;

	setup(3, 1);
	for (i = 0; i < 6; i++) {
		spi_setup(32 + i, true, prio[i]);
		vgic_inject_edge(&G, 0, 32 + i);
	}
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 4);
	CHECK_EQ(ovf, VGIC_MAINT_NPIE);
	CHECK_EQ(lr[0].intid, 37);
	CHECK_EQ(lr[1].intid, 33);
	CHECK_EQ(lr[2].intid, 35);
	CHECK_EQ(lr[3].intid, 34);
	CHECK_EQ(lr[3].priority, 0x40);
	for (i = 0; i < 4; i++) {
		CHECK_EQ(lr[i].state, VGIC_LR_PENDING);
		CHECK(!lr[i].eoi_maint);
		CHECK(guest_ack(&lr[i]));
	}
	vgic_sync(&G, 0, lr, 4, 0);
	/* Four active, two pending: the pending ones first, then the highest-priority
	 * active ones; the rest wait outside (no NPIE: no pending one is left out). */
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 4);
	CHECK_EQ(ovf, VGIC_MAINT_ACTIVE_OUT);
	CHECK_EQ(lr[0].intid, 32);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING);
	CHECK_EQ(lr[1].intid, 36);
	CHECK_EQ(lr[1].state, VGIC_LR_PENDING);
	CHECK_EQ(lr[2].intid, 37);
	CHECK_EQ(lr[2].state, VGIC_LR_ACTIVE);
	CHECK_EQ(lr[3].intid, 33);
	CHECK_EQ(lr[3].state, VGIC_LR_ACTIVE);
	for (i = 0; i < 4; i++)
		CHECK(!lr[i].eoi_maint);
	/* EOImode 0: the guest ends 37 (in an LR), then 35 (outside: EOIcount 1, the
	 * highest priority outside, before 34). */
	lr[2].state = 0;
	vgic_sync(&G, 0, lr, 4, 1);
	CHECK_EQ(drd(0, D_ISACTIVER + 4, 4), BIT(1) | BIT(2));
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 4);
	CHECK_EQ(ovf, 0);
	CHECK_EQ(lr[2].intid, 33);
	CHECK_EQ(lr[3].intid, 34);
	/* More EOIs counted than active ones outside: the rest of the count finds none. */
	lr[2].state = 0;
	lr[3].state = 0;
	vgic_sync(&G, 0, lr, 4, 5);
	CHECK_EQ(drd(0, D_ISACTIVER + 4, 4), 0);
	CHECK_EQ(drd(0, D_ISPENDR + 4, 4), BIT(0) | BIT(4));
	/* Without evict_active an active one goes first even at the lowest priority. */
	setup(3, 1);
	for (i = 0; i < 6; i++) {
		spi_setup(32 + i, true, prio[i]);
		vgic_inject_edge(&G, 0, 32 + i);
	}
	dwr(0, D_IPRIORITYR + 38, 1, 0xF0);
	dwr(0, D_ISENABLER + 4, 4, BIT(6));
	dwr(0, D_ISACTIVER + 4, 4, BIT(6));
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, false, &ovf), 4);
	CHECK_EQ(ovf, VGIC_MAINT_NPIE);
	CHECK_EQ(lr[0].intid, 38);
	CHECK_EQ(lr[0].state, VGIC_LR_ACTIVE);
	CHECK_EQ(lr[1].intid, 37);
	CHECK_EQ(lr[3].intid, 35);
	vgic_sync(&G, 0, lr, 4, 0);
	/* With it, the pending ones. */
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 4);
	CHECK_EQ(ovf, VGIC_MAINT_NPIE | VGIC_MAINT_ACTIVE_OUT);
	CHECK_EQ(lr[0].intid, 37);
	CHECK_EQ(lr[3].intid, 34);
	vgic_sync(&G, 0, lr, 4, 0);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, false, &ovf), 4);
	CHECK_EQ(lr[0].intid, 38);
	/* Disabled or group-disabled: active still goes back, pending does not. */
	dwr(0, D_ISPENDR + 4, 4, BIT(6));
	dwr(0, D_ICENABLER + 4, 4, 0xFF);
	vgic_sync(&G, 0, lr, 4, 0);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].state, VGIC_LR_ACTIVE);
	CHECK(!ovf);
	CHECK(!vgic_vcpu_has_pending(&G, 0));
	vgic_sync(&G, 0, lr, 1, 0);
	dwr(0, D_ISENABLER + 4, 4, 0xFF);
	dwr(0, D_CTLR, 4, 1); /* group 1 off */
	CHECK(!vgic_vcpu_has_pending(&G, 0));
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 1);
	vgic_sync(&G, 0, lr, 1, 0);
	kicked = 0;
	nkicks = 0;
	dwr(0, D_CTLR, 4, 3);
	CHECK_EQ(kicked, BIT(0));
	CHECK_EQ(nkicks, 1);
}

/* Issue 13: interrupts a guest sets active and never deactivates, more than there are
 * LRs, keep no pending one out; they wait outside and can still be deactivated. */
static void test_active_hold(void)
{
	struct vgic_lr lr[4];
	u32 ovf, i;

	setup(3, 2);
	dwr(0, D_CTLR, 4, 2);
	rwr(R_FRAME(1) + R_SGI + D_ISENABLER, 4, 0xFFFF);
	for (i = 0; i < 4; i++)
		rwr(R_FRAME(1) + R_SGI + D_IPRIORITYR + 4 * i, 4, 0x80808080);
	rwr(R_FRAME(1) + R_SGI + D_ISACTIVER, 4, 0x3F00); /* SGIs 8-13 */
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 4);
	CHECK_EQ(ovf, VGIC_MAINT_ACTIVE_OUT);
	vgic_sync(&G, 1, lr, 4, 0);
	/* A pending SGI, lower priority than the active ones, gets an LR. */
	rwr(R_FRAME(1) + R_SGI + D_IPRIORITYR, 1, 0xC0);
	vgic_v3_send_sgi(&G, 0, BIT(1));
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 4);
	CHECK_EQ(ovf, VGIC_MAINT_ACTIVE_OUT);
	CHECK_EQ(lr[0].intid, 0);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING);
	for (i = 1; i < 4; i++) {
		CHECK_EQ(lr[i].intid, 7 + i);
		CHECK_EQ(lr[i].state, VGIC_LR_ACTIVE);
	}
	CHECK(guest_ack(&lr[0]));
	vgic_sync(&G, 1, lr, 4, 0);
	/* Acknowledged, it keeps an LR before the higher-priority ones ISACTIVER set. */
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 4);
	CHECK_EQ(lr[0].intid, 0);
	CHECK_EQ(lr[0].state, VGIC_LR_ACTIVE);
	CHECK_EQ(lr[1].intid, 8);
	vgic_sync(&G, 1, lr, 4, 0);
	/* Outside the LRs (one LR, taken by a pending SGI) it is the one an EOI ends: the
	 * others hold no running priority. */
	vgic_v3_send_sgi(&G, 0, 1ull << 24 | BIT(1));
	CHECK_EQ(vgic_flush(&G, 1, lr, 1, true, &ovf), 1);
	CHECK_EQ(lr[0].intid, 1);
	vgic_sync(&G, 1, lr, 1, 1);
	CHECK_EQ(rrd(R_FRAME(1) + R_SGI + D_ISACTIVER, 4), 0x3F00);
	/* A DIR (trapped) of one outside the LRs, one of another vCPU's, an unknown one. */
	vgic_deactivate(&G, 1, 13, 0);
	vgic_deactivate(&G, 0, 12, 0);
	vgic_deactivate(&G, 1, 1020, 0);
	CHECK_EQ(rrd(R_FRAME(1) + R_SGI + D_ISACTIVER, 4), 0x1F00);
	/* GICD_ICACTIVER of the rest: none left, SGI 1 still pending. */
	rwr(R_FRAME(1) + R_SGI + D_ICACTIVER, 4, 0x1F00);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].intid, 1);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING);
	CHECK_EQ(ovf, 0);
}

/* DIR of an SPI: it leaves its vCPU, and the vCPU its routing names now gets its
 * pending state; a GICv2 SGI only for its active source. */
static void test_deactivate(void)
{
	struct vgic_lr lr[4];
	u32 ovf;

	setup(3, 2);
	spi_setup(40, false, 0x80);
	vgic_set_level(&G, 0, 40, true);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 1);
	CHECK(guest_ack(&lr[0]));
	vgic_sync(&G, 0, lr, 1, 0);
	dwr(0, D_IROUTER(40), 8, route_to(1));
	kicked = 0;
	vgic_deactivate(&G, 0, 40, 0);
	CHECK_EQ(kicked, BIT(1));
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].intid, 40);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING);
	vgic_sync(&G, 1, lr, 1, 0);

	setup(2, 2);
	dwr(0, D_CTLR, 4, 1);
	dwr(1, D_ISENABLER, 4, 0xFFFF);
	dwr(0, D_SGIR, 4, 0x2 << 16 | 3);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	CHECK(guest_ack(&lr[0]));
	vgic_sync(&G, 1, lr, 1, 0);
	vgic_deactivate(&G, 1, 3, 1); /* not its source */
	CHECK_EQ(drd(1, D_ISACTIVER, 4), BIT(3));
	vgic_deactivate(&G, 1, 3, 0);
	CHECK_EQ(drd(1, D_ISACTIVER, 4), 0);
}

/* An edge that comes again while the first is active: pending + active. */
static void test_edge_retrigger(void)
{
	struct vgic_lr lr[4];
	u32 ovf;

	setup(3, 2);
	spi_setup(50, true, 0x40);
	dwr(0, D_IROUTER(50), 8, route_to(1));
	vgic_inject_edge(&G, 0, 50);
	vgic_inject_edge(&G, 0, 50); /* merged */
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING);
	CHECK(!vgic_vcpu_has_pending(&G, 1));
	CHECK(guest_ack(&lr[0]));
	kicked = 0;
	vgic_inject_edge(&G, 0, 50);
	CHECK_EQ(kicked, BIT(1)); /* the vCPU that has it, to present it again */
	vgic_sync(&G, 1, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 0);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING | VGIC_LR_ACTIVE);
	lr[0].state = VGIC_LR_PENDING; /* EOI */
	vgic_sync(&G, 1, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING);
	CHECK(guest_ack(&lr[0]));
	lr[0].state = 0;
	vgic_sync(&G, 1, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 0);
	/* Injected while in flight and still pending there: one delivery. */
	vgic_inject_edge(&G, 0, 50);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	vgic_inject_edge(&G, 0, 50);
	vgic_sync(&G, 1, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING);
	lr[0].state = 0;
	vgic_sync(&G, 1, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 0);
	/* A rising line on an edge-triggered PPI latches it once. */
	rwr(R_FRAME(0) + R_SGI + D_ISENABLER, 4, BIT(20));
	rwr(R_FRAME(0) + R_SGI + D_ICFGR + 4, 4, BIT(9));
	vgic_set_level(&G, 0, 20, true);
	vgic_set_level(&G, 0, 20, true);
	vgic_set_level(&G, 0, 20, false);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].intid, 20);
	lr[0].state = 0;
	vgic_sync(&G, 0, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 0);
}

/* Level-sensitive: the line decides; soft pending is consumed by the acknowledge. */
static void test_level(void)
{
	struct vgic_lr lr[4];
	u32 ovf;

	setup(3, 1);
	spi_setup(60, false, 0);
	vgic_set_level(&G, 0, 60, true);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING);
	CHECK(lr[0].eoi_maint);
	/* The line drops before the guest acknowledges: not presented again. */
	vgic_set_level(&G, 0, 60, false);
	vgic_sync(&G, 0, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 0);
	CHECK(!vgic_vcpu_has_pending(&G, 0));
	/* Acknowledged with the line still high: active and pending. */
	vgic_set_level(&G, 0, 60, true);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 1);
	CHECK(guest_ack(&lr[0]));
	vgic_sync(&G, 0, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING | VGIC_LR_ACTIVE);
	vgic_set_level(&G, 0, 60, false); /* the handler quiets the device */
	vgic_sync(&G, 0, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].state, VGIC_LR_ACTIVE);
	lr[0].state = 0;
	vgic_sync(&G, 0, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 0);
	/* Soft pending (ISPENDR) with the line low: survives an exit, not an ack. */
	dwr(0, D_ISPENDR + 4, 4, BIT(28));
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 1);
	vgic_sync(&G, 0, lr, 1, 0);
	CHECK_EQ(drd(0, D_ISPENDR + 4, 4), BIT(28));
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 1);
	CHECK(guest_ack(&lr[0]));
	vgic_sync(&G, 0, lr, 1, 0);
	CHECK_EQ(drd(0, D_ISPENDR + 4, 4), 0);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].state, VGIC_LR_ACTIVE);
	/* ... but a soft pend that comes while it is in flight stays. */
	dwr(0, D_ISPENDR + 4, 4, BIT(28));
	lr[0].state = 0;
	vgic_sync(&G, 0, lr, 1, 0);
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 1);
	CHECK_EQ(lr[0].state, VGIC_LR_PENDING);
	/* PPIs are level at reset; the bank is the vCPU given. */
	setup(3, 2);
	dwr(0, D_CTLR, 4, 2);
	rwr(R_FRAME(1) + R_SGI + D_ISENABLER, 4, BIT(27));
	vgic_set_level(&G, 1, 27, true);
	CHECK_EQ(kicked, BIT(1));
	CHECK_EQ(vgic_flush(&G, 0, lr, 4, true, &ovf), 0);
	CHECK_EQ(vgic_flush(&G, 1, lr, 4, true, &ovf), 1);
	CHECK(lr[0].eoi_maint);
	/* SGIs and unknown INTIDs are no device inputs. */
	vgic_set_level(&G, 0, 3, true);
	vgic_inject_edge(&G, 0, 3);
	vgic_inject_edge(&G, 0, 128);
	vgic_set_level(&G, 2, 20, true);
	CHECK_EQ(rrd(R_FRAME(0) + R_SGI + D_ISPENDR, 4), 0);
}

/* Kicks go to the vCPU that should take the interrupt, once, and only when it can. */
static void test_kick(void)
{
	setup(3, 4);
	rwr(R_FRAME(2) + R_SGI + D_ISENABLER, 4, BIT(20));
	vgic_set_level(&G, 2, 20, true);
	CHECK_EQ(kicked, 0); /* group 1 not enabled yet */
	dwr(0, D_CTLR, 4, 2);
	CHECK_EQ(kicked, BIT(2));
	CHECK_EQ(nkicks, 1);
	vgic_set_level(&G, 2, 20, true);
	CHECK_EQ(nkicks, 1);
	rwr(R_FRAME(2) + R_SGI + D_ICENABLER, 4, BIT(20));
	vgic_set_level(&G, 2, 20, false);
	vgic_set_level(&G, 2, 20, true);
	CHECK_EQ(nkicks, 1);
	rwr(R_FRAME(2) + R_SGI + D_ISENABLER, 4, BIT(20));
	CHECK_EQ(nkicks, 2);
	/* Group 0 interrupt while only group 1 is on. */
	kicked = 0;
	rwr(R_FRAME(3) + R_SGI + D_IGROUPR, 4, ~BIT(21));
	rwr(R_FRAME(3) + R_SGI + D_ISENABLER, 4, BIT(21));
	vgic_inject_edge(&G, 3, 21);
	CHECK_EQ(kicked, 0);
	CHECK(!vgic_vcpu_has_pending(&G, 3));
	rwr(R_FRAME(3) + R_SGI + D_IGROUPR, 4, 0xFFFFFFFF);
	CHECK_EQ(kicked, BIT(3));
}

/* ---- randomized model check ---- */

#define R_VCPUS 3
#define R_LRS 4
#define R_KEYS (R_VCPUS * VGIC_NR_IRQS * 8)

struct sim_cpu {
	bool running;
	struct vgic_lr lr[R_LRS];
	u32 n;
	u32 eoicount; /* EOIs of interrupts in none of its LRs, since the entry */
};

static struct sim_cpu sim[R_VCPUS];
static bool line[R_VCPUS][VGIC_NR_IRQS];
/* What the guest on each vCPU has acknowledged and not deactivated: source + 1. */
static u8 guest_active[R_VCPUS][VGIC_NR_IRQS];
static long eois_outside; /* r_eoi_outside's, in all runs */
/* Per edge interrupt instance (SPI, or private interrupt of a vCPU, or v2 SGI
 * source): injections, deliveries, and injections that found it already pending
 * in the model (must merge) or pending in an LR (may merge). */
static long injected[R_KEYS], delivered[R_KEYS], merged_model[R_KEYS], merged_lr[R_KEYS];
static u64 rng_state;

static u32 rnd(u32 n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (u32)(rng_state % n);
}

static u32 key(u32 vcpu, u32 intid, u32 src)
{
	return ((intid < VGIC_NR_PRIVATE ? vcpu : 0) * VGIC_NR_IRQS + intid) * 8 + src;
}

/* The interrupts used: SGIs 0-3, PPIs 16, 17 (edge) and 18 (level), SPIs 32-39 (edge)
 * and 40-43 (level). */
#define R_EDGE_SPI(i) ((i) >= 32 && (i) < 40)

/* Whether an instance is pending as the registers show it (in the model). */
static bool model_pending(int version, u32 vcpu, u32 intid, u32 src)
{
	if (version == 2 && intid < VGIC_NR_SGIS)
		return drd(vcpu, D_SPENDSGIR + intid, 1) & BIT(src);
	if (version == 3 && intid < VGIC_NR_PRIVATE)
		return rrd(R_FRAME(vcpu) + R_SGI + D_ISPENDR, 4) & BIT(intid);
	return drd(vcpu, D_ISPENDR + intid / 32 * 4, 4) & BIT(intid % 32);
}

static bool lr_pending(int version, u32 vcpu, u32 intid, u32 src)
{
	for (u32 v = 0; v < R_VCPUS; v++) {
		if (!sim[v].running || (intid < VGIC_NR_PRIVATE && v != vcpu))
			continue;
		for (u32 i = 0; i < sim[v].n; i++) {
			const struct vgic_lr *l = &sim[v].lr[i];

			if (l->intid == intid && (l->state & VGIC_LR_PENDING) &&
			    (version == 3 || intid >= VGIC_NR_SGIS || l->source == src))
				return true;
		}
	}
	return false;
}

static void account_injection(int version, u32 vcpu, u32 intid, u32 src)
{
	u32 k = key(vcpu, intid, src);

	injected[k]++;
	if (model_pending(version, vcpu, intid, src))
		merged_model[k]++;
	else if (lr_pending(version, vcpu, intid, src))
		merged_lr[k]++;
}

static void r_inject(int version)
{
	u32 v = rnd(R_VCPUS), intid = rnd(3) ? 32 + rnd(8) : 16 + rnd(2);

	account_injection(version, v, intid, 0);
	vgic_inject_edge(&G, v, intid);
}

static void r_sgi(int version)
{
	u32 sender = rnd(R_VCPUS), intid = rnd(4), list = rnd(1u << R_VCPUS), t;
	struct vcpu_set mask;

	if (version == 3) {
		u64 sgi = (u64)intid << 24 | list;

		if (!rnd(4))
			sgi |= BIT(40);
		vgic_v3_sgi_targets(sgi, sender, R_VCPUS, &mask);
		for_each_vcpu_in(t, &mask, R_VCPUS) account_injection(version, t, intid, 0);
		vgic_v3_send_sgi(&G, sender, sgi);
	} else {
		for (t = 0; t < R_VCPUS; t++)
			if (list & BIT(t))
				account_injection(version, t, intid, sender);
		dwr(sender, D_SGIR, 4, list << 16 | intid);
	}
}

static void r_level(void)
{
	u32 v = rnd(R_VCPUS), intid = rnd(2) ? 40 + rnd(4) : 18;
	bool level = rnd(2);

	if (intid >= VGIC_NR_PRIVATE)
		for (u32 w = 0; w < R_VCPUS; w++)
			line[w][intid] = level;
	else
		line[v][intid] = level;
	vgic_set_level(&G, v, intid, level);
}

static bool is_edge(u32 intid) { return intid < 18 || R_EDGE_SPI(intid); }

static void r_ack(int version, u32 v, u32 i)
{
	struct vgic_lr *l = &sim[v].lr[i];
	u32 k = key(v, l->intid, version == 2 && l->intid < VGIC_NR_SGIS ? l->source : 0);

	if (!guest_ack(l))
		return;
	CHECK_EQ(guest_active[v][l->intid], 0);
	guest_active[v][l->intid] = l->source + 1;
	delivered[k]++;
	if (is_edge(l->intid))
		CHECK(delivered[k] <= injected[k] - merged_model[k]);
}

static void r_eoi(u32 v, u32 i)
{
	struct vgic_lr *l = &sim[v].lr[i];

	if (l->state & VGIC_LR_ACTIVE)
		guest_active[v][l->intid] = 0;
	l->state &= ~VGIC_LR_ACTIVE;
}

/* The guest ends, with an EOI in EOImode 0, an interrupt it acknowledged that is in
 * none of its LRs: the hardware only counts it. It picks the one the architecture's
 * EOI order names (the highest priority), which is what the model must end. */
static void r_eoi_outside(u32 v)
{
	u32 intid, i, best = VGIC_NR_IRQS;

	for (intid = 0; intid < VGIC_NR_IRQS; intid++) {
		for (i = 0; i < sim[v].n && sim[v].lr[i].intid != intid; i++)
			;
		if (!guest_active[v][intid] || i < sim[v].n)
			continue;
		if (best == VGIC_NR_IRQS ||
		    vgic_get_irq(&G, v, intid)->priority < vgic_get_irq(&G, v, best)->priority)
			best = intid;
	}
	if (best < VGIC_NR_IRQS) {
		guest_active[v][best] = 0;
		sim[v].eoicount++;
		eois_outside++;
	}
}

static void r_exit(u32 v)
{
	vgic_sync(&G, v, sim[v].lr, sim[v].n, sim[v].eoicount);
	sim[v].eoicount = 0;
	sim[v].running = false;
}

/* Every in-flight interrupt in one LR only, across all vCPUs. */
static void check_exclusive(void)
{
	static u8 seen[R_VCPUS][VGIC_NR_IRQS];

	memset(seen, 0, sizeof(seen));
	for (u32 v = 0; v < R_VCPUS; v++) {
		if (!sim[v].running)
			continue;
		for (u32 i = 0; i < sim[v].n; i++) {
			u32 intid = sim[v].lr[i].intid;

			CHECK(intid < VGIC_NR_IRQS);
			if (intid >= VGIC_NR_IRQS)
				continue;
			CHECK_EQ(seen[intid < VGIC_NR_PRIVATE ? v : 0][intid]++, 0);
		}
	}
}

static void r_enter(u32 v)
{
	u32 ovf;

	sim[v].n = vgic_flush(&G, v, sim[v].lr, R_LRS, true, &ovf);
	sim[v].running = true;
	for (u32 i = 0; i < sim[v].n; i++) {
		const struct vgic_lr *l = &sim[v].lr[i];

		CHECK(l->state);
		/* active only where the guest acknowledged it, with that source */
		if (l->state & VGIC_LR_ACTIVE)
			CHECK_EQ(guest_active[v][l->intid], l->source + 1);
		/* a level interrupt is presented pending only while its line is high */
		if (!is_edge(l->intid) && (l->state & VGIC_LR_PENDING))
			CHECK(line[v][l->intid]);
	}
	check_exclusive();
}

static void r_reroute(int version)
{
	u32 intid = 32 + rnd(12), t = rnd(R_VCPUS + 1);

	if (version == 3)
		dwr(0, D_IROUTER(intid), 8, t == R_VCPUS ? 0x300 : route_to(t));
	else
		dwr(0, D_ITARGETSR + intid, 1, t == R_VCPUS ? 0 : rnd(8) | BIT(t));
}

static void r_enable(void)
{
	u32 intid = 32 + rnd(12);

	dwr(0, (rnd(2) ? D_ISENABLER : D_ICENABLER) + 4, 4, BIT(intid - 32));
}

static void enable_all(int version)
{
	for (u32 v = 0; v < R_VCPUS; v++) {
		if (version == 3)
			rwr(R_FRAME(v) + R_SGI + D_ISENABLER, 4, 0x7000F);
		else
			dwr(v, D_ISENABLER, 4, 0x7000F);
	}
	dwr(0, D_ISENABLER + 4, 4, 0xFFF);
}

static void route_all(int version)
{
	for (u32 intid = 32; intid < 44; intid++) {
		if (version == 3)
			dwr(0, D_IROUTER(intid), 8, route_to(intid % R_VCPUS));
		else
			dwr(0, D_ITARGETSR + intid, 1, BIT(intid % R_VCPUS));
	}
}

static void random_run(int version, u64 seed, u32 steps)
{
	bool hp[R_VCPUS], was_running[R_VCPUS];
	u32 v, i, s, k, round;

	setup(version, R_VCPUS);
	memset(sim, 0, sizeof(sim));
	memset(line, 0, sizeof(line));
	memset(guest_active, 0, sizeof(guest_active));
	memset(injected, 0, sizeof(injected));
	memset(delivered, 0, sizeof(delivered));
	memset(merged_model, 0, sizeof(merged_model));
	memset(merged_lr, 0, sizeof(merged_lr));
	rng_state = seed;
	dwr(0, D_CTLR, 4, 3);
	enable_all(version);
	route_all(version);
	dwr(0, D_ICFGR + 8, 4, 0xAAAA); /* SPIs 32-39 edge, 40-43 level */
	for (v = 0; v < R_VCPUS; v++) {
		if (version == 3)
			rwr(R_FRAME(v) + R_SGI + D_ICFGR + 4, 4, 0xA); /* PPIs 16, 17 edge */
		else
			dwr(v, D_ICFGR + 4, 4, 0xA);
		for (i = 0; i < 20; i++)
			if (version == 3)
				rwr(R_FRAME(v) + R_SGI + D_IPRIORITYR + i, 1, rnd(4) << 6);
			else
				dwr(v, D_IPRIORITYR + i, 1, rnd(4) << 6);
	}
	for (i = 32; i < 44; i++)
		dwr(0, D_IPRIORITYR + i, 1, rnd(4) << 6);

	for (s = 0; s < steps; s++) {
		u32 r = rnd(100);

		v = rnd(R_VCPUS);
		for (u32 w = 0; w < R_VCPUS; w++) {
			hp[w] = vgic_vcpu_has_pending(&G, w);
			was_running[w] = sim[w].running;
		}
		kicked = 0;
		if (r < 12)
			r_inject(version);
		else if (r < 18)
			r_sgi(version);
		else if (r < 24)
			r_level();
		else if (r < 48 && sim[v].running && sim[v].n)
			r_ack(version, v, rnd(sim[v].n));
		else if (r < 59 && sim[v].running && sim[v].n)
			r_eoi(v, rnd(sim[v].n));
		else if (r < 62 && sim[v].running)
			r_eoi_outside(v);
		else if (r < 74 && sim[v].running)
			r_exit(v);
		else if (r < 90 && !sim[v].running)
			r_enter(v);
		else if (r < 96)
			r_reroute(version);
		else
			r_enable();
		/* Whoever newly has something to take while running was kicked. */
		for (u32 w = 0; w < R_VCPUS; w++)
			if (was_running[w] && sim[w].running && !hp[w] &&
			    vgic_vcpu_has_pending(&G, w))
				CHECK(kicked & BIT(w));
	}

	/* Drain: everything routable and enabled, lines low, the guests take all. */
	for (u32 intid = 18; intid < 44; intid++)
		for (v = 0; v < R_VCPUS; v++)
			if (!is_edge(intid) && (intid >= 40 || intid == 18))
				vgic_set_level(&G, v, intid, false);
	memset(line, 0, sizeof(line));
	enable_all(version);
	route_all(version);
	for (round = 0; round < 200; round++) {
		u32 total = 0;

		for (v = 0; v < R_VCPUS; v++) {
			if (sim[v].running) {
				for (i = 0; i < sim[v].n; i++) {
					while (sim[v].lr[i].state) {
						r_eoi(v, i);
						r_ack(version, v, i);
						r_eoi(v, i);
					}
				}
				r_exit(v);
			}
			r_enter(v);
			total += sim[v].n;
		}
		if (!total)
			break;
	}
	CHECK(round < 200);
	for (v = 0; v < R_VCPUS; v++)
		CHECK(!vgic_vcpu_has_pending(&G, v));
	for (k = 0; k < R_KEYS; k++) {
		u32 intid = (k / 8) % VGIC_NR_IRQS;

		if (!is_edge(intid))
			continue;
		CHECK(delivered[k] >= injected[k] - merged_model[k] - merged_lr[k]);
		CHECK(delivered[k] <= injected[k] - merged_model[k]);
	}
}

static void test_random(void)
{
	long inj = 0, del = 0;

	for (u64 seed = 1; seed <= 16; seed++) {
		random_run(seed & 1 ? 3 : 2, seed * 0x9E3779B97F4A7C15ull, 25000);
		for (u32 k = 0; k < R_KEYS; k++) {
			inj += injected[k];
			del += delivered[k];
		}
	}
	/* The run did something. */
	CHECK(inj > 10000);
	CHECK(del > 5000);
	CHECK(eois_outside > 1000);
	printf("random: %ld edge injections, %ld deliveries, %ld EOIs outside the LRs\n", inj, del,
	       eois_outside);
}

int main(void)
{
	test_init_args();
	test_v3_dist_ids();
	test_v3_redist_typer();
	test_v3_waker();
	test_set_clear();
	test_priority_bytes();
	test_irouter_routing();
	test_inflight_once();
	test_v2_dist();
	test_v3_sgi_targets();
	test_v3_wide();
	test_v2_sgir();
	test_v2_sgi_sources();
	test_flush_order_overflow();
	test_active_hold();
	test_deactivate();
	test_edge_retrigger();
	test_level();
	test_kick();
	test_random();
	return test_summary();
}
