/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tests need from lib/rhashtable.c beyond the 6.12 API: the
 * element count with the per-CPU deltas folded in, whether an array is
 * part of a resize in flight, how to let a waiting resize run now, the
 * structural check and explicit resizing.
 *
 * rht_compat.h includes this file as <rht_impl.h>: a build that tests
 * another implementation of the same API puts its own version of these
 * helpers earlier on the include path (the benchmarks of the rhashtable
 * lab do that to run the programs against stock 6.12).
 */
#ifndef _RHT_IMPL_H
#define _RHT_IMPL_H

#include <stdio.h>
#include <linux/rhashtable.h>
#include "../../../lib/rhashtable_test.h"

/* Number of elements the table believes it holds. */
static inline unsigned int rht_test_nelems(struct rhashtable *ht)
{
	return rhashtable_count(ht);
}

/* rhashtable_init() refuses min_size > max_size with -EINVAL. */
#define RHT_TEST_INIT_REJECTS_MIN_GT_MAX	1

/* Is @tbl one of two arrays of a resize?  The new one knows the old. */
static inline bool rht_impl_resizing(struct bucket_table *tbl)
{
	return rcu_access_pointer(tbl->past_tbl);
}

/* Let a resize that waits for a grace period or a timer go on now. */
static inline void rht_impl_kick(struct rhashtable *ht)
{
	rcu_barrier();
#if IS_ENABLED(CONFIG_RHASHTABLE_KUNIT_TEST)
	rht_test_retry_now(ht);
#endif
}

/*
 * What a resize that does not finish was doing; the step is -1 where the
 * test hooks are not built.
 */
static inline void rht_impl_report_stuck(struct rhashtable *ht)
{
	unsigned int step = -1U;
	struct rhashtable_stats st;

#if IS_ENABLED(CONFIG_RHASHTABLE_KUNIT_TEST)
	step = rht_test_resize_step(ht);
#endif
	rhashtable_get_stats(ht, &st);
	rcu_read_lock();
	fprintf(stderr,
		"quiesce: resize stuck: work pending %d step %u size %u nelems %u grows %lu shrinks %lu rehashes %lu reseeds %lu passes %lu gps %lu long chains %lu\n",
		work_pending(&ht->run_work), step,
		rht_dereference_rcu(ht->tbl, ht)->size,
		atomic_read(&ht->nelems), st.grows, st.shrinks,
		st.rehashes, st.reseeds, st.unzip_passes, st.grace_periods,
		st.long_chains);
	rcu_read_unlock();
}

/* The structural check of lib/rhashtable.c; 0 when all is well. */
static inline int rht_test_check_structure(struct rhashtable *ht)
{
	return rht_test_validate(ht);
}

/*
 * Explicit resizing (the 3.17 API).  Defining RHT_TEST_HAVE_RESIZE makes
 * the stress test run a resizer thread and gives the fuzzer expand,
 * shrink and rehash operations.
 */
#define RHT_TEST_HAVE_RESIZE 1

static inline int rht_test_expand(struct rhashtable *ht)
{
	return rhashtable_expand(ht);
}

static inline int rht_test_shrink(struct rhashtable *ht)
{
	return rhashtable_shrink(ht);
}

/* No rehash call: report a long chain, which makes the worker reseed. */
static inline int rht_test_rehash(struct rhashtable *ht)
{
	rhashtable_kick(ht, RHT_ELASTICITY + 1);
	return 0;
}

#endif /* _RHT_IMPL_H */
