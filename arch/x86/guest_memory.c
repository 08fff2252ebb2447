/* SPDX-License-Identifier: GPL-2.0-only */
/* A guest's memory as its CPU sees it now: through its paging state (the vendor's
 * accessors) and the walk of guest_walk.c. */
#include "arch/x86/guest.h"
#include "arch/x86/guest_walk.h"
#include "arch/x86/vendor.h"
#include "hv/lib.h"
#include "hv/mem.h"

bool x86_read_guest(void *vm, u64 gpa, void *buf, size_t len)
{
	void *p = gpa_to_hva(vm, gpa, len);
	if (p)
		memcpy(buf, p, len);
	return p != NULL;
}

struct x86_paging x86_guest_paging(struct vcpu *v)
{
	return (struct x86_paging){ x86_get(v, X86_CR0), x86_get(v, X86_CR3), x86_get(v, X86_CR4),
				    x86_get(v, X86_EFER) };
}

int x86_guest_mapping(struct vcpu *v, u64 gva, char *buf, size_t n)
{
	struct x86_paging pg = x86_guest_paging(v);
	u64 gpa;
	int rc = x86_gva_to_gpa(&pg, gva, x86_read_guest, v->vm, &gpa);
	switch (rc) {
	case WALK_OK:
		snprintf(buf, n, "mapped to gpa %llx", (unsigned long long)gpa);
		break;
	case WALK_NOT_PRESENT:
		snprintf(buf, n, "not present");
		break;
	case WALK_RESERVED:
		snprintf(buf, n, "a reserved bit set");
		break;
	default:
		snprintf(buf, n, "a table outside the VM's RAM");
		break;
	}
	return rc;
}

size_t x86_fetch_insn(struct vcpu *v, u8 *buf, size_t want)
{
	struct x86_paging pg = x86_guest_paging(v);
	/* CS.base is 0 in 64-bit mode */
	u64 la = (x86_guest_mode(v) == 64 ? 0 : x86_vendor->segment(v, X86_SEG_CS).base) +
		 x86_get(v, X86_RIP);
	size_t got = 0;
	while (got < want) {
		u64 gpa;
		if (x86_gva_to_gpa(&pg, la + got, x86_read_guest, v->vm, &gpa) != WALK_OK)
			break;
		size_t chunk = MIN(want - got, PAGE_SIZE - ((la + got) & 0xFFF));
		if (!x86_read_guest(v->vm, gpa, buf + got, chunk))
			break;
		got += chunk;
	}
	return got;
}
