/* SPDX-License-Identifier: GPL-2.0-only */
/* Unit tests for the host ACPI parsers (drivers/acpi.c): tables built in memory as
 * QEMU's virt machine hands them to AAVMF (arm64: MADT with GICC/GICD/GICR, FADT,
 * SPCR) and as OVMF gives them on a PC (x86: local APIC / x2APIC entries). The
 * memory lies below 4 GiB so that RSDT entries can point into it too. */
#include <stdlib.h>
#include <sys/mman.h>
#include "../../../drivers/acpi.c"
#include "../bytes.h"
#include "../test.h"

#define MEM_SIZE (256 * 1024)

static u8 *mem;
static size_t used;

static u64 addr(const void *p) { return (u64)(uintptr_t)p; }

/* The table an RSDP's XSDT address points at, writable. */
static u8 *xsdt_of(u8 *rsdp) { return (u8 *)(uintptr_t)rd64(rsdp + 24); }

static void reset_mem(void)
{
	memset(mem, 0, MEM_SIZE);
	used = 0;
}

/* Zeroed space at `misalign` bytes past a 16-byte boundary. */
static u8 *alloc(size_t n, unsigned misalign)
{
	used = ALIGN_UP(used, 16) + misalign;
	u8 *p = mem + used;
	used += n;
	if (used > MEM_SIZE) {
		fprintf(stderr, "test_acpi: out of table memory\n");
		exit(1);
	}
	return p;
}

/* Sets the byte at `field` so that the len bytes at p sum to 0. */
static void set_sum(u8 *p, u32 len, u8 *field)
{
	u8 sum = 0;

	*field = 0;
	for (u32 i = 0; i < len; i++)
		sum += p[i];
	*field = (u8)-sum;
}

/* ------------------------------------------------------------------------- */
/* table builders                                                            */

/* A table: header with length 36 + body; seal() after filling it. */
static u8 *sdt(const char *sig, u32 len, u8 rev, unsigned misalign)
{
	u8 *t = alloc(len, misalign);
	memcpy(t, sig, 4);
	w32(t + 4, len);
	t[8] = rev;
	memcpy(t + 10, "BOCHS ", 6);
	memcpy(t + 16, "BXPC    ", 8);
	w32(t + 24, 1);
	memcpy(t + 28, "BXPC", 4);
	w32(t + 32, 1);
	return t;
}

static void seal(u8 *t) { set_sum(t, rd32(t + 4), t + 9); }

/* RSDP revision 2 with an XSDT, or revision 0 with an RSDT, listing n tables. */
static u8 *root(u8 *const *tables, unsigned n, bool xsdt)
{
	unsigned entry = xsdt ? 8 : 4;
	u8 *r = sdt(xsdt ? "XSDT" : "RSDT", 36 + n * entry, 1, 0);
	for (unsigned i = 0; i < n; i++) {
		if (xsdt)
			w64(r + 36 + i * 8, addr(tables[i]));
		else
			w32(r + 36 + i * 4, (u32)addr(tables[i]));
	}
	seal(r);

	u8 *p = alloc(36, 0);
	memcpy(p, "RSD PTR ", 8);
	memcpy(p + 9, "BOCHS ", 6);
	if (xsdt) {
		p[15] = 2;
		w32(p + 20, 36);
		w64(p + 24, addr(r));
	} else {
		w32(p + 16, (u32)addr(r));
	}
	set_sum(p, 20, p + 8);
	if (xsdt)
		set_sum(p, 36, p + 32);
	return p;
}

/* MADT being built: entries are appended, then madt_end() sets length and sum. */
static u8 *madt_begin(unsigned misalign)
{
	u8 *m = sdt("APIC", 44, 4, misalign);
	used += 32 * 1024; /* room for entries (ACPI_ARM_MAX_CPUS GICCs and more) */
	return m;
}

static u8 *madt_add(u8 *m, u8 type, u8 len)
{
	u32 off = rd32(m + 4);
	u8 *e = m + off;
	memset(e, 0, len);
	e[0] = type;
	e[1] = len;
	w32(m + 4, off + len);
	return e;
}

static void madt_end(u8 *m) { seal(m); }

/* QEMU virt's memory map and interrupts (hw/arm/virt.c). */
#define VIRT_GICD 0x08000000ull
#define VIRT_GICC 0x08010000ull
#define VIRT_GICV2M 0x08020000ull
#define VIRT_GICH 0x08030000ull
#define VIRT_GICV 0x08040000ull
#define VIRT_ITS 0x08080000ull
#define VIRT_GICR 0x080A0000ull
#define VIRT_GICR_SIZE 0x00F60000u
#define VIRT_UART 0x09000000ull
#define MAINT_GSIV 25 /* PPI 9 */
#define PMU_GSIV 23   /* PPI 7 */

static u64 virt_mpidr(unsigned i) { return ((u64)(i / 16) << 8) | (i % 16); }

static u8 *gicc(u8 *m, unsigned i, int gic_version, u32 flags)
{
	u8 *e = madt_add(m, 0x0B, 80);
	w32(e + 4, i); /* CPU interface number */
	w32(e + 8, i); /* ACPI processor UID */
	w32(e + 12, flags);
	w32(e + 20, PMU_GSIV);
	if (gic_version == 2) {
		w64(e + 32, VIRT_GICC);
		w64(e + 40, VIRT_GICV);
		w64(e + 48, VIRT_GICH);
	}
	w32(e + 56, MAINT_GSIV);
	w64(e + 68, virt_mpidr(i));
	return e;
}

