/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual local APIC: register semantics in x2APIC and xAPIC mode (MMIO window), mode
 * switches, priorities, EOI, ICR, destinations, timer. */
#include "../../../arch/x86/irq/vlapic.c"
#include "../test.h"

static struct vlapic_ipi last_ipi;
static int nipis;
static u8 eoi_vecs[16];
static int neois;

static void mock_send_ipi(void *ctx, const struct vlapic_ipi *ipi)
{
	(void)ctx;
	last_ipi = *ipi;
	nipis++;
}

static void mock_eoi_level(void *ctx, u8 vector)
{
	(void)ctx;
	if (neois < (int)ARRAY_SIZE(eoi_vecs))
		eoi_vecs[neois] = vector;
	neois++;
}

static const struct vlapic_ops mock_ops = { mock_send_ipi, mock_eoi_level };

/* The register page of the one vlapic a test uses at a time. */
static u32 page[PAGE_SIZE / 4] __attribute__((aligned(PAGE_SIZE)));

static u64 rd(struct vlapic *l, u32 msr, u64 now)
{
	u64 v = 0xdeadbeef;
	int rc = vlapic_rdmsr(l, msr, &v, now);

	CHECK_EQ(rc, 0);
	return v;
}

static int gp_rd(struct vlapic *l, u32 msr)
{
	u64 v = 0x1234;

	return vlapic_rdmsr(l, msr, &v, 0) == -1 && v == 0x1234;
}

#define WR(l, msr, val, now) CHECK_EQ(vlapic_wrmsr(l, msr, val, now), 0)
#define GP_WR(l, msr, val) CHECK_EQ(vlapic_wrmsr(l, msr, val, 0), -1)

/* The APIC switched from its power-up xAPIC mode to x2APIC mode, as Linux does at boot
 * (the tests use the MSRs). */
static void to_x2apic(struct vlapic *l)
{
	WR(l, MSR_IA32_APIC_BASE,
	   APIC_DEFAULT_BASE | APIC_BASE_EN | APIC_BASE_EXTD | (l->apic_base & APIC_BASE_BSP), 0);
}

/* A vCPU with the APIC in x2APIC mode, software-enabled (SVR = 0x1FF). */
static void setup(struct vlapic *l, u32 id, u64 tsc_hz)
{
	vlapic_init(l, page, id, id == 0, 48, tsc_hz, &mock_ops, NULL);
	to_x2apic(l);
	WR(l, 0x80f, 0x1ff, 0);
	nipis = 0;
	neois = 0;
}

static void test_mul_div(void)
{
	CHECK_EQ(mul_div(1000, 2000000000ull, VLAPIC_BUS_HZ), 2000);
	CHECK_EQ(mul_div(7, 3, 2), 10);
	/* 128-bit intermediate products */
	CHECK_EQ(mul_div(1ull << 63, 6, 4), 3ull << 62);
	CHECK_EQ(mul_div(0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull),
		 0xffffffffffffffffull);
	CHECK_EQ(mul_div(0x123456789abcdefull, 3000000000ull, 1000000000ull),
		 0x123456789abcdefull * 3);
	CHECK_EQ(mul_div(1ull << 40, 1ull << 40, 1ull << 20), 1ull << 60);
	CHECK_EQ(mul_div(1ull << 40, 1ull << 40, 3ull << 20), 0x0555555555555555ull);
	/* saturation */
	CHECK_EQ(mul_div(1ull << 63, 4, 1), ~0ull);
}

static void test_init_and_registers(void)
{
	struct vlapic l;

	vlapic_init(&l, page, 0, true, 48, 2000000000ull, &mock_ops, NULL);
	to_x2apic(&l);
	CHECK_EQ(rd(&l, MSR_IA32_APIC_BASE, 0), 0xfee00d00);
	CHECK_EQ(rd(&l, 0x802, 0), 0);
	CHECK_EQ(rd(&l, 0x803, 0), 0x60014);
	CHECK_EQ(rd(&l, 0x80d, 0), 0x1);
	CHECK_EQ(rd(&l, 0x80f, 0), 0xff);
	CHECK_EQ(rd(&l, 0x808, 0), 0);
	CHECK_EQ(rd(&l, 0x80a, 0), 0);
	CHECK_EQ(rd(&l, 0x82f, 0), APIC_LVT_MASKED);
	for (u32 m = 0x832; m <= 0x837; m++)
		CHECK_EQ(rd(&l, m, 0), APIC_LVT_MASKED);
	CHECK_EQ(rd(&l, 0x838, 0), 0);
	CHECK_EQ(rd(&l, 0x839, 0), 0);
	CHECK_EQ(rd(&l, 0x83e, 0), 0);
	CHECK_EQ(rd(&l, MSR_IA32_TSC_DEADLINE, 0), 0);

	vlapic_init(&l, page, 0x23, false, 48, 0, NULL, NULL);
	to_x2apic(&l);
	CHECK_EQ(l.tsc_hz, VLAPIC_BUS_HZ);
	CHECK_EQ(rd(&l, MSR_IA32_APIC_BASE, 0), 0xfee00c00);
	CHECK_EQ(rd(&l, 0x802, 0), 0x23);
	CHECK_EQ(rd(&l, 0x80d, 0), 0x20008); /* cluster 2, bit 3 */

	/* Writable registers read back. */
	WR(&l, 0x808, 0x5a, 0);
	CHECK_EQ(rd(&l, 0x808, 0), 0x5a);
	WR(&l, 0x80f, 0x3ff, 0);
	CHECK_EQ(rd(&l, 0x80f, 0), 0x3ff);
	WR(&l, 0x835, 0x1a700, 0); /* LINT0: ExtINT, level, masked */
	CHECK_EQ(rd(&l, 0x835, 0), 0x1a700);
	WR(&l, 0x836, 0x400, 0); /* LINT1: NMI */
	CHECK_EQ(rd(&l, 0x836, 0), 0x400);
	WR(&l, 0x834, 0x400, 0); /* perf: NMI */
	CHECK_EQ(rd(&l, 0x834, 0), 0x400);
	WR(&l, 0x837, 0xfe, 0);
	CHECK_EQ(rd(&l, 0x837, 0), 0xfe);
	WR(&l, 0x82f, 0xf9, 0);
	CHECK_EQ(rd(&l, 0x82f, 0), 0xf9);
	/* Read-only LVT bits (delivery status, remote IRR) are ignored. */
	WR(&l, 0x835, 0x5000 | 0x30, 0);
	CHECK_EQ(rd(&l, 0x835, 0), 0x30);
	WR(&l, 0x832, 0x400ec, 0); /* TSC-deadline, vector 0xEC */
	CHECK_EQ(rd(&l, 0x832, 0), 0x400ec);
	WR(&l, 0x83e, 0xb, 0);
	CHECK_EQ(rd(&l, 0x83e, 0), 0xb);

	/* vlapic_reset (INIT) keeps the ID and IA32_APIC_BASE. */
	vlapic_reset(&l);
	CHECK_EQ(rd(&l, 0x802, 0), 0x23);
	CHECK_EQ(rd(&l, MSR_IA32_APIC_BASE, 0), 0xfee00c00);
	CHECK_EQ(rd(&l, 0x80f, 0), 0xff);
	CHECK_EQ(rd(&l, 0x808, 0), 0);
	CHECK_EQ(rd(&l, 0x832, 0), APIC_LVT_MASKED);
}

