/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Not in tools/include: the lockdep types that the table's structures
 * embed (lockdep.h here does the checking).
 */
#ifndef _RHT_SHIM_LINUX_LOCKDEP_TYPES_H
#define _RHT_SHIM_LINUX_LOCKDEP_TYPES_H

struct lock_class_key {
	char __unused;
};

struct lockdep_map {
	const char *name;
};

enum lockdep_wait_type {
	LD_WAIT_INV = 0,
	LD_WAIT_FREE,
	LD_WAIT_SPIN,
	LD_WAIT_CONFIG = LD_WAIT_SPIN,
	LD_WAIT_SLEEP,
	LD_WAIT_MAX,
};

enum lockdep_lock_type {
	LD_LOCK_NORMAL = 0,
	LD_LOCK_PERCPU,
	LD_LOCK_WAIT_OVERRIDE,
	LD_LOCK_MAX,
};

#define STATIC_LOCKDEP_MAP_INIT(_name, ...)	{ .name = (_name) }
#define SINGLE_DEPTH_NESTING			1
#define MAX_LOCKDEP_SUBCLASSES			8UL

#endif /* _RHT_SHIM_LINUX_LOCKDEP_TYPES_H */
