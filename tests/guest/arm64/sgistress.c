/* SPDX-License-Identifier: GPL-2.0-only */
/* A bare-metal arm64 guest that proves no SGI is lost, and measures what an interrupt and
 * an exit cost. CPU 0 starts the others with PSCI CPU_ON; each of them enables SGIs at its
 * GIC (GICv3 redistributor and system registers, or the GICv2 distributor's banked
 * registers and the GICC frame), unmasks IRQs and spins without ever leaving the guest on
 * its own (no WFI, WFE, HVC or MMIO in the loop), so an SGI the hypervisor fails to inject
 * is never taken. CPU 0 sends SGIs one at a time, to CPU 1 and then (with 3 or more CPUs)
 * to all others, waiting (bounded) for each to be counted, and prints over the PL011:
 *   SGISTRESS gic=3 unicast cpus=2 sent=100000 taken=100000 lost=0 ns/sgi=52000
 *   SGISTRESS DONE
 * then powers off with PSCI SYSTEM_OFF. lost: SGIs (times receivers) not taken within
 * the bound (2^26 polls or half a second, whichever ends first); taken: the SGIs every
 * receiver took.
 * A "race" phase aims at the receiver's guest entry, where an SGI whose kick the target
 * sees before the SGI's state is the easiest to lose: on request CPU 1 makes one trapped
 * access (an exit and an entry) and goes back to spinning, while CPU 0 sends the SGI after
 * a delay swept over about three times that access's duration. The exit always comes
 * before the SGI; while an SGI is awaited the receiver still never exits on its own.
 * A "bench" phase (first, when asked for) times N of each of: an HVC (PSCI_VERSION), an
 * MMIO read where the guest's memory map has no device, an MMIO read of the GIC
 * distributor; during the unicast phase that follows, the receiver times its EOIs:
 *   SGISTRESS gic=3 bench op=hvc n=10000 ns/op=5135
 * The same Image runs on QEMU's virt machine without a hypervisor (the floor): the GIC and
 * the UART are found in the device tree, and PSCI is reached by HVC there too.
 * The kernel command line may set sgistress.n=N (unicast SGIs), sgistress.nr=N (race
 * rounds, default n / 10), sgistress.nb=N (broadcast SGIs, default n) and
 * sgistress.nbench=N (bench operations of each kind, default 0: no bench). */
#include "lib.h"

#define DEFAULT_N 100000
#define POLL_LIMIT (1ul << 26)
#define MAX_LOST 10 /* a phase stops after this many lost SGIs (each waited for in full) */
#define SGI_UNICAST 1
#define SGI_BROADCAST 2
#define SGI_RACE 3

/* No device here in the hypervisor's guest memory map; on QEMU's virt machine (bare runs)
 * the first virtio-mmio transport, which answers reads without a backend. */
#define NO_DEVICE 0x0A000000ul

void secondary_entry(void);

static volatile u32 ready[MAX_CPUS];
/* count[cpu][intid]: SGIs that CPU took; written only by that CPU's IRQ handler. */
static volatile u64 count[MAX_CPUS][16];
static volatile u64 other[MAX_CPUS]; /* other INTIDs taken (none expected) */
/* Race rounds: CPU 0 sets go[c], CPU c makes one trapped access and sets done[c] = go[c].
 * exit_ticks[c]: how long one such access takes CPU c (counter ticks). */
static volatile u64 go[MAX_CPUS], done[MAX_CPUS], exit_ticks[MAX_CPUS];
/* Bench timing of the unicast phase: sent_at, when CPU 0 sent the last SGI; per receiving
 * CPU the ticks from that to its handler (latency), the ticks spent in its EOIs, how many
 * it timed, and what timing costs (two counter reads with nothing between). */
static volatile int timing;
static volatile u64 sent_at;
static volatile u64 latency_ticks[MAX_CPUS], eoi_ticks[MAX_CPUS], timed[MAX_CPUS];
static volatile u64 timing_ticks[MAX_CPUS];

u64 sync_exception(u64 esr, u64 elr, u64 far) { fail_exception("SGISTRESS", esr, elr, far); }

void irq_handler(void)
{
	u32 cpu = cpu_index() % MAX_CPUS, iar, id;
	u64 entered = timing ? ticks() : 0;

	for (;;) {
		id = gic_ack(&iar);
		if (id >= 1020)
			return; /* spurious: nothing (more) pending */
		u64 t0 = timing ? ticks() : 0;
		gic_eoi(iar);
		if (timing && id == SGI_UNICAST) {
			eoi_ticks[cpu] = eoi_ticks[cpu] + (ticks() - t0);
			latency_ticks[cpu] = latency_ticks[cpu] + (entered - sent_at);
			timed[cpu] = timed[cpu] + 1;
		}
		/* Counted once handled: the sender sends the next one when it sees this. */
		if (id < 16)
			count[cpu][id] = count[cpu][id] + 1;
		else
			other[cpu] = other[cpu] + 1;
	}
}

