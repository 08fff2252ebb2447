/* SPDX-License-Identifier: GPL-2.0-only */
/* Host ACPI parsing (ACPI 6.4: 5.2.5 RSDP, 5.2.7 RSDT, 5.2.8 XSDT, 5.2.9 FADT,
 * 5.2.12 MADT; Microsoft's Serial Port Console Redirection Table, SPCR; the PCI Firmware
 * Specification 3.0's MCFG, 4.1.2). Fields
 * are read byte by byte: tables and their entries need not be naturally aligned,
 * and arm64 code is built with -mstrict-align. */
#include "drivers/acpi.h"
#include "hv/lib.h"

#define SDT_HEADER_LEN 36
#define MADT_ENTRIES 44 /* header, local interrupt controller address, flags */

#define MADT_GICC 0x0B	/* 5.2.12.14 */
#define MADT_GICD 0x0C	/* 5.2.12.15 */
#define MADT_GICR 0x0E	/* 5.2.12.17 */
#define GICC_MIN_LEN 76 /* ACPI 5.1's GICC, up to MPIDR; 6.x adds to 80/82 */
#define GICC_ENABLED BIT(0)

#define FADT_DSDT 40
#define FADT_PM1A_CNT_BLK 64
#define FADT_PM1B_CNT_BLK 68
#define FADT_PM_TMR_BLK 76
#define FADT_FLAGS 112
#define FADT_RESET_REG 116
#define FADT_RESET_VALUE 128
#define FADT_ARM_BOOT_ARCH 129
#define FADT_X_DSDT 140
#define FADT_X_PM1A_CNT_BLK 172
#define FADT_X_PM1B_CNT_BLK 184
#define FADT_X_PM_TMR_BLK 208
#define FADT_TMR_VAL_EXT BIT(8)
#define FADT_RESET_REG_SUP BIT(10)
#define GAS_LEN 12
#define AML_NAME_OP 0x08
#define AML_PACKAGE_OP 0x12
#define AML_BYTE_PREFIX 0x0A
#define AML_ZERO_OP 0x00
#define AML_ONE_OP 0x01
#define SPCR_INTERFACE_TYPE 36
#define SPCR_BASE_ADDRESS 40 /* Generic Address Structure (5.2.3.2), 12 bytes */
#define SPCR_BAUD_RATE 58    /* 3: 9600, 4: 19200, 6: 57600, 7: 115200; 0: as is */
#define GAS_SYSTEM_MEMORY 0
#define MCFG_ENTRIES 44 /* header, 8 reserved bytes */
#define MCFG_ENTRY_LEN 16

static u16 rd16(const u8 *p) { return (u16)(p[0] | p[1] << 8); }

static u32 rd32(const u8 *p) { return rd16(p) | (u32)rd16(p + 2) << 16; }

static u64 rd64(const u8 *p) { return rd32(p) | (u64)rd32(p + 4) << 32; }

static const u8 *phys(u64 addr) { return (const u8 *)(uintptr_t)addr; }

static bool checksum_ok(const u8 *p, u32 len)
{
	u8 sum = 0;
	for (u32 i = 0; i < len; i++)
		sum += p[i];
	return sum == 0;
}

static bool sdt_ok(const u8 *t)
{
	u32 len = rd32(t + 4);
	return len >= SDT_HEADER_LEN && checksum_ok(t, len);
}

/* ACPI 1.0 RSDPs are 20 bytes; from revision 2 on, 36 with an extended checksum. */
static bool rsdp_ok(const u8 *rsdp)
{
	if (!rsdp || memcmp(rsdp, "RSD PTR ", 8) || !checksum_ok(rsdp, 20))
		return false;
	return rsdp[15] < 2 || checksum_ok(rsdp, 36);
}

/* The first table with signature sig and a valid checksum that the XSDT (the RSDT
 * when there is no XSDT) lists, or NULL. */
static const u8 *find_table(const u8 *rsdp, const char sig[4])
{
	u64 xsdt = rsdp[15] >= 2 ? rd64(rsdp + 24) : 0;
	u64 root = xsdt ? xsdt : rd32(rsdp + 16);
	u32 entry = xsdt ? 8 : 4;
	const u8 *h = phys(root);

	if (!root || memcmp(h, xsdt ? "XSDT" : "RSDT", 4) || !sdt_ok(h))
		return NULL;
	u32 n = (rd32(h + 4) - SDT_HEADER_LEN) / entry;
	for (u32 i = 0; i < n; i++) {
		const u8 *e = h + SDT_HEADER_LEN + i * entry;
		const u8 *t = phys(xsdt ? rd64(e) : rd32(e));
		if (t && !memcmp(t, sig, 4) && sdt_ok(t))
			return t;
	}
	return NULL;
}