static u8 *gicd(u8 *m, u64 base, u8 version)
{
	u8 *e = madt_add(m, 0x0C, 24);
	w64(e + 8, base);
	e[20] = version;
	return e;
}

static u8 *gicr(u8 *m, u64 base, u32 len)
{
	u8 *e = madt_add(m, 0x0E, 16);
	w64(e + 4, base);
	w32(e + 12, len);
	return e;
}

/* The MADT QEMU builds for -M virt,virtualization=on,gic-version=N -smp ncpus. */
static u8 *virt_madt(int gic_version, unsigned ncpus, unsigned misalign)
{
	u8 *m = madt_begin(misalign);
	gicd(m, VIRT_GICD, (u8)gic_version);
	for (unsigned i = 0; i < ncpus; i++)
		gicc(m, i, gic_version, 1);
	if (gic_version == 3) {
		gicr(m, VIRT_GICR, VIRT_GICR_SIZE);
		u8 *its = madt_add(m, 0x0F, 20);
		w64(its + 8, VIRT_ITS);
	} else {
		u8 *msi = madt_add(m, 0x0D, 24);
		w64(msi + 8, VIRT_GICV2M);
		w32(msi + 16, 1);
	}
	madt_end(m);
	return m;
}

static u8 *virt_fadt(u16 arm_boot_flags, u32 len)
{
	u8 *f = sdt("FACP", len, 6, 0);
	w32(f + 112, BIT(20)); /* HW_REDUCED_ACPI */
	if (len >= 131)
		w16(f + 129, arm_boot_flags);
	if (len >= 132)
		f[131] = 0; /* FADT minor version */
	seal(f);
	return f;
}

static u8 *virt_spcr(u8 type, u8 space, u32 len)
{
	u8 *s = sdt("SPCR", len, 2, 0);
	if (len >= 52) {
		s[36] = type;
		s[40] = space;
		s[41] = 8; /* register bit width */
		s[43] = 1; /* byte access */
		w64(s + 44, VIRT_UART);
	}
	if (len >= 80) {
		s[52] = 1 << 3;	 /* GIC interrupt */
		w32(s + 54, 33); /* SPI 1 */
		s[58] = 3;	 /* 9600 */
		s[61] = 2;	 /* RTS/CTS */
		w16(s + 64, 0xFFFF);
		w16(s + 66, 0xFFFF);
	}
	seal(s);
	return s;
}

struct virt {
	u8 *madt, *fadt, *spcr, *rsdp;
};

static struct virt virt(int gic_version, unsigned ncpus)
{
	struct virt v;

	reset_mem();
	v.fadt = virt_fadt(ACPI_ARM_PSCI_COMPLIANT, 276);
	v.madt = virt_madt(gic_version, ncpus, 0);
	v.spcr = virt_spcr(ACPI_SPCR_PL011, 0, 80);
	u8 *tables[] = { v.fadt, v.madt, v.spcr };
	v.rsdp = root(tables, 3, true);
	return v;
}

static struct acpi_arm_platform plat;

static int parse(const void *rsdp, const char **why)
{
	*why = NULL;
	return acpi_arm_platform(rsdp, &plat, why);
}

/* Parses and expects failure with the given reason. */
static void expect_error(const void *rsdp, const char *reason)
{
	const char *why;
	CHECK_EQ(parse(rsdp, &why), -1);
	CHECK_STR(why, reason);
}

/* ------------------------------------------------------------------------- */
/* arm64                                                                     */

static void test_gicv2(unsigned ncpus)
{
	struct virt v = virt(2, ncpus);
	const char *why;

	CHECK_EQ(parse(v.rsdp, &why), 0);
	CHECK(why == NULL);
	CHECK_EQ(plat.ncpus, ncpus);
	CHECK_EQ(plat.cpus_ignored, 0);
	for (unsigned i = 0; i < ncpus; i++) {
		const struct acpi_arm_cpu *c = &plat.cpus[i];
		CHECK_EQ(c->mpidr, i);
		CHECK_EQ(c->cpu_interface, i);
		CHECK_EQ(c->gicc_base, VIRT_GICC);
		CHECK_EQ(c->gicv_base, VIRT_GICV);
		CHECK_EQ(c->gich_base, VIRT_GICH);
		CHECK_EQ(c->vgic_maint_gsiv, MAINT_GSIV);
		CHECK_EQ(c->gicr_base, 0);
	}
	CHECK_EQ(plat.gicd_base, VIRT_GICD);
	CHECK_EQ(plat.gic_version, 2);
	CHECK_EQ(plat.ngicr, 0);
	CHECK_EQ(plat.arm_boot_flags, ACPI_ARM_PSCI_COMPLIANT);
	CHECK(plat.spcr);
	CHECK_EQ(plat.spcr_type, ACPI_SPCR_PL011);
	CHECK_EQ(plat.spcr_base, VIRT_UART);
}

static void test_gicv3(unsigned ncpus)
{
	struct virt v = virt(3, ncpus);
	const char *why;

	CHECK_EQ(parse(v.rsdp, &why), 0);
	CHECK_EQ(plat.ncpus, ncpus);
	for (unsigned i = 0; i < ncpus; i++) {
		const struct acpi_arm_cpu *c = &plat.cpus[i];
		CHECK_EQ(c->mpidr, i);
		CHECK_EQ(c->gicc_base, 0);
		CHECK_EQ(c->gicv_base, 0);
		CHECK_EQ(c->gich_base, 0);
		CHECK_EQ(c->vgic_maint_gsiv, MAINT_GSIV);
		CHECK_EQ(c->gicr_base, 0);
	}
	CHECK_EQ(plat.gicd_base, VIRT_GICD);
	CHECK_EQ(plat.gic_version, 3);
	CHECK_EQ(plat.ngicr, 1);
	CHECK_EQ(plat.gicr[0].base, VIRT_GICR);
	CHECK_EQ(plat.gicr[0].length, VIRT_GICR_SIZE);
	CHECK(plat.spcr);
}