static void test_gp(void)
{
	struct vlapic l;

	setup(&l, 1, 0);
	/* write-only */
	CHECK(gp_rd(&l, 0x80b));
	CHECK(gp_rd(&l, 0x83f));
	/* absent in x2APIC mode: ICR2, DFR, APR, reserved slots */
	CHECK(gp_rd(&l, 0x800));
	CHECK(gp_rd(&l, 0x801));
	CHECK(gp_rd(&l, 0x809));
	CHECK(gp_rd(&l, 0x80c));
	CHECK(gp_rd(&l, 0x80e));
	CHECK(gp_rd(&l, 0x829));
	CHECK(gp_rd(&l, 0x831));
	CHECK(gp_rd(&l, 0x83a));
	CHECK(gp_rd(&l, 0x840));
	CHECK(gp_rd(&l, 0x8ff));
	CHECK(gp_rd(&l, 0x7ff));
	/* read-only */
	GP_WR(&l, 0x802, 1);
	GP_WR(&l, 0x803, 0);
	GP_WR(&l, 0x80a, 0);
	GP_WR(&l, 0x80d, 0);
	GP_WR(&l, 0x810, 0);
	GP_WR(&l, 0x81f, 0);
	GP_WR(&l, 0x827, 0);
	GP_WR(&l, 0x839, 0);
	GP_WR(&l, 0x831, 0);
	GP_WR(&l, 0x80e, 0);
	/* reserved bits */
	GP_WR(&l, 0x808, 0x100);
	GP_WR(&l, 0x808, 1ull << 32);
	GP_WR(&l, 0x80f, 0x11ff);		   /* EOI broadcast suppression not offered */
	GP_WR(&l, 0x80b, 1);			   /* EOI: non-zero */
	GP_WR(&l, 0x828, 1);			   /* ESR: non-zero */
	GP_WR(&l, 0x832, 0x4ec | APIC_LVT_MASKED); /* timer has no delivery mode */
	GP_WR(&l, 0x832, 0x60000);		   /* timer mode 11b */
	GP_WR(&l, 0x837, 0x2fe);		   /* error LVT has no delivery mode */
	GP_WR(&l, 0x835, 0x20000);
	GP_WR(&l, 0x83e, 0x4);
	GP_WR(&l, 0x83f, 0x130);
	GP_WR(&l, 0x838, 1ull << 32);
	GP_WR(&l, 0x830, 0x1000 | 0x40); /* ICR bit 12 */
	GP_WR(&l, 0x830, 0x2000 | 0x40);
	GP_WR(&l, 0x830, 0x10000 | 0x40);
	GP_WR(&l, 0x830, 0x100000 | 0x40);
	CHECK_EQ(nipis, 0);
	CHECK_EQ(rd(&l, 0x808, 0), 0);
	CHECK_EQ(rd(&l, 0x80f, 0), 0x1ff);
	CHECK_EQ(rd(&l, 0x832, 0), APIC_LVT_MASKED);
	/* other MSRs are not ours */
	CHECK(gp_rd(&l, 0x10));
	GP_WR(&l, 0x10, 0);
}

static void test_svr(void)
{
	struct vlapic l;

	vlapic_init(&l, page, 2, false, 48, 0, &mock_ops, NULL);
	to_x2apic(&l);
	/* Software-disabled: no fixed interrupt accepted, LVT masks stick. */
	CHECK(!vlapic_accept(&l, 0x40, false));
	CHECK(!vlapic_has_pending_irr(&l));
	WR(&l, 0x832, 0xec, 0);
	CHECK_EQ(rd(&l, 0x832, 0), 0x100ec);
	WR(&l, 0x80f, 0x1ff, 0);
	CHECK(vlapic_accept(&l, 0x40, false));
	WR(&l, 0x832, 0xec, 0);
	WR(&l, 0x837, 0xfe, 0);
	CHECK_EQ(rd(&l, 0x832, 0), 0xec);
	/* Disabling masks every LVT and keeps the IRR. */
	WR(&l, 0x80f, 0xff, 0);
	CHECK_EQ(rd(&l, 0x832, 0), 0x100ec);
	CHECK_EQ(rd(&l, 0x837, 0), 0x100fe);
	CHECK_EQ(rd(&l, 0x822, 0), 1);
	CHECK(!vlapic_accept(&l, 0x41, false));
	CHECK_EQ(vlapic_pending_vector(&l), 0x40);
}

static void test_priority(void)
{
	struct vlapic l;

	setup(&l, 0, 0);
	CHECK(!vlapic_accept(&l, 15, false));
	CHECK(!vlapic_accept(&l, 0, true));
	CHECK(!vlapic_has_pending_irr(&l));
	CHECK_EQ(vlapic_pending_vector(&l), -1);

	CHECK(vlapic_accept(&l, 0x31, false));
	CHECK(vlapic_accept(&l, 0x45, false));
	CHECK(vlapic_has_pending_irr(&l));
	CHECK_EQ(rd(&l, 0x821, 0), 1u << 0x11);
	CHECK_EQ(rd(&l, 0x822, 0), 1u << 0x05);
	CHECK_EQ(vlapic_pending_vector(&l), 0x45);

	/* TPR masks by class: equal class blocks. */
	WR(&l, 0x808, 0x4f, 0);
	CHECK_EQ(vlapic_pending_vector(&l), -1);
	CHECK_EQ(rd(&l, 0x80a, 0), 0x4f);
	WR(&l, 0x808, 0x3f, 0);
	CHECK_EQ(vlapic_pending_vector(&l), 0x45);
	WR(&l, 0x808, 0, 0);

	/* What only the TPR holds back (a MOV to CR8 that lowers it must exit). */
	CHECK(!vlapic_tpr_holds_back(&l));
	WR(&l, 0x808, 0x40, 0);
	CHECK(vlapic_tpr_holds_back(&l));
	WR(&l, 0x808, 0, 0);

	/* Nesting: 0x45 in service blocks class <= 4, class 5 preempts. */
	vlapic_ack(&l, 0x45);
	CHECK_EQ(rd(&l, 0x812, 0), 1u << 0x05);
	CHECK_EQ(rd(&l, 0x822, 0), 0);
	CHECK_EQ(rd(&l, 0x80a, 0), 0x40);
	CHECK_EQ(vlapic_pending_vector(&l), -1);
	CHECK(vlapic_has_pending_irr(&l)); /* 0x31 still there */
	CHECK(vlapic_accept(&l, 0x4e, false));
	CHECK_EQ(vlapic_pending_vector(&l), -1);
	WR(&l, 0x808, 0xf0, 0);
	CHECK(!vlapic_tpr_holds_back(&l)); /* the ISR holds class 4 back, not the TPR */
	WR(&l, 0x808, 0, 0);
	CHECK(vlapic_accept(&l, 0x50, false));
	CHECK_EQ(vlapic_pending_vector(&l), 0x50);
	vlapic_ack(&l, 0x50);
	CHECK_EQ(rd(&l, 0x80a, 0), 0x50);
	CHECK_EQ(vlapic_pending_vector(&l), -1);

	/* PPR: TPR wins when its class is >= the ISR class (SDM 11.8.3.1). */
	WR(&l, 0x808, 0x57, 0);
	CHECK_EQ(rd(&l, 0x80a, 0), 0x57);
	WR(&l, 0x808, 0x47, 0);
	CHECK_EQ(rd(&l, 0x80a, 0), 0x50);
	WR(&l, 0x808, 0, 0);

	/* EOI retires the highest ISR bit first. */
	WR(&l, 0x80b, 0, 0);
	CHECK_EQ(rd(&l, 0x812, 0), 1u << 0x05);
	CHECK_EQ(rd(&l, 0x80a, 0), 0x40);
	CHECK_EQ(vlapic_pending_vector(&l), -1); /* 0x4e: same class as 0x45 */
	WR(&l, 0x80b, 0, 0);
	CHECK_EQ(rd(&l, 0x812, 0), 0);
	CHECK_EQ(rd(&l, 0x80a, 0), 0);
	CHECK_EQ(vlapic_pending_vector(&l), 0x4e);
	vlapic_ack(&l, 0x4e);
	CHECK_EQ(vlapic_pending_vector(&l), -1);
	WR(&l, 0x80b, 0, 0);
	CHECK_EQ(vlapic_pending_vector(&l), 0x31);
	vlapic_ack(&l, 0x31);
	CHECK(!vlapic_has_pending_irr(&l));
	WR(&l, 0x80b, 0, 0);
	WR(&l, 0x80b, 0, 0); /* spurious EOI: harmless */
	CHECK_EQ(l.eois, 5);
	CHECK_EQ(neois, 0); /* all edge */

	/* Highest vector 0xFF and the 32-bit word boundaries. */
	CHECK(vlapic_accept(&l, 0xff, false));
	CHECK(vlapic_accept(&l, 0x20, false));
	CHECK(vlapic_accept(&l, 0x1f, false));
	CHECK_EQ(rd(&l, 0x827, 0), 0x80000000u);
	CHECK_EQ(vlapic_pending_vector(&l), 0xff);
	vlapic_ack(&l, 0xff);
	CHECK_EQ(rd(&l, 0x817, 0), 0x80000000u);
	CHECK_EQ(vlapic_pending_vector(&l), -1);
	WR(&l, 0x80b, 0, 0);
	CHECK_EQ(vlapic_pending_vector(&l), 0x20);
	vlapic_ack(&l, 0x20);
	CHECK_EQ(vlapic_pending_vector(&l), -1); /* 0x1f: class 1 < 2 */
	WR(&l, 0x80b, 0, 0);
	CHECK_EQ(vlapic_pending_vector(&l), 0x1f);
}

