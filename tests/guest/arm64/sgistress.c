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
typedef unsigned long u64;
typedef long s64;
typedef unsigned int u32;
typedef unsigned char u8;

#define MAX_CPUS 8
#define DEFAULT_N 100000
#define POLL_LIMIT (1ul << 26)
#define MAX_LOST 10 /* a phase stops after this many lost SGIs (each waited for in full) */
#define SGI_UNICAST 1
#define SGI_BROADCAST 2
#define SGI_RACE 3

#define GICR_STRIDE 0x20000ul /* GICv3: RD_base and SGI_base frames per CPU */
#define GICR_SGI 0x10000ul
/* No device here in the hypervisor's guest memory map; on QEMU's virt machine (bare runs)
 * the first virtio-mmio transport, which answers reads without a backend. */
#define NO_DEVICE 0x0A000000ul

#define GICD_CTLR 0x000
#define GICD_IGROUPR0 0x080
#define GICD_ISENABLER0 0x100
#define GICD_IPRIORITYR 0x400
#define GICD_SGIR 0xF00
#define GICR_WAKER 0x014
#define GICC_CTLR 0x00
#define GICC_PMR 0x04
#define GICC_IAR 0x0C
#define GICC_EOIR 0x10

#define GICD_TYPER 0x004

#define PSCI_VERSION 0x84000000ul
#define PSCI_CPU_ON 0xC4000003ul
#define PSCI_SYSTEM_OFF 0x84000008ul

#define FDT_BEGIN_NODE 1
#define FDT_END_NODE 2
#define FDT_PROP 3
#define FDT_NOP 4
#define FDT_END 9

