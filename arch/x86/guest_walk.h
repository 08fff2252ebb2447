/* SPDX-License-Identifier: GPL-2.0-only */
/* Software walk of the guest's own page tables: guest-virtual -> guest-physical.
 *
 * Used to fetch instruction bytes at the guest RIP, and to place each page's part of an
 * MMIO access that crosses a page (split_access.h), when the hardware gives us only a
 * virtual address. The tables hold guest-physical addresses; they are read through a
 * callback, which fails for addresses outside guest RAM.
 *
 * Modes (Intel SDM Vol. 3 chapter 4, AMD APM Vol. 2 chapter 5):
 *   CR0.PG=0                    identity (the linear address is 32 bits)
 *   CR4.PAE=0                   32-bit paging; 4 MiB pages with CR4.PSE and PDE.PS
 *   CR4.PAE=1, EFER.LMA=0       PAE paging: 4 PDPTEs at CR3[31:5]; 2 MiB pages
 *   EFER.LMA=1                  4-level paging; 1 GiB and 2 MiB pages
 *   EFER.LMA=1, CR4.LA57=1      5-level paging
 *
 * Only presence, large pages and the reserved bits that do not depend on MAXPHYADDR
 * are checked. There are no permission checks (R/W, U/S, NX, SMEP/SMAP, protection
 * keys), no canonical-address check and no accessed/dirty updates: the caller asks
 * for an address the guest itself has just used.
 */
#ifndef ARCH_X86_GUEST_WALK_H
#define ARCH_X86_GUEST_WALK_H

#include "hv/types.h"

struct x86_paging {
	u64 cr0, cr3, cr4, efer;
};

/* Reads len bytes of guest-physical memory at gpa into buf; false if it cannot. */
typedef bool (*gpa_read_fn)(void *ctx, u64 gpa, void *buf, size_t len);

enum {
	WALK_OK = 0,
	WALK_NOT_PRESENT = -1, /* a paging-structure entry has P=0 (guest #PF) */
	WALK_BAD_GPA = -2,     /* the read callback failed for a table address */
	WALK_RESERVED = -3,    /* a present entry has a reserved bit set (guest #PF) */
};

/* A PAE PDPTE is not present or has no reserved bit set (bits 2:1, 8:5 and 63:maxphyaddr):
 * what a MOV to CR0, CR3 or CR4 that loads it checks (SDM vol. 3A, 4.4.1), and VM entry
 * with EPT (SDM vol. 3C, 26.3.1.6). */
bool x86_pdpte_valid(u64 pdpte, u32 maxphyaddr);

/* Translates gva; on WALK_OK stores the guest-physical address in *gpa. */
int x86_gva_to_gpa(const struct x86_paging *pg, u64 gva, gpa_read_fn read, void *ctx, u64 *gpa);

#endif