static void test_cpu_flags(void)
{
	const char *why;

	/* CPU 2 disabled, CPU 3 only "online capable" (ACPI 6.5 flag bit 3) */
	reset_mem();
	u8 *m = madt_begin(0);
	gicd(m, VIRT_GICD, 2);
	gicc(m, 0, 2, 1);
	gicc(m, 1, 2, 1 | BIT(2)); /* edge-triggered maintenance interrupt */
	gicc(m, 2, 2, 0);
	gicc(m, 3, 2, BIT(3));
	gicc(m, 4, 2, 1);
	madt_end(m);
	u8 *tables[] = { m, virt_fadt(ACPI_ARM_PSCI_COMPLIANT | ACPI_ARM_PSCI_USE_HVC, 268) };
	u8 *rsdp = root(tables, 2, true);
	CHECK_EQ(parse(rsdp, &why), 0);
	CHECK_EQ(plat.ncpus, 3);
	CHECK_EQ(plat.cpus[0].mpidr, 0);
	CHECK_EQ(plat.cpus[1].mpidr, 1);
	CHECK_EQ(plat.cpus[2].mpidr, 4);
	CHECK_EQ(plat.cpus[2].cpu_interface, 4);
	CHECK_EQ(plat.arm_boot_flags, ACPI_ARM_PSCI_COMPLIANT | ACPI_ARM_PSCI_USE_HVC);
	CHECK(!plat.spcr); /* none listed */

	/* all disabled */
	reset_mem();
	m = madt_begin(0);
	gicd(m, VIRT_GICD, 2);
	gicc(m, 0, 2, 0);
	madt_end(m);
	tables[0] = m;
	tables[1] = virt_fadt(1, 276);
	expect_error(root(tables, 2, true), "MADT lists no enabled GICC");
}

/* More enabled CPUs than ACPI_ARM_MAX_CPUS: the first ones are kept, in order. */
static void test_many_cpus(void)
{
	const char *why;

	reset_mem();
	u8 *m = madt_begin(0);
	gicd(m, VIRT_GICD, 3);
	for (unsigned i = 0; i < ACPI_ARM_MAX_CPUS + 6; i++)
		gicc(m, i, 3, 1);
	gicr(m, VIRT_GICR, VIRT_GICR_SIZE);
	gicr(m, 0x4000000000ull, 0x04000000); /* QEMU's second region (> 123 CPUs) */
	madt_end(m);
	u8 *tables[] = { virt_fadt(1, 276), m };
	CHECK_EQ(parse(root(tables, 2, true), &why), 0);
	CHECK_EQ(plat.ncpus, ACPI_ARM_MAX_CPUS);
	CHECK_EQ(plat.cpus_ignored, 6);
	CHECK_EQ(plat.cpus[17].mpidr, 0x101);
	CHECK_EQ(plat.cpus[ACPI_ARM_MAX_CPUS - 1].mpidr, virt_mpidr(ACPI_ARM_MAX_CPUS - 1));
	CHECK_EQ(plat.ngicr, 2);
	CHECK_EQ(plat.gicr[1].base, 0x4000000000ull);
	CHECK_EQ(plat.gicr[1].length, 0x04000000);
}

/* Per-CPU redistributors, ACPI 5.1-sized GICCs, unaligned tables, RSDT. */
static void test_variants(void)
{
	const char *why;

	/* GICv3 with each redistributor in its GICC, 76-byte (ACPI 5.1) entries,
	 * the MADT at an odd address (fields read byte by byte) */
	reset_mem();
	u8 *m = madt_begin(3);
	for (unsigned i = 0; i < 2; i++) {
		u8 *e = madt_add(m, 0x0B, 76);
		w32(e + 12, 1);
		w32(e + 56, MAINT_GSIV);
		w64(e + 60, VIRT_GICR + i * 0x20000);
		w64(e + 68, 0x100000000ull * (i + 1) | 0x10203); /* Aff3 in bits 39:32 */
	}
	gicd(m, VIRT_GICD, 4);
	madt_end(m);
	CHECK_EQ(addr(m) % 2, 1);
	u8 *tables[] = { m, virt_fadt(1, 276), virt_spcr(ACPI_SPCR_SBSA, 0, 80) };
	CHECK_EQ(parse(root(tables, 3, true), &why), 0);
	CHECK_EQ(plat.ncpus, 2);
	CHECK_EQ(plat.cpus[1].gicr_base, VIRT_GICR + 0x20000);
	CHECK_EQ(plat.cpus[1].mpidr, 0x200010203ull);
	CHECK_EQ(plat.cpus[1].vgic_maint_gsiv, MAINT_GSIV);
	CHECK_EQ(plat.gic_version, 4);
	CHECK_EQ(plat.ngicr, 0);
	CHECK_EQ(plat.spcr_type, ACPI_SPCR_SBSA);

	/* the same through an RSDT (ACPI 1.0 RSDP, 20 bytes) */
	u8 *rsdp = root(tables, 3, false);
	CHECK_EQ(rsdp[15], 0);
	CHECK_EQ(parse(rsdp, &why), 0);
	CHECK_EQ(plat.ncpus, 2);

	/* GIC version 0 (ACPI 5.1: reserved, "ask the hardware"): no per-version
	 * checks */
	reset_mem();
	m = madt_begin(0);
	gicd(m, VIRT_GICD, 0);
	gicc(m, 0, 3, 1);
	madt_end(m);
	tables[0] = m;
	tables[1] = virt_fadt(1, 268);
	CHECK_EQ(parse(root(tables, 2, true), &why), 0);
	CHECK_EQ(plat.gic_version, 0);
}

