/* SPDX-License-Identifier: GPL-2.0-only */
/* A bare-metal arm64 guest that holds more interrupts active than a GIC's virtual CPU
 * interface has list registers (4 under QEMU), and expects what a GIC does: a pending
 * interrupt is signalled when its priority is higher than the running priority,
 * whatever else is active (IHI 0069 4.8, IHI 0048B 3.3), and every active one can
 * still be deactivated. IRQs stay masked; the guest polls the acknowledge register.
 *   isactiver  SGIs 8-13 set active through ISACTIVER0 (a DIR in EOImode 0 leaves them
 *              so): SGI 1 (priority below theirs) is acknowledged; ICACTIVER0 ends them;
 *   nested     SGIs 2-7 acknowledged one after the other, each at a higher priority,
 *              none ended: each is signalled; EOImode 0 EOIs in reverse order end
 *              them all (ISACTIVER0 reads 0) and SGI 2 is taken again;
 *   dir        the same with EOImode 1: EOIs drop the priority, DIRs in the order of
 *              the acknowledgements deactivate;
 *   timer      SGIs 8-13 active again: the virtual timer's PPI 27 is signalled.
 * Prints over the PL011 "ACTIVEIRQS <phase> ok ..." or "... FAIL ...", then
 * "ACTIVEIRQS DONE", and powers off. */
#include "lib.h"

#define GICD_ISACTIVER0 0x300
#define GICD_ICACTIVER0 0x380
#define GICC_DIR 0x1000
#define GICC_CTLR_EOIMODE (1u << 9) /* GICv2 without Security Extensions, and GICV */
#define ICC_CTLR_EL1 S3_0_C12_C12_4
#define ICC_CTLR_EOIMODE 2ul
#define ICC_DIR_EL1 S3_0_C12_C11_1
#define INTID_VTIMER 27
#define HELD 0x3F00u /* SGIs 8-13: six, more than the LRs */
#define NESTED 6     /* SGIs 2-7 */

static int failed;
#define check(phase, ok, what, v) (failed |= !report_phase("ACTIVEIRQS", phase, ok, what, v))
static u64 sgi_frame; /* where ISACTIVER0 and IPRIORITYR of this CPU's SGIs are */

u64 sync_exception(u64 esr, u64 elr, u64 far) { fail_exception("ACTIVEIRQS", esr, elr, far); }
void irq_handler(void) { puts_("ACTIVEIRQS FAIL an IRQ taken while masked\n"); }

static void send_self(u32 sgi)
{
	if (gic == 3) {
		WSR(ICC_SGI1R_EL1, (u64)sgi << 24 | 1); /* Aff0 0: this CPU */
		asm volatile("isb");
	} else {
		w32(gicd + GICD_SGIR, 2u << 24 | sgi); /* TargetListFilter 2: itself */
	}
}

static void set_priority(u32 intid, u32 prio)
{
	u64 a = sgi_frame + GICD_IPRIORITYR + (intid & ~3u);
	u32 shift = (intid & 3) * 8;

	w32(a, (r32(a) & ~(0xFFu << shift)) | prio << shift);
}

/* Acknowledges the highest-priority pending interrupt, polling for up to 100 ms (the
 * hypervisor may need an exit to put it in a list register); its INTID, or 1023. */
static u32 ack(u32 *iar)
{
	u64 end = ticks() + RSR(cntfrq_el0) / 10;
	u32 id;

	while ((id = gic_ack(iar)) >= 1020 && (long)(ticks() - end) < 0)
		;
	return id;
}

static void set_eoimode(int split)
{
	if (gic == 3) {
		WSR(ICC_CTLR_EL1, split ? ICC_CTLR_EOIMODE : 0);
		asm volatile("isb");
	} else {
		u32 ctlr = r32(gicc + GICC_CTLR);
		w32(gicc + GICC_CTLR, split ? ctlr | GICC_CTLR_EOIMODE : ctlr & ~GICC_CTLR_EOIMODE);
	}
}

static void dir(u32 iar)
{
	if (gic == 3) {
		WSR(ICC_DIR_EL1, iar);
		asm volatile("isb");
	} else {
		w32(gicc + GICC_DIR, iar);
	}
}

