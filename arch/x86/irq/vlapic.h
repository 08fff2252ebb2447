/* SPDX-License-Identifier: GPL-2.0-only */
/* Virtual local APIC, one per vCPU (Intel SDM vol. 3, chapter 11), in xAPIC or x2APIC
 * mode as IA32_APIC_BASE (0x1B) says (SDM 11.12.5).
 *
 * Power-up state as on every PC: enabled in xAPIC mode, its registers in the 4 KiB MMIO
 * window at the base address (0xFEE00000 unless moved through IA32_APIC_BASE;
 * vlapic_mmio_claims, vlapic_mmio_read/write). A guest may switch to x2APIC mode, where
 * the registers are MSRs 0x800-0x8FF, and back only through the disabled state. Linux
 * guests of a KVM-like hypervisor switch at boot; kvm-unit-tests and older systems use the
 * window. IA32_TSC_DEADLINE (0x6E0) is an MSR in both modes.
 *
 * The architectural registers live in a 4 KiB register page in the xAPIC layout (see
 * APIC_REG_*), the ID, LDR and DFR in the format of the current mode (SDM Figures 11-6,
 * 11-13, 11-14; x2APIC 11.12.10); everything else (IA32_APIC_BASE, the timer's TSC
 * deadline, counters) is in plain fields of struct vlapic.
 *
 * Concurrency: everything belongs to the physical CPU that runs the vCPU, except the
 * IRR and TMR words, which vlapic_accept() may set from any physical CPU (__atomic
 * builtins on both sides), and the SVR / apic_base / ID / LDR / DFR reads done by
 * vlapic_accept() and vlapic_match_dest().
 *
 * Where the CPU delivers the IRR's interrupts itself (`cpu_delivers`: VMX virtual-interrupt
 * delivery, SDM vol. 3C, 30.2; AMD AVIC, APM vol. 2, 15.29) it changes IRR and ISR words
 * while the guest runs. VMX does not do it atomically with other CPUs' writes: there
 * (`posted_requests`) every new request goes to `posted` instead (a posted-interrupt
 * request bitmap: the CPU's own where it has posted interrupts, else a software one, as
 * bhyve keeps), which the owner moves into the IRR before each entry (vlapic_sync_pir);
 * the pending-interrupt questions below look at both. AVIC's CPU sets IRR bits of other
 * vCPUs' pages itself, atomically, as senders here do.
 *
 * Time is the TSC (u64 cycles, absolute). The APIC timer counts at a fixed virtual
 * bus frequency of VLAPIC_BUS_HZ (1 GHz) before the divide configuration, converted
 * to TSC cycles with the tsc_hz given to vlapic_init(). Guests that do not use
 * TSC-deadline mode calibrate it (or are told it through CPUID 0x15 / a PV leaf).
 *
 * Not modelled: LINT0/LINT1 pins, thermal/perf/CMCI sources (their LVTs are plain
 * storage), directed EOI (version bit 24 = 0), lowest-priority arbitration (the VM
 * layer resolves targets), writes to the xAPIC ID (ignored: the ID stays the vCPU's, as
 * routing and CPUID say; KVM, which accepts them, then turns APIC virtualization off). */
#ifndef ARCH_X86_VLAPIC_H
#define ARCH_X86_VLAPIC_H

#include "hv/types.h"

#define VLAPIC_BUS_HZ 1000000000ull /* APIC timer input clock (before the divider) */

#define MSR_IA32_APIC_BASE 0x1b
#define MSR_IA32_TSC_DEADLINE 0x6e0
#define MSR_X2APIC_FIRST 0x800
#define MSR_X2APIC_LAST 0x8ff

#define APIC_BASE_BSP BIT(8)
#define APIC_BASE_EXTD BIT(10)
#define APIC_BASE_EN BIT(11)
#define APIC_DEFAULT_BASE 0xfee00000ull

/* Version register: version 0x14, max LVT entry 6 (CMCI present), no directed EOI. */
#define VLAPIC_VERSION ((6u << 16) | 0x14)

