/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough lockdep: lock maps and classes are inert, but "is this lock
 * held by me" is answered for real for struct mutex and spinlock_t (both
 * shims record their owner), so lockdep_assert_held() and the
 * rcu_dereference_protected() conditions that use lockdep_is_held() are
 * actually checked in RHT_SHIM_DEBUG builds.
 */
#ifndef _RHT_SHIM_LINUX_LOCKDEP_H
#define _RHT_SHIM_LINUX_LOCKDEP_H

#include "../rht_shim.h"

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/bug.h>
#include <linux/lockdep_types.h>

extern int debug_locks;

/*
 * Every lock type of the shims (struct mutex, spinlock_t) has an ->owner:
 * the address of the holder's rht_ctx, or NULL.
 */
int rht_lock_held_by_me(const void *const *owner);

#define lockdep_is_held(l)		rht_lock_held_by_me(&(l)->owner)
#define lockdep_is_held_type(l, ...)	lockdep_is_held(l)

static inline int lock_is_held(const struct lockdep_map *map)
{
	return 1;
}

#ifdef CONFIG_PROVE_LOCKING
#define lockdep_assert_held(l)		WARN_ON(!lockdep_is_held(l))
#define lockdep_assert_held_once(l)	WARN_ON_ONCE(!lockdep_is_held(l))
#define lockdep_assert_not_held(l)	WARN_ON(lockdep_is_held(l))
#define lockdep_assert(c)		WARN_ON(!(c))
#define lockdep_assert_once(c)		WARN_ON_ONCE(!(c))
#else
#define lockdep_assert_held(l)		((void)(l))
#define lockdep_assert_held_once(l)	((void)(l))
#define lockdep_assert_not_held(l)	((void)(l))
#define lockdep_assert(...)		do { } while (0)
#define lockdep_assert_once(...)	do { } while (0)
#endif
#define lockdep_assert_held_write(l)	lockdep_assert_held(l)
#define lockdep_assert_held_read(l)	lockdep_assert_held(l)
#define lockdep_assert_preemption_disabled()	do { } while (0)
#define lockdep_assert_preemption_enabled()	do { } while (0)

static inline void lockdep_init_map(struct lockdep_map *map, const char *name,
				    struct lock_class_key *key, int subclass)
{
	map->name = name;
}

static inline void lockdep_init_map_wait(struct lockdep_map *map,
					 const char *name,
					 struct lock_class_key *key,
					 int subclass, u8 inner)
{
	lockdep_init_map(map, name, key, subclass);
}

static inline void lockdep_init_map_waits(struct lockdep_map *map,
					  const char *name,
					  struct lock_class_key *key,
					  int subclass, u8 inner, u8 outer)
{
	lockdep_init_map(map, name, key, subclass);
}

static inline void lockdep_init_map_type(struct lockdep_map *map,
					 const char *name,
					 struct lock_class_key *key,
					 int subclass, u8 inner, u8 outer,
					 u8 lock_type)
{
	lockdep_init_map(map, name, key, subclass);
}

#define DEFINE_WAIT_OVERRIDE_MAP(_name, ...)				\
	struct lockdep_map _name = { .name = #_name }

/* Lock classes only matter to the real lockdep. */
static inline void lockdep_set_class(void *lock, struct lock_class_key *key)
{
}

static inline void lockdep_set_class_and_name(void *lock,
					      struct lock_class_key *key,
					      const char *name)
{
}

static inline void lockdep_set_class_and_subclass(void *lock,
						  struct lock_class_key *key,
						  unsigned int subclass)
{
}

static inline void lockdep_set_subclass(void *lock, unsigned int subclass)
{
}

static inline void lockdep_set_novalidate_class(void *lock)
{
}

static inline void lockdep_register_key(struct lock_class_key *key)
{
}

static inline void lockdep_unregister_key(struct lock_class_key *key)
{
}

#define lockdep_off()				do { } while (0)
#define lockdep_on()				do { } while (0)

/*
 * Acquire/release annotations take no notice of their arguments, which
 * need not even be valid without lockdep (the kernel's _THIS_IP_).
 */
#define lock_acquire(...)			do { } while (0)
#define lock_acquire_exclusive(...)		do { } while (0)
#define lock_acquire_shared(...)		do { } while (0)
#define lock_release(...)			do { } while (0)
#define lock_map_acquire_try(map)		((void)(map))
#define lock_map_acquire(map)			((void)(map))
#define lock_map_acquire_read(map)		((void)(map))
#ifdef RHT_SHIM_DEBUG
/* A test may act here, while the lock is still held: rht_shim_release_arm(). */
#define lock_map_release(map)			rht_shim_release_point(map)
#else
#define lock_map_release(map)			((void)(map))
#endif
#define might_lock(...)				do { } while (0)
#define might_lock_nested(...)			do { } while (0)

#endif /* _RHT_SHIM_LINUX_LOCKDEP_H */
