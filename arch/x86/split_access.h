/* SPDX-License-Identifier: GPL-2.0-only */
/* A guest memory access that crosses a page boundary, emulated as the CPU does it.
 *
 * An MMIO instruction whose operand runs from one 4 KiB page into the next touches two
 * pages that the guest's page tables map on their own: one may be RAM and the other an
 * emulated device (or no device), or both MMIO. The nested page fault names one page
 * only, so each part is translated here through the guest's page tables and goes to
 * guest RAM or, where there is no RAM, to the VM's MMIO bus as an access of its own
 * length (as KVM's emulator splits at a page boundary). The parts go in address order.
 */
#ifndef ARCH_X86_SPLIT_ACCESS_H
#define ARCH_X86_SPLIT_ACCESS_H

#include "hv/types.h"
#include "arch/x86/guest_walk.h"

struct vm;

struct x86_access_part {
	u64 la;	   /* linear address */
	u8 offset; /* of its first byte within the accessed value */
	u8 len;
};

/*
 * Splits an access of size bytes (1..8) at linear address la where it crosses a page
 * boundary; returns the number of parts, 1 or 2. Outside 64-bit mode (mode 16 or 32)
 * the linear address wraps at 4 GiB.
 */
unsigned int x86_split_at_page(u64 la, unsigned int size, int mode, struct x86_access_part part[2]);

/*
 * Does the access part by part (n parts, 1 or 2, as x86_split_at_page gave them): every
 * part translated first through the guest's page tables (pg, read with ctx vm), then
 * each one read from or written to guest RAM or made on the VM's MMIO bus, which counts
 * those no device claims. *value: what a store writes, what a load read (little-endian,
 * the parts' bytes at their offsets). Returns WALK_OK, or the walk's error for the first
 * part that does not translate (nothing is accessed then; *fault_la: that part's linear
 * address, for the guest's #PF).
 */
int x86_access_parts(struct vm *vm, const struct x86_paging *pg, gpa_read_fn read,
		     const struct x86_access_part *part, unsigned int n, bool write, u64 *value,
		     u64 *fault_la);

#endif
