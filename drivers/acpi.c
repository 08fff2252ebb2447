/* Host ACPI parsing (ACPI 6.4, 5.2.5 RSDP, 5.2.8 XSDT, 5.2.12 MADT). */
#include "drivers/acpi.h"
#include "hv/lib.h"

struct sdt_header {
	char sig[4];
	u32 length;
	u8 revision, checksum;
	char oem[6], oem_table[8];
	u32 oem_rev, creator, creator_rev;
} PACKED;

static bool checksum_ok(const void *p, u32 len)
{
	u8 sum = 0;
	for (u32 i = 0; i < len; i++)
		sum += ((const u8 *)p)[i];
	return sum == 0;
}

static const struct sdt_header *find_table(const void *rsdp_p, const char sig[4])
{
	const u8 *rsdp = rsdp_p;
	bool xsdt = rsdp[15] >= 2;
	u64 root = xsdt ? *(const u64 *)(rsdp + 24) : *(const u32 *)(rsdp + 16);
	const struct sdt_header *h = (const void *)(uintptr_t)root;
	if (!root || !checksum_ok(h, h->length))
		return NULL;
	u32 entry = xsdt ? 8 : 4;
	u32 n = (h->length - sizeof(*h)) / entry;
	const u8 *e = (const u8 *)(h + 1);
	for (u32 i = 0; i < n; i++) {
		u64 addr = xsdt ? *(const u64 *)(e + i * entry) : *(const u32 *)(e + i * entry);
		const struct sdt_header *t = (const void *)(uintptr_t)addr;
		if (t && !memcmp(t->sig, sig, 4) && checksum_ok(t, t->length))
			return t;
	}
	return NULL;
}

int acpi_madt_cpus(const void *rsdp, u32 *apic_ids, u32 max, const char **why)
{
	if (!rsdp || memcmp(rsdp, "RSD PTR ", 8) || !checksum_ok(rsdp, 20)) {
		*why = "no valid ACPI RSDP";
		return -1;
	}
	const struct sdt_header *madt = find_table(rsdp, "APIC");
	if (!madt) {
		*why = "no valid ACPI MADT";
		return -1;
	}
	u32 n = 0;
	const u8 *p = (const u8 *)madt + sizeof(*madt) + 8; /* local APIC address, flags */
	const u8 *end = (const u8 *)madt + madt->length;
	while (p + 2 <= end && p[1] >= 2 && p + p[1] <= end) {
		u32 id = ~0u, flags = 0;
		if (p[0] == 0 && p[1] >= 8) { /* processor local APIC */
			id = p[3];
			flags = *(const u32 *)(p + 4);
		} else if (p[0] == 9 && p[1] >= 16) { /* processor local x2APIC */
			id = *(const u32 *)(p + 4);
			flags = *(const u32 *)(p + 8);
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
