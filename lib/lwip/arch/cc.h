/* SPDX-License-Identifier: GPL-2.0-only */
/* lwIP's compiler and platform glue (lwIP 2.1.3, src/include/lwip/arch.h): gcc's
 * freestanding headers for the integer types, lwIP's own ctype, no inttypes.h; diagnostics
 * go to the hypervisor's console, assertions to lib/lwip/lwip_assert.h; random numbers (DHCP
 * transaction IDs, UDP source ports) from lib/lwip/lwip_port.c. Both architectures are
 * little-endian. */
#ifndef LWIP_ARCH_CC_H
#define LWIP_ARCH_CC_H

#include "hv/printk.h" /* printk */
#include "hv/types.h"
#include "lib/lwip/lwip_assert.h" /* net_lwip_assert */

#define LWIP_NO_INTTYPES_H 1
#define LWIP_NO_CTYPE_H 1
#define LWIP_NO_UNISTD_H 1
#define BYTE_ORDER LITTLE_ENDIAN
typedef long ssize_t; /* what <unistd.h> would give */
#define SSIZE_MAX __LONG_MAX__

#define X8_F "x"
#define U16_F "u"
#define S16_F "d"
#define X16_F "x"
#define U32_F "u"
#define S32_F "d"
#define X32_F "x"
#define SZT_F "zu"

u32 net_lwip_rand(void);

#define LWIP_PLATFORM_DIAG(x) (void)(printk x)
#define LWIP_PLATFORM_ASSERT(x) net_lwip_assert(x, __FILE__, __LINE__)
#define LWIP_RAND() net_lwip_rand()

#endif
