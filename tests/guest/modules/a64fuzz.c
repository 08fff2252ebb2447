// SPDX-License-Identifier: GPL-2.0
/*
 * a64fuzz: a hostile arm64 guest for the hv hypervisor (the arm64 counterpart of hcfuzz).
 *
 *   insmod a64fuzz.ko [seconds=10] [seed=N] [rounds=0] [ops=all] [threads=0]
 *
 * For `seconds`, one kthread per online CPU (threads=N: the first N), bound to it, makes
 * pseudo-random attacks (xorshift64* seeded from `seed`, or from get_random_u64() when
 * seed=0; the seed is printed for replays). The operations (ops=all, or a comma-separated
 * list, to narrow down a failure):
 *
 *  - smccc: SMCCC calls by the kernel's conduit (HVC here) with function IDs from the
 *    architecture, PSCI, standard and vendor hypervisor, SiP, OEM and trusted OS ranges,
 *    random 32-bit IDs and random 64-bit X0 (W0 is the ID: the upper half must be
 *    ignored), now and then HVC #1 or #0xffff; X1 is an address that is safe to write
 *    (below), X2 and X3 random;
 *  - cpuon: PSCI CPU_ON (SMC32 and SMC64) to CPUs that are on (ALREADY_ON, or
 *    INVALID_ADDRESS for an entry point outside RAM), to MPIDRs that exist nowhere and
 *    to ones with bits outside Aff3..Aff0 (INVALID_PARAMETERS), with random entry points
 *    and context IDs; AFFINITY_INFO with random targets and levels (an online CPU at
 *    level 0 must be ON);
 *  - gicd, gicr: the vGIC distributor and (GICv3) redistributors, at random offsets in
 *    their frames (registers, reserved space, the ID block), accesses of 1, 2, 4 and 8
 *    bytes, aligned and not, reads and writes; now and then a load pair, a post-indexed
 *    load, a load-exclusive, a store pair (no instruction syndrome: the hypervisor can
 *    only answer with an external abort) and a DC CIVAC (skipped);
 *  - gicc: (GICv2) the CPU interface, the hardware's GICV frame: aligned 32-bit reads of
 *    all but IAR/AIAR, writes of PMR, BPR, ABPR, CTLR, APR0 (restored), EOIR/AEOIR/DIR
 *    with spurious IDs;
 *  - sgi: SGI storms for about 2 ms: ICC_SGI1R_EL1 (GICv3; also ICC_ASGI1R_EL1 and the
 *    group 0 ICC_SGI0R_EL1) or GICD_SGIR (GICv2) to its own CPUs, to all but itself, to
 *    affinities and target-list bits that exist nowhere, and reserved filters;
 *  - uart: the PL011 at random offsets and widths (never its data register DR): CR,
 *    IMSC, LCR_H, IBRD, FBRD, IFLS, DMACR, ILPR get random values and are restored;
 *  - sysreg: debug registers (breakpoints and watchpoints as many as ID_AA64DFR0_EL1
 *    offers, MDSCR, OS lock, OS double lock, claim tags, DCC, MDCCINT, DBGPRCR,
 *    DBGAUTHSTATUS, MDRAR), PMU registers (hv: no PMU, each access UNDEFINED), a set of
 *    IMPLEMENTATION DEFINED registers (op0 3, CRn 11 and 15: UNDEFINED), ACTLR_EL1 and
 *    RAS error records (where ID_AA64PFR0_EL1 has RAS);
 *  - nowhere: loads and stores of every size at pages where nothing is (page 0, between
 *    the GIC's frames, after the UART, after the redistributors, after RAM): all-ones,
 *    counted by the hypervisor as unclaimed.
 *
 * rounds=R splits the run into R rounds, each a benign half (the threads spin in the
 * kernel: busy, without an exit of their own) and an attack half, and prints a line as
 * each begins ("a64fuzz: phase benign round=1", "... attack round=1", ... "a64fuzz: phase
 * end"): a victim VM's progress can be compared between the two kinds of half
 * (tests/emu/arm64_hostile_guest.sh, with tests/guest/linux/workmeter.c). The threads,
 * the rounds, the scratch area and its guard pages are the frame both fuzzers share
 * (fuzz_frame.h).
 *
 * It must not break the guest it runs in (nor one on KVM), so:
 *
 *  - PSCI CPU_OFF, CPU_SUSPEND, CPU_FREEZE, CPU_DEFAULT_SUSPEND, SYSTEM_OFF, SYSTEM_OFF2,
 *    SYSTEM_RESET, SYSTEM_RESET2, SYSTEM_SUSPEND, SET_SUSPEND_MODE, MIGRATE and
 *    MEM_PROTECT are never called (checked on W0, whatever the upper half); a random ID
 *    that is CPU_ON gets the CPU_ON arguments below. X1 of every other call (the
 *    project's HV_SMCCC_GET_STATS writes there) is inside this module's scratch area,
 *    followed by guard pages that must stay untouched, or where nothing is.
 *  - CPU_ON goes only to MPIDRs of online CPUs (with the CPU hotplug lock held) or to
 *    MPIDRs no VM of up to 64 vCPUs has (Aff0 16 or more, or Aff2/Aff3 non-zero), so a
 *    SUCCESS is a hypervisor bug ("a64fuzz: FAIL" with the arguments).
 *  - vGIC writes keep the guest's interrupts: the interrupts enabled at the start are
 *    the guest's ("used"); a written byte gets a random value only where every INTID it
 *    holds is free (disabled at the start) or where it is reserved or read-only; else
 *    it gets the current contents (configuration: group, priority, route, CTLR, WAKER,
 *    LPI registers) or a value that does nothing (0 in the clear-enable, set/clear-pending
 *    and set/clear-active registers, 0 in set-enable). SGIs: set-pending only for the
 *    harmless SGIs 0 (reschedule), 1 (call function) and 5 (IRQ work), never cleared;
 *    SGIs 8-15 (not mapped by Linux, which warns about them) only to targets that do not
 *    exist. Free INTIDs set active are deactivated before the window closes (hv, like
 *    a vGIC on list registers, holds an active interrupt in a list register until the
 *    guest deactivates it: four of them would keep every pending interrupt of the vCPU
 *    out, and its kernel would stall). At the end the free INTIDs' pending and active
 *    bits are cleared and the configuration of the used ones is compared with the start
 *    ("a64fuzz: FAIL" if it changed).
 *  - Every access that could fault runs inside a window: interrupts (DAIF) masked and
 *    VBAR_EL1 pointing at this module's vectors, which skip the faulting instruction and
 *    record its ESR_EL1. An UNDEF, an alignment fault or an external abort is counted
 *    instead of killing the kernel. Registers a window changes are restored before it
 *    closes and read back ("a64fuzz: FAIL restore ..." if one is not as saved). Debug
 *    exceptions are masked throughout the window, so random breakpoints, watchpoints and
 *    MDSCR_EL1 bits never fire. PMU and IMPLEMENTATION DEFINED registers that read are
 *    written back unchanged; random values go only to those whose read was UNDEFINED.
 *  - The PL011's state is saved and restored in its window, with the console lock held
 *    (so that printk does not write while the UART is in loopback); DR is never written,
 *    ICR clears only modem and error interrupts.
 *  - The GICv2 CPU interface (hardware) gets aligned 32-bit accesses only; its registers
 *    are restored in the window (no interrupt can be taken meanwhile).
 *
 * Output: "a64fuzz: seed=..." at the start, then per group of operations one line of
 * counts and results, then:
 *   a64fuzz: hv-counted: bad=B impdef-undef=I unclaimed=U
 * B: accesses the hypervisor must have refused and counted in its bad-accesses (vGIC
 * accesses of a width or alignment the GIC architecture does not allow, accesses without
 * instruction syndrome that got an external abort, PL011 offsets that are no register,
 * HV_SMCCC_GET_STATS calls with a buffer outside RAM, UNDEFINED PMU and SGI register
 * accesses; debug and RAS registers that UNDEF are the CPU's, not trapped, and not
 * counted here); I: UNDEFINED IMPLEMENTATION DEFINED
 * accesses (trapped where the CPU implements HCR_EL2.TIDCP: QEMU 10, not 7.2); U:
 * accesses where nothing is (the hypervisor's unclaimed-io). Then "a64fuzz: N calls,
 * M faults" and "a64fuzz: done". A hypervisor answer that breaks the rules above is a
 * line "a64fuzz: FAIL ...".
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/cpu.h>
#include <linux/smp.h>
#include <linux/console.h>
#include <linux/delay.h>
#include <linux/arm-smccc.h>
#include <asm/cputype.h>
#include <asm/sysreg.h>

#include "hv_para.h"

#define FUZZ_NAME "a64fuzz"
#define FUZZ_SECONDS 10
#define FUZZ_OPS "smccc, cpuon, gicd, gicr, gicc, sgi, uart, sysreg, nowhere"
#include "fuzz_frame.h"

static unsigned int threads;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "threads, one per online CPU from the first (default 0: all)");

enum a64f_op {
	OP_SMCCC,
	OP_CPUON,
	OP_GICD,
	OP_GICR,
	OP_GICC,
	OP_SGI,
	OP_UART,
	OP_SYSREG,
	OP_NOWHERE,
	OP_NR
};

static const char *const a64f_op_names[OP_NR] = {
	"smccc", "cpuon", "gicd", "gicr", "gicc", "sgi", "uart", "sysreg", "nowhere",
};

/* How often each operation is drawn, relative to the others (those not selected or absent
 * are left out). */
static const u8 a64f_weight[OP_NR] = {
	[OP_SMCCC] = 3, [OP_CPUON] = 1, [OP_GICD] = 3,	 [OP_GICR] = 2,	   [OP_GICC] = 1,
	[OP_SGI] = 1,	[OP_UART] = 2,	[OP_SYSREG] = 2, [OP_NOWHERE] = 1,
};

#define A64F_MAX_CPUS 64
#define A64F_NOWHERE_PAGES 5

/* PSCI and SMCCC function IDs (Arm DEN0022, DEN0028). */
#define PSCI_0_2_FN_BASE 0x84000000u
#define PSCI_CPU_ON_32 0x84000003u
#define PSCI_CPU_ON_64 0xC4000003u
#define PSCI_AFFINITY_INFO_32 0x84000004u
#define PSCI_AFFINITY_INFO_64 0xC4000004u
#define PSCI_RET_ALREADY_ON (-4)
#define PSCI_RET_ON_PENDING (-5)
#define PSCI_RET_INVALID_PARAMS (-2)
#define PSCI_RET_INVALID_ADDRESS (-9)
#define SMCCC_NOT_SUPPORTED (-1)
#define A64F_MPIDR_AFF 0xFF00FFFFFFULL

/* ESR_EL1 of a fault a window caught (bit 40 marks "caught": an ESR can be 0). */
#define A64F_CAUGHT BIT_ULL(40)
#define ESR_EC(e) (((e) >> 26) & 0x3F)
#define EC_UNKNOWN 0x00
#define EC_DABT_CUR 0x25
#define DFSC_SEA 0x10
#define DFSC_ALIGN 0x21

/*
 * The window's vectors (VBAR_EL1 while a window is open, DAIF masked): every entry
 * skips the instruction that faulted and returns its ESR_EL1 | A64F_CAUGHT in x16. Only
 * the probe stubs below run in a window with x16 reserved for that.
 */
extern char a64f_vectors[];
asm(".pushsection .text\n"
    ".balign 2048\n"
    ".globl a64f_vectors\n"
    "a64f_vectors:\n"
    ".rept 16\n"
    "	mrs	x16, esr_el1\n"
    "	orr	x16, x16, #0x10000000000\n"
    "	mrs	x17, elr_el1\n"
    "	add	x17, x17, #4\n"
    "	msr	elr_el1, x17\n"
    "	eret\n"
    "	.balign 128\n"
    ".endr\n"
    ".popsection\n");

