/* SPDX-License-Identifier: GPL-2.0-only */
/* The end of the hypervisor's run (on_exit.h). */
#include "hv/on_exit.h"
#include "hv/arch.h"
#include "hv/printk.h"

static enum on_exit on_exit = ON_EXIT_POWEROFF;
static void (*exit_report)(void);

void on_exit_set(enum on_exit what) { on_exit = what; }

void on_exit_set_report(void (*report)(void)) { exit_report = report; }

NORETURN void hv_exit(void)
{
	if (exit_report)
		exit_report();
	if (on_exit == ON_EXIT_REBOOT)
		arch_reboot();
	if (on_exit == ON_EXIT_POWEROFF)
		arch_power_off();
	printk("hv: halted (on_exit = halt); the machine stays on until it is reset or "
	       "powered off\n");
	for (;;)
		arch_idle();
}
