/* SPDX-License-Identifier: GPL-2.0-only */
/* The host ACPI readers (drivers/acpi.c) on tables the firmware hands over. The tables'
 * contents are the input; the pointers between them are this harness's, since the
 * readers follow them as the firmware gives them (they cannot check them).
 *
 * Input: a flags byte, then tables, each a signature choice (1 byte: 0 APIC, 1 FACP,
 * 2 DSDT, 3 SPCR, else the table's own 4 bytes), its length (2 bytes, cut to what the
 * input has left) and that many bytes of table, header included. The harness sets each
 * table's length field to its length, fixes its checksum (unless flags bit 1), points
 * a FADT's non-zero DSDT and X_DSDT fields at table (value mod count), and lists all of
 * them in an XSDT (flags bit 0: RSDP revision 2) or an RSDT, behind an RSDP. The tables
 * lie in memory below 4 GiB (RSDT entries are 32 bits) with everything around them
 * poisoned, so that AddressSanitizer catches any read outside a table.
 *
 * Checked: each reader returns a result or -1 with a reason; the CPUs, GIC and console
 * it returns are within their bounds (no more CPUs than asked for, no APIC ID or MPIDR
 * twice, at most 8 GICR ranges, a known SPCR rate, MCFG windows with a base and buses in
 * order). */
#include <sanitizer/asan_interface.h>
#include <sys/mman.h>
#include "../../drivers/acpi.c"
#include "fuzz.h"

#define ARENA_SIZE (1024 * 1024)
#define MAX_TABLES 64
#define GAP 64 /* poisoned bytes between tables */

static u8 *arena;
static size_t used;

static void wr32(u8 *p, u32 v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (u8)(v >> (8 * i));
}

static void wr64(u8 *p, u64 v)
{
	wr32(p, (u32)v);
	wr32(p + 4, (u32)(v >> 32));
}

static void sum_fix(u8 *p, size_t len, u8 *field)
{
	u8 sum = 0;
	*field = 0;
	for (size_t i = 0; i < len; i++)
		sum += p[i];
	*field = (u8)-sum;
}

/* n addressable bytes, 8-byte aligned (ASan's granule), zeroed; NULL when full. */
static u8 *alloc(size_t n)
{
	size_t at = (used + GAP + 7) & ~(size_t)7;
	if (at + n > ARENA_SIZE)
		return NULL;
	used = at + n;
	ASAN_UNPOISON_MEMORY_REGION(arena + at, n);
	memset(arena + at, 0, n);
	return arena + at;
}

/* A table of the chunk's bytes: at least a header's worth of memory, so that the header
 * fields the readers look at before the length exist. */
static u8 *table(struct fuzz_in *in)
{
	static const char sigs[4][4] = { { 'A', 'P', 'I', 'C' },
					 { 'F', 'A', 'C', 'P' },
					 { 'D', 'S', 'D', 'T' },
					 { 'S', 'P', 'C', 'R' } };
	u8 sig = take_u8(in);
	size_t len = take_u16(in);
	len = MIN(len, in->n);
	u8 *t = alloc(MAX(len, (size_t)SDT_HEADER_LEN));
	if (!t)
		return NULL;
	memcpy(t, in->p, len);
	in->p += len;
	in->n -= len;
	if (sig < 4)
		memcpy(t, sigs[sig], 4);
	wr32(t + 4, (u32)len);
	return t;
}

static void seal(u8 *t, bool fix_sum)
{
	u32 len = rd32(t + 4);
	if (fix_sum && len > 9)
		sum_fix(t, len, t + 9);
}

/* A FADT's DSDT pointers, when set, go to one of the tables. */
static void link_dsdt(u8 *fadt, u8 *const *tabs, unsigned n)
{
	u32 len = rd32(fadt + 4);
	if (len >= FADT_DSDT + 4 && rd32(fadt + FADT_DSDT))
		wr32(fadt + FADT_DSDT, (u32)(uintptr_t)tabs[rd32(fadt + FADT_DSDT) % n]);
	if (len >= FADT_X_DSDT + 8 && rd64(fadt + FADT_X_DSDT))
		wr64(fadt + FADT_X_DSDT, (uintptr_t)tabs[rd64(fadt + FADT_X_DSDT) % n]);
}

