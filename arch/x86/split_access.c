/* SPDX-License-Identifier: GPL-2.0-only */
/* A guest memory access that crosses a page boundary: see split_access.h. */
#include "hv/lib.h"
#include "hv/vm.h"
#include "arch/x86/split_access.h"

unsigned int x86_split_at_page(u64 la, unsigned int size, int mode, struct x86_access_part part[2])
{
	unsigned int first = MIN(size, (unsigned int)(PAGE_SIZE - (la & (PAGE_SIZE - 1))));

	part[0] = (struct x86_access_part){ la, 0, (u8)first };
	if (first == size)
		return 1;
	la += first;
	part[1] = (struct x86_access_part){ mode == 64 ? la : (u32)la, (u8)first,
					    (u8)(size - first) };
	return 2;
}

int x86_access_parts(struct vm *vm, const struct x86_paging *pg, gpa_read_fn read,
		     const struct x86_access_part *part, unsigned int n, bool write, u64 *value,
		     u64 *fault_la)
{
	u64 gpa[2];
	/* The value's bytes in memory order: x86 is little-endian. */
	u8 bytes[8];

	for (unsigned int i = 0; i < n; i++) {
		int rc = x86_gva_to_gpa(pg, part[i].la, read, vm, &gpa[i]);

		if (rc != WALK_OK) {
			*fault_la = part[i].la;
			return rc;
		}
	}
	memcpy(bytes, value, sizeof bytes);
	for (unsigned int i = 0; i < n; i++) {
		u8 *ram = gpa_to_hva(vm, gpa[i], part[i].len), *at = bytes + part[i].offset;
		u64 v = 0;

		if (ram && write) {
			memcpy(ram, at, part[i].len);
		} else if (ram) {
			memcpy(at, ram, part[i].len);
		} else {
			memcpy(&v, at, part[i].len);
			iobus_access(&vm->bus, IO_MMIO, gpa[i], part[i].len, write, &v);
			memcpy(at, &v, part[i].len);
		}
	}
	memcpy(value, bytes, sizeof bytes);
	return WALK_OK;
}