static void test_tmr_eoi(void)
{
	struct vlapic l;

	setup(&l, 0, 0);
	CHECK(vlapic_accept(&l, 0x61, false));
	CHECK(vlapic_accept(&l, 0x60, true));
	CHECK_EQ(rd(&l, 0x81b, 0), 1u << 0); /* TMR: 0x60 only */
	vlapic_ack(&l, 0x61);
	CHECK_EQ(vlapic_pending_vector(&l), -1); /* same class */
	WR(&l, 0x80b, 0, 0);
	CHECK_EQ(neois, 0);
	vlapic_ack(&l, 0x60);
	WR(&l, 0x80b, 0, 0);
	CHECK_EQ(neois, 1);
	CHECK_EQ(eoi_vecs[0], 0x60);

	/* Nested: level 0x70 under edge 0x80; EOIs in ISR order. */
	CHECK(vlapic_accept(&l, 0x70, true));
	vlapic_ack(&l, 0x70);
	CHECK(vlapic_accept(&l, 0x80, false));
	vlapic_ack(&l, 0x80);
	WR(&l, 0x80b, 0, 0);
	CHECK_EQ(neois, 1);
	WR(&l, 0x80b, 0, 0);
	CHECK_EQ(neois, 2);
	CHECK_EQ(eoi_vecs[1], 0x70);

	/* An edge acceptance clears the TMR bit again (SDM 11.8.4). */
	CHECK_EQ(rd(&l, 0x81b, 0), (1u << 0) | (1u << 16)); /* kept after EOI */
	CHECK(vlapic_accept(&l, 0x70, false));
	CHECK_EQ(rd(&l, 0x81b, 0), 1u << 0);
	vlapic_ack(&l, 0x70);
	WR(&l, 0x80b, 0, 0);
	CHECK_EQ(neois, 2);

	/* No ops: EOI of a level vector is still fine. */
	vlapic_init(&l, page, 0, true, 48, 0, NULL, NULL);
	to_x2apic(&l);
	WR(&l, 0x80f, 0x100, 0);
	CHECK(vlapic_accept(&l, 0x90, true));
	vlapic_ack(&l, 0x90);
	WR(&l, 0x80b, 0, 0);
	CHECK_EQ(rd(&l, 0x814, 0), 0);
}

static void test_icr(void)
{
	struct vlapic l;

	setup(&l, 3, 0);
	/* fixed, physical, no shorthand */
	WR(&l, 0x830, (5ull << 32) | 0xfd, 0);
	CHECK_EQ(nipis, 1);
	CHECK_EQ(last_ipi.vector, 0xfd);
	CHECK_EQ(last_ipi.mode, APIC_DM_FIXED);
	CHECK(!last_ipi.logical);
	CHECK(!last_ipi.level_assert);
	CHECK(!last_ipi.level_trigger);
	CHECK_EQ(last_ipi.shorthand, APIC_SH_NONE);
	CHECK_EQ(last_ipi.dest, 5);
	CHECK_EQ(rd(&l, 0x830, 0), (5ull << 32) | 0xfd);

	/* logical cluster destination, lowest priority, assert */
	WR(&l, 0x830, (0x00020008ull << 32) | 0x4000 | 0x800 | 0x100 | 0x31, 0);
	CHECK_EQ(last_ipi.vector, 0x31);
	CHECK_EQ(last_ipi.mode, APIC_DM_LOWEST);
	CHECK(last_ipi.logical);
	CHECK(last_ipi.level_assert);
	CHECK_EQ(last_ipi.dest, 0x00020008);

	/* shorthands */
	for (u32 sh = 0; sh < 4; sh++) {
		WR(&l, 0x830, ((u64)sh << 18) | 0xf2, 0);
		CHECK_EQ(last_ipi.shorthand, sh);
		CHECK_EQ(last_ipi.vector, 0xf2);
		CHECK_EQ(last_ipi.dest, 0);
	}
	WR(&l, 0x830, (0xffffffffull << 32) | 0xf3, 0);
	CHECK_EQ(last_ipi.dest, 0xffffffff);
	CHECK_EQ(nipis, 7);

	/* NMI (as Linux sends it: vector field 0 is fine for NMI) */
	WR(&l, 0x830, (7ull << 32) | 0x400, 0);
	CHECK_EQ(nipis, 8);
	CHECK_EQ(last_ipi.mode, APIC_DM_NMI);
	CHECK_EQ(last_ipi.dest, 7);
	/* SMI */
	WR(&l, 0x830, (7ull << 32) | 0x200, 0);
	CHECK_EQ(last_ipi.mode, APIC_DM_SMI);
	/* INIT assert, level: Linux's wakeup_secondary_cpu_via_init */
	WR(&l, 0x830, (1ull << 32) | 0xc500, 0);
	CHECK_EQ(nipis, 10);
	CHECK_EQ(last_ipi.mode, APIC_DM_INIT);
	CHECK(last_ipi.level_assert);
	CHECK(last_ipi.level_trigger);
	CHECK_EQ(last_ipi.dest, 1);
	/* INIT de-assert: dropped, but ICR reads back */
	WR(&l, 0x830, (1ull << 32) | 0x8500, 0);
	CHECK_EQ(nipis, 10);
	CHECK_EQ(rd(&l, 0x830, 0), (1ull << 32) | 0x8500);
	/* STARTUP with vector 0x9a (page 0x9a000; < 16 is fine for SIPI) */
	WR(&l, 0x830, (1ull << 32) | 0x69a, 0);
	CHECK_EQ(nipis, 11);
	CHECK_EQ(last_ipi.mode, APIC_DM_STARTUP);
	CHECK_EQ(last_ipi.vector, 0x9a);
	WR(&l, 0x830, (1ull << 32) | 0x608, 0);
	CHECK_EQ(nipis, 12);
	CHECK_EQ(last_ipi.vector, 0x08);
	/* reserved modes 3 and 7 */
	WR(&l, 0x830, 0x340, 0);
	WR(&l, 0x830, 0x740, 0);
	CHECK_EQ(nipis, 12);
	CHECK_EQ(l.ipis_sent, 12);

	/* Illegal vector: not sent, ESR "send illegal vector" after the ESR write,
	 * error LVT raised once. */
	WR(&l, 0x837, 0xfe, 0);
	WR(&l, 0x830, (2ull << 32) | 0x0f, 0);
	CHECK_EQ(nipis, 12);
	CHECK_EQ(rd(&l, 0x828, 0), 0);
	CHECK_EQ(vlapic_pending_vector(&l), 0xfe);
	WR(&l, 0x830, (2ull << 32) | 0x10f, 0); /* lowest priority, illegal too */
	CHECK_EQ(nipis, 12);
	WR(&l, 0x828, 0, 0);
	CHECK_EQ(rd(&l, 0x828, 0), APIC_ESR_SEND_ILLEGAL_VECTOR);
	WR(&l, 0x828, 0, 0);
	CHECK_EQ(rd(&l, 0x828, 0), 0);
}