static void test_spcr(void)
{
	const char *why;
	struct virt v = virt(2, 1);

	/* I/O-port console: unusable here, as if absent */
	u8 *tables[] = { v.fadt, v.madt, virt_spcr(ACPI_SPCR_PL011, 1, 80) };
	CHECK_EQ(parse(root(tables, 3, true), &why), 0);
	CHECK(!plat.spcr);
	CHECK_EQ(plat.spcr_base, 0);
	/* too short for its base address */
	tables[2] = virt_spcr(ACPI_SPCR_PL011, 0, 48);
	CHECK_EQ(parse(root(tables, 3, true), &why), 0);
	CHECK(!plat.spcr);
	/* bad checksum */
	tables[2] = virt_spcr(ACPI_SPCR_PL011, 0, 80);
	tables[2][60] ^= 1;
	CHECK_EQ(parse(root(tables, 3, true), &why), 0);
	CHECK(!plat.spcr);
	/* the minimal table: header, interface type, base address */
	tables[2] = virt_spcr(ACPI_SPCR_SBSA_32BIT, 0, 52);
	CHECK_EQ(parse(root(tables, 3, true), &why), 0);
	CHECK(plat.spcr);
	CHECK_EQ(plat.spcr_type, ACPI_SPCR_SBSA_32BIT);
	CHECK_EQ(plat.spcr_base, VIRT_UART);
}

/* A server's SPCR on x86: a 16550 at I/O 0x2F8 (COM2), 115200 baud (code 7). */
static void test_spcr_x86(void)
{
	struct acpi_spcr sp;
	reset_mem();
	u8 *t = sdt("SPCR", 80, 2, 0);
	t[36] = ACPI_SPCR_16550;
	t[40] = ACPI_SPACE_IO;
	t[41] = 8;
	w64(t + 44, 0x2F8);
	t[58] = 7;
	seal(t);
	u8 *tables[1] = { t };
	CHECK_EQ(acpi_spcr(root(tables, 1, true), &sp), 0);
	CHECK_EQ(sp.type, ACPI_SPCR_16550);
	CHECK_EQ(sp.base.space, ACPI_SPACE_IO);
	CHECK_EQ(sp.base.addr, 0x2F8);
	CHECK_EQ(sp.base.access_bytes, 0); /* access size not given */
	CHECK_EQ(sp.baud, 115200);
	/* A memory-mapped 16550 with 32-bit registers (type 0x12, GAS access size 3: dword),
	 * as some AMD servers describe theirs. */
	t[36] = ACPI_SPCR_16550_GAS;
	t[40] = ACPI_SPACE_MEMORY;
	t[41] = 32;
	t[43] = 3;
	w64(t + 44, 0xFEDC9000);
	seal(t);
	CHECK_EQ(acpi_spcr(root(tables, 1, true), &sp), 0);
	CHECK_EQ(sp.type, ACPI_SPCR_16550_GAS);
	CHECK_EQ(sp.base.space, ACPI_SPACE_MEMORY);
	CHECK_EQ(sp.base.access_bytes, 4);
	CHECK_EQ(sp.base.addr, 0xFEDC9000);
	t[43] = 5; /* no such access size */
	seal(t);
	CHECK_EQ(acpi_spcr(root(tables, 1, true), &sp), 0);
	CHECK_EQ(sp.base.access_bytes, 0);
	/* Code 0: the rate the firmware left; an unknown code counts as that too. */
	t[58] = 0;
	seal(t);
	CHECK_EQ(acpi_spcr(root(tables, 1, true), &sp), 0);
	CHECK_EQ(sp.baud, 0);
	t[58] = 5;
	seal(t);
	CHECK_EQ(acpi_spcr(root(tables, 1, true), &sp), 0);
	CHECK_EQ(sp.baud, 0);
	/* No base address, a table cut before its base address ends, no table. */
	w64(t + 44, 0);
	seal(t);
	CHECK_EQ(acpi_spcr(root(tables, 1, true), &sp), -1);
	tables[0] = sdt("SPCR", 51, 2, 0);
	seal(tables[0]);
	CHECK_EQ(acpi_spcr(root(tables, 1, true), &sp), -1);
	CHECK_EQ(acpi_spcr(NULL, &sp), -1);
}