/* LVT index; register APIC_REG_LVT(index), x2APIC MSR 0x831 + index, CMCI at 0x82F. */
enum vlapic_lvt {
	VLAPIC_LVT_CMCI,    /* 0x82F */
	VLAPIC_LVT_TIMER,   /* 0x832 */
	VLAPIC_LVT_THERMAL, /* 0x833 */
	VLAPIC_LVT_PERF,    /* 0x834 */
	VLAPIC_LVT_LINT0,   /* 0x835 */
	VLAPIC_LVT_LINT1,   /* 0x836 */
	VLAPIC_LVT_ERROR,   /* 0x837 */
	VLAPIC_NR_LVT
};

/* The register page: every architectural register at its offset in the xAPIC layout
 * (SDM 11.4.1, Table 11-1; 32-bit registers at a 16-byte stride). x2APIC MSR 0x800 + n
 * is the register at offset n << 4 (SDM 11.12.1.2); the 64-bit x2APIC ICR is split
 * into ICR low and ICR high. This is the page that AMD AVIC's backing page (APM vol. 2,
 * 15.29) and Intel APICv's virtual-APIC page (SDM vol. 3, 30.1) will point at: that
 * hardware reads and writes exactly these words. PPR and the timer's current count
 * are not kept in it: they are computed when read (vlapic_ppr, timer_ccr). */
#define APIC_REG_ID 0x20 /* xAPIC: ID << 24; x2APIC: the 32-bit ID */
#define APIC_REG_VERSION 0x30
#define APIC_REG_TPR 0x80
#define APIC_REG_PPR 0xa0
#define APIC_REG_EOI 0xb0
#define APIC_REG_LDR 0xd0
#define APIC_REG_DFR 0xe0 /* xAPIC only */
#define APIC_REG_SVR 0xf0
#define APIC_REG_ISR 0x100 /* 256 bits: 8 words at 0x100, 0x110, ... 0x170 */
#define APIC_REG_TMR 0x180
#define APIC_REG_IRR 0x200
#define APIC_REG_ESR 0x280
#define APIC_REG_LVT_CMCI 0x2f0
#define APIC_REG_ICR_LO 0x300
#define APIC_REG_ICR_HI 0x310	 /* xAPIC: the destination in bits 31:24 */
#define APIC_REG_LVT_TIMER 0x320 /* then thermal, perf, LINT0, LINT1, error */
#define APIC_REG_LVT_ERROR 0x370
#define APIC_REG_LVT(idx)                             \
	((idx) == VLAPIC_LVT_CMCI ? APIC_REG_LVT_CMCI \
				  : APIC_REG_LVT_TIMER + ((idx)-VLAPIC_LVT_TIMER) * 0x10)
#define APIC_REG_TIMER_ICR 0x380
#define APIC_REG_TIMER_CCR 0x390
#define APIC_REG_TIMER_DCR 0x3e0
#define APIC_REG_SELF_IPI 0x3f0 /* x2APIC only */

#define APIC_LVT_MASKED BIT(16)
#define APIC_LVT_TIMER_MODE(v) (((v) >> 17) & 3)
#define APIC_TIMER_ONESHOT 0
#define APIC_TIMER_PERIODIC 1
#define APIC_TIMER_TSC_DEADLINE 2

#define APIC_SVR_ENABLE BIT(8)

/* ESR bits (SDM 11.5.3) */
#define APIC_ESR_SEND_ILLEGAL_VECTOR BIT(5)
#define APIC_ESR_RECV_ILLEGAL_VECTOR BIT(6)

/* ICR delivery modes (also struct vlapic_ipi.mode) */
#define APIC_DM_FIXED 0
#define APIC_DM_LOWEST 1
#define APIC_DM_SMI 2
#define APIC_DM_NMI 4
#define APIC_DM_INIT 5
#define APIC_DM_STARTUP 6
#define APIC_DM_EXTINT 7

/* ICR destination shorthands */
#define APIC_SH_NONE 0
#define APIC_SH_SELF 1
#define APIC_SH_ALL 2
#define APIC_SH_OTHERS 3

#define APIC_BROADCAST 0xffffffffu /* x2APIC broadcast destination */
#define APIC_XAPIC_BROADCAST 0xffu /* xAPIC's (SDM 11.6.2.1) */

/* A decoded ICR write. The vlapic drops, before calling send_ipi: INIT level
 * de-assert (mode 5, level_assert 0; obsolete since the Pentium 4, SDM 11.6.1),
 * the reserved modes 3 and 7, and fixed/lowest-priority IPIs with a vector < 16
 * (ESR "send illegal vector" instead). */
