/* SPDX-License-Identifier: GPL-2.0-only */
/* pvclock: the shared time structures of kvmclock (Linux include/asm-generic/pvclock-abi.h
 * layout). The guest computes ns = system_time + scale(tsc - tsc_timestamp), where
 * scale(d) = ((shift >= 0 ? d << shift : d >> -shift) * mul) >> 32. */
#ifndef HV_PVCLOCK_H
#define HV_PVCLOCK_H

#include "types.h"

struct pvclock_vcpu_time_info {
	u32 version;
	u32 pad0;
	u64 tsc_timestamp;
	u64 system_time;
	u32 tsc_to_system_mul;
	s8 tsc_shift;
	u8 flags;
	u8 pad[2];
} PACKED;

struct pvclock_wall_clock {
	u32 version;
	u32 sec;
	u32 nsec;
} PACKED;

/* mul and shift converting ticks of a clock of `hz` into nanoseconds. */
void pvclock_scale(u64 hz, u32 *mul, s8 *shift);
u64 pvclock_scale_delta(u64 delta, u32 mul, s8 shift);
/* Publishes a new time record with the version protocol (odd while writing). */
void pvclock_publish(struct pvclock_vcpu_time_info *ti, u64 tsc, u64 system_ns, u32 mul, s8 shift,
		     u8 flags);
void pvclock_publish_wall(struct pvclock_wall_clock *wc, u64 unix_ns);

/* Wall-clock time, set once at boot from the firmware's clock. */
void wallclock_set(u64 unix_ns, u64 at_time);
u64 wallclock_ns(u64 at_time); /* at_time: arch_time_now() units */

#endif