static void test_truncated(void)
{
	struct virt v;
	u8 *tables[3];
	const char *why;

	/* the MADT's length cuts its last GICC in half (checksum still right) */
	v = virt(2, 4);
	w32(v.madt + 4, 44 + 24 + 3 * 80 + 40);
	seal(v.madt);
	expect_error(v.rsdp, "MADT entry overruns the table");
	/* ... or its 2-byte entry header */
	v = virt(2, 1);
	w32(v.madt + 4, 44 + 24 + 80 + 24 + 1);
	seal(v.madt);
	expect_error(v.rsdp, "MADT entry overruns the table");
	/* an entry of length 0 would loop forever */
	v = virt(2, 1);
	v.madt[44 + 1] = 0;
	seal(v.madt);
	expect_error(v.rsdp, "MADT entry overruns the table");
	/* short entries */
	v = virt(2, 2);
	v.madt[44 + 24 + 80 + 1] = 60;
	v.madt[44 + 24 + 80 + 60] = 0x7F; /* the rest as an unknown entry */
	v.madt[44 + 24 + 80 + 61] = 20;
	seal(v.madt);
	expect_error(v.rsdp, "short MADT GICC entry");
	v = virt(3, 1);
	v.madt[44 + 1] = 20;
	v.madt[44 + 20] = 0x7F;
	v.madt[44 + 21] = 4;
	seal(v.madt);
	expect_error(v.rsdp, "short MADT GICD entry");
	v = virt(3, 1);
	v.madt[44 + 24 + 80 + 1] = 12;
	v.madt[44 + 24 + 80 + 12] = 0x7F;
	v.madt[44 + 24 + 80 + 13] = 4;
	seal(v.madt);
	expect_error(v.rsdp, "short MADT GICR entry");
	/* a MADT without room for its fixed fields */
	v = virt(2, 1);
	w32(v.madt + 4, 40);
	seal(v.madt);
	expect_error(v.rsdp, "MADT too short");
	/* a header length below the header's own size: the table is not found */
	v = virt(2, 1);
	w32(v.madt + 4, 20);
	seal(v.madt);
	expect_error(v.rsdp, "no valid MADT");

	/* an ACPI 2.0-sized FADT has no ARM_BOOT_ARCH */
	v = virt(2, 1);
	tables[0] = v.madt;
	tables[1] = virt_fadt(0, 116);
	expect_error(root(tables, 2, true), "FADT too short for ARM_BOOT_ARCH");
	tables[1] = virt_fadt(1, 131);
	CHECK_EQ(parse(root(tables, 2, true), &why), 0);
	CHECK_EQ(plat.arm_boot_flags, 1);

	/* an XSDT whose length leaves out the MADT (listed last) */
	v = virt(2, 1);
	tables[0] = v.fadt;
	tables[1] = v.spcr;
	tables[2] = v.madt;
	u8 *rsdp = root(tables, 3, true);
	u8 *xsdt = xsdt_of(rsdp);
	w32(xsdt + 4, 36 + 2 * 8);
	seal(xsdt);
	expect_error(rsdp, "no valid MADT");
	/* no FADT at all */
	tables[0] = v.madt;
	expect_error(root(tables, 1, true), "no valid FADT");
}

static void test_checksums(void)
{
	struct virt v;

	v = virt(2, 1);
	v.madt[50] ^= 0x40;
	expect_error(v.rsdp, "no valid MADT");
	v = virt(2, 1);
	v.fadt[129] ^= 2;
	expect_error(v.rsdp, "no valid FADT");
	v = virt(2, 1);
	u8 *xsdt = xsdt_of(v.rsdp);
	xsdt[40] ^= 1;
	expect_error(v.rsdp, "no valid MADT");
	/* RSDP: signature, ACPI 1.0 checksum, extended checksum */
	v = virt(2, 1);
	v.rsdp[0] = 'r';
	expect_error(v.rsdp, "no valid ACPI RSDP");
	v = virt(2, 1);
	v.rsdp[9] ^= 1;
	set_sum(v.rsdp, 36, v.rsdp + 32);
	expect_error(v.rsdp, "no valid ACPI RSDP");
	v = virt(2, 1);
	v.rsdp[33] ^= 1;
	expect_error(v.rsdp, "no valid ACPI RSDP");
	expect_error(NULL, "no valid ACPI RSDP");
	/* a checksum-valid table under a wrong root signature is not followed */
	v = virt(2, 1);
	xsdt = xsdt_of(v.rsdp);
	memcpy(xsdt, "RSDT", 4);
	seal(xsdt);
	expect_error(v.rsdp, "no valid MADT");
}

/* Tables that are whole but do not describe a usable GIC. */
static void test_inconsistent(void)
{
	u8 *tables[2], *m;

	reset_mem();
	tables[1] = virt_fadt(1, 276);
	m = madt_begin(0);
	gicc(m, 0, 2, 1);
	madt_end(m);
	tables[0] = m;
	expect_error(root(tables, 2, true), "MADT lists no GICD");

	m = madt_begin(0);
	gicd(m, VIRT_GICD, 2);
	gicc(m, 0, 2, 1);
	gicd(m, VIRT_GICD, 2);
	madt_end(m);
	tables[0] = m;
	expect_error(root(tables, 2, true), "MADT lists two GICDs");

	m = madt_begin(0);
	gicd(m, VIRT_GICD, 2);
	gicc(m, 0, 2, 1);
	gicc(m, 0, 2, 1);
	madt_end(m);
	tables[0] = m;
	expect_error(root(tables, 2, true), "MADT lists an MPIDR twice");

	m = madt_begin(0);
	gicd(m, VIRT_GICD, 2);
	gicc(m, 0, 3, 1); /* GICv2 distributor, GICv3-style CPU entry */
	madt_end(m);
	tables[0] = m;
	expect_error(root(tables, 2, true), "MADT gives a CPU no GICC base");

	m = madt_begin(0);
	gicd(m, VIRT_GICD, 3);
	gicc(m, 0, 3, 1);
	madt_end(m);
	tables[0] = m;
	expect_error(root(tables, 2, true), "MADT gives a CPU no redistributor");

	m = madt_begin(0);
	gicd(m, VIRT_GICD, 3);
	gicc(m, 0, 3, 1);
	for (unsigned i = 0; i <= ACPI_ARM_MAX_GICR; i++)
		gicr(m, VIRT_GICR + i * 0x100000, 0x100000);
	madt_end(m);
	tables[0] = m;
	expect_error(root(tables, 2, true), "MADT lists too many GICR ranges");
}