struct vlapic_ipi {
	u8 vector;
	u8 mode;	    /* APIC_DM_* */
	bool logical;	    /* destination mode */
	bool level_assert;  /* ICR bit 14 */
	bool level_trigger; /* ICR bit 15 */
	u8 shorthand;	    /* APIC_SH_* */
	u32 dest;	    /* x2APIC: ICR[63:32]; xAPIC: ICR[63:56], 0xFF as APIC_BROADCAST */
};

/* The x2APIC ICR's fields (SDM 11.12.9), as written. */
struct vlapic_ipi vlapic_icr_decode(u64 icr);

struct vlapic_ops {
	/* ICR write (not the SELF IPI register): the VM layer resolves the targets,
	 * including shorthand "self", and calls vlapic_accept() (fixed/lowest) or its
	 * own NMI/INIT/SIPI handling on each. Called on the owner's CPU. */
	void (*send_ipi)(void *ctx, const struct vlapic_ipi *ipi);
	/* EOI of a vector whose TMR bit was set (level-triggered): for the IOAPIC. */
	void (*eoi_level)(void *ctx, u8 vector);
};

/* The requests posted for a vCPU whose CPU delivers (posted_requests), __atomic. Laid out
 * as the VMX posted-interrupt descriptor (SDM vol. 3C, 30.6: 64 bytes, 64-byte aligned), so
 * that a CPU with posted interrupts moves them into the IRR itself: the PIR (vectors), then
 * ON, "a notification is outstanding" (bit 0 of `control`; a sender that sets it sends
 * the notification, one that finds it set need not; vlapic_sync_pir clears it). SN, NV and
 * NDST (for devices that post) are not used. */
struct vlapic_posted {
	u32 pir[8];
	u32 control, ndst;
	u32 reserved[6];
} __attribute__((aligned(64)));
#define VLAPIC_POSTED_ON 1u

struct vlapic {
	/* The register page (APIC_REG_*), given to vlapic_init(). The IRR and TMR words
	 * are __atomic: set by any CPU. */
	u32 *regs;
	u32 id;		      /* the initial APIC ID (the x2APIC ID; the xAPIC ID's 8 bits) */
	u64 apic_base;	      /* IA32_APIC_BASE */
	u64 base_rsvd;	      /* its reserved bits (the address above MAXPHYADDR among them) */
	u32 esr_pending;      /* errors since the last ESR write (the ESR reads the ones before) */
	u64 timer_deadline;   /* absolute TSC of the next expiry, 0 = none */
	u64 timer_period;     /* TSC cycles of one full count (one-shot/periodic) */
	u64 tsc_deadline_msr; /* IA32_TSC_DEADLINE as the guest reads it */
	/* The guest's TSC minus the host's (mod 2^64), which the CPU adds to what the guest
	 * reads: kept here because IA32_TSC_DEADLINE counts in the guest's TSC, every other
	 * time in this model in the host's (vlapic_set_tsc_offset). */
	u64 tsc_offset;
	u64 tsc_hz;
	const struct vlapic_ops *ops;
	void *ctx;
	/* Set by the backend before the first interrupt: the CPU delivers from the IRR and
	 * completes EOIs (vlapic_eoi_exit then says which reached the IOAPIC)... */
	bool cpu_delivers;
	/* ...and new requests go to `posted`, not to the IRR, which the CPU rewrites
	 * non-atomically while the guest runs (VMX). Without it (AMD AVIC, whose CPU sets
	 * and clears IRR bits atomically) every request goes to the IRR at once. */
	bool posted_requests;
	struct vlapic_posted posted; /* requests not yet in the IRR (posted_requests) */
	u32 held[8]; /* ...and level-triggered ones, which only the owner moves (__atomic) */
	/* counters */
	u64 ipis_sent;	 /* send_ipi calls */
	u64 self_ipis;	 /* SELF IPI register writes delivered */
	u64 timer_fires; /* timer expiries, masked ones included */
	u64 eois;	 /* EOI register writes */
};

/* The 32-bit register at offset off of the page, as an lvalue. */
#define VLAPIC_REG(l, off) ((l)->regs[(off) / 4])
/* Word i (vectors 32i..32i+31) of the 256-bit ISR, TMR or IRR at offset base. */
#define VLAPIC_VEC_WORD(l, base, i) VLAPIC_REG(l, (base) + (i)*0x10)

