/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/include's spinlock.h is a bare pthread mutex without an owner;
 * this one remembers it, for lockdep_assert_held() and the context checks.
 */
#ifndef _RHT_SHIM_LINUX_SPINLOCK_H
#define _RHT_SHIM_LINUX_SPINLOCK_H

#include <pthread.h>
#include <linux/compiler.h>
#include <linux/spinlock_types.h>
#include <linux/lockdep.h>
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include <linux/bottom_half.h>
#include <linux/cleanup.h>
#include <linux/bug.h>
#include "../rht_shim.h"

void rht_spin_lock_init(spinlock_t *l);

#define spin_lock_init(l)	rht_spin_lock_init(l)
#define raw_spin_lock_init(l)	rht_spin_lock_init(l)

static inline void __rht_spin_acquire(spinlock_t *l)
{
	pthread_mutex_lock(&l->lock);
	__atomic_store_n(&l->owner, (const void *)&rht_ctx, __ATOMIC_RELAXED);
}

static inline void __rht_spin_release(spinlock_t *l)
{
#ifdef RHT_SHIM_DEBUG
	if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) != &rht_ctx)
		rht_shim_bug(__FILE__, __LINE__,
			     "spin_unlock() of a lock not held by this thread");
#endif
	__atomic_store_n(&l->owner, NULL, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&l->lock);
}

static inline int __rht_spin_tryacquire(spinlock_t *l)
{
	if (pthread_mutex_trylock(&l->lock))
		return 0;
	__atomic_store_n(&l->owner, (const void *)&rht_ctx, __ATOMIC_RELAXED);
	return 1;
}

#define spin_lock(l)	do { preempt_disable(); __rht_spin_acquire(l); } while (0)
#define spin_unlock(l)	do { __rht_spin_release(l); preempt_enable(); } while (0)
#define spin_lock_nested(l, ...)	spin_lock(l)
#define spin_lock_bh(l)	do { local_bh_disable(); spin_lock(l); } while (0)
#define spin_unlock_bh(l) do { spin_unlock(l); local_bh_enable(); } while (0)
#define spin_lock_irq(l) do { local_irq_disable(); spin_lock(l); } while (0)
#define spin_unlock_irq(l) do { spin_unlock(l); local_irq_enable(); } while (0)
#define spin_lock_irqsave(l, f)	do { local_irq_save(f); spin_lock(l); } while (0)
#define spin_lock_irqsave_nested(l, f, ...) spin_lock_irqsave(l, f)
#define spin_unlock_irqrestore(l, f)					\
	do { spin_unlock(l); local_irq_restore(f); } while (0)
#define spin_trylock(l) ({						\
	int __st;							\
	preempt_disable();						\
	__st = __rht_spin_tryacquire(l);				\
	if (!__st)							\
		preempt_enable();					\
	__st;								\
})
/* Locked by anyone; use lockdep_assert_held() for "by me". */
#define rht_spin_is_locked(l)						\
	(!!__atomic_load_n(&(l)->owner, __ATOMIC_RELAXED))
#define spin_is_locked		rht_spin_is_locked
#define assert_spin_locked(l)	WARN_ON(!rht_spin_is_locked(l))

#define raw_spin_lock(l)		spin_lock(l)
#define raw_spin_unlock(l)		spin_unlock(l)
#define raw_spin_lock_irq(l)		spin_lock_irq(l)
#define raw_spin_unlock_irq(l)		spin_unlock_irq(l)
#define raw_spin_lock_irqsave(l, f)	spin_lock_irqsave(l, f)
#define raw_spin_unlock_irqrestore(l, f) spin_unlock_irqrestore(l, f)
#define raw_spin_trylock(l)		spin_trylock(l)
#define raw_spin_is_locked		rht_spin_is_locked

DEFINE_LOCK_GUARD_1(spinlock, spinlock_t, spin_lock(_T->lock), spin_unlock(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_bh, spinlock_t, spin_lock_bh(_T->lock), spin_unlock_bh(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_irq, spinlock_t, spin_lock_irq(_T->lock), spin_unlock_irq(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_irqsave, spinlock_t,
		    spin_lock_irqsave(_T->lock, _T->flags),
		    spin_unlock_irqrestore(_T->lock, _T->flags),
		    unsigned long flags)
DEFINE_LOCK_GUARD_1(raw_spinlock, raw_spinlock_t, spin_lock(_T->lock), spin_unlock(_T->lock))
DEFINE_LOCK_GUARD_1(raw_spinlock_irqsave, raw_spinlock_t,
		    spin_lock_irqsave(_T->lock, _T->flags),
		    spin_unlock_irqrestore(_T->lock, _T->flags),
		    unsigned long flags)
DEFINE_LOCK_GUARD_0(preempt, preempt_disable(), preempt_enable())
DEFINE_LOCK_GUARD_0(irq, local_irq_disable(), local_irq_enable())
DEFINE_LOCK_GUARD_0(irqsave, local_irq_save(_T->flags),
		    local_irq_restore(_T->flags), unsigned long flags)

#endif /* _RHT_SHIM_LINUX_SPINLOCK_H */
