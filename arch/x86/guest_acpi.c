/* SPDX-License-Identifier: GPL-2.0-only */
/* Guest ACPI tables (see guest_acpi.h). Section numbers are ACPI 6.4. */
#include "arch/x86/guest_acpi.h"
#include "hv/lib.h"

struct acpi_rsdp {	   /* 5.2.5.3 */
	char signature[8]; /* "RSD PTR " */
	u8 checksum;	   /* first 20 bytes */
	char oem_id[6];
	u8 revision; /* 2 */
	u32 rsdt_address;
	u32 length; /* 36 */
	u64 xsdt_address;
	u8 extended_checksum; /* all 36 bytes */
	u8 reserved[3];
} PACKED;

struct acpi_header { /* 5.2.6 */
	char signature[4];
	u32 length;
	u8 revision;
	u8 checksum;
	char oem_id[6];
	char oem_table_id[8];
	u32 oem_revision;
	char creator_id[4];
	u32 creator_revision;
} PACKED;

struct acpi_gas {    /* 5.2.3.2 Generic Address Structure */
	u8 space_id; /* 1: system I/O */
	u8 bit_width;
	u8 bit_offset;
	u8 access_size; /* 1 byte, 2 word, 3 dword */
	u64 address;
} PACKED;

struct acpi_fadt { /* 5.2.9, table 5.9 */
	struct acpi_header h;
	u32 firmware_ctrl; /* 36 */
	u32 dsdt;	   /* 40 */
	u8 reserved0;	   /* 44 */
	u8 preferred_pm_profile;
	u16 sci_int; /* 46 */
	u32 smi_cmd; /* 48 */
	u8 acpi_enable;
	u8 acpi_disable;
	u8 s4bios_req;
	u8 pstate_cnt;
	u32 pm1a_evt_blk; /* 56 */
	u32 pm1b_evt_blk;
	u32 pm1a_cnt_blk; /* 64 */
	u32 pm1b_cnt_blk;
	u32 pm2_cnt_blk;
	u32 pm_tmr_blk; /* 76 */
	u32 gpe0_blk;
	u32 gpe1_blk;
	u8 pm1_evt_len; /* 88 */
	u8 pm1_cnt_len;
	u8 pm2_cnt_len;
	u8 pm_tmr_len;
	u8 gpe0_blk_len;
	u8 gpe1_blk_len;
	u8 gpe1_base;
	u8 cst_cnt;
	u16 p_lvl2_lat; /* 96 */
	u16 p_lvl3_lat;
	u16 flush_size;
	u16 flush_stride;
	u8 duty_offset; /* 104 */
	u8 duty_width;
	u8 day_alrm;
	u8 mon_alrm;
	u8 century;
	u16 iapc_boot_arch; /* 109 */
	u8 reserved1;
	u32 flags;		   /* 112 */
	struct acpi_gas reset_reg; /* 116 */
	u8 reset_value;		   /* 128 */
	u16 arm_boot_arch;
	u8 minor_version;		/* 131 */
	u64 x_firmware_ctrl;		/* 132 */
	u64 x_dsdt;			/* 140 */
	struct acpi_gas x_pm1a_evt_blk; /* 148 */
	struct acpi_gas x_pm1b_evt_blk;
	struct acpi_gas x_pm1a_cnt_blk; /* 172 */
	struct acpi_gas x_pm1b_cnt_blk;
	struct acpi_gas x_pm2_cnt_blk;
	struct acpi_gas x_pm_tmr_blk; /* 208 */
	struct acpi_gas x_gpe0_blk;
	struct acpi_gas x_gpe1_blk;
	struct acpi_gas sleep_control_reg; /* 244 */
	struct acpi_gas sleep_status_reg;
	u64 hypervisor_vendor_id; /* 268 */
} PACKED;