static void test_self_ipi(void)
{
	struct vlapic l;

	setup(&l, 4, 0);
	WR(&l, 0x83f, 0x70, 0);
	CHECK_EQ(nipis, 0);
	CHECK_EQ(l.self_ipis, 1);
	CHECK_EQ(vlapic_pending_vector(&l), 0x70);
	CHECK_EQ(rd(&l, 0x81b, 0), 0); /* edge */
	WR(&l, 0x83f, 0x05, 0);
	CHECK_EQ(l.self_ipis, 1);
	WR(&l, 0x828, 0, 0);
	CHECK_EQ(rd(&l, 0x828, 0), APIC_ESR_RECV_ILLEGAL_VECTOR);
}

static void test_dest(void)
{
	struct vlapic l;

	vlapic_init(&l, page, 0x23, false, 48, 0, NULL, NULL);
	to_x2apic(&l);
	CHECK(vlapic_match_dest(&l, 0x23, false));
	CHECK(!vlapic_match_dest(&l, 0x22, false));
	CHECK(!vlapic_match_dest(&l, 0x123, false));
	CHECK(vlapic_match_dest(&l, 0xffffffff, false));
	CHECK(vlapic_match_dest(&l, 0xffffffff, true));
	CHECK(vlapic_match_dest(&l, 0x00020008, true));
	CHECK(vlapic_match_dest(&l, 0x0002ffff, true));
	CHECK(vlapic_match_dest(&l, 0x0002000c, true));
	CHECK(!vlapic_match_dest(&l, 0x00020004, true));
	CHECK(!vlapic_match_dest(&l, 0x00010008, true));
	CHECK(!vlapic_match_dest(&l, 0x00030008, true));
	CHECK(!vlapic_match_dest(&l, 0x00020000, true));
	CHECK(!vlapic_match_dest(&l, 0x23, true));

	vlapic_init(&l, page, 0, true, 48, 0, NULL, NULL);
	to_x2apic(&l);
	CHECK(vlapic_match_dest(&l, 0, false));
	CHECK(vlapic_match_dest(&l, 1, true)); /* cluster 0, bit 0 */
	CHECK(!vlapic_match_dest(&l, 0, true));
	CHECK(!vlapic_match_dest(&l, 0x10001, true));

	vlapic_init(&l, page, 0xf, false, 48, 0, NULL, NULL);
	to_x2apic(&l);
	CHECK(vlapic_match_dest(&l, 0x8000, true));
	vlapic_init(&l, page, 0x10, false, 48, 0, NULL, NULL);
	to_x2apic(&l);
	CHECK(vlapic_match_dest(&l, 0x10001, true));
	CHECK_EQ(rd(&l, 0x80d, 0), 0x10001);
}

/* TSC at 2 GHz: 2 cycles per APIC bus tick. */
#define TSC_HZ 2000000000ull

static void test_timer_oneshot(void)
{
	struct vlapic l;

	setup(&l, 0, TSC_HZ);
	CHECK_EQ(vlapic_next_deadline(&l), 0);
	WR(&l, 0x832, 0xec, 0);
	WR(&l, 0x83e, 0xb, 0); /* divide by 1 */
	WR(&l, 0x838, 1000, 10000);
	CHECK_EQ(rd(&l, 0x838, 0), 1000);
	CHECK_EQ(vlapic_next_deadline(&l), 12000);
	CHECK_EQ(rd(&l, 0x839, 10000), 1000);
	CHECK_EQ(rd(&l, 0x839, 11000), 500);
	CHECK_EQ(rd(&l, 0x839, 11998), 1);
	vlapic_timer_update(&l, 11999);
	CHECK_EQ(l.timer_fires, 0);
	CHECK(!vlapic_has_pending_irr(&l));
	CHECK_EQ(rd(&l, 0x839, 12000), 0); /* expired before the update */
	vlapic_timer_update(&l, 12000);
	CHECK_EQ(l.timer_fires, 1);
	CHECK_EQ(vlapic_pending_vector(&l), 0xec);
	CHECK_EQ(vlapic_next_deadline(&l), 0);
	CHECK_EQ(rd(&l, 0x839, 12001), 0);
	CHECK_EQ(rd(&l, 0x838, 0), 1000); /* initial count stays */
	vlapic_timer_update(&l, 50000);
	CHECK_EQ(l.timer_fires, 1);

	/* Re-arm, then stop with 0. */
	WR(&l, 0x838, 10, 20000);
	CHECK_EQ(vlapic_next_deadline(&l), 20020);
	WR(&l, 0x838, 0, 20001);
	CHECK_EQ(vlapic_next_deadline(&l), 0);
	CHECK_EQ(rd(&l, 0x839, 20002), 0);

	/* A late update fires once. */
	WR(&l, 0x838, 10, 30000);
	vlapic_timer_update(&l, 90000);
	CHECK_EQ(l.timer_fires, 2);
	CHECK_EQ(vlapic_next_deadline(&l), 0);

	/* Masked: expires without an interrupt. */
	vlapic_ack(&l, 0xec);
	WR(&l, 0x80b, 0, 0);
	CHECK(!vlapic_has_pending_irr(&l));
	WR(&l, 0x832, 0x100ec, 0);
	WR(&l, 0x838, 10, 100000);
	vlapic_timer_update(&l, 100020);
	CHECK_EQ(l.timer_fires, 3);
	CHECK(!vlapic_has_pending_irr(&l));
	CHECK_EQ(vlapic_next_deadline(&l), 0);

	/* Illegal LVT vector: ESR "receive illegal vector", no IRR. */
	WR(&l, 0x832, 0x0e, 0);
	WR(&l, 0x838, 10, 200000);
	vlapic_timer_update(&l, 200020);
	CHECK(!vlapic_has_pending_irr(&l));
	WR(&l, 0x828, 0, 0);
	CHECK_EQ(rd(&l, 0x828, 0), APIC_ESR_RECV_ILLEGAL_VECTOR);
}

static void test_timer_divider(void)
{
	static const struct {
		u32 dcr, div;
	} t[] = { { 0x0, 2 },  { 0x1, 4 },  { 0x2, 8 },	  { 0x3, 16 },
		  { 0x8, 32 }, { 0x9, 64 }, { 0xa, 128 }, { 0xb, 1 } };
	struct vlapic l;

	setup(&l, 0, TSC_HZ);
	WR(&l, 0x832, 0xec, 0);
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		WR(&l, 0x83e, t[i].dcr, 0);
		WR(&l, 0x838, 1000, 1000);
		CHECK_EQ(vlapic_next_deadline(&l), 1000 + 1000ull * t[i].div * 2);
		CHECK_EQ(rd(&l, 0x839, 1000 + 500ull * t[i].div * 2), 500);
	}
	/* Reset value divides by 2. */
	setup(&l, 0, TSC_HZ);
	WR(&l, 0x832, 0xec, 0); /* unmasked: it asks for its wake-up */
	WR(&l, 0x838, 1000, 0);
	CHECK_EQ(vlapic_next_deadline(&l), 4000);
	/* A DCR write applies at the next initial-count write; the count read stays
	 * consistent with the armed period. */
	WR(&l, 0x83e, 0xa, 0);
	CHECK_EQ(vlapic_next_deadline(&l), 4000);
	CHECK_EQ(rd(&l, 0x839, 2000), 500);
	/* Largest count and divider: no overflow. */
	WR(&l, 0x838, 0xffffffff, 0);
	CHECK_EQ(vlapic_next_deadline(&l), 0xffffffffull * 128 * 2);
	CHECK_EQ(rd(&l, 0x839, 0), 0xffffffff);
	CHECK_EQ(rd(&l, 0x839, 0xffffffffull * 128), 0x7fffffff);

	/* 3 GHz TSC: ticks -> cycles multiplies by 3. 1 GHz TSC: one to one. */
	setup(&l, 0, 3000000000ull);
	WR(&l, 0x832, 0xec, 0); /* unmasked: it asks for its wake-up */
	WR(&l, 0x83e, 0xb, 0);
	WR(&l, 0x838, 7, 100);
	CHECK_EQ(vlapic_next_deadline(&l), 121);
	setup(&l, 0, 0);
	WR(&l, 0x832, 0xec, 0); /* unmasked: it asks for its wake-up */
	WR(&l, 0x83e, 0xb, 0);
	WR(&l, 0x838, 7, 100);
	CHECK_EQ(vlapic_next_deadline(&l), 107);
	/* A TSC slower than the bus: the period never rounds to 0. */
	setup(&l, 0, 100000000ull);
	WR(&l, 0x832, 0xec, 0); /* unmasked: it asks for its wake-up */
	WR(&l, 0x83e, 0xb, 0);
	WR(&l, 0x838, 1, 100);
	CHECK_EQ(vlapic_next_deadline(&l), 101);
}

