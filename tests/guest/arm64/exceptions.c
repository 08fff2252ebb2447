/* SPDX-License-Identifier: GPL-2.0-only */
/* A bare-metal arm64 guest that provokes the exceptions a hostile or buggy guest can cause
 * at the hypervisor and checks that each gets the answer a machine gives (and KVM), its
 * own handler running, instead of a stopped VM:
 *   fetch    a branch to an address with no memory: a prefetch abort, EC 0x21, IFSC 0x10
 *            (synchronous External abort), FAR the address;
 *   ldp      a load pair (no instruction syndrome) from an address with no device: a data
 *            abort, EC 0x25, DFSC 0x10, FAR the address;
 *   ldr      a plain load from there: no exception, all ones;
 *   mmio-pc  a fetch from a device (the UART's registers): a prefetch abort too;
 *   dc       cache maintenance by address (DC CIVAC) on no device and on a device: no
 *            exception (nothing is cached there).
 * Then the system registers a guest shares with the machine unless the hypervisor traps
 * them (debug, PMU, IMPLEMENTATION DEFINED, ACTLR_EL1, RAS), each answered as by a CPU
 * whose debug registers are the guest's own and that has no PMU, no IMPLEMENTATION
 * DEFINED registers and no RAS error records:
 *   dbg-regs   DBGBVR0/DBGBCR0/DBGWVR0/DBGWCR0_EL1 read back what was written;
 *   dbg-count  DBGBVR15_EL1 beyond the breakpoints ID_AA64DFR0_EL1 offers: UNDEF;
 *   mdscr      MDSCR_EL1 reads back what was written;
 *   claim      DBGCLAIMSET/CLR_EL1 set, show and clear claim tags;
 *   oslock     OSLAR_EL1 sets and clears OSLSR_EL1.OSLK (OSLM says implemented);
 *   dfr0       ID_AA64DFR0_EL1 offers breakpoints and no PMU;
 *   pmu        PMCR_EL0 and PMCCNTR_EL0: UNDEF;
 *   actlr      ACTLR_EL1 reads back what was written;
 *   impdef     S3_1_C15_C2_0 and S3_0_C11_C0_0 (IMPLEMENTATION DEFINED): UNDEF;
 *   step-mmio, step-sysreg  single-stepping (MDSCR_EL1.SS) an MMIO load or a trapped MRS
 *              that the hypervisor emulates: the Software Step exception comes right after
 *              it, as on a machine (value: its ELR minus the stepped instruction's, 4);
 *   ras        with FEAT_RAS, ERRIDR_EL1 reads 0 (no error records); ERRSELR and ERXCTLR
 *              take writes, ERXCTLR and ERXSTATUS read 0, or ERRSELR is UNDEFINED (both
 *              allowed with no records).
 * exc.qemu7=1 on the command line skips what Debian 12's QEMU 7.2 cannot show: its CPU has
 * no claim tags and does not emulate HCR_EL2.TIDCP (QEMU 8 and later do).
 * With exc.iso=1 on the command line, first of all, two VMs that share a pCPU
 * (exc.slot=0 and 1) each arm breakpoint <slot> on a function of their own, keep their
 * own value in DBGBVR2_EL1 and call both functions for 400 ms, over at least 10
 * scheduler turns; each one's breakpoint must hit every time, the other VM's never, and
 * DBGBVR2 must keep its value (iso).
 * Each prints over the PL011
 *   EXCEPTIONS fetch ok esr=0x0000000086000010 far=0x000000000a000000
 * (or "FAIL ..."), then "EXCEPTIONS DONE", and powers off. */
#include "lib.h"

/* No device here in the hypervisor's guest memory map. */
#define NO_DEVICE 0x0A000000ul

#define EC(esr) ((esr) >> 26 & 0x3F)
#define FSC(esr) ((esr)&0x3F)

static volatile u64 resume_at, seen_esr, seen_far, exceptions;

/* The functions the iso phase sets breakpoints on: a breakpoint exception is taken on the
 * NOP, which the handler steps over. */
void victim0(void);
void victim1(void);
asm(".text\n.balign 16\nvictim0: nop\n\tret\n.balign 16\nvictim1: nop\n\tret\n");

static volatile u64 bp_hits[2], step_elr, steps;

#define MDSCR_SS (1ul << 0)
#define MDSCR_KDE (1ul << 13)
#define MDSCR_MDE (1ul << 15)