/* One trapped access: a GICD_CTLR read, emulated by the hypervisor (an exit, an entry). */
static void trapped_access(void) { (void)r32(gicd + GICD_CTLR); }

void __attribute__((noreturn)) secondary_main(u64 cpu)
{
	u64 seen = 0, t0;

	gic_cpu_init((u32)cpu, 0xFFFF);
	/* The fastest of a few: the first ones also pay for the emulator translating the
	 * hypervisor's exit path. */
	exit_ticks[cpu] = ~0ul;
	for (u32 i = 0; i < 16; i++) {
		t0 = ticks();
		trapped_access();
		t0 = ticks() - t0;
		exit_ticks[cpu] = t0 < exit_ticks[cpu] ? t0 : exit_ticks[cpu];
	}
	t0 = ticks();
	for (u32 i = 0; i < 1024; i++)
		(void)ticks();
	timing_ticks[cpu] = (ticks() - t0) / 1025;
	asm volatile("msr daifclr, #2; isb" : : : "memory");
	ready[cpu] = 1;
	/* Spin: from here on this CPU leaves the guest only when the hypervisor makes it, or
	 * once per race round when CPU 0 asks, before that round's SGI. */
	for (;;) {
		u64 g = go[cpu];

		if (g != seen) {
			seen = g;
			trapped_access();
			done[cpu] = g;
		}
	}
}

/* The end of the bound on waiting for one SGI that starts now: half a second. */
static u64 deadline(void) { return RSR(cntvct_el0) + RSR(cntfrq_el0) / 2; }

static int expired(u64 *polls, u64 end)
{
	return ++*polls >= POLL_LIMIT || (s64)(RSR(cntvct_el0) - end) >= 0;
}

/* Nanoseconds per operation for n operations that took dt counter ticks. */
static u64 ns_per_op(u64 dt, u64 n)
{
	u64 frq = RSR(cntfrq_el0);

	if (!frq || !n)
		return 0;
	return dt / n * 1000000000ul / frq + dt % n * 1000000000ul / n / frq;
}

static u64 ns_since(u64 t0, u64 n) { return ns_per_op(ticks() - t0, n); }

static void sgi_send(u32 intid, int broadcast, u32 target)
{
	if (timing)
		sent_at = ticks();
	if (gic == 3) {
		u64 v = (u64)intid << 24;

		if (broadcast)
			v |= 1ul << 40; /* IRM: all but self */
		else
			v |= (u64)(target / 16) << 16 | 1ul << (target % 16);
		WSR(ICC_SGI1R_EL1, v);
		asm volatile("isb");
	} else {
		w32(gicd + GICD_SGIR, broadcast ? 1u << 24 | intid : (1u << (target + 16)) | intid);
	}
}

static void report(const char *kind, u64 sent, u64 taken, u64 lost, u64 ns)
{
	puts_("SGISTRESS gic=");
	putu((u64)gic);
	puts_(" ");
	puts_(kind);
	puts_(" cpus=");
	putu(ncpus);
	puts_(" sent=");
	putu(sent);
	puts_(" taken=");
	putu(taken);
	puts_(" lost=");
	putu(lost);
	puts_(" ns/sgi=");
	putu(ns);
	puts_("\n");
}

static void report_op(const char *op, u64 n, u64 ns)
{
	puts_("SGISTRESS gic=");
	putu((u64)gic);
	puts_(" bench op=");
	puts_(op);
	puts_(" n=");
	putu(n);
	puts_(" ns/op=");
	putu(ns);
	puts_("\n");
}

/* n of each operation, timed on this CPU while the others spin. */
static void bench(u64 n)
{
	u64 t0 = ticks();

	for (u64 i = 0; i < n; i++)
		hvc(PSCI_VERSION, 0, 0, 0);
	report_op("hvc", n, ns_since(t0, n));
	t0 = ticks();
	for (u64 i = 0; i < n; i++)
		(void)r32(NO_DEVICE);
	report_op("mmio-nodevice", n, ns_since(t0, n));
	t0 = ticks();
	for (u64 i = 0; i < n; i++)
		(void)r32(gicd + GICD_TYPER);
	report_op("mmio-gicd", n, ns_since(t0, n));
}

/* What CPU c timed in its handler, less the timing's own cost: from the send to the
 * handler's entry, and the EOI. */
static void report_timed(u32 c)
{
	u64 n = timed[c], cost = n * timing_ticks[c], lat = latency_ticks[c], eoi = eoi_ticks[c];

	report_op("sgi-latency", n, ns_per_op(lat > cost ? lat - cost : 0, n));
	report_op("eoi", n, ns_per_op(eoi > cost ? eoi - cost : 0, n));
}