/* Periodic timers, with a period of 200 us (the floor, see test_timer_storm): 200,000
 * counts at divide-by-1, 400,000 TSC cycles. */
#define P 400000ull
#define C 200000u
static void test_timer_periodic(void)
{
	struct vlapic l;

	setup(&l, 0, TSC_HZ);
	WR(&l, 0x832, 0x200ec, 0); /* periodic */
	WR(&l, 0x83e, 0xb, 0);
	WR(&l, 0x838, C, 0);
	CHECK_EQ(vlapic_next_deadline(&l), P);
	vlapic_timer_update(&l, P - 1);
	CHECK_EQ(l.timer_fires, 0);
	vlapic_timer_update(&l, P);
	CHECK_EQ(l.timer_fires, 1);
	CHECK_EQ(vlapic_next_deadline(&l), 2 * P);
	CHECK_EQ(vlapic_pending_vector(&l), 0xec);
	CHECK_EQ(rd(&l, 0x839, 3 * P / 2), C / 2);
	CHECK_EQ(rd(&l, 0x839, P), C);
	/* Late by four periods: one interrupt, no drift. */
	vlapic_timer_update(&l, 21 * P / 4);
	CHECK_EQ(l.timer_fires, 2);
	CHECK_EQ(vlapic_next_deadline(&l), 6 * P);
	CHECK_EQ(rd(&l, 0x839, 11 * P / 2), C / 2);
	/* Count read past an expiry not yet processed: into the next period. */
	CHECK_EQ(rd(&l, 0x839, 13 * P / 2), C / 2);
	CHECK_EQ(rd(&l, 0x839, 7 * P), C);
	/* Exactly on a later period boundary. */
	vlapic_timer_update(&l, 8 * P);
	CHECK_EQ(l.timer_fires, 3);
	CHECK_EQ(vlapic_next_deadline(&l), 9 * P);
	/* Masked: no interrupt and no wake-up asked for, but it keeps its periods. */
	vlapic_ack(&l, 0xec);
	WR(&l, 0x80b, 0, 0);
	WR(&l, 0x832, 0x300ec, 0);
	CHECK_EQ(vlapic_next_deadline(&l), 0);
	vlapic_timer_update(&l, 9 * P);
	CHECK_EQ(l.timer_fires, 4);
	CHECK(!vlapic_has_pending_irr(&l));
	CHECK_EQ(vlapic_next_deadline(&l), 0);
	CHECK_EQ(rd(&l, 0x839, 19 * P / 2), C / 2);
	/* Periodic -> one-shot (and unmasked) keeps the running count; it ends at expiry. */
	WR(&l, 0x832, 0xec, 0);
	CHECK_EQ(vlapic_next_deadline(&l), 10 * P);
	vlapic_timer_update(&l, 10 * P);
	CHECK_EQ(l.timer_fires, 5);
	CHECK_EQ(vlapic_next_deadline(&l), 0);
	/* One-shot -> periodic before expiry: it keeps going. */
	WR(&l, 0x838, C, 15 * P);
	WR(&l, 0x832, 0x200ec, 0);
	vlapic_timer_update(&l, 16 * P);
	CHECK_EQ(vlapic_next_deadline(&l), 17 * P);
	/* Initial count 0 stops a periodic timer. */
	WR(&l, 0x838, 0, 33 * P / 2);
	CHECK_EQ(vlapic_next_deadline(&l), 0);
	CHECK_EQ(rd(&l, 0x839, 33 * P / 2), 0);
}

/* A hostile guest's periodic timer of one count at divide-by-1 fires every 200 us, not
 * every 2 TSC cycles; one-shot timers are not limited; a timer armed short in one-shot
 * mode and switched to periodic gets the floor from its next period. */
static void test_timer_storm(void)
{
	struct vlapic l;

	setup(&l, 0, TSC_HZ);
	WR(&l, 0x83e, 0xb, 0);
	WR(&l, 0x832, 0x200ec, 0);
	WR(&l, 0x838, 1, 1000);
	CHECK_EQ(vlapic_next_deadline(&l), 1000 + P);
	vlapic_timer_update(&l, 1000 + P);
	CHECK_EQ(vlapic_next_deadline(&l), 1000 + 2 * P);
	CHECK_EQ(l.timer_fires, 1);
	WR(&l, 0x832, 0xec, 0); /* one-shot */
	WR(&l, 0x838, 1, 5000);
	CHECK_EQ(vlapic_next_deadline(&l), 5002);
	WR(&l, 0x832, 0x200ec, 0); /* periodic again before it fires */
	vlapic_timer_update(&l, 5002);
	CHECK_EQ(vlapic_next_deadline(&l), 5002 + P);
}
#undef P
#undef C

static void test_timer_tsc_deadline(void)
{
	struct vlapic l;

	setup(&l, 0, TSC_HZ);
	/* Outside TSC-deadline mode the MSR ignores writes and reads 0. */
	WR(&l, MSR_IA32_TSC_DEADLINE, 5000, 0);
	CHECK_EQ(rd(&l, MSR_IA32_TSC_DEADLINE, 0), 0);
	CHECK_EQ(vlapic_next_deadline(&l), 0);

	/* Switching into TSC-deadline mode disarms a running one-shot. */
	WR(&l, 0x838, 1000, 0);
	WR(&l, 0x832, 0x400ec, 0);
	CHECK_EQ(vlapic_next_deadline(&l), 0);
	CHECK_EQ(rd(&l, 0x838, 0), 0);
	WR(&l, 0x838, 1000, 0); /* ignored in this mode */
	CHECK_EQ(rd(&l, 0x838, 0), 0);
	CHECK_EQ(vlapic_next_deadline(&l), 0);

	WR(&l, MSR_IA32_TSC_DEADLINE, 5000, 100);
	CHECK_EQ(rd(&l, MSR_IA32_TSC_DEADLINE, 0), 5000);
	CHECK_EQ(vlapic_next_deadline(&l), 5000);
	CHECK_EQ(rd(&l, 0x839, 200), 0);
	vlapic_timer_update(&l, 4999);
	CHECK_EQ(l.timer_fires, 0);
	vlapic_timer_update(&l, 5000);
	CHECK_EQ(l.timer_fires, 1);
	CHECK_EQ(vlapic_pending_vector(&l), 0xec);
	CHECK_EQ(rd(&l, MSR_IA32_TSC_DEADLINE, 0), 0);
	CHECK_EQ(vlapic_next_deadline(&l), 0);

	/* A deadline in the past fires at the next update; 0 disarms. */
	WR(&l, MSR_IA32_TSC_DEADLINE, 10, 6000);
	vlapic_timer_update(&l, 6000);
	CHECK_EQ(l.timer_fires, 2);
	WR(&l, MSR_IA32_TSC_DEADLINE, 9000, 6000);
	WR(&l, MSR_IA32_TSC_DEADLINE, 0, 6001);
	CHECK_EQ(vlapic_next_deadline(&l), 0);
	vlapic_timer_update(&l, 10000);
	CHECK_EQ(l.timer_fires, 2);

	/* Rewriting the LVT within the mode (mask/unmask) keeps the deadline. */
	WR(&l, MSR_IA32_TSC_DEADLINE, 9000, 6000);
	WR(&l, 0x832, 0x500ec, 0);
	CHECK_EQ(l.timer_deadline, 9000);
	CHECK_EQ(vlapic_next_deadline(&l), 0); /* masked: nothing to wake up for */
	vlapic_timer_update(&l, 9000);
	CHECK_EQ(l.timer_fires, 3);
	CHECK_EQ(rd(&l, MSR_IA32_TSC_DEADLINE, 0), 0);

	/* Leaving TSC-deadline mode disarms and clears the MSR. */
	WR(&l, 0x832, 0x400ec, 0);
	WR(&l, MSR_IA32_TSC_DEADLINE, 20000, 10000);
	WR(&l, 0x832, 0xec, 0);
	CHECK_EQ(vlapic_next_deadline(&l), 0);
	CHECK_EQ(rd(&l, MSR_IA32_TSC_DEADLINE, 0), 0);
	WR(&l, 0x832, 0x400ec, 0);
	CHECK_EQ(rd(&l, MSR_IA32_TSC_DEADLINE, 0), 0);
}