u64 sync_exception(u64 esr, u64 elr, u64 far)
{
	/* EC 0x33: Software Step exception from the current EL: stepping ends here. */
	if (EC(esr) == 0x33 && resume_at) {
		steps++;
		step_elr = elr;
		asm volatile("msr S2_0_C0_C2_2, %0" : : "r"(MDSCR_KDE | MDSCR_MDE)); /* SS off */
		elr = resume_at;
		resume_at = 0;
		return elr;
	}
	/* EC 0x31: Breakpoint exception from the current EL */
	if (EC(esr) == 0x31 && (elr == (u64)victim0 || elr == (u64)victim1)) {
		bp_hits[elr == (u64)victim1]++;
		return elr + 4;
	}
	if (!resume_at)
		fail_exception("EXCEPTIONS", esr, elr, far);
	seen_esr = esr;
	seen_far = far;
	exceptions++;
	elr = resume_at;
	resume_at = 0;
	return elr;
}

static int failed;

static void report(const char *what, int ok, u64 value)
{
	puts_("EXCEPTIONS ");
	puts_(what);
	puts_(ok ? " ok" : " FAIL");
	puts_(" esr=");
	puthex(seen_esr);
	puts_(" far=");
	puthex(seen_far);
	puts_(" value=");
	puthex(value);
	puts_("\n");
	failed |= !ok;
}

static void expect_abort(const char *what, u64 ec, u64 addr)
{
	report(what,
	       exceptions == 1 && EC(seen_esr) == ec && FSC(seen_esr) == 0x10 && seen_far == addr,
	       0);
}

/* Branches to addr; the exception handler brings it back to the label after. */
static void fetch_from(u64 addr)
{
	exceptions = seen_esr = seen_far = 0;
	asm volatile("adr x1, 1f\n\tstr x1, %0\n\tblr %1\n1:"
		     : "=m"(resume_at)
		     : "r"(addr)
		     : "x1", "x30", "memory");
}

/* System registers by encoding (DDI 0487 D17), which any assembler takes. */
#define DBGBVR0_EL1 S2_0_C0_C0_4
#define DBGBCR0_EL1 S2_0_C0_C0_5
#define DBGWVR0_EL1 S2_0_C0_C0_6
#define DBGWCR0_EL1 S2_0_C0_C0_7
#define DBGBVR1_EL1 S2_0_C0_C1_4
#define DBGBCR1_EL1 S2_0_C0_C1_5
#define DBGBVR2_EL1 S2_0_C0_C2_4
#define DBGBVR15_EL1 S2_0_C0_C15_4
#define MDSCR_EL1 S2_0_C0_C2_2
#define OSLAR_EL1 S2_0_C1_C0_4
#define OSLSR_EL1 S2_0_C1_C1_4
#define OSDLR_EL1 S2_0_C1_C3_4
#define DBGCLAIMSET_EL1 S2_0_C7_C8_6
#define DBGCLAIMCLR_EL1 S2_0_C7_C9_6
#define ID_AA64PFR0_EL1 S3_0_C0_C4_0
#define ID_AA64DFR0_EL1 S3_0_C0_C5_0
#define ACTLR_EL1 S3_0_C1_C0_1
#define PMCR_EL0 S3_3_C9_C12_0
#define PMCCNTR_EL0 S3_3_C9_C13_0
#define ERRIDR_EL1 S3_0_C5_C3_0
#define ERRSELR_EL1 S3_0_C5_C3_1
#define ERXCTLR_EL1 S3_0_C5_C4_1
#define ERXSTATUS_EL1 S3_0_C5_C4_2

#define MDSCR_TDCC (1ul << 12)

/* An MRS or MSR that may take an exception (then the handler resumes right after it and
 * a read gives 0xbad); `exceptions` and `seen_esr` say what happened. */
#define MRS_TRY(reg)                                                            \
	({                                                                      \
		u64 v_ = 0xbad;                                                 \
		exceptions = seen_esr = seen_far = 0;                           \
		asm volatile("adr x1, 1f\n\tstr x1, %1\n\tmrs %0, " #reg "\n1:" \
			     : "+r"(v_), "=m"(resume_at)                        \
			     :                                                  \
			     : "x1", "memory");                                 \
		resume_at = 0;                                                  \
		v_;                                                             \
	})
#define MSR_TRY(reg, val)                                                       \
	do {                                                                    \
		exceptions = seen_esr = seen_far = 0;                           \
		asm volatile("adr x1, 1f\n\tstr x1, %0\n\tmsr " #reg ", %1\n1:" \
			     : "=m"(resume_at)                                  \
			     : "r"((u64)(val))                                  \
			     : "x1", "memory");                                 \
		resume_at = 0;                                                  \
	} while (0)