/* Whether vector vec is set in the ISR, TMR or IRR at offset base. */
static inline bool vlapic_test_vec(const struct vlapic *l, u32 base, u8 vec)
{
	return __atomic_load_n(&VLAPIC_VEC_WORD(l, base, vec / 32), __ATOMIC_ACQUIRE) &
	       (1u << (vec % 32));
}

/* The TPR, which the backend also shows the guest as CR8. */
static inline u32 vlapic_tpr(const struct vlapic *l) { return VLAPIC_REG(l, APIC_REG_TPR); }
static inline void vlapic_set_tpr(struct vlapic *l, u32 tpr) { VLAPIC_REG(l, APIC_REG_TPR) = tpr; }

/* Power-up state (SDM 11.4.7.1): enabled in xAPIC mode at 0xFEE00000 (BSP for vCPU 0),
 * software-disabled (SVR 0xFF), every LVT masked, timer stopped, DFR all ones. id: the
 * APIC ID (below 0xFF). phys_bits: the guest's MAXPHYADDR (IA32_APIC_BASE's address
 * width). tsc_hz 0 is taken as VLAPIC_BUS_HZ. page: the register page, PAGE_SIZE bytes
 * at a page-aligned address that is also its physical one (as alloc_pages gives), for the
 * vlapic's lifetime; it is cleared here. */
void vlapic_init(struct vlapic *l, u32 *page, u32 id, bool bsp, u32 phys_bits, u64 tsc_hz,
		 const struct vlapic_ops *ops, void *ctx);

/* INIT (SDM 11.4.7.3): registers back to their power-up values, keeping the ID,
 * IA32_APIC_BASE (so an AP stays in its mode; in x2APIC mode the LDR too), the TSC rate
 * and the counters. */
void vlapic_reset(struct vlapic *l);

/* MSR accesses (0x1B, 0x6E0, 0x800-0x8FF). 0, or -1: inject #GP(0) and change nothing.
 * #GP: unknown x2APIC register, read of a write-only / write of a read-only register,
 * a reserved bit set (RsvdZ, SDM 11.12.1.3; bits 63:32 of every register but ICR), a
 * non-zero EOI/ESR write, x2APIC mode not enabled, an invalid IA32_APIC_BASE
 * transition (SDM 11.12.5). now: current guest TSC. */
int vlapic_rdmsr(struct vlapic *l, u32 msr, u64 *val, u64 now);
int vlapic_wrmsr(struct vlapic *l, u32 msr, u64 val, u64 now);

/* Whether the guest-physical address is in this APIC's xAPIC MMIO window: enabled, not in
 * x2APIC mode, in the page at the base address. Outside it (a disabled APIC, x2APIC mode)
 * the page is no device: reads are all ones, writes vanish (SDM 11.12.2). */
bool vlapic_mmio_claims(const struct vlapic *l, u64 gpa);

/* An access of size bytes (1, 2, 4 or 8) at offset off of the window, as an xAPIC takes
 * it (SDM 11.4.1: registers are 32 bits at 16-byte steps). Reads: the register's bytes at
 * off & 15, 0 where no readable register is (or the access leaves its 4 bytes). Writes:
 * only 32-bit ones at a register's start count; reserved bits are dropped, and a write to
 * a read-only or absent register is ignored (no #GP in xAPIC mode). now: guest TSC. */
u64 vlapic_mmio_read(struct vlapic *l, u32 off, u32 size, u64 now);
void vlapic_mmio_write(struct vlapic *l, u32 off, u32 size, u64 val, u64 now);

/* Accepts a fixed interrupt: sets IRR, and TMR when level (clears it when edge).
 * Callable from any CPU. False (nothing set) if vector < 16 or the APIC is hardware-
 * or software-disabled. The caller then kicks the owner if needed. */
bool vlapic_accept(struct vlapic *l, u8 vector, bool level);

/* posted_requests, after vlapic_accept, to a vCPU in guest mode: sets ON; true if it was
 * clear, and the caller is the one to send the notification. */
bool vlapic_claim_notification(struct vlapic *l);

/* posted_requests: moves the posted (and held) requests into the IRR (the owner, the guest
 * not running); whether there were any. */