static void test_apic_base(void)
{
	struct vlapic l;
	u64 base;

	setup(&l, 1, 0);
	base = APIC_DEFAULT_BASE | APIC_BASE_EN | APIC_BASE_EXTD;
	WR(&l, MSR_IA32_APIC_BASE, base, 0); /* no change */
	CHECK_EQ(rd(&l, MSR_IA32_APIC_BASE, 0), base);
	/* reserved bits, EN=0/EXTD=1, x2APIC -> xAPIC */
	GP_WR(&l, MSR_IA32_APIC_BASE, base | 1);
	GP_WR(&l, MSR_IA32_APIC_BASE, base | BIT(9));
	GP_WR(&l, MSR_IA32_APIC_BASE, base | BIT(63));
	GP_WR(&l, MSR_IA32_APIC_BASE, APIC_DEFAULT_BASE | APIC_BASE_EXTD);
	GP_WR(&l, MSR_IA32_APIC_BASE, APIC_DEFAULT_BASE | APIC_BASE_EN);
	CHECK_EQ(rd(&l, MSR_IA32_APIC_BASE, 0), base);
	/* The base moves (the xAPIC window with it, SDM 11.4.4); BSP is read-only; an
	 * address bit from MAXPHYADDR (48 here) up is reserved. */
	WR(&l, MSR_IA32_APIC_BASE, 0xfed00000 | APIC_BASE_EN | APIC_BASE_EXTD | APIC_BASE_BSP, 0);
	CHECK_EQ(rd(&l, MSR_IA32_APIC_BASE, 0), 0xfed00000 | APIC_BASE_EN | APIC_BASE_EXTD);
	GP_WR(&l, MSR_IA32_APIC_BASE, base | BIT(48));
	WR(&l, MSR_IA32_APIC_BASE, base | BIT(47), 0);
	WR(&l, MSR_IA32_APIC_BASE, base, 0);
	CHECK_EQ(rd(&l, MSR_IA32_APIC_BASE, 0), base);

	/* x2APIC -> disabled: registers gone, state reset, nothing accepted. */
	CHECK(vlapic_accept(&l, 0x40, false));
	WR(&l, 0x808, 0x20, 0);
	WR(&l, MSR_IA32_APIC_BASE, APIC_DEFAULT_BASE, 0);
	CHECK_EQ(rd(&l, MSR_IA32_APIC_BASE, 0), APIC_DEFAULT_BASE);
	CHECK(gp_rd(&l, 0x802));
	GP_WR(&l, 0x808, 0);
	CHECK(!vlapic_accept(&l, 0x41, false));
	CHECK(!vlapic_has_pending_irr(&l));
	CHECK_EQ(vlapic_pending_vector(&l), -1);
	WR(&l, MSR_IA32_APIC_BASE, 0, 0); /* disabled -> disabled */
	/* disabled -> x2APIC directly is illegal */
	GP_WR(&l, MSR_IA32_APIC_BASE, base);
	/* disabled -> xAPIC: legal, but no x2APIC registers */
	WR(&l, MSR_IA32_APIC_BASE, APIC_DEFAULT_BASE | APIC_BASE_EN, 0);
	CHECK(gp_rd(&l, 0x80f));
	/* xAPIC -> x2APIC */
	WR(&l, MSR_IA32_APIC_BASE, base, 0);
	CHECK_EQ(rd(&l, 0x80f, 0), 0xff);
	CHECK_EQ(rd(&l, 0x808, 0), 0);
	CHECK_EQ(rd(&l, 0x802, 0), 1);

	/* The BSP keeps its flag across transitions. */
	setup(&l, 0, 0);
	WR(&l, MSR_IA32_APIC_BASE, APIC_DEFAULT_BASE, 0);
	CHECK_EQ(rd(&l, MSR_IA32_APIC_BASE, 0), APIC_DEFAULT_BASE | APIC_BASE_BSP);
}

/* The 32-bit word at byte offset off of the register page. */
static u32 page_word(const struct vlapic *l, u32 off)
{
	u32 w;

	memcpy(&w, (const u8 *)l->regs + off, sizeof w);
	return w;
}

/* The registers sit in a page at the offsets of the xAPIC layout (SDM Table 11-1), which
 * AVIC's backing page and APICv's virtual-APIC page hardware read; and what is written
 * there is what the guest's MSR reads see. */
static void test_register_page(void)
{
	struct vlapic l;

	setup(&l, 0x23, 0);
	CHECK(l.regs == page);
	CHECK_EQ(page_word(&l, 0x20), 0x23);	/* ID */
	CHECK_EQ(page_word(&l, 0x30), 0x60014); /* version */
	CHECK_EQ(page_word(&l, 0xd0), 0x20008); /* LDR */
	CHECK_EQ(page_word(&l, 0xf0), 0x1ff);	/* SVR */
	WR(&l, 0x808, 0x20, 0);
	CHECK_EQ(page_word(&l, 0x80), 0x20); /* TPR */

	/* IRR and TMR: vector v is bit v % 32 of the word at base + (v / 32) * 16. */
	CHECK(vlapic_accept(&l, 0x31, true));
	CHECK_EQ(page_word(&l, 0x210), 1u << 17);
	CHECK_EQ(page_word(&l, 0x190), 1u << 17);
	CHECK(vlapic_accept(&l, 0xff, false));
	CHECK_EQ(page_word(&l, 0x270), 1u << 31);
	CHECK_EQ(vlapic_pending_vector(&l), 0xff);
	vlapic_ack(&l, 0xff);
	vlapic_ack(&l, 0x31);
	CHECK_EQ(page_word(&l, 0x210), 0);
	CHECK_EQ(page_word(&l, 0x270), 0);
	CHECK_EQ(page_word(&l, 0x110), 1u << 17); /* ISR */
	CHECK_EQ(page_word(&l, 0x170), 1u << 31);
	WR(&l, 0x80b, 0, 0);
	CHECK_EQ(page_word(&l, 0x170), 0);
	CHECK_EQ(page_word(&l, 0x110), 1u << 17);

	/* LVTs: CMCI at 0x2F0, then timer 0x320 ... error 0x370. */
	WR(&l, 0x82f, 0xf0, 0);
	CHECK_EQ(page_word(&l, 0x2f0), 0xf0);
	for (u32 msr = 0x832; msr <= 0x837; msr++) {
		WR(&l, msr, 0x10000 | (0xe0 + (msr - 0x832)), 0);
		CHECK_EQ(page_word(&l, (msr - 0x800) << 4), 0x10000 | (0xe0 + (msr - 0x832)));
	}
	WR(&l, 0x832, 0x200ec, 0); /* periodic, vector 0xEC */
	CHECK_EQ(page_word(&l, 0x320), 0x200ec);
	WR(&l, 0x83e, 0xb, 0);
	CHECK_EQ(page_word(&l, 0x3e0), 0xb); /* divide configuration */
	WR(&l, 0x838, 123456, 0);
	CHECK_EQ(page_word(&l, 0x380), 123456); /* initial count */

	/* The 64-bit x2APIC ICR is ICR low at 0x300, ICR high at 0x310. */
	WR(&l, 0x830, (5ull << 32) | 0x4041, 0);
	CHECK_EQ(page_word(&l, 0x300), 0x4041);
	CHECK_EQ(page_word(&l, 0x310), 5);
	WR(&l, 0x830, 0x4005, 0); /* illegal vector: an error */
	WR(&l, 0x828, 0, 0);
	CHECK_EQ(page_word(&l, 0x280), APIC_ESR_SEND_ILLEGAL_VECTOR); /* ESR */

	/* What the hardware writes in the page is the register. */
	memcpy((u8 *)l.regs + 0x80, &(u32){ 0x40 }, 4);
	CHECK_EQ(rd(&l, 0x808, 0), 0x40);
	memcpy((u8 *)l.regs + 0x220, &(u32){ 1u << 2 }, 4); /* IRR: vector 0x42 */
	CHECK_EQ(vlapic_pending_vector(&l), -1);	    /* 4 <= PPR's class 4 */
	memcpy((u8 *)l.regs + 0x80, &(u32){ 0 }, 4);
	CHECK_EQ(vlapic_pending_vector(&l), 0x42);

	/* INIT keeps ID, version and LDR in the page, and resets the rest: offset, value. */
	static const u32 after_init[][2] = {
		{ 0x20, 0x23 }, { 0x30, 0x60014 }, { 0xd0, 0x20008 }, { 0xf0, 0xff },
		{ 0x110, 0 },	{ 0x220, 0 },	   { 0x310, 0 },      { 0x320, APIC_LVT_MASKED },
	};
	vlapic_reset(&l);
	for (u32 i = 0; i < ARRAY_SIZE(after_init); i++)
		CHECK_EQ(page_word(&l, after_init[i][0]), after_init[i][1]);
}

