/* SPDX-License-Identifier: GPL-2.0-only */
/* The second-level page tables of a VM (AMD's nested page tables, Intel's EPT): both are
 * 4-level tables in the long-mode shape, with each vendor's own permission bits. A VM's
 * tables map exactly its RAM, in 2 MiB pages; the rest (devices) faults. */
#ifndef ARCH_X86_NESTED_PAGING_H
#define ARCH_X86_NESTED_PAGING_H

#include "hv/vm.h"

/* A vendor's entry bits: of a table entry, and of a 2 MiB leaf (its page-size bit
 * included). */
struct nested_paging_bits {
	u64 table, leaf_2m;
};

/* NPT (AMD APM vol. 2, 15.25.5): present, writable, user (walks are user accesses), and
 * PS for a large page. */
#define NPT_BITS ((struct nested_paging_bits){ 0x7, 0x7 | BIT(7) })

/* The root (PML4) of new tables that map vm's RAM as its guest-physical layout puts it:
 * below GPA_LOW_RAM_END, the rest from 4 GiB on. */
u64 *nested_paging_map_ram(struct vm *vm, struct nested_paging_bits bits);

#endif
