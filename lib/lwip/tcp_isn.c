/* SPDX-License-Identifier: GPL-2.0-only */
/* RFC 6528, section 3: ISN = M + F(localip, localport, remoteip, remoteport, secretkey),
 * M a clock that ticks every 4 us, F a keyed hash (hv/random.h: SipHash with a key drawn
 * at boot). Another host can neither guess a connection's sequence numbers nor learn them
 * from its own connections, and a connection that follows another between the same two
 * ends starts past where it left off, as M moves on. */
#include "lib/lwip/tcp_isn.h"
#include "hv/arch.h"
#include "hv/lib.h"
#include "hv/random.h"

u32 tcp_isn(u32 local_addr, u16 local_port, u32 remote_addr, u16 remote_port)
{
	u8 ends[12];
	memcpy(ends, &local_addr, 4);
	memcpy(ends + 4, &remote_addr, 4);
	memcpy(ends + 8, &local_port, 2);
	memcpy(ends + 10, &remote_port, 2);
	u64 per_4us = arch_time_hz / 250000 ? arch_time_hz / 250000 : 1;
	return (u32)(arch_time_now() / per_4us) + (u32)random_hash(ends, sizeof ends);
}
