/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few places where the tests have to look behind the 6.12 public API,
 * or use API that only our implementation has.  Everything else in the
 * tests is plain 6.12 API and must work unchanged on stock and ours.
 *
 * Built with -DRHT_IMPL_STOCK or -DRHT_IMPL_OURS (see Makefile).
 */
#ifndef _RHT_COMPAT_H
#define _RHT_COMPAT_H

#include <time.h>
#include <unistd.h>
#include <linux/rhashtable.h>
#include <linux/workqueue.h>
#include <linux/timer.h>
#ifdef RHT_IMPL_OURS
#include "../../../lib/rhashtable_test.h"
#endif

static inline double rht_test_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Number of elements the table believes it holds. */
static inline unsigned int rht_test_nelems(struct rhashtable *ht)
{
#ifdef RHT_IMPL_OURS
	return rhashtable_count(ht);	/* folds the per-CPU deltas in */
#else
	return atomic_read(&ht->nelems);
#endif
}

/* An rhltable's nelems counts keys, not objects, in both (as in 6.12). */
#define RHT_TEST_RHL_COUNTS_OBJECTS	0

/* 6.12 accepts min_size > max_size; ours refuses it with -EINVAL. */
#ifdef RHT_IMPL_OURS
#define RHT_TEST_INIT_REJECTS_MIN_GT_MAX	1
#else
#define RHT_TEST_INIT_REJECTS_MIN_GT_MAX	0
#endif

/* Is a resize in flight (more than one bucket array in use)? */
static inline bool rht_test_resizing(struct rhashtable *ht)
{
	struct bucket_table *tbl;
	bool busy;

	rcu_read_lock();
	tbl = rht_dereference_rcu(ht->tbl, ht);
#ifdef RHT_IMPL_OURS
	/* Ours publishes first; the array knows its predecessor until done. */
	busy = !!rcu_access_pointer(tbl->past_tbl);
#else
	busy = !!rht_dereference_rcu(tbl->future_tbl, ht);
#endif
	rcu_read_unlock();
	return busy;
}

/* The resize step for a report; -1 where the test hooks are not built. */
static inline unsigned int rht_compat_step(struct rhashtable *ht)
{
#if defined(RHT_IMPL_OURS) && IS_ENABLED(CONFIG_RHASHTABLE_KUNIT_TEST)
	return rht_test_resize_step(ht);
#else
	return -1U;
#endif
}

/*
 * Wait until no resize is queued, running or half-done, then take the
 * table's mutex so that none can start: the deferred worker (and, for
 * ours, explicit resizes) serialise on it.  Assumes nobody inserts or
 * removes meanwhile.  Undo with rht_test_unlock().
 */
static inline void rht_test_quiesce_lock(struct rhashtable *ht)
{
	double since = rht_test_now();

	for (;;) {
		bool busy;

		flush_work(&ht->run_work);
#ifdef RHT_IMPL_OURS
		/* A resize may be waiting for a grace period or a timer. */
		rcu_barrier();
#if IS_ENABLED(CONFIG_RHASHTABLE_KUNIT_TEST)
		rht_test_retry_now(ht);
#endif
#endif
		mutex_lock(&ht->mutex);
#ifdef RHT_IMPL_OURS
		busy = !!rcu_access_pointer(rht_dereference(ht->tbl,
							    ht)->past_tbl);
#else
		busy = rht_dereference(rht_dereference(ht->tbl, ht)->future_tbl,
				       ht) != NULL;
#endif
		if (!busy && !work_pending(&ht->run_work))
			return;
		mutex_unlock(&ht->mutex);
		if (rht_test_now() - since > 10) {
#ifdef RHT_IMPL_OURS
			int i;

			for (i = 0; i < 2; i++) {
				struct rhashtable_stats st;

				if (i)
					sleep(1);
				rhashtable_get_stats(ht, &st);
				fprintf(stderr,
					"quiesce: resize stuck%s: work pending %d step %u size %u nelems %u grows %lu shrinks %lu rehashes %lu reseeds %lu passes %lu gps %lu long chains %lu\n",
					i ? " (1 s later)" : "",
					work_pending(&ht->run_work),
					rht_compat_step(ht),
					rht_dereference_rcu(ht->tbl, ht)->size,
					atomic_read(&ht->nelems),
					st.grows, st.shrinks, st.rehashes,
					st.reseeds, st.unzip_passes,
					st.grace_periods, st.long_chains);
			}
#endif
			/* Nothing may kick it: a resize that stalls is a bug. */
			fprintf(stderr, "FAIL: resize did not finish within 10 s\n");
			abort();
		}
		usleep(1000);
	}
}

static inline void rht_test_unlock(struct rhashtable *ht)
{
	mutex_unlock(&ht->mutex);
}

/*
 * Visit every object linked in any bucket chain of every table
 * (ht->tbl and its future_tbl chain), under rcu_read_lock().  Returns
 * the number of objects visited; @fn returning non-zero stops early.
 */
static inline unsigned long
rht_test_chain_walk(struct rhashtable *ht,
		    int (*fn)(void *arg, struct rhash_head *he,
			      unsigned int table, unsigned int bucket),
		    void *arg)
{
	/*
	 * Uses the 6.12 bucket_table internals, which ours keeps.  With a
	 * resize in flight an object can be on the chains of two arrays.
	 */
	struct bucket_table *tbl;
	unsigned long n = 0;
	unsigned int t = 0;

	rcu_read_lock();
	for (tbl = rht_dereference_rcu(ht->tbl, ht); tbl;
	     tbl = rht_dereference_rcu(tbl->future_tbl, ht), t++) {
		unsigned int i;

		for (i = 0; i < tbl->size; i++) {
			struct rhash_head *pos;

			rht_for_each_rcu(pos, tbl, i) {
				n++;
				if (fn(arg, pos, t, i))
					goto out;
			}
		}
	}
out:
	rcu_read_unlock();
	return n;
}

/* Bucket-array bytes of the current table(s); for memory figures. */
static inline unsigned long rht_test_table_size(struct rhashtable *ht)
{
	struct bucket_table *tbl;
	unsigned long size;

	rcu_read_lock();
	tbl = rht_dereference_rcu(ht->tbl, ht);
	size = tbl->size;
	rcu_read_unlock();
	return size;
}

/*
 * Explicit resizing, only in our implementation (the 3.17 API is back).
 * Return 0 or a -errno; the tests tolerate -EBUSY, -ENOMEM, -EINVAL,
 * -E2BIG and -ERANGE (already at the maximum/minimum size), anything else
 * fails them.  Defining RHT_TEST_HAVE_RESIZE makes the stress test run a
 * resizer thread and gives the fuzzer expand/shrink/rehash operations.
 */
#ifdef RHT_IMPL_OURS

/* The structural check of lib/rhashtable.c; 0 when all is well. */
static inline int rht_test_check_structure(struct rhashtable *ht)
{
	return rht_test_validate(ht);
}
#else
static inline int rht_test_check_structure(struct rhashtable *ht)
{
	return 0;
}
#endif

#ifdef RHT_IMPL_OURS
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
#endif

static inline bool rht_test_resize_err_ok(int err)
{
	return err == -EBUSY || err == -ENOMEM || err == -EINVAL ||
	       err == -E2BIG || err == -ERANGE;
}

#endif /* _RHT_COMPAT_H */