_Static_assert(sizeof(struct acpi_rsdp) == 36, "RSDP size");
_Static_assert(sizeof(struct acpi_header) == 36, "header size");
_Static_assert(sizeof(struct acpi_fadt) == 276, "FADT size");
_Static_assert(__builtin_offsetof(struct acpi_fadt, iapc_boot_arch) == 109, "FADT layout");
_Static_assert(__builtin_offsetof(struct acpi_fadt, x_pm_tmr_blk) == 208, "FADT layout");

struct acpi_facs { /* 5.2.10 */
	char signature[4];
	u32 length; /* 64 */
	u32 hardware_signature;
	u32 firmware_waking_vector;
	u32 global_lock;
	u32 flags;
	u64 x_firmware_waking_vector;
	u8 version; /* 2 */
	u8 reserved0[3];
	u32 ospm_flags;
	u8 reserved1[24];
} PACKED;

_Static_assert(sizeof(struct acpi_facs) == 64, "FACS size");

struct acpi_madt { /* 5.2.12 */
	struct acpi_header h;
	u32 lapic_address;
	u32 flags; /* bit 0 PCAT_COMPAT */
} PACKED;

struct madt_ioapic { /* 5.2.12.3, type 1 */
	u8 type, length;
	u8 id;
	u8 reserved;
	u32 address;
	u32 gsi_base;
} PACKED;

struct madt_iso { /* 5.2.12.5, type 2 */
	u8 type, length;
	u8 bus;	   /* 0: ISA */
	u8 source; /* ISA IRQ */
	u32 gsi;
	u16 flags; /* MPS INTI flags, table 5.26 */
} PACKED;

struct madt_x2apic { /* 5.2.12.12, type 9 */
	u8 type, length;
	u16 reserved;
	u32 x2apic_id;
	u32 flags; /* bit 0 enabled */
	u32 uid;
} PACKED;

struct madt_x2apic_nmi { /* 5.2.12.13, type 0x0A */
	u8 type, length;
	u16 flags;
	u32 uid; /* 0xFFFFFFFF: all processors */
	u8 lint;
	u8 reserved[3];
} PACKED;

_Static_assert(sizeof(struct madt_ioapic) == 12, "IOAPIC entry size");
_Static_assert(sizeof(struct madt_iso) == 10, "ISO entry size");
_Static_assert(sizeof(struct madt_x2apic) == 16, "x2APIC entry size");
_Static_assert(sizeof(struct madt_x2apic_nmi) == 12, "x2APIC NMI entry size");

/* FADT fixed feature flags (table 5.10) */
#define FADT_WBINVD BIT(0)
#define FADT_PWR_BUTTON BIT(4) /* 1: no fixed-feature power button */
#define FADT_SLP_BUTTON BIT(5) /* 1: no fixed-feature sleep button */
#define FADT_FIX_RTC BIT(6)    /* 1: RTC wake status not in fixed registers */
#define FADT_RESET_REG_SUP BIT(10)

/* IA-PC boot architecture flags (5.2.9.3, table 5.11) */
#define IAPC_LEGACY_DEVICES BIT(0)
#define IAPC_8042 BIT(1)
#define IAPC_VGA_NOT_PRESENT BIT(2)
#define IAPC_MSI_NOT_SUPPORTED BIT(3)
#define IAPC_PCIE_ASPM_CONTROLS BIT(4)
#define IAPC_CMOS_RTC_NOT_PRESENT BIT(5)

/* MPS INTI flags (table 5.26): polarity bits 1:0, trigger mode bits 3:2 */
#define INTI_POLARITY_HIGH 0x1
#define INTI_POLARITY_LOW 0x3
#define INTI_TRIGGER_EDGE (0x1 << 2)
#define INTI_TRIGGER_LEVEL (0x3 << 2)

#define GAS_SYSTEM_IO 1
#define GAS_ACCESS_BYTE 1
#define GAS_ACCESS_WORD 2
#define GAS_ACCESS_DWORD 3

#define ACPI_OEM_TABLE_ID "HVTABLES"
#define ACPI_CREATOR_ID "HVHV"