/* ------------------------------------------------------------------------- */
/* x86: acpi_madt_cpus()                                                     */

static u8 *lapic(u8 *m, u8 uid, u8 id, u32 flags)
{
	u8 *e = madt_add(m, 0, 8);
	e[2] = uid;
	e[3] = id;
	w32(e + 4, flags);
	return e;
}

static u8 *x2apic(u8 *m, u32 id, u32 flags)
{
	u8 *e = madt_add(m, 9, 16);
	w32(e + 4, id);
	w32(e + 8, flags);
	w32(e + 12, id);
	return e;
}

static void test_x86(void)
{
	u32 ids[8];
	const char *why = NULL;
	u8 *tables[1], *m;

	/* OVMF-like: local APICs (one disabled), an I/O APIC, an interrupt source
	 * override, x2APICs (one repeating an xAPIC ID) */
	reset_mem();
	m = madt_begin(0);
	w32(m + 36, 0xFEE00000);
	w32(m + 40, 1);
	lapic(m, 0, 0, 1);
	lapic(m, 1, 1, 1);
	lapic(m, 2, 2, 0);
	lapic(m, 3, 3, 1);
	u8 *io = madt_add(m, 1, 12);
	w32(io + 4, 0xFEC00000);
	madt_add(m, 2, 10);
	x2apic(m, 3, 1);
	x2apic(m, 0x100, 1);
	x2apic(m, 0x101, 0);
	madt_end(m);
	tables[0] = m;
	u8 *rsdp = root(tables, 1, true);
	CHECK_EQ(acpi_madt_cpus(rsdp, ids, 8, &why), 4);
	CHECK_EQ(ids[0], 0);
	CHECK_EQ(ids[1], 1);
	CHECK_EQ(ids[2], 3);
	CHECK_EQ(ids[3], 0x100);
	/* capped at max */
	CHECK_EQ(acpi_madt_cpus(rsdp, ids, 2, &why), 2);
	/* through the RSDT */
	CHECK_EQ(acpi_madt_cpus(root(tables, 1, false), ids, 8, &why), 4);
	/* at an odd address */
	m = madt_begin(1);
	lapic(m, 0, 5, 1);
	madt_end(m);
	tables[0] = m;
	CHECK_EQ(acpi_madt_cpus(root(tables, 1, true), ids, 8, &why), 1);
	CHECK_EQ(ids[0], 5);
	/* a malformed entry ends the walk, keeping what came before */
	m = madt_begin(0);
	lapic(m, 0, 7, 1);
	madt_add(m, 0x7F, 2)[1] = 0;
	lapic(m, 1, 8, 1);
	madt_end(m);
	tables[0] = m;
	CHECK_EQ(acpi_madt_cpus(root(tables, 1, true), ids, 8, &why), 1);

	/* errors */
	CHECK_EQ(acpi_madt_cpus(NULL, ids, 8, &why), -1);
	CHECK_STR(why, "no valid ACPI RSDP");
	tables[0] = virt_fadt(0, 276);
	CHECK_EQ(acpi_madt_cpus(root(tables, 1, true), ids, 8, &why), -1);
	CHECK_STR(why, "no valid ACPI MADT");
	m = madt_begin(0);
	lapic(m, 0, 0, 0);
	madt_end(m);
	tables[0] = m;
	CHECK_EQ(acpi_madt_cpus(root(tables, 1, true), ids, 8, &why), -1);
	CHECK_STR(why, "the MADT lists no enabled processor");
	/* the arm64 parser finds no GIC in a PC's MADT */
	u8 *pc[] = { m, virt_fadt(0, 276) };
	lapic(m, 1, 1, 1);
	madt_end(m);
	expect_error(root(pc, 2, true), "MADT lists no enabled GICC");
}

/* A DSDT whose body is the given AML bytes. */
static u8 *dsdt(const u8 *aml, u32 n)
{
	u8 *d = sdt("DSDT", 36 + n, 2, 0);
	memcpy(d + 36, aml, n);
	seal(d);
	return d;
}

/* QEMU q35's FADT (rev 3, 244 bytes): PM1a control at I/O 0x604 in both the 32-bit field
 * and X_PM1a_CNT_BLK, the reset register I/O 0xCF9 = 0x0F (RESET_REG_SUP), the DSDT in
 * both fields. */
static u8 *q35_fadt(const u8 *dsdt_table, u32 len, u32 flags)
{
	u8 *f = sdt("FACP", len, 3, 0);
	w32(f + 40, (u32)addr(dsdt_table));
	w32(f + 64, 0x604);
	w32(f + 76, 0x608); /* PM_TMR_BLK */
	f[89] = 2;
	w32(f + 112, flags);
	if (len >= 129) {
		f[116] = ACPI_SPACE_IO;
		f[117] = 8;
		w64(f + 120, 0xCF9);
		f[128] = 0x0F;
	}
	if (len >= 148)
		w64(f + 140, addr(dsdt_table));
	if (len >= 184) {
		f[172] = ACPI_SPACE_IO;
		f[173] = 16;
		w64(f + 176, 0x604);
	}
	if (len >= 220) {
		f[208] = ACPI_SPACE_IO;
		f[209] = 32;
		w64(f + 212, 0x608);
	}
	seal(f);
	return f;
}

