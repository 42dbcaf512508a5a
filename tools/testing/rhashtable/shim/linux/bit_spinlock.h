/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bit spinlocks: bit @bitnum of the word at @addr is the lock.  Acquire
 * and release ordering come from the atomic RMW.  Waiters spin on a plain
 * (relaxed) load and yield the CPU after a while, because in userspace the
 * holder can be preempted while "holding a spinlock".
 */
#ifndef _RHT_SHIM_LINUX_BIT_SPINLOCK_H
#define _RHT_SHIM_LINUX_BIT_SPINLOCK_H

#include <sched.h>
#include <linux/compiler.h>
#include <linux/bitops.h>
#include <linux/atomic.h>
#include <linux/preempt.h>
#include <linux/bug.h>

static inline void __rht_bit_spin_wait(int bitnum, unsigned long *addr)
{
	unsigned int spins = 0;

	do {
		if (++spins < 128)
			cpu_relax();
		else
			sched_yield();
	} while (rht_test_bit_relaxed(bitnum, addr));
}

static inline void bit_spin_lock(int bitnum, unsigned long *addr)
{
	preempt_disable();
	while (unlikely(test_and_set_bit_lock(bitnum, addr))) {
		preempt_enable();
		__rht_bit_spin_wait(bitnum, addr);
		preempt_disable();
	}
	__acquire(bitlock);
}

static inline int bit_spin_trylock(int bitnum, unsigned long *addr)
{
	preempt_disable();
	if (unlikely(test_and_set_bit_lock(bitnum, addr))) {
		preempt_enable();
		return 0;
	}
	__acquire(bitlock);
	return 1;
}

static inline void bit_spin_unlock(int bitnum, unsigned long *addr)
{
#ifdef RHT_SHIM_DEBUG
	rht_bug_on(!rht_test_bit_relaxed(bitnum, addr));
#endif
	clear_bit_unlock(bitnum, addr);
	preempt_enable();
	__release(bitlock);
}

static inline void __bit_spin_unlock(int bitnum, unsigned long *addr)
{
	bit_spin_unlock(bitnum, addr);
}

static inline int bit_spin_is_locked(int bitnum, unsigned long *addr)
{
	return rht_test_bit_relaxed(bitnum, addr);
}

#endif /* _RHT_SHIM_LINUX_BIT_SPINLOCK_H */