int acpi_madt_cpus(const void *rsdp, u32 *apic_ids, u32 max, const char **why)
{
	if (!rsdp_ok(rsdp)) {
		*why = "no valid ACPI RSDP";
		return -1;
	}
	const u8 *madt = find_table(rsdp, "APIC");
	if (!madt) {
		*why = "no valid ACPI MADT";
		return -1;
	}
	u32 n = 0;
	const u8 *p = madt + MADT_ENTRIES;
	const u8 *end = madt + rd32(madt + 4);
	while (p + 2 <= end && p[1] >= 2 && p + p[1] <= end) {
		u32 id = ~0u, flags = 0;
		if (p[0] == 0 && p[1] >= 8) { /* processor local APIC */
			id = p[3];
			flags = rd32(p + 4);
		} else if (p[0] == 9 && p[1] >= 16) { /* processor local x2APIC */
			id = rd32(p + 4);
			flags = rd32(p + 8);
		}
		if (id != ~0u && (flags & 1) && n < max) {
			bool dup = false;
			for (u32 i = 0; i < n; i++)
				dup |= apic_ids[i] == id;
			if (!dup)
				apic_ids[n++] = id;
		}
		p += p[1];
	}
	if (!n) {
		*why = "the MADT lists no enabled processor";
		return -1;
	}
	return (int)n;
}

/* GICC: one processor. Disabled ones (perhaps "online capable") are not ours. */
static const char *madt_gicc(const u8 *e, struct acpi_arm_platform *out)
{
	if (e[1] < GICC_MIN_LEN)
		return "short MADT GICC entry";
	if (!(rd32(e + 12) & GICC_ENABLED))
		return NULL;
	u64 mpidr = rd64(e + 68);
	for (u32 i = 0; i < out->ncpus; i++)
		if (out->cpus[i].mpidr == mpidr)
			return "MADT lists an MPIDR twice";
	if (out->ncpus == ACPI_ARM_MAX_CPUS) {
		out->cpus_ignored++;
		return NULL;
	}
	struct acpi_arm_cpu *c = &out->cpus[out->ncpus++];
	c->mpidr = mpidr;
	c->cpu_interface = rd32(e + 4);
	c->gicc_base = rd64(e + 32);
	c->gicv_base = rd64(e + 40);
	c->gich_base = rd64(e + 48);
	c->vgic_maint_gsiv = rd32(e + 56);
	c->gicr_base = rd64(e + 60);
	return NULL;
}

/* GICD: the distributor, exactly one. */
static const char *madt_gicd(const u8 *e, struct acpi_arm_platform *out)
{
	if (e[1] < 24)
		return "short MADT GICD entry";
	if (out->gicd_base)
		return "MADT lists two GICDs";
	out->gicd_base = rd64(e + 8);
	out->gic_version = e[20];
	return NULL;
}

/* GICR: a range of redistributors (GICv3/v4), instead of per-CPU GICC fields. */
static const char *madt_gicr(const u8 *e, struct acpi_arm_platform *out)
{
	if (e[1] < 16)
		return "short MADT GICR entry";
	if (out->ngicr == ACPI_ARM_MAX_GICR)
		return "MADT lists too many GICR ranges";
	out->gicr[out->ngicr].base = rd64(e + 4);
	out->gicr[out->ngicr].length = rd32(e + 12);
	out->ngicr++;
	return NULL;
}

static const char *madt_arm(const u8 *madt, struct acpi_arm_platform *out)
{
	u32 len = rd32(madt + 4);
	const char *err = NULL;

	if (len < MADT_ENTRIES)
		return "MADT too short";
	const u8 *end = madt + len;
	for (const u8 *e = madt + MADT_ENTRIES; e < end && !err; e += e[1]) {
		if (end - e < 2 || e[1] < 2 || e[1] > end - e)
			return "MADT entry overruns the table";
		if (e[0] == MADT_GICC)
			err = madt_gicc(e, out);
		else if (e[0] == MADT_GICD)
			err = madt_gicd(e, out);
		else if (e[0] == MADT_GICR)
			err = madt_gicr(e, out);
	}
	if (err)
		return err;
	if (!out->ncpus)
		return "MADT lists no enabled GICC";
	if (!out->gicd_base)
		return "MADT lists no GICD";
	/* Each CPU reaches the GIC through a memory-mapped CPU interface (GICv1/v2)
	 * or its redistributor (GICv3/v4, from a GICR range or its GICC entry).
	 * Version 0 leaves it to the caller to read the hardware. */
	for (u32 i = 0; i < out->ncpus; i++) {
		const struct acpi_arm_cpu *c = &out->cpus[i];
		if ((out->gic_version == 1 || out->gic_version == 2) && !c->gicc_base)
			return "MADT gives a CPU no GICC base";
		if (out->gic_version >= 3 && !out->ngicr && !c->gicr_base)
			return "MADT gives a CPU no redistributor";
	}
	return NULL;
}