static void test_power(void)
{
	struct acpi_power pw;
	const char *why = NULL;
	/* Scope (\) { Name (_S5, Package (4) { Zero, Zero, Zero, Zero }) } as QEMU writes it,
	 * after other names; then variants. */
	static const u8 q35_aml[] = {
		0x08, '_', 'S', '3', '_', 0x12, 0x06, 0x04, 0x01, 0x01, 0, 0,
		0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0, 0
	};
	reset_mem();
	u8 *tables[1] = { q35_fadt(dsdt(q35_aml, sizeof q35_aml), 244, BIT(10)) };
	CHECK_EQ(acpi_power_info(root(tables, 1, true), &pw, &why), 0);
	CHECK_EQ(pw.pm1a_cnt.space, ACPI_SPACE_IO);
	CHECK_EQ(pw.pm1a_cnt.addr, 0x604);
	CHECK_EQ(pw.pm1b_cnt.addr, 0);
	CHECK(pw.s5);
	CHECK_EQ(pw.slp_typ_a, 0);
	CHECK_EQ(pw.slp_typ_b, 0);
	CHECK(pw.reset);
	CHECK_EQ(pw.reset_reg.space, ACPI_SPACE_IO);
	CHECK_EQ(pw.reset_reg.addr, 0xCF9);
	CHECK_EQ(pw.reset_value, 0x0F);

	/* A server's: \_S5 with byte constants (SLP_TYP 7 for PM1a, 5 for PM1b), PM1b at
	 * 0x1004 through the 32-bit field only, no RESET_REG_SUP. */
	static const u8 srv_aml[] = { 0x10, 0x05, '\\', 0x08, '\\', '_',  'S',	'5',  '_',
				      0x12, 0x0A, 0x04, 0x0A, 0x07, 0x0A, 0x05, 0x00, 0x00 };
	reset_mem();
	u8 *f = q35_fadt(dsdt(srv_aml, sizeof srv_aml), 244, 0);
	w32(f + 68, 0x1004);
	seal(f);
	tables[0] = f;
	CHECK_EQ(acpi_power_info(root(tables, 1, false), &pw, &why), 0);
	CHECK(pw.s5);
	CHECK_EQ(pw.slp_typ_a, 7);
	CHECK_EQ(pw.slp_typ_b, 5);
	CHECK_EQ(pw.pm1b_cnt.space, ACPI_SPACE_IO);
	CHECK_EQ(pw.pm1b_cnt.addr, 0x1004);
	CHECK(!pw.reset);

	/* An ACPI 1.0 FADT (116 bytes): ports only, no reset register, no X_ fields. */
	reset_mem();
	tables[0] = q35_fadt(dsdt(q35_aml, sizeof q35_aml), 116, BIT(10));
	CHECK_EQ(acpi_power_info(root(tables, 1, false), &pw, &why), 0);
	CHECK_EQ(pw.pm1a_cnt.addr, 0x604);
	CHECK(pw.s5);
	CHECK(!pw.reset);

	/* What is not \_S5: the name in a string or a method call, a package cut off by the
	 * table's end, a bad checksum. */
	static const u8 not_s5[][12] = {
		{ 0x0D, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0, 0 },
		{ 0x08, '_', 'S', '5', '_', 0x0A, 0x06, 0x04, 0x00, 0x00, 0, 0 },
		{ 0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x0C, 0x00, 0, 0 },
	};
	for (u32 i = 0; i < 3; i++) {
		reset_mem();
		tables[0] = q35_fadt(dsdt(not_s5[i], sizeof not_s5[i]), 244, 0);
		CHECK_EQ(acpi_power_info(root(tables, 1, true), &pw, &why), 0);
		CHECK(!pw.s5);
	}
	reset_mem();
	tables[0] = q35_fadt(dsdt(q35_aml, 20), 244, 0); /* ends inside the package */
	CHECK_EQ(acpi_power_info(root(tables, 1, true), &pw, &why), 0);
	CHECK(!pw.s5);
	reset_mem();
	u8 *d = dsdt(q35_aml, sizeof q35_aml);
	d[9]++;
	tables[0] = q35_fadt(d, 244, 0);
	CHECK_EQ(acpi_power_info(root(tables, 1, true), &pw, &why), 0);
	CHECK(!pw.s5);
	CHECK_EQ(pw.pm1a_cnt.addr, 0x604);

	/* The PM timer: 32 bits with TMR_VAL_EXT, else 24; through the X_ GAS or the port. */
	struct acpi_reg t;
	bool ext32;
	reset_mem();
	tables[0] = q35_fadt(dsdt(q35_aml, sizeof q35_aml), 244, BIT(8));
	CHECK_EQ(acpi_pm_timer(root(tables, 1, true), &t, &ext32, &why), 0);
	CHECK_EQ(t.space, ACPI_SPACE_IO);
	CHECK_EQ(t.addr, 0x608);
	CHECK(ext32);
	reset_mem();
	tables[0] = q35_fadt(dsdt(q35_aml, sizeof q35_aml), 116, 0);
	CHECK_EQ(acpi_pm_timer(root(tables, 1, true), &t, &ext32, &why), 0);
	CHECK_EQ(t.addr, 0x608);
	CHECK(!ext32);
	reset_mem();
	f = q35_fadt(dsdt(q35_aml, sizeof q35_aml), 116, 0);
	w32(f + 76, 0);
	seal(f);
	tables[0] = f;
	CHECK_EQ(acpi_pm_timer(root(tables, 1, true), &t, &ext32, &why), -1);
	CHECK_STR(why, "the FADT gives no PM timer");

	/* No FADT, no RSDP. */
	reset_mem();
	u8 *m = madt_begin(0);
	lapic(m, 0, 0, 1);
	madt_end(m);
	tables[0] = m;
	CHECK_EQ(acpi_power_info(root(tables, 1, true), &pw, &why), -1);
	CHECK_STR(why, "no valid FADT");
	CHECK_EQ(acpi_power_info(NULL, &pw, &why), -1);
	CHECK_STR(why, "no valid ACPI RSDP");
	CHECK_EQ(acpi_pm_timer(NULL, &t, &ext32, &why), -1);
	CHECK_STR(why, "no valid ACPI RSDP");
}