/*
 * Probe stubs: u64 stub(addr_or_value, u64 *out) returns 0 or the caught ESR. "hint #34"
 * is BTI C (a NOP without BTI): they are called through pointers.
 */
#define A64F_STUB(name, body)                                                          \
	asm(".pushsection .text\n.balign 8\n.globl " #name "\n" #name ":\n hint #34\n" \
	    " mov x16, xzr\n" body "\n mov x0, x16\n ret\n.popsection\n")
A64F_STUB(a64f_ld8, " mov x2, xzr\n ldrb w2, [x0]\n str x2, [x1]");
A64F_STUB(a64f_ld16, " mov x2, xzr\n ldrh w2, [x0]\n str x2, [x1]");
A64F_STUB(a64f_ld32, " mov x2, xzr\n ldr w2, [x0]\n str x2, [x1]");
A64F_STUB(a64f_ld64, " mov x2, xzr\n ldr x2, [x0]\n str x2, [x1]");
A64F_STUB(a64f_st8, " strb w1, [x0]");
A64F_STUB(a64f_st16, " strh w1, [x0]");
A64F_STUB(a64f_st32, " str w1, [x0]");
A64F_STUB(a64f_st64, " str x1, [x0]");
A64F_STUB(a64f_ldp, " mov x2, xzr\n ldp x2, x3, [x0]\n str x2, [x1]");
A64F_STUB(a64f_ldpost, " mov x2, xzr\n ldr x2, [x0], #8\n str x2, [x1]");
A64F_STUB(a64f_ldxr, " mov x2, xzr\n ldxr x2, [x0]\n clrex\n str x2, [x1]");
A64F_STUB(a64f_stp, " stp x1, x1, [x0]");
A64F_STUB(a64f_dc, " dc civac, x0");

typedef u64 (*a64f_ld_fn)(void __iomem *addr, u64 *out);
typedef u64 (*a64f_st_fn)(void __iomem *addr, u64 val);
u64 a64f_ld8(void __iomem *addr, u64 *out);
u64 a64f_ld16(void __iomem *addr, u64 *out);
u64 a64f_ld32(void __iomem *addr, u64 *out);
u64 a64f_ld64(void __iomem *addr, u64 *out);
u64 a64f_st8(void __iomem *addr, u64 val);
u64 a64f_st16(void __iomem *addr, u64 val);
u64 a64f_st32(void __iomem *addr, u64 val);
u64 a64f_st64(void __iomem *addr, u64 val);
u64 a64f_ldp(void __iomem *addr, u64 *out);
u64 a64f_ldpost(void __iomem *addr, u64 *out);
u64 a64f_ldxr(void __iomem *addr, u64 *out);
u64 a64f_stp(void __iomem *addr, u64 val);
u64 a64f_dc(void __iomem *addr, u64 val);

/* by log2(size) */
static const a64f_ld_fn a64f_ld[4] = { a64f_ld8, a64f_ld16, a64f_ld32, a64f_ld64 };
static const a64f_st_fn a64f_st[4] = { a64f_st8, a64f_st16, a64f_st32, a64f_st64 };

/*
 * The system registers: name, encoding, class, access. Breakpoint and watchpoint
 * registers carry their number (only those ID_AA64DFR0_EL1 offers are used).
 */
enum a64f_class { C_DEBUG, C_PMU, C_IMPDEF, C_ACTLR, C_RAS, C_SGI, C_NR };
static const char *const a64f_class_names[C_NR] = {
	"debug", "pmu", "impdef", "actlr", "ras", "sgi"
};

#define F_R BIT(0)	/* readable */
#define F_W BIT(1)	/* writable */
#define F_SAVE BIT(2)	/* a random value, restored at the end of the window */
#define F_RANDOM BIT(3) /* a random value, nothing to restore (RAZ/WI data, W1C) */
#define F_BP BIT(4)	/* DBGB*R<n>: n in bits 8.. */
#define F_WP BIT(5)	/* DBGW*R<n> */
#define F_OSLAR BIT(6)	/* restored from OSLSR_EL1.OSLK */
#define F_CLAIM BIT(7)	/* DBGCLAIMSET: restored through DBGCLAIMCLR */
#define F_ZERO BIT(9)	/* writes 0 (PMSWINC_EL0) */
#define F_RW (F_R | F_W)
#define F_N(n) ((n) << 10)

