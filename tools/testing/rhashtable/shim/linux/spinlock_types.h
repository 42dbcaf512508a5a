/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The spinlock types alone, for headers that embed a lock without
 * taking it (tools/include has no spinlock_types.h).
 */
#ifndef _RHT_SHIM_LINUX_SPINLOCK_TYPES_H
#define _RHT_SHIM_LINUX_SPINLOCK_TYPES_H

#include <pthread.h>

/*
 * spinlock_t and raw_spinlock_t are the same type here: an adaptive
 * pthread mutex (spins briefly, then sleeps, so a preempted holder does
 * not make its waiters burn CPU) that remembers its owner.
 */
struct spinlock {
	pthread_mutex_t lock;
	const void *owner;
};

/* Type names as macros, like tools/include/linux/spinlock.h does. */
#define spinlock_t		struct spinlock
#define raw_spinlock_t		struct spinlock

#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
#define __RHT_SPIN_INIT		PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
#else
#define __RHT_SPIN_INIT		PTHREAD_MUTEX_INITIALIZER
#endif
#define __SPIN_LOCK_UNLOCKED(...)	((spinlock_t){ __RHT_SPIN_INIT, NULL })
#define __RAW_SPIN_LOCK_UNLOCKED	__SPIN_LOCK_UNLOCKED
#define DEFINE_SPINLOCK(name)		spinlock_t name = { __RHT_SPIN_INIT, NULL }
#define DEFINE_RAW_SPINLOCK(name)	DEFINE_SPINLOCK(name)

#endif /* _RHT_SHIM_LINUX_SPINLOCK_TYPES_H */
