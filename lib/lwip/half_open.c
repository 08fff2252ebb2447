/* SPDX-License-Identifier: GPL-2.0-only */
/* See half_open.h. A half-open connection is a pcb in SYN_RCVD on lwIP's active list,
 * newest first; its tmr is the tcp_ticks of its SYN (or of a segment since). */
#include "lib/lwip/half_open.h"
#include "lwip/priv/tcp_priv.h"
#include "lwip/tcp.h"

u64 tcp_half_open_evicted;

void tcp_half_open_make_room(void)
{
	struct tcp_pcb *oldest = NULL;
	u32 n = 0;
	for (struct tcp_pcb *p = tcp_active_pcbs; p; p = p->next) {
		if (p->state != SYN_RCVD)
			continue;
		n++;
		if (!oldest || (u32)(tcp_ticks - p->tmr) >= (u32)(tcp_ticks - oldest->tmr))
			oldest = p;
	}
	if (n >= TCP_HALF_OPEN_MAX) {
		tcp_abort(oldest);
		tcp_half_open_evicted++;
	}
}
