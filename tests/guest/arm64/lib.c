/* SPDX-License-Identifier: GPL-2.0-only */
/* What the bare-metal arm64 test guests share (lib.h). */
#include "lib.h"

#define FDT_BEGIN_NODE 1
#define FDT_END_NODE 2
#define FDT_PROP 3
#define FDT_NOP 4
#define FDT_END 9

int gic;
u64 gicd, gicc, gicr, uart;
u32 ncpus;

static void putc_(char c)
{
	if (uart)
		w32(uart, (u8)c); /* UARTDR */
}

void puts_(const char *s)
{
	while (*s) {
		if (*s == '\n')
			putc_('\r');
		putc_(*s++);
	}
}

void putu(u64 v)
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

void puthex(u64 v)
{
	puts_("0x");
	for (int s = 60; s >= 0; s -= 4)
		putc_("0123456789abcdef"[(v >> s) & 15]);
}

u64 hvc(u64 fn, u64 a1, u64 a2, u64 a3)
{
	register u64 x0 asm("x0") = fn;
	register u64 x1 asm("x1") = a1;
	register u64 x2 asm("x2") = a2;
	register u64 x3 asm("x3") = a3;

	asm volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : : "memory");
	return x0;
}

void __attribute__((noreturn)) power_off(void)
{
	hvc(PSCI_SYSTEM_OFF, 0, 0, 0);
	for (;;)
		;
}

/* For guests that start no other CPU (start.S calls it on a CPU that PSCI started). */
void __attribute__((weak, noreturn)) secondary_main(u64 cpu)
{
	(void)cpu;
	for (;;)
		asm volatile("wfi");
}

int report_phase(const char *guest, const char *phase, int ok, const char *what, u64 value)
{
	puts_(guest);
	puts_(" ");
	puts_(phase);
	puts_(ok ? " ok " : " FAIL ");
	puts_(what);
	putu(value);
	puts_("\n");
	return ok;
}

void fail_exception(const char *guest, u64 esr, u64 elr, u64 far)
{
	puts_(guest);
	puts_(" FAIL exception esr=");
	puthex(esr);
	puts_(" elr=");
	puthex(elr);
	puts_(" far=");
	puthex(far);
	puts_("\n");
	power_off();
}

u64 ticks(void)
{
	asm volatile("isb" : : : "memory");
	return RSR(cntvct_el0);
}

u32 cpu_index(void)
{
	u64 m = RSR(mpidr_el1);

	return (u32)(((m >> 8) & 0xFF) * 16 + (m & 0xFF));
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

u64 arg(const char *cmdline, const char *key, u64 def)
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
const char *fdt_scan(const u8 *fdt)
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

void gic_dist_init(void)
{
	if (gic == 3) {
		WSR(ICC_SRE_EL1, RSR(ICC_SRE_EL1) | 1);
		asm volatile("isb");
		w32(gicd + GICD_CTLR, 1u << 4 | 1u << 1); /* ARE, EnableGrp1 */
	} else {
		w32(gicd + GICD_CTLR, 3); /* EnableGrp0, EnableGrp1 */
	}
}

/* This CPU's GIC CPU interface and private interrupts: priority 0xA0, mask 0xF0, Group 1
 * on GICv3 (the group its ICC_IGRPEN1_EL1 enables; they reset to Group 0), Group 0 on
 * GICv2 (the reset value, the group GICC_CTLR.EnableGrp0 enables). */
void gic_cpu_init(u32 cpu, u32 enable)
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
	for (u32 i = 0; i < 8; i++)
		w32(sgi + GICD_IPRIORITYR + 4 * i, 0xA0A0A0A0);
	w32(sgi + GICD_ISENABLER0, enable);
	if (gic == 3) {
		WSR(ICC_PMR_EL1, 0xF0);
		WSR(ICC_IGRPEN1_EL1, 1);
		asm volatile("isb");
	} else {
		w32(gicc + GICC_PMR, 0xF0);
		w32(gicc + GICC_CTLR, 1); /* EnableGrp0: the vGIC's GICv2 interrupts are Group 0 */
	}
}

u32 gic_ack(u32 *iar)
{
	if (gic == 3) {
		*iar = (u32)RSR(ICC_IAR1_EL1);
		return *iar & 0xFFFFFF;
	}
	*iar = r32(gicc + GICC_IAR);
	return *iar & 0x3FF;
}

void gic_eoi(u32 iar)
{
	/* EOImode 0: the EOI drops the priority and deactivates. */
	if (gic == 3)
		WSR(ICC_EOIR1_EL1, iar);
	else
		w32(gicc + GICC_EOIR, iar);
}