/* clang-format off */
#define A64F_BPWP(X, n) \
	X(dbgbvr##n, "s2_0_c0_c" #n "_4", C_DEBUG, F_RW | F_SAVE | F_BP | F_N(n)) \
	X(dbgbcr##n, "s2_0_c0_c" #n "_5", C_DEBUG, F_RW | F_SAVE | F_BP | F_N(n)) \
	X(dbgwvr##n, "s2_0_c0_c" #n "_6", C_DEBUG, F_RW | F_SAVE | F_WP | F_N(n)) \
	X(dbgwcr##n, "s2_0_c0_c" #n "_7", C_DEBUG, F_RW | F_SAVE | F_WP | F_N(n))
#define A64F_SYSREGS(X) \
	A64F_BPWP(X, 0) A64F_BPWP(X, 1) A64F_BPWP(X, 2) A64F_BPWP(X, 3) \
	A64F_BPWP(X, 4) A64F_BPWP(X, 5) A64F_BPWP(X, 6) A64F_BPWP(X, 7) \
	A64F_BPWP(X, 8) A64F_BPWP(X, 9) A64F_BPWP(X, 10) A64F_BPWP(X, 11) \
	A64F_BPWP(X, 12) A64F_BPWP(X, 13) A64F_BPWP(X, 14) A64F_BPWP(X, 15) \
	X(mdccint, "s2_0_c0_c2_0", C_DEBUG, F_RW | F_SAVE) \
	X(mdscr, "s2_0_c0_c2_2", C_DEBUG, F_RW | F_SAVE) \
	X(osdtrrx, "s2_0_c0_c0_2", C_DEBUG, F_RW | F_SAVE) \
	X(osdtrtx, "s2_0_c0_c3_2", C_DEBUG, F_RW | F_SAVE) \
	X(oseccr, "s2_0_c0_c6_2", C_DEBUG, F_RW | F_SAVE) \
	X(mdrar, "s2_0_c1_c0_0", C_DEBUG, F_R) \
	X(oslar, "s2_0_c1_c0_4", C_DEBUG, F_W | F_OSLAR) \
	X(oslsr, "s2_0_c1_c1_4", C_DEBUG, F_R) \
	X(osdlr, "s2_0_c1_c3_4", C_DEBUG, F_RW | F_SAVE) \
	X(dbgprcr, "s2_0_c1_c4_4", C_DEBUG, F_RW | F_SAVE) \
	X(dbgclaimset, "s2_0_c7_c8_6", C_DEBUG, F_RW | F_CLAIM) \
	X(dbgclaimclr, "s2_0_c7_c9_6", C_DEBUG, F_RW | F_CLAIM) \
	X(dbgauthstatus, "s2_0_c7_c14_6", C_DEBUG, F_R) \
	X(mdccsr, "s2_3_c0_c1_0", C_DEBUG, F_R) \
	X(dbgdtr, "s2_3_c0_c4_0", C_DEBUG, F_RW | F_RANDOM) \
	X(dbgdtrrxtx, "s2_3_c0_c5_0", C_DEBUG, F_RW | F_RANDOM) \
	X(pmcr, "s3_3_c9_c12_0", C_PMU, F_RW) \
	X(pmcntenset, "s3_3_c9_c12_1", C_PMU, F_RW) \
	X(pmcntenclr, "s3_3_c9_c12_2", C_PMU, F_RW) \
	X(pmovsclr, "s3_3_c9_c12_3", C_PMU, F_RW) \
	X(pmswinc, "s3_3_c9_c12_4", C_PMU, F_W | F_ZERO) \
	X(pmselr, "s3_3_c9_c12_5", C_PMU, F_RW) \
	X(pmceid0, "s3_3_c9_c12_6", C_PMU, F_R) \
	X(pmceid1, "s3_3_c9_c12_7", C_PMU, F_R) \
	X(pmccntr, "s3_3_c9_c13_0", C_PMU, F_RW) \
	X(pmxevtyper, "s3_3_c9_c13_1", C_PMU, F_RW) \
	X(pmxevcntr, "s3_3_c9_c13_2", C_PMU, F_RW) \
	X(pmuserenr, "s3_3_c9_c14_0", C_PMU, F_RW) \
	X(pmovsset, "s3_3_c9_c14_3", C_PMU, F_RW) \
	X(pmintenset, "s3_0_c9_c14_1", C_PMU, F_RW) \
	X(pmintenclr, "s3_0_c9_c14_2", C_PMU, F_RW) \
	X(pmevcntr0, "s3_3_c14_c8_0", C_PMU, F_RW) \
	X(pmevcntr3, "s3_3_c14_c8_3", C_PMU, F_RW) \
	X(pmevtyper0, "s3_3_c14_c12_0", C_PMU, F_RW) \
	X(pmevtyper3, "s3_3_c14_c12_3", C_PMU, F_RW) \
	X(pmccfiltr, "s3_3_c14_c15_7", C_PMU, F_RW) \
	X(impdef_0_15_0_0, "s3_0_c15_c0_0", C_IMPDEF, F_RW) \
	X(cpuactlr, "s3_1_c15_c2_0", C_IMPDEF, F_RW) \
	X(cpuectlr, "s3_1_c15_c2_1", C_IMPDEF, F_RW) \
	X(cpumerrsr, "s3_1_c15_c2_2", C_IMPDEF, F_RW) \
	X(l2merrsr, "s3_1_c15_c2_3", C_IMPDEF, F_RW) \
	X(cbar, "s3_1_c15_c3_0", C_IMPDEF, F_R) \
	X(l2ctlr, "s3_1_c11_c0_2", C_IMPDEF, F_RW) \
	X(l2ectlr, "s3_1_c11_c0_3", C_IMPDEF, F_RW) \
	X(impdef_0_11_0_0, "s3_0_c11_c0_0", C_IMPDEF, F_RW) \
	X(impdef_2_15_0_0, "s3_2_c15_c0_0", C_IMPDEF, F_RW) \
	X(impdef_3_15_2_0, "s3_3_c15_c2_0", C_IMPDEF, F_RW) \
	X(impdef_5_15_15_7, "s3_5_c15_c15_7", C_IMPDEF, F_RW) \
	X(impdef_7_11_15_7, "s3_7_c11_c15_7", C_IMPDEF, F_RW) \
	X(impdef_0_15_15_7, "s3_0_c15_c15_7", C_IMPDEF, F_RW) \
	X(actlr, "s3_0_c1_c0_1", C_ACTLR, F_RW | F_SAVE) \
	X(erridr, "s3_0_c5_c3_0", C_RAS, F_R) \
	X(errselr, "s3_0_c5_c3_1", C_RAS, F_RW | F_SAVE) \
	X(erxfr, "s3_0_c5_c4_0", C_RAS, F_R) \
	X(erxctlr, "s3_0_c5_c4_1", C_RAS, F_RW) \
	X(erxstatus, "s3_0_c5_c4_2", C_RAS, F_RW) \
	X(erxaddr, "s3_0_c5_c4_3", C_RAS, F_RW) \
	X(erxmisc0, "s3_0_c5_c5_0", C_RAS, F_RW) \
	X(erxmisc1, "s3_0_c5_c5_1", C_RAS, F_RW)
/* clang-format on */

#define A64F_SYSREG_STUBS(name, enc, cls, fl)                                       \
	A64F_STUB(a64f_rd_##name, " mov x2, xzr\n mrs x2, " enc "\n str x2, [x1]"); \
	A64F_STUB(a64f_wr_##name, " msr " enc ", x0");                              \
	u64 a64f_rd_##name(u64 unused, u64 *out);                                   \
	u64 a64f_wr_##name(u64 val, u64 *unused);
A64F_SYSREGS(A64F_SYSREG_STUBS)

/* The SGI generation registers (GICv3), written in the sgi storms. */
A64F_STUB(a64f_wr_sgi1r, " msr s3_0_c12_c11_5, x0");
A64F_STUB(a64f_wr_asgi1r, " msr s3_0_c12_c11_6, x0");
A64F_STUB(a64f_wr_sgi0r, " msr s3_0_c12_c11_7, x0");
u64 a64f_wr_sgi1r(u64 val, u64 *unused);
u64 a64f_wr_asgi1r(u64 val, u64 *unused);
u64 a64f_wr_sgi0r(u64 val, u64 *unused);

struct a64f_sysreg {
	const char *name;
	u64 (*rd)(u64, u64 *);
	u64 (*wr)(u64, u64 *);
	u8 cls;
	u32 flags;
};

#define A64F_SYSREG_ENTRY(name, enc, cls, fl) { #name, a64f_rd_##name, a64f_wr_##name, cls, fl },
static const struct a64f_sysreg a64f_sysregs[] = { A64F_SYSREGS(A64F_SYSREG_ENTRY) };
#define A64F_NSYSREGS ARRAY_SIZE(a64f_sysregs)

enum a64f_fault { FAULT_UNDEF, FAULT_SEA, FAULT_ALIGN, FAULT_OTHER, FAULT_NR };
static const char *const a64f_fault_names[FAULT_NR] = { "undef", "sea", "align", "other" };

/* SMCCC result classes */
enum { R_ZERO, R_NOT_SUPPORTED, R_INVALID, R_POSITIVE, R_OTHER, R_NR };
static const char *const a64f_result_names[R_NR] = { "zero", "not-supported", "invalid", "positive",
						     "other-negative" };
/* CPU_ON results */
enum { ON_ALREADY, ON_INVALID_PARAMS, ON_INVALID_ADDRESS, ON_OTHER, ON_NR };
static const char *const a64f_on_names[ON_NR] = { "already-on", "invalid-parameters",
						  "invalid-address", "other" };

struct a64f_thread {
	struct fuzz_thread f;
	const char *first_undef[C_NR]; /* the first register of each class that UNDEFINED */
	const char *bad_reg;	       /* the first register not restored */
	u64 bad_want, bad_got;
	/* clang-format off */
	struct_group(c, /* counters, summed over the threads */
		u64 ops[OP_NR];
		u64 smccc[R_NR];
		u64 cpuon[ON_NR];
		u64 affinity, affinity_wrong;
		/* HV_SMCCC_GET_STATS, and those outside RAM */
		u64 stats_calls, stats_refused;
		u64 mmio_reads, mmio_writes, noisv;
		u64 faults[FAULT_NR];
		/* accesses the GIC architecture does not allow (width, alignment) */
		u64 gic_refused;
		u64 uart_refused; /* PL011 offsets that are no register */
		/* external aborts on accesses without syndrome (counted by hv) */
		u64 sea;
		u64 nowhere, nowhere_not_ones;
		u64 sgis, sgi_undef;
		u64 sys_accesses, sys_undef[C_NR];
		u64 restore_failures;
		u64 hv_bad; /* of the above, what hv must count as bad accesses */
	);
	/* clang-format on */
};

/* The guest's devices, from its device tree. */
static int a64f_gic_version;
static phys_addr_t a64f_gicd_pa, a64f_gicr_pa, a64f_gicc_pa, a64f_uart_pa;
static resource_size_t a64f_gicd_len, a64f_gicr_len, a64f_gicc_len;
static void __iomem *a64f_gicd, *a64f_gicr, *a64f_gicc, *a64f_uart;
static void __iomem *a64f_nowhere[A64F_NOWHERE_PAGES];
static phys_addr_t a64f_nowhere_pa[A64F_NOWHERE_PAGES];
static unsigned int a64f_nnowhere, a64f_nredist;

/* Free INTIDs (disabled at the start): SPIs in the GICD, private ones per redistributor. */
#define A64F_NR_IRQS 1024
static u32 a64f_spi_free[A64F_NR_IRQS / 32];
static u32 a64f_priv_free[A64F_MAX_CPUS];
#define A64F_BENIGN_SGIS (BIT(0) | BIT(1) | BIT(5)) /* reschedule, call function, IRQ work */
static const u8 a64f_benign_sgi[] = { 0, 1, 5 };

/* The used INTIDs' configuration at the start (compared at the end). */
struct a64f_gic_snap {
	u32 ctlr;
	u32 enable[A64F_NR_IRQS / 32], group[A64F_NR_IRQS / 32];
	u32 prio[A64F_NR_IRQS / 4], cfg[A64F_NR_IRQS / 16], targets[A64F_NR_IRQS / 4];
	u64 route[A64F_NR_IRQS];
	u32 r_enable[A64F_MAX_CPUS], r_group[A64F_MAX_CPUS];
	u32 r_prio[A64F_MAX_CPUS][8], r_cfg[A64F_MAX_CPUS][2];
};
static struct a64f_gic_snap *a64f_snap0, *a64f_snap1;
static unsigned int a64f_nr_irqs;

static u64 a64f_mpidr[A64F_MAX_CPUS];
static unsigned int a64f_nbrps, a64f_nwrps;
static bool a64f_has_ras;
static unsigned int a64f_conduit;
static u64 a64f_ram_start;
static DEFINE_MUTEX(a64f_gicc_lock);

static u64 a64f_rand(struct a64f_thread *t) { return fuzz_rand(&t->f.rng); }

/* --- windows ----------------------------------------------------------------------- */

struct a64f_win {
	unsigned long flags;
	u64 daif, vbar;
};

static void a64f_win_open(struct a64f_win *w)
{
	local_irq_save(w->flags);
	asm volatile("mrs %0, daif\n"
		     "msr daifset, #0xf\n"
		     "mrs %1, vbar_el1\n"
		     "msr vbar_el1, %2\n"
		     "isb"
		     : "=&r"(w->daif), "=&r"(w->vbar)
		     : "r"(a64f_vectors)
		     : "memory");
}

static void a64f_win_close(struct a64f_win *w)
{
	asm volatile("msr vbar_el1, %0\n"
		     "isb\n"
		     "msr daif, %1"
		     :
		     : "r"(w->vbar), "r"(w->daif)
		     : "memory");
	local_irq_restore(w->flags);
}

/* Counts a caught fault by kind; returns it. */
static enum a64f_fault a64f_fault(struct a64f_thread *t, u64 esr)
{
	enum a64f_fault f = FAULT_OTHER;

	if (ESR_EC(esr) == EC_UNKNOWN)
		f = FAULT_UNDEF;
	else if (ESR_EC(esr) == EC_DABT_CUR && (esr & 0x3F) == DFSC_SEA)
		f = FAULT_SEA;
	else if (ESR_EC(esr) == EC_DABT_CUR && (esr & 0x3F) == DFSC_ALIGN)
		f = FAULT_ALIGN;
	t->faults[f]++;
	return f;
}

static void a64f_restore_failed(struct a64f_thread *t, const char *what, u64 want, u64 got)
{
	if (!t->restore_failures++) {
		t->bad_reg = what;
		t->bad_want = want;
		t->bad_got = got;
	}
}

/* A load or store of 1 << lg bytes inside a window; false if it faulted (counted). */
static bool a64f_load(struct a64f_thread *t, void __iomem *p, unsigned int lg, u64 *val)
{
	u64 esr = a64f_ld[lg](p, val);

	t->mmio_reads++;
	if (!esr)
		return true;
	a64f_fault(t, esr);
	return false;
}

static bool a64f_store(struct a64f_thread *t, void __iomem *p, unsigned int lg, u64 val)
{
	u64 esr = a64f_st[lg](p, val);

	t->mmio_writes++;
	if (!esr)
		return true;
	a64f_fault(t, esr);
	return false;
}

/*
 * An access without instruction syndrome (the hypervisor cannot emulate it: an external
 * abort, counted as a bad access) or a DC CIVAC (skipped, not counted), at p.
 */
static void a64f_odd_access(struct a64f_thread *t, void __iomem *p)
{
	u64 r = a64f_rand(t), val, esr;

	p = (void __iomem *)((unsigned long)p & ~15UL);
	switch (r % 5) {
	case 0:
		esr = a64f_ldp(p, &val);
		break;
	case 1:
		esr = a64f_ldpost(p, &val);
		break;
	case 2:
		esr = a64f_ldxr(p, &val);
		break;
	case 3: /* a store pair writes nothing: 0, in case a hypervisor did */
		esr = a64f_stp(p, 0);
		break;
	default:
		esr = a64f_dc(p, 0);
		if (esr)
			a64f_fault(t, esr);
		return;
	}
	t->noisv++;
	if (esr && a64f_fault(t, esr) == FAULT_SEA) {
		t->sea++;
		t->hv_bad++;
	}
}

/* --- addresses ----------------------------------------------------------------------- */

/* True when nothing (RAM, a device of this guest) is near ipa. */
static bool fuzz_unbacked(u64 ipa)
{
	if (ipa >= BIT_ULL(48) || ipa + FUZZ_SLACK + 64 < ipa)
		return true;
	if (ipa + FUZZ_SLACK + 64 >= 0x08000000ULL && ipa < 0x0A000000ULL)
		return false; /* the device window of this VM */
	return region_intersects(ipa & ~63ULL, 64 + FUZZ_SLACK, IORESOURCE_SYSTEM_RAM,
				 IORES_DESC_NONE) == REGION_DISJOINT &&
	       (ipa + FUZZ_SLACK + 64 <= a64f_ram_start || ipa >= fuzz_ram_end);
}

/* An SMCCC X1 target (fuzz_target(), 8-byte aligned in the area); of its own kind one
 * below the devices. */
static u64 a64f_ipa(struct a64f_thread *t)
{
	u64 r = a64f_rand(t);

	return fuzz_target(r, 8, (r >> 8) & 0x7ffffff);
}

/* --- SMCCC, PSCI ------------------------------------------------------------------------ */

struct a64f_res {
	u64 a0, a1, a2, a3;
};

static void a64f_call(u64 a0, u64 a1, u64 a2, u64 a3, unsigned int imm, struct a64f_res *res)
{
	register u64 x0 asm("x0") = a0;
	register u64 x1 asm("x1") = a1;
	register u64 x2 asm("x2") = a2;
	register u64 x3 asm("x3") = a3;

#define A64F_CALL(insn)                                                                       \
	asm volatile(insn                                                                     \
		     : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)                                 \
		     :                                                                        \
		     : "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", \
		       "x15", "x16", "x17", "memory")
	if (a64f_conduit == SMCCC_CONDUIT_SMC)
		A64F_CALL("smc #0");
	else if (imm == 1)
		A64F_CALL("hvc #1");
	else if (imm == 2)
		A64F_CALL("hvc #0xffff");
	else
		A64F_CALL("hvc #0");
#undef A64F_CALL
	res->a0 = x0;
	res->a1 = x1;
	res->a2 = x2;
	res->a3 = x3;
}

/* PSCI functions never called (DEN0022 function numbers in 0x84000000/0xC4000000 + n). */
static bool a64f_psci_forbidden(u32 fid)
{
	if ((fid & ~(0x1Fu | BIT(30))) != PSCI_0_2_FN_BASE)
		return false;
	switch (fid & 0x1F) {
	case 0x01: /* CPU_SUSPEND */
	case 0x02: /* CPU_OFF */
	case 0x05: /* MIGRATE */
	case 0x08: /* SYSTEM_OFF */
	case 0x09: /* SYSTEM_RESET */
	case 0x0B: /* CPU_FREEZE */
	case 0x0C: /* CPU_DEFAULT_SUSPEND */
	case 0x0E: /* SYSTEM_SUSPEND */
	case 0x0F: /* PSCI_SET_SUSPEND_MODE */
	case 0x12: /* SYSTEM_RESET2 */
	case 0x13: /* MEM_PROTECT */
	case 0x15: /* SYSTEM_OFF2 */
		return true;
	}
	return false;
}

static void a64f_count_smccc(struct a64f_thread *t, u64 a0)
{
	s64 r = (s64)a0;

	if (r == 0)
		t->smccc[R_ZERO]++;
	else if (r == SMCCC_NOT_SUPPORTED)
		t->smccc[R_NOT_SUPPORTED]++;
	else if (r == -2 || r == -3)
		t->smccc[R_INVALID]++;
	else if (r > 0)
		t->smccc[R_POSITIVE]++;
	else
		t->smccc[R_OTHER]++;
}

/* Whether CPU_ON to this MPIDR is safe: an online CPU, or one no VM of <= 64 vCPUs has. */
static bool a64f_cpuon_safe(u64 m)
{
	unsigned int cpu;

	if (m & ~A64F_MPIDR_AFF)
		return true; /* INVALID_PARAMETERS: bits outside the affinity fields */
	if ((m & 0xFF) >= 16 || (m & 0xFF00FF0000ULL))
		return true;
	for_each_online_cpu(cpu) {
		if (cpu < A64F_MAX_CPUS && a64f_mpidr[cpu] == m)
			return true;
	}
	return false;
}

static u64 a64f_online_mpidr(struct a64f_thread *t)
{
	unsigned int n = cpumask_weight(cpu_online_mask), i = a64f_rand(t) % n, cpu;

	for_each_online_cpu(cpu) {
		if (!i--)
			return cpu < A64F_MAX_CPUS ? a64f_mpidr[cpu] : 0;
	}
	return 0;
}

static u64 a64f_entry(struct a64f_thread *t)
{
	u64 r = a64f_rand(t);

	switch (r & 7) {
	case 0:
		return 0;
	case 1: /* RAM, where the kernel image begins (a restart there would be noticed) */
		return a64f_ram_start + ((r >> 8) & 0xffffc);
	case 2: /* unaligned, in RAM */
		return a64f_ram_start + 1 + ((r >> 8) & 0xfffff);
	case 3:
		return fuzz_ram_end + ((r >> 8) & 0xffff);
	case 4:
		return U64_MAX - ((r >> 8) & 0xff);
	case 5:
		return fuzz_scratch_pa;
	default:
		return a64f_rand(t);
	}
}

static void a64f_cpu_on(struct a64f_thread *t, bool smc64)
{
	u64 r = a64f_rand(t), m, entry = a64f_entry(t), ctx = a64f_rand(t);
	u32 fid = smc64 ? PSCI_CPU_ON_64 : PSCI_CPU_ON_32;
	struct a64f_res res;
	s64 ret;

	switch (r & 3) {
	case 0: /* on already */
		m = a64f_online_mpidr(t);
		break;
	case 1: /* on already, with bits outside Aff3..Aff0 (bit 31, U, MT, above Aff3) */
		m = a64f_online_mpidr(t) | BIT_ULL(24 + ((r >> 2) & 7)) | ((r >> 5) & 1) << 63;
		break;
	case 2: /* nowhere: Aff0 16..255, or Aff2/Aff3 set */
		m = (r >> 8) & A64F_MPIDR_AFF;
		if ((m & 0xFF) < 16 && !(m & 0xFF00FF0000ULL))
			m |= 0x10 | (r & 0x80);
		break;
	default:
		m = a64f_rand(t);
		break;
	}
	if (!smc64) { /* SMC32: the hypervisor sees 32 bits of each */
		m = (u32)m;
		entry = (u32)entry;
		ctx = (u32)ctx;
	}
	cpus_read_lock();
	if (!a64f_cpuon_safe(m)) {
		cpus_read_unlock();
		return;
	}
	a64f_call(fid, m, entry, ctx, 0, &res);
	cpus_read_unlock();
	ret = (s64)res.a0;
	if (ret == PSCI_RET_ALREADY_ON) {
		t->cpuon[ON_ALREADY]++;
	} else if (ret == PSCI_RET_INVALID_PARAMS) {
		t->cpuon[ON_INVALID_PARAMS]++;
	} else if (ret == PSCI_RET_INVALID_ADDRESS) {
		t->cpuon[ON_INVALID_ADDRESS]++;
	} else {
		t->cpuon[ON_OTHER]++;
		pr_err("a64fuzz: FAIL CPU_ON(0x%x, mpidr 0x%llx, entry 0x%llx, context 0x%llx) = "
		       "%lld: a CPU that is on, or none\n",
		       fid, m, entry, ctx, ret);
	}
}

static void a64f_affinity_info(struct a64f_thread *t)
{
	u64 r = a64f_rand(t), m, level = (r >> 4) & 3;
	u32 fid = (r & 1) ? PSCI_AFFINITY_INFO_64 : PSCI_AFFINITY_INFO_32;
	bool online = false;
	struct a64f_res res;

	switch ((r >> 1) & 3) {
	case 0:
		m = a64f_online_mpidr(t);
		online = true;
		break;
	case 1:
		level = a64f_rand(t);
		m = a64f_online_mpidr(t);
		break;
	default:
		m = a64f_rand(t) >> ((r >> 8) & 63);
		break;
	}
	cpus_read_lock();
	a64f_call(fid, m, level, a64f_rand(t), 0, &res);
	cpus_read_unlock();
	t->affinity++;
	/* An online CPU at level 0 is ON (0). */
	if (online && level == 0 && res.a0 != 0) {
		t->affinity_wrong++;
		pr_err("a64fuzz: FAIL AFFINITY_INFO(0x%x, mpidr 0x%llx, level 0) = %lld for an "
		       "online CPU\n",
		       fid, m, (s64)res.a0);
	}
}

static void a64f_smccc(struct a64f_thread *t)
{
	static const u16 vendor[] = { 0x0,    0x1,    0x2,    0x3,    0x8001,
				      0x8002, 0xff00, 0xff01, 0xff02, 0xff03 };
	u64 r = a64f_rand(t), v = a64f_rand(t), fid, ipa, len;
	u32 w0, svc;
	struct a64f_res res;

	svc = (r & 8) ? 0xC0000000u : 0x80000000u; /* SMC64 or SMC32 fast call */
	switch (r & 7) {
	case 0: /* PSCI */
		fid = svc | 0x04000000u | (v & 0x1F);
		break;
	case 1: /* architecture: VERSION, ARCH_FEATURES, SOC_ID, the workarounds, others */
		fid = 0x80000000u |
		      ((v & 1) ? (u32)(v >> 1) & 0xFFFF
			       : (u32[]){ 0, 1, 2, 0x3FFF, 0x7FFF, 0x8000 }[(v >> 1) % 6]);
		if ((v >> 4) % 4 == 0) /* ARCH_FEATURES of a random ID */
			fid = 0x80000001u;
		break;
	case 2: /* vendor-specific hypervisor service (KVM's; this project's GET_STATS, and
		 * PREEMPT_COUNT, whose word is then the scratch area's random contents) */
		fid = svc | 0x06000000u |
		      ((v & 1) ? vendor[(v >> 1) % ARRAY_SIZE(vendor)] : (u32)(v >> 1) & 0xFFFF);
		if ((v >> 20) % 4 == 0)
			fid = HV_SMCCC_GET_STATS;
		break;
	case 3: /* standard hypervisor service (PV time), standard secure (TRNG) */
		fid = svc | ((v & 1) ? 0x05000000u : 0x04000000u) |
		      ((v & 2) ? 0x20 + ((v >> 2) & 3) : 0x50 + ((v >> 2) & 3));
		break;
	case 4: /* SiP, OEM, trusted applications and OS */
		fid = svc |
		      (u32[]){ 0x02000000u, 0x03000000u, 0x30000000u, 0x32000000u,
			       0x3F000000u }[(v & 0xFF) % 5] |
		      (u32)(v >> 8) % 0x40;
		break;
	case 5:
		fid = (u32)v;
		break;
	default: /* W0 is the ID: the upper half of X0 must not matter */
		fid = v;
		break;
	}
	w0 = (u32)fid;
	if (w0 == PSCI_CPU_ON_32 || w0 == PSCI_CPU_ON_64) {
		a64f_cpu_on(t, w0 == PSCI_CPU_ON_64);
		return;
	}
	if (a64f_psci_forbidden(w0))
		fid = (fid & ~0xFFFFFFFFULL) | PSCI_0_2_FN_BASE; /* PSCI_VERSION */
	ipa = a64f_ipa(t);
	len = (r & 16) ? a64f_rand(t) : (r >> 32) % 8192;
	a64f_call(fid, ipa, len, a64f_rand(t), (r >> 8) % 16 == 0 ? 1 + ((r >> 12) & 1) : 0, &res);
	a64f_count_smccc(t, res.a0);
	/* The project's HV_SMCCC_GET_STATS with a buffer outside RAM: a bad access for hv. */
	if (w0 == HV_SMCCC_GET_STATS) {
		t->stats_calls++;
		len = min_t(u64, len, sizeof(struct hv_guest_stats));
		if (ipa < a64f_ram_start || ipa >= fuzz_ram_end || len > fuzz_ram_end - ipa) {
			t->stats_refused++;
			t->hv_bad++;
		}
	}
}

/* --- the vGIC ---------------------------------------------------------------------------- */

/* GICD/GICR layout (IHI 0069 12.8, 12.9; IHI 0048B 4.1.2) */
#define GICD_CTLR 0x0000
#define GICD_IGROUPR 0x0080
#define GICD_ISENABLER 0x0100
#define GICD_ICENABLER 0x0180
#define GICD_ISPENDR 0x0200
#define GICD_ICPENDR 0x0280
#define GICD_ISACTIVER 0x0300
#define GICD_ICACTIVER 0x0380
#define GICD_IPRIORITYR 0x0400
#define GICD_ITARGETSR 0x0800
#define GICD_ICFGR 0x0C00
#define GICD_IGRPMODR 0x0D00
#define GICD_NSACR 0x0E00
#define GICD_SGIR 0x0F00
#define GICD_CPENDSGIR 0x0F10
#define GICD_SPENDSGIR 0x0F20
#define GICD_INMIR 0x0F80
#define GICD_IROUTER 0x6000
#define GICR_SGI 0x10000
#define GICR_WAKER 0x0014
#define GICR_TYPER 0x0008
#define GICR_FRAME 0x20000

enum byte_kind { B_RANDOM, B_CURRENT, B_FREE_MIX, B_FREE_ONLY, B_ZERO, B_SPECIAL };

/*
 * Where a byte of the distributor (redist false) or of a redistributor's frame (INTIDs
 * 0-31 of redistributor rd) lies: its kind, and for field registers the INTIDs it holds
 * (first, bits per INTID). B_SPECIAL: *special is the byte's value.
 */
struct gic_byte {
	enum byte_kind kind;
	u32 first, bits;
	bool pend_sgi; /* ISPENDR of SGIs: the harmless SGIs may be set */
};

static bool a64f_field(u32 off, u32 base, u32 end, u32 bits, struct gic_byte *b,
		       enum byte_kind kind)
{
	if (off < base || off >= end)
		return false;
	b->kind = kind;
	b->bits = bits;
	b->first = (off - base) * 8 / bits;
	return true;
}

static void a64f_gicd_byte(u32 off, struct gic_byte *b)
{
	bool v3 = a64f_gic_version == 3;

	memset(b, 0, sizeof(*b));
	b->kind = B_RANDOM;
	if (off < 4) {
		b->kind = B_CURRENT; /* CTLR */
	} else if (off >= 0x40 && off < 0x60) {
		b->kind = v3 ? B_SPECIAL : B_RANDOM; /* SETSPI/CLRSPI: 1023, spurious */
	} else if (a64f_field(off, GICD_IGROUPR, GICD_ISENABLER, 1, b, B_FREE_MIX) ||
		   a64f_field(off, GICD_ISENABLER, GICD_ICENABLER, 1, b, B_ZERO) ||
		   a64f_field(off, GICD_ICENABLER, GICD_ISPENDR, 1, b, B_FREE_ONLY) ||
		   a64f_field(off, GICD_ISPENDR, GICD_ICPENDR, 1, b, B_FREE_ONLY) ||
		   a64f_field(off, GICD_ICPENDR, GICD_ISACTIVER, 1, b, B_FREE_ONLY) ||
		   a64f_field(off, GICD_ISACTIVER, GICD_ICACTIVER, 1, b, B_FREE_ONLY) ||
		   a64f_field(off, GICD_ICACTIVER, GICD_IPRIORITYR, 1, b, B_FREE_ONLY) ||
		   a64f_field(off, GICD_IPRIORITYR, GICD_ITARGETSR, 8, b, B_FREE_MIX) ||
		   (!v3 && a64f_field(off, GICD_ITARGETSR, GICD_ICFGR, 8, b, B_FREE_MIX)) ||
		   a64f_field(off, GICD_ICFGR, GICD_IGRPMODR, 2, b, B_FREE_MIX) ||
		   (v3 && a64f_field(off, GICD_IGRPMODR, GICD_IGRPMODR + 0x80, 1, b, B_FREE_MIX)) ||
		   a64f_field(off, GICD_NSACR, GICD_SGIR, 2, b, B_FREE_MIX) ||
		   (v3 && a64f_field(off, GICD_INMIR, 0x1000, 1, b, B_FREE_MIX))) {
		/* field registers, above */
	} else if (!v3 && off >= GICD_SGIR && off < GICD_SGIR + 4) {
		b->kind = B_SPECIAL; /* a harmless SGI to itself */
	} else if (!v3 && off >= GICD_CPENDSGIR && off < GICD_SPENDSGIR + 16) {
		u32 sgi = off & 15;

		/* set: the harmless SGIs; clear: only those Linux does not use */
		if (off >= GICD_SPENDSGIR)
			b->kind = (A64F_BENIGN_SGIS & BIT(sgi)) ? B_RANDOM : B_ZERO;
		else
			b->kind = sgi >= 8 ? B_RANDOM : B_ZERO;
	} else if (v3 && off >= GICD_IROUTER + 8 * 32 && off < GICD_IROUTER + 8 * 1020) {
		b->kind = B_FREE_MIX;
		b->first = (off - GICD_IROUTER) / 8;
		b->bits = 64;
	}
}

static void a64f_gicr_byte(u32 off, struct gic_byte *b)
{
	u32 x = off - GICR_SGI;

	memset(b, 0, sizeof(*b));
	b->kind = B_RANDOM;
	if (off < GICR_SGI) {
		/* CTLR, WAKER, the LPI registers: as they are */
		if (off < 4 || (off >= GICR_WAKER && off < GICR_WAKER + 4) ||
		    (off >= 0x40 && off < 0x50) || (off >= 0x70 && off < 0x80) ||
		    (off >= 0xA0 && off < 0xC4))
			b->kind = B_CURRENT;
		return;
	}
	if (a64f_field(x, GICD_IGROUPR, GICD_IGROUPR + 4, 1, b, B_FREE_MIX) ||
	    a64f_field(x, GICD_ISENABLER, GICD_ISENABLER + 4, 1, b, B_ZERO) ||
	    a64f_field(x, GICD_ICENABLER, GICD_ICENABLER + 4, 1, b, B_FREE_ONLY) ||
	    a64f_field(x, GICD_ISPENDR, GICD_ISPENDR + 4, 1, b, B_FREE_ONLY) ||
	    a64f_field(x, GICD_ICPENDR, GICD_ICPENDR + 4, 1, b, B_FREE_ONLY) ||
	    a64f_field(x, GICD_ISACTIVER, GICD_ISACTIVER + 4, 1, b, B_FREE_ONLY) ||
	    a64f_field(x, GICD_ICACTIVER, GICD_ICACTIVER + 4, 1, b, B_FREE_ONLY) ||
	    a64f_field(x, GICD_IPRIORITYR, GICD_IPRIORITYR + 32, 8, b, B_FREE_MIX) ||
	    a64f_field(x, GICD_ICFGR, GICD_ICFGR + 8, 2, b, B_FREE_MIX) ||
	    a64f_field(x, GICD_IGRPMODR, GICD_IGRPMODR + 4, 1, b, B_FREE_MIX) ||
	    a64f_field(x, GICD_NSACR, GICD_NSACR + 8, 2, b, B_FREE_MIX)) {
		b->pend_sgi = x >= GICD_ISPENDR && x < GICD_ISPENDR + 2;
	}
}

/* Free-INTID mask of `count` INTIDs from `first` (bit i: INTID first + i is free). */
static u64 a64f_free_bits(bool redist, u32 rd, u32 first, u32 count)
{
	u64 m = 0;
	u32 i, id;

	for (i = 0; i < count; i++) {
		id = first + i;
		if (redist) {
			if (id < 32 && rd < A64F_MAX_CPUS && (a64f_priv_free[rd] & BIT(id)))
				m |= BIT_ULL(i);
		} else if (id < 32) {
			if (a64f_gic_version == 3) /* RAZ/WI under affinity routing */
				m |= BIT_ULL(i);
		} else if (id >= a64f_nr_irqs || (a64f_spi_free[id / 32] & BIT(id % 32))) {
			m |= BIT_ULL(i);
		}
	}
	return m;
}

/* The value of one byte of a write at a GIC byte whose current contents are cur. */
static u8 a64f_gic_wbyte(struct a64f_thread *t, bool redist, u32 rd, u32 off, u8 cur)
{
	struct gic_byte b;
	u8 rnd = (u8)a64f_rand(t), fmask = 0;
	u64 free;
	u32 per, i;

	if (redist)
		a64f_gicr_byte(off, &b);
	else
		a64f_gicd_byte(off, &b);
	if (b.kind == B_FREE_MIX || b.kind == B_FREE_ONLY) {
		if (b.bits == 64) { /* IROUTER: the byte belongs to one INTID */
			free = a64f_free_bits(redist, rd, b.first, 1);
			fmask = free ? 0xFF : 0;
		} else {
			per = 8 / b.bits;
			free = a64f_free_bits(redist, rd, b.first, per);
			for (i = 0; i < per; i++)
				if (free & BIT(i))
					fmask |= ((1u << b.bits) - 1) << (i * b.bits);
		}
	}
	switch (b.kind) {
	case B_RANDOM:
		return rnd;
	case B_CURRENT:
		return cur;
	case B_FREE_MIX:
		return (rnd & fmask) | (cur & ~fmask);
	case B_FREE_ONLY:
		if (b.pend_sgi && b.first < 16)
			fmask |= (A64F_BENIGN_SGIS >> b.first) & 0xFF;
		return rnd & fmask;
	case B_ZERO:
		return 0;
	default: { /* B_SPECIAL; SETSPI/CLRSPI: the spurious INTID, ignored */
		u32 v = 1023;

		if (a64f_gic_version == 2) /* GICD_SGIR: a harmless SGI to itself */
			v = 2u << 24 | a64f_benign_sgi[rnd % ARRAY_SIZE(a64f_benign_sgi)];
		return (u8)(v >> (8 * ((off - (a64f_gic_version == 2 ? GICD_SGIR : 0)) & 3)));
	}
	}
}

/* Whether the GIC architecture refuses an access of `size` at off (width, alignment). */
static bool a64f_gic_refused(bool redist, u32 off, unsigned int size)
{
	if (off % size || size == 2)
		return true;
	if (size == 8)
		return redist ? off != GICR_TYPER
			      : a64f_gic_version != 3 || off < GICD_IROUTER + 8 * 32 ||
					off >= GICD_IROUTER + 8 * 1020;
	if (size == 1) {
		if (redist)
			return off < GICR_SGI + GICD_IPRIORITYR ||
			       off >= GICR_SGI + GICD_IPRIORITYR + 32;
		if (off >= GICD_IPRIORITYR && off < GICD_IPRIORITYR + 1020)
			return false;
		if (a64f_gic_version == 2 &&
		    ((off >= GICD_ITARGETSR && off < GICD_ITARGETSR + 1020) ||
		     (off >= GICD_CPENDSGIR && off < GICD_SPENDSGIR + 16)))
			return false;
		return true;
	}
	return false;
}

/* A random offset in a frame of len bytes: mostly where the registers are. */
static u32 a64f_gic_offset(struct a64f_thread *t, bool redist, u32 len)
{
	u64 r = a64f_rand(t);
	u32 off;

	switch (r & 7) {
	case 0 ... 3: /* the registers */
		off = redist ? ((r & 8) ? GICR_SGI : 0) + (u32)(r >> 8) % 0xE10
			     : (u32)(r >> 8) % 0x1000;
		break;
	case 4: /* IROUTER (v3) or the ID block */
		off = (!redist && a64f_gic_version == 3 && (r & 8))
			      ? GICD_IROUTER + (r >> 8) % 0x2000
			      : 0xFFD0 + (r >> 8) % 0x30;
		break;
	default:
		off = (u32)(r >> 8) % len;
		break;
	}
	return off % len;
}

/* Reads the aligned 32-bit words around [off, off + 8) into cur[] (bytes), in a window. */
static void a64f_gic_current(struct a64f_thread *t, void __iomem *base, u32 len, u32 off,
			     u8 cur[12])
{
	u32 w = off & ~3u, i;
	u64 v;

	for (i = 0; i < 3; i++) {
		v = 0;
		if (w + 4 * i < len)
			a64f_load(t, base + w + 4 * i, 2, &v);
		cur[4 * i] = (u8)v;
		cur[4 * i + 1] = (u8)(v >> 8);
		cur[4 * i + 2] = (u8)(v >> 16);
		cur[4 * i + 3] = (u8)(v >> 24);
	}
}

static u32 a64f_used_mask(bool redist, u32 rd, u32 word, u32 bits);

/* One window of 1-8 accesses to the distributor or to redistributor rd. */
static void a64f_gic(struct a64f_thread *t, bool redist)
{
	void __iomem *base = redist ? a64f_gicr : a64f_gicd;
	u32 len = redist ? GICR_FRAME : a64f_gicd_len, rd = 0, off, n, i, lg, x;
	bool active = false;
	struct a64f_win w;
	u64 r, val;
	u8 cur[12];

	if (redist) {
		rd = a64f_rand(t) % a64f_nredist;
		base += (size_t)rd * GICR_FRAME;
	}
	a64f_win_open(&w);
	for (n = 1 + a64f_rand(t) % 8; n; n--) {
		r = a64f_rand(t);
		if ((r & 63) == 0) {
			a64f_odd_access(t, base + a64f_gic_offset(t, redist, len));
			continue;
		}
		lg = (r >> 6) & 3;
		off = a64f_gic_offset(t, redist, len);
		if ((r >> 8) & 3) /* mostly aligned */
			off &= ~((1u << lg) - 1);
		if (off + (1u << lg) > len)
			off = len - (1u << lg);
		if (a64f_gic_refused(redist, off, 1u << lg)) {
			t->gic_refused++;
			t->hv_bad++;
		}
		if ((r >> 10) & 1) {
			a64f_load(t, base + off, lg, &val);
			continue;
		}
		a64f_gic_current(t, base, len, off, cur);
		for (val = 0, i = 0; i < (1u << lg); i++)
			val |= (u64)a64f_gic_wbyte(t, redist, rd, off + i, cur[(off & 3) + i])
			       << (8 * i);
		a64f_store(t, base + off, lg, val);
		x = redist ? off - GICR_SGI : off;
		if (x + (1u << lg) > GICD_ISACTIVER && x < GICD_ICACTIVER)
			active = true;
	}
	/*
	 * Free interrupts set active do not stay so: the hypervisor keeps active interrupts
	 * in list registers until the guest deactivates them, and enough of them (as many as
	 * there are list registers) would keep every pending interrupt of the vCPU out
	 * (a real GIC signals a pending interrupt whatever other INTIDs are active).
	 */
	if (active && !redist)
		for (i = 1; i < a64f_nr_irqs / 32; i++)
			a64f_store(t, base + GICD_ICACTIVER + 4 * i, 2,
				   ~a64f_used_mask(false, 0, i, 1));
	if (active && redist)
		a64f_store(t, base + GICR_SGI + GICD_ICACTIVER, 2, ~a64f_used_mask(true, rd, 0, 1));
	a64f_win_close(&w);
}

/* The GICv2 CPU interface (the hardware's GICV frame): aligned 32-bit accesses only. */
#define GICC_CTLR 0x00
#define GICC_PMR 0x04
#define GICC_BPR 0x08
#define GICC_IAR 0x0C
#define GICC_EOIR 0x10
#define GICC_ABPR 0x1C
#define GICC_AIAR 0x20
#define GICC_AEOIR 0x24
#define GICC_APR0 0xD0
#define GICC_DIR 0x1000

static void a64f_gicc_op(struct a64f_thread *t)
{
	static const u32 saved_regs[] = { GICC_CTLR, GICC_PMR, GICC_BPR, GICC_ABPR, GICC_APR0 };
	u64 saved[ARRAY_SIZE(saved_regs)], r, v;
	struct a64f_win w;
	u32 off, n, i;

	a64f_win_open(&w);
	for (i = 0; i < ARRAY_SIZE(saved_regs); i++)
		a64f_load(t, a64f_gicc + saved_regs[i], 2, &saved[i]);
	for (n = 1 + a64f_rand(t) % 8; n; n--) {
		r = a64f_rand(t);
		off = ((u32)(r >> 8) % (u32)a64f_gicc_len) & ~3u;
		if (off == GICC_IAR || off == GICC_AIAR) /* would acknowledge an interrupt */
			off = GICC_PMR;
		if (r & 1) {
			a64f_load(t, a64f_gicc + off, 2, &v);
			continue;
		}
		switch (off) {
		case GICC_PMR:
		case GICC_BPR:
		case GICC_ABPR:
		case GICC_CTLR:
		case GICC_APR0:
			v = a64f_rand(t);
			break;
		case GICC_EOIR:
		case GICC_AEOIR:
		case GICC_DIR:
			v = 1020 + (r >> 32) % 4; /* spurious IDs: ignored */
			break;
		default:
			continue; /* the rest is read-only or reserved: only read */
		}
		a64f_store(t, a64f_gicc + off, 2, v);
	}
	for (i = ARRAY_SIZE(saved_regs); i--;) {
		a64f_store(t, a64f_gicc + saved_regs[i], 2, saved[i]);
		if (a64f_load(t, a64f_gicc + saved_regs[i], 2, &v) && v != saved[i])
			a64f_restore_failed(t, "GICC", saved[i], v);
	}
	a64f_win_close(&w);
}

/* --- SGI storms ------------------------------------------------------------------------- */

static u64 a64f_sgi1r(struct a64f_thread *t)
{
	u64 r = a64f_rand(t), v = a64f_rand(t), m = a64f_online_mpidr(t);
	u64 sgi = a64f_benign_sgi[(r >> 8) % ARRAY_SIZE(a64f_benign_sgi)];

	switch (r & 7) {
	case 0 ... 2: /* CPUs of this VM: their Aff3.Aff2.Aff1, a random target list */
		return ((m >> 32) & 0xFF) << 48 | ((m >> 16) & 0xFF) << 32 |
		       ((m >> 8) & 0xFF) << 16 | sgi << 24 | (v & 0xFFFF);
	case 3: /* all but itself (IRM) */
		return BIT_ULL(40) | sgi << 24 | (v & 0xFFFF);
	case 4: /* anything, with a harmless INTID */
		return (v & ~(0xFULL << 24)) | sgi << 24;
	default: /* nowhere (Aff3/Aff2 set, or a range selector past 16 vCPUs): any INTID */
		v |= (r & 16) ? 0x80ULL << 48 : 0x80ULL << 32;
		if (r & 32)
			v = (v & ~(0xFULL << 44)) | (1 + (r >> 40) % 15) << 44 | BIT_ULL(48);
		return v & ~BIT_ULL(40);
	}
}

static u32 a64f_sgir(struct a64f_thread *t)
{
	u64 r = a64f_rand(t);
	u32 sgi = a64f_benign_sgi[(r >> 8) % ARRAY_SIZE(a64f_benign_sgi)];

	/* TargetListFilter [25:24] (3 is reserved), CPUTargetList [23:16], NSATT [15] */
	return (u32)(r & 3) << 24 | (u32)((r >> 16) & 0xFF) << 16 | (u32)(r & BIT(15)) | sgi;
}

/* About 2 ms of SGI generation, in windows of 32. */
static void a64f_sgi(struct a64f_thread *t)
{
	unsigned long end = jiffies + max(1UL, msecs_to_jiffies(2));
	struct a64f_win w;
	u64 esr, r, v;
	u32 i;

	do {
		a64f_win_open(&w);
		for (i = 0; i < 32; i++) {
			if (a64f_gic_version == 2) {
				a64f_store(t, a64f_gicd + GICD_SGIR, 2, a64f_sgir(t));
				t->sgis++;
				continue;
			}
			r = a64f_rand(t);
			v = a64f_sgi1r(t);
			if ((r & 15) == 0) /* group 0: Linux's SGIs are group 1, so nothing */
				esr = a64f_wr_sgi0r(v, NULL);
			else if ((r & 15) == 1)
				esr = a64f_wr_asgi1r(v, NULL);
			else
				esr = a64f_wr_sgi1r(v, NULL);
			t->sgis++;
			if (esr && a64f_fault(t, esr) == FAULT_UNDEF) {
				t->sgi_undef++;
				t->hv_bad++;
			}
		}
		a64f_win_close(&w);
		cond_resched();
	} while (time_before(jiffies, end));
}

/* --- the PL011 --------------------------------------------------------------------------- */

#define UART_CR 0x30
#define UART_IMSC 0x38
#define UART_ICR 0x44
#define UART_ICR_SAFE 0x78F /* modem (0-3) and error (7-10) interrupts */

static bool a64f_uart_register(u32 off)
{
	if (off % 4)
		return false;
	return off == 0x00 || off == 0x04 || off == 0x18 || (off >= 0x20 && off <= 0x48) ||
	       off >= 0xFE0;
}

static void a64f_uart_op(struct a64f_thread *t)
{
	/* restored in this order: the rate before LCR_H, which latches it; IMSC last */
	static const u32 saved_regs[] = { 0x24, 0x28, 0x2C, 0x20, 0x34, 0x48, UART_CR, UART_IMSC };
	u64 saved[ARRAY_SIZE(saved_regs)], r, v;
	struct a64f_win w;
	u32 off, n, i, lg, b;

	console_lock(); /* no printk to this UART while it is abused */
	a64f_win_open(&w);
	for (i = 0; i < ARRAY_SIZE(saved_regs); i++)
		a64f_load(t, a64f_uart + saved_regs[i], 2, &saved[i]);
	for (n = 1 + a64f_rand(t) % 8; n; n--) {
		r = a64f_rand(t);
		lg = (r >> 4) & 3;
		off = (r & 1) ? (u32)(r >> 8) % 0x50 : (u32)(r >> 8) % 0x1000;
		if ((r >> 2) & 1)
			off &= ~3u;
		if (off + (1u << lg) > 0x1000)
			off = 0x1000 - (1u << lg);
		if (!a64f_uart_register(off)) {
			t->uart_refused++;
			t->hv_bad++;
		}
		if ((r >> 6) & 1 || off < 4) { /* reads; never a write to DR */
			a64f_load(t, a64f_uart + off, lg, &v);
			continue;
		}
		v = a64f_rand(t);
		for (b = 0; b < (1u << lg); b++) /* ICR: only modem and error interrupts */
			if (off + b >= UART_ICR && off + b < UART_ICR + 4)
				v &= ~((u64)((~(u32)UART_ICR_SAFE >> (8 * (off + b - UART_ICR))) &
					     0xFF)
				       << (8 * b));
		a64f_store(t, a64f_uart + off, lg, v);
	}
	for (i = 0; i < ARRAY_SIZE(saved_regs); i++) {
		a64f_store(t, a64f_uart + saved_regs[i], 2, saved[i]);
		if (a64f_load(t, a64f_uart + saved_regs[i], 2, &v) && v != saved[i])
			a64f_restore_failed(t, "UART", saved[i], v);
	}
	a64f_win_close(&w);
	console_unlock();
}

/* --- system registers -------------------------------------------------------------------- */

static bool a64f_sysreg_usable(const struct a64f_sysreg *s)
{
	u32 n = s->flags >> 10;

	if ((s->flags & F_BP) && n >= a64f_nbrps)
		return false;
	if ((s->flags & F_WP) && n >= a64f_nwrps)
		return false;
	if (s->cls == C_RAS && !a64f_has_ras)
		return false;
	return true;
}

static u64 a64f_sys_access(struct a64f_thread *t, const struct a64f_sysreg *s, bool write, u64 *val)
{
	u64 esr = write ? s->wr(*val, NULL) : s->rd(0, val);

	t->sys_accesses++;
	if (esr && a64f_fault(t, esr) == FAULT_UNDEF) {
		if (!t->sys_undef[s->cls]++)
			t->first_undef[s->cls] = s->name;
		if (s->cls == C_PMU)
			t->hv_bad++;
	}
	return esr;
}

#define A64F_SYS_PER_WIN 8

static const struct a64f_sysreg *a64f_oslar, *a64f_oslsr, *a64f_claimset, *a64f_claimclr;

static const struct a64f_sysreg *a64f_sysreg_named(const char *name)
{
	unsigned int i;

	for (i = 0; i < A64F_NSYSREGS; i++)
		if (!strcmp(a64f_sysregs[i].name, name))
			return &a64f_sysregs[i];
	return NULL;
}

/* One window of 1-8 system register accesses; what was changed is restored. */
static void a64f_sysreg(struct a64f_thread *t)
{
	const struct a64f_sysreg *saved_reg[A64F_SYS_PER_WIN], *s;
	u64 saved_val[A64F_SYS_PER_WIN], v, oslsr = 0, claim = 0;
	bool oslk_saved = false, claim_saved = false, first;
	unsigned int nsaved = 0, n, i, j;
	struct a64f_win w;
	u64 r;

	a64f_win_open(&w);
	for (n = 1 + a64f_rand(t) % A64F_SYS_PER_WIN; n; n--) {
		r = a64f_rand(t);
		s = &a64f_sysregs[r % A64F_NSYSREGS];
		if (!a64f_sysreg_usable(s))
			continue;
		v = 0;
		if ((s->flags & F_R) && a64f_sys_access(t, s, false, &v)) {
			/* UNDEFINED read of a PMU or IMPLEMENTATION DEFINED register: a random
			 * write, UNDEFINED too */
			if ((s->flags & F_W) && (s->cls == C_PMU || s->cls == C_IMPDEF)) {
				v = a64f_rand(t);
				a64f_sys_access(t, s, true, &v);
			}
			continue;
		}
		if (!(s->flags & F_W) || ((r >> 32) & 1))
			continue;
		if (s->flags & F_OSLAR) {
			if (!oslk_saved && !a64f_sys_access(t, a64f_oslsr, false, &oslsr))
				oslk_saved = true;
			if (!oslk_saved)
				continue;
			v = (r >> 40) & 1;
		} else if (s->flags & F_CLAIM) {
			if (!claim_saved && !a64f_sys_access(t, a64f_claimclr, false, &claim))
				claim_saved = true;
			if (!claim_saved)
				continue;
			v = a64f_rand(t) & 0xFF;
		} else if (s->flags & F_SAVE) {
			if (nsaved == A64F_SYS_PER_WIN)
				continue;
			saved_reg[nsaved] = s;
			saved_val[nsaved++] = v; /* what the read above gave */
			v = a64f_rand(t);
		} else if (s->flags & F_ZERO) {
			v = 0;
		} else if (s->flags & F_RANDOM) {
			v = a64f_rand(t);
		}
		/* else (PMU, IMPLEMENTATION DEFINED, RAS records): the value read, unchanged */
		a64f_sys_access(t, s, true, &v);
	}
	/* Restored in reverse order, so that the first saved value of a register wins. */
	for (i = nsaved; i--;) {
		v = saved_val[i];
		a64f_sys_access(t, saved_reg[i], true, &v);
	}
	for (i = 0; i < nsaved; i++) {
		for (first = true, j = 0; j < i; j++)
			first &= saved_reg[j] != saved_reg[i];
		if (first && !a64f_sys_access(t, saved_reg[i], false, &v) && v != saved_val[i])
			a64f_restore_failed(t, saved_reg[i]->name, saved_val[i], v);
	}
	if (oslk_saved) {
		v = (oslsr >> 1) & 1; /* OSLSR_EL1.OSLK */
		a64f_sys_access(t, a64f_oslar, true, &v);
		if (!a64f_sys_access(t, a64f_oslsr, false, &v) && v != oslsr)
			a64f_restore_failed(t, "oslsr", oslsr, v);
	}
	if (claim_saved) {
		v = 0xFF;
		a64f_sys_access(t, a64f_claimclr, true, &v);
		v = claim;
		a64f_sys_access(t, a64f_claimset, true, &v);
		if (!a64f_sys_access(t, a64f_claimclr, false, &v) && v != claim)
			a64f_restore_failed(t, "dbgclaimclr", claim, v);
	}
	a64f_win_close(&w);
}

/* --- nowhere ----------------------------------------------------------------------------- */

static void a64f_nowhere_op(struct a64f_thread *t)
{
	struct a64f_win w;
	u32 n, lg, off;
	u64 r, v;
	void __iomem *p;

	a64f_win_open(&w);
	for (n = 1 + a64f_rand(t) % 8; n; n--) {
		r = a64f_rand(t);
		p = a64f_nowhere[(r >> 8) % a64f_nnowhere];
		lg = (r >> 4) & 3;
		off = ((u32)(r >> 16) % PAGE_SIZE) & ~((1u << lg) - 1);
		if ((r & 31) == 0) {
			a64f_odd_access(t, p + off);
			continue;
		}
		t->nowhere++;
		if (r & 1) {
			a64f_store(t, p + off, lg, a64f_rand(t));
			continue;
		}
		if (a64f_load(t, p + off, lg, &v) && v != (lg == 3 ? ~0ULL : BIT_ULL(8 << lg) - 1))
			t->nowhere_not_ones++;
	}
	a64f_win_close(&w);
}

/* --- the run ------------------------------------------------------------------------------- */

static bool a64f_op_available(enum a64f_op op)
{
	switch (op) {
	case OP_GICD:
	case OP_SGI:
		return a64f_gicd != NULL;
	case OP_GICR:
		return a64f_gicr != NULL;
	case OP_GICC:
		return a64f_gicc != NULL;
	case OP_UART:
		return a64f_uart != NULL;
	case OP_NOWHERE:
		return a64f_nnowhere > 0;
	default:
		return true;
	}
}

static void fuzz_step(struct fuzz_thread *f, unsigned int op)
{
	struct a64f_thread *t = container_of(f, struct a64f_thread, f);
	u64 r;

	t->ops[op]++;
	switch (op) {
	case OP_SMCCC:
		a64f_smccc(t);
		break;
	case OP_CPUON:
		r = a64f_rand(t);
		if (r & 16)
			a64f_affinity_info(t);
		else
			a64f_cpu_on(t, r & 32);
		break;
	case OP_GICD:
		a64f_gic(t, false);
		break;
	case OP_GICR:
		a64f_gic(t, true);
		break;
	case OP_GICC:
		mutex_lock(&a64f_gicc_lock); /* its registers are restored */
		a64f_gicc_op(t);
		mutex_unlock(&a64f_gicc_lock);
		break;
	case OP_SGI:
		a64f_sgi(t);
		break;
	case OP_UART:
		a64f_uart_op(t);
		break;
	case OP_SYSREG:
		a64f_sysreg(t);
		break;
	default:
		a64f_nowhere_op(t);
		break;
	}
}

/* --- setup: the devices, the interrupts in use -------------------------------------------- */

static void __iomem *a64f_map(struct device_node *np, int index, phys_addr_t *pa,
			      resource_size_t *len, resource_size_t min_len, bool device)
{
	struct resource res;

	if (!np || of_address_to_resource(np, index, &res))
		return NULL;
	*pa = res.start;
	*len = max(resource_size(&res), min_len);
	/*
	 * The emulated devices are mapped Normal non-cacheable, so that unaligned accesses
	 * reach the hypervisor instead of faulting at stage 1 (Device memory); every access
	 * to them traps, nothing is cached. The GICv2 CPU interface is the hardware's.
	 */
	return device ? ioremap(*pa, *len) : ioremap_wc(*pa, *len);
}

/* Reads a 32-bit register at base + off through a window (0 if it faults). */
static u32 a64f_rd32(void __iomem *base, u32 off)
{
	struct a64f_thread t = {};
	struct a64f_win w;
	u64 v = 0;

	a64f_win_open(&w);
	a64f_load(&t, base + off, 2, &v);
	a64f_win_close(&w);
	return (u32)v;
}

static void a64f_wr32(void __iomem *base, u32 off, u32 val)
{
	struct a64f_thread t = {};
	struct a64f_win w;

	a64f_win_open(&w);
	a64f_store(&t, base + off, 2, val);
	a64f_win_close(&w);
}

static u64 a64f_rd64(void __iomem *base, u32 off)
{
	return a64f_rd32(base, off) | (u64)a64f_rd32(base, off + 4) << 32;
}

/* The configuration of the used interrupts (s->enable[] from the distributor's view). */
static void a64f_gic_snapshot(struct a64f_gic_snap *s)
{
	u32 i, rd;

	s->ctlr = a64f_rd32(a64f_gicd, GICD_CTLR);
	for (i = 0; i < a64f_nr_irqs / 32; i++) {
		s->enable[i] = a64f_rd32(a64f_gicd, GICD_ISENABLER + 4 * i);
		s->group[i] = a64f_rd32(a64f_gicd, GICD_IGROUPR + 4 * i);
	}
	for (i = 0; i < a64f_nr_irqs / 4; i++) {
		s->prio[i] = a64f_rd32(a64f_gicd, GICD_IPRIORITYR + 4 * i);
		if (a64f_gic_version == 2)
			s->targets[i] = a64f_rd32(a64f_gicd, GICD_ITARGETSR + 4 * i);
	}
	for (i = 0; i < a64f_nr_irqs / 16; i++)
		s->cfg[i] = a64f_rd32(a64f_gicd, GICD_ICFGR + 4 * i);
	if (a64f_gic_version == 3)
		for (i = 32; i < a64f_nr_irqs && i < 1020; i++)
			s->route[i] = a64f_rd64(a64f_gicd, GICD_IROUTER + 8 * i);
	for (rd = 0; rd < a64f_nredist; rd++) {
		void __iomem *sgi = a64f_gicr + (size_t)rd * GICR_FRAME + GICR_SGI;

		s->r_enable[rd] = a64f_rd32(sgi, GICD_ISENABLER);
		s->r_group[rd] = a64f_rd32(sgi, GICD_IGROUPR);
		for (i = 0; i < 8; i++)
			s->r_prio[rd][i] = a64f_rd32(sgi, GICD_IPRIORITYR + 4 * i);
		for (i = 0; i < 2; i++)
			s->r_cfg[rd][i] = a64f_rd32(sgi, GICD_ICFGR + 4 * i);
	}
}

/* Bits of the used INTIDs (bits per INTID) in word `word` of a field register. */
static u32 a64f_used_mask(bool redist, u32 rd, u32 word, u32 bits)
{
	u32 per = 32 / bits, first = word * per, m = 0, i;
	u64 free = a64f_free_bits(redist, rd, first, per);

	for (i = 0; i < per; i++)
		if (!(free & BIT_ULL(i)))
			m |= (bits == 32 ? ~0u : ((1u << bits) - 1)) << (i * bits);
	return m;
}

static unsigned int a64f_gic_compare(void)
{
	struct a64f_gic_snap *a = a64f_snap0, *b = a64f_snap1;
	unsigned int bad = 0, i, rd;
	u32 m;

#define A64F_CMP(what, x, y, mask, idx)                                                        \
	do {                                                                                   \
		if (((x) ^ (y)) & (mask)) {                                                    \
			bad++;                                                                 \
			pr_err("a64fuzz: FAIL gic state: %s[%u] was 0x%llx, now 0x%llx (used " \
			       "bits 0x%llx)\n",                                               \
			       what, idx, (u64)(x), (u64)(y), (u64)(mask));                    \
		}                                                                              \
	} while (0)
	A64F_CMP("GICD_CTLR", a->ctlr, b->ctlr, ~0u, 0);
	for (i = 1; i < a64f_nr_irqs / 32; i++) {
		m = a64f_used_mask(false, 0, i, 1);
		A64F_CMP("GICD_ISENABLER", a->enable[i], b->enable[i], m, i);
		A64F_CMP("GICD_IGROUPR", a->group[i], b->group[i], m, i);
	}
	for (i = 8; i < a64f_nr_irqs / 4; i++) {
		m = a64f_used_mask(false, 0, i, 8);
		A64F_CMP("GICD_IPRIORITYR", a->prio[i], b->prio[i], m, i);
		if (a64f_gic_version == 2)
			A64F_CMP("GICD_ITARGETSR", a->targets[i], b->targets[i], m, i);
	}
	for (i = 2; i < a64f_nr_irqs / 16; i++)
		A64F_CMP("GICD_ICFGR", a->cfg[i], b->cfg[i], a64f_used_mask(false, 0, i, 2), i);
	if (a64f_gic_version == 3)
		for (i = 32; i < a64f_nr_irqs && i < 1020; i++)
			if (!a64f_free_bits(false, 0, i, 1))
				A64F_CMP("GICD_IROUTER", a->route[i], b->route[i], ~0ULL, i);
	for (rd = 0; rd < a64f_nredist; rd++) {
		m = a64f_used_mask(true, rd, 0, 1);
		A64F_CMP("GICR_ISENABLER0", a->r_enable[rd], b->r_enable[rd], m, rd);
		A64F_CMP("GICR_IGROUPR0", a->r_group[rd], b->r_group[rd], m, rd);
		for (i = 0; i < 8; i++)
			A64F_CMP("GICR_IPRIORITYR", a->r_prio[rd][i], b->r_prio[rd][i],
				 a64f_used_mask(true, rd, i, 8), rd * 8 + i);
		for (i = 0; i < 2; i++)
			A64F_CMP("GICR_ICFGR", a->r_cfg[rd][i], b->r_cfg[rd][i],
				 a64f_used_mask(true, rd, i, 2), rd * 2 + i);
	}
#undef A64F_CMP
	return bad;
}

/* Clears the free INTIDs' pending and active bits (left behind by the run). */
static void a64f_gic_cleanup(void)
{
	u32 i, rd, m;

	for (i = 1; i < a64f_nr_irqs / 32; i++) {
		m = ~a64f_used_mask(false, 0, i, 1);
		a64f_wr32(a64f_gicd, GICD_ICPENDR + 4 * i, m);
		a64f_wr32(a64f_gicd, GICD_ICACTIVER + 4 * i, m);
	}
	for (rd = 0; rd < a64f_nredist; rd++) {
		void __iomem *sgi = a64f_gicr + (size_t)rd * GICR_FRAME + GICR_SGI;

		m = ~a64f_used_mask(true, rd, 0, 1);
		a64f_wr32(sgi, GICD_ICPENDR, m);
		a64f_wr32(sgi, GICD_ICACTIVER, m);
	}
}

/* The guest's RAM, from its device tree's memory node (else the linear map's extent). */
static void a64f_ram_range(void)
{
	struct device_node *np = of_find_node_by_type(NULL, "memory");
	struct resource res;

	a64f_ram_start = memstart_addr;
	fuzz_ram_end = __pa(high_memory - 1) + 1;
	if (np && !of_address_to_resource(np, 0, &res)) {
		a64f_ram_start = res.start;
		fuzz_ram_end = res.end + 1;
	}
	of_node_put(np);
}

static void a64f_read_mpidr(void *unused)
{
	unsigned int cpu = smp_processor_id();

	if (cpu < A64F_MAX_CPUS)
		a64f_mpidr[cpu] = read_cpuid_mpidr() & A64F_MPIDR_AFF;
}

static void a64f_unmap(void)
{
	unsigned int i;

	for (i = 0; i < a64f_nnowhere; i++)
		iounmap(a64f_nowhere[i]);
	if (a64f_gicd)
		iounmap(a64f_gicd);
	if (a64f_gicr)
		iounmap(a64f_gicr);
	if (a64f_gicc)
		iounmap(a64f_gicc);
	if (a64f_uart)
		iounmap(a64f_uart);
	kfree(a64f_snap0);
	kfree(a64f_snap1);
}

static int a64f_setup(void)
{
	struct device_node *np;
	resource_size_t ulen;
	u64 dfr0, pfr0;
	unsigned int i, rd;
	u32 typer;

	np = of_find_compatible_node(NULL, NULL, "arm,gic-v3");
	if (np) {
		a64f_gic_version = 3;
		a64f_gicd = a64f_map(np, 0, &a64f_gicd_pa, &a64f_gicd_len, SZ_64K, false);
		a64f_gicr = a64f_map(np, 1, &a64f_gicr_pa, &a64f_gicr_len, GICR_FRAME, false);
	} else {
		np = of_find_compatible_node(NULL, NULL, "arm,cortex-a15-gic");
		if (np) {
			a64f_gic_version = 2;
			a64f_gicd = a64f_map(np, 0, &a64f_gicd_pa, &a64f_gicd_len, SZ_64K, false);
			a64f_gicc = a64f_map(np, 1, &a64f_gicc_pa, &a64f_gicc_len, 0, true);
		}
	}
	of_node_put(np);
	np = of_find_compatible_node(NULL, NULL, "arm,pl011");
	a64f_uart = a64f_map(np, 0, &a64f_uart_pa, &ulen, SZ_4K, false);
	of_node_put(np);
	if (!a64f_gicd) {
		pr_err("a64fuzz: no GIC distributor in the device tree\n");
		return -ENODEV;
	}
	a64f_nredist = a64f_gicr ? min_t(u64, a64f_gicr_len / GICR_FRAME, A64F_MAX_CPUS) : 0;

	/* Pages where nothing is: 0, between the GIC's frames, after the UART, after the
	 * redistributors, after RAM. */
	a64f_nowhere_pa[a64f_nnowhere++] = 0;
	a64f_nowhere_pa[a64f_nnowhere++] = a64f_gicd_pa + 0x20000;
	if (a64f_uart)
		a64f_nowhere_pa[a64f_nnowhere++] = a64f_uart_pa + 0x10000;
	if (a64f_gicr)
		a64f_nowhere_pa[a64f_nnowhere++] = a64f_gicr_pa + a64f_gicr_len;
	a64f_nowhere_pa[a64f_nnowhere++] = fuzz_ram_end;
	for (i = 0; i < a64f_nnowhere; i++) {
		a64f_nowhere[i] = ioremap(a64f_nowhere_pa[i], PAGE_SIZE);
		if (!a64f_nowhere[i]) {
			pr_err("a64fuzz: cannot map %pa\n", &a64f_nowhere_pa[i]);
			a64f_nnowhere = i;
			return -ENOMEM;
		}
	}

	/* Free INTIDs: the ones disabled now. */
	typer = a64f_rd32(a64f_gicd, 4);
	a64f_nr_irqs = min(32 * ((typer & 0x1F) + 1), (u32)A64F_NR_IRQS);
	for (i = 1; i < a64f_nr_irqs / 32; i++)
		a64f_spi_free[i] = ~a64f_rd32(a64f_gicd, GICD_ISENABLER + 4 * i);
	for (i = a64f_nr_irqs / 32; i < A64F_NR_IRQS / 32; i++)
		a64f_spi_free[i] = ~0u;
	for (rd = 0; rd < a64f_nredist; rd++)
		a64f_priv_free[rd] = ~a64f_rd32(a64f_gicr + (size_t)rd * GICR_FRAME + GICR_SGI,
						GICD_ISENABLER);
	a64f_snap0 = kzalloc(sizeof(*a64f_snap0), GFP_KERNEL);
	a64f_snap1 = kzalloc(sizeof(*a64f_snap1), GFP_KERNEL);
	if (!a64f_snap0 || !a64f_snap1)
		return -ENOMEM;
	a64f_gic_snapshot(a64f_snap0);

	/* Breakpoints, watchpoints, RAS as the guest's ID registers say. */
	dfr0 = read_sysreg(id_aa64dfr0_el1);
	pfr0 = read_sysreg(id_aa64pfr0_el1);
	a64f_nbrps = ((dfr0 >> 12) & 0xF) + 1;
	a64f_nwrps = ((dfr0 >> 20) & 0xF) + 1;
	a64f_has_ras = (pfr0 >> 28) & 0xF;
	a64f_oslar = a64f_sysreg_named("oslar");
	a64f_oslsr = a64f_sysreg_named("oslsr");
	a64f_claimset = a64f_sysreg_named("dbgclaimset");
	a64f_claimclr = a64f_sysreg_named("dbgclaimclr");
	on_each_cpu(a64f_read_mpidr, NULL, 1);
	return 0;
}

/* Sums the threads' counters into *sum (the first register of each class that UNDEFINED,
 * the first not restored: the first thread's that has one). */
static void a64f_sum(struct a64f_thread *sum)
{
	unsigned int i, c;

	memset(sum, 0, sizeof(*sum));
	FUZZ_SUM(sum, struct a64f_thread, c);
	for (i = 0; i < fuzz_n; i++) {
		struct a64f_thread *t = container_of(fuzz_thread(i), struct a64f_thread, f);

		for (c = 0; c < C_NR; c++)
			if (!sum->first_undef[c])
				sum->first_undef[c] = t->first_undef[c];
		if (t->bad_reg && !sum->bad_reg) {
			sum->bad_reg = t->bad_reg;
			sum->bad_want = t->bad_want;
			sum->bad_got = t->bad_got;
		}
	}
}

static void a64f_report(struct a64f_thread *s, unsigned int gic_bad, bool warned)
{
	u64 calls = 0, nfaults = 0;
	unsigned int i;

	for (i = 0; i < OP_NR; i++)
		calls += s->ops[i];
	for (i = 0; i < FAULT_NR; i++)
		nfaults += s->faults[i];
	fuzz_len = 0;
	fuzz_add("a64fuzz: operations:");
	fuzz_add_counts(a64f_op_names, s->ops, OP_NR);
	pr_info("%s\n", fuzz_line);
	fuzz_len = 0;
	fuzz_add("a64fuzz: smccc: results:");
	fuzz_add_counts(a64f_result_names, s->smccc, R_NR);
	pr_info("%s get-stats=%llu get-stats-outside-ram=%llu\n", fuzz_line, s->stats_calls,
		s->stats_refused);
	fuzz_len = 0;
	fuzz_add("a64fuzz: cpuon:");
	fuzz_add_counts(a64f_on_names, s->cpuon, ON_NR);
	pr_info("%s affinity-info=%llu affinity-wrong=%llu\n", fuzz_line, s->affinity,
		s->affinity_wrong);
	pr_info("a64fuzz: mmio: reads=%llu writes=%llu gic-refused=%llu no-syndrome=%llu "
		"external-aborts=%llu uart-refused=%llu nowhere=%llu nowhere-not-all-ones=%llu\n",
		s->mmio_reads, s->mmio_writes, s->gic_refused, s->noisv, s->sea, s->uart_refused,
		s->nowhere, s->nowhere_not_ones);
	pr_info("a64fuzz: sgi: writes=%llu undefined=%llu\n", s->sgis, s->sgi_undef);
	fuzz_len = 0;
	fuzz_add("a64fuzz: sysreg: accesses=%llu undefined:", s->sys_accesses);
	fuzz_add_counts(a64f_class_names, s->sys_undef, C_NR);
	fuzz_add(" (first:");
	for (i = 0; i < C_NR; i++)
		if (s->first_undef[i])
			fuzz_add(" %s", s->first_undef[i]);
	pr_info("%s)\n", fuzz_line);
	fuzz_len = 0;
	fuzz_add("a64fuzz: faults:");
	fuzz_add_counts(a64f_fault_names, s->faults, FAULT_NR);
	pr_info("%s\n", fuzz_line);
	pr_info("a64fuzz: hv-counted: bad=%llu impdef-undef=%llu unclaimed=%llu\n", s->hv_bad,
		s->sys_undef[C_IMPDEF], s->nowhere);
	if (s->restore_failures)
		pr_err("a64fuzz: FAIL restore: %llu registers not as saved after a window (first: "
		       "%s, saved 0x%llx, read back 0x%llx)\n",
		       s->restore_failures, s->bad_reg, s->bad_want, s->bad_got);
	if (!gic_bad)
		pr_info("a64fuzz: gic state of the used interrupts kept\n");
	if (!warned && test_taint(TAINT_WARN))
		pr_err("a64fuzz: FAIL the kernel warned during the run (see its log)\n");
	pr_info("a64fuzz: %llu calls, %llu faults\n", calls, nfaults);
}

static int __init a64f_init(void)
{
	struct a64f_thread sum;
	unsigned int i, gic_bad = 0;
	bool warned;
	int r;

	a64f_conduit = arm_smccc_1_1_get_conduit();
	if (a64f_conduit != SMCCC_CONDUIT_HVC && a64f_conduit != SMCCC_CONDUIT_SMC) {
		pr_err("a64fuzz: no SMCCC 1.1 conduit\n");
		return -ENODEV;
	}
	r = fuzz_parse_ops(a64f_op_names, a64f_weight, OP_NR);
	if (r)
		return r;
	r = fuzz_scratch_alloc();
	if (r)
		return r;
	a64f_ram_range();

	r = a64f_setup();
	if (r)
		goto out;
	warned = test_taint(TAINT_WARN);
	for (i = 0; i < OP_NR; i++)
		if (!a64f_op_available(i))
			fuzz_ops &= ~BIT(i);
	r = fuzz_create(sizeof(struct a64f_thread),
			threads ? min(threads, num_online_cpus()) : num_online_cpus(), true);
	if (r)
		goto out;
	pr_info("a64fuzz: seed=%lu seconds=%u rounds=%u threads=%u ops=%s conduit=%s gic=v%d "
		"gicd=%pa gicr=%pa+0x%llx gicc=%pa uart=%pa irqs=%u bps=%u wps=%u ras=%d "
		"scratch=%pa ram=0x%llx-0x%llx\n",
		seed, seconds, rounds, fuzz_n, ops,
		a64f_conduit == SMCCC_CONDUIT_HVC ? "hvc" : "smc", a64f_gic_version, &a64f_gicd_pa,
		&a64f_gicr_pa, (u64)a64f_gicr_len, &a64f_gicc_pa, &a64f_uart_pa, a64f_nr_irqs,
		a64f_nbrps, a64f_nwrps, a64f_has_ras, &fuzz_scratch_pa, a64f_ram_start,
		fuzz_ram_end);

	fuzz_run();
	a64f_sum(&sum);
	fuzz_free();
	fuzz_check_guard();
	if (a64f_gicd) {
		a64f_gic_cleanup();
		a64f_gic_snapshot(a64f_snap1);
		gic_bad = a64f_gic_compare();
	}
	a64f_report(&sum, gic_bad, warned);
	pr_info("a64fuzz: done\n");
out:
	a64f_unmap();
	fuzz_scratch_free(false);
	return r;
}

static void __exit a64f_exit(void) {}

module_init(a64f_init);
module_exit(a64f_exit);
MODULE_DESCRIPTION("Hostile-guest fuzzer for the hv hypervisor's arm64 interfaces");
MODULE_LICENSE("GPL");
