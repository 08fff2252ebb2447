/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for the guest ACPI tables (arch/x86/guest_acpi.c): build, then parse
 * back as an OS would, starting from the RSDP and following GPAs. */
#include "../../../arch/x86/guest_acpi.c"
#include "../test.h"

static u8 buf[16384];
static size_t used;
static u64 base;

static u8 sum(const void *p, size_t n) { return acpi_sum(p, n); }

static u32 rd32(const u8 *p)
{
	u32 v;
	memcpy(&v, p, 4);
	return v;
}

static u64 rd64(const u8 *p)
{
	u64 v;
	memcpy(&v, p, 8);
	return v;
}

static u16 rd16(const u8 *p) { return (u16)(p[0] | p[1] << 8); }

/* GPA -> pointer into buf, NULL if [gpa, gpa+len) is not inside what was built. */
static const u8 *at(u64 gpa, size_t len)
{
	if (gpa < base || gpa - base > used || len > used - (gpa - base))
		return NULL;
	return buf + (gpa - base);
}

/* Checks a table's header and returns it (NULL if bad). */
static const u8 *table(u64 gpa, const char *sig, u8 rev, const char *oem)
{
	const u8 *t = at(gpa, 36);
	CHECK(t != NULL);
	if (!t)
		return NULL;
	u32 len = rd32(t + 4);
	CHECK(memcmp(t, sig, 4) == 0);
	CHECK(len >= 36);
	CHECK(at(gpa, len) != NULL);
	if (len < 36 || !at(gpa, len))
		return NULL;
	CHECK_EQ(sum(t, len), 0);
	CHECK_EQ(t[8], rev);
	CHECK(memcmp(t + 10, oem, 6) == 0);
	CHECK(memcmp(t + 16, "HVTABLES", 8) == 0);
	CHECK(memcmp(t + 28, "HVHV", 4) == 0);
	CHECK_EQ(gpa % 8, 0);
	return t;
}

static void check_gas(const u8 *g, u8 bits, u8 access, u64 port)
{
	CHECK_EQ(g[0], 1); /* system I/O */
	CHECK_EQ(g[1], bits);
	CHECK_EQ(g[2], 0);
	CHECK_EQ(g[3], access);
	CHECK_EQ(rd64(g + 4), port);
}

static struct guest_acpi_params params(u64 gpa, u32 nvcpus)
{
	struct guest_acpi_params p = {
		.gpa = gpa,
		.nvcpus = nvcpus,
		.ioapic_id = nvcpus,
		.ioapic_addr = 0xFEC00000,
		.pm1a_evt_port = 0x600,
		.pm1a_cnt_port = 0x604,
		.pm_timer_port = 0x608,
		.reset_port = 0xCF9,
		.reset_value = 0x06,
		.sci_irq = 9,
		.oem_id = "HVHVHV",
	};
	return p;
}

