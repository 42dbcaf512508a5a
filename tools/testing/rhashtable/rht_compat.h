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

#include <linux/rhashtable.h>
#include <linux/workqueue.h>

/* Number of elements the table believes it holds. */
static inline unsigned int rht_test_nelems(struct rhashtable *ht)
{
	/* HOOK(ours): replace if nelems stops being an atomic_t. */
	return atomic_read(&ht->nelems);
}

/*
 * Wait until no resize is queued, running or half-done, assuming nobody
 * inserts or removes meanwhile.
 */
static inline void rht_test_quiesce(struct rhashtable *ht)
{
	/* HOOK(ours): adapt if the deferred worker or future_tbl change. */
	for (;;) {
		struct bucket_table *tbl;
		bool busy;

		flush_work(&ht->run_work);
		rcu_read_lock();
		tbl = rht_dereference_rcu(ht->tbl, ht);
		busy = rht_dereference_rcu(tbl->future_tbl, ht) != NULL;
		rcu_read_unlock();
		if (!busy && !work_pending(&ht->run_work))
			return;
		rht_shim_cond_resched();
	}
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
	/* HOOK(ours): uses bucket_table internals of 6.12. */
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
 * HOOK(ours): explicit resizing.  Our implementation adds API to grow,
 * shrink and rehash on demand; once it exists, define
 * RHT_TEST_HAVE_RESIZE and map these three onto it.  The stress test
 * then runs a resizer thread and the fuzzer gains expand/shrink/rehash
 * operations.  Return 0 or a -errno; -EBUSY/-ENOMEM/-EINVAL/-E2BIG are
 * tolerated by the tests, anything else fails them.
 */
#if defined(RHT_IMPL_OURS) && defined(RHT_TEST_HAVE_RESIZE)
static inline int rht_test_expand(struct rhashtable *ht)
{
	return rhashtable_expand(ht);		/* HOOK(ours) */
}

static inline int rht_test_shrink(struct rhashtable *ht)
{
	return rhashtable_shrink(ht);		/* HOOK(ours) */
}

static inline int rht_test_rehash(struct rhashtable *ht)
{
	return rhashtable_rehash(ht);		/* HOOK(ours) */
}
#endif

#endif /* _RHT_COMPAT_H */