/* An UNDEFINED instruction: EC 0 (unknown reason), as a CPU gives for a register it does
 * not have. */
static int undef(void) { return exceptions == 1 && EC(seen_esr) == 0; }

static void sysregs(int qemu7)
{
	u64 v, w, dfr0, pfr0, ok;

	MSR_TRY(DBGBVR0_EL1, 0x40201000);
	ok = !exceptions;
	MSR_TRY(DBGBCR0_EL1, 0x1E6); /* BAS 0xF, PMC EL1+EL0, disabled */
	ok &= !exceptions;
	MSR_TRY(DBGWVR0_EL1, 0x40300008);
	ok &= !exceptions;
	MSR_TRY(DBGWCR0_EL1, 0x1FFE); /* BAS 0xFF, LSC load+store, PAC EL1+EL0, disabled */
	ok &= !exceptions;
	v = MRS_TRY(DBGBVR0_EL1);
	ok &= !exceptions && v == 0x40201000;
	v = MRS_TRY(DBGBCR0_EL1);
	ok &= !exceptions && v == 0x1E6;
	v = MRS_TRY(DBGWVR0_EL1);
	ok &= !exceptions && v == 0x40300008;
	w = MRS_TRY(DBGWCR0_EL1);
	ok &= !exceptions && w == 0x1FFE;
	report("dbg-regs", (int)ok, v);
	MSR_TRY(DBGBVR0_EL1, 0);
	MSR_TRY(DBGBCR0_EL1, 0);
	MSR_TRY(DBGWVR0_EL1, 0);
	MSR_TRY(DBGWCR0_EL1, 0);

	dfr0 = MRS_TRY(ID_AA64DFR0_EL1);
	/* DebugVer [3:0] present, BRPs [15:12] and WRPs [23:20] offered, PMUVer [11:8] 0 */
	report("dfr0",
	       !exceptions && (dfr0 & 0xF) >= 6 && (dfr0 >> 12 & 0xF) >= 1 &&
		       (dfr0 >> 20 & 0xF) >= 1 && (dfr0 >> 8 & 0xF) == 0,
	       dfr0);
	if ((dfr0 >> 12 & 0xF) < 15) {
		v = MRS_TRY(DBGBVR15_EL1);
		report("dbg-count", undef(), v);
	} else {
		puts_("EXCEPTIONS dbg-count: 16 breakpoints, none beyond\n");
		report("dbg-count", 1, 0);
	}

	MSR_TRY(MDSCR_EL1, MDSCR_TDCC);
	v = MRS_TRY(MDSCR_EL1);
	report("mdscr", !exceptions && (v & (MDSCR_TDCC | MDSCR_KDE | MDSCR_MDE)) == MDSCR_TDCC, v);
	MSR_TRY(MDSCR_EL1, 0);

	MSR_TRY(OSLAR_EL1, 1);
	ok = !exceptions;
	v = MRS_TRY(OSLSR_EL1);
	ok &= !exceptions && (v & 0xB) == 0xA; /* OSLM 0b10: implemented; OSLK 1 */
	MSR_TRY(OSLAR_EL1, 0);
	ok &= !exceptions;
	w = MRS_TRY(OSLSR_EL1);
	ok &= !exceptions && (w & 0xB) == 0x8;
	report("oslock", (int)ok, v << 32 | w);

	if (qemu7) {
		puts_("EXCEPTIONS claim: QEMU 7.2's CPU has no claim tags\n");
		report("claim", 1, 0);
	} else {
		MSR_TRY(DBGCLAIMSET_EL1, 0x5);
		ok = !exceptions;
		v = MRS_TRY(DBGCLAIMCLR_EL1);
		ok &= !exceptions && (v & 0xFF) == 0x5;
		MSR_TRY(DBGCLAIMCLR_EL1, 0x1);
		w = MRS_TRY(DBGCLAIMCLR_EL1);
		ok &= !exceptions && (w & 0xFF) == 0x4;
		MSR_TRY(DBGCLAIMCLR_EL1, 0xFF);
		report("claim", (int)ok, v << 32 | w);
	}

	v = MRS_TRY(PMCR_EL0);
	ok = undef();
	w = MRS_TRY(PMCCNTR_EL0);
	report("pmu", (int)ok && undef(), v);

	v = MRS_TRY(ACTLR_EL1);
	ok = !exceptions;
	MSR_TRY(ACTLR_EL1, v ^ 0x12340000);
	ok &= !exceptions;
	w = MRS_TRY(ACTLR_EL1);
	ok &= !exceptions && w == (v ^ 0x12340000);
	MSR_TRY(ACTLR_EL1, v);
	report("actlr", (int)ok, w);

	v = 0;
	ok = 1;
	if (qemu7) /* its CPU has this one and ignores HCR_EL2.TIDCP */
		puts_("EXCEPTIONS impdef: QEMU 7.2 does not trap S3_1_C15_C2_0\n");
	else {
		v = MRS_TRY(S3_1_C15_C2_0);
		ok = undef();
	}
	w = MRS_TRY(S3_0_C11_C0_0);
	report("impdef", (int)ok && undef(), v);

	pfr0 = MRS_TRY(ID_AA64PFR0_EL1);
	if (!(pfr0 >> 28 & 0xF)) {
		puts_("EXCEPTIONS ras: no FEAT_RAS\n");
		report("ras", 1, pfr0);
		return;
	}
	v = MRS_TRY(ERRIDR_EL1);
	ok = !exceptions && v == 0;
	/* With no error records (ERRIDR_EL1.NUM = 0) ERRSELR_EL1 and ERX* are either
	 * UNDEFINED (QEMU's CPUs) or RAZ/WI (the hypervisor's answer where it traps them):
	 * either way nothing is selected, read or injected. */
	MSR_TRY(ERRSELR_EL1, 0);
	if (!exceptions) {
		MSR_TRY(ERXCTLR_EL1, 1);
		ok &= !exceptions;
		w = MRS_TRY(ERXCTLR_EL1);
		ok &= !exceptions && w == 0;
		w |= MRS_TRY(ERXSTATUS_EL1);
		ok &= !exceptions && w == 0;
		puts_("EXCEPTIONS ras: ERRSELR_EL1 and ERX* RAZ/WI\n");
	} else {
		ok &= undef();
		puts_("EXCEPTIONS ras: ERRSELR_EL1 UNDEFINED (no records)\n");
	}
	report("ras", (int)ok, v);
}

