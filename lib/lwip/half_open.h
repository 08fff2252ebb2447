/* SPDX-License-Identifier: GPL-2.0-only */
/* Half-open TCP connections (a SYN answered, the handshake not finished) bounded: lwIP
 * 2.1.3 frees a pcb for a new connection only from TIME_WAIT, LAST_ACK or CLOSING, or
 * from a lower priority (tcp_alloc), and every pcb here has the same, so eight SYNs that
 * were never followed up locked everyone out until they timed out (20 s). */
#ifndef LIB_LWIP_HALF_OPEN_H
#define LIB_LWIP_HALF_OPEN_H

#include "hv/types.h"

/* At most this many half-open at once; lwipopts.h's MEMP_NUM_TCP_PCB leaves room beside
 * them for the telemetry's connections. */
#define TCP_HALF_OPEN_MAX 8

/* Before a SYN goes to lwIP: with TCP_HALF_OPEN_MAX half-open, the one waiting longest is
 * aborted (a RST to its peer) to make room. */
void tcp_half_open_make_room(void);
/* Half-open connections aborted so. */
extern u64 tcp_half_open_evicted;

#endif