/* n SGIs `intid` to CPU 1 (broadcast = 0) or to all CPUs but 0; reports them. */
static void stress(const char *kind, u32 intid, int broadcast, u64 n)
{
	u32 first = 1, last = broadcast ? ncpus - 1 : 1;
	u64 before[MAX_CPUS], start[MAX_CPUS], lost = 0, taken = ~0ul, t0, ns;

	for (u32 c = first; c <= last; c++)
		start[c] = count[c][intid];
	t0 = RSR(cntvct_el0);
	for (u64 i = 0; i < n; i++) {
		u32 waiting = last - first + 1;
		u64 polls = 0, end;

		for (u32 c = first; c <= last; c++)
			before[c] = count[c][intid];
		sgi_send(intid, broadcast, 1);
		end = deadline();
		while (waiting && !expired(&polls, end)) {
			waiting = 0;
			for (u32 c = first; c <= last; c++)
				waiting += count[c][intid] == before[c];
		}
		lost += waiting;
		if (lost >= MAX_LOST)
			n = i + 1;
	}
	ns = ns_since(t0, n);
	/* A late SGI still counts as taken (lost says it was late): wait a little. */
	for (u64 polls = 0; polls < POLL_LIMIT / 16; polls++)
		asm volatile("" : : : "memory");
	for (u32 c = first; c <= last; c++) {
		u64 t = count[c][intid] - start[c];

		taken = t < taken ? t : taken;
	}
	report(kind, n, taken, lost, ns);
}

/* n race rounds with CPU 1 (see the top of this file); reports them. */
static void race(u64 n)
{
	u64 lost = 0, t0, ns, start = count[1][SGI_RACE], span = 3 * exit_ticks[1] + 1;

	t0 = RSR(cntvct_el0);
	for (u64 i = 0; i < n; i++) {
		u64 before = count[1][SGI_RACE], delay = i * 7919 % span, polls = 0, t;

		go[1] = i + 1;
		t = RSR(cntvct_el0);
		while (RSR(cntvct_el0) - t < delay)
			;
		sgi_send(SGI_RACE, 0, 1);
		t = deadline();
		while (count[1][SGI_RACE] == before && !expired(&polls, t))
			;
		lost += count[1][SGI_RACE] == before;
		if (lost >= MAX_LOST)
			n = i + 1;
		for (polls = 0, t = deadline(); done[1] != i + 1 && !expired(&polls, t);)
			;
	}
	ns = ns_since(t0, n);
	for (u64 polls = 0; polls < POLL_LIMIT / 16; polls++)
		asm volatile("" : : : "memory");
	report("race", n, count[1][SGI_RACE] - start, lost, ns);
}

void __attribute__((noreturn)) guest_main(const u8 *fdt)
{
	const char *cmdline = fdt_scan(fdt);
	u64 n, nr, nb, nbench;

	if (!uart)
		power_off(); /* nowhere to say why */
	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;
	n = arg(cmdline, "sgistress.n=", DEFAULT_N);
	nr = arg(cmdline, "sgistress.nr=", n / 10);
	nb = arg(cmdline, "sgistress.nb=", n);
	nbench = arg(cmdline, "sgistress.nbench=", 0);
	puts_("SGISTRESS start gic=");
	putu((u64)gic);
	puts_(" cpus=");
	putu(ncpus);
	puts_(" n=");
	putu(n);
	puts_(" nr=");
	putu(nr);
	puts_(" nb=");
	putu(nb);
	puts_(" nbench=");
	putu(nbench);
	puts_("\n");
	if (!gic) {
		puts_("SGISTRESS FAIL no GICv2 or GICv3 in the device tree\n");
		power_off();
	}
	if (ncpus < 2) {
		puts_("SGISTRESS FAIL needs at least 2 CPUs\n");
		power_off();
	}
	gic_dist_init();
	for (u32 c = 1; c < ncpus; c++) {
		u64 mpidr = (u64)(c / 16) << 8 | c % 16;
		u64 r = hvc(PSCI_CPU_ON, mpidr, (u64)secondary_entry, c);

		if (r) {
			puts_("SGISTRESS FAIL CPU_ON cpu=");
			putu(c);
			puts_(" ret=");
			puthex(r);
			puts_("\n");
			power_off();
		}
	}
	for (u32 c = 1; c < ncpus; c++) {
		u64 polls = 0;

		while (!ready[c] && polls++ < POLL_LIMIT * 4)
			;
		if (!ready[c]) {
			puts_("SGISTRESS FAIL cpu ");
			putu(c);
			puts_(" not ready\n");
			power_off();
		}
	}
	if (nbench) {
		bench(nbench);
		timing = 1;
	}
	stress("unicast", SGI_UNICAST, 0, n);
	if (nbench) {
		timing = 0;
		report_timed(1);
	}
	if (nr)
		race(nr);
	if (ncpus > 2)
		stress("broadcast", SGI_BROADCAST, 1, nb);
	for (u32 c = 1; c < ncpus; c++) {
		if (other[c]) {
			puts_("SGISTRESS FAIL cpu ");
			putu(c);
			puts_(" took other interrupts: ");
			putu(other[c]);
			puts_("\n");
		}
	}
	puts_("SGISTRESS DONE\n");
	power_off();
}
