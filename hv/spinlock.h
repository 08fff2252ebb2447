/* SPDX-License-Identifier: GPL-2.0-only */
/* Ticket spinlock for the few shared structures (console, allocator). */
#ifndef HV_SPINLOCK_H
#define HV_SPINLOCK_H

#include "types.h"
#include "arch/cpu.h"

struct spinlock {
	u32 next, owner;
};

static inline void spin_lock(struct spinlock *l)
{
	u32 t = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != t)
		cpu_relax();
}

static inline void spin_unlock(struct spinlock *l)
{
	__atomic_store_n(&l->owner, l->owner + 1, __ATOMIC_RELEASE);
}

#endif