int acpi_arm_platform(const void *rsdp, struct acpi_arm_platform *out, const char **why)
{
	memset(out, 0, sizeof(*out));
	if (!rsdp_ok(rsdp)) {
		*why = "no valid ACPI RSDP";
		return -1;
	}
	const u8 *madt = find_table(rsdp, "APIC");
	if (!madt) {
		*why = "no valid MADT";
		return -1;
	}
	*why = madt_arm(madt, out);
	if (*why)
		return -1;
	const u8 *fadt = find_table(rsdp, "FACP");
	if (!fadt) {
		*why = "no valid FADT";
		return -1;
	}
	if (rd32(fadt + 4) < FADT_ARM_BOOT_ARCH + 2) {
		*why = "FADT too short for ARM_BOOT_ARCH";
		return -1;
	}
	out->arm_boot_flags = rd16(fadt + FADT_ARM_BOOT_ARCH);
	/* The console is optional: an SPCR we cannot use counts as none. */
	struct acpi_spcr spcr;
	if (!acpi_spcr(rsdp, &spcr) && spcr.base.space == ACPI_SPACE_MEMORY) {
		out->spcr = true;
		out->spcr_type = spcr.type;
		out->spcr_base = spcr.base.addr;
	}
	return 0;
}

/* A GAS at p in a table of length len, or none when the table ends before it. */
static struct acpi_reg gas(const u8 *t, u32 off)
{
	if (rd32(t + 4) < off + GAS_LEN)
		return (struct acpi_reg){ 0 };
	/* Access size (ACPI 6.4 5.2.3.2): 1 byte, 2 word, 3 dword, 4 qword; 0 undefined. */
	u8 size = t[off + 3];
	return (struct acpi_reg){ .space = t[off],
				  .access_bytes = size && size <= 4 ? (u8)(1u << (size - 1)) : 0,
				  .addr = rd64(t + off + 4) };
}

/* A PM register block: the 64-bit GAS where the FADT has one, else the 32-bit I/O port. */
static struct acpi_reg pm_block(const u8 *fadt, u32 x_off, u32 port_off)
{
	struct acpi_reg r = gas(fadt, x_off);
	if (!r.addr && rd32(fadt + 4) >= port_off + 4)
		r = (struct acpi_reg){ .space = ACPI_SPACE_IO, .addr = rd32(fadt + port_off) };
	return r;
}

/* An AML integer that a package element of \_S5 is: a ByteConst, Zero or One. */
static bool aml_small_int(const u8 *p, const u8 *end, u8 *val, const u8 **next)
{
	if (p < end && (*p == AML_ZERO_OP || *p == AML_ONE_OP)) {
		*val = *p;
		*next = p + 1;
		return true;
	}
	if (end - p >= 2 && *p == AML_BYTE_PREFIX) {
		*val = p[1];
		*next = p + 2;
		return true;
	}
	return false;
}

/* The \_S5 package of the DSDT's top level, `Name (_S5, Package () { a, b, ... })`, as
 * firmware writes it (a scan for the name, not an AML interpreter). */
static bool dsdt_s5(const u8 *dsdt, u8 *a, u8 *b)
{
	const u8 *end = dsdt + rd32(dsdt + 4);
	for (const u8 *p = dsdt + SDT_HEADER_LEN; end - p >= 8; p++) {
		if (memcmp(p, "_S5_", 4))
			continue;
		bool named = p[-1] == AML_NAME_OP || (p[-1] == '\\' && p[-2] == AML_NAME_OP);
		const u8 *q = p + 4;
		if (!named || *q++ != AML_PACKAGE_OP)
			continue;
		q += 1 + (*q >> 6); /* PkgLength: its lead byte says how many bytes follow */
		q++;		    /* NumElements */
		if (q < end && aml_small_int(q, end, a, &q) && aml_small_int(q, end, b, &q))
			return true;
	}
	return false;
}