/* Where the CPU delivers (cpu_delivers): requests, the timer's among them, wait in the PIR,
 * not in the IRR the CPU owns while the guest runs; the pending questions and an IRR read see
 * them; vlapic_sync_pir moves them; INIT drops them; an EOI exit reaches the IOAPIC for a
 * level vector only. */
static void test_posted_requests(void)
{
	struct vlapic l;

	setup(&l, 0, TSC_HZ);
	l.cpu_delivers = l.posted_requests = true;
	CHECK(vlapic_accept(&l, 0x45, true));
	CHECK_EQ(VLAPIC_VEC_WORD(&l, APIC_REG_IRR, 2), 0);
	CHECK_EQ(rd(&l, 0x81a, 0), 1u << 5); /* TMR at once */
	CHECK_EQ(rd(&l, 0x822, 0), 1u << 5); /* IRR as read */
	CHECK(vlapic_has_pending_irr(&l));
	CHECK_EQ(vlapic_pending_vector(&l), 0x45);
	WR(&l, 0x808, 0x50, 0);
	CHECK_EQ(vlapic_tpr_holds_back(&l), 4);
	/* Level-triggered: held back from the CPU's posted-interrupt processing (held, not
	 * the descriptor's PIR), moved by the owner alone. */
	CHECK_EQ(l.posted.pir[2], 0);
	CHECK_EQ(l.held[2], 1u << 5);
	CHECK(vlapic_accept(&l, 0x47, false)); /* edge: the PIR */
	CHECK_EQ(l.posted.pir[2], 1u << 7);
	CHECK(vlapic_claim_notification(&l));
	CHECK(!vlapic_claim_notification(&l)); /* ON set: one notification */
	CHECK(vlapic_sync_pir(&l));
	CHECK(!vlapic_sync_pir(&l));
	CHECK_EQ(VLAPIC_VEC_WORD(&l, APIC_REG_IRR, 2), 1u << 5 | 1u << 7);
	CHECK_EQ(l.posted.pir[2], 0);
	CHECK_EQ(l.held[2], 0);
	CHECK_EQ(l.posted.control, 0); /* ON cleared by the sync */
	VLAPIC_VEC_WORD(&l, APIC_REG_IRR, 2) &= ~(1u << 7);

	/* The timer's interrupt: posted too. */
	WR(&l, 0x832, 0x66, 0);
	WR(&l, 0x838, 10, 0);
	vlapic_timer_update(&l, 1000000);
	CHECK_EQ(l.posted.pir[3], 1u << 6);
	CHECK_EQ(vlapic_pending_vector(&l), 0x66);

	/* The CPU EOIs 0x45 (level) and 0x66 (edge): the IOAPIC hears of 0x45. */
	int before = neois;
	vlapic_eoi_exit(&l, 0x45);
	CHECK_EQ(neois, before + 1);
	CHECK_EQ(eoi_vecs[before], 0x45);
	vlapic_eoi_exit(&l, 0x66);
	CHECK_EQ(neois, before + 1);

	vlapic_reset(&l);
	CHECK_EQ(l.posted.pir[3], 0);
	CHECK(!vlapic_has_pending_irr(&l));
}

/* xAPIC mode's MMIO window (SDM 11.4.1), 32-bit at a register's offset. */
static u32 mrd(struct vlapic *l, u32 off) { return (u32)vlapic_mmio_read(l, off, 4, 0); }
static void mwr(struct vlapic *l, u32 off, u32 val) { vlapic_mmio_write(l, off, 4, val, 0); }

/* Power-up (SDM 11.4.7.1): xAPIC mode at 0xFEE00000, ID in bits 31:24, LDR 0, DFR flat,
 * the x2APIC MSRs absent; the window is the base's page only. */
static void test_xapic_power_up(void)
{
	struct vlapic l;

	vlapic_init(&l, page, 0, true, 48, 0, &mock_ops, NULL);
	CHECK_EQ(rd(&l, MSR_IA32_APIC_BASE, 0), 0xfee00900);
	CHECK(vlapic_enabled(&l) && !vlapic_x2apic_mode(&l));
	CHECK(gp_rd(&l, 0x802));
	GP_WR(&l, 0x808, 0);
	vlapic_init(&l, page, 5, false, 48, 0, &mock_ops, NULL);
	CHECK_EQ(rd(&l, MSR_IA32_APIC_BASE, 0), 0xfee00800);
	CHECK(vlapic_mmio_claims(&l, 0xfee00000) && vlapic_mmio_claims(&l, 0xfee00fff));
	CHECK(!vlapic_mmio_claims(&l, 0xfee01000) && !vlapic_mmio_claims(&l, 0xfedff000));
	CHECK_EQ(mrd(&l, APIC_REG_ID), 5u << 24);
	CHECK_EQ(mrd(&l, APIC_REG_VERSION), VLAPIC_VERSION);
	CHECK_EQ(mrd(&l, APIC_REG_LDR), 0);
	CHECK_EQ(mrd(&l, APIC_REG_DFR), 0xffffffff);
	CHECK_EQ(mrd(&l, APIC_REG_SVR), 0xff);
	CHECK_EQ(mrd(&l, APIC_REG_LVT_TIMER), APIC_LVT_MASKED);
	/* Write-only and absent registers read 0; so do accesses past a register's 4 bytes. */
	CHECK_EQ(mrd(&l, APIC_REG_EOI), 0);
	CHECK_EQ(mrd(&l, APIC_REG_SELF_IPI), 0);
	CHECK_EQ(mrd(&l, 0x40), 0);
	CHECK_EQ(vlapic_mmio_read(&l, APIC_REG_VERSION + 1, 1, 0), 0x00);
	CHECK_EQ(vlapic_mmio_read(&l, APIC_REG_VERSION + 2, 2, 0), 6);
	CHECK_EQ(vlapic_mmio_read(&l, APIC_REG_VERSION + 2, 4, 0), 0);
	CHECK_EQ(vlapic_mmio_read(&l, APIC_REG_VERSION, 8, 0), 0);
}