static void test_build(u64 gpa, u32 nvcpus)
{
	struct guest_acpi_params p = params(gpa, nvcpus);
	u64 rsdp_gpa = 0;

	memset(buf, 0xCC, sizeof(buf));
	base = gpa;
	used = guest_acpi_build(buf, sizeof(buf), &p, &rsdp_gpa);
	CHECK(used > 0);
	if (!used)
		return;

	/* RSDP */
	const u8 *rsdp = at(rsdp_gpa, 36);
	CHECK(rsdp != NULL);
	if (!rsdp)
		return;
	CHECK_EQ(rsdp_gpa % 16, 0);
	CHECK(memcmp(rsdp, "RSD PTR ", 8) == 0);
	CHECK_EQ(sum(rsdp, 20), 0);
	CHECK_EQ(sum(rsdp, 36), 0);
	CHECK(memcmp(rsdp + 9, "HVHVHV", 6) == 0);
	CHECK_EQ(rsdp[15], 2);
	CHECK_EQ(rd32(rsdp + 16), 0);
	CHECK_EQ(rd32(rsdp + 20), 36);

	/* XSDT */
	const u8 *xsdt = table(rd64(rsdp + 24), "XSDT", 1, "HVHVHV");
	if (!xsdt)
		return;
	CHECK_EQ(rd32(xsdt + 4), 36 + 16);
	u64 fadt_gpa = rd64(xsdt + 36), madt_gpa = rd64(xsdt + 44);

	/* FADT */
	const u8 *f = table(fadt_gpa, "FACP", 6, "HVHVHV");
	if (!f)
		return;
	CHECK_EQ(rd32(f + 4), 276);
	u64 facs_gpa = rd64(f + 132), dsdt_gpa = rd64(f + 140);
	CHECK_EQ(rd32(f + 36), facs_gpa);
	CHECK_EQ(rd32(f + 40), dsdt_gpa);
	CHECK_EQ(rd16(f + 46), 9); /* SCI_INT */
	CHECK_EQ(rd32(f + 48), 0); /* SMI_CMD */
	CHECK_EQ(f[52], 0);
	CHECK_EQ(f[53], 0);
	CHECK_EQ(rd32(f + 56), 0x600); /* PM1a_EVT_BLK */
	CHECK_EQ(rd32(f + 60), 0);
	CHECK_EQ(rd32(f + 64), 0x604); /* PM1a_CNT_BLK */
	CHECK_EQ(rd32(f + 68), 0);
	CHECK_EQ(rd32(f + 72), 0);
	CHECK_EQ(rd32(f + 76), 0x608); /* PM_TMR_BLK */
	CHECK_EQ(rd32(f + 80), 0);     /* no GPE0 */
	CHECK_EQ(f[88], 4);
	CHECK_EQ(f[89], 2);
	CHECK_EQ(f[90], 0);
	CHECK_EQ(f[91], 4);
	CHECK_EQ(f[92], 0);
	CHECK(rd16(f + 96) > 100);
	CHECK(rd16(f + 98) > 1000);
	u16 iapc = rd16(f + 109);
	CHECK_EQ(iapc & 0x3, 0); /* no legacy devices, no 8042 */
	CHECK(iapc & BIT(2));	 /* VGA not present */
	CHECK(iapc & BIT(3));	 /* MSI not supported */
	CHECK(!(iapc & BIT(5))); /* RTC present by default */
	u32 flags = rd32(f + 112);
	CHECK(flags & BIT(0));	   /* WBINVD */
	CHECK(!(flags & BIT(2)));  /* PROC_C1 */
	CHECK(!(flags & BIT(8)));  /* TMR_VAL_EXT: 24-bit */
	CHECK(flags & BIT(10));	   /* RESET_REG_SUP */
	CHECK(!(flags & BIT(20))); /* not HW_REDUCED_ACPI */
	check_gas(f + 116, 8, 1, 0xCF9);
	CHECK_EQ(f[128], 0x06);
	CHECK_EQ(f[131], 4);
	check_gas(f + 148, 32, 2, 0x600);
	check_gas(f + 172, 16, 2, 0x604);
	check_gas(f + 208, 32, 3, 0x608);
	for (unsigned o = 160; o < 276; o++) /* PM1b.., GPE, sleep regs, vendor: 0 */
		if (!(o >= 172 && o < 184) && !(o >= 208 && o < 220))
			CHECK_EQ(f[o], 0);

	/* FACS: no checksum, 64 bytes, 64-byte aligned */
	const u8 *facs = at(facs_gpa, 64);
	CHECK(facs != NULL);
	if (facs) {
		CHECK_EQ(facs_gpa % 64, 0);
		CHECK(memcmp(facs, "FACS", 4) == 0);
		CHECK_EQ(rd32(facs + 4), 64);
		CHECK_EQ(facs[32], 2);
	}

	/* DSDT: exactly Name (_S5, Package (4) {5, 5, 0, 0}) */
	static const u8 aml[] = { 0x08, 0x5F, 0x53, 0x35, 0x5F, 0x12, 0x08,
				  0x04, 0x0A, 0x05, 0x0A, 0x05, 0x00, 0x00 };
	const u8 *d = table(dsdt_gpa, "DSDT", 2, "HVHVHV");
	if (d) {
		CHECK_EQ(rd32(d + 4), 36 + sizeof(aml));
		CHECK(memcmp(d + 36, aml, sizeof(aml)) == 0);
		/* PkgLength covers itself through the last element */
		CHECK_EQ(d[36 + 6], sizeof(aml) - 6);
		CHECK_EQ(d[36 + 9], GUEST_ACPI_SLP_TYP_S5);
	}

	/* MADT */
	const u8 *m = table(madt_gpa, "APIC", 5, "HVHVHV");
	if (!m)
		return;
	u32 mlen = rd32(m + 4);
	CHECK_EQ(rd32(m + 36), 0xFEE00000);
	CHECK_EQ(rd32(m + 40), 0);
	unsigned nx2 = 0, nio = 0, niso = 0, nnmi = 0, nother = 0;
	bool iso0 = false, iso9 = false;
	u32 off = 44;
	while (off + 2 <= mlen) {
		const u8 *e = m + off;
		CHECK(e[1] >= 2 && off + e[1] <= mlen);
		if (e[1] < 2 || off + e[1] > mlen)
			break;
		switch (e[0]) {
		case 9:
			CHECK_EQ(e[1], 16);
			CHECK_EQ(rd32(e + 4), nx2);  /* x2APIC ID */
			CHECK_EQ(rd32(e + 8), 1);    /* enabled */
			CHECK_EQ(rd32(e + 12), nx2); /* UID */
			nx2++;
			break;
		case 1:
			CHECK_EQ(e[1], 12);
			CHECK_EQ(e[2], nvcpus);
			CHECK_EQ(rd32(e + 4), 0xFEC00000);
			CHECK_EQ(rd32(e + 8), 0);
			nio++;
			break;
		case 2:
			CHECK_EQ(e[1], 10);
			CHECK_EQ(e[2], 0);
			if (e[3] == 0) {
				CHECK_EQ(rd32(e + 4), 2);
				CHECK_EQ(rd16(e + 8), 0x5); /* edge, high */
				iso0 = true;
			} else if (e[3] == 9) {
				CHECK_EQ(rd32(e + 4), 9);
				CHECK_EQ(rd16(e + 8), 0xF); /* level, low */
				iso9 = true;
			}
			niso++;
			break;
		case 0x0A:
			CHECK_EQ(e[1], 12);
			CHECK_EQ(rd16(e + 2), 0);
			CHECK_EQ(rd32(e + 4), 0xFFFFFFFF);
			CHECK_EQ(e[8], 1); /* LINT1 */
			nnmi++;
			break;
		default:
			nother++;
		}
		off += e[1];
	}
	CHECK_EQ(off, mlen);
	CHECK_EQ(nx2, nvcpus);
	CHECK_EQ(nio, 1);
	CHECK_EQ(niso, 2);
	CHECK(iso0 && iso9);
	CHECK_EQ(nnmi, 1);
	CHECK_EQ(nother, 0);
	CHECK_EQ(mlen, 44 + 16 * nvcpus + 12 + 20 + 12);

	/* nothing past the returned size was touched */
	for (size_t i = used; i < sizeof(buf); i++)
		if (buf[i] != 0xCC) {
			CHECK(0);
			break;
		}

	/* too small by one byte, and much too small */
	u64 r2 = 0x1234;
	CHECK_EQ(guest_acpi_build(buf, used - 1, &p, &r2), 0);
	CHECK_EQ(guest_acpi_build(buf, 16, &p, &r2), 0);
	CHECK_EQ(r2, 0x1234);
	CHECK_EQ(guest_acpi_build(buf, used, &p, &r2), used);
	CHECK_EQ(r2, rsdp_gpa);
}

