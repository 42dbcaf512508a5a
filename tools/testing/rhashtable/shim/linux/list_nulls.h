/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "Nulls" lists: a list end is an odd pointer-sized value that carries a
 * payload in its upper bits, so a lockless reader can tell which list it
 * ended up at.
 */
#ifndef _RHT_SHIM_LINUX_LIST_NULLS_H
#define _RHT_SHIM_LINUX_LIST_NULLS_H

#include <linux/types.h>
#include <linux/compiler.h>

struct hlist_nulls_node {
	struct hlist_nulls_node *next, **pprev;
};

struct hlist_nulls_head {
	struct hlist_nulls_node *first;
};

#define NULLS_MARKER(value)	(1UL | (((long)(value)) << 1))
#define INIT_HLIST_NULLS_HEAD(ptr, nulls)				\
	((ptr)->first = (struct hlist_nulls_node *)NULLS_MARKER(nulls))
#define hlist_nulls_entry(ptr, type, member) container_of(ptr, type, member)

static inline int is_a_nulls(const struct hlist_nulls_node *ptr)
{
	return (unsigned long)ptr & 1;
}

static inline unsigned long get_nulls_value(const struct hlist_nulls_node *ptr)
{
	return (unsigned long)ptr >> 1;
}

static inline int hlist_nulls_unhashed(const struct hlist_nulls_node *h)
{
	return !h->pprev;
}

static inline int hlist_nulls_empty(const struct hlist_nulls_head *h)
{
	return is_a_nulls(READ_ONCE(h->first));
}

#endif /* _RHT_SHIM_LINUX_LIST_NULLS_H */
