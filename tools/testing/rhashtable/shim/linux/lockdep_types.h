/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RHT_SHIM_LINUX_LOCKDEP_TYPES_H
#define _RHT_SHIM_LINUX_LOCKDEP_TYPES_H

struct lock_class_key {
	char __unused;
};

struct lockdep_map {
	const char *name;
};

#define STATIC_LOCKDEP_MAP_INIT(_name, _key)	{ .name = (_name) }
#define SINGLE_DEPTH_NESTING			1
#define MAX_LOCKDEP_SUBCLASSES			8UL

#endif /* _RHT_SHIM_LINUX_LOCKDEP_TYPES_H */