static void test_params(void)
{
	struct guest_acpi_params p = params(0xE0000, 2);
	u64 r;

	p.nvcpus = 0;
	CHECK_EQ(guest_acpi_build(buf, sizeof(buf), &p, &r), 0);
	p.nvcpus = 2;
	p.ioapic_addr = BIT(32);
	CHECK_EQ(guest_acpi_build(buf, sizeof(buf), &p, &r), 0);
	p.ioapic_addr = 0xFEC00000;

	/* short OEM ID is space padded; no_cmos_rtc sets IAPC bit 5 */
	p.oem_id = "AB";
	p.no_cmos_rtc = true;
	base = p.gpa;
	used = guest_acpi_build(buf, sizeof(buf), &p, &r);
	CHECK(used > 0);
	const u8 *rsdp = at(r, 36);
	CHECK(rsdp && memcmp(rsdp + 9, "AB    ", 6) == 0);
	const u8 *x = table(rd64(rsdp + 24), "XSDT", 1, "AB    ");
	const u8 *f = x ? table(rd64(x + 36), "FACP", 6, "AB    ") : NULL;
	CHECK(f && (rd16(f + 109) & BIT(5)));

	/* tables above 4 GiB: 32-bit FADT pointers are left 0 */
	p = params(0x100000000ull + 0x3000, 1);
	base = p.gpa;
	used = guest_acpi_build(buf, sizeof(buf), &p, &r);
	rsdp = at(r, 36);
	x = rsdp ? table(rd64(rsdp + 24), "XSDT", 1, "HVHVHV") : NULL;
	f = x ? table(rd64(x + 36), "FACP", 6, "HVHVHV") : NULL;
	CHECK(f != NULL);
	if (f) {
		CHECK_EQ(rd32(f + 36), 0);
		CHECK_EQ(rd32(f + 40), 0);
		CHECK(rd64(f + 132) > 0xFFFFFFFFull);
		CHECK(rd64(f + 140) > 0xFFFFFFFFull);
	}
}

int main(void)
{
	static const u32 n[] = { 1, 4, 64 };
	for (unsigned i = 0; i < ARRAY_SIZE(n); i++) {
		test_build(0xE0000, n[i]);
		test_build(0x7FF00000 + 0x24, n[i]); /* unaligned base: RSDP/FACS still aligned */
	}
	test_params();
	return test_summary();
}