#define RSR(r)                                          \
	({                                              \
		u64 v_;                                 \
		asm volatile("mrs %0, " #r : "=r"(v_)); \
		v_;                                     \
	})
#define WSR(r, v) asm volatile("msr " #r ", %0" : : "r"((u64)(v)) : "memory")
/* GICv3 CPU interface registers by encoding (IHI 0069 12.1). */
#define ICC_PMR_EL1 S3_0_C4_C6_0
#define ICC_IAR1_EL1 S3_0_C12_C12_0
#define ICC_EOIR1_EL1 S3_0_C12_C12_1
#define ICC_SGI1R_EL1 S3_0_C12_C11_5
#define ICC_SRE_EL1 S3_0_C12_C12_5
#define ICC_IGRPEN1_EL1 S3_0_C12_C12_7

void secondary_entry(void);

/* From the device tree: the GIC's version and frames, the PL011, the CPUs (at most
 * MAX_CPUS). gicc: GICv2 CPU interface; gicr: GICv3 redistributors. */
static int gic;
static u64 gicd, gicc, gicr, uart;
static u32 ncpus;
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

static inline void w32(u64 a, u32 v) { *(volatile u32 *)a = v; }
static inline u32 r32(u64 a) { return *(volatile u32 *)a; }

static void putc_(char c)
{
	if (uart)
		w32(uart, (u8)c); /* UARTDR */
}

static void puts_(const char *s)
{
	while (*s) {
		if (*s == '\n')
			putc_('\r');
		putc_(*s++);
	}
}

static void putu(u64 v)
{
	char b[24];
	int i = 0;

	do {
		b[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i)
		putc_(b[--i]);
}

static void puthex(u64 v)
{
	puts_("0x");
	for (int s = 60; s >= 0; s -= 4)
		putc_("0123456789abcdef"[(v >> s) & 15]);
}

static u64 hvc(u64 fn, u64 a1, u64 a2, u64 a3)
{
	register u64 x0 asm("x0") = fn;
	register u64 x1 asm("x1") = a1;
	register u64 x2 asm("x2") = a2;
	register u64 x3 asm("x3") = a3;

	asm volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : : "memory");
	return x0;
}

static void __attribute__((noreturn)) power_off(void)
{
	hvc(PSCI_SYSTEM_OFF, 0, 0, 0);
	for (;;)
		;
}

void bad_exception(u64 esr, u64 elr, u64 far)
{
	puts_("SGISTRESS FAIL exception esr=");
	puthex(esr);
	puts_(" elr=");
	puthex(elr);
	puts_(" far=");
	puthex(far);
	puts_("\n");
	power_off();
}

static u32 cpu_index(void)
{
	u64 m = RSR(mpidr_el1);

	return (u32)(((m >> 8) & 0xFF) * 16 + (m & 0xFF));
}

/* The virtual counter, read in program order. */
static u64 ticks(void)
{
	asm volatile("isb" : : : "memory");
	return RSR(cntvct_el0);
}

void irq_handler(void)
{
	u32 cpu = cpu_index() % MAX_CPUS, iar, id;
	u64 entered = timing ? ticks() : 0;

	for (;;) {
		if (gic == 3) {
			iar = (u32)RSR(ICC_IAR1_EL1);
			id = iar & 0xFFFFFF;
		} else {
			iar = r32(gicc + GICC_IAR);
			id = iar & 0x3FF;
		}
		if (id >= 1020)
			return; /* spurious: nothing (more) pending */
		/* EOImode 0: the EOI drops the priority and deactivates. */
		u64 t0 = timing ? ticks() : 0;
		if (gic == 3)
			WSR(ICC_EOIR1_EL1, iar);
		else
			w32(gicc + GICC_EOIR, iar);
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

/* This CPU's GIC CPU interface and SGIs: enabled at priority 0xA0, mask 0xF0, in Group 1
 * on GICv3 (the group its ICC_IGRPEN1_EL1 enables; they reset to Group 0), Group 0 on
 * GICv2 (the reset value, the group GICC_CTLR.EnableGrp0 enables). */
static void gic_cpu_init(u32 cpu)
{
	u64 sgi = gicd;

	if (gic == 3) {
		u64 rd = gicr + cpu * GICR_STRIDE;

		WSR(ICC_SRE_EL1, RSR(ICC_SRE_EL1) | 1);
		asm volatile("isb");
		w32(rd + GICR_WAKER, r32(rd + GICR_WAKER) & ~2u); /* ProcessorSleep = 0 */
		for (u32 i = 0; i < 1000000 && (r32(rd + GICR_WAKER) & 4); i++)
			;
		sgi = rd + GICR_SGI;
		w32(sgi + GICD_IGROUPR0, 0xFFFFFFFF);
	}
	for (u32 i = 0; i < 4; i++)
		w32(sgi + GICD_IPRIORITYR + 4 * i, 0xA0A0A0A0);
	w32(sgi + GICD_ISENABLER0, 0xFFFF);
	if (gic == 3) {
		WSR(ICC_PMR_EL1, 0xF0);
		WSR(ICC_IGRPEN1_EL1, 1);
		asm volatile("isb");
	} else {
		w32(gicc + GICC_PMR, 0xF0);
		w32(gicc + GICC_CTLR, 1); /* EnableGrp0: the vGIC's GICv2 interrupts are Group 0 */
	}
}

/* One trapped access: a GICD_CTLR read, emulated by the hypervisor (an exit, an entry). */
static void trapped_access(void) { (void)r32(gicd + GICD_CTLR); }

void __attribute__((noreturn)) secondary_main(u64 cpu)
{
	u64 seen = 0, t0;

	gic_cpu_init((u32)cpu);
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

static u32 be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static int prefix(const char *s, const char *p)
{
	while (*p)
		if (*s++ != *p++)
			return 0;
	return 1;
}

static u64 strlen_(const char *s)
{
	u64 n = 0;

	while (s[n])
		n++;
	return n;
}

/* The value of `key` (e.g. "sgistress.n=") in the command line, or def. */
static u64 arg(const char *cmdline, const char *key, u64 def)
{
	const char *s = cmdline;
	u64 v = 0;

	if (!s)
		return def;
	while (*s) {
		if ((s == cmdline || s[-1] == ' ') && prefix(s, key)) {
			s += strlen_(key);
			if (*s < '0' || *s > '9')
				return def;
			while (*s >= '0' && *s <= '9')
				v = v * 10 + (u64)(*s++ - '0');
			return v;
		}
		s++;
	}
	return def;
}

static u64 be64(const void *p) { return (u64)be32(p) << 32 | be32((const u8 *)p + 4); }

static int streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* Whether a compatible property (a list of strings) names `c`. */
static int compatible(const char *list, u32 len, const char *c)
{
	for (u32 i = 0; i < len; i += (u32)strlen_(list + i) + 1)
		if (streq(list + i, c))
			return 1;
	return 0;
}

/* What fdt_scan wants of a node with this compatible: 3 or 2 (a GICv3 or GICv2), 1 (a
 * PL011), 0 (nothing). */
static int node_kind(const char *compat, u32 len)
{
	if (compatible(compat, len, "arm,gic-v3"))
		return 3;
	if (compatible(compat, len, "arm,cortex-a15-gic") || compatible(compat, len, "arm,gic-400"))
		return 2;
	return compatible(compat, len, "arm,pl011");
}

/* Reads the device tree: /chosen/bootargs (returned), the number of /cpus/cpu@ nodes, the
 * GIC (the root's interrupt-controller child: its version from compatible, its frames from
 * reg) and the first PL011's registers. The root's children have 2 address and 2 size
 * cells here (QEMU's virt machine, the hypervisor's guest device tree). */
static const char *fdt_scan(const u8 *fdt)
{
	const u8 *p, *reg = 0;
	const char *strs, *bootargs = 0, *name;
	const char *path[4] = { 0 };
	u32 reg_len = 0;
	int depth = 0, kind = 0; /* of the root's child being read: 2, 3 (GIC), 1 (PL011) */

	if (!fdt || be32(fdt) != 0xD00DFEED)
		return 0;
	strs = (const char *)fdt + be32(fdt + 12);
	p = fdt + be32(fdt + 8);
	for (;;) {
		u32 tok = be32(p);

		p += 4;
		if (tok == FDT_BEGIN_NODE) {
			name = (const char *)p;
			if (depth < 4)
				path[depth] = name;
			if (depth == 2 && prefix(path[1], "cpus") && prefix(name, "cpu@"))
				ncpus++;
			if (depth == 1) {
				kind = 0;
				reg = 0;
			}
			depth++;
			p += (strlen_(name) + 4) & ~3ul;
		} else if (tok == FDT_END_NODE) {
			/* The GIC's reg: the distributor, then the redistributors (v3) or the
			 * CPU interface (v2). */
			if (depth == 2 && kind >= 2 && reg_len >= 32 && !gic) {
				gic = kind;
				gicd = be64(reg);
				*(gic == 3 ? &gicr : &gicc) = be64(reg + 16);
			}
			if (depth == 2 && kind == 1 && reg_len >= 8 && !uart)
				uart = be64(reg);
			depth--;
		} else if (tok == FDT_PROP) {
			u32 len = be32(p), nameoff = be32(p + 4);
			const char *prop = strs + nameoff, *val = (const char *)p + 8;

			if (depth == 2 && streq(path[1], "chosen") && streq(prop, "bootargs"))
				bootargs = val;
			if (depth == 2 && streq(prop, "compatible"))
				kind = node_kind(val, len);
			if (depth == 2 && streq(prop, "reg")) {
				reg = (const u8 *)val;
				reg_len = len;
			}
			p += 8 + ((len + 3) & ~3u);
		} else if (tok == FDT_NOP) {
		} else {
			break;
		}
	}
	return bootargs;
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
	if (gic == 3) {
		WSR(ICC_SRE_EL1, RSR(ICC_SRE_EL1) | 1);
		asm volatile("isb");
		w32(gicd + GICD_CTLR, 1u << 4 | 1u << 1); /* ARE, EnableGrp1 */
	} else {
		w32(gicd + GICD_CTLR, 3); /* EnableGrp0, EnableGrp1 */
	}
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