bool vlapic_sync_pir(struct vlapic *l);

/* An EOI as the guest's write of the EOI register does it, in either mode (PV EOI's lazy
 * one): the highest vector in service ends, a level-triggered one reaches the IOAPIC. */
void vlapic_eoi(struct vlapic *l);

/* cpu_delivers: the CPU completed the guest's EOI of vector (it has cleared the ISR bit)
 * and exited because the vector is level-triggered: the rest of an EOI (the IOAPIC's). */
void vlapic_eoi_exit(struct vlapic *l, u8 vector);

/* The x2APIC MSRs whose reads return the register page's word as it is (an IRR word
 * with the posted requests, posted_requests), which a CPU virtualizing the APIC may read
 * from the page without an exit. Not: PPR and the timer's current count (computed at the
 * read), the ICR (64 bits from two words), EOI and SELF IPI (write-only). */
bool vlapic_page_read(u32 msr);

/* Where the CPU delivers (cpu_delivers): the IRR and ISR at a guest entry, from which
 * vlapic_run_count tells after the exit how many interrupts the CPU delivered from the IRR
 * and how many EOIs it completed in the run. Exact while no request reaches the IRR in
 * the run; one that does (VMX posted interrupts, AMD AVIC) and is delivered and EOIed
 * within the same run leaves no trace, and is not counted. */
struct vlapic_run {
	u32 irr[8], isr[8];
};
void vlapic_run_begin(const struct vlapic *l, struct vlapic_run *r);
void vlapic_run_count(const struct vlapic *l, const struct vlapic_run *r, u64 *delivered,
		      u64 *eois);

/* Highest IRR vector whose priority class is above PPR's, else -1. */
int vlapic_pending_vector(struct vlapic *l);

/* The vector was injected into the guest: IRR -> ISR (PPR rises). */
void vlapic_ack(struct vlapic *l, u8 vector);
/* An acknowledged interrupt whose delivery did not happen goes back to pending. */
void vlapic_unack(struct vlapic *l, u8 vector);

/* Any IRR bit set (wakes a halted vCPU; vlapic_pending_vector decides delivery). */
bool vlapic_has_pending_irr(struct vlapic *l);

/* An IRR vector waits that only the TPR holds back (lowering the TPR below its priority
 * class delivers it): that class (1-15), else 0. */
u32 vlapic_tpr_holds_back(struct vlapic *l);

/* Fires the timer if now >= its deadline: the LVT timer vector goes to IRR unless
 * masked. Periodic rearms at prev + period, skipping missed periods (one interrupt
 * however late); one-shot and TSC-deadline disarm (IA32_TSC_DEADLINE reads 0). */
void vlapic_timer_update(struct vlapic *l, u64 now);

/* Absolute TSC of the next timer expiry, or 0 if none is armed. */
u64 vlapic_next_deadline(const struct vlapic *l);
/* The guest's TSC is now the host's plus offset (a write to its TSC): an armed
 * TSC-deadline timer keeps its deadline in the guest's TSC, so it expires at another host
 * time. */
void vlapic_set_tsc_offset(struct vlapic *l, u64 offset, u64 now);

/* The APIC is enabled in x2APIC mode (IA32_APIC_BASE EN and EXTD): the x2APIC MSRs reach
 * it (else they #GP). */
bool vlapic_x2apic_mode(const struct vlapic *l);

/* IA32_APIC_BASE.EN: the APIC is on (in either mode); CPUID.1:EDX.APIC shows it. */
bool vlapic_enabled(const struct vlapic *l);

/* Destination match of a message whose dest is in the sender's format (APIC_BROADCAST
 * for either mode's broadcast). In x2APIC mode (SDM 11.12.10): physical dest == ID;
 * logical: cluster dest[31:16] == ID >> 4 and dest[15:0] has bit ID & 15. In xAPIC mode
 * (SDM 11.6.2): 8-bit destinations; physical dest == ID; logical by the DFR's model:
 * flat, LDR[31:24] & dest; cluster, the high nibbles equal and the low ones overlap. */
bool vlapic_match_dest(const struct vlapic *l, u32 dest, bool logical);

/* Current PPR (SDM 11.8.3.1). */
u32 vlapic_ppr(const struct vlapic *l);

#endif
