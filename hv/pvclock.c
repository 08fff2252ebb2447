/* SPDX-License-Identifier: GPL-2.0-only */
#include "pvclock.h"
#include "arch.h"

void pvclock_scale(u64 hz, u32 *mul, s8 *shift)
{
	/* Bring hz into (0.5 GHz, 1 GHz] * 2: then mul = 1e9 * 2^32 / hz' is in [2^31, 2^32). */
	s8 s = 0;
	u64 f = hz;
	if (!hz) { /* no clock: everything scales to 0 */
		*mul = 0;
		*shift = 0;
		return;
	}
	while (f > 2000000000ull) {
		f >>= 1;
		s--;
	}
	while (f <= 1000000000ull) {
		f <<= 1;
		s++;
	}
	*mul = (u32)(((unsigned __int128)1000000000ull << 32) / f);
	*shift = s;
}

u64 pvclock_scale_delta(u64 delta, u32 mul, s8 shift)
{
	if (shift >= 0)
		delta <<= shift;
	else
		delta >>= -shift;
	return (u64)(((unsigned __int128)delta * mul) >> 32);
}

void pvclock_publish(struct pvclock_vcpu_time_info *ti, u64 tsc, u64 system_ns, u32 mul, s8 shift,
		     u8 flags)
{
	volatile struct pvclock_vcpu_time_info *v = ti;
	u32 ver = (v->version | 1) + 1; /* next even number, passing through odd */
	v->version = ver - 1;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	v->tsc_timestamp = tsc;
	v->system_time = system_ns;
	v->tsc_to_system_mul = mul;
	v->tsc_shift = shift;
	v->flags = flags;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	v->version = ver;
}

void pvclock_publish_wall(struct pvclock_wall_clock *wc, u64 unix_ns)
{
	volatile struct pvclock_wall_clock *v = wc;
	u32 ver = (v->version | 1) + 1;
	v->version = ver - 1;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	v->sec = (u32)(unix_ns / 1000000000ull);
	v->nsec = (u32)(unix_ns % 1000000000ull);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	v->version = ver;
}

static u64 wall_base_ns, wall_base_time;

void wallclock_set(u64 unix_ns, u64 at_time)
{
	wall_base_ns = unix_ns;
	wall_base_time = at_time;
}

u64 wallclock_ns(u64 at_time)
{
	u32 mul;
	s8 shift;
	pvclock_scale(arch_time_hz, &mul, &shift);
	if (at_time < wall_base_time)
		return wall_base_ns;
	return wall_base_ns + pvclock_scale_delta(at_time - wall_base_time, mul, shift);
}