/* ------------------------------------------------------------------------- */
/* MCFG (PCI Firmware Specification 3.0, 4.1.2)                              */

/* An MCFG with n allocations, each (base, segment, start bus, end bus). */
static u8 *mcfg(const u64 (*alloc_list)[4], unsigned n, unsigned misalign)
{
	u8 *t = sdt("MCFG", 44 + 16 * n, 1, misalign);
	for (unsigned i = 0; i < n; i++) {
		u8 *e = t + 44 + 16 * i;
		w64(e, alloc_list[i][0]);
		w16(e + 8, (unsigned short)alloc_list[i][1]);
		e[10] = (u8)alloc_list[i][2];
		e[11] = (u8)alloc_list[i][3];
	}
	seal(t);
	return t;
}

static void test_mcfg(void)
{
	struct acpi_mcfg_entry m[4];
	const char *why = NULL;
	u8 *tables[2];

	/* QEMU q35: one segment, ECAM at 0xB0000000, buses 0-255 */
	reset_mem();
	static const u64 q35[][4] = { { 0xB0000000, 0, 0, 255 } };
	tables[0] = mcfg(q35, 1, 3);
	CHECK_EQ(acpi_mcfg(root(tables, 1, true), m, 4, &why), 1);
	CHECK_EQ(m[0].base, 0xB0000000);
	CHECK_EQ(m[0].segment, 0);
	CHECK_EQ(m[0].start_bus, 0);
	CHECK_EQ(m[0].end_bus, 255);
	/* QEMU virt (arm64, highmem ECAM), listed by an RSDT */
	reset_mem();
	static const u64 virt_ecam[][4] = { { 0x4010000000ull, 0, 0, 255 } };
	tables[0] = mcfg(virt_ecam, 1, 0);
	CHECK_EQ(acpi_mcfg(root(tables, 1, false), m, 4, &why), 1);
	CHECK_EQ(m[0].base, 0x4010000000ull);
	/* a server: two segments, bus ranges not starting at 0, a zero base and an
	 * inverted range skipped; max caps the count */
	reset_mem();
	static const u64 server[][4] = { { 0x80000000, 0, 0, 0x7F },
					 { 0, 0, 0x80, 0xFF },
					 { 0x3FFE0000000ull, 1, 0x80, 0x7F },
					 { 0x3FFF0000000ull, 2, 0x40, 0xFF } };
	tables[0] = mcfg(server, 4, 1);
	CHECK_EQ(acpi_mcfg(root(tables, 1, true), m, 4, &why), 2);
	CHECK_EQ(m[1].base, 0x3FFF0000000ull);
	CHECK_EQ(m[1].segment, 2);
	CHECK_EQ(m[1].start_bus, 0x40);
	CHECK_EQ(m[1].end_bus, 0xFF);
	CHECK_EQ(acpi_mcfg(root(tables, 1, true), m, 1, &why), 1);
	CHECK_EQ(m[0].base, 0x80000000);
	/* a table cut inside its second allocation: only the whole one counts */
	reset_mem();
	tables[0] = mcfg(server, 2, 0);
	w32(tables[0] + 4, 44 + 16 + 8);
	seal(tables[0]);
	CHECK_EQ(acpi_mcfg(root(tables, 1, true), m, 4, &why), 1);
	/* errors: no allocation usable, none listed, no MCFG, bad checksum, no RSDP */
	reset_mem();
	tables[0] = mcfg(server + 1, 2, 0);
	why = NULL;
	CHECK_EQ(acpi_mcfg(root(tables, 1, true), m, 4, &why), -1);
	CHECK_STR(why, "the ACPI MCFG lists no PCI configuration space");
	tables[0] = mcfg(server, 0, 0);
	CHECK_EQ(acpi_mcfg(root(tables, 1, true), m, 4, &why), -1);
	CHECK_STR(why, "the ACPI MCFG lists no PCI configuration space");
	tables[0] = sdt("APIC", 44, 4, 0);
	seal(tables[0]);
	tables[1] = mcfg(q35, 1, 0);
	tables[1][50] ^= 1;
	CHECK_EQ(acpi_mcfg(root(tables, 2, true), m, 4, &why), -1);
	CHECK_STR(why, "no valid ACPI MCFG (no PCI Express configuration space)");
	CHECK_EQ(acpi_mcfg(NULL, m, 4, &why), -1);
	CHECK_STR(why, "no valid ACPI RSDP");
}

int main(void)
{
	mem = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		   -1, 0);
	if (mem == MAP_FAILED || addr(mem) + MEM_SIZE > 0x100000000ull) {
		fprintf(stderr, "test_acpi: no memory below 4 GiB\n");
		return 1;
	}
	test_gicv2(1);
	test_gicv2(4);
	test_gicv3(1);
	test_gicv3(4);
	test_cpu_flags();
	test_many_cpus();
	test_variants();
	test_spcr();
	test_spcr_x86();
	test_truncated();
	test_checksums();
	test_inconsistent();
	test_x86();
	test_power();
	test_mcfg();
	return test_summary();
}