/* RSDT or XSDT listing the tables, and the RSDP. */
static const u8 *root(u8 *const *tabs, unsigned n, bool xsdt, bool fix_sum)
{
	unsigned entry = xsdt ? 8 : 4;
	u8 *r = alloc(SDT_HEADER_LEN + n * entry), *p = alloc(36);
	if (!r || !p)
		return NULL;
	memcpy(r, xsdt ? "XSDT" : "RSDT", 4);
	wr32(r + 4, SDT_HEADER_LEN + n * entry);
	r[8] = 1;
	for (unsigned i = 0; i < n; i++) {
		if (xsdt)
			wr64(r + SDT_HEADER_LEN + i * 8, (uintptr_t)tabs[i]);
		else
			wr32(r + SDT_HEADER_LEN + i * 4, (u32)(uintptr_t)tabs[i]);
	}
	seal(r, fix_sum);
	memcpy(p, "RSD PTR ", 8);
	if (xsdt) {
		p[15] = 2;
		wr32(p + 20, 36);
		wr64(p + 24, (uintptr_t)r);
	} else {
		wr32(p + 16, (u32)(uintptr_t)r);
	}
	sum_fix(p, 20, p + 8);
	if (xsdt)
		sum_fix(p, 36, p + 32);
	return p;
}

static void check_madt_cpus(const u8 *rsdp, u32 max)
{
	u32 ids[16];
	const char *why = NULL;
	int n = acpi_madt_cpus(rsdp, ids, max, &why);
	if (n < 0) {
		FUZZ_CHECK(n == -1 && why);
		return;
	}
	FUZZ_CHECK(n >= 1 && (u32)n <= max);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			FUZZ_CHECK(ids[i] != ids[j]);
}

static void check_arm(const u8 *rsdp)
{
	static struct acpi_arm_platform plat;
	const char *why = NULL;
	if (acpi_arm_platform(rsdp, &plat, &why)) {
		FUZZ_CHECK(why);
		return;
	}
	FUZZ_CHECK(plat.ncpus >= 1 && plat.ncpus <= ACPI_ARM_MAX_CPUS);
	FUZZ_CHECK(plat.gicd_base && plat.ngicr <= ACPI_ARM_MAX_GICR);
	for (u32 i = 0; i < plat.ncpus; i++)
		for (u32 j = 0; j < i; j++)
			FUZZ_CHECK(plat.cpus[i].mpidr != plat.cpus[j].mpidr);
	FUZZ_CHECK(!plat.spcr || plat.spcr_base);
}

static void check_others(const u8 *rsdp)
{
	struct acpi_power pw;
	struct acpi_reg tmr;
	struct acpi_spcr spcr;
	bool ext32;
	const char *why = NULL;

	/* SLP_TYP values count only with s5 (a partial \_S5 match may leave one). */
	if (acpi_power_info(rsdp, &pw, &why) == 0)
		FUZZ_CHECK(!pw.reset || pw.reset_reg.addr);
	else
		FUZZ_CHECK(why);
	why = NULL;
	if (acpi_pm_timer(rsdp, &tmr, &ext32, &why) == 0)
		FUZZ_CHECK(tmr.addr);
	else
		FUZZ_CHECK(why && !tmr.addr && !ext32);
	struct acpi_mcfg_entry w[4];
	why = NULL;
	int nw = acpi_mcfg(rsdp, w, ARRAY_SIZE(w), &why);
	FUZZ_CHECK(nw <= (int)ARRAY_SIZE(w) && (nw > 0 || why));
	for (int i = 0; i < nw; i++)
		FUZZ_CHECK(w[i].base && w[i].end_bus >= w[i].start_bus);
	if (acpi_spcr(rsdp, &spcr) == 0) {
		FUZZ_CHECK(spcr.base.addr);
		FUZZ_CHECK(spcr.baud == 0 || spcr.baud == 9600 || spcr.baud == 19200 ||
			   spcr.baud == 57600 || spcr.baud == 115200);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	u8 *tabs[MAX_TABLES];
	unsigned n = 0;

	if (!arena) {
		arena = mmap(NULL, ARENA_SIZE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
		FUZZ_CHECK(arena != MAP_FAILED);
	}
	ASAN_POISON_MEMORY_REGION(arena, ARENA_SIZE);
	used = 0;

	u8 flags = take_u8(&in);
	bool xsdt = flags & 1, fix_sum = !(flags & 2);
	while (in.n && n < MAX_TABLES) {
		u8 *t = table(&in);
		if (!t)
			break;
		tabs[n++] = t;
	}
	for (unsigned i = 0; i < n; i++) {
		if (!memcmp(tabs[i], "FACP", 4))
			link_dsdt(tabs[i], tabs, n);
		seal(tabs[i], fix_sum);
	}
	const u8 *rsdp = root(tabs, n, xsdt, fix_sum);
	if (rsdp) {
		check_madt_cpus(rsdp, 1 + (flags >> 4));
		check_arm(rsdp);
		check_others(rsdp);
	}
	return 0;
}
