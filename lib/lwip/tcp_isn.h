/* SPDX-License-Identifier: GPL-2.0-only */
/* TCP's initial sequence numbers (RFC 6528), for lwIP's LWIP_HOOK_TCP_ISN (lwipopts.h). */
#ifndef LIB_LWIP_TCP_ISN_H
#define LIB_LWIP_TCP_ISN_H

#include "hv/types.h"

/* The ISN of a connection between these addresses (as lwIP keeps them: network order)
 * and ports. */
u32 tcp_isn(u32 local_addr, u16 local_port, u32 remote_addr, u16 remote_port);

#endif