static void isactiver(void)
{
	u32 iar, id;

	w32(sgi_frame + GICD_ISACTIVER0, HELD);
	check("isactiver", r32(sgi_frame + GICD_ISACTIVER0) == HELD, "active=", HELD);
	dir(8); /* EOImode 0: a DIR does nothing (ignored, as the GIC may) */
	id = r32(sgi_frame + GICD_ISACTIVER0);
	check("isactiver", id == HELD, "active-after-dir-in-eoimode-0=", id);
	set_priority(1, 0xC0); /* below the held ones' 0xA0: they set no running priority */
	send_self(1);
	id = ack(&iar);
	check("isactiver", id == 1, "sgi1-taken-intid=", id);
	if (id < 1020)
		gic_eoi(iar);
	w32(sgi_frame + GICD_ICACTIVER0, HELD);
	id = r32(sgi_frame + GICD_ISACTIVER0);
	check("isactiver", id == 0, "active-after-icactiver=", id);
}

/* SGIs 2-7 acknowledged in turn, each preempting the last; their IAR values in iars[]. */
static u32 acknowledge_nested(u32 *iars)
{
	u32 n, id;

	for (n = 0; n < NESTED; n++) {
		set_priority(2 + n, 0xA0 - 0x10 * n);
		send_self(2 + n);
		id = ack(&iars[n]);
		if (id != 2 + n) {
			check("nested", 0, "not-taken-sgi=", 2 + n);
			break;
		}
	}
	return n;
}

/* All ended: none active, and SGI 2 is taken again (an interrupt still active would
 * stay active and pending). */
static void check_all_ended(const char *phase, int split)
{
	u32 act = r32(sgi_frame + GICD_ISACTIVER0), iar, id;

	check(phase, act == 0, "active-after-end=", act);
	send_self(2);
	id = ack(&iar);
	check(phase, id == 2, "sgi2-again-intid=", id);
	if (id < 1020) {
		gic_eoi(iar);
		if (split)
			dir(iar);
	}
}

static void nested(void)
{
	u32 iars[NESTED], n = acknowledge_nested(iars);

	check("nested", n == NESTED, "taken=", n);
	while (n--)
		gic_eoi(iars[n]);
	check_all_ended("nested", 0);
}

static void split(void)
{
	u32 iars[NESTED], n = acknowledge_nested(iars), i;

	check("dir", n == NESTED, "taken=", n);
	for (i = n; i--;)
		gic_eoi(iars[i]); /* priority drop only */
	for (i = 0; i < n; i++)
		dir(iars[i]);
	check_all_ended("dir", 1);
}

static void timer(void)
{
	u32 iar, id;

	w32(sgi_frame + GICD_ISACTIVER0, HELD);
	set_priority(INTID_VTIMER, 0xC0);
	WSR(cntv_tval_el0, RSR(cntfrq_el0) / 1000); /* 1 ms */
	WSR(cntv_ctl_el0, 1);
	asm volatile("isb");
	id = ack(&iar);
	WSR(cntv_ctl_el0, 0);
	check("timer", id == INTID_VTIMER, "taken-intid=", id);
	if (id < 1020)
		gic_eoi(iar);
	w32(sgi_frame + GICD_ICACTIVER0, HELD);
}

void __attribute__((noreturn)) guest_main(const u8 *fdt)
{
	fdt_scan(fdt);
	if (!uart)
		power_off(); /* nowhere to say why */
	puts_("ACTIVEIRQS start\n");
	if (!gic) {
		puts_("ACTIVEIRQS FAIL no GIC in the device tree\n");
		power_off();
	}
	gic_dist_init();
	gic_cpu_init(0, 0xFFFF | 1u << INTID_VTIMER);
	sgi_frame = gic == 3 ? gicr + GICR_SGI : gicd;
	isactiver();
	nested();
	set_eoimode(1);
	split();
	set_eoimode(0);
	timer();
	puts_(failed ? "ACTIVEIRQS FAILED\n" : "ACTIVEIRQS DONE\n");
	power_off();
}
