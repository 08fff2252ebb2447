/* SPDX-License-Identifier: GPL-2.0-only */
/* lwIP's start, shared by the network boot (before the takeover) and the telemetry
 * (after it): lwip_init() sets up lwIP's memory pools, so a second call would free what
 * the first phase still holds (a connection in TIME_WAIT, for one). */
#ifndef LWIP_LWIP_PORT_H
#define LWIP_LWIP_PORT_H

/* lwip_init(), the first time only. */
void net_lwip_init(void);

#endif
