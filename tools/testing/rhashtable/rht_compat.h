/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few places where the tests have to look behind the 6.12 public API.
 * What depends on the implementation comes from <rht_impl.h>; everything
 * else in the tests is plain 6.12 API.
 */
#ifndef _RHT_COMPAT_H
#define _RHT_COMPAT_H

#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <linux/rhashtable.h>
#include <linux/workqueue.h>
#include <linux/timer.h>
#include <rht_impl.h>

static inline double rht_test_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* An rhltable's nelems counts keys, not objects, in both (as in 6.12). */
#define RHT_TEST_RHL_COUNTS_OBJECTS	0

/* Is a resize in flight (more than one bucket array in use)? */
static inline bool rht_test_resizing(struct rhashtable *ht)
{
	bool busy;

	rcu_read_lock();
	busy = rht_impl_resizing(rht_dereference_rcu(ht->tbl, ht));
	rcu_read_unlock();
	return busy;
}

/*
 * Wait until no resize is queued, running or half-done, then take the
 * table's mutex so that none can start: the deferred worker and explicit
 * resizes serialise on it.  Assumes nobody inserts or removes meanwhile.
 * Undo with rht_test_unlock().
 */
static inline void rht_test_quiesce_lock(struct rhashtable *ht)
{
	/* RHT_TEST_STALL_S: more time under valgrind, which is ~50x slower */
	const char *limit_env = getenv("RHT_TEST_STALL_S");
	double limit = limit_env ? atof(limit_env) : 10;
	double since = rht_test_now();

	for (;;) {
		flush_work(&ht->run_work);
		rht_impl_kick(ht);
		mutex_lock(&ht->mutex);
		if (!rht_impl_resizing(rht_dereference(ht->tbl, ht)) &&
		    !work_pending(&ht->run_work))
			return;
		mutex_unlock(&ht->mutex);
		if (rht_test_now() - since > limit) {
			rht_impl_report_stuck(ht);
			sleep(1);
			rht_impl_report_stuck(ht);
			/* Nothing may kick it: a resize that stalls is a bug. */
			fprintf(stderr, "FAIL: resize did not finish within %g s\n",
				limit);
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

static inline bool rht_test_resize_err_ok(int err)
{
	return err == -EBUSY || err == -ENOMEM || err == -EINVAL ||
	       err == -E2BIG || err == -ERANGE;
}

#endif /* _RHT_COMPAT_H */
