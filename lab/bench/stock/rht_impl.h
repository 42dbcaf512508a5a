/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/testing/rhashtable/rht_impl.h for stock 6.12, so that the harness
 * programs (the benchmarks first) build against the pristine table.  The
 * Makefile next to this file puts this directory ahead of the harness on
 * the include path.  Stock has no test hooks and no explicit resizing.
 */
#ifndef _RHT_IMPL_H
#define _RHT_IMPL_H

#include <linux/rhashtable.h>

static inline unsigned int rht_test_nelems(struct rhashtable *ht)
{
	return atomic_read(&ht->nelems);
}

/* 6.12 accepts min_size > max_size. */
#define RHT_TEST_INIT_REJECTS_MIN_GT_MAX	0

/* Stock links the old array to the new one until the move is done. */
static inline bool rht_impl_resizing(struct bucket_table *tbl)
{
	return rcu_access_pointer(tbl->future_tbl);
}

/* A stock resize never waits for a grace period or a timer. */
static inline void rht_impl_kick(struct rhashtable *ht)
{
}

static inline void rht_impl_report_stuck(struct rhashtable *ht)
{
}

static inline int rht_test_check_structure(struct rhashtable *ht)
{
	return 0;
}

#endif /* _RHT_IMPL_H */