/* DSDT body: Name (_S5, Package (4) { 5, 5, 0, 0 }), AML per 20.2:
 *   NameOp 0x08, NameSeg "_S5_" (20.2.2), PackageOp 0x12 (20.2.5.4),
 *   PkgLength 0x08 (one-byte form, 20.2.4: counts itself, NumElements and the
 *   6 element bytes), NumElements 4, BytePrefix 0x0A 0x05 twice, ZeroOp 0x00 twice.
 * The elements are SLP_TYPa, SLP_TYPb and two reserved values (7.4.2). */
static const u8 dsdt_aml[] = {
	0x08, '_',
	'S',  '5',
	'_',  0x12,
	0x08, 0x04,
	0x0A, GUEST_ACPI_SLP_TYP_S5,
	0x0A, GUEST_ACPI_SLP_TYP_S5,
	0x00, 0x00,
};

static u8 acpi_sum(const void *p, size_t n)
{
	const u8 *b = p;
	u8 s = 0;

	while (n--)
		s += *b++;
	return s;
}

static void copy_padded(char *dst, const char *src, size_t n)
{
	size_t i = 0;

	if (src)
		for (; i < n && src[i]; i++)
			dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = ' ';
}

static void header_init(struct acpi_header *h, const char *sig, u32 len, u8 rev,
			const struct guest_acpi_params *p)
{
	memcpy(h->signature, sig, 4);
	h->length = len;
	h->revision = rev;
	copy_padded(h->oem_id, p->oem_id, sizeof(h->oem_id));
	memcpy(h->oem_table_id, ACPI_OEM_TABLE_ID, 8);
	h->oem_revision = 1;
	memcpy(h->creator_id, ACPI_CREATOR_ID, 4);
	h->creator_revision = 1;
}

/* Sets the checksum of a table whose bytes (checksum field zero) are in place. */
static void header_checksum(struct acpi_header *h)
{
	h->checksum = 0;
	h->checksum = (u8)-acpi_sum(h, h->length);
}

static void gas_io(struct acpi_gas *g, u16 port, u8 bits, u8 access)
{
	g->space_id = GAS_SYSTEM_IO;
	g->bit_width = bits;
	g->bit_offset = 0;
	g->access_size = access;
	g->address = port;
}

/* Offset in buf of the next position >= off whose GPA is a multiple of align. */
static size_t place(const struct guest_acpi_params *p, size_t off, u64 align)
{
	return ALIGN_UP(p->gpa + off, align) - p->gpa;
}

