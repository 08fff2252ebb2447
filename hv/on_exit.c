/* SPDX-License-Identifier: GPL-2.0-only */
/* The end of the hypervisor's run (on_exit.h). */
#include "hv/on_exit.h"
#include "hv/arch.h"
#include "hv/lib.h"
#include "hv/printk.h"

static enum on_exit on_exit = ON_EXIT_POWEROFF;
static void (*reports[4])(void);
static u32 nreports;

void on_exit_set(enum on_exit what) { on_exit = what; }

void on_exit_add_report(void (*report)(void))
{
	if (nreports < ARRAY_SIZE(reports))
		reports[nreports++] = report;
}

NORETURN void hv_exit(void)
{
	for (u32 i = 0; i < nreports; i++)
		reports[i]();
	if (on_exit == ON_EXIT_REBOOT)
		arch_reboot();
	if (on_exit == ON_EXIT_POWEROFF)
		arch_power_off();
	printk("hv: halted (on_exit = halt); the machine stays on until it is reset or "
	       "powered off\n");
	for (;;)
		arch_idle();
}
