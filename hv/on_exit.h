/* SPDX-License-Identifier: GPL-2.0-only */
/* What the machine does when the hypervisor stops: once no VM is left, and after a fatal
 * error. `on_exit` under [hv] chooses (docs/configuration.md); a test server that
 * reboots goes back to its boot order (PXE, say). */
#ifndef HV_ON_EXIT_H
#define HV_ON_EXIT_H

#include "hv/types.h"

enum on_exit { ON_EXIT_POWEROFF, ON_EXIT_REBOOT, ON_EXIT_HALT };

void on_exit_set(enum on_exit what);
/* A report to print first (the self-test's table, the telemetry's counters), registered
 * by what keeps it; up to 4, printed in the order they came. */
void on_exit_add_report(void (*report)(void));
/* Prints the reports, then powers off, reboots or halts the machine, as on_exit says. */
NORETURN void hv_exit(void);

#endif
