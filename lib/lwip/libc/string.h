/* SPDX-License-Identifier: GPL-2.0-only */
/* The <string.h> that lwIP's sources include (lib/lwip/lwip.mk puts this folder first on
 * their include path): the hypervisor's own functions, not the host C library's header. */
#ifndef LWIP_LIBC_STRING_H
#define LWIP_LIBC_STRING_H

#include "hv/lib.h"

#endif