/* Single-steps (MDSCR_EL1.SS, from EL1 to EL1) one instruction that the hypervisor
 * emulates, then two NOPs: the Software Step exception must come right after the first,
 * as on a machine. mmio: a load from the UART's flag register (a data abort the
 * hypervisor emulates); else a read of DBGBVR0_EL1 (a trapped MRS). */
static void step_over(const char *what, int mmio)
{
	u64 first;

	MSR_TRY(OSLAR_EL1, 0);
	MSR_TRY(MDSCR_EL1, MDSCR_SS | MDSCR_KDE | MDSCR_MDE);
	steps = step_elr = 0;
	exceptions = seen_esr = 0;
	/* ERET to the first instruction at EL1h with D clear and SPSR.SS set: one
	 * instruction runs, then the step exception is taken (DDI 0487 D2.12). */
	if (mmio)
		asm volatile("adr x1, 2f\n\tstr x1, %0\n\tadr x1, 1f\n\tstr x1, %1\n\t"
			     "msr elr_el1, x1\n\tmov x1, #0x1c5\n\torr x1, x1, #(1 << 21)\n\t"
			     "msr spsr_el1, x1\n\teret\n"
			     "1:\tldr w2, [%2, #0x18]\n\tnop\n\tnop\n2:\tmsr daifset, #8"
			     : "=m"(resume_at), "=m"(first)
			     : "r"(uart)
			     : "x1", "x2", "memory");
	else
		asm volatile("adr x1, 2f\n\tstr x1, %0\n\tadr x1, 1f\n\tstr x1, %1\n\t"
			     "msr elr_el1, x1\n\tmov x1, #0x1c5\n\torr x1, x1, #(1 << 21)\n\t"
			     "msr spsr_el1, x1\n\teret\n"
			     "1:\tmrs x2, S2_0_C0_C0_4\n\tnop\n\tnop\n2:\tmsr daifset, #8"
			     : "=m"(resume_at), "=m"(first)
			     :
			     : "x1", "x2", "memory");
	MSR_TRY(MDSCR_EL1, 0);
	report(what, steps == 1 && step_elr == first + 4 && EC(seen_esr) == 0, step_elr - first);
}

