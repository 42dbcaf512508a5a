/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/include's mutex.h is empty: a mutex on pthreads that remembers
 * its holder, so that lockdep_is_held() is a real check.
 */
#ifndef _RHT_SHIM_LINUX_MUTEX_H
#define _RHT_SHIM_LINUX_MUTEX_H

#include <pthread.h>
#include <linux/compiler.h>
#include <linux/lockdep.h>
#include <linux/sched.h>
#include <linux/cleanup.h>
#include <linux/spinlock.h>
#include "../rht_shim.h"

/* A sleeping lock: a pthread mutex that remembers its owner. */
struct mutex {
	pthread_mutex_t lock;
	const void *owner;	/* &rht_ctx of the holder, or NULL */
};

#define __RHT_MUTEX_INIT		{ PTHREAD_MUTEX_INITIALIZER, NULL }
#define __MUTEX_INITIALIZER(...)	__RHT_MUTEX_INIT
#define DEFINE_MUTEX(name)		struct mutex name = __RHT_MUTEX_INIT

#define rht_self()	((const void *)&rht_ctx)

static inline void mutex_init(struct mutex *m)
{
	pthread_mutex_init(&m->lock, NULL);
	m->owner = NULL;
}

static inline void mutex_destroy(struct mutex *m)
{
	WARN_ON(__atomic_load_n(&m->owner, __ATOMIC_RELAXED));
	pthread_mutex_destroy(&m->lock);
}

static inline void __rht_mutex_lock(struct mutex *m)
{
	pthread_mutex_lock(&m->lock);
	__atomic_store_n(&m->owner, rht_self(), __ATOMIC_RELAXED);
}

#define mutex_lock(m)	do { might_sleep(); __rht_mutex_lock(m); } while (0)
#define mutex_lock_nested(m, ...)		mutex_lock(m)
#define mutex_lock_interruptible(m)		({ mutex_lock(m); 0; })
#define mutex_lock_killable(m)			({ mutex_lock(m); 0; })
#define mutex_lock_io(m)			mutex_lock(m)

static inline int mutex_trylock(struct mutex *m)
{
	if (pthread_mutex_trylock(&m->lock))
		return 0;
	__atomic_store_n(&m->owner, rht_self(), __ATOMIC_RELAXED);
	return 1;
}

static inline void mutex_unlock(struct mutex *m)
{
#ifdef RHT_SHIM_DEBUG
	if (__atomic_load_n(&m->owner, __ATOMIC_RELAXED) != rht_self())
		rht_shim_bug(__FILE__, __LINE__,
			     "%s() of a mutex not held by this thread", __func__);
#endif
	__atomic_store_n(&m->owner, NULL, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&m->lock);
}

static inline bool mutex_is_locked(struct mutex *m)
{
	return !!__atomic_load_n(&m->owner, __ATOMIC_RELAXED);
}

DEFINE_GUARD(mutex, struct mutex *, mutex_lock(_T), mutex_unlock(_T))

#endif /* _RHT_SHIM_LINUX_MUTEX_H */