static void build_fadt(struct acpi_fadt *f, const struct guest_acpi_params *p, u64 facs, u64 dsdt)
{
	header_init(&f->h, "FACP", sizeof(*f), 6, p);
	/* 6.4 allows both forms; X_ wins when usable. The 32-bit fields stay 0
	 * when the tables live above 4 GiB. */
	if (facs < BIT(32))
		f->firmware_ctrl = (u32)facs;
	if (dsdt < BIT(32))
		f->dsdt = (u32)dsdt;
	f->x_firmware_ctrl = facs;
	f->x_dsdt = dsdt;
	f->preferred_pm_profile = 0; /* unspecified */
	/* The SCI: an ISA IRQ number (PC-AT), wired to the same GSI in the MADT. */
	f->sci_int = p->sci_irq;
	/* SMI_CMD = 0: no SMM; ACPI_ENABLE/DISABLE are then ignored and the OS
	 * treats the system as always in ACPI mode (SCI_EN reads as set). */
	f->smi_cmd = 0;
	f->pm1a_evt_blk = p->pm1a_evt_port;
	f->pm1a_cnt_blk = p->pm1a_cnt_port;
	f->pm_tmr_blk = p->pm_timer_port;
	f->pm1_evt_len = 4;
	f->pm1_cnt_len = 2;
	f->pm_tmr_len = 4;
	/* No C2/C3: latencies above 100 / 1000 us mean "not supported". */
	f->p_lvl2_lat = 101;
	f->p_lvl3_lat = 1001;
	/* IA-PC boot architecture (5.2.9.3): no LPC/ISA devices beyond what the
	 * hypervisor emulates at fixed ports (no PnP enumeration wanted, so
	 * LEGACY_DEVICES clear), no 8042 (Linux then skips the i8042 probe), no VGA
	 * (Linux must not poke the VGA ports/memory), MSI not supported (no PCI
	 * devices, and the virtual local APIC does not take MSIs from devices),
	 * ASPM not to be touched (no PCIe). CMOS RTC is the caller's choice. */
	f->iapc_boot_arch = IAPC_VGA_NOT_PRESENT | IAPC_MSI_NOT_SUPPORTED | IAPC_PCIE_ASPM_CONTROLS;
	if (p->no_cmos_rtc)
		f->iapc_boot_arch |= IAPC_CMOS_RTC_NOT_PRESENT;
	/* WBINVD works; PROC_C1 left clear (no C1 hint needed, HLT is always
	 * available); TMR_VAL_EXT clear: 24-bit PM timer; no fixed power/sleep
	 * buttons, no RTC wake; not HW_REDUCED_ACPI, so Linux uses the PM timer and
	 * PM1 registers. */
	f->flags = FADT_WBINVD | FADT_PWR_BUTTON | FADT_SLP_BUTTON | FADT_FIX_RTC |
		   FADT_RESET_REG_SUP;
	gas_io(&f->reset_reg, p->reset_port, 8, GAS_ACCESS_BYTE);
	f->reset_value = p->reset_value;
	f->minor_version = 4; /* ACPI 6.4 */
	/* ACPICA splits the PM1 event block into 16-bit status and enable halves
	 * (bit_width / 2) and checks that bit_width == 8 * *_LEN. */
	gas_io(&f->x_pm1a_evt_blk, p->pm1a_evt_port, 32, GAS_ACCESS_WORD);
	gas_io(&f->x_pm1a_cnt_blk, p->pm1a_cnt_port, 16, GAS_ACCESS_WORD);
	gas_io(&f->x_pm_tmr_blk, p->pm_timer_port, 32, GAS_ACCESS_DWORD);
	header_checksum(&f->h);
}

static size_t build_madt(u8 *t, const struct guest_acpi_params *p)
{
	struct acpi_madt *m = (struct acpi_madt *)t;
	size_t off = sizeof(*m);
	u32 i;

	m->lapic_address = 0xFEE00000;
	/* No PCAT_COMPAT: there is no 8259 pair to mask (5.2.12, table 5.20). */
	m->flags = 0;

	for (i = 0; i < p->nvcpus; i++) {
		struct madt_x2apic *x = (struct madt_x2apic *)(t + off);
		x->type = 9;
		x->length = sizeof(*x);
		x->x2apic_id = i;
		x->flags = 1; /* enabled */
		x->uid = i;
		off += sizeof(*x);
	}

	struct madt_ioapic *io = (struct madt_ioapic *)(t + off);
	io->type = 1;
	io->length = sizeof(*io);
	io->id = (u8)p->ioapic_id;
	io->address = (u32)p->ioapic_addr;
	io->gsi_base = 0;
	off += sizeof(*io);

	/* The PIT's IRQ 0 is on IOAPIC pin 2 as on every PC chipset; ISA
	 * polarity/trigger: edge, active high. */
	struct madt_iso *iso = (struct madt_iso *)(t + off);
	iso->type = 2;
	iso->length = sizeof(*iso);
	iso->bus = 0;
	iso->source = 0;
	iso->gsi = 2;
	iso->flags = INTI_POLARITY_HIGH | INTI_TRIGGER_EDGE;
	off += sizeof(*iso);

	/* The SCI is "sharable, level, active low" (5.2.9, SCI_INT); Linux
	 * assumes exactly that when the flags say "conforms", we spell it out. */
	iso = (struct madt_iso *)(t + off);
	iso->type = 2;
	iso->length = sizeof(*iso);
	iso->bus = 0;
	iso->source = p->sci_irq;
	iso->gsi = p->sci_irq;
	iso->flags = INTI_POLARITY_LOW | INTI_TRIGGER_LEVEL;
	off += sizeof(*iso);

	/* LINT1 is the NMI input on every processor; flags 0: conforms. */
	struct madt_x2apic_nmi *nmi = (struct madt_x2apic_nmi *)(t + off);
	nmi->type = 0x0A;
	nmi->length = sizeof(*nmi);
	nmi->flags = 0;
	nmi->uid = 0xFFFFFFFF;
	nmi->lint = 1;
	off += sizeof(*nmi);

	header_init(&m->h, "APIC", off, 5, p);
	header_checksum(&m->h);
	return off;
}