/* The iso phase, first thing after boot so that the two VMs run it at the same time:
 * breakpoint `slot` on victim<slot>, this VM's own value in DBGBVR2_EL1; both victims
 * called for 400 ms and until the vCPU has been descheduled (a gap in the counter of more
 * than 1 ms) 20 times, 4 s at most. */
static void isolation(u64 slot)
{
	u64 mine = 0x40000000ul + 0x1000 * (slot + 1), calls = 0, gaps = 0, bad_reads = 0;
	u64 ms = RSR(cntfrq_el0) / 1000, t0, last, now, v;

	MSR_TRY(OSLAR_EL1, 0);
	MSR_TRY(OSDLR_EL1, 0);
	MSR_TRY(DBGBVR2_EL1, mine);
	if (slot) {
		MSR_TRY(DBGBVR1_EL1, (u64)victim1);
		MSR_TRY(DBGBCR1_EL1, 0x1E7); /* BAS 0xF, PMC EL1+EL0, enabled */
	} else {
		MSR_TRY(DBGBVR0_EL1, (u64)victim0);
		MSR_TRY(DBGBCR0_EL1, 0x1E7);
	}
	MSR_TRY(MDSCR_EL1, MDSCR_KDE | MDSCR_MDE);
	asm volatile("isb\n\tmsr daifclr, #8\n\tisb" ::: "memory"); /* debug exceptions on */
	bp_hits[0] = bp_hits[1] = 0;
	t0 = last = ticks();
	while ((gaps < 20 || ticks() - t0 < 400 * ms) && ticks() - t0 < 4000 * ms) {
		victim0();
		victim1();
		calls++;
		v = MRS_TRY(DBGBVR2_EL1);
		bad_reads += v != mine;
		now = ticks();
		gaps += now - last > ms;
		last = now;
	}
	asm volatile("msr daifset, #8\n\tisb" ::: "memory");
	MSR_TRY(MDSCR_EL1, 0);
	MSR_TRY(DBGBCR0_EL1, 0);
	MSR_TRY(DBGBCR1_EL1, 0);
	puts_("EXCEPTIONS iso slot=");
	putu(slot);
	puts_(" calls=");
	putu(calls);
	puts_(" own-hits=");
	putu(bp_hits[slot]);
	puts_(" other-hits=");
	putu(bp_hits[!slot]);
	puts_(" bad-reads=");
	putu(bad_reads);
	puts_(" gaps=");
	putu(gaps);
	puts_("\n");
	report("iso", bp_hits[slot] == calls && bp_hits[!slot] == 0 && !bad_reads && gaps >= 10,
	       calls);
}

void irq_handler(void) { puts_("EXCEPTIONS FAIL unexpected IRQ\n"); }

void __attribute__((noreturn)) guest_main(const u8 *fdt)
{
	u64 lo, hi, v;
	const char *cmdline = fdt_scan(fdt);

	if (!uart)
		power_off(); /* nowhere to say why */
	puts_("EXCEPTIONS start\n");
	if (arg(cmdline, "exc.iso=", 0))
		isolation(arg(cmdline, "exc.slot=", 0) & 1);

	fetch_from(NO_DEVICE);
	expect_abort("fetch", 0x21, NO_DEVICE);

	exceptions = seen_esr = seen_far = 0;
	lo = hi = 0;
	asm volatile("adr x1, 1f\n\tstr x1, %0\n\tldp %1, %2, [%3]\n1:"
		     : "=m"(resume_at), "+r"(lo), "+r"(hi)
		     : "r"(NO_DEVICE + 0x10)
		     : "x1", "memory");
	expect_abort("ldp", 0x25, NO_DEVICE + 0x10);

	exceptions = seen_esr = seen_far = 0;
	v = r32(NO_DEVICE + 0x20);
	report("ldr", exceptions == 0 && v == 0xFFFFFFFF, v);

	fetch_from(uart);
	expect_abort("mmio-pc", 0x21, uart);

	exceptions = seen_esr = seen_far = 0;
	asm volatile("dc civac, %0\n\tdc civac, %1\n\tdsb sy"
		     :
		     : "r"(NO_DEVICE), "r"(uart)
		     : "memory");
	report("dc", exceptions == 0, 0);

	sysregs(arg(cmdline, "exc.qemu7=", 0) != 0);
	step_over("step-mmio", 1);
	step_over("step-sysreg", 0);

	puts_(failed ? "EXCEPTIONS FAILED\n" : "EXCEPTIONS DONE\n");
	power_off();
}
