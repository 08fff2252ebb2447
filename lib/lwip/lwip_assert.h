/* SPDX-License-Identifier: GPL-2.0-only */
/* lwIP's assertions (LWIP_PLATFORM_ASSERT, arch/cc.h), and a way to survive one: the
 * telemetry runs lwIP beside the VMs, and a failed assertion in it must end the
 * telemetry, not every VM. */
#ifndef LWIP_LWIP_ASSERT_H
#define LWIP_LWIP_ASSERT_H

#include "hv/types.h"

/* Calls fn() with lwIP's assertions caught: false when one failed inside it (printed),
 * after which nothing may call lwIP again (its state is whatever the assertion found).
 * One call at a time (pCPU 0's housekeeping). An assertion outside such a call (the
 * network boot, before any VM runs) stops the hypervisor. */
bool net_lwip_call(void (*fn)(void));

/* lwIP's LWIP_PLATFORM_ASSERT */
NORETURN void net_lwip_assert(const char *msg, const char *file, int line);

#endif
