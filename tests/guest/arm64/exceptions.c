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
 * Each prints over the PL011
 *   EXCEPTIONS fetch ok esr=0x0000000086000010 far=0x000000000a000000
 * (or "FAIL ..."), then "EXCEPTIONS DONE", and powers off. */
#include "lib.h"

/* No device here in the hypervisor's guest memory map. */
#define NO_DEVICE 0x0A000000ul

#define EC(esr) ((esr) >> 26 & 0x3F)
#define FSC(esr) ((esr)&0x3F)

static volatile u64 resume_at, seen_esr, seen_far, exceptions;

u64 sync_exception(u64 esr, u64 elr, u64 far)
{
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

void irq_handler(void) { puts_("EXCEPTIONS FAIL unexpected IRQ\n"); }

void __attribute__((noreturn)) secondary_main(u64 cpu)
{
	(void)cpu;
	for (;;)
		asm volatile("wfi");
}

void __attribute__((noreturn)) guest_main(const u8 *fdt)
{
	u64 lo, hi, v;

	fdt_scan(fdt);
	if (!uart)
		power_off(); /* nowhere to say why */
	puts_("EXCEPTIONS start\n");

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

	puts_(failed ? "EXCEPTIONS FAILED\n" : "EXCEPTIONS DONE\n");
	power_off();
}
