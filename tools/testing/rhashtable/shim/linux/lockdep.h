/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough lockdep: lock maps and classes are inert, but "is this lock
 * held by me" is answered for real for struct mutex and spinlock_t (both
 * shims record their owner), so lockdep_assert_held() and the
 * rcu_dereference_protected() conditions that use lockdep_is_held() are
 * actually checked in RHT_SHIM_DEBUG builds.  Any other lock type is
 * reported as held.
 */
#ifndef _RHT_SHIM_LINUX_LOCKDEP_H
#define _RHT_SHIM_LINUX_LOCKDEP_H

#include <linux/compiler.h>
#include <linux/bug.h>
#include <linux/lockdep_types.h>

struct mutex;
struct spinlock;

extern int debug_locks;

int rht_mutex_held_by_me(const struct mutex *m);
int rht_spin_held_by_me(const struct spinlock *l);

#define lockdep_is_held(l) _Generic((l),				\
	struct mutex *: rht_mutex_held_by_me((const void *)(l)),	\
	const struct mutex *: rht_mutex_held_by_me((const void *)(l)),	\
	struct spinlock *: rht_spin_held_by_me((const void *)(l)),	\
	const struct spinlock *: rht_spin_held_by_me((const void *)(l)),\
	default: 1)
#define lockdep_is_held_type(l, r)	lockdep_is_held(l)
#define lock_is_held(map)		1

#ifdef CONFIG_PROVE_LOCKING
#define lockdep_assert_held(l)		WARN_ON(!lockdep_is_held(l))
#define lockdep_assert_held_once(l)	WARN_ON_ONCE(!lockdep_is_held(l))
#define lockdep_assert_not_held(l)	WARN_ON(lockdep_is_held(l) == 1 && \
						_Generic((l), struct mutex *: 1, \
							 struct spinlock *: 1, \
							 default: 0))
#define lockdep_assert(c)		WARN_ON(!(c))
#define lockdep_assert_once(c)		WARN_ON_ONCE(!(c))
#else
#define lockdep_assert_held(l)		do { (void)(l); } while (0)
#define lockdep_assert_held_once(l)	do { (void)(l); } while (0)
#define lockdep_assert_not_held(l)	do { (void)(l); } while (0)
#define lockdep_assert(c)		do { } while (0)
#define lockdep_assert_once(c)		do { } while (0)
#endif
#define lockdep_assert_held_write(l)	lockdep_assert_held(l)
#define lockdep_assert_held_read(l)	lockdep_assert_held(l)
#define lockdep_assert_preemption_disabled()	do { } while (0)
#define lockdep_assert_preemption_enabled()	do { } while (0)

#define lockdep_init_map(map, n, key, sub)				\
	do { (map)->name = (n); (void)(key); (void)(sub); } while (0)
#define lockdep_init_map_type(map, n, key, sub, ...)			\
	lockdep_init_map(map, n, key, sub)
#define lockdep_init_map_wait(map, n, key, sub, inner)			\
	lockdep_init_map(map, n, key, sub)
#define lockdep_init_map_waits(map, n, key, sub, inner, outer)		\
	lockdep_init_map(map, n, key, sub)
#define DEFINE_WAIT_OVERRIDE_MAP(_name, _wait_type)			\
	struct lockdep_map _name = { .name = #_name }
#define lock_map_acquire_try(map)		do { (void)(map); } while (0)
#define lockdep_set_class(l, key)		do { (void)(key); } while (0)
#define lockdep_set_class_and_name(l, key, n)	do { (void)(key); } while (0)
#define lockdep_set_class_and_subclass(l, key, s) do { (void)(key); } while (0)
#define lockdep_set_subclass(l, s)		do { } while (0)
#define lockdep_set_novalidate_class(l)		do { } while (0)
#define lockdep_register_key(key)		do { } while (0)
#define lockdep_unregister_key(key)		do { } while (0)
#define lockdep_off()				do { } while (0)
#define lockdep_on()				do { } while (0)

#define lock_acquire(map, sub, try, read, check, nest, ip)	do { } while (0)
#define lock_acquire_exclusive(map, sub, try, nest, ip)	do { } while (0)
#define lock_acquire_shared(map, sub, try, nest, ip)	do { } while (0)
#define lock_release(map, ip)			do { } while (0)
#define lock_map_acquire(map)			do { (void)(map); } while (0)
#define lock_map_acquire_read(map)		do { (void)(map); } while (0)
#define lock_map_release(map)			do { (void)(map); } while (0)
#define might_lock(l)				do { } while (0)
#define might_lock_nested(l, s)			do { } while (0)

#endif /* _RHT_SHIM_LINUX_LOCKDEP_H */