static size_t madt_size(u32 nvcpus)
{
	return sizeof(struct acpi_madt) + nvcpus * sizeof(struct madt_x2apic) +
	       sizeof(struct madt_ioapic) + 2 * sizeof(struct madt_iso) +
	       sizeof(struct madt_x2apic_nmi);
}

size_t guest_acpi_build(void *buf, size_t bufsize, const struct guest_acpi_params *p, u64 *rsdp_gpa)
{
	size_t rsdp_off, xsdt_off, fadt_off, facs_off, dsdt_off, madt_off, end;
	const size_t xsdt_len = sizeof(struct acpi_header) + 2 * sizeof(u64);
	const size_t dsdt_len = sizeof(struct acpi_header) + sizeof(dsdt_aml);
	u8 *b = buf;

	if (!p->nvcpus || p->nvcpus > 0x10000 || p->ioapic_addr >= BIT(32))
		return 0;

	rsdp_off = place(p, 0, 16);
	xsdt_off = place(p, rsdp_off + sizeof(struct acpi_rsdp), 8);
	fadt_off = place(p, xsdt_off + xsdt_len, 8);
	facs_off = place(p, fadt_off + sizeof(struct acpi_fadt), 64); /* 5.2.10 */
	dsdt_off = place(p, facs_off + sizeof(struct acpi_facs), 8);
	madt_off = place(p, dsdt_off + dsdt_len, 8);
	end = madt_off + madt_size(p->nvcpus);
	if (end > bufsize)
		return 0;
	memset(b, 0, end);

	/* RSDP (5.2.5.3): checksum over the ACPI 1.0 part, then over all 36 bytes */
	struct acpi_rsdp *rsdp = (struct acpi_rsdp *)(b + rsdp_off);
	memcpy(rsdp->signature, "RSD PTR ", 8);
	copy_padded(rsdp->oem_id, p->oem_id, sizeof(rsdp->oem_id));
	rsdp->revision = 2;
	rsdp->rsdt_address = 0;
	rsdp->length = sizeof(*rsdp);
	rsdp->xsdt_address = p->gpa + xsdt_off;
	rsdp->checksum = (u8)-acpi_sum(rsdp, 20);
	rsdp->extended_checksum = (u8)-acpi_sum(rsdp, sizeof(*rsdp));

	/* XSDT (5.2.8): 64-bit entries, not naturally aligned after the header */
	struct acpi_header *xsdt = (struct acpi_header *)(b + xsdt_off);
	u64 entries[2] = { p->gpa + fadt_off, p->gpa + madt_off };
	header_init(xsdt, "XSDT", xsdt_len, 1, p);
	memcpy(xsdt + 1, entries, sizeof(entries));
	header_checksum(xsdt);

	struct acpi_facs *facs = (struct acpi_facs *)(b + facs_off);
	memcpy(facs->signature, "FACS", 4);
	facs->length = sizeof(*facs);
	facs->version = 2;

	/* DSDT revision 2: 64-bit AML integers */
	struct acpi_header *dsdt = (struct acpi_header *)(b + dsdt_off);
	header_init(dsdt, "DSDT", dsdt_len, 2, p);
	memcpy(dsdt + 1, dsdt_aml, sizeof(dsdt_aml));
	header_checksum(dsdt);

	build_fadt((struct acpi_fadt *)(b + fadt_off), p, p->gpa + facs_off, p->gpa + dsdt_off);
	build_madt(b + madt_off, p);

	*rsdp_gpa = p->gpa + rsdp_off;
	return end;
}