/* xAPIC writes: no #GP, reserved bits dropped, only aligned 32-bit writes count. */
static void test_xapic_registers(void)
{
	struct vlapic l;

	vlapic_init(&l, page, 2, false, 48, 0, &mock_ops, NULL);
	mwr(&l, APIC_REG_SVR, 0xfffff1ff);
	CHECK_EQ(mrd(&l, APIC_REG_SVR), 0x1ff);
	mwr(&l, APIC_REG_TPR, 0x1234);
	CHECK_EQ(mrd(&l, APIC_REG_TPR), 0x34);
	CHECK_EQ(vlapic_tpr(&l), 0x34);
	vlapic_mmio_write(&l, APIC_REG_TPR, 1, 0x50, 0); /* not 32 bits: ignored */
	vlapic_mmio_write(&l, APIC_REG_TPR + 4, 4, 0x50, 0);
	CHECK_EQ(mrd(&l, APIC_REG_TPR), 0x34);
	mwr(&l, APIC_REG_ID, 9u << 24); /* ignored (vlapic.h) */
	CHECK_EQ(mrd(&l, APIC_REG_ID), 2u << 24);
	mwr(&l, APIC_REG_VERSION, 0);
	CHECK_EQ(mrd(&l, APIC_REG_VERSION), VLAPIC_VERSION);
	mwr(&l, APIC_REG_LDR, 0xa5ffffff);
	CHECK_EQ(mrd(&l, APIC_REG_LDR), 0xa5000000);
	mwr(&l, APIC_REG_DFR, 0);
	CHECK_EQ(mrd(&l, APIC_REG_DFR), 0x0fffffff);
	mwr(&l, APIC_REG_LVT_ERROR, 0xffffffff);
	CHECK_EQ(mrd(&l, APIC_REG_LVT_ERROR), APIC_LVT_MASKED | 0xff);
	mwr(&l, APIC_REG_LVT_TIMER, 0x600ec); /* timer mode 11b: reserved, ignored */
	CHECK_EQ(mrd(&l, APIC_REG_LVT_TIMER), APIC_LVT_MASKED);
	/* EOI takes any value; the ESR latches on any write. */
	CHECK(vlapic_accept(&l, 0x61, false));
	vlapic_ack(&l, 0x61);
	mwr(&l, APIC_REG_EOI, 0xdead);
	CHECK(!vlapic_test_vec(&l, APIC_REG_ISR, 0x61));
	mwr(&l, APIC_REG_ICR_LO, 0x05); /* fixed, vector 5: send illegal vector */
	mwr(&l, APIC_REG_ESR, 0x1234);
	CHECK_EQ(mrd(&l, APIC_REG_ESR), APIC_ESR_SEND_ILLEGAL_VECTOR);
	/* The timer, through the window: one-shot, counting down. */
	mwr(&l, APIC_REG_TIMER_DCR, 0xb);
	vlapic_mmio_write(&l, APIC_REG_TIMER_ICR, 4, 1000, 100);
	CHECK_EQ(vlapic_mmio_read(&l, APIC_REG_TIMER_CCR, 4, 600), 500);
	CHECK_EQ(vlapic_next_deadline(&l), 0); /* masked */
	mwr(&l, APIC_REG_LVT_TIMER, 0x30);
	CHECK_EQ(vlapic_next_deadline(&l), 1100);
}

/* The ICR in two halves: the destination in ICR_HI[31:24], 0xFF the broadcast. */
static void test_xapic_icr(void)
{
	struct vlapic l;

	vlapic_init(&l, page, 0, true, 48, 0, &mock_ops, NULL);
	mwr(&l, APIC_REG_SVR, 0x1ff);
	nipis = 0;
	mwr(&l, APIC_REG_ICR_HI, 0x03ffffff);
	CHECK_EQ(mrd(&l, APIC_REG_ICR_HI), 0x03000000);
	CHECK_EQ(nipis, 0);
	mwr(&l, APIC_REG_ICR_LO, 0xfffbf840); /* all, logical, level assert, vector 0x40 */
	CHECK_EQ(nipis, 1);
	CHECK_EQ(last_ipi.dest, 3);
	CHECK_EQ(last_ipi.vector, 0x40);
	CHECK(last_ipi.logical && last_ipi.level_assert);
	CHECK_EQ(last_ipi.shorthand, APIC_SH_ALL);
	CHECK_EQ(mrd(&l, APIC_REG_ICR_LO), 0x0008c840); /* reserved bits dropped, idle */
	mwr(&l, APIC_REG_ICR_HI, 0xff000000);
	mwr(&l, APIC_REG_ICR_LO, 0x4500); /* INIT */
	CHECK_EQ(last_ipi.dest, APIC_BROADCAST);
	CHECK_EQ(last_ipi.mode, APIC_DM_INIT);
}

/* xAPIC destinations (SDM 11.6.2): physical ID, logical by the DFR's model. */
static void test_xapic_dest(void)
{
	struct vlapic l;

	vlapic_init(&l, page, 0x13, false, 48, 0, NULL, NULL);
	CHECK(vlapic_match_dest(&l, 0x13, false));
	CHECK(!vlapic_match_dest(&l, 0x113, false)); /* an x2APIC ID */
	CHECK(vlapic_match_dest(&l, APIC_BROADCAST, false));
	CHECK(!vlapic_match_dest(&l, 0x13, true)); /* LDR 0 */
	mwr(&l, APIC_REG_LDR, 0x24000000);	   /* flat: bits 2 and 5 */
	CHECK(vlapic_match_dest(&l, 0x04, true) && vlapic_match_dest(&l, 0xa0, true));
	CHECK(!vlapic_match_dest(&l, 0x0b, true));
	mwr(&l, APIC_REG_DFR, 0x0fffffff); /* cluster: cluster 2, bit 2 */
	CHECK(vlapic_match_dest(&l, 0x24, true) && vlapic_match_dest(&l, 0x2c, true));
	CHECK(!vlapic_match_dest(&l, 0x14, true) && !vlapic_match_dest(&l, 0x28, true));
}

/* SDM 11.12.5: xAPIC -> x2APIC gives the x2APIC ID and LDR and closes the window;
 * disabled -> xAPIC brings back the ID, LDR 0, DFR flat; the window follows the base;
 * an INIT in xAPIC mode resets LDR and DFR. */
static void test_xapic_switches(void)
{
	struct vlapic l;

	vlapic_init(&l, page, 0x23, false, 48, 0, &mock_ops, NULL);
	mwr(&l, APIC_REG_LDR, 0x80000000);
	mwr(&l, APIC_REG_DFR, 0x0fffffff);
	vlapic_reset(&l);
	CHECK_EQ(mrd(&l, APIC_REG_LDR), 0);
	CHECK_EQ(mrd(&l, APIC_REG_DFR), 0xffffffff);
	mwr(&l, APIC_REG_LDR, 0x80000000);
	to_x2apic(&l);
	CHECK(!vlapic_mmio_claims(&l, 0xfee00000));
	CHECK_EQ(rd(&l, 0x802, 0), 0x23);
	CHECK_EQ(rd(&l, 0x80d, 0), 0x20008);
	CHECK(gp_rd(&l, 0x80e)); /* no DFR in x2APIC mode */
	vlapic_reset(&l);	 /* INIT keeps x2APIC mode and its LDR */
	CHECK_EQ(rd(&l, 0x80d, 0), 0x20008);
	WR(&l, MSR_IA32_APIC_BASE, APIC_DEFAULT_BASE, 0);
	CHECK(!vlapic_enabled(&l) && !vlapic_mmio_claims(&l, 0xfee00000));
	WR(&l, MSR_IA32_APIC_BASE, 0xfed40000 | APIC_BASE_EN, 0);
	CHECK(!vlapic_mmio_claims(&l, 0xfee00000) && vlapic_mmio_claims(&l, 0xfed40030));
	CHECK_EQ(mrd(&l, APIC_REG_ID), 0x23u << 24);
	CHECK_EQ(mrd(&l, APIC_REG_LDR), 0);
	CHECK_EQ(mrd(&l, APIC_REG_DFR), 0xffffffff);
	CHECK_EQ(mrd(&l, APIC_REG_SVR), 0xff);
}

int main(void)
{
	test_mul_div();
	test_init_and_registers();
	test_gp();
	test_svr();
	test_priority();
	test_tmr_eoi();
	test_icr();
	test_self_ipi();
	test_dest();
	test_timer_oneshot();
	test_timer_divider();
	test_timer_periodic();
	test_timer_storm();
	test_timer_tsc_deadline();
	test_apic_base();
	test_register_page();
	test_posted_requests();
	test_xapic_power_up();
	test_xapic_registers();
	test_xapic_icr();
	test_xapic_dest();
	test_xapic_switches();
	return test_summary();
}
