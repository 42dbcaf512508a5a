/* SPDX-License-Identifier: GPL-2.0 */
/* Static keys as ordinary (relaxed atomic) reference counts. */
#ifndef _RHT_SHIM_LINUX_JUMP_LABEL_H
#define _RHT_SHIM_LINUX_JUMP_LABEL_H

#include <linux/atomic.h>

struct static_key {
	atomic_t enabled;
};

struct static_key_true {
	struct static_key key;
};

struct static_key_false {
	struct static_key key;
};

#define STATIC_KEY_INIT_TRUE		{ .enabled = ATOMIC_INIT(1) }
#define STATIC_KEY_INIT_FALSE		{ .enabled = ATOMIC_INIT(0) }
#define STATIC_KEY_TRUE_INIT		{ .key = STATIC_KEY_INIT_TRUE }
#define STATIC_KEY_FALSE_INIT		{ .key = STATIC_KEY_INIT_FALSE }
#define DEFINE_STATIC_KEY_TRUE(name)	struct static_key_true name = STATIC_KEY_TRUE_INIT
#define DEFINE_STATIC_KEY_FALSE(name)	struct static_key_false name = STATIC_KEY_FALSE_INIT
#define DEFINE_STATIC_KEY_TRUE_RO(name)	DEFINE_STATIC_KEY_TRUE(name)
#define DEFINE_STATIC_KEY_FALSE_RO(name) DEFINE_STATIC_KEY_FALSE(name)
#define DECLARE_STATIC_KEY_TRUE(name)	extern struct static_key_true name
#define DECLARE_STATIC_KEY_FALSE(name)	extern struct static_key_false name

#define __rht_key(x)		((struct static_key *)(x))
#define static_key_count(x)	atomic_read(&__rht_key(x)->enabled)
#define static_key_enabled(x)	(static_key_count(x) > 0)
#define static_branch_likely(x)		likely(static_key_enabled(x))
#define static_branch_unlikely(x)	unlikely(static_key_enabled(x))
#define static_key_false(x)		static_branch_unlikely(x)
#define static_key_true(x)		static_branch_likely(x)
#define static_branch_inc(x)		atomic_inc(&__rht_key(x)->enabled)
#define static_branch_dec(x)		atomic_dec(&__rht_key(x)->enabled)
#define static_key_slow_inc(x)		static_branch_inc(x)
#define static_key_slow_dec(x)		static_branch_dec(x)
#define static_branch_enable(x)		atomic_set(&__rht_key(x)->enabled, 1)
#define static_branch_disable(x)	atomic_set(&__rht_key(x)->enabled, 0)
#define static_key_enable(x)		static_branch_enable(x)
#define static_key_disable(x)		static_branch_disable(x)
#define static_branch_enable_cpuslocked(x)  static_branch_enable(x)
#define static_branch_disable_cpuslocked(x) static_branch_disable(x)

#endif /* _RHT_SHIM_LINUX_JUMP_LABEL_H */
