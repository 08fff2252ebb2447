/* SPDX-License-Identifier: GPL-2.0-only */
/* The guest page walk (arch/x86/guest_walk.c) on page tables the guest wrote. Input: CR0
 * (byte: bit 0 PE, bit 1 PG), CR4 (byte: bit 0 PSE, 1 PAE, 2 LA57), EFER (byte: bit 0
 * LMA, 1 NXE), CR3 (8 bytes), the virtual address (8 bytes), then the guest's memory
 * from guest-physical 0 (a heap copy of exactly its length; reads elsewhere fail as
 * outside RAM). Checked: every read lies in RAM and is one 4- or 8-byte entry, at most 6
 * per walk (5 levels, or a PDPTE and 2), the result is a WALK_* code, and a translation
 * keeps the page offset and stays within the mode's physical address width. */
#include "../../arch/x86/guest_walk.c"
#include "fuzz.h"

struct ram {
	const u8 *mem;
	size_t len;
	int reads;
};

static bool ram_read(void *ctx, u64 gpa, void *buf, size_t len)
{
	struct ram *r = ctx;

	r->reads++;
	FUZZ_CHECK(len == 4 || len == 8);
	FUZZ_CHECK(gpa % len == 0); /* an entry of a table */
	if (!fuzz_inside(gpa, len, r->len))
		return false;
	memcpy(buf, r->mem + gpa, len);
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in fin = { data, size };
	u8 cr0 = take_u8(&fin), cr4 = take_u8(&fin), efer = take_u8(&fin);
	struct x86_paging pg = {
		.cr0 = (cr0 & 1 ? BIT(0) : 0) | (cr0 & 2 ? GW_CR0_PG : 0),
		.cr4 = (cr4 & 1 ? GW_CR4_PSE : 0) | (cr4 & 2 ? GW_CR4_PAE : 0) |
		       (cr4 & 4 ? GW_CR4_LA57 : 0),
		.efer = (efer & 1 ? GW_EFER_LMA : 0) | (efer & 2 ? GW_EFER_NXE : 0),
	};
	pg.cr3 = take_u64(&fin);
	u64 gva = take_u64(&fin), gpa = 0xdead;
	struct ram r = { fuzz_copy(fin.p, fin.n), fin.n, 0 };

	int rc = x86_gva_to_gpa(&pg, gva, ram_read, &r, &gpa);
	FUZZ_CHECK(rc == WALK_OK || rc == WALK_NOT_PRESENT || rc == WALK_BAD_GPA ||
		   rc == WALK_RESERVED);
	FUZZ_CHECK(r.reads <= 6);
	if (rc == WALK_OK) {
		FUZZ_CHECK((gpa & 0xfff) == (gva & 0xfff));
		if (!(pg.cr0 & GW_CR0_PG))
			FUZZ_CHECK(gpa == (u32)gva && r.reads == 0);
		else if (pg.efer & GW_EFER_LMA || pg.cr4 & GW_CR4_PAE)
			FUZZ_CHECK(gpa < BIT(52));
		else
			FUZZ_CHECK(gpa < BIT(40)); /* PSE-36 */
	} else {
		FUZZ_CHECK(gpa == 0xdead);
	}
	free((void *)r.mem);
	return 0;
}
