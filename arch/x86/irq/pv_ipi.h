/* SPDX-License-Identifier: GPL-2.0-only */
/* KVM_HC_SEND_IPI (KVM_FEATURE_PV_SEND_IPI): one hypercall sends an IPI to up to 128
 * vCPUs named by a bitmap of x2APIC IDs. This part only checks the arguments and
 * expands the bitmap into a list of targets; the caller delivers.
 *
 * ABI (Linux Documentation/virt/kvm/x86/hypercalls.rst): a0 low part of the APIC-ID
 * bitmap, a1 high part, a2 the lowest APIC ID in the bitmap, a3 the APIC ICR; returns
 * the number of CPUs to which the IPIs were delivered successfully. The details below
 * follow KVM's implementation, kvm_pv_send_ipi() and __pv_send_ipi() in Linux 6.1
 * arch/x86/kvm/lapic.c (unchanged since but for an array_index_nospec() clamp), with
 * __apic_accept_irq() for the delivery modes, and the one guest that uses the
 * hypercall, Linux's arch/x86/kernel/kvm.c __send_ipi_mask(), which sends icr =
 * APIC_DM_FIXED | vector, or APIC_DM_NMI for NMI_VECTOR, and WARN_ONCEs on a negative
 * return.
 *
 * Bitmap. In 64-bit mode bit i of a0 names APIC ID a2 + i and bit i of a1 names
 * a2 + 64 + i (KVM: cluster_size = 64). Outside 64-bit mode KVM truncates a0..a3 to 32
 * bits and the clusters are 32 wide: a0 names a2 .. a2 + 31, a1 a2 + 32 .. a2 + 63
 * (pv_ipi_decode_mode()).
 * A set bit that names no vCPU (an ID >= nvcpus) is skipped, and so is a whole half
 * whose first ID is past the last vCPU (KVM: "if (min > map->max_apic_id) return 0");
 * neither is an error. An empty bitmap sends nothing and returns 0 (after the ICR
 * check: KVM checks the ICR first).
 *
 * IDs are computed without wrapping: a2 is the full 64-bit register and a2 + 64 + i
 * is never reduced. KVM takes a2 as a u32 and adds the cluster size in u32, so there
 * a2 = 0x1_0000_0000 names ID 0, and a2 = 0xFFFFFFF0 makes a1's bits name IDs
 * 0x30.. ; both are artifacts of its C types, never used by Linux (a2 is an APIC ID
 * and every named ID is within 127 of it). Here those bits name IDs that do not
 * exist, so nothing is sent to a vCPU the guest did not name.
 *
 * ICR (a3). As KVM: logical destination mode (bit 11) or a destination shorthand
 * (bits 19:18) is -KVM_EINVAL. Bits 63:32 (the x2APIC destination field), delivery
 * status, and the reserved bits are ignored, as KVM does. The level and trigger-mode
 * bits (14, 15) are ignored too: they only mean something for INIT level de-assert
 * (SDM 11.6.1); KVM drops a fixed IPI with trigger = level and level = de-assert, and
 * sets TMR for level = assert, neither of which a guest needs.
 * Delivery modes (KVM passes any mode on to __apic_accept_irq(), so it also "sends"
 * SMI, INIT, SIPI and its internal remote-read kick through this hypercall):
 *   fixed            any vector; one below 16 is accepted by no APIC (vlapic_accept), so
 *                    it counts 0 targets and the call returns 0. KVM would set the
 *                    illegal vector in IRR; a CPU's APIC refuses it. No error either
 *                    way: kvm-unit-tests' apic test expects 0 for an ICR of 0.
 *   lowest priority  taken as fixed, with the same vector rule: each bit is its own
 *                    physical destination, and lowest priority to one physical
 *                    destination is that CPU (KVM delivers to each one too).
 *   NMI              accepted, the vector field is ignored (Linux sends 0).
 *   SMI, INIT, SIPI, remote read (3), ExtINT (7): sent to no one, 0 returned, where
 *                    KVM passes them on. No guest uses them here; INIT and SIPI go
 *                    through the ICR and its vCPU state machine, and SMM is not
 *                    modelled.
 *
 * Not decided here: the caller returns -KVM_ENOSYS when the VM does not offer PV_IPI
 * (as KVM does when the guest's CPUID lacks the feature), -KVM_EPERM from CPL > 0 (KVM
 * checks CPL before every hypercall), and computes the result: the number of targets
 * that accepted the interrupt (fixed: vlapic_accept() returned true, so not a vCPU
 * with its APIC disabled; NMI: every target, as KVM counts them). */
#ifndef ARCH_X86_PV_IPI_H
#define ARCH_X86_PV_IPI_H

#include "hv/types.h"

/* Delivery modes in struct pv_ipi_req; equal to the ICR encoding (APIC_DM_FIXED and
 * APIC_DM_NMI of vlapic.h). */
#define PV_IPI_FIXED 0
#define PV_IPI_NMI 4

#define PV_IPI_MAX_TARGETS 128

struct pv_ipi_req {
	u8 vector; /* PV_IPI_FIXED: 16..255; PV_IPI_NMI: 0 */
	u8 mode;   /* PV_IPI_FIXED or PV_IPI_NMI */
	u32 ntargets;
	u32 targets[PV_IPI_MAX_TARGETS]; /* APIC IDs (== vCPU index), ascending */
	u32 out_of_range;		 /* set bits naming an ID >= nvcpus (skipped) */
};

/* Decodes a KVM_HC_SEND_IPI call from a 64-bit guest of a VM with nvcpus vCPUs (APIC
 * IDs 0..nvcpus-1). Returns 0 and fills *req, or -KVM_EINVAL (-22) for an ICR the
 * hypercall does not accept, logical or with a shorthand (then *req has no targets). */
int pv_ipi_decode(u64 a0, u64 a1, u64 a2, u64 a3, u32 nvcpus, struct pv_ipi_req *req);

/* The same for either mode. long_mode: the caller was in 64-bit mode (EFER.LMA and
 * CS.L, KVM's is_64_bit_hypercall()); if not, the arguments are cut to 32 bits and the
 * bitmap halves are 32 bits wide. pv_ipi_decode() is this with long_mode = true. */
int pv_ipi_decode_mode(u64 a0, u64 a1, u64 a2, u64 a3, bool long_mode, u32 nvcpus,
		       struct pv_ipi_req *req);

#endif