int acpi_power_info(const void *rsdp, struct acpi_power *out, const char **why)
{
	memset(out, 0, sizeof(*out));
	if (!rsdp_ok(rsdp)) {
		*why = "no valid ACPI RSDP";
		return -1;
	}
	const u8 *fadt = find_table(rsdp, "FACP");
	if (!fadt) {
		*why = "no valid FADT";
		return -1;
	}
	u32 len = rd32(fadt + 4);
	out->pm1a_cnt = pm_block(fadt, FADT_X_PM1A_CNT_BLK, FADT_PM1A_CNT_BLK);
	out->pm1b_cnt = pm_block(fadt, FADT_X_PM1B_CNT_BLK, FADT_PM1B_CNT_BLK);
	if (len > FADT_RESET_VALUE && (rd32(fadt + FADT_FLAGS) & FADT_RESET_REG_SUP)) {
		out->reset_reg = gas(fadt, FADT_RESET_REG);
		out->reset_value = fadt[FADT_RESET_VALUE];
		out->reset = out->reset_reg.addr != 0;
	}
	u64 dsdt = len >= FADT_X_DSDT + 8 ? rd64(fadt + FADT_X_DSDT) : 0;
	if (!dsdt && len >= FADT_DSDT + 4)
		dsdt = rd32(fadt + FADT_DSDT);
	const u8 *d = phys(dsdt);
	if (dsdt && !memcmp(d, "DSDT", 4) && sdt_ok(d))
		out->s5 = dsdt_s5(d, &out->slp_typ_a, &out->slp_typ_b);
	return 0;
}

int acpi_pm_timer(const void *rsdp, struct acpi_reg *out, bool *ext32, const char **why)
{
	*out = (struct acpi_reg){ 0 };
	*ext32 = false;
	const u8 *fadt = rsdp_ok(rsdp) ? find_table(rsdp, "FACP") : NULL;
	if (!fadt) {
		*why = rsdp_ok(rsdp) ? "no valid FADT" : "no valid ACPI RSDP";
		return -1;
	}
	*out = pm_block(fadt, FADT_X_PM_TMR_BLK, FADT_PM_TMR_BLK);
	if (!out->addr) {
		*why = "the FADT gives no PM timer";
		return -1;
	}
	*ext32 = rd32(fadt + 4) > FADT_FLAGS + 3 && (rd32(fadt + FADT_FLAGS) & FADT_TMR_VAL_EXT);
	return 0;
}

int acpi_spcr(const void *rsdp, struct acpi_spcr *out)
{
	static const u32 rates[8] = { [3] = 9600, [4] = 19200, [6] = 57600, [7] = 115200 };
	memset(out, 0, sizeof(*out));
	const u8 *spcr = rsdp_ok(rsdp) ? find_table(rsdp, "SPCR") : NULL;
	if (!spcr || rd32(spcr + 4) < SPCR_BASE_ADDRESS + GAS_LEN)
		return -1;
	out->type = spcr[SPCR_INTERFACE_TYPE];
	out->base = gas(spcr, SPCR_BASE_ADDRESS);
	u8 code = rd32(spcr + 4) > SPCR_BAUD_RATE ? spcr[SPCR_BAUD_RATE] : 0;
	out->baud = code < 8 ? rates[code] : 0;
	return out->base.addr ? 0 : -1;
}

int acpi_mcfg(const void *rsdp, struct acpi_mcfg_entry *out, u32 max, const char **why)
{
	const u8 *mcfg = rsdp_ok(rsdp) ? find_table(rsdp, "MCFG") : NULL;
	if (!mcfg) {
		*why = rsdp_ok(rsdp) ? "no valid ACPI MCFG (no PCI Express configuration space)"
				     : "no valid ACPI RSDP";
		return -1;
	}
	u32 len = rd32(mcfg + 4), n = 0;
	for (u32 off = MCFG_ENTRIES; off + MCFG_ENTRY_LEN <= len && n < max;
	     off += MCFG_ENTRY_LEN) {
		const u8 *e = mcfg + off;
		struct acpi_mcfg_entry m = { .base = rd64(e),
					     .segment = rd16(e + 8),
					     .start_bus = e[10],
					     .end_bus = e[11] };
		if (m.base && m.end_bus >= m.start_bus)
			out[n++] = m;
	}
	if (!n) {
		*why = "the ACPI MCFG lists no PCI configuration space";
		return -1;
	}
	return (int)n;
}
