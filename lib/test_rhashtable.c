// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the resizable, RCU-protected hash table.
 *
 * The suites:
 *  - rhashtable_seed: the 3.17 interface the table was merged with, one
 *    case per behaviour;
 *  - rhashtable: the 6.12 interface, rhltables, walks, nested bucket
 *    arrays, sizing and counting;
 *  - rhashtable_stress: readers, updaters and resizes at the same time;
 *    every case prints one "rht-stress" line, and a single-threaded
 *    workload prints the "rht-summary" line.
 *
 * Netlink's port ids, the table's first user, have a suite of their own in
 * net/netlink/portid_kunit.c.
 *
 * Test objects carry a visited counter, so that a traversal can be checked
 * to see each object exactly once.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/irq_work.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/rhashtable.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "rhashtable_test.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Keys with this bit hash to one bucket under rht_test_hostile_hash(). */
#define RHT_TEST_HOSTILE	BIT(30)
/* Keys with this bit are never inserted by any test. */
#define RHT_TEST_NEVER		BIT(31)

/* How long a poll for the worker may take before the test gives up. */
#define RHT_TEST_TIMEOUT_MS	30000

#define RHT_TEST_SITES		RHT_ALLOC_SITES

struct rht_test_obj {
	u32 key;
	u32 id;
	struct rhash_head node;
	int visited;
	int stamp;
	bool live;
};

struct rht_test_lobj {
	u32 key;
	u32 id;
	struct rhlist_head list;
	int visited;
	bool live;
};

/* A table and what its decision hooks aim for. */
struct rht_test_table {
	struct rhashtable ht;
	unsigned int target;
};

static const struct rhashtable_params rht_test_params = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct rht_test_obj, key),
	.head_offset = offsetof(struct rht_test_obj, node),
};

static const struct rhashtable_params rht_test_lparams = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct rht_test_lobj, key),
	.head_offset = offsetof(struct rht_test_lobj, list),
};

/* Sanitizers slow every access down: keep the stress cases short. */
static unsigned int rht_test_scale(unsigned int n)
{
	if (IS_ENABLED(CONFIG_KASAN) || IS_ENABLED(CONFIG_KCSAN))
		return max(n / 4, 1U);
	return n;
}

KUNIT_DEFINE_ACTION_WRAPPER(rht_test_vfree, vfree, const void *);
KUNIT_DEFINE_ACTION_WRAPPER(rht_test_destroy, rhashtable_destroy,
			    struct rhashtable *);
KUNIT_DEFINE_ACTION_WRAPPER(rht_test_rhl_destroy, rhltable_destroy,
			    struct rhltable *);

static void *rht_test_vzalloc(struct kunit *test, size_t n, size_t size)
{
	void *p = vzalloc(array_size(n, size));

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rht_test_vfree, p),
			0);
	return p;
}

/* @n objects with keys @key0, @key0 + 1, ... and ids 0, 1, ... */
static struct rht_test_obj *rht_test_objs(struct kunit *test, unsigned int n,
					  u32 key0)
{
	struct rht_test_obj *objs = rht_test_vzalloc(test, n, sizeof(*objs));
	unsigned int i;

	for (i = 0; i < n; i++) {
		objs[i].key = key0 + i;
		objs[i].id = i;
	}
	return objs;
}

static struct rht_test_lobj *rht_test_lobjs(struct kunit *test,
					    unsigned int n)
{
	return rht_test_vzalloc(test, n, sizeof(struct rht_test_lobj));
}

/* A table destroyed when the test ends, whatever way it ends. */
static struct rhashtable *rht_test_new(struct kunit *test,
				       const struct rhashtable_params *p)
{
	struct rht_test_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, rhashtable_init(&t->ht, p), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rht_test_destroy,
							&t->ht), 0);
	return &t->ht;
}

static struct rhltable *rht_test_new_rhl(struct kunit *test,
					 const struct rhashtable_params *p)
{
	struct rhltable *hlt = kunit_kzalloc(test, sizeof(*hlt), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, hlt);
	KUNIT_ASSERT_EQ(test, rhltable_init(hlt, p), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							rht_test_rhl_destroy,
							hlt), 0);
	return hlt;
}

static void rht_test_set_target(struct rhashtable *ht, unsigned int target)
{
	WRITE_ONCE(container_of(ht, struct rht_test_table, ht)->target, target);
}

/* Initialise a table that is expected to be refused; returns the error. */
static int rht_test_init_error(struct kunit *test,
			       const struct rhashtable_params *p)
{
	struct rhashtable *ht = kunit_kzalloc(test, sizeof(*ht), GFP_KERNEL);
	int err;

	KUNIT_ASSERT_NOT_NULL(test, ht);
	err = rhashtable_init(ht, p);
	if (!err)
		rhashtable_destroy(ht);
	return err;
}

static unsigned int rht_test_size(struct rhashtable *ht)
{
	unsigned int size;

	rcu_read_lock();
	size = rht_dereference_rcu(ht->tbl, ht)->size;
	rcu_read_unlock();
	return size;
}

/* The same, read the way the worker does, under the table's mutex. */
static unsigned int rht_test_size_locked(struct rhashtable *ht)
{
	unsigned int size;

	mutex_lock(&ht->mutex);
	size = rht_dereference(ht->tbl, ht)->size;
	mutex_unlock(&ht->mutex);
	return size;
}

static unsigned int rht_test_nest(struct rhashtable *ht)
{
	unsigned int nest;

	mutex_lock(&ht->mutex);
	nest = rht_dereference(ht->tbl, ht)->nest;
	mutex_unlock(&ht->mutex);
	return nest;
}

/* No resize is under way and none is queued. */
static bool rht_test_idle(struct rhashtable *ht)
{
	bool idle;

	mutex_lock(&ht->mutex);
	idle = !rht_test_resize_step(ht) && !work_pending(&ht->run_work);
	mutex_unlock(&ht->mutex);
	return idle;
}

static struct rhashtable_stats rht_test_stats(struct rhashtable *ht)
{
	struct rhashtable_stats st;

	rhashtable_get_stats(ht, &st);
	return st;
}

static unsigned long rht_test_resizes(struct rhashtable *ht)
{
	struct rhashtable_stats st = rht_test_stats(ht);

	return st.grows + st.shrinks + st.rehashes;
}

static bool rht_test_timed_out(unsigned long deadline)
{
	if (time_after(jiffies, deadline))
		return true;
	msleep(20);
	return false;
}

/* Wait until the worker has brought the table to @size buckets. */
static bool rht_test_wait_size(struct rhashtable *ht, unsigned int size)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(RHT_TEST_TIMEOUT_MS);

	while (rht_test_size(ht) != size || !rht_test_idle(ht))
		if (rht_test_timed_out(deadline))
			return false;
	return true;
}

/* Wait until the bucket array is flat (@nested false) or nested. */
static bool rht_test_wait_nested(struct rhashtable *ht, bool nested)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(RHT_TEST_TIMEOUT_MS);

	while (!rht_test_nest(ht) != !nested || !rht_test_idle(ht))
		if (rht_test_timed_out(deadline))
			return false;
	return true;
}

/* Let a worker that was kicked run, and any resize it started finish. */
static void rht_test_settle(struct rhashtable *ht)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(RHT_TEST_TIMEOUT_MS);

	do {
		flush_work(&ht->run_work);
	} while (!rht_test_idle(ht) && !rht_test_timed_out(deadline));
}

static struct rht_test_obj *rht_test_lookup(struct rhashtable *ht, u32 key)
{
	return rhashtable_lookup_fast(ht, &key, rht_test_params);
}

static void rht_test_insert_all(struct kunit *test, struct rhashtable *ht,
				struct rht_test_obj *objs, unsigned int n)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		err = rhashtable_insert_fast(ht, &objs[i].node, rht_test_params);
		KUNIT_ASSERT_EQ_MSG(test, err, 0, "insert of key %u", objs[i].key);
		objs[i].live = true;
	}
}

/* Every live object is found, every other one is not; returns misses. */
static unsigned int rht_test_check_lookups(struct rhashtable *ht,
					   struct rht_test_obj *objs,
					   unsigned int n)
{
	unsigned int i, bad = 0;

	for (i = 0; i < n; i++) {
		struct rht_test_obj *found = rht_test_lookup(ht, objs[i].key);

		if (found != (objs[i].live ? &objs[i] : NULL))
			bad++;
	}
	return bad;
}

static void rht_test_clear_visited(struct rht_test_obj *objs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		objs[i].visited = 0;
}

/*
 * Each live object was visited exactly once and no other object at all;
 * on failure the first offender is reported.
 */
static void rht_test_expect_visited_once(struct kunit *test,
					 struct rht_test_obj *objs,
					 unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (objs[i].visited == (objs[i].live ? 1 : 0))
			continue;
		KUNIT_FAIL(test, "key %u (%s) visited %d times", objs[i].key,
			   objs[i].live ? "present" : "absent",
			   objs[i].visited);
		return;
	}
}

/*
 * Visit every object reachable from the buckets of the current array,
 * and of newer arrays, once: objects already stamped @stamp are not
 * counted again (a doubling in progress lets two buckets share objects).
 * Returns the number of distinct objects.
 */
static unsigned int rht_test_count_reachable(struct rhashtable *ht, int stamp)
{
	struct bucket_table *tbl;
	struct rht_test_obj *obj;
	struct rhash_head *pos;
	unsigned int i, n = 0;

	rcu_read_lock();
	for (tbl = rht_dereference_rcu(ht->tbl, ht); tbl;
	     tbl = rht_dereference_rcu(tbl->future_tbl, ht)) {
		for (i = 0; i < tbl->size; i++) {
			rht_for_each_entry_rcu(obj, pos, tbl, i, node) {
				if (obj->stamp == stamp)
					continue;
				obj->stamp = stamp;
				obj->visited++;
				n++;
			}
		}
	}
	rcu_read_unlock();
	return n;
}

/* ------------------------------------------------------------------ */
/* The 3.17 interface                                                  */
/* ------------------------------------------------------------------ */

/* The lock a 3.17 user serialises its updates with. */
static DEFINE_MUTEX(rht_test_caller_mutex);
static atomic_t rht_test_caller_checks = ATOMIC_INIT(0);

static int rht_test_caller_mutex_held(void)
{
	atomic_inc(&rht_test_caller_checks);
#ifdef CONFIG_LOCKDEP
	return lockdep_is_held(&rht_test_caller_mutex);
#else
	return mutex_is_locked(&rht_test_caller_mutex);
#endif
}

static atomic_t rht_test_hash_calls = ATOMIC_INIT(0);

static u32 rht_test_counting_hash(const void *data, u32 len, u32 seed)
{
	atomic_inc(&rht_test_hash_calls);
	return jhash(data, len, seed);
}

/* The key is its own hash: tests choose which keys share a bucket. */
static u32 rht_test_identity_hash(const void *data, u32 len, u32 seed)
{
	return *(const u32 *)data;
}

static bool rht_test_never(const struct rhashtable *ht, size_t size)
{
	return false;
}

/* A hook that never wants a resize and counts how often it is asked. */
static atomic_t rht_test_hook_calls;

static bool rht_test_counted_never(const struct rhashtable *ht, size_t size)
{
	atomic_inc(&rht_test_hook_calls);
	return false;
}

/* Decision hooks that move the table towards rht_test_table.target. */
static bool rht_test_grow_to_target(const struct rhashtable *ht, size_t size)
{
	const struct rht_test_table *t;

	t = container_of_const(ht, struct rht_test_table, ht);
	return size < READ_ONCE(t->target);
}

static bool rht_test_shrink_to_target(const struct rhashtable *ht,
				      size_t size)
{
	const struct rht_test_table *t;

	t = container_of_const(ht, struct rht_test_table, ht);
	return size > READ_ONCE(t->target);
}

static const struct rhashtable_params rht_test_seed_params = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct rht_test_obj, key),
	.head_offset = offsetof(struct rht_test_obj, node),
	.hashfn = jhash,
	.mutex_is_held = rht_test_caller_mutex_held,
};

static int rht_test_seed_insert(struct rhashtable *ht,
				struct rht_test_obj *obj)
{
	int err;

	mutex_lock(&rht_test_caller_mutex);
	err = rhashtable_insert(ht, &obj->node);
	mutex_unlock(&rht_test_caller_mutex);
	if (!err)
		obj->live = true;
	return err;
}

static bool rht_test_seed_remove(struct rhashtable *ht,
				 struct rht_test_obj *obj)
{
	bool removed;

	mutex_lock(&rht_test_caller_mutex);
	removed = rhashtable_remove(ht, &obj->node);
	mutex_unlock(&rht_test_caller_mutex);
	if (removed)
		obj->live = false;
	return removed;
}

static void rht_test_seed_insert_all(struct kunit *test, struct rhashtable *ht,
				     struct rht_test_obj *objs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ_MSG(test, rht_test_seed_insert(ht, &objs[i]), 0,
				    "insert of key %u", objs[i].key);
}

/* Two-argument rhashtable_lookup(): the table's own parameters. */
static struct rht_test_obj *rht_test_seed_lookup(struct rhashtable *ht,
						 u32 key)
{
	struct rht_test_obj *obj;

	rcu_read_lock();
	obj = rhashtable_lookup(ht, &key);
	rcu_read_unlock();
	return obj;
}

static unsigned int rht_test_seed_check_lookups(struct rhashtable *ht,
						struct rht_test_obj *objs,
						unsigned int n)
{
	unsigned int i, bad = 0;

	for (i = 0; i < n; i++)
		if (rht_test_seed_lookup(ht, objs[i].key) !=
		    (objs[i].live ? &objs[i] : NULL))
			bad++;
	return bad;
}

/*
 * The link that points at @obj, found the way a 3.17 user finds it: by
 * walking the object's chain under its own lock.  NULL if not found.
 * Caller holds rht_test_caller_mutex and the RCU read lock.
 */
static struct rhash_head __rcu **rht_test_find_pprev(struct rhashtable *ht,
						     struct rht_test_obj *obj)
{
	struct rhash_lock_head __rcu **bkt;
	struct rhash_head __rcu **pprev;
	struct bucket_table *tbl;
	struct rht_test_obj *pos;
	u32 hash;

	tbl = rht_dereference(ht->tbl, ht);
	hash = rhashtable_hashfn(ht, &obj->key, sizeof(obj->key));
	bkt = rht_bucket_var(tbl, rht_bucket_index(tbl, hash));
	pprev = (struct rhash_head __rcu **)bkt;
	rht_for_each_entry(pos, rht_ptr_rcu(bkt), node) {
		if (pos == obj)
			return pprev;
		pprev = &pos->node.next;
	}
	return NULL;
}

static void rht_test_seed_init_sizes_first_array_from_nelem_hint(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rhashtable *ht;

	p.nelem_hint = 100;
	ht = rht_test_new(test, &p);
	/* 100 objects at no more than 75% load need 134 buckets: 256. */
	KUNIT_EXPECT_EQ(test, rht_test_size_locked(ht), 256U);
}

static void rht_test_seed_init_uses_hash_rnd_as_seed(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rhashtable *ht;
	u32 key = 42, seed, hash;

	p.hash_rnd = 0x1234abcd;
	ht = rht_test_new(test, &p);
	rcu_read_lock();
	seed = rht_dereference_rcu(ht->tbl, ht)->hash_rnd;
	hash = rhashtable_hashfn(ht, &key, sizeof(key));
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, seed, 0x1234abcdU);
	KUNIT_EXPECT_EQ(test, hash, jhash(&key, sizeof(key), 0x1234abcd));
}

static void rht_test_seed_init_uses_custom_hashfn(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rht_test_obj *objs = rht_test_objs(test, 4, 1);
	struct rhashtable *ht;
	int before;

	p.hashfn = rht_test_counting_hash;
	ht = rht_test_new(test, &p);
	before = atomic_read(&rht_test_hash_calls);
	rht_test_seed_insert_all(test, ht, objs, 4);
	KUNIT_EXPECT_GE(test, atomic_read(&rht_test_hash_calls) - before, 4);
	before = atomic_read(&rht_test_hash_calls);
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(ht, objs, 4), 0U);
	KUNIT_EXPECT_GE(test, atomic_read(&rht_test_hash_calls) - before, 4);
}

static atomic_t rht_test_obj_hash_calls = ATOMIC_INIT(0);

/* Hashes the object's key the way a lookup hashes a key alone. */
static u32 rht_test_obj_hash(const void *data, u32 len, u32 seed)
{
	const struct rht_test_obj *obj = data;

	atomic_inc(&rht_test_obj_hash_calls);
	return jhash2(&obj->key, 1, seed);
}

static int rht_test_obj_cmp(struct rhashtable_compare_arg *arg,
			    const void *ptr)
{
	const struct rht_test_obj *obj = ptr;

	return obj->key != *(const u32 *)arg->key;
}

static const struct rhashtable_params rht_test_objhash_params = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct rht_test_obj, key),
	.head_offset = offsetof(struct rht_test_obj, node),
	.obj_hashfn = rht_test_obj_hash,
	.obj_cmpfn = rht_test_obj_cmp,
};

static void rht_test_seed_init_uses_obj_hashfn_for_objects(struct kunit *test)
{
	struct rhashtable_params p = rht_test_objhash_params;
	struct rht_test_obj *objs = rht_test_objs(test, 8, 500);
	struct rhashtable *ht;
	int before;

	p.mutex_is_held = rht_test_caller_mutex_held;
	ht = rht_test_new(test, &p);
	before = atomic_read(&rht_test_obj_hash_calls);
	rht_test_seed_insert_all(test, ht, objs, 8);
	KUNIT_EXPECT_GE(test, atomic_read(&rht_test_obj_hash_calls) - before,
			8);
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(ht, objs, 8), 0U);
	KUNIT_EXPECT_TRUE(test, rht_test_seed_remove(ht, &objs[3]));
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(ht, objs, 8), 0U);
}

static void rht_test_seed_init_max_shift_bounds_size(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rhashtable *ht;

	p.max_shift = 4;
	ht = rht_test_new(test, &p);
	KUNIT_EXPECT_EQ(test, rht_test_size_locked(ht), 16U);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(ht), -E2BIG);
	KUNIT_EXPECT_EQ(test, rhashtable_shrink(ht), 0);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(ht), 0);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(ht), -E2BIG);
	KUNIT_EXPECT_EQ(test, rht_test_size_locked(ht), 16U);
}

static void rht_test_init_rejects_no_key_len_and_no_obj_hashfn(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;

	p.key_len = 0;
	KUNIT_EXPECT_EQ(test, rht_test_init_error(test, &p), -EINVAL);
}

static void rht_test_init_rejects_obj_hashfn_without_obj_cmpfn(struct kunit *test)
{
	struct rhashtable_params p = rht_test_objhash_params;

	p.obj_cmpfn = NULL;
	KUNIT_EXPECT_EQ(test, rht_test_init_error(test, &p), -EINVAL);
}

static void rht_test_init_rejects_min_size_above_max_size(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;

	p.min_size = 256;
	p.max_size = 128;
	KUNIT_EXPECT_EQ(test, rht_test_init_error(test, &p), -EINVAL);
	/* Rounded to powers of two, min up and max down, they cross. */
	p.min_size = 5;
	p.max_size = 6;
	KUNIT_EXPECT_EQ(test, rht_test_init_error(test, &p), -EINVAL);
	p.max_size = 8;
	KUNIT_EXPECT_EQ(test, rht_test_init_error(test, &p), 0);
	/* Both below the smallest array: both become it. */
	p.min_size = 3;
	p.max_size = 3;
	KUNIT_EXPECT_EQ(test, rht_test_init_error(test, &p), 0);
}

static void rht_test_init_rejects_min_size_above_max_shift(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;

	p.min_size = 64;
	p.max_shift = 5;
	KUNIT_EXPECT_EQ(test, rht_test_init_error(test, &p), -EINVAL);
}

static void rht_test_init_rejects_max_shift_above_30(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;

	p.max_shift = 31;
	KUNIT_EXPECT_EQ(test, rht_test_init_error(test, &p), -EINVAL);
	p.max_shift = 30;
	KUNIT_EXPECT_EQ(test, rht_test_init_error(test, &p), 0);
}

static void rht_test_rhltable_init_rejects_bad_params(struct kunit *test)
{
	struct rhltable *hlt = kunit_kzalloc(test, sizeof(*hlt), GFP_KERNEL);
	struct rhashtable_params p = rht_test_lparams;

	KUNIT_ASSERT_NOT_NULL(test, hlt);
	p.key_len = 0;
	KUNIT_EXPECT_EQ(test, rhltable_init(hlt, &p), -EINVAL);
}

static void rht_test_seed_insert_returns_zero_and_lookup_finds(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 16, 100);
	struct rhashtable *ht = rht_test_new(test, &rht_test_seed_params);
	unsigned int i;

	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, rht_test_seed_insert(ht, &objs[i]), 0);
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(ht, objs, 16), 0U);
	KUNIT_EXPECT_NULL(test, rht_test_seed_lookup(ht, 99));
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 16U);
}

static void rht_test_seed_insert_accepts_duplicate_keys(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 2, 7);
	struct rhashtable *ht = rht_test_new(test, &rht_test_seed_params);
	struct rht_test_obj *found, *other;

	objs[1].key = 7;
	rht_test_seed_insert_all(test, ht, objs, 2);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 2U);
	found = rht_test_seed_lookup(ht, 7);
	KUNIT_ASSERT_TRUE(test, found == &objs[0] || found == &objs[1]);
	KUNIT_EXPECT_TRUE(test, rht_test_seed_remove(ht, found));
	other = rht_test_seed_lookup(ht, 7);
	KUNIT_ASSERT_TRUE(test, other == &objs[0] || other == &objs[1]);
	KUNIT_EXPECT_PTR_NE(test, other, found);
	KUNIT_EXPECT_TRUE(test, rht_test_seed_remove(ht, other));
	KUNIT_EXPECT_NULL(test, rht_test_seed_lookup(ht, 7));
}

static void rht_test_seed_remove_returns_true_then_false(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 4, 10);
	struct rhashtable *ht = rht_test_new(test, &rht_test_seed_params);

	rht_test_seed_insert_all(test, ht, objs, 4);
	KUNIT_EXPECT_TRUE(test, rht_test_seed_remove(ht, &objs[2]));
	KUNIT_EXPECT_FALSE(test, rht_test_seed_remove(ht, &objs[2]));
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(ht, objs, 4), 0U);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 3U);
}

/* Keys 1, 65, 129 and 193 share bucket 1 of a 64-bucket table. */
static const struct rhashtable_params rht_test_chain_params = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct rht_test_obj, key),
	.head_offset = offsetof(struct rht_test_obj, node),
	.hashfn = rht_test_identity_hash,
	.min_size = 64,
	.max_size = 64,
	.mutex_is_held = rht_test_caller_mutex_held,
};

/*
 * A table holding @n objects in one chain.  The objects are allocated
 * first so that they outlive the table, whose destruction may finish a
 * resize and touch them.
 */
static struct rhashtable *rht_test_chain(struct kunit *test,
					 struct rht_test_obj **objs,
					 unsigned int n)
{
	struct rhashtable *ht;
	unsigned int i;

	*objs = rht_test_objs(test, n, 0);
	for (i = 0; i < n; i++)
		(*objs)[i].key = 1 + 64 * i;
	ht = rht_test_new(test, &rht_test_chain_params);
	rht_test_seed_insert_all(test, ht, *objs, n);
	return ht;
}

/* Remove @obj through the link found by walking its chain. */
static bool rht_test_remove_by_pprev(struct rhashtable *ht,
				     struct rht_test_obj *obj, bool *at_head)
{
	struct rhash_head __rcu **pprev;

	mutex_lock(&rht_test_caller_mutex);
	rcu_read_lock();
	pprev = rht_test_find_pprev(ht, obj);
	if (pprev) {
		*at_head = pprev == (struct rhash_head __rcu **)
			rht_bucket_var(rht_dereference(ht->tbl, ht),
				       obj->key & 63);
		rhashtable_remove_pprev(ht, &obj->node, pprev);
		obj->live = false;
	}
	rcu_read_unlock();
	mutex_unlock(&rht_test_caller_mutex);
	return pprev;
}

static void rht_test_seed_remove_pprev_unlinks_inside_chain(struct kunit *test)
{
	struct rht_test_obj *objs;
	struct rhashtable *ht = rht_test_chain(test, &objs, 4);
	unsigned int i, inside = 0;
	bool at_head;

	/* New objects go first: keys 193, 129, 65, 1 in chain order. */
	for (i = 1; i < 3; i++) {
		KUNIT_ASSERT_TRUE(test, rht_test_remove_by_pprev(ht, &objs[i],
								 &at_head));
		inside += !at_head;
		KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(ht, objs, 4),
				0U);
	}
	KUNIT_EXPECT_EQ(test, inside, 2U);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 2U);
}

static void rht_test_seed_remove_pprev_at_chain_head(struct kunit *test)
{
	struct rht_test_obj *objs;
	struct rhashtable *ht = rht_test_chain(test, &objs, 3);
	bool at_head = false;

	KUNIT_ASSERT_TRUE(test, rht_test_remove_by_pprev(ht, &objs[2],
							 &at_head));
	KUNIT_EXPECT_TRUE(test, at_head);
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(ht, objs, 3), 0U);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 2U);
}

static void rht_test_seed_remove_pprev_with_stale_link(struct kunit *test)
{
	struct rht_test_obj *objs;
	struct rhashtable *ht = rht_test_chain(test, &objs, 3);

	/* objs[0] ends the chain: its link points at no object. */
	mutex_lock(&rht_test_caller_mutex);
	rhashtable_remove_pprev(ht, &objs[1].node, &objs[0].node.next);
	mutex_unlock(&rht_test_caller_mutex);
	objs[1].live = false;
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(ht, objs, 3), 0U);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 2U);
}

static void rht_test_seed_expand_doubles_bucket_count(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 40, 1000);
	struct rhashtable *ht = rht_test_new(test, &rht_test_seed_params);
	struct rhashtable_stats before, after;

	rht_test_seed_insert_all(test, ht, objs, 40);
	before = rht_test_stats(ht);
	KUNIT_ASSERT_EQ(test, rht_test_size_locked(ht), 64U);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(ht), 0);
	KUNIT_EXPECT_EQ(test, rht_test_size_locked(ht), 128U);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(ht), 0);
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 256U);
	after = rht_test_stats(ht);
	KUNIT_EXPECT_EQ(test, after.grows - before.grows, 2UL);
	KUNIT_EXPECT_GT(test, after.unzip_passes, before.unzip_passes);
	KUNIT_EXPECT_EQ(test, after.rehashes, before.rehashes);
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(ht, objs, 40), 0U);
	KUNIT_EXPECT_EQ(test, rht_test_count_reachable(ht, 1), 40U);
	rht_test_expect_visited_once(test, objs, 40);
}

static void rht_test_seed_shrink_halves_bucket_count(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 10, 1000);
	struct rhashtable *ht = rht_test_new(test, &rht_test_seed_params);
	struct rhashtable_stats before, after;

	rht_test_seed_insert_all(test, ht, objs, 10);
	before = rht_test_stats(ht);
	KUNIT_EXPECT_EQ(test, rhashtable_shrink(ht), 0);
	KUNIT_EXPECT_EQ(test, rht_test_size_locked(ht), 32U);
	KUNIT_EXPECT_EQ(test, rhashtable_shrink(ht), 0);
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 16U);
	after = rht_test_stats(ht);
	KUNIT_EXPECT_EQ(test, after.shrinks - before.shrinks, 2UL);
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(ht, objs, 10), 0U);
	KUNIT_EXPECT_EQ(test, rht_test_count_reachable(ht, 1), 10U);
	rht_test_expect_visited_once(test, objs, 10);
}

static void rht_test_seed_expand_at_max_size_returns_e2big(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rhashtable *ht;

	p.max_size = 128;
	ht = rht_test_new(test, &p);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(ht), 0);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(ht), -E2BIG);
	KUNIT_EXPECT_EQ(test, rht_test_size_locked(ht), 128U);
}

static void rht_test_seed_shrink_at_min_size_returns_erange(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rhashtable *ht;

	p.min_size = 32;
	ht = rht_test_new(test, &p);
	KUNIT_EXPECT_EQ(test, rhashtable_shrink(ht), 0);
	KUNIT_EXPECT_EQ(test, rhashtable_shrink(ht), -ERANGE);
	KUNIT_EXPECT_EQ(test, rht_test_size_locked(ht), 32U);
}

static void rht_test_seed_resizes_keep_every_object(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 200, 3000);
	struct rhashtable *ht = rht_test_new(test, &rht_test_seed_params);
	static const int steps[] = { 1, 1, -1, 1, -1, -1, -1, -1, 1 };
	unsigned int i;

	rht_test_seed_insert_all(test, ht, objs, 200);
	rht_test_settle(ht);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		int err = steps[i] > 0 ? rhashtable_expand(ht) :
					 rhashtable_shrink(ht);

		KUNIT_EXPECT_EQ_MSG(test, err, 0, "step %u", i);
		KUNIT_EXPECT_EQ_MSG(test,
				    rht_test_seed_check_lookups(ht, objs, 200),
				    0U, "step %u", i);
		rht_test_clear_visited(objs, 200);
		KUNIT_EXPECT_EQ(test, rht_test_count_reachable(ht, i + 1), 200U);
		rht_test_expect_visited_once(test, objs, 200);
	}
}

static bool rht_test_compare_key(void *ptr, void *arg)
{
	struct rht_test_obj *obj = ptr;

	obj->visited++;
	return obj->key == *(u32 *)arg;
}

static struct rht_test_obj *rht_test_lookup_compare(struct rhashtable *ht,
						    u32 key)
{
	struct rht_test_obj *obj;

	rcu_read_lock();
	obj = rhashtable_lookup_compare(ht, rhashtable_hashfn(ht, &key,
							      sizeof(key)),
					rht_test_compare_key, &key);
	rcu_read_unlock();
	return obj;
}

static void rht_test_seed_lookup_compare_uses_caller_compare(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 32, 77);
	struct rhashtable *ht = rht_test_new(test, &rht_test_seed_params);
	unsigned int i, compared = 0;

	rht_test_seed_insert_all(test, ht, objs, 32);
	for (i = 0; i < 32; i++)
		KUNIT_EXPECT_PTR_EQ(test, rht_test_lookup_compare(ht, objs[i].key),
				    &objs[i]);
	KUNIT_EXPECT_NULL(test, rht_test_lookup_compare(ht, 5));
	for (i = 0; i < 32; i++)
		compared += objs[i].visited;
	/* Each lookup asked at least about the object it found. */
	KUNIT_EXPECT_GE(test, compared, 32U);
}

static void rht_test_seed_grow_above_75_thresholds(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rht_test_obj *objs = rht_test_objs(test, 49, 1);
	struct rhashtable *ht;

	p.grow_decision = rht_test_never;
	p.shrink_decision = rht_test_never;
	ht = rht_test_new(test, &p);
	rht_test_seed_insert_all(test, ht, objs, 48);
	KUNIT_EXPECT_FALSE(test, rht_grow_above_75(ht, (size_t)64));
	KUNIT_EXPECT_TRUE(test, rht_grow_above_75(ht, (size_t)32));
	KUNIT_EXPECT_EQ(test, rht_test_seed_insert(ht, &objs[48]), 0);
	KUNIT_EXPECT_TRUE(test, rht_grow_above_75(ht, (size_t)64));
	KUNIT_EXPECT_FALSE(test, rht_grow_above_75(ht, (size_t)128));
	/* The decisions were never taken: the table kept its size. */
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 64U);
}

static void rht_test_seed_grow_above_75_respects_max_size(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rht_test_obj *objs = rht_test_objs(test, 60, 1);
	struct rhashtable *ht;

	p.grow_decision = rht_test_never;
	p.max_size = 64;
	ht = rht_test_new(test, &p);
	rht_test_seed_insert_all(test, ht, objs, 60);
	KUNIT_EXPECT_FALSE(test, rht_grow_above_75(ht, (size_t)64));
	KUNIT_EXPECT_TRUE(test, rht_grow_above_75(ht, (size_t)32));
}

static void rht_test_seed_shrink_below_30_thresholds(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rht_test_obj *objs = rht_test_objs(test, 19, 1);
	struct rhashtable *ht;

	p.shrink_decision = rht_test_never;
	p.min_size = 16;
	ht = rht_test_new(test, &p);
	rht_test_seed_insert_all(test, ht, objs, 18);
	/* 30% of 64 buckets is 19.2, taken as 19 */
	KUNIT_EXPECT_TRUE(test, rht_shrink_below_30(ht, (size_t)64));
	KUNIT_EXPECT_EQ(test, rht_test_seed_insert(ht, &objs[18]), 0);
	KUNIT_EXPECT_FALSE(test, rht_shrink_below_30(ht, (size_t)64));
	KUNIT_EXPECT_TRUE(test, rht_shrink_below_30(ht, (size_t)128));
	/* Never below the minimum size. */
	KUNIT_EXPECT_FALSE(test, rht_shrink_below_30(ht, (size_t)16));
}

/* The same names called 6.12-style, with the bucket array. */
static void rht_test_grow_and_shrink_checks_take_bucket_table(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rht_test_obj *objs = rht_test_objs(test, 49, 1);
	bool grow48, grow49, shrink18, shrink19;
	struct bucket_table *tbl;
	struct rhashtable *ht;

	p.grow_decision = rht_test_never;
	p.shrink_decision = rht_test_never;
	ht = rht_test_new(test, &p);
	rht_test_seed_insert_all(test, ht, objs, 18);
	mutex_lock(&ht->mutex);
	tbl = rht_dereference(ht->tbl, ht);
	shrink18 = rht_shrink_below_30(ht, tbl);
	mutex_unlock(&ht->mutex);
	KUNIT_EXPECT_EQ(test, rht_test_seed_insert(ht, &objs[18]), 0);
	mutex_lock(&ht->mutex);
	tbl = rht_dereference(ht->tbl, ht);
	shrink19 = rht_shrink_below_30(ht, tbl);
	mutex_unlock(&ht->mutex);
	rht_test_seed_insert_all(test, ht, objs + 19, 29);
	rcu_read_lock();
	tbl = rht_dereference_rcu(ht->tbl, ht);
	grow48 = rht_grow_above_75(ht, tbl);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, rht_test_seed_insert(ht, &objs[48]), 0);
	rcu_read_lock();
	tbl = rht_dereference_rcu(ht->tbl, ht);
	grow49 = rht_grow_above_75(ht, (const struct bucket_table *)tbl);
	rcu_read_unlock();
	KUNIT_EXPECT_TRUE(test, shrink18);
	KUNIT_EXPECT_FALSE(test, shrink19);
	KUNIT_EXPECT_FALSE(test, grow48);
	KUNIT_EXPECT_TRUE(test, grow49);
}

static void rht_test_seed_grow_decision_hook_grows_table(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rht_test_obj *objs = rht_test_objs(test, 49, 1);
	struct rhashtable *ht;
	unsigned long grows;

	p.grow_decision = rht_grow_above_75;
	p.shrink_decision = rht_shrink_below_30;
	ht = rht_test_new(test, &p);
	grows = rht_test_stats(ht).grows;
	rht_test_seed_insert_all(test, ht, objs, 49);
	KUNIT_EXPECT_TRUE(test, rht_test_wait_size(ht, 128));
	KUNIT_EXPECT_EQ(test, rht_test_stats(ht).grows - grows, 1UL);
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(ht, objs, 49), 0U);
}

static void rht_test_seed_shrink_decision_hook_shrinks_table(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rht_test_obj *objs = rht_test_objs(test, 49, 1);
	struct rhashtable *ht;
	unsigned long shrinks;
	unsigned int i;

	p.grow_decision = rht_grow_above_75;
	p.shrink_decision = rht_shrink_below_30;
	ht = rht_test_new(test, &p);
	rht_test_seed_insert_all(test, ht, objs, 49);
	KUNIT_ASSERT_TRUE(test, rht_test_wait_size(ht, 128));
	shrinks = rht_test_stats(ht).shrinks;
	/* 10 objects: below 30% of 128 and of 64, not of 32. */
	for (i = 10; i < 49; i++)
		KUNIT_EXPECT_TRUE(test, rht_test_seed_remove(ht, &objs[i]));
	KUNIT_EXPECT_TRUE(test, rht_test_wait_size(ht, 32));
	KUNIT_EXPECT_EQ(test, rht_test_stats(ht).shrinks - shrinks, 2UL);
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(ht, objs, 49), 0U);
}

static void rht_test_seed_custom_grow_decision_forces_growth(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rht_test_obj *objs = rht_test_objs(test, 1, 1);
	struct rhashtable *ht;
	unsigned long grows;

	p.grow_decision = rht_test_grow_to_target;
	p.shrink_decision = rht_test_shrink_to_target;
	ht = rht_test_new(test, &p);
	grows = rht_test_stats(ht).grows;
	rht_test_set_target(ht, 1024);
	/* One insert asks the hook, which wants four doublings. */
	rht_test_seed_insert_all(test, ht, objs, 1);
	KUNIT_EXPECT_TRUE(test, rht_test_wait_size(ht, 1024));
	KUNIT_EXPECT_EQ(test, rht_test_stats(ht).grows - grows, 4UL);
	KUNIT_EXPECT_PTR_EQ(test, rht_test_seed_lookup(ht, 1), &objs[0]);
}

/*
 * The inline 6.12 update paths never ask the 3.17 hooks (so that a table
 * without them pays nothing): far below the 6.12 thresholds they wake no
 * worker either, and nobody asks.  The 3.17 calls ask the hooks at once.
 */
static void rht_test_seed_fast_updates_leave_hooks_to_worker(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rht_test_obj *objs = rht_test_objs(test, 2, 1);
	struct rhashtable *ht;

	p.grow_decision = rht_test_counted_never;
	p.shrink_decision = rht_test_counted_never;
	ht = rht_test_new(test, &p);
	atomic_set(&rht_test_hook_calls, 0);
	KUNIT_ASSERT_EQ(test, rhashtable_insert_fast(ht, &objs[0].node, p), 0);
	KUNIT_ASSERT_EQ(test, rhashtable_remove_fast(ht, &objs[0].node, p), 0);
	flush_work(&ht->run_work);
	KUNIT_EXPECT_EQ(test, atomic_read(&rht_test_hook_calls), 0);
	KUNIT_EXPECT_EQ(test, rht_test_seed_insert(ht, &objs[1]), 0);
	KUNIT_EXPECT_GE(test, atomic_read(&rht_test_hook_calls), 1);
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 64U);
}

static void rht_test_seed_custom_shrink_decision_forces_shrink(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rht_test_obj *objs = rht_test_objs(test, 2, 1);
	struct rhashtable *ht;
	unsigned long shrinks;

	p.nelem_hint = 300;
	p.grow_decision = rht_test_grow_to_target;
	p.shrink_decision = rht_test_shrink_to_target;
	ht = rht_test_new(test, &p);
	rht_test_set_target(ht, 512);
	KUNIT_ASSERT_EQ(test, rht_test_size(ht), 512U);
	rht_test_seed_insert_all(test, ht, objs, 2);
	shrinks = rht_test_stats(ht).shrinks;
	rht_test_set_target(ht, 8);
	/* A remove asks the hook, which wants six halvings. */
	KUNIT_EXPECT_TRUE(test, rht_test_seed_remove(ht, &objs[1]));
	KUNIT_EXPECT_TRUE(test, rht_test_wait_size(ht, 8));
	KUNIT_EXPECT_EQ(test, rht_test_stats(ht).shrinks - shrinks, 6UL);
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(ht, objs, 2), 0U);
}

/*
 * The 3.17 traversal macros, given a chain head, under the caller's lock
 * and the RCU read lock.
 */
static void rht_test_seed_chain_walk_visits_each_object_once(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 30, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_seed_params);
	struct bucket_table *tbl;
	struct rhash_head *pos;
	unsigned int i;

	rht_test_seed_insert_all(test, ht, objs, 30);
	mutex_lock(&rht_test_caller_mutex);
	rcu_read_lock();
	tbl = rht_dereference(ht->tbl, ht);
	for (i = 0; i < tbl->size; i++)
		rht_for_each(pos, rht_ptr_rcu(rht_bucket(tbl, i)))
			container_of(pos, struct rht_test_obj, node)->visited++;
	rcu_read_unlock();
	mutex_unlock(&rht_test_caller_mutex);
	rht_test_expect_visited_once(test, objs, 30);
}

static void rht_test_seed_entry_walk_visits_each_object_once(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 30, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_seed_params);
	struct bucket_table *tbl;
	struct rht_test_obj *obj;
	unsigned int i;

	rht_test_seed_insert_all(test, ht, objs, 30);
	mutex_lock(&rht_test_caller_mutex);
	rcu_read_lock();
	tbl = rht_dereference(ht->tbl, ht);
	for (i = 0; i < tbl->size; i++)
		rht_for_each_entry(obj, rht_ptr_rcu(rht_bucket(tbl, i)), node)
			obj->visited++;
	rcu_read_unlock();
	mutex_unlock(&rht_test_caller_mutex);
	rht_test_expect_visited_once(test, objs, 30);
}

static void rht_test_seed_safe_entry_walk_allows_removal(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 30, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_seed_params);
	struct rht_test_obj *obj, *next, *expected;
	unsigned int i, wrong_next = 0, failed = 0;
	struct bucket_table *tbl;

	rht_test_seed_insert_all(test, ht, objs, 30);
	mutex_lock(&rht_test_caller_mutex);
	rcu_read_lock();
	tbl = rht_dereference(ht->tbl, ht);
	for (i = 0; i < tbl->size; i++) {
		expected = NULL;
		rht_for_each_entry_safe(obj, next,
					rht_ptr_rcu(rht_bucket(tbl, i)), node) {
			if (expected && obj != expected)
				wrong_next++;
			expected = next;
			obj->visited++;
			if (rhashtable_remove(ht, &obj->node))
				obj->live = false;
			else
				failed++;
		}
		if (expected)
			wrong_next++;
	}
	rcu_read_unlock();
	mutex_unlock(&rht_test_caller_mutex);
	KUNIT_EXPECT_EQ(test, wrong_next, 0U);
	KUNIT_EXPECT_EQ(test, failed, 0U);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 0U);
	for (i = 0; i < 30; i++)
		KUNIT_EXPECT_EQ(test, objs[i].visited, 1);
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(ht, objs, 30), 0U);
}

static void rht_test_seed_rcu_chain_walk_visits_each_object_once(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 30, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_seed_params);
	struct bucket_table *tbl;
	struct rhash_head *pos;
	unsigned int i;

	rht_test_seed_insert_all(test, ht, objs, 30);
	rcu_read_lock();
	tbl = rht_dereference_rcu(ht->tbl, ht);
	for (i = 0; i < tbl->size; i++)
		rht_for_each_rcu(pos, rht_ptr_rcu(rht_bucket(tbl, i)))
			container_of(pos, struct rht_test_obj, node)->visited++;
	rcu_read_unlock();
	rht_test_expect_visited_once(test, objs, 30);
}

static void rht_test_seed_rcu_entry_walk_visits_each_object_once(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 30, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_seed_params);
	struct bucket_table *tbl;
	struct rht_test_obj *obj;
	unsigned int i;

	rht_test_seed_insert_all(test, ht, objs, 30);
	rcu_read_lock();
	tbl = rht_dereference_rcu(ht->tbl, ht);
	for (i = 0; i < tbl->size; i++)
		rht_for_each_entry_rcu(obj, rht_ptr_rcu(rht_bucket(tbl, i)),
				       node)
			obj->visited++;
	rcu_read_unlock();
	rht_test_expect_visited_once(test, objs, 30);
}

static void rht_test_seed_mutex_is_held_hook_is_asked(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 2, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_seed_params);
	int before;

	if (!IS_ENABLED(CONFIG_PROVE_LOCKING) || !debug_locks)
		kunit_skip(test, "the hook is only asked under lockdep");
	before = atomic_read(&rht_test_caller_checks);
	rht_test_seed_insert_all(test, ht, objs, 2);
	KUNIT_EXPECT_TRUE(test, rht_test_seed_remove(ht, &objs[0]));
	KUNIT_EXPECT_GE(test, atomic_read(&rht_test_caller_checks) - before, 2);
}

static void rht_test_seed_mutex_is_held_hook_vouches_for_caller(struct kunit *test)
{
	struct rhashtable *ht = rht_test_new(test, &rht_test_seed_params);
	struct bucket_table *tbl;
	int held, unheld;

	if (!IS_ENABLED(CONFIG_PROVE_LOCKING) || !debug_locks)
		kunit_skip(test, "the hook is only asked under lockdep");
	unheld = lockdep_rht_mutex_is_held(ht);
	mutex_lock(&rht_test_caller_mutex);
	held = lockdep_rht_mutex_is_held(ht);
	/* rht_dereference() accepts the caller's lock instead of ht->mutex. */
	tbl = rht_dereference(ht->tbl, ht);
	mutex_unlock(&rht_test_caller_mutex);
	KUNIT_EXPECT_EQ(test, unheld, 0);
	KUNIT_EXPECT_NE(test, held, 0);
	KUNIT_EXPECT_EQ(test, tbl->size, 64U);
}

static void rht_test_seed_insert_returns_e2big_at_max_elems(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rht_test_obj *objs = rht_test_objs(test, 17, 1);
	struct rhashtable *ht;

	/* Eight buckets at most: twice as many objects. */
	p.max_shift = 3;
	ht = rht_test_new(test, &p);
	rht_test_seed_insert_all(test, ht, objs, 16);
	KUNIT_EXPECT_EQ(test, rht_test_seed_insert(ht, &objs[16]), -E2BIG);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 16U);
	KUNIT_EXPECT_TRUE(test, rht_test_seed_remove(ht, &objs[0]));
	KUNIT_EXPECT_EQ(test, rht_test_seed_insert(ht, &objs[16]), 0);
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(ht, objs, 17), 0U);
}

static struct kunit_case rht_seed_test_cases[] = {
	KUNIT_CASE(rht_test_seed_init_sizes_first_array_from_nelem_hint),
	KUNIT_CASE(rht_test_seed_init_uses_hash_rnd_as_seed),
	KUNIT_CASE(rht_test_seed_init_uses_custom_hashfn),
	KUNIT_CASE(rht_test_seed_init_uses_obj_hashfn_for_objects),
	KUNIT_CASE(rht_test_seed_init_max_shift_bounds_size),
	KUNIT_CASE(rht_test_init_rejects_no_key_len_and_no_obj_hashfn),
	KUNIT_CASE(rht_test_init_rejects_obj_hashfn_without_obj_cmpfn),
	KUNIT_CASE(rht_test_init_rejects_min_size_above_max_size),
	KUNIT_CASE(rht_test_init_rejects_min_size_above_max_shift),
	KUNIT_CASE(rht_test_init_rejects_max_shift_above_30),
	KUNIT_CASE(rht_test_rhltable_init_rejects_bad_params),
	KUNIT_CASE(rht_test_seed_insert_returns_zero_and_lookup_finds),
	KUNIT_CASE(rht_test_seed_insert_accepts_duplicate_keys),
	KUNIT_CASE(rht_test_seed_remove_returns_true_then_false),
	KUNIT_CASE(rht_test_seed_remove_pprev_unlinks_inside_chain),
	KUNIT_CASE(rht_test_seed_remove_pprev_at_chain_head),
	KUNIT_CASE(rht_test_seed_remove_pprev_with_stale_link),
	KUNIT_CASE(rht_test_seed_expand_doubles_bucket_count),
	KUNIT_CASE(rht_test_seed_shrink_halves_bucket_count),
	KUNIT_CASE(rht_test_seed_expand_at_max_size_returns_e2big),
	KUNIT_CASE(rht_test_seed_shrink_at_min_size_returns_erange),
	KUNIT_CASE(rht_test_seed_resizes_keep_every_object),
	KUNIT_CASE(rht_test_seed_lookup_compare_uses_caller_compare),
	KUNIT_CASE(rht_test_seed_grow_above_75_thresholds),
	KUNIT_CASE(rht_test_seed_grow_above_75_respects_max_size),
	KUNIT_CASE(rht_test_seed_shrink_below_30_thresholds),
	KUNIT_CASE(rht_test_grow_and_shrink_checks_take_bucket_table),
	KUNIT_CASE(rht_test_seed_grow_decision_hook_grows_table),
	KUNIT_CASE(rht_test_seed_shrink_decision_hook_shrinks_table),
	KUNIT_CASE(rht_test_seed_custom_grow_decision_forces_growth),
	KUNIT_CASE(rht_test_seed_fast_updates_leave_hooks_to_worker),
	KUNIT_CASE(rht_test_seed_custom_shrink_decision_forces_shrink),
	KUNIT_CASE(rht_test_seed_chain_walk_visits_each_object_once),
	KUNIT_CASE(rht_test_seed_entry_walk_visits_each_object_once),
	KUNIT_CASE(rht_test_seed_safe_entry_walk_allows_removal),
	KUNIT_CASE(rht_test_seed_rcu_chain_walk_visits_each_object_once),
	KUNIT_CASE(rht_test_seed_rcu_entry_walk_visits_each_object_once),
	KUNIT_CASE(rht_test_seed_mutex_is_held_hook_is_asked),
	KUNIT_CASE(rht_test_seed_mutex_is_held_hook_vouches_for_caller),
	KUNIT_CASE(rht_test_seed_insert_returns_e2big_at_max_elems),
	{}
};

static struct kunit_suite rht_seed_test_suite = {
	.name = "rhashtable_seed",
	.test_cases = rht_seed_test_cases,
};

/* ------------------------------------------------------------------ */
/* The 6.12 interface                                                  */
/* ------------------------------------------------------------------ */

static void rht_test_lookup_finds_object_under_rcu(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 16, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	struct rht_test_obj *found[17];
	u32 key;

	rht_test_insert_all(test, ht, objs, 16);
	rcu_read_lock();
	for (key = 1; key <= 17; key++)
		found[key - 1] = rhashtable_lookup(ht, &key, rht_test_params);
	rcu_read_unlock();
	for (key = 1; key <= 16; key++)
		KUNIT_EXPECT_PTR_EQ(test, found[key - 1], &objs[key - 1]);
	KUNIT_EXPECT_NULL(test, found[16]);
}

static void rht_test_lookup_fast_misses_absent_key(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 16, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);

	KUNIT_EXPECT_NULL(test, rht_test_lookup(ht, 1));
	rht_test_insert_all(test, ht, objs, 16);
	KUNIT_EXPECT_NULL(test, rht_test_lookup(ht, 0));
	KUNIT_EXPECT_NULL(test, rht_test_lookup(ht, 17));
	KUNIT_EXPECT_NULL(test, rht_test_lookup(ht, RHT_TEST_NEVER | 1));
}

static void rht_test_insert_fast_accepts_duplicate_keys(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 2, 5);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	struct rht_test_obj *found;

	objs[1].key = 5;
	rht_test_insert_all(test, ht, objs, 2);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 2U);
	found = rht_test_lookup(ht, 5);
	KUNIT_EXPECT_TRUE(test, found == &objs[0] || found == &objs[1]);
	KUNIT_EXPECT_EQ(test, rht_test_count_reachable(ht, 1), 2U);
}

static void rht_test_lookup_insert_fast_returns_eexist_on_duplicate(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 2, 9);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);

	objs[1].key = 9;
	KUNIT_EXPECT_EQ(test, rhashtable_lookup_insert_fast(ht, &objs[0].node,
							    rht_test_params), 0);
	KUNIT_EXPECT_EQ(test, rhashtable_lookup_insert_fast(ht, &objs[1].node,
							    rht_test_params),
			-EEXIST);
	KUNIT_EXPECT_PTR_EQ(test, rht_test_lookup(ht, 9), &objs[0]);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 1U);
}

static void rht_test_lookup_insert_fast_rejects_obj_hashfn_table(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 1, 9);
	struct rhashtable *ht = rht_test_new(test, &rht_test_objhash_params);

	KUNIT_EXPECT_EQ(test,
			rhashtable_lookup_insert_fast(ht, &objs[0].node,
						      rht_test_objhash_params),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 0U);
}

static void rht_test_lookup_insert_key_returns_eexist_on_duplicate(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 3, 40);
	struct rhashtable *ht = rht_test_new(test, &rht_test_objhash_params);
	u32 key;

	objs[2].key = 40;
	for (key = 0; key < 3; key++)
		KUNIT_EXPECT_EQ(test,
				rhashtable_lookup_insert_key(ht, &objs[key].key,
							     &objs[key].node,
							     rht_test_objhash_params),
				key < 2 ? 0 : -EEXIST);
	key = 40;
	KUNIT_EXPECT_PTR_EQ(test, rhashtable_lookup_fast(ht, &key,
							 rht_test_objhash_params),
			    &objs[0]);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 2U);
}

static void rht_test_lookup_insert_key_rejects_table_without_obj_hashfn(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 1, 3);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	struct rhashtable *oht = rht_test_new(test, &rht_test_objhash_params);

	KUNIT_EXPECT_EQ(test, rhashtable_lookup_insert_key(ht, &objs[0].key,
							   &objs[0].node,
							   rht_test_params),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rhashtable_lookup_insert_key(oht, NULL,
							   &objs[0].node,
							   rht_test_objhash_params),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht) + rhashtable_count(oht), 0U);
}

static void rht_test_lookup_get_insert_fast_returns_null_then_existing(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 2, 11);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);

	objs[1].key = 11;
	KUNIT_EXPECT_NULL(test, rhashtable_lookup_get_insert_fast(ht,
								  &objs[0].node,
								  rht_test_params));
	KUNIT_EXPECT_PTR_EQ(test,
			    rhashtable_lookup_get_insert_fast(ht, &objs[1].node,
							      rht_test_params),
			    (void *)&objs[0]);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 1U);
}

static void rht_test_lookup_get_insert_fast_returns_e2big_when_full(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;
	struct rht_test_obj *objs = rht_test_objs(test, 9, 1);
	struct rhashtable *ht;
	void *ret;

	p.max_size = 4;
	ht = rht_test_new(test, &p);
	rht_test_insert_all(test, ht, objs, 8);
	ret = rhashtable_lookup_get_insert_fast(ht, &objs[8].node,
						rht_test_params);
	KUNIT_EXPECT_TRUE(test, IS_ERR(ret));
	KUNIT_EXPECT_EQ(test, PTR_ERR(ret), -E2BIG);
	/* A present key is reported as such even when the table is full. */
	objs[8].key = 3;
	KUNIT_EXPECT_PTR_EQ(test,
			    rhashtable_lookup_get_insert_fast(ht, &objs[8].node,
							      rht_test_params),
			    (void *)&objs[2]);
}

static void rht_test_lookup_get_insert_fast_rejects_obj_hashfn_table(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 1, 9);
	struct rhashtable *ht = rht_test_new(test, &rht_test_objhash_params);
	void *ret;

	ret = rhashtable_lookup_get_insert_fast(ht, &objs[0].node,
						rht_test_objhash_params);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ret), -EINVAL);
}

static void rht_test_lookup_get_insert_key_returns_null_then_existing(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 2, 21);
	struct rhashtable *ht = rht_test_new(test, &rht_test_objhash_params);
	void *ret;

	objs[1].key = 21;
	KUNIT_EXPECT_NULL(test,
			  rhashtable_lookup_get_insert_key(ht, &objs[0].key,
							   &objs[0].node,
							   rht_test_objhash_params));
	ret = rhashtable_lookup_get_insert_key(ht, &objs[1].key, &objs[1].node,
					       rht_test_objhash_params);
	KUNIT_EXPECT_PTR_EQ(test, ret, (void *)&objs[0]);
	ret = rhashtable_lookup_get_insert_key(ht, NULL, &objs[1].node,
					       rht_test_objhash_params);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ret), -EINVAL);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 1U);
}

static void rht_test_remove_fast_unlinks_object(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 32, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	unsigned int i;

	rht_test_insert_all(test, ht, objs, 32);
	for (i = 0; i < 32; i += 3) {
		KUNIT_EXPECT_EQ(test, rhashtable_remove_fast(ht, &objs[i].node,
							     rht_test_params), 0);
		objs[i].live = false;
	}
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 32), 0U);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 21U);
	KUNIT_EXPECT_EQ(test, rht_test_count_reachable(ht, 1), 21U);
	rht_test_expect_visited_once(test, objs, 32);
}

static void rht_test_remove_fast_returns_enoent_for_absent_object(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 3, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);

	rht_test_insert_all(test, ht, objs, 2);
	KUNIT_EXPECT_EQ(test, rhashtable_remove_fast(ht, &objs[2].node,
						     rht_test_params), -ENOENT);
	KUNIT_EXPECT_EQ(test, rhashtable_remove_fast(ht, &objs[0].node,
						     rht_test_params), 0);
	KUNIT_EXPECT_EQ(test, rhashtable_remove_fast(ht, &objs[0].node,
						     rht_test_params), -ENOENT);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 1U);
}

static void rht_test_replace_fast_swaps_object_in_place(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 9, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);

	objs[8].key = 4;
	rht_test_insert_all(test, ht, objs, 8);
	KUNIT_EXPECT_EQ(test, rhashtable_replace_fast(ht, &objs[3].node,
						      &objs[8].node,
						      rht_test_params), 0);
	KUNIT_EXPECT_PTR_EQ(test, rht_test_lookup(ht, 4), &objs[8]);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 8U);
	objs[3].live = false;
	objs[8].live = true;
	KUNIT_EXPECT_EQ(test, rht_test_count_reachable(ht, 1), 8U);
	rht_test_expect_visited_once(test, objs, 9);
	KUNIT_EXPECT_EQ(test, rhashtable_remove_fast(ht, &objs[3].node,
						     rht_test_params), -ENOENT);
}

/* Bucket = key for tables made with these parameters. */
static const struct rhashtable_params rht_test_identity_params = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct rht_test_obj, key),
	.head_offset = offsetof(struct rht_test_obj, node),
	.hashfn = rht_test_identity_hash,
};

static void rht_test_replace_fast_returns_einval_for_other_bucket(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 2, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_identity_params);

	KUNIT_ASSERT_EQ(test, rhashtable_insert_fast(ht, &objs[0].node,
						     rht_test_identity_params),
			0);
	KUNIT_EXPECT_EQ(test, rhashtable_replace_fast(ht, &objs[0].node,
						      &objs[1].node,
						      rht_test_identity_params),
			-EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, rhashtable_lookup_fast(ht, &objs[0].key,
							 rht_test_identity_params),
			    &objs[0]);
}

static void rht_test_replace_fast_returns_enoent_for_absent_object(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 3, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);

	objs[2].key = 2;
	rht_test_insert_all(test, ht, objs, 1);
	KUNIT_EXPECT_EQ(test, rhashtable_replace_fast(ht, &objs[1].node,
						      &objs[2].node,
						      rht_test_params), -ENOENT);
	KUNIT_EXPECT_NULL(test, rht_test_lookup(ht, 2));
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 1U);
}

static void rht_test_insert_fast_returns_e2big_at_max_elems(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;
	struct rht_test_obj *objs = rht_test_objs(test, 33, 1);
	struct rhashtable *ht;

	p.max_size = 16;
	ht = rht_test_new(test, &p);
	rht_test_insert_all(test, ht, objs, 32);
	KUNIT_EXPECT_EQ(test, rhashtable_insert_fast(ht, &objs[32].node,
						     rht_test_params), -E2BIG);
	KUNIT_EXPECT_EQ(test, rhashtable_lookup_insert_fast(ht, &objs[32].node,
							    rht_test_params),
			-E2BIG);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 32U);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 33), 0U);
}

static void rht_test_count_is_exact_after_inserts_and_removes(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 500, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	unsigned int i, live = 0;

	for (i = 0; i < 500; i++) {
		KUNIT_ASSERT_EQ(test, rhashtable_insert_fast(ht, &objs[i].node,
							     rht_test_params),
				0);
		objs[i].live = true;
		live++;
		if (i % 3 == 2) {
			KUNIT_ASSERT_EQ(test,
					rhashtable_remove_fast(ht,
							       &objs[i - 1].node,
							       rht_test_params),
					0);
			objs[i - 1].live = false;
			live--;
		}
		if (rhashtable_count(ht) != live)
			break;
	}
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), live);
	rht_test_settle(ht);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), live);
	KUNIT_EXPECT_EQ(test, rht_test_count_reachable(ht, 1), live);
	rht_test_expect_visited_once(test, objs, 500);
}

/* The 6.12 traversal macros name a bucket by array and index. */
static void rht_test_bucket_walks_under_lock_visit_each_object_once(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 40, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	unsigned int i, wrong_next = 0, entries = 0, safe = 0;
	struct rhash_lock_head __rcu **bkt;
	struct rhash_head *pos, *next, *expected;
	struct bucket_table *tbl;
	struct rht_test_obj *obj;
	unsigned long flags;

	rht_test_insert_all(test, ht, objs, 40);
	rcu_read_lock();
	tbl = rht_dereference_rcu(ht->tbl, ht);
	for (i = 0; i < tbl->size; i++) {
		bkt = rht_bucket_var(tbl, i);
		flags = rht_lock(tbl, bkt);
		rht_for_each(pos, tbl, i)
			container_of(pos, struct rht_test_obj, node)->visited++;
		rht_for_each_entry(obj, pos, tbl, i, node)
			entries += &obj->node == pos;
		expected = NULL;
		rht_for_each_entry_safe(obj, pos, next, tbl, i, node) {
			if (expected && pos != expected)
				wrong_next++;
			expected = next;
			safe += &obj->node == pos;
		}
		if (expected && !rht_is_a_nulls(expected))
			wrong_next++;
		rht_unlock(tbl, bkt, flags);
	}
	rcu_read_unlock();
	rht_test_expect_visited_once(test, objs, 40);
	KUNIT_EXPECT_EQ(test, entries, 40U);
	KUNIT_EXPECT_EQ(test, safe, 40U);
	KUNIT_EXPECT_EQ(test, wrong_next, 0U);
}

/*
 * Lockdep checks every chain pointer an updater or the worker reads
 * (rht_locked()): its condition must be false without a bucket lock, or
 * a helper called without its lock would go unnoticed.
 */
static void rht_test_chain_access_without_lock_is_caught(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 4, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	bool unlocked, locked, bucket_unlocked, bucket_locked;
	struct rhash_lock_head __rcu **bkt;
	struct bucket_table *tbl;
	unsigned long flags;

	if (!IS_ENABLED(CONFIG_PROVE_LOCKING))
		kunit_skip(test, "needs CONFIG_PROVE_LOCKING");
	KUNIT_ASSERT_TRUE(test, debug_locks);
	rht_test_insert_all(test, ht, objs, 4);
	rcu_read_lock();
	tbl = rht_dereference_rcu(ht->tbl, ht);
	bkt = rht_bucket_var(tbl, 0);
	unlocked = rht_test_lock_held(tbl);
	bucket_unlocked = lockdep_rht_bucket_is_held(tbl, 0);
	flags = rht_lock(tbl, bkt);
	locked = rht_test_lock_held(tbl);
	bucket_locked = lockdep_rht_bucket_is_held(tbl, 0);
	rht_unlock(tbl, bkt, flags);
	rcu_read_unlock();
	KUNIT_EXPECT_FALSE(test, unlocked);
	KUNIT_EXPECT_FALSE(test, bucket_unlocked);
	KUNIT_EXPECT_TRUE(test, locked);
	KUNIT_EXPECT_TRUE(test, bucket_locked);
}

static void rht_test_rcu_bucket_walks_end_on_bucket_marker(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 40, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	unsigned int i, other_end = 0, entries = 0;
	struct bucket_table *tbl;
	struct rht_test_obj *obj;
	struct rhash_head *pos;

	rht_test_insert_all(test, ht, objs, 40);
	rcu_read_lock();
	tbl = rht_dereference_rcu(ht->tbl, ht);
	for (i = 0; i < tbl->size; i++) {
		rht_for_each_rcu(pos, tbl, i)
			container_of(pos, struct rht_test_obj, node)->visited++;
		if (pos != RHT_NULLS_MARKER(rht_bucket(tbl, i)))
			other_end++;
		rht_for_each_entry_rcu(obj, pos, tbl, i, node)
			entries++;
		if (pos != RHT_NULLS_MARKER(rht_bucket(tbl, i)))
			other_end++;
	}
	rcu_read_unlock();
	rht_test_expect_visited_once(test, objs, 40);
	KUNIT_EXPECT_EQ(test, entries, 40U);
	KUNIT_EXPECT_EQ(test, other_end, 0U);
}

static void rht_test_free_obj(void *ptr, void *arg)
{
	struct rht_test_obj *obj = ptr;

	obj->visited++;
	atomic_inc(arg);
}

static void rht_test_free_lobj(void *ptr, void *arg)
{
	struct rht_test_lobj *obj = ptr;

	obj->visited++;
	atomic_inc(arg);
}

/* Hand the table's destruction from the test's cleanup to the test. */
static void rht_test_free_and_destroy(struct kunit *test,
				      struct rhashtable *ht,
				      void (*free_fn)(void *ptr, void *arg),
				      void *arg)
{
	kunit_remove_action(test, rht_test_destroy, ht);
	rhashtable_free_and_destroy(ht, free_fn, arg);
}

static void rht_test_free_and_destroy_calls_free_fn_once_per_object(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 300, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	atomic_t freed = ATOMIC_INIT(0);

	rht_test_insert_all(test, ht, objs, 300);
	objs[7].live = false;
	KUNIT_ASSERT_EQ(test, rhashtable_remove_fast(ht, &objs[7].node,
						     rht_test_params), 0);
	rht_test_free_and_destroy(test, ht, rht_test_free_obj, &freed);
	KUNIT_EXPECT_EQ(test, atomic_read(&freed), 299);
	rht_test_expect_visited_once(test, objs, 300);
}

/*
 * The worker stops in the middle of a resize (after the new array is
 * published), tells the test, and dawdles there; the test destroys the
 * table meanwhile.  The worker then checks that the destruction had begun
 * while it stood there.
 */
static struct {
	struct rhashtable *ht;
	struct completion in_resize;
	atomic_t destroying;
	unsigned int overlapped;
} rht_test_mid_resize;

static void rht_test_dawdle_mid_resize(struct rhashtable *ht,
				       enum rht_test_point point,
				       unsigned int arg)
{
	unsigned int i;

	if (ht != READ_ONCE(rht_test_mid_resize.ht) ||
	    point != RHT_TP_PUBLISHED)
		return;
	WRITE_ONCE(rht_test_mid_resize.ht, NULL);
	complete(&rht_test_mid_resize.in_resize);
	for (i = 0; i < 50 && !atomic_read(&rht_test_mid_resize.destroying);
	     i++)
		usleep_range(2000, 3000);
	/* Give destroy time to get as far as it can before we go on. */
	usleep_range(5000, 6000);
	if (atomic_read(&rht_test_mid_resize.destroying))
		rht_test_mid_resize.overlapped++;
}

static const struct rht_test_hooks rht_test_mid_resize_hooks = {
	.step = rht_test_dawdle_mid_resize,
};

static void rht_test_mid_resize_done(void *unused)
{
	WRITE_ONCE(rht_test_mid_resize.ht, NULL);
	rht_test_set_hooks(NULL);
}

static void rht_test_free_and_destroy_while_worker_resizes(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;
	struct rht_test_obj *objs = rht_test_objs(test, 100, 1);
	unsigned int round, i, bad = 0;
	unsigned long left;
	struct rhashtable *ht;
	atomic_t freed;

	p.grow_decision = rht_test_grow_to_target;
	rht_test_mid_resize.overlapped = 0;
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test, rht_test_mid_resize_done,
						  NULL), 0);
	rht_test_set_hooks(&rht_test_mid_resize_hooks);
	for (round = 0; round < 8; round++) {
		ht = rht_test_new(test, &p);
		rht_test_clear_visited(objs, 100);
		rht_test_insert_all(test, ht, objs, 100);
		rht_test_settle(ht);
		init_completion(&rht_test_mid_resize.in_resize);
		atomic_set(&rht_test_mid_resize.destroying, 0);
		WRITE_ONCE(rht_test_mid_resize.ht, ht);
		/* One doubling, or up to four: any insert asks the hook. */
		rht_test_set_target(ht, 256 << (round & 3));
		KUNIT_ASSERT_EQ(test, rhashtable_remove_fast(ht, &objs[0].node,
							     p), 0);
		rht_test_insert_all(test, ht, objs, 1);
		left = wait_for_completion_timeout(&rht_test_mid_resize.in_resize,
						   10 * HZ);
		KUNIT_ASSERT_NE(test, left, 0UL);
		atomic_set(&rht_test_mid_resize.destroying, 1);
		atomic_set(&freed, 0);
		rht_test_free_and_destroy(test, ht, rht_test_free_obj, &freed);
		KUNIT_EXPECT_EQ(test, atomic_read(&freed), 100);
		for (i = 0; i < 100; i++)
			bad += objs[i].visited != 1;
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	/* Every destroy began while the worker stood inside a resize. */
	KUNIT_EXPECT_EQ(test, rht_test_mid_resize.overlapped, 8U);
}

/* ------------------------------------------------------------------ */
/* rhltable                                                            */
/* ------------------------------------------------------------------ */

/* Visit the objects filed under @key; returns how many there were. */
static unsigned int rht_test_rhl_visit(struct rhltable *hlt, u32 key)
{
	struct rhlist_head *first, *pos;
	struct rht_test_lobj *obj;
	unsigned int n = 0;

	rcu_read_lock();
	first = rhltable_lookup(hlt, &key, rht_test_lparams);
	rhl_for_each_entry_rcu(obj, pos, first, list) {
		obj->visited++;
		n++;
	}
	rcu_read_unlock();
	return n;
}

/* The same with the untyped iterator. */
static unsigned int rht_test_rhl_visit_untyped(struct rhltable *hlt, u32 key)
{
	struct rhlist_head *first, *pos;
	unsigned int n = 0;

	rcu_read_lock();
	first = rhltable_lookup(hlt, &key, rht_test_lparams);
	rhl_for_each_rcu(pos, first) {
		container_of(pos, struct rht_test_lobj, list)->visited++;
		n++;
	}
	rcu_read_unlock();
	return n;
}

static struct rhlist_head *rht_test_rhl_first(struct rhltable *hlt, u32 key)
{
	struct rhlist_head *first;

	rcu_read_lock();
	first = rhltable_lookup(hlt, &key, rht_test_lparams);
	rcu_read_unlock();
	return first;
}

/* Objects of @key live exactly once, others of @key not at all. */
static unsigned int rht_test_rhl_check_key(struct rhltable *hlt,
					   struct rht_test_lobj *objs,
					   unsigned int n, u32 key,
					   bool untyped)
{
	unsigned int i, bad = 0;

	for (i = 0; i < n; i++)
		objs[i].visited = 0;
	if (untyped)
		rht_test_rhl_visit_untyped(hlt, key);
	else
		rht_test_rhl_visit(hlt, key);
	for (i = 0; i < n; i++)
		if (objs[i].visited != (objs[i].live && objs[i].key == key))
			bad++;
	return bad;
}

static void rht_test_rhl_insert_all(struct kunit *test, struct rhltable *hlt,
				    struct rht_test_lobj *objs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_EQ(test, rhltable_insert(hlt, &objs[i].list,
						      rht_test_lparams), 0);
		objs[i].live = true;
	}
}

static void rht_test_rhltable_lookup_returns_every_duplicate(struct kunit *test)
{
	struct rht_test_lobj *objs = rht_test_lobjs(test, 10);
	struct rhltable *hlt = rht_test_new_rhl(test, &rht_test_lparams);
	unsigned int i;

	for (i = 0; i < 10; i++)
		objs[i].key = i < 6 ? 1 : 2;
	rht_test_rhl_insert_all(test, hlt, objs, 10);
	KUNIT_EXPECT_EQ(test, rht_test_rhl_check_key(hlt, objs, 10, 1, false),
			0U);
	KUNIT_EXPECT_EQ(test, rht_test_rhl_check_key(hlt, objs, 10, 2, true),
			0U);
	KUNIT_EXPECT_EQ(test, rht_test_rhl_visit(hlt, 3), 0U);
}

/* Distinct keys of the live objects: what an rhltable counts. */
static unsigned int rht_test_rhl_live_keys(struct rht_test_lobj *objs,
					   unsigned int n)
{
	unsigned int i, j, keys = 0;

	for (i = 0; i < n; i++) {
		if (!objs[i].live)
			continue;
		for (j = 0; j < i; j++)
			if (objs[j].live && objs[j].key == objs[i].key)
				break;
		keys += j == i;
	}
	return keys;
}

/* As in 6.12, an rhltable counts keys: duplicates join a key's list. */
static void rht_test_rhltable_count_counts_keys(struct kunit *test)
{
	struct rht_test_lobj *objs = rht_test_lobjs(test, 5);
	struct rhltable *hlt = rht_test_new_rhl(test, &rht_test_lparams);
	unsigned int i;

	for (i = 0; i < 5; i++)
		objs[i].key = i < 3 ? 1 : 2;
	rht_test_rhl_insert_all(test, hlt, objs, 3);
	KUNIT_EXPECT_EQ(test, rhashtable_count(&hlt->ht), 1U);
	rht_test_rhl_insert_all(test, hlt, objs + 3, 2);
	KUNIT_EXPECT_EQ(test, rhashtable_count(&hlt->ht), 2U);
	/* The first of a key's list, then the others. */
	for (i = 0; i < 3; i++) {
		struct rhlist_head *first = rht_test_rhl_first(hlt, 1);
		struct rht_test_lobj *obj;

		KUNIT_ASSERT_NOT_NULL(test, first);
		obj = container_of(first, struct rht_test_lobj, list);
		KUNIT_EXPECT_EQ(test, rhltable_remove(hlt, first,
						      rht_test_lparams), 0);
		obj->live = false;
		KUNIT_EXPECT_EQ(test, rhashtable_count(&hlt->ht),
				rht_test_rhl_live_keys(objs, 5));
	}
	KUNIT_EXPECT_EQ(test, rhashtable_count(&hlt->ht), 1U);
}

static void rht_test_rhltable_insert_key_files_object_under_key(struct kunit *test)
{
	struct rht_test_lobj *objs = rht_test_lobjs(test, 4);
	struct rhltable *hlt = rht_test_new_rhl(test, &rht_test_lparams);
	unsigned int i;
	u32 key = 8;

	for (i = 0; i < 4; i++) {
		objs[i].key = 8;
		KUNIT_EXPECT_EQ(test, rhltable_insert_key(hlt, &key,
							  &objs[i].list,
							  rht_test_lparams), 0);
		objs[i].live = true;
	}
	KUNIT_EXPECT_EQ(test, rht_test_rhl_check_key(hlt, objs, 4, 8, false),
			0U);
}

static void rht_test_rhltable_remove_unlinks_one_duplicate(struct kunit *test)
{
	/* Take the second of the list, then the first, then the last, ... */
	static const int pick[] = { 1, 0, -1, 0, 0 };
	struct rht_test_lobj *objs = rht_test_lobjs(test, 6);
	struct rhltable *hlt = rht_test_new_rhl(test, &rht_test_lparams);
	struct rht_test_lobj *seen[5], *obj, *victim;
	struct rhlist_head *first, *it;
	unsigned int i, n;
	u32 key = 4;

	for (i = 0; i < 6; i++)
		objs[i].key = i < 5 ? 4 : 5;
	rht_test_rhl_insert_all(test, hlt, objs, 6);
	for (i = 0; i < ARRAY_SIZE(pick); i++) {
		n = 0;
		rcu_read_lock();
		first = rhltable_lookup(hlt, &key, rht_test_lparams);
		rhl_for_each_entry_rcu(obj, it, first, list)
			if (n < ARRAY_SIZE(seen))
				seen[n++] = obj;
		rcu_read_unlock();
		KUNIT_ASSERT_EQ(test, n, 5 - i);
		victim = seen[pick[i] < 0 ? n - 1 : (unsigned int)pick[i]];
		KUNIT_EXPECT_EQ(test, rhltable_remove(hlt, &victim->list,
						      rht_test_lparams), 0);
		victim->live = false;
		KUNIT_EXPECT_EQ(test, rht_test_rhl_check_key(hlt, objs, 6, 4,
							     false), 0U);
		KUNIT_EXPECT_EQ(test, rht_test_rhl_check_key(hlt, objs, 6, 5,
							     false), 0U);
	}
	KUNIT_EXPECT_NULL(test, rht_test_rhl_first(hlt, key));
	KUNIT_EXPECT_EQ(test, rhashtable_count(&hlt->ht), 1U);
}

static void rht_test_rhltable_remove_returns_enoent_for_absent_object(struct kunit *test)
{
	struct rht_test_lobj *objs = rht_test_lobjs(test, 3);
	struct rhltable *hlt = rht_test_new_rhl(test, &rht_test_lparams);

	objs[0].key = 1;
	objs[1].key = 1;
	objs[2].key = 1;
	rht_test_rhl_insert_all(test, hlt, objs, 2);
	KUNIT_EXPECT_EQ(test, rhltable_remove(hlt, &objs[2].list,
					      rht_test_lparams), -ENOENT);
	KUNIT_EXPECT_EQ(test, rhltable_remove(hlt, &objs[1].list,
					      rht_test_lparams), 0);
	KUNIT_EXPECT_EQ(test, rhltable_remove(hlt, &objs[1].list,
					      rht_test_lparams), -ENOENT);
	objs[1].live = false;
	KUNIT_EXPECT_EQ(test, rht_test_rhl_check_key(hlt, objs, 3, 1, false),
			0U);
}

static void rht_test_rhltable_free_and_destroy_frees_each_duplicate_once(struct kunit *test)
{
	struct rht_test_lobj *objs = rht_test_lobjs(test, 200);
	struct rhltable *hlt = rht_test_new_rhl(test, &rht_test_lparams);
	atomic_t freed = ATOMIC_INIT(0);
	unsigned int i;

	for (i = 0; i < 200; i++)
		objs[i].key = i % 13;
	rht_test_rhl_insert_all(test, hlt, objs, 200);
	kunit_remove_action(test, rht_test_rhl_destroy, hlt);
	rhltable_free_and_destroy(hlt, rht_test_free_lobj, &freed);
	KUNIT_EXPECT_EQ(test, atomic_read(&freed), 200);
	for (i = 0; i < 200; i++)
		KUNIT_EXPECT_EQ(test, objs[i].visited, 1);
}

static void rht_test_rhltable_duplicates_survive_resizes(struct kunit *test)
{
	struct rht_test_lobj *objs = rht_test_lobjs(test, 120);
	struct rhltable *hlt = rht_test_new_rhl(test, &rht_test_lparams);
	unsigned int i, key, bad = 0;

	for (i = 0; i < 120; i++)
		objs[i].key = i % 10;
	rht_test_rhl_insert_all(test, hlt, objs, 120);
	for (i = 0; i < 6; i++) {
		KUNIT_EXPECT_EQ(test, i < 3 ? rhashtable_expand(&hlt->ht) :
					      rhashtable_shrink(&hlt->ht), 0);
		for (key = 0; key < 10; key++)
			bad += rht_test_rhl_check_key(hlt, objs, 120, key, i & 1);
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
}

static void rht_test_rhltable_walk_returns_every_duplicate_once(struct kunit *test)
{
	struct rht_test_lobj *objs = rht_test_lobjs(test, 60);
	struct rhltable *hlt = rht_test_new_rhl(test, &rht_test_lparams);
	struct rhashtable_iter iter;
	struct rht_test_lobj *obj;
	unsigned int i, errors = 0;

	for (i = 0; i < 60; i++) {
		objs[i].key = i % 7;
		objs[i].id = i;
	}
	rht_test_rhl_insert_all(test, hlt, objs, 60);
	rhltable_walk_enter(hlt, &iter);
	rhashtable_walk_start(&iter);
	while ((obj = rhashtable_walk_next(&iter))) {
		if (IS_ERR(obj)) {
			errors++;
			continue;
		}
		obj->visited++;
	}
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	KUNIT_EXPECT_EQ(test, errors, 0U);
	for (i = 0; i < 60; i++)
		KUNIT_EXPECT_EQ(test, objs[i].visited, 1);
}

/* ------------------------------------------------------------------ */
/* Walks                                                               */
/* ------------------------------------------------------------------ */

/*
 * What a walk saw.  An object may come back only after an -EAGAIN, so
 * each object records the number of -EAGAINs seen when it was returned.
 */
struct rht_test_walk {
	int *epoch_of;		/* per object id, -1 before its first return */
	int epoch;		/* -EAGAINs so far */
	unsigned int returned;
	unsigned int dups;	/* returned twice without an -EAGAIN between */
	unsigned int stale;	/* returned after it had been removed */
};

static void rht_test_walk_init(struct kunit *test, struct rht_test_walk *w,
			       unsigned int n)
{
	unsigned int i;

	memset(w, 0, sizeof(*w));
	w->epoch_of = kunit_kmalloc_array(test, n, sizeof(int), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w->epoch_of);
	for (i = 0; i < n; i++)
		w->epoch_of[i] = -1;
}

/* Account for one result of rhashtable_walk_next(); false at the end. */
static bool rht_test_walk_saw(struct rht_test_walk *w, struct rht_test_obj *obj)
{
	if (!obj)
		return false;
	if (IS_ERR(obj)) {
		w->epoch++;
		return true;
	}
	if (w->epoch_of[obj->id] == w->epoch)
		w->dups++;
	if (!obj->live)
		w->stale++;
	w->epoch_of[obj->id] = w->epoch;
	w->returned++;
	return true;
}

/* Every object live through the walk was returned at least once. */
static unsigned int rht_test_walk_missed(struct rht_test_walk *w,
					 struct rht_test_obj *objs,
					 unsigned int n)
{
	unsigned int i, missed = 0;

	for (i = 0; i < n; i++)
		if (objs[i].live && w->epoch_of[i] < 0)
			missed++;
	return missed;
}

static void rht_test_walk_returns_each_object_once(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 300, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	struct rhashtable_iter iter;
	struct rht_test_walk w;
	int err;

	rht_test_walk_init(test, &w, 300);
	rht_test_insert_all(test, ht, objs, 300);
	rht_test_settle(ht);
	rhashtable_walk_enter(ht, &iter);
	err = rhashtable_walk_start_check(&iter);
	while (rht_test_walk_saw(&w, rhashtable_walk_next(&iter)))
		;
	/* The end is sticky. */
	KUNIT_EXPECT_NULL(test, rhashtable_walk_next(&iter));
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, w.epoch, 0);
	KUNIT_EXPECT_EQ(test, w.returned, 300U);
	KUNIT_EXPECT_EQ(test, w.dups, 0U);
	KUNIT_EXPECT_EQ(test, rht_test_walk_missed(&w, objs, 300), 0U);
}

static void rht_test_walk_of_empty_table_ends_at_once(struct kunit *test)
{
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	struct rhashtable_iter iter;
	void *obj;

	rhashtable_walk_enter(ht, &iter);
	rhashtable_walk_start(&iter);
	obj = rhashtable_walk_next(&iter);
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	KUNIT_EXPECT_NULL(test, obj);
}

static void rht_test_walk_start_check_returns_eagain_after_resize(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 40, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	struct rhashtable_iter iter;
	struct rht_test_walk w;
	int first, second;

	rht_test_walk_init(test, &w, 40);
	rht_test_insert_all(test, ht, objs, 40);
	rhashtable_walk_enter(ht, &iter);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(ht), 0);
	first = rhashtable_walk_start_check(&iter);
	rhashtable_walk_stop(&iter);
	second = rhashtable_walk_start_check(&iter);
	while (rht_test_walk_saw(&w, rhashtable_walk_next(&iter)))
		;
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	KUNIT_EXPECT_EQ(test, first, -EAGAIN);
	KUNIT_EXPECT_EQ(test, second, 0);
	KUNIT_EXPECT_EQ(test, w.returned, 40U);
	KUNIT_EXPECT_EQ(test, rht_test_walk_missed(&w, objs, 40), 0U);
}

static void rht_test_walk_peek_returns_current_object(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 20, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	struct rht_test_obj *a, *peeked, *b, *peeked2;
	struct rhashtable_iter iter;

	rht_test_insert_all(test, ht, objs, 20);
	rhashtable_walk_enter(ht, &iter);
	rhashtable_walk_start(&iter);
	a = rhashtable_walk_next(&iter);
	peeked = rhashtable_walk_peek(&iter);
	b = rhashtable_walk_next(&iter);
	rhashtable_walk_stop(&iter);
	/* After a stop and start, peek still names the current object. */
	rhashtable_walk_start(&iter);
	peeked2 = rhashtable_walk_peek(&iter);
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_EXPECT_PTR_EQ(test, peeked, a);
	KUNIT_EXPECT_PTR_NE(test, b, a);
	KUNIT_EXPECT_PTR_EQ(test, peeked2, b);
}

static void rht_test_walk_peek_before_next_takes_first_object(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 20, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	struct rhashtable_iter iter;
	struct rht_test_obj *peeked;
	struct rht_test_walk w;

	rht_test_walk_init(test, &w, 20);
	rht_test_insert_all(test, ht, objs, 20);
	rhashtable_walk_enter(ht, &iter);
	rhashtable_walk_start(&iter);
	peeked = rhashtable_walk_peek(&iter);
	rht_test_walk_saw(&w, peeked);
	while (rht_test_walk_saw(&w, rhashtable_walk_next(&iter)))
		;
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, peeked);
	/* The peeked object became current: next went on after it. */
	KUNIT_EXPECT_EQ(test, w.returned, 20U);
	KUNIT_EXPECT_EQ(test, w.dups, 0U);
	KUNIT_EXPECT_EQ(test, rht_test_walk_missed(&w, objs, 20), 0U);
}

static void rht_test_walk_resumes_after_stop_with_updates(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;
	struct rht_test_obj *objs = rht_test_objs(test, 400, 1);
	unsigned int i, k, added = 300, rounds = 0;
	struct rhashtable_iter iter;
	struct rht_test_walk w;
	struct rhashtable *ht;
	bool more = true;

	/* Big enough for all 400: the updates cause no resize. */
	p.nelem_hint = 1000;
	ht = rht_test_new(test, &p);
	rht_test_walk_init(test, &w, 400);
	rht_test_insert_all(test, ht, objs, 300);
	rht_test_settle(ht);
	rhashtable_walk_enter(ht, &iter);
	while (more && rounds++ < 1000) {
		if (rhashtable_walk_start_check(&iter))
			w.epoch++;
		for (k = 0; k < 16 && more; k++)
			more = rht_test_walk_saw(&w, rhashtable_walk_next(&iter));
		rhashtable_walk_stop(&iter);
		/* Between two stretches: one insert, one remove. */
		if (added < 400) {
			KUNIT_EXPECT_EQ(test,
					rhashtable_insert_fast(ht,
							       &objs[added].node,
							       rht_test_params),
					0);
			objs[added++].live = true;
		}
		i = (rounds * 37) % 300;
		if (objs[i].live && w.epoch_of[i] < 0) {
			KUNIT_EXPECT_EQ(test,
					rhashtable_remove_fast(ht, &objs[i].node,
							       rht_test_params),
					0);
			objs[i].live = false;
		}
	}
	rhashtable_walk_exit(&iter);
	KUNIT_EXPECT_FALSE(test, more);
	KUNIT_EXPECT_EQ(test, w.dups, 0U);
	KUNIT_EXPECT_EQ(test, w.stale, 0U);
	/* Objects inserted during the walk need not be returned. */
	KUNIT_EXPECT_EQ(test, rht_test_walk_missed(&w, objs, 300), 0U);
}

/*
 * Resume a stopped walk and run it to the end; returns the first result
 * after the resume, which tells whether the walk noticed a change.
 */
static void *rht_test_walk_finish(struct rhashtable_iter *iter,
				  struct rht_test_walk *w)
{
	void *first;

	rhashtable_walk_start(iter);
	first = rhashtable_walk_next(iter);
	rht_test_walk_saw(w, first);
	while (rht_test_walk_saw(w, rhashtable_walk_next(iter)))
		;
	rhashtable_walk_stop(iter);
	rhashtable_walk_exit(iter);
	return first;
}

static void rht_test_walk_stopped_at_removed_object_returns_eagain(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 30, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	struct rhashtable_iter iter;
	struct rht_test_obj *at, *next;
	struct rht_test_walk w;

	rht_test_walk_init(test, &w, 30);
	rht_test_insert_all(test, ht, objs, 30);
	rhashtable_walk_enter(ht, &iter);
	rhashtable_walk_start(&iter);
	at = rhashtable_walk_next(&iter);
	rht_test_walk_saw(&w, at);
	rhashtable_walk_stop(&iter);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, at);
	KUNIT_ASSERT_EQ(test, rhashtable_remove_fast(ht, &at->node,
						     rht_test_params), 0);
	at->live = false;
	next = rht_test_walk_finish(&iter, &w);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(next), -EAGAIN);
	KUNIT_EXPECT_EQ(test, w.dups, 0U);
	KUNIT_EXPECT_EQ(test, w.stale, 0U);
	KUNIT_EXPECT_EQ(test, rht_test_walk_missed(&w, objs, 30), 0U);
}

/*
 * Stop on the second object of a four-object chain, then remove that
 * object and insert it again: it is back in its bucket, now at the head,
 * and its successor is the old head.  Resuming after it would return the
 * old head a second time; the walk must notice and redo the bucket.
 */
static void rht_test_walk_stopped_at_reinserted_object_redoes_bucket(struct kunit *test)
{
	struct rhashtable_iter iter;
	struct rht_test_obj *objs, *at;
	struct rht_test_walk w;
	struct rhashtable *ht;
	void *next;

	ht = rht_test_chain(test, &objs, 4);
	rht_test_walk_init(test, &w, 4);
	rhashtable_walk_enter(ht, &iter);
	rhashtable_walk_start(&iter);
	rht_test_walk_saw(&w, rhashtable_walk_next(&iter));
	at = rhashtable_walk_next(&iter);
	rht_test_walk_saw(&w, at);
	rhashtable_walk_stop(&iter);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, at);
	KUNIT_ASSERT_TRUE(test, rht_test_seed_remove(ht, at));
	KUNIT_ASSERT_EQ(test, rht_test_seed_insert(ht, at), 0);
	next = rht_test_walk_finish(&iter, &w);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(next), -EAGAIN);
	KUNIT_EXPECT_EQ(test, w.dups, 0U);
	KUNIT_EXPECT_EQ(test, rht_test_walk_missed(&w, objs, 4), 0U);
}

/*
 * A walk that is not stopped stands on an object while another update
 * moves it: removes it, gives it another key and inserts it again.  The
 * object's link now leads to wherever it went, and a walk that follows it
 * is carried there: back to the head of its own bucket, into a bucket it
 * has walked already, or into another table.  It must notice before it
 * returns anything from there, or it returns objects twice without
 * -EAGAIN, or objects that were never in its table.
 */
struct rht_test_carry {
	const char *desc;
	u32 key;		/* the moved object's new key */
	bool other_table;	/* inserted into the second table */
};

static const struct rht_test_carry rht_test_carries[] = {
	{ .desc = "head of own bucket", .key = 130 },
	{ .desc = "bucket walked already", .key = 129 },
	{ .desc = "other table, same bucket", .key = 2, .other_table = true },
};

static void rht_test_carry_desc(const struct rht_test_carry *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rht_test_carry, rht_test_carries, rht_test_carry_desc);

static void rht_test_walk_carried_off_returns_eagain_first(struct kunit *test)
{
	static const u32 keys[] = { 1, 65, 2, 66, 130, 194 };
	const struct rht_test_carry *c = test->param_value;
	struct rht_test_obj *objs = rht_test_objs(test, 6, 0);
	const struct rhashtable_params p = rht_test_chain_params;
	struct rhashtable *ht = rht_test_new(test, &p);
	struct rhashtable *ht2 = rht_test_new(test, &p);
	struct rht_test_obj *at = &objs[2], *obj;
	unsigned int i, foreign = 0;
	struct rhashtable_iter iter;
	struct rht_test_walk w;

	/*
	 * Identity hash, 64 buckets.  @ht: 65 -> 1 in bucket 1, 66 -> 2 in
	 * bucket 2, walked in that order; @ht2: 194 -> 130 in bucket 2.
	 */
	for (i = 0; i < 6; i++) {
		objs[i].key = keys[i];
		objs[i].live = true;
		KUNIT_ASSERT_EQ(test, rhashtable_insert_fast(i < 4 ? ht : ht2,
							     &objs[i].node, p),
				0);
	}
	rht_test_walk_init(test, &w, 6);
	rhashtable_walk_enter(ht, &iter);
	rhashtable_walk_start(&iter);
	do {
		obj = rhashtable_walk_next(&iter);
		rht_test_walk_saw(&w, obj);
	} while (obj && obj != at);
	KUNIT_ASSERT_PTR_EQ(test, obj, at);
	KUNIT_ASSERT_EQ(test, rhashtable_remove_fast(ht, &at->node, p), 0);
	at->key = c->key;
	KUNIT_ASSERT_EQ(test, rhashtable_insert_fast(c->other_table ? ht2 : ht,
						     &at->node, p), 0);
	while ((obj = rhashtable_walk_next(&iter)) != NULL) {
		if (!IS_ERR(obj) && obj->id >= 4)
			foreign++;
		rht_test_walk_saw(&w, obj);
	}
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	KUNIT_EXPECT_EQ(test, w.dups, 0U);
	KUNIT_EXPECT_EQ(test, foreign, 0U);
	KUNIT_EXPECT_EQ(test, rht_test_walk_missed(&w, objs, 4), 0U);
}

static void rht_test_walk_across_resizes_terminates(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 200, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	unsigned int rounds = 0, resizes = 0;
	struct rhashtable_iter iter;
	struct rht_test_walk w;
	bool more = true;
	unsigned int k;

	rht_test_walk_init(test, &w, 200);
	rht_test_insert_all(test, ht, objs, 200);
	rht_test_settle(ht);
	rhashtable_walk_enter(ht, &iter);
	while (more && rounds++ < 500) {
		if (rhashtable_walk_start_check(&iter))
			w.epoch++;
		for (k = 0; k < 10 && more; k++)
			more = rht_test_walk_saw(&w, rhashtable_walk_next(&iter));
		rhashtable_walk_stop(&iter);
		/* Six resizes at various points of the walk. */
		if (rounds % 4 == 2 && resizes < 6) {
			KUNIT_EXPECT_EQ(test, resizes & 1 ?
					rhashtable_shrink(ht) :
					rhashtable_expand(ht), 0);
			resizes++;
		}
	}
	rhashtable_walk_exit(&iter);
	KUNIT_EXPECT_FALSE(test, more);
	KUNIT_EXPECT_EQ(test, resizes, 6U);
	KUNIT_EXPECT_GE(test, w.epoch, 1);
	KUNIT_EXPECT_EQ(test, w.dups, 0U);
	KUNIT_EXPECT_EQ(test, rht_test_walk_missed(&w, objs, 200), 0U);
}

/* ------------------------------------------------------------------ */
/* Allocation failures and nested bucket arrays                        */
/* ------------------------------------------------------------------ */

#define RHT_TEST_ALWAYS		INT_MAX

/*
 * Allocation failures for one table.  At each site the calls numbered
 * from @from to @from + @count - 1 (counting from 0) fail.
 */
struct rht_test_fault {
	const struct rhashtable *ht;
	int from[RHT_TEST_SITES];
	int count[RHT_TEST_SITES];
	atomic_t calls[RHT_TEST_SITES];
	atomic_t failed[RHT_TEST_SITES];
};

static struct rht_test_fault rht_test_fault;

static bool rht_test_fail_alloc(const struct rhashtable *ht,
				enum rht_alloc_site site)
{
	int n, from;

	if (ht != READ_ONCE(rht_test_fault.ht) || site >= RHT_TEST_SITES)
		return false;
	n = atomic_inc_return(&rht_test_fault.calls[site]) - 1;
	from = READ_ONCE(rht_test_fault.from[site]);
	if (n < from || n - from >= READ_ONCE(rht_test_fault.count[site]))
		return false;
	atomic_inc(&rht_test_fault.failed[site]);
	return true;
}

static void rht_test_fault_set(enum rht_alloc_site site, int from, int count)
{
	WRITE_ONCE(rht_test_fault.from[site], from);
	WRITE_ONCE(rht_test_fault.count[site], count);
}

static const struct rht_test_hooks rht_test_fault_hooks = {
	.fail_alloc = rht_test_fail_alloc,
};

static void rht_test_fault_disarm(void *unused)
{
	rht_test_set_hooks(NULL);
	WRITE_ONCE(rht_test_fault.ht, NULL);
}

/* Route @ht's allocations through the hook; nothing fails yet. */
static void rht_test_fault_arm(struct kunit *test, const struct rhashtable *ht)
{
	int site;

	for (site = 0; site < RHT_TEST_SITES; site++) {
		rht_test_fault_set(site, 0, 0);
		atomic_set(&rht_test_fault.calls[site], 0);
		atomic_set(&rht_test_fault.failed[site], 0);
	}
	WRITE_ONCE(rht_test_fault.ht, ht);
	rht_test_set_hooks(&rht_test_fault_hooks);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							rht_test_fault_disarm,
							NULL), 0);
}

static int rht_test_fault_failed(enum rht_alloc_site site)
{
	return atomic_read(&rht_test_fault.failed[site]);
}

struct rht_test_init_fault {
	const char *desc;
	u16 nelem_hint;
	int from[RHT_TEST_SITES];
	int count[RHT_TEST_SITES];
	int err;
	bool nested;
	unsigned int size;
};

/* A hint of 100 asks for 256 buckets, one of 1000 for 2048 (nestable). */
static const struct rht_test_init_fault rht_test_init_faults[] = {
	{ .desc = "every allocation fails", .nelem_hint = 1000,
	  .count = { RHT_TEST_ALWAYS, RHT_TEST_ALWAYS, RHT_TEST_ALWAYS,
		     RHT_TEST_ALWAYS },
	  .err = -ENOMEM },
	{ .desc = "flat and nested top level fail", .nelem_hint = 1000,
	  .count = { RHT_TEST_ALWAYS, RHT_TEST_ALWAYS },
	  .err = -ENOMEM },
	{ .desc = "flat and third nested leaf fail", .nelem_hint = 1000,
	  .from = { 0, 0, 2 }, .count = { RHT_TEST_ALWAYS, 0, 1 },
	  .err = -ENOMEM },
	{ .desc = "flat fails, too small to nest", .nelem_hint = 100,
	  .count = { RHT_TEST_ALWAYS },
	  .err = -ENOMEM },
	{ .desc = "first flat fails, minimum size", .nelem_hint = 100,
	  .count = { 1 },
	  .size = 4 },
	{ .desc = "flat fails, nested array", .nelem_hint = 1000,
	  .count = { RHT_TEST_ALWAYS },
	  .nested = true, .size = 2048 },
	{ .desc = "per-cpu counter fails, unused", .nelem_hint = 100,
	  .count = { 0, 0, 0, RHT_TEST_ALWAYS },
	  .size = 256 },
};

static void rht_test_init_fault_desc(const struct rht_test_init_fault *f,
				     char *desc)
{
	strscpy(desc, f->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rht_test_init_fault, rht_test_init_faults,
		  rht_test_init_fault_desc);

static void rht_test_init_handles_allocation_failure(struct kunit *test)
{
	const struct rht_test_init_fault *f = test->param_value;
	struct rhashtable *ht = kunit_kzalloc(test, sizeof(*ht), GFP_KERNEL);
	struct rht_test_obj *objs = rht_test_objs(test, 100, 1);
	struct rhashtable_params p = rht_test_params;
	int site, err, failed = 0;

	KUNIT_ASSERT_NOT_NULL(test, ht);
	p.nelem_hint = f->nelem_hint;
	rht_test_fault_arm(test, ht);
	for (site = 0; site < RHT_TEST_SITES; site++)
		rht_test_fault_set(site, f->from[site], f->count[site]);
	err = rhashtable_init(ht, &p);
	for (site = 0; site < RHT_TEST_SITES; site++)
		failed += rht_test_fault_failed(site);
	KUNIT_ASSERT_EQ(test, err, f->err);
	if (f->err) {
		KUNIT_EXPECT_GT(test, failed, 0);
		return;
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rht_test_destroy,
							ht), 0);
	rht_test_fault_disarm(NULL);
	KUNIT_EXPECT_EQ(test, !!rht_test_nest(ht), f->nested);
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), f->size);
	KUNIT_EXPECT_EQ(test, rht_test_stats(ht).nested, (unsigned long)f->nested);
	/* Whatever array it got, the table works. */
	rht_test_insert_all(test, ht, objs, 100);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 100), 0U);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 100U);
}

/* A table whose first array is nested: flat allocation failed in init. */
static struct rhashtable *rht_test_new_nested(struct kunit *test,
					      u16 nelem_hint)
{
	struct rht_test_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct rhashtable_params p = rht_test_params;

	KUNIT_ASSERT_NOT_NULL(test, t);
	p.nelem_hint = nelem_hint;
	rht_test_fault_arm(test, &t->ht);
	rht_test_fault_set(RHT_ALLOC_FLAT, 0, RHT_TEST_ALWAYS);
	KUNIT_ASSERT_EQ(test, rhashtable_init(&t->ht, &p), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rht_test_destroy,
							&t->ht), 0);
	rht_test_fault_disarm(NULL);
	KUNIT_ASSERT_NE(test, rht_test_nest(&t->ht), 0U);
	return &t->ht;
}

static void rht_test_nested_array_supports_updates_and_walks(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 600, 1);
	struct rhashtable *ht = rht_test_new_nested(test, 1000);
	struct rhashtable_iter iter;
	struct rht_test_walk w;
	unsigned int i;

	rht_test_walk_init(test, &w, 600);
	rht_test_insert_all(test, ht, objs, 600);
	for (i = 0; i < 600; i += 4) {
		KUNIT_EXPECT_EQ(test, rhashtable_remove_fast(ht, &objs[i].node,
							     rht_test_params), 0);
		objs[i].live = false;
	}
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 600), 0U);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 450U);
	KUNIT_EXPECT_EQ(test, rht_test_count_reachable(ht, 1), 450U);
	rht_test_expect_visited_once(test, objs, 600);
	rhashtable_walk_enter(ht, &iter);
	rhashtable_walk_start(&iter);
	while (rht_test_walk_saw(&w, rhashtable_walk_next(&iter)))
		;
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	KUNIT_EXPECT_EQ(test, w.returned, 450U);
	KUNIT_EXPECT_EQ(test, w.stale, 0U);
	KUNIT_EXPECT_EQ(test, rht_test_walk_missed(&w, objs, 600), 0U);
	KUNIT_EXPECT_NE(test, rht_test_nest(ht), 0U);
}

static void rht_test_worker_replaces_nested_array_by_flat(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 800, 1);
	struct rhashtable *ht = rht_test_new_nested(test, 600);
	unsigned long rehashes = rht_test_stats(ht).rehashes;

	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 1024U);
	/* Over 75% of 1024 buckets: the worker is asked to look. */
	rht_test_insert_all(test, ht, objs, 800);
	KUNIT_EXPECT_TRUE(test, rht_test_wait_nested(ht, false));
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 2048U);
	KUNIT_EXPECT_GT(test, rht_test_stats(ht).rehashes, rehashes);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 800), 0U);
	KUNIT_EXPECT_EQ(test, rht_test_count_reachable(ht, 1), 800U);
	rht_test_expect_visited_once(test, objs, 800);
}

static void rht_test_failed_resize_falls_back_to_nested_array(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;
	struct rht_test_obj *objs = rht_test_objs(test, 400, 1);
	struct rhashtable_stats st;
	struct rhashtable *ht;

	p.nelem_hint = 300;
	ht = rht_test_new(test, &p);
	KUNIT_ASSERT_EQ(test, rht_test_size(ht), 512U);
	rht_test_fault_arm(test, ht);
	rht_test_fault_set(RHT_ALLOC_FLAT, 0, RHT_TEST_ALWAYS);
	rht_test_insert_all(test, ht, objs, 400);
	KUNIT_EXPECT_TRUE(test, rht_test_wait_nested(ht, true));
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 400), 0U);
	st = rht_test_stats(ht);
	KUNIT_EXPECT_EQ(test, st.nested, 1UL);
	KUNIT_EXPECT_GT(test, rht_test_fault_failed(RHT_ALLOC_FLAT), 0);
	/* Flat arrays can be had again: the worker swaps one in. */
	rht_test_fault_disarm(NULL);
	KUNIT_EXPECT_TRUE(test, rht_test_wait_nested(ht, false));
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 1024U);
	KUNIT_EXPECT_GT(test, rht_test_stats(ht).rehashes, st.rehashes);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 400), 0U);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 400U);
	KUNIT_EXPECT_EQ(test, rht_test_count_reachable(ht, 1), 400U);
	rht_test_expect_visited_once(test, objs, 400);
}

static void rht_test_failed_resize_is_retried_by_worker(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 100, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	unsigned long deadline;
	int site;

	rht_test_fault_arm(test, ht);
	/*
	 * Every bucket array fails.  The resize state is left alone: without
	 * it there is no back-off timer, and only the next update retries.
	 */
	for (site = 0; site < RHT_TEST_SITES; site++)
		if (site != RHT_ALLOC_RESIZER)
			rht_test_fault_set(site, 0, RHT_TEST_ALWAYS);
	/* Inserts never allocate: none fails while the worker cannot grow. */
	rht_test_insert_all(test, ht, objs, 100);
	deadline = jiffies + msecs_to_jiffies(RHT_TEST_TIMEOUT_MS);
	while (rht_test_stats(ht).alloc_failures < 3 &&
	       !rht_test_timed_out(deadline))
		;
	KUNIT_EXPECT_GE(test, rht_test_stats(ht).alloc_failures, 3UL);
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 64U);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 100), 0U);
	rht_test_fault_disarm(NULL);
	KUNIT_EXPECT_TRUE(test, rht_test_wait_size(ht, 256));
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 100), 0U);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 100U);
}

static void rht_test_expand_returns_enomem_when_allocation_fails(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 20, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);

	rht_test_insert_all(test, ht, objs, 20);
	rht_test_fault_arm(test, ht);
	rht_test_fault_set(RHT_ALLOC_FLAT, 0, RHT_TEST_ALWAYS);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(ht), -ENOMEM);
	KUNIT_EXPECT_EQ(test, rhashtable_shrink(ht), -ENOMEM);
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 64U);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 20), 0U);
	rht_test_fault_disarm(NULL);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(ht), 0);
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 128U);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 20), 0U);
}

/*
 * The count of a big table stays exact after a resize that went back
 * down: updates count with one atomic each, never per CPU.
 */
static void rht_test_big_table_count_stays_exact(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 1000, 1);
	struct rhashtable_params p = rht_test_params;
	struct rhashtable *ht;
	unsigned int i;

	p.nelem_hint = 65535;
	ht = rht_test_new(test, &p);
	KUNIT_ASSERT_EQ(test, rht_test_size(ht), 131072U);
	KUNIT_ASSERT_EQ(test, rhashtable_shrink(ht), 0);
	rht_test_insert_all(test, ht, objs, 1000);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 1000U);
	for (i = 0; i < 1000; i += 5) {
		KUNIT_EXPECT_EQ(test, rhashtable_remove_fast(ht, &objs[i].node,
							     rht_test_params), 0);
		objs[i].live = false;
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&ht->nelems), 800);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 800U);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 1000), 0U);
}

/* ------------------------------------------------------------------ */
/* Sizing                                                              */
/* ------------------------------------------------------------------ */

static void rht_test_automatic_growth_follows_inserts(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 1000, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	struct rhashtable_stats before = rht_test_stats(ht), after;
	unsigned int i;

	for (i = 0; i < 1000; i++) {
		KUNIT_ASSERT_EQ(test, rhashtable_insert_fast(ht, &objs[i].node,
							     rht_test_params),
				0);
		objs[i].live = true;
		/* Keep the worker from falling behind. */
		if (i + 1 > rht_test_size(ht) / 4 * 3)
			rht_test_settle(ht);
	}
	/* 1000 objects are more than 75% of 1024 buckets, not of 2048. */
	KUNIT_EXPECT_TRUE(test, rht_test_wait_size(ht, 2048));
	after = rht_test_stats(ht);
	KUNIT_EXPECT_EQ(test, after.grows - before.grows, 5UL);
	KUNIT_EXPECT_EQ(test, after.rehashes - before.rehashes, 0UL);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 1000), 0U);
}

static void rht_test_burst_of_inserts_ends_at_fitting_size(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 3000, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	unsigned long resizes = rht_test_resizes(ht);

	/* No pause: the worker may be far behind and catch up at once. */
	rht_test_insert_all(test, ht, objs, 3000);
	KUNIT_EXPECT_TRUE(test, rht_test_wait_size(ht, 4096));
	KUNIT_EXPECT_GE(test, rht_test_resizes(ht) - resizes, 1UL);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 3000), 0U);
	KUNIT_EXPECT_EQ(test, rht_test_count_reachable(ht, 1), 3000U);
	rht_test_expect_visited_once(test, objs, 3000);
}

/*
 * A worker that finds more objects than buckets is behind: it moves them
 * into an array that fits, even when that array is the double, rather
 * than unzip chains of more than two objects on average.
 */
/*
 * Insert @objs[0..n) while holding the mutex, so that the worker the
 * inserts kick waits until all of them are in: a worker that fell behind.
 */
static void rht_test_insert_while_worker_waits(struct kunit *test,
					       struct rhashtable *ht,
					       struct rht_test_obj *objs,
					       unsigned int n)
{
	unsigned int i;
	int err = 0;

	mutex_lock(&ht->mutex);
	for (i = 0; i < n && !err; i++) {
		err = rhashtable_insert_fast(ht, &objs[i].node,
					     rht_test_params);
		objs[i].live = !err;
	}
	mutex_unlock(&ht->mutex);
	KUNIT_ASSERT_EQ(test, err, 0);
}

/* Since @before, the table grew by one move and no unzip; @n objects. */
static void rht_test_expect_one_move(struct kunit *test,
				     struct rhashtable *ht,
				     const struct rhashtable_stats *before,
				     struct rht_test_obj *objs, unsigned int n)
{
	struct rhashtable_stats after = rht_test_stats(ht);

	KUNIT_EXPECT_EQ(test, after.rehashes - before->rehashes, 1UL);
	KUNIT_EXPECT_EQ(test, after.grows - before->grows, 0UL);
	KUNIT_EXPECT_EQ(test, after.unzip_passes, before->unzip_passes);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, n), 0U);
	KUNIT_EXPECT_EQ(test, rht_test_count_reachable(ht, 1), n);
}

static void rht_test_behind_worker_moves_rather_than_unzips(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 80, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	struct rhashtable_stats before;

	KUNIT_ASSERT_EQ(test, rht_test_size(ht), 64U);
	before = rht_test_stats(ht);
	/* The worker, kicked at 49 objects, waits for the mutex. */
	rht_test_insert_while_worker_waits(test, ht, objs, 80);
	KUNIT_EXPECT_TRUE(test, rht_test_wait_size(ht, 128));
	rht_test_expect_one_move(test, ht, &before, objs, 80);
}

/*
 * Inserts that arrive while the worker is busy: the hooks insert objects
 * [@from, @to) of @objs into @ht, once, when the worker asks for the
 * allocation @site or reaches the step @point (-1: never).
 */
static struct {
	struct rhashtable *ht;
	struct rht_test_obj *objs;
	unsigned int from, to;
	int site, point;
	atomic_t fired;
	int err;
} rht_test_arrivals;

static void rht_test_arrive(void)
{
	struct rhashtable *ht = READ_ONCE(rht_test_arrivals.ht);
	struct rht_test_obj *objs = rht_test_arrivals.objs;
	unsigned int i;
	int err = 0;

	if (atomic_xchg(&rht_test_arrivals.fired, 1))
		return;
	for (i = rht_test_arrivals.from; i < rht_test_arrivals.to && !err; i++) {
		err = rhashtable_insert_fast(ht, &objs[i].node, rht_test_params);
		objs[i].live = !err;
	}
	rht_test_arrivals.err = err;
}

static bool rht_test_arrive_at_alloc(const struct rhashtable *ht,
				     enum rht_alloc_site site)
{
	if (ht == READ_ONCE(rht_test_arrivals.ht) &&
	    site == rht_test_arrivals.site)
		rht_test_arrive();
	return false;
}

static void rht_test_arrive_at_step(struct rhashtable *ht,
				    enum rht_test_point point, unsigned int arg)
{
	if (ht == READ_ONCE(rht_test_arrivals.ht) &&
	    point == rht_test_arrivals.point)
		rht_test_arrive();
}

static const struct rht_test_hooks rht_test_arrival_hooks = {
	.fail_alloc = rht_test_arrive_at_alloc,
	.step = rht_test_arrive_at_step,
};

static void rht_test_arrivals_disarm(void *unused)
{
	rht_test_set_hooks(NULL);
	WRITE_ONCE(rht_test_arrivals.ht, NULL);
}

static void rht_test_arrivals_arm(struct kunit *test, struct rhashtable *ht,
				  struct rht_test_obj *objs, unsigned int from,
				  unsigned int to, int site, int point)
{
	rht_test_arrivals.objs = objs;
	rht_test_arrivals.from = from;
	rht_test_arrivals.to = to;
	rht_test_arrivals.site = site;
	rht_test_arrivals.point = point;
	rht_test_arrivals.err = 0;
	atomic_set(&rht_test_arrivals.fired, 0);
	WRITE_ONCE(rht_test_arrivals.ht, ht);
	rht_test_set_hooks(&rht_test_arrival_hooks);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							rht_test_arrivals_disarm,
							NULL), 0);
}

static void rht_test_doubling_overtaken_by_inserts_moves(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 80, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	struct rhashtable_stats before;

	KUNIT_ASSERT_EQ(test, rht_test_size(ht), 64U);
	before = rht_test_stats(ht);
	/*
	 * The 49th object makes the worker plan a doubling of 64 buckets;
	 * 31 more arrive while it allocates, and 80 objects are too many to
	 * unzip.
	 */
	rht_test_arrivals_arm(test, ht, objs, 49, 80, RHT_ALLOC_FLAT, -1);
	rht_test_insert_all(test, ht, objs, 49);
	KUNIT_EXPECT_TRUE(test, rht_test_wait_size(ht, 128));
	KUNIT_EXPECT_EQ(test, atomic_read(&rht_test_arrivals.fired), 1);
	KUNIT_EXPECT_EQ(test, rht_test_arrivals.err, 0);
	rht_test_expect_one_move(test, ht, &before, objs, 80);
}

static void rht_test_move_leaves_room_for_arrivals(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 140, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	struct rhashtable_stats before, after;

	KUNIT_ASSERT_EQ(test, rht_test_size(ht), 64U);
	before = rht_test_stats(ht);
	/*
	 * 80 objects in 64 buckets: the worker moves them into 128, and 60
	 * more arrive during the move.  140 objects are again more than
	 * buckets; 128 would fit them in 256, but at the rate they came
	 * (60 per 80 moved) the move makes room for 70 more: 512.
	 */
	rht_test_arrivals_arm(test, ht, objs, 80, 140, -1, RHT_TP_MOVED_BUCKET);
	rht_test_insert_while_worker_waits(test, ht, objs, 80);
	KUNIT_EXPECT_TRUE(test, rht_test_wait_size(ht, 512));
	KUNIT_EXPECT_EQ(test, atomic_read(&rht_test_arrivals.fired), 1);
	KUNIT_EXPECT_EQ(test, rht_test_arrivals.err, 0);
	after = rht_test_stats(ht);
	KUNIT_EXPECT_EQ(test, after.rehashes - before.rehashes, 2UL);
	KUNIT_EXPECT_EQ(test, after.grows - before.grows, 0UL);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 140), 0U);
	KUNIT_EXPECT_EQ(test, rht_test_count_reachable(ht, 1), 140U);
}

static void rht_test_automatic_shrinking_follows_removes(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;
	struct rht_test_obj *objs = rht_test_objs(test, 1000, 1);
	struct rhashtable *ht;
	unsigned int i;

	p.automatic_shrinking = true;
	ht = rht_test_new(test, &p);
	rht_test_insert_all(test, ht, objs, 1000);
	KUNIT_ASSERT_TRUE(test, rht_test_wait_size(ht, 2048));
	for (i = 10; i < 1000; i++) {
		KUNIT_ASSERT_EQ(test, rhashtable_remove_fast(ht, &objs[i].node,
							     rht_test_params), 0);
		objs[i].live = false;
	}
	/* 10 objects are less than 30% of 64 buckets, not of 32. */
	KUNIT_EXPECT_TRUE(test, rht_test_wait_size(ht, 32));
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 1000), 0U);
}

static void rht_test_without_automatic_shrinking_size_stays(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 200, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	unsigned int i;

	rht_test_insert_all(test, ht, objs, 200);
	KUNIT_ASSERT_TRUE(test, rht_test_wait_size(ht, 512));
	for (i = 0; i < 200; i++)
		KUNIT_ASSERT_EQ(test, rhashtable_remove_fast(ht, &objs[i].node,
							     rht_test_params), 0);
	rht_test_settle(ht);
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 512U);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 0U);
}

static void rht_test_min_size_bounds_automatic_shrinking(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;
	struct rht_test_obj *objs = rht_test_objs(test, 2, 1);
	struct rhashtable *ht;

	p.nelem_hint = 300;
	p.min_size = 32;
	p.automatic_shrinking = true;
	ht = rht_test_new(test, &p);
	KUNIT_ASSERT_EQ(test, rht_test_size(ht), 512U);
	rht_test_insert_all(test, ht, objs, 2);
	KUNIT_EXPECT_EQ(test, rhashtable_remove_fast(ht, &objs[0].node,
						     rht_test_params), 0);
	KUNIT_EXPECT_TRUE(test, rht_test_wait_size(ht, 32));
	KUNIT_EXPECT_EQ(test, rhashtable_remove_fast(ht, &objs[1].node,
						     rht_test_params), 0);
	rht_test_settle(ht);
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 32U);
	KUNIT_EXPECT_EQ(test, rhashtable_shrink(ht), -ERANGE);
}

static void rht_test_min_size_defaults_to_four_buckets(struct kunit *test)
{
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	unsigned int shrinks = 0;

	while (rhashtable_shrink(ht) == 0 && shrinks < 20)
		shrinks++;
	KUNIT_EXPECT_EQ(test, shrinks, 4U);
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 4U);
}

static void rht_test_max_size_bounds_automatic_growth(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;
	struct rht_test_obj *objs = rht_test_objs(test, 32, 1);
	struct rhashtable *ht;

	p.max_size = 16;
	ht = rht_test_new(test, &p);
	KUNIT_ASSERT_EQ(test, rht_test_size(ht), 16U);
	rht_test_insert_all(test, ht, objs, 32);
	rht_test_settle(ht);
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 16U);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 32), 0U);
}

static void rht_test_max_size_is_rounded_down_to_power_of_two(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;
	struct rht_test_obj *objs = rht_test_objs(test, 49, 1);
	struct rhashtable *ht;

	/* 100 buckets become 64, which hold 128 objects at most. */
	p.max_size = 100;
	ht = rht_test_new(test, &p);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(ht), -E2BIG);
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 64U);
	KUNIT_EXPECT_EQ(test, ht->max_elems, 128U);
	rht_test_insert_all(test, ht, objs, 49);
	rht_test_settle(ht);
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 64U);
}

/* ------------------------------------------------------------------ */
/* Walks during a resize, hash floods                                  */
/* ------------------------------------------------------------------ */

/* Resizes are left to the worker, aimed at rht_test_table.target. */
static const struct rhashtable_params rht_test_target_params = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct rht_test_obj, key),
	.head_offset = offsetof(struct rht_test_obj, node),
	.grow_decision = rht_test_grow_to_target,
	.shrink_decision = rht_test_shrink_to_target,
};

/*
 * Walks during a resize: the resize runs in the test's thread (an
 * explicit doubling or halving) and stops at each of its steps, where a
 * whole walk runs.  Every object is in the table throughout.
 */
struct rht_test_step_walk {
	struct kunit *test;
	struct rhashtable *ht;
	struct rht_test_obj *objs;
	unsigned int n;
	struct rht_test_walk w;
	unsigned int walks;	/* walks made at a step */
};

static struct rht_test_step_walk *rht_test_step_walk;

static void rht_test_walk_at_step(struct rhashtable *ht,
				  enum rht_test_point point, unsigned int arg)
{
	struct rht_test_step_walk *s = READ_ONCE(rht_test_step_walk);
	struct rhashtable_iter iter;
	unsigned int i;

	if (!s || ht != s->ht || point == RHT_TP_RETIRE ||
	    (point == RHT_TP_ZIPPED_PAIR && arg % 64))
		return;
	for (i = 0; i < s->n; i++)
		s->w.epoch_of[i] = -1;
	s->w.epoch = 0;
	s->w.dups = 0;
	rhashtable_walk_enter(ht, &iter);
	if (rhashtable_walk_start_check(&iter))
		s->w.epoch++;
	while (rht_test_walk_saw(&s->w, rhashtable_walk_next(&iter)))
		;
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	KUNIT_EXPECT_EQ_MSG(s->test, s->w.dups, 0U,
			    "objects returned twice without -EAGAIN (step %d)",
			    point);
	KUNIT_EXPECT_EQ_MSG(s->test, rht_test_walk_missed(&s->w, s->objs, s->n),
			    0U, "objects missed (step %d)", point);
	s->walks++;
}

static const struct rht_test_hooks rht_test_step_walk_hooks = {
	.step = rht_test_walk_at_step,
};

static void rht_test_step_walk_done(void *unused)
{
	rht_test_set_hooks(NULL);
	WRITE_ONCE(rht_test_step_walk, NULL);
}

static struct rht_test_step_walk *
rht_test_step_walk_new(struct kunit *test, unsigned int hint)
{
	struct rht_test_step_walk *s = kunit_kzalloc(test, sizeof(*s),
						     GFP_KERNEL);
	struct rhashtable_params p = rht_test_params;

	KUNIT_ASSERT_NOT_NULL(test, s);
	p.nelem_hint = hint;
	s->test = test;
	s->n = 600;
	s->objs = rht_test_objs(test, s->n, 1);
	s->ht = rht_test_new(test, &p);
	rht_test_walk_init(test, &s->w, s->n);
	rht_test_insert_all(test, s->ht, s->objs, s->n);
	rht_test_settle(s->ht);
	WRITE_ONCE(rht_test_step_walk, s);
	rht_test_set_hooks(&rht_test_step_walk_hooks);
	KUNIT_ASSERT_EQ(test,
			kunit_add_action_or_reset(test, rht_test_step_walk_done,
						  NULL), 0);
	return s;
}

static void rht_test_walk_during_doubling_returns_each_object_once(struct kunit *test)
{
	struct rht_test_step_walk *s = rht_test_step_walk_new(test, 600);
	unsigned int size;

	for (size = rht_test_size(s->ht); size < 16384; size *= 2) {
		KUNIT_ASSERT_EQ(test, rhashtable_expand(s->ht), 0);
		KUNIT_EXPECT_EQ(test, rht_test_size(s->ht), 2 * size);
	}
	/* Published, then each unzip pass, of each doubling. */
	KUNIT_EXPECT_GE(test, s->walks, 8U);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(s->ht, s->objs, s->n), 0U);
}

static void rht_test_walk_during_halving_returns_each_object_once(struct kunit *test)
{
	struct rht_test_step_walk *s = rht_test_step_walk_new(test, 12000);
	unsigned int size;

	for (size = rht_test_size(s->ht); size > 256; size /= 2) {
		KUNIT_ASSERT_EQ(test, rhashtable_shrink(s->ht), 0);
		KUNIT_EXPECT_EQ(test, rht_test_size(s->ht), size / 2);
	}
	/* While pairs are zipped, and once published, of each halving. */
	KUNIT_EXPECT_GE(test, s->walks, 12U);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(s->ht, s->objs, s->n), 0U);
}

struct rht_test_holder {
	struct mutex *mutex;		/* held by rht_test_holder_fn() */
	struct completion held;
	struct completion released;
};

/* Hold @arg's mutex for a while, so that the worker waits for it. */
static int rht_test_holder_fn(void *arg)
{
	struct rht_test_holder *h = arg;

	mutex_lock(h->mutex);
	complete(&h->held);
	msleep(100);
	mutex_unlock(h->mutex);
	complete(&h->released);
	return 0;
}

/*
 * Destroy a table while its worker runs: it was asked to grow and waits
 * for ht->mutex, which another thread holds for a while; once it has the
 * mutex it starts a doubling that needs a grace period.  Destruction does
 * not wait for that grace period.  The table's memory is poisoned right
 * after it and kept until a later rcu_barrier(): a callback that still
 * used the table would run on freed memory in real use; here it changes
 * the poison (or trips over it).
 */
static void rht_test_destroy_leaves_no_grace_period_callback(struct kunit *test)
{
	struct rht_test_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct rht_test_holder *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	struct rht_test_obj *objs = rht_test_objs(test, 64, 1);
	unsigned int round, i, late = 0, caught = 0;
	struct task_struct *task;
	unsigned long deadline;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, h);
	for (round = 0; round < 5; round++) {
		memset(&t->ht, 0, sizeof(t->ht));
		KUNIT_ASSERT_EQ(test, rhashtable_init(&t->ht,
						      &rht_test_target_params),
				0);
		rht_test_set_target(&t->ht, 1 << 14);
		h->mutex = &t->ht.mutex;
		init_completion(&h->held);
		init_completion(&h->released);
		task = kthread_run(rht_test_holder_fn, h, "rht-test-holder");
		KUNIT_ASSERT_FALSE(test, IS_ERR(task));
		wait_for_completion(&h->held);
		/* The inserts ask for growth; the worker waits for the mutex. */
		for (i = 0; i < 64; i++)
			KUNIT_EXPECT_EQ(test,
					rhashtable_insert_fast(&t->ht,
							       &objs[i].node,
							       rht_test_target_params),
					0);
		deadline = jiffies + HZ;
		while (!(work_busy(&t->ht.run_work) & WORK_BUSY_RUNNING) &&
		       time_before(jiffies, deadline))
			msleep(20);
		caught += !!(work_busy(&t->ht.run_work) & WORK_BUSY_RUNNING);
		rhashtable_destroy(&t->ht);
		wait_for_completion(&h->released);
		/* Bit 0 clear: a late schedule_work() would set it. */
		memset(&t->ht, 0x6a, sizeof(t->ht));
		rcu_barrier();
		late += !!memchr_inv(&t->ht, 0x6a, sizeof(t->ht));
	}
	kunit_info(test, "rht-detail: destroyed %u of 5 tables while their worker ran\n",
		   caught);
	KUNIT_EXPECT_GT(test, caught, 0U);
	KUNIT_EXPECT_EQ_MSG(test, late, 0U,
			    "callbacks of destroyed tables ran after destruction");
}

/* Every key with RHT_TEST_HOSTILE set lands in one bucket, whatever seed. */
static u32 rht_test_hostile_hash(const void *data, u32 len, u32 seed)
{
	u32 key = *(const u32 *)data;

	if (key & RHT_TEST_HOSTILE)
		return 0x9e3779b9;
	return jhash2(data, 1, seed);
}

static const struct rhashtable_params rht_test_hostile_params = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct rht_test_obj, key),
	.head_offset = offsetof(struct rht_test_obj, node),
	.hashfn = rht_test_hostile_hash,
	.automatic_shrinking = true,
};

/* Longest chain of the current array. */
static unsigned int rht_test_longest_chain(struct rhashtable *ht)
{
	unsigned int i, n, longest = 0;
	struct bucket_table *tbl;
	struct rhash_head *pos;

	rcu_read_lock();
	tbl = rht_dereference_rcu(ht->tbl, ht);
	for (i = 0; i < tbl->size; i++) {
		n = 0;
		rht_for_each_rcu(pos, tbl, i)
			n++;
		longest = max(longest, n);
	}
	rcu_read_unlock();
	return longest;
}

/*
 * @n keys that all fall into bucket 0 of every array of up to 1024
 * buckets under the table's present seed.
 */
static void rht_test_colliding_keys(struct rhashtable *ht,
				    struct rht_test_obj *objs, unsigned int n)
{
	unsigned int i;
	u32 seed, key = 1;

	rcu_read_lock();
	seed = rht_dereference_rcu(ht->tbl, ht)->hash_rnd;
	rcu_read_unlock();
	for (i = 0; i < n; i++, key++) {
		while (jhash2(&key, 1, seed) & 1023)
			key++;
		objs[i].key = key;
	}
}

static void rht_test_colliding_keys_make_worker_reseed(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 40, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	unsigned long deadline;
	u32 seed, new_seed;

	rht_test_colliding_keys(ht, objs, 40);
	rcu_read_lock();
	seed = rht_dereference_rcu(ht->tbl, ht)->hash_rnd;
	rcu_read_unlock();
	/* Inserts keep succeeding however long the chain. */
	rht_test_insert_all(test, ht, objs, 40);
	deadline = jiffies + msecs_to_jiffies(RHT_TEST_TIMEOUT_MS);
	while (!rht_test_stats(ht).reseeds && !rht_test_timed_out(deadline))
		;
	rht_test_settle(ht);
	rcu_read_lock();
	new_seed = rht_dereference_rcu(ht->tbl, ht)->hash_rnd;
	rcu_read_unlock();
	KUNIT_EXPECT_GE(test, rht_test_stats(ht).reseeds, 1UL);
	KUNIT_EXPECT_GE(test, rht_test_stats(ht).long_chains, 1UL);
	KUNIT_EXPECT_NE(test, new_seed, seed);
	KUNIT_EXPECT_LE(test, rht_test_longest_chain(ht), RHT_ELASTICITY);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 40), 0U);
}

static void rht_test_fixed_seed_table_never_reseeds(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;
	struct rht_test_obj *objs = rht_test_objs(test, 40, 1);
	struct rhashtable_stats st;
	struct rhashtable *ht;
	unsigned long deadline;

	p.hash_rnd = 0x5eed;
	ht = rht_test_new(test, &p);
	rht_test_colliding_keys(ht, objs, 40);
	rht_test_insert_all(test, ht, objs, 40);
	deadline = jiffies + msecs_to_jiffies(RHT_TEST_TIMEOUT_MS);
	while (!rht_test_stats(ht).long_chains && !rht_test_timed_out(deadline))
		;
	rht_test_settle(ht);
	st = rht_test_stats(ht);
	KUNIT_EXPECT_GE(test, st.long_chains, 1UL);
	KUNIT_EXPECT_EQ(test, st.reseeds, 0UL);
	KUNIT_EXPECT_EQ(test, st.rehashes, 0UL);
	KUNIT_EXPECT_GE(test, rht_test_longest_chain(ht), 40U);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 40), 0U);
}

/*
 * A burst of inserts that outruns the worker overloads the table, and its
 * chains grow past RHT_ELASTICITY however good the hash.  That says the
 * table is behind, not that the seed is bad: the worker catches up by
 * growing, without a new seed (a rehash of the whole table for nothing).
 */
static void rht_test_burst_takes_no_new_seed(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 8192, 1);
	struct rhashtable *ht = rht_test_new(test, &rht_test_params);
	struct rhashtable_stats st;

	/* The worker waits for the mutex: 8192 keys go into 64 buckets. */
	mutex_lock(&ht->mutex);
	KUNIT_EXPECT_EQ(test, rht_test_size(ht), 64U);
	rht_test_insert_all(test, ht, objs, 8192);
	KUNIT_EXPECT_GT(test, rht_test_longest_chain(ht), RHT_ELASTICITY);
	mutex_unlock(&ht->mutex);
	rht_test_settle(ht);
	st = rht_test_stats(ht);
	KUNIT_EXPECT_EQ(test, st.reseeds, 0UL);
	KUNIT_EXPECT_EQ(test, st.long_chains, 0UL);
	KUNIT_EXPECT_GE(test, rht_test_size(ht), 8192U * 4 / 3);
	KUNIT_EXPECT_LE(test, rht_test_longest_chain(ht), RHT_ELASTICITY);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 8192), 0U);
}

/*
 * The worker cannot allocate its resize state when the first long chain
 * asks for a new seed.  Nothing is lost: the next long chain asks again
 * and gets it.
 */
static void rht_test_long_chain_asks_again_after_failed_resizer(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;
	struct rht_test_obj *objs = rht_test_objs(test, 40, 1);
	struct rhashtable *ht;
	unsigned long deadline;

	p.min_size = 1024;	/* colliding keys share bucket 0, no growth */
	ht = rht_test_new(test, &p);
	rht_test_fault_arm(test, ht);
	rht_test_fault_set(RHT_ALLOC_RESIZER, 0, 1);
	rht_test_colliding_keys(ht, objs, 40);
	rht_test_insert_all(test, ht, objs, 20);
	rht_test_settle(ht);
	KUNIT_ASSERT_EQ(test, rht_test_fault_failed(RHT_ALLOC_RESIZER), 1);
	KUNIT_EXPECT_EQ(test, rht_test_stats(ht).reseeds, 0UL);

	rht_test_insert_all(test, ht, objs + 20, 20);
	deadline = jiffies + msecs_to_jiffies(RHT_TEST_TIMEOUT_MS);
	while (!rht_test_stats(ht).reseeds && !rht_test_timed_out(deadline))
		flush_work(&ht->run_work);
	rht_test_settle(ht);
	KUNIT_EXPECT_EQ(test, rht_test_stats(ht).reseeds, 1UL);
	KUNIT_EXPECT_LE(test, rht_test_longest_chain(ht), RHT_ELASTICITY);
	KUNIT_EXPECT_EQ(test, rht_test_check_lookups(ht, objs, 40), 0U);
}

static void rht_test_degenerate_hash_inserts_keep_succeeding(struct kunit *test)
{
	struct rht_test_obj *objs = rht_test_objs(test, 200, RHT_TEST_HOSTILE);
	struct rhashtable *ht = rht_test_new(test, &rht_test_hostile_params);
	unsigned int i, bad = 0;

	for (i = 0; i < 200; i++) {
		if (rhashtable_lookup_insert_fast(ht, &objs[i].node,
						  rht_test_hostile_params))
			bad++;
		objs[i].live = true;
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	rht_test_settle(ht);
	for (i = 0; i < 200; i++)
		if (rhashtable_lookup_fast(ht, &objs[i].key,
					   rht_test_hostile_params) != &objs[i])
			bad++;
	KUNIT_EXPECT_EQ(test, bad, 0U);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 200U);
	KUNIT_EXPECT_GE(test, rht_test_stats(ht).long_chains, 1UL);
	for (i = 0; i < 200; i++)
		if (rhashtable_remove_fast(ht, &objs[i].node,
					   rht_test_hostile_params))
			bad++;
	KUNIT_EXPECT_EQ(test, bad, 0U);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 0U);
}

static struct kunit_case rht_test_cases[] = {
	KUNIT_CASE(rht_test_lookup_finds_object_under_rcu),
	KUNIT_CASE(rht_test_lookup_fast_misses_absent_key),
	KUNIT_CASE(rht_test_insert_fast_accepts_duplicate_keys),
	KUNIT_CASE(rht_test_lookup_insert_fast_returns_eexist_on_duplicate),
	KUNIT_CASE(rht_test_lookup_insert_fast_rejects_obj_hashfn_table),
	KUNIT_CASE(rht_test_lookup_insert_key_returns_eexist_on_duplicate),
	KUNIT_CASE(rht_test_lookup_insert_key_rejects_table_without_obj_hashfn),
	KUNIT_CASE(rht_test_lookup_get_insert_fast_returns_null_then_existing),
	KUNIT_CASE(rht_test_lookup_get_insert_fast_returns_e2big_when_full),
	KUNIT_CASE(rht_test_lookup_get_insert_fast_rejects_obj_hashfn_table),
	KUNIT_CASE(rht_test_lookup_get_insert_key_returns_null_then_existing),
	KUNIT_CASE(rht_test_remove_fast_unlinks_object),
	KUNIT_CASE(rht_test_remove_fast_returns_enoent_for_absent_object),
	KUNIT_CASE(rht_test_replace_fast_swaps_object_in_place),
	KUNIT_CASE(rht_test_replace_fast_returns_einval_for_other_bucket),
	KUNIT_CASE(rht_test_replace_fast_returns_enoent_for_absent_object),
	KUNIT_CASE(rht_test_insert_fast_returns_e2big_at_max_elems),
	KUNIT_CASE(rht_test_count_is_exact_after_inserts_and_removes),
	KUNIT_CASE(rht_test_bucket_walks_under_lock_visit_each_object_once),
	KUNIT_CASE(rht_test_chain_access_without_lock_is_caught),
	KUNIT_CASE(rht_test_rcu_bucket_walks_end_on_bucket_marker),
	KUNIT_CASE(rht_test_free_and_destroy_calls_free_fn_once_per_object),
	KUNIT_CASE(rht_test_free_and_destroy_while_worker_resizes),
	KUNIT_CASE(rht_test_rhltable_lookup_returns_every_duplicate),
	KUNIT_CASE(rht_test_rhltable_count_counts_keys),
	KUNIT_CASE(rht_test_rhltable_insert_key_files_object_under_key),
	KUNIT_CASE(rht_test_rhltable_remove_unlinks_one_duplicate),
	KUNIT_CASE(rht_test_rhltable_remove_returns_enoent_for_absent_object),
	KUNIT_CASE(rht_test_rhltable_free_and_destroy_frees_each_duplicate_once),
	KUNIT_CASE(rht_test_rhltable_duplicates_survive_resizes),
	KUNIT_CASE(rht_test_rhltable_walk_returns_every_duplicate_once),
	KUNIT_CASE(rht_test_walk_returns_each_object_once),
	KUNIT_CASE(rht_test_walk_of_empty_table_ends_at_once),
	KUNIT_CASE(rht_test_walk_start_check_returns_eagain_after_resize),
	KUNIT_CASE(rht_test_walk_peek_returns_current_object),
	KUNIT_CASE(rht_test_walk_peek_before_next_takes_first_object),
	KUNIT_CASE(rht_test_walk_resumes_after_stop_with_updates),
	KUNIT_CASE(rht_test_walk_stopped_at_removed_object_returns_eagain),
	KUNIT_CASE(rht_test_walk_stopped_at_reinserted_object_redoes_bucket),
	KUNIT_CASE_PARAM(rht_test_walk_carried_off_returns_eagain_first,
			 rht_test_carry_gen_params),
	KUNIT_CASE(rht_test_walk_across_resizes_terminates),
	KUNIT_CASE_PARAM(rht_test_init_handles_allocation_failure,
			 rht_test_init_fault_gen_params),
	KUNIT_CASE(rht_test_nested_array_supports_updates_and_walks),
	KUNIT_CASE(rht_test_worker_replaces_nested_array_by_flat),
	KUNIT_CASE(rht_test_failed_resize_falls_back_to_nested_array),
	KUNIT_CASE(rht_test_failed_resize_is_retried_by_worker),
	KUNIT_CASE(rht_test_expand_returns_enomem_when_allocation_fails),
	KUNIT_CASE(rht_test_big_table_count_stays_exact),
	KUNIT_CASE(rht_test_automatic_growth_follows_inserts),
	KUNIT_CASE(rht_test_burst_of_inserts_ends_at_fitting_size),
	KUNIT_CASE(rht_test_behind_worker_moves_rather_than_unzips),
	KUNIT_CASE(rht_test_doubling_overtaken_by_inserts_moves),
	KUNIT_CASE(rht_test_move_leaves_room_for_arrivals),
	KUNIT_CASE(rht_test_automatic_shrinking_follows_removes),
	KUNIT_CASE(rht_test_without_automatic_shrinking_size_stays),
	KUNIT_CASE(rht_test_min_size_bounds_automatic_shrinking),
	KUNIT_CASE(rht_test_min_size_defaults_to_four_buckets),
	KUNIT_CASE(rht_test_max_size_bounds_automatic_growth),
	KUNIT_CASE(rht_test_max_size_is_rounded_down_to_power_of_two),
	KUNIT_CASE(rht_test_walk_during_doubling_returns_each_object_once),
	KUNIT_CASE(rht_test_walk_during_halving_returns_each_object_once),
	KUNIT_CASE(rht_test_destroy_leaves_no_grace_period_callback),
	KUNIT_CASE(rht_test_colliding_keys_make_worker_reseed),
	KUNIT_CASE(rht_test_fixed_seed_table_never_reseeds),
	KUNIT_CASE(rht_test_burst_takes_no_new_seed),
	KUNIT_CASE(rht_test_long_chain_asks_again_after_failed_resizer),
	KUNIT_CASE(rht_test_degenerate_hash_inserts_keep_succeeding),
	{}
};

static struct kunit_suite rht_test_suite = {
	.name = "rhashtable",
	.test_cases = rht_test_cases,
};

/* ------------------------------------------------------------------ */
/* Stress                                                              */
/* ------------------------------------------------------------------ */

/* How long the threads of a stress case run. */
#define RHT_STRESS_MS		1500
/* Keys a chain reader remembers per bucket. */
#define RHT_STRESS_SEEN		256

enum rht_stress_kind {
	RHT_STRESS_PLAIN,	/* rht_test_params */
	RHT_STRESS_HOSTILE,	/* rht_test_hostile_params */
	RHT_STRESS_MOVING,	/* rht_test_moving_params */
};

/*
 * Keys of objects that movers take out, re-key and insert again while
 * readers may still stand on them: the hash and the compare read the key
 * once, as users that re-key objects under RCU must.  The hash keeps the
 * index bits, so that a key one bit away is the sibling of some doubling.
 */
#define RHT_TEST_MOVING		BIT(29)
#define RHT_MOVE_OBJS		64
#define RHT_MOVE_KEYS		4096

static u32 rht_test_moving_hash(const void *data, u32 len, u32 seed)
{
	return READ_ONCE(*(const u32 *)data) ^ seed;
}

static int rht_test_moving_cmp(struct rhashtable_compare_arg *arg,
			       const void *ptr)
{
	const struct rht_test_obj *obj = ptr;

	return READ_ONCE(obj->key) != *(const u32 *)arg->key;
}

static const struct rhashtable_params rht_test_moving_params = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct rht_test_obj, key),
	.head_offset = offsetof(struct rht_test_obj, node),
	.hashfn = rht_test_moving_hash,
	.obj_cmpfn = rht_test_moving_cmp,
	.automatic_shrinking = true,
};

enum rht_stress_mode {
	RHT_STRESS_CYCLE,	/* insert the slice, then remove it, again */
	RHT_STRESS_FILL,	/* insert the slice once */
	RHT_STRESS_TOGGLE,	/* insert or remove random objects */
	RHT_STRESS_TOGGLE_SEED,	/* the same with the 3.17 calls */
	RHT_STRESS_DRAIN,	/* remove the slice once */
	RHT_STRESS_ONCE,	/* insert each object once, remove it later */
	RHT_STRESS_GROW,	/* insert objects up to fill_limit */
};

/*
 * A stress case: a table, objects that stay in it ("stable", inserted
 * before the threads start), objects that writers insert and remove
 * ("churn", split among the writers) and objects whose keys all collide
 * ("hostile").  Threads do not call KUNIT_*: they count what went wrong,
 * and the test checks the counts once they have all stopped.
 */
struct rht_stress {
	struct kunit *test;
	struct rhashtable *ht;
	enum rht_stress_kind kind;
	enum rht_stress_mode mode;
	struct rht_test_obj *stable;
	unsigned int nstable;
	struct rht_test_obj *churn;
	unsigned int nchurn;
	unsigned int nwriters;
	unsigned int fill_limit;	/* RHT_STRESS_ONCE: objects to use */
	struct rht_test_obj *hostile;
	unsigned int nhostile;
	int stamp;
	void *ctx;		/* what a case's own threads need */
	struct rhltable *hlt;
	struct rht_test_lobj *lobjs;
	unsigned int nlstable;	/* the first nlstable of lobjs stay */
	unsigned int nlobjs;
	unsigned int nkeys;

	bool stop;		/* readers and writers: finish */
	bool stop_resizing;	/* resizers: finish */
	bool stopped;
	atomic_t running;	/* threads, plus one for the test */
	struct completion done;

	atomic_long_t lookups;
	atomic_long_t false_misses;
	atomic_long_t false_hits;
	atomic_long_t inserts;
	atomic_long_t removes;
	atomic_long_t walks;
	atomic_long_t carried;
	atomic_long_t unfinished;
	atomic_long_t moves;
	atomic_long_t errors;
	int first_err;
	u32 first_key;

	unsigned long resizes0;
	unsigned long faults0;
	unsigned int extra;	/* objects of the case's own threads in ht */
};

struct rht_stress_thread {
	struct rht_stress *s;
	unsigned int idx;
	void *buf;
};

static void rht_stress_put(struct rht_stress *s)
{
	if (atomic_dec_and_test(&s->running))
		complete(&s->done);
}

/* Stop every thread and wait for them; safe to call more than once. */
static void rht_stress_stop(struct rht_stress *s)
{
	if (s->stopped)
		return;
	s->stopped = true;
	WRITE_ONCE(s->stop_resizing, true);
	WRITE_ONCE(s->stop, true);
	rht_stress_put(s);
	wait_for_completion(&s->done);
}

KUNIT_DEFINE_ACTION_WRAPPER(rht_stress_stop_action, rht_stress_stop,
			    struct rht_stress *);

/* Make @s ready for a new set of threads. */
static void rht_stress_round(struct rht_stress *s)
{
	WRITE_ONCE(s->stop, false);
	WRITE_ONCE(s->stop_resizing, false);
	s->stopped = false;
	atomic_set(&s->running, 1);
	reinit_completion(&s->done);
}

static void rht_stress_error(struct rht_stress *s, int err, u32 key)
{
	if (atomic_long_inc_return(&s->errors) == 1) {
		WRITE_ONCE(s->first_err, err);
		WRITE_ONCE(s->first_key, key);
	}
}

static int rht_stress_insert(struct rht_stress *s, struct rht_test_obj *obj)
{
	if (s->kind == RHT_STRESS_HOSTILE)
		return rhashtable_lookup_insert_fast(s->ht, &obj->node,
						     rht_test_hostile_params);
	if (s->kind == RHT_STRESS_MOVING)
		return rhashtable_lookup_insert_fast(s->ht, &obj->node,
						     rht_test_moving_params);
	return rhashtable_lookup_insert_fast(s->ht, &obj->node,
					     rht_test_params);
}

static int rht_stress_remove(struct rht_stress *s, struct rht_test_obj *obj)
{
	if (s->kind == RHT_STRESS_HOSTILE)
		return rhashtable_remove_fast(s->ht, &obj->node,
					      rht_test_hostile_params);
	if (s->kind == RHT_STRESS_MOVING)
		return rhashtable_remove_fast(s->ht, &obj->node,
					      rht_test_moving_params);
	return rhashtable_remove_fast(s->ht, &obj->node, rht_test_params);
}

/* Look @key up in one of three ways, chosen by @how. */
static struct rht_test_obj *rht_stress_lookup(struct rht_stress *s, u32 key,
					      unsigned int how)
{
	bool hostile = s->kind == RHT_STRESS_HOSTILE;
	bool moving = s->kind == RHT_STRESS_MOVING;
	struct rht_test_obj *obj;

	switch (how % 3) {
	case 0:
		if (hostile)
			return rhashtable_lookup_fast(s->ht, &key,
						      rht_test_hostile_params);
		if (moving)
			return rhashtable_lookup_fast(s->ht, &key,
						      rht_test_moving_params);
		return rhashtable_lookup_fast(s->ht, &key, rht_test_params);
	case 1:
		rcu_read_lock();
		if (hostile)
			obj = rhashtable_lookup(s->ht, &key,
						rht_test_hostile_params);
		else if (moving)
			obj = rhashtable_lookup(s->ht, &key,
						rht_test_moving_params);
		else
			obj = rhashtable_lookup(s->ht, &key, rht_test_params);
		rcu_read_unlock();
		return obj;
	default:
		rcu_read_lock();
		obj = rhashtable_lookup(s->ht, &key);
		rcu_read_unlock();
		return obj;
	}
}

static void rht_stress_insert_stable(struct rht_stress *s)
{
	unsigned int i;

	for (i = 0; i < s->nstable; i++) {
		KUNIT_ASSERT_EQ(s->test, rht_stress_insert(s, &s->stable[i]), 0);
		s->stable[i].live = true;
	}
}

static struct rht_stress *rht_stress_new(struct kunit *test,
					 const struct rhashtable_params *p,
					 enum rht_stress_kind kind,
					 unsigned int nstable,
					 unsigned int nchurn,
					 unsigned int nhostile)
{
	struct rht_stress *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->test = test;
	s->kind = kind;
	s->nstable = nstable;
	s->nchurn = max(nchurn, 1U);
	s->nhostile = nhostile;
	s->stamp = 1000;
	/* Objects first: they must outlive the table. */
	s->stable = rht_test_objs(test, nstable, 1);
	s->churn = rht_test_objs(test, s->nchurn, 1 + nstable);
	s->hostile = rht_test_objs(test, max(nhostile, 1U), RHT_TEST_HOSTILE);
	s->ht = rht_test_new(test, p);
	init_completion(&s->done);
	rht_stress_round(s);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							rht_stress_stop_action,
							s), 0);
	rht_stress_insert_stable(s);
	return s;
}

static void rht_stress_spawn(struct rht_stress *s, int (*fn)(void *),
			     unsigned int idx, size_t buf_size,
			     const char *name)
{
	struct rht_stress_thread *t;
	struct task_struct *task;

	t = kunit_kzalloc(s->test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(s->test, t);
	t->s = s;
	t->idx = idx;
	if (buf_size) {
		t->buf = kunit_kzalloc(s->test, buf_size, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(s->test, t->buf);
	}
	atomic_inc(&s->running);
	task = kthread_run(fn, t, "rht-%s/%u", name, idx);
	if (IS_ERR(task)) {
		rht_stress_put(s);
		KUNIT_FAIL_AND_ABORT(s->test, "cannot start %s thread: %ld",
				     name, PTR_ERR(task));
	}
}

/* The counters the summary line reports start from here. */
static void rht_stress_begin(struct rht_stress *s)
{
	struct rhashtable_stats st = rht_test_stats(s->ht);

	s->resizes0 = st.grows + st.shrinks + st.rehashes;
	s->faults0 = st.alloc_failures;
}

/* Let the threads run for @ms and on, if need be, until a resize. */
static void rht_stress_run_for(struct rht_stress *s, unsigned int ms)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(RHT_TEST_TIMEOUT_MS);

	msleep(ms);
	while (rht_test_resizes(s->ht) == s->resizes0 &&
	       !rht_test_timed_out(deadline))
		;
}

/* Print the case's summary line, then check what it says. */
static void rht_stress_report(struct rht_stress *s, const char *name)
{
	struct rhashtable_stats st = rht_test_stats(s->ht);
	unsigned long resizes = st.grows + st.shrinks + st.rehashes -
				s->resizes0;
	unsigned long faults = st.alloc_failures - s->faults0;
	struct kunit *test = s->test;
	long misses = atomic_long_read(&s->false_misses);
	long hits = atomic_long_read(&s->false_hits);

	kunit_info(test,
		   "rht-stress %s: lookups=%ld false_misses=%ld false_hits=%ld moves=%ld resizes=%lu faults=%lu\n",
		   name, atomic_long_read(&s->lookups), misses, hits,
		   atomic_long_read(&s->moves), resizes, faults);
	KUNIT_EXPECT_GT(test, atomic_long_read(&s->lookups), 0L);
	KUNIT_EXPECT_EQ(test, misses, 0L);
	KUNIT_EXPECT_EQ(test, hits, 0L);
	KUNIT_EXPECT_EQ_MSG(test, atomic_long_read(&s->errors), 0L,
			    "first unexpected result: %d for key %#x",
			    READ_ONCE(s->first_err), READ_ONCE(s->first_key));
	KUNIT_EXPECT_GT(test, resizes, 0UL);
}

static unsigned int rht_stress_live(struct rht_test_obj *objs, unsigned int n)
{
	unsigned int i, live = 0;

	for (i = 0; i < n; i++)
		live += objs[i].live;
	return live;
}

/* Lookups of every object agree with its live flag; returns mismatches. */
static unsigned int rht_stress_check_set(struct rht_stress *s,
					 struct rht_test_obj *objs,
					 unsigned int n)
{
	unsigned int i, bad = 0;

	for (i = 0; i < n; i++)
		if (rht_stress_lookup(s, objs[i].key, i) !=
		    (objs[i].live ? &objs[i] : NULL))
			bad++;
	return bad;
}

/* Count the distinct objects a walk returns. */
static unsigned int rht_stress_walk_count(struct rht_stress *s)
{
	struct rhashtable_iter iter;
	struct rht_test_obj *obj;
	unsigned int n = 0;
	int stamp = ++s->stamp;

	rhashtable_walk_enter(s->ht, &iter);
	rhashtable_walk_start(&iter);
	while ((obj = rhashtable_walk_next(&iter))) {
		if (IS_ERR(obj) || obj->stamp == stamp)
			continue;
		obj->stamp = stamp;
		n++;
	}
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	return n;
}

/*
 * With the threads stopped: the count, a walk, the chains and lookups all
 * agree with what the threads say they left in the table.
 */
static void rht_stress_verify(struct rht_stress *s, const char *when)
{
	struct kunit *test = s->test;
	unsigned int live, bad;

	live = rht_stress_live(s->stable, s->nstable) +
	       rht_stress_live(s->churn, s->nchurn) +
	       rht_stress_live(s->hostile, s->nhostile) + s->extra;
	KUNIT_EXPECT_EQ_MSG(test, rhashtable_count(s->ht), live, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, rht_stress_walk_count(s), live, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, rht_test_count_reachable(s->ht, ++s->stamp),
			    live, "%s", when);
	bad = rht_stress_check_set(s, s->stable, s->nstable) +
	      rht_stress_check_set(s, s->churn, s->nchurn) +
	      rht_stress_check_set(s, s->hostile, s->nhostile);
	atomic_long_add(s->nstable + s->nchurn + s->nhostile, &s->lookups);
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "%s", when);
}

/* A small per-thread generator: the threads need speed, not quality. */
static u32 rht_stress_rand(u32 *state)
{
	u32 x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

/*
 * Look up stable keys (always there), keys never inserted (never there)
 * and churn and hostile keys (there or not, but never another object).
 */
static int rht_stress_reader(void *arg)
{
	struct rht_stress_thread *t = arg;
	struct rht_stress *s = t->s;
	long lookups = 0, misses = 0, hits = 0;
	u32 rnd = 0x9e3779b9 * (t->idx + 1);
	struct rht_test_obj *obj, *found;
	unsigned int k, i;

	while (!READ_ONCE(s->stop)) {
		for (k = 0; k < 32; k++) {
			i = rht_stress_rand(&rnd);
			obj = &s->stable[i % s->nstable];
			found = rht_stress_lookup(s, obj->key, i >> 8);
			if (!found)
				misses++;
			else if (found != obj)
				hits++;
			if (rht_stress_lookup(s, RHT_TEST_NEVER | i, i >> 9))
				hits++;
			obj = &s->churn[i % s->nchurn];
			found = rht_stress_lookup(s, obj->key, i >> 10);
			if (found && found != obj)
				hits++;
			lookups += 3;
			if (!s->nhostile)
				continue;
			obj = &s->hostile[i % s->nhostile];
			found = rht_stress_lookup(s, obj->key, i >> 11);
			if (found && found != obj)
				hits++;
			lookups++;
		}
		cond_resched();
	}
	atomic_long_add(lookups, &s->lookups);
	atomic_long_add(misses, &s->false_misses);
	atomic_long_add(hits, &s->false_hits);
	rht_stress_put(s);
	return 0;
}

static bool rht_stress_do_insert(struct rht_stress *s, struct rht_test_obj *obj)
{
	int err = rht_stress_insert(s, obj);

	if (err) {
		rht_stress_error(s, err, obj->key);
		return false;
	}
	obj->live = true;
	atomic_long_inc(&s->inserts);
	return true;
}

static bool rht_stress_do_remove(struct rht_stress *s, struct rht_test_obj *obj)
{
	int err = rht_stress_remove(s, obj);

	if (err) {
		rht_stress_error(s, err, obj->key);
		return false;
	}
	obj->live = false;
	atomic_long_inc(&s->removes);
	return true;
}

/* Toggle @obj with the 3.17 calls, under the caller's lock. */
static void rht_stress_seed_toggle(struct rht_stress *s,
				   struct rht_test_obj *obj)
{
	mutex_lock(&rht_test_caller_mutex);
	if (obj->live) {
		if (rhashtable_remove(s->ht, &obj->node)) {
			obj->live = false;
			atomic_long_inc(&s->removes);
		} else {
			rht_stress_error(s, -ENOENT, obj->key);
		}
	} else {
		int err = rhashtable_insert(s->ht, &obj->node);

		if (!err) {
			obj->live = true;
			atomic_long_inc(&s->inserts);
		} else {
			rht_stress_error(s, err, obj->key);
		}
	}
	mutex_unlock(&rht_test_caller_mutex);
}

/* Wait for the end without spinning. */
static void rht_stress_idle(struct rht_stress *s)
{
	while (!READ_ONCE(s->stop))
		msleep(20);
}

/* Churn the writer's slice of objects as s->mode says. */
static int rht_stress_writer(void *arg)
{
	struct rht_stress_thread *t = arg;
	struct rht_stress *s = t->s;
	unsigned int per = s->nchurn / s->nwriters, i, n = 0;
	struct rht_test_obj *slice = s->churn + t->idx * per;
	u32 rnd = 0x2545f491 * (t->idx + 1);
	struct rht_test_obj *obj;

	switch (s->mode) {
	case RHT_STRESS_CYCLE:
		while (!READ_ONCE(s->stop)) {
			for (i = 0; i < per && !READ_ONCE(s->stop); i++) {
				rht_stress_do_insert(s, &slice[i]);
				if (++n % 32 == 0)
					cond_resched();
			}
			for (i = 0; i < per && !READ_ONCE(s->stop); i++) {
				if (slice[i].live)
					rht_stress_do_remove(s, &slice[i]);
				if (++n % 32 == 0)
					cond_resched();
			}
		}
		break;
	case RHT_STRESS_FILL:
	case RHT_STRESS_DRAIN:
		for (i = 0; i < per && !READ_ONCE(s->stop); i++) {
			if (s->mode == RHT_STRESS_FILL && !slice[i].live)
				rht_stress_do_insert(s, &slice[i]);
			else if (s->mode == RHT_STRESS_DRAIN && slice[i].live)
				rht_stress_do_remove(s, &slice[i]);
			if (i % 32 == 0)
				cond_resched();
		}
		rht_stress_idle(s);
		break;
	case RHT_STRESS_TOGGLE:
	case RHT_STRESS_TOGGLE_SEED:
		while (!READ_ONCE(s->stop)) {
			obj = &slice[rht_stress_rand(&rnd) % per];
			if (s->mode == RHT_STRESS_TOGGLE_SEED)
				rht_stress_seed_toggle(s, obj);
			else if (obj->live)
				rht_stress_do_remove(s, obj);
			else
				rht_stress_do_insert(s, obj);
			if (++n % 32 == 0)
				cond_resched();
		}
		break;
	case RHT_STRESS_GROW:
		for (i = 0; !READ_ONCE(s->stop); ) {
			if (i >= min(per, READ_ONCE(s->fill_limit))) {
				msleep(20);
				continue;
			}
			rht_stress_do_insert(s, &slice[i]);
			if (++i % 32 == 0)
				cond_resched();
		}
		break;
	case RHT_STRESS_ONCE:
		/* Each object goes in once and out once: no reuse. */
		for (i = 0; !READ_ONCE(s->stop); ) {
			if (i >= min(per, READ_ONCE(s->fill_limit))) {
				msleep(20);
				continue;
			}
			rht_stress_do_insert(s, &slice[i]);
			if (i >= 64 && slice[i - 64].live)
				rht_stress_do_remove(s, &slice[i - 64]);
			/* A few objects per tick: the pool lasts the run. */
			if (++i % 16 == 0)
				schedule_timeout_uninterruptible(1);
		}
		break;
	}
	rht_stress_put(s);
	return 0;
}

/* Insert all hostile objects, wait, remove them, wait, again. */
static int rht_stress_hostile_writer(void *arg)
{
	struct rht_stress_thread *t = arg;
	struct rht_stress *s = t->s;
	unsigned int i;

	while (!READ_ONCE(s->stop)) {
		for (i = 0; i < s->nhostile; i++)
			rht_stress_do_insert(s, &s->hostile[i]);
		msleep(40);
		for (i = 0; i < s->nhostile; i++)
			rht_stress_do_remove(s, &s->hostile[i]);
		msleep(40);
	}
	rht_stress_put(s);
	return 0;
}

/* Explicit doublings and halvings, with @arg's idx ms between them. */
static int rht_stress_resizer(void *arg)
{
	static const bool grow[] = { true, false, false, true };
	struct rht_stress_thread *t = arg;
	struct rht_stress *s = t->s;
	unsigned int n = 0;
	int err;

	while (!READ_ONCE(s->stop_resizing)) {
		bool g = grow[n++ % ARRAY_SIZE(grow)];

		err = g ? rhashtable_expand(s->ht) : rhashtable_shrink(s->ht);
		if (err && err != (g ? -E2BIG : -ERANGE))
			rht_stress_error(s, err, n);
		if (t->idx)
			msleep(t->idx);
		else
			cond_resched();
	}
	rht_stress_put(s);
	return 0;
}

static void rht_stress_resize_storm(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;
	struct rht_stress *s;
	unsigned int i;

	p.automatic_shrinking = true;
	s = rht_stress_new(test, &p, RHT_STRESS_PLAIN, rht_test_scale(1024),
			   rht_test_scale(2048), 0);
	s->nwriters = 2;
	s->mode = RHT_STRESS_CYCLE;
	rht_stress_begin(s);
	for (i = 0; i < 2; i++)
		rht_stress_spawn(s, rht_stress_reader, i, 0, "reader");
	for (i = 0; i < s->nwriters; i++)
		rht_stress_spawn(s, rht_stress_writer, i, 0, "writer");
	rht_stress_spawn(s, rht_stress_resizer, 0, 0, "resizer");
	rht_stress_run_for(s, RHT_STRESS_MS);
	rht_stress_stop(s);
	rht_stress_report(s, "resize-storm");
	rht_stress_verify(s, "after the storm");
}

/* What the mover of rht_stress_movers() keeps track of. */
struct rht_stress_moves {
	struct rhashtable *other;
	struct rht_test_obj *objs;
	struct rhashtable *in[RHT_MOVE_OBJS];
	struct rht_test_obj *by_key[RHT_MOVE_KEYS];
};

/*
 * Take an object out of its table and insert it again at once, with
 * another key, into the same table (mostly the key one bit away) or into
 * the other one: no grace period, so a reader that stood on it is carried
 * along to wherever it went.
 */
static int rht_stress_mover(void *arg)
{
	struct rht_stress_thread *t = arg;
	struct rht_stress *s = t->s;
	struct rht_stress_moves *m = s->ctx;
	u32 rnd = 0x6b43a9b5, r, old, j;
	struct rht_test_obj *obj;
	struct rhashtable *to;
	long moves = 0;
	unsigned int i;
	int err;

	while (!READ_ONCE(s->stop)) {
		r = rht_stress_rand(&rnd);
		i = r % RHT_MOVE_OBJS;
		obj = &m->objs[i];
		if (!m->in[i])
			continue;	/* lost to an error, reported */
		to = (r >> 16) & 3 ? s->ht : m->other;
		old = obj->key & (RHT_MOVE_KEYS - 1);
		do {
			r = rht_stress_rand(&rnd);
			j = r & 1 ? old ^ BIT((r >> 1) % 12) :
				    (r >> 1) % RHT_MOVE_KEYS;
		} while (m->by_key[j]);
		err = rhashtable_remove_fast(m->in[i], &obj->node,
					     rht_test_moving_params);
		if (err) {
			rht_stress_error(s, err, obj->key);
			break;
		}
		m->by_key[old] = NULL;
		WRITE_ONCE(obj->key, RHT_TEST_MOVING | j);
		m->by_key[j] = obj;
		m->in[i] = to;
		err = rhashtable_lookup_insert_fast(to, &obj->node,
						    rht_test_moving_params);
		if (err) {
			rht_stress_error(s, err, obj->key);
			m->in[i] = NULL;
		}
		if (++moves % 32 == 0)
			cond_resched();
	}
	atomic_long_add(moves, &s->moves);
	rht_stress_put(s);
	return 0;
}

/*
 * Readers of keys that stay in the table throughout, while a mover keeps
 * re-keying other objects within the table and between it and another
 * one, writers churn and a resizer keeps doubling and halving.
 */
static void rht_stress_movers(struct kunit *test)
{
	struct rht_stress_moves *m = kunit_kzalloc(test, sizeof(*m),
						   GFP_KERNEL);
	struct rht_stress *s;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->objs = rht_test_objs(test, RHT_MOVE_OBJS, RHT_TEST_MOVING);
	m->other = rht_test_new(test, &rht_test_moving_params);
	s = rht_stress_new(test, &rht_test_moving_params, RHT_STRESS_MOVING,
			   rht_test_scale(1024), rht_test_scale(1024), 0);
	for (i = 0; i < RHT_MOVE_OBJS; i++) {
		m->in[i] = i & 1 ? m->other : s->ht;
		m->by_key[i] = &m->objs[i];
		KUNIT_ASSERT_EQ(test,
				rhashtable_insert_fast(m->in[i],
						       &m->objs[i].node,
						       rht_test_moving_params),
				0);
	}
	s->ctx = m;
	s->nwriters = 2;
	s->mode = RHT_STRESS_CYCLE;
	rht_stress_begin(s);
	for (i = 0; i < 2; i++)
		rht_stress_spawn(s, rht_stress_reader, i, 0, "reader");
	for (i = 0; i < s->nwriters; i++)
		rht_stress_spawn(s, rht_stress_writer, i, 0, "writer");
	rht_stress_spawn(s, rht_stress_mover, 0, 0, "mover");
	rht_stress_spawn(s, rht_stress_resizer, 0, 0, "resizer");
	rht_stress_run_for(s, RHT_STRESS_MS);
	rht_stress_stop(s);
	rht_stress_report(s, "movers");
	KUNIT_EXPECT_GT(test, atomic_long_read(&s->moves), 0L);

	for (i = 0; i < RHT_MOVE_OBJS; i++) {
		struct rht_test_obj *obj = &m->objs[i];

		s->extra += m->in[i] == s->ht;
		if (!m->in[i])
			continue;
		KUNIT_EXPECT_PTR_EQ(test,
				    rhashtable_lookup_fast(m->in[i], &obj->key,
							   rht_test_moving_params),
				    obj);
	}
	rht_stress_verify(s, "after the moves");
}

/*
 * Walk every bucket of the current array and of the arrays after it,
 * remembering the keys of each bucket: a walk that ends on its bucket's
 * own marker must not have met a key twice.  A walk that was carried off
 * (ended elsewhere) would be retried by a real reader and is only counted.
 */
static int rht_stress_chain_reader(void *arg)
{
	struct rht_stress_thread *t = arg;
	struct rht_stress *s = t->s;
	long walks = 0, carried = 0, dups = 0, misses = 0;
	struct bucket_table *tbl;
	struct rht_test_obj *obj;
	struct rhash_head *pos;
	unsigned int i, j, n;
	u32 *seen = t->buf;
	bool dup;

	while (!READ_ONCE(s->stop)) {
		rcu_read_lock();
		for (tbl = rht_dereference_rcu(s->ht->tbl, s->ht); tbl;
		     tbl = rht_dereference_rcu(tbl->future_tbl, s->ht)) {
			for (i = 0; i < tbl->size; i++) {
				n = 0;
				dup = false;
				rht_for_each_entry_rcu(obj, pos, tbl, i, node) {
					u32 key = READ_ONCE(obj->key);

					for (j = 0; j < n; j++)
						dup |= seen[j] == key;
					if (n < RHT_STRESS_SEEN)
						seen[n++] = key;
				}
				walks++;
				if (pos != RHT_NULLS_MARKER(rht_bucket(tbl, i)))
					carried++;
				else if (dup)
					dups++;
			}
		}
		rcu_read_unlock();
		for (i = 0; i < s->nstable; i++) {
			if (rht_stress_lookup(s, s->stable[i].key, i) !=
			    &s->stable[i])
				misses++;
			if (i % 64 == 0)
				cond_resched();
		}
		atomic_long_add(s->nstable, &s->lookups);
		cond_resched();
	}
	atomic_long_add(walks, &s->lookups);
	atomic_long_add(walks, &s->walks);
	atomic_long_add(carried, &s->carried);
	atomic_long_add(dups, &s->false_hits);
	atomic_long_add(misses, &s->false_misses);
	rht_stress_put(s);
	return 0;
}

static void rht_stress_chains_hold_unique_keys(struct kunit *test)
{
	struct rht_stress *s;
	unsigned long rehashes;
	unsigned int i;

	s = rht_stress_new(test, &rht_test_hostile_params, RHT_STRESS_HOSTILE,
			   rht_test_scale(512), rht_test_scale(1024), 24);
	s->nwriters = 2;
	s->mode = RHT_STRESS_CYCLE;
	rht_stress_begin(s);
	rehashes = rht_test_stats(s->ht).rehashes;
	for (i = 0; i < 2; i++)
		rht_stress_spawn(s, rht_stress_chain_reader, i,
				 RHT_STRESS_SEEN * sizeof(u32), "chains");
	for (i = 0; i < s->nwriters; i++)
		rht_stress_spawn(s, rht_stress_writer, i, 0, "writer");
	rht_stress_spawn(s, rht_stress_hostile_writer, 0, 0, "hostile");
	rht_stress_spawn(s, rht_stress_resizer, 10, 0, "resizer");
	rht_stress_run_for(s, RHT_STRESS_MS);
	rht_stress_stop(s);
	kunit_info(test, "rht-detail unique-chains: bucket walks %ld, carried off %ld, rehashes %lu\n",
		   atomic_long_read(&s->walks), atomic_long_read(&s->carried),
		   rht_test_stats(s->ht).rehashes - rehashes);
	rht_stress_report(s, "unique-chains");
	/* The long hostile chain had the worker move every object. */
	KUNIT_EXPECT_GT(test, rht_test_stats(s->ht).rehashes, rehashes);
	/*
	 * Duplicates are counted only on walks that provably stayed on their
	 * chain; most must have, or the check says nothing.
	 */
	KUNIT_EXPECT_GT(test, atomic_long_read(&s->walks), 0L);
	KUNIT_EXPECT_LT(test, 4 * atomic_long_read(&s->carried),
			atomic_long_read(&s->walks));
	rht_stress_verify(s, "after the walks");
}

static void rht_stress_accounting_holds_after_every_phase(struct kunit *test)
{
	static const enum rht_stress_mode phases[] = {
		RHT_STRESS_FILL, RHT_STRESS_TOGGLE, RHT_STRESS_DRAIN,
		RHT_STRESS_FILL, RHT_STRESS_TOGGLE_SEED, RHT_STRESS_TOGGLE,
		RHT_STRESS_DRAIN,
	};
	struct rhashtable_params p = rht_test_params;
	struct rht_stress *s;
	unsigned int phase, i, live;
	long expected;

	p.automatic_shrinking = true;
	s = rht_stress_new(test, &p, RHT_STRESS_PLAIN, rht_test_scale(256),
			   rht_test_scale(6000), 0);
	s->nwriters = 3;
	rht_stress_begin(s);
	for (phase = 0; phase < ARRAY_SIZE(phases); phase++) {
		rht_stress_round(s);
		s->mode = phases[phase];
		for (i = 0; i < s->nwriters; i++)
			rht_stress_spawn(s, rht_stress_writer, i, 0, "writer");
		rht_stress_spawn(s, rht_stress_reader, 0, 0, "reader");
		msleep(RHT_STRESS_MS / 5);
		rht_stress_stop(s);
		expected = s->nstable + atomic_long_read(&s->inserts) -
			   atomic_long_read(&s->removes);
		live = rht_stress_live(s->stable, s->nstable) +
		       rht_stress_live(s->churn, s->nchurn);
		KUNIT_EXPECT_EQ_MSG(test, (long)live, expected, "phase %u",
				    phase);
		KUNIT_EXPECT_EQ_MSG(test, (long)rhashtable_count(s->ht),
				    expected, "phase %u", phase);
		rht_stress_verify(s, phases[phase] == RHT_STRESS_DRAIN ?
				  "after a drain" : "after a phase");
	}
	rht_stress_report(s, "accounting");
}

/*
 * Walk the table again and again, stopping every 16 objects.  Stable
 * objects must each be returned, and twice only after an -EAGAIN.
 */
static int rht_stress_walker(void *arg)
{
	struct rht_stress_thread *t = arg;
	struct rht_stress *s = t->s;
	long returned = 0, missed = 0, dups = 0, walks = 0, unfinished = 0;
	int *epoch_of = t->buf;
	struct rhashtable_iter iter;
	struct rht_test_obj *obj;
	unsigned long deadline;
	unsigned int i, k;
	int epoch;

	while (!READ_ONCE(s->stop)) {
		for (i = 0; i < s->nstable; i++)
			epoch_of[i] = -1;
		epoch = 0;
		k = 0;
		deadline = jiffies + msecs_to_jiffies(RHT_TEST_TIMEOUT_MS);
		rhashtable_walk_enter(s->ht, &iter);
		if (rhashtable_walk_start_check(&iter))
			epoch++;
		for (;;) {
			obj = rhashtable_walk_next(&iter);
			if (IS_ERR(obj)) {
				if (PTR_ERR(obj) != -EAGAIN)
					rht_stress_error(s, PTR_ERR(obj), 0);
				epoch++;
				continue;
			}
			if (!obj)
				break;
			returned++;
			if (obj >= s->stable && obj < s->stable + s->nstable) {
				if (epoch_of[obj->id] == epoch)
					dups++;
				epoch_of[obj->id] = epoch;
			}
			if (++k % 16)
				continue;
			rhashtable_walk_stop(&iter);
			if (time_after(jiffies, deadline)) {
				unfinished++;
				rhashtable_walk_start(&iter);
				break;
			}
			cond_resched();
			if (rhashtable_walk_start_check(&iter))
				epoch++;
		}
		rhashtable_walk_stop(&iter);
		rhashtable_walk_exit(&iter);
		for (i = 0; i < s->nstable; i++)
			missed += epoch_of[i] < 0;
		walks++;
		cond_resched();
	}
	atomic_long_add(returned, &s->lookups);
	atomic_long_add(missed, &s->false_misses);
	atomic_long_add(dups, &s->false_hits);
	atomic_long_add(walks, &s->walks);
	atomic_long_add(unfinished, &s->unfinished);
	rht_stress_put(s);
	return 0;
}

static void rht_stress_walkers_see_every_object(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;
	struct rht_stress *s;
	unsigned int i;

	p.automatic_shrinking = true;
	s = rht_stress_new(test, &p, RHT_STRESS_PLAIN, rht_test_scale(512),
			   rht_test_scale(16384), 0);
	s->nwriters = 1;
	s->mode = RHT_STRESS_ONCE;
	s->fill_limit = UINT_MAX;
	rht_stress_begin(s);
	for (i = 0; i < 2; i++)
		rht_stress_spawn(s, rht_stress_walker, i,
				 s->nstable * sizeof(int), "walker");
	rht_stress_spawn(s, rht_stress_writer, 0, 0, "writer");
	rht_stress_spawn(s, rht_stress_resizer, 30, 0, "resizer");
	rht_stress_run_for(s, RHT_STRESS_MS);
	rht_stress_stop(s);
	kunit_info(test, "rht-detail walkers: walks %ld, unfinished %ld\n",
		   atomic_long_read(&s->walks),
		   atomic_long_read(&s->unfinished));
	rht_stress_report(s, "walkers");
	KUNIT_EXPECT_GE(test, atomic_long_read(&s->walks), 2L);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&s->unfinished), 0L);
	rht_stress_verify(s, "after the walks");
}

static void rht_stress_faults_during_resizes(struct kunit *test)
{
	struct rht_stress *s;
	unsigned long deadline, failures;
	unsigned int i, quarter;
	int site;

	s = rht_stress_new(test, &rht_test_params, RHT_STRESS_PLAIN,
			   rht_test_scale(512), rht_test_scale(8192), 0);
	s->nwriters = 1;
	s->mode = RHT_STRESS_GROW;
	quarter = s->nchurn / 4;
	WRITE_ONCE(s->fill_limit, quarter);
	rht_stress_begin(s);
	for (i = 0; i < 2; i++)
		rht_stress_spawn(s, rht_stress_reader, i, 0, "reader");
	rht_stress_spawn(s, rht_stress_writer, 0, 0, "writer");
	deadline = jiffies + msecs_to_jiffies(RHT_TEST_TIMEOUT_MS);

	/* Growth without faults, to a size that can be nested. */
	while ((atomic_long_read(&s->inserts) < quarter ||
		!rht_test_idle(s->ht)) && !rht_test_timed_out(deadline))
		;
	KUNIT_EXPECT_GE(test, rht_test_size(s->ht), 1024U);

	/* Nothing can be allocated: inserts go on, the worker retries. */
	rht_test_fault_arm(test, s->ht);
	for (site = 0; site < RHT_TEST_SITES; site++)
		rht_test_fault_set(site, 0, RHT_TEST_ALWAYS);
	failures = rht_test_stats(s->ht).alloc_failures;
	WRITE_ONCE(s->fill_limit, s->nchurn);
	while ((atomic_long_read(&s->inserts) < s->nchurn ||
		rht_test_stats(s->ht).alloc_failures < failures + 3) &&
	       !rht_test_timed_out(deadline))
		;
	KUNIT_EXPECT_EQ(test, atomic_long_read(&s->inserts), (long)s->nchurn);
	KUNIT_EXPECT_GE(test, rht_test_stats(s->ht).alloc_failures,
			failures + 3);

	/* Only flat arrays fail: the worker settles for a nested one. */
	rht_test_fault_set(RHT_ALLOC_NESTED_TOP, 0, 0);
	rht_test_fault_set(RHT_ALLOC_NESTED_LEAF, 0, 0);
	while (!rht_test_nest(s->ht) && !rht_test_timed_out(deadline))
		;
	KUNIT_EXPECT_NE(test, rht_test_nest(s->ht), 0U);
	msleep(RHT_STRESS_MS / 5);

	/* Everything works again: a flat array replaces the nested one. */
	rht_test_fault_disarm(NULL);
	KUNIT_EXPECT_TRUE(test, rht_test_wait_nested(s->ht, false));
	rht_stress_stop(s);
	rht_stress_report(s, "faults");
	KUNIT_EXPECT_GE(test, rht_test_stats(s->ht).nested, 1UL);
	KUNIT_EXPECT_EQ(test, rht_test_size(s->ht),
			roundup_pow_of_two((s->nstable + s->nchurn) * 4 / 3 + 1));
	rht_stress_verify(s, "after the faults");
}

static void rht_stress_hostile_keys(struct kunit *test)
{
	struct rhashtable_stats before, after;
	struct rht_stress *s;
	unsigned int i;

	s = rht_stress_new(test, &rht_test_hostile_params, RHT_STRESS_HOSTILE,
			   rht_test_scale(256), rht_test_scale(1024), 48);
	s->nwriters = 1;
	s->mode = RHT_STRESS_CYCLE;
	rht_stress_begin(s);
	before = rht_test_stats(s->ht);
	for (i = 0; i < 2; i++)
		rht_stress_spawn(s, rht_stress_reader, i, 0, "reader");
	rht_stress_spawn(s, rht_stress_writer, 0, 0, "writer");
	rht_stress_spawn(s, rht_stress_hostile_writer, 0, 0, "hostile");
	rht_stress_run_for(s, RHT_STRESS_MS);
	rht_stress_stop(s);
	after = rht_test_stats(s->ht);
	kunit_info(test, "rht-detail hostile: long chains %lu, reseeds %lu\n",
		   after.long_chains - before.long_chains,
		   after.reseeds - before.reseeds);
	rht_stress_report(s, "hostile");
	/* Every insert succeeded, none was turned away with -EBUSY. */
	KUNIT_EXPECT_EQ(test, atomic_long_read(&s->errors), 0L);
	KUNIT_EXPECT_GT(test, after.long_chains, before.long_chains);
	KUNIT_EXPECT_GT(test, after.reseeds, before.reseeds);
	rht_stress_verify(s, "after the flood");
}

/* Objects of the interrupt-context users of rht_stress_contexts(). */
struct rht_stress_ctx {
	struct rht_stress *s;
	struct rht_test_obj *objs;	/* timer, irq_work, raw lock: 3 x 64 */
	unsigned int next[3];
	atomic_long_t ops[3];
	atomic_long_t wrong_context;
	struct timer_list timer;
	struct irq_work work;
	raw_spinlock_t lock;	/* held around updates by a thread */
};

/* Insert an object, find it and a stable one, remove it. */
static void rht_stress_ctx_ops(struct rht_stress_ctx *c, unsigned int user)
{
	unsigned int i = c->next[user]++;
	struct rht_test_obj *obj = &c->objs[user * 64 + i % 64];
	struct rht_test_obj *stable = &c->s->stable[i % c->s->nstable];
	struct rht_stress *s = c->s;
	int err;

	err = rhashtable_lookup_insert_fast(s->ht, &obj->node,
					    rht_test_params);
	if (err) {
		rht_stress_error(s, err, obj->key);
		return;
	}
	if (rhashtable_lookup_fast(s->ht, &obj->key, rht_test_params) != obj)
		atomic_long_inc(&s->false_misses);
	if (rhashtable_lookup_fast(s->ht, &stable->key, rht_test_params) !=
	    stable)
		atomic_long_inc(&s->false_misses);
	atomic_long_add(2, &s->lookups);
	err = rhashtable_remove_fast(s->ht, &obj->node, rht_test_params);
	if (err)
		rht_stress_error(s, err, obj->key);
	atomic_long_inc(&c->ops[user]);
}

static void rht_stress_timer_fn(struct timer_list *timer)
{
	struct rht_stress_ctx *c = from_timer(c, timer, timer);
	unsigned int k;

	if (!in_serving_softirq())
		atomic_long_inc(&c->wrong_context);
	for (k = 0; k < 4; k++)
		rht_stress_ctx_ops(c, 0);
	if (!READ_ONCE(c->s->stop))
		mod_timer(&c->timer, jiffies + 1);
}

static void rht_stress_irq_work_fn(struct irq_work *work)
{
	struct rht_stress_ctx *c = container_of(work, struct rht_stress_ctx,
						work);
	unsigned int k;

	if (!in_hardirq())
		atomic_long_inc(&c->wrong_context);
	for (k = 0; k < 4; k++)
		rht_stress_ctx_ops(c, 1);
}

static int rht_stress_irq_queuer(void *arg)
{
	struct rht_stress_thread *t = arg;
	struct rht_stress *s = t->s;
	struct rht_stress_ctx *c = s->ctx;

	while (!READ_ONCE(s->stop)) {
		irq_work_queue(&c->work);
		schedule_timeout_uninterruptible(1);
		/* One at a time: a running work may be queued again. */
		irq_work_sync(&c->work);
	}
	irq_work_sync(&c->work);
	rht_stress_put(s);
	return 0;
}

static int rht_stress_raw_locker(void *arg)
{
	struct rht_stress_thread *t = arg;
	struct rht_stress *s = t->s;
	struct rht_stress_ctx *c = s->ctx;
	unsigned int n = 0;

	while (!READ_ONCE(s->stop)) {
		raw_spin_lock(&c->lock);
		rht_stress_ctx_ops(c, 2);
		raw_spin_unlock(&c->lock);
		if (++n % 8 == 0)
			cond_resched();
	}
	rht_stress_put(s);
	return 0;
}

static void rht_stress_ctx_stop(struct rht_stress_ctx *c)
{
	rht_stress_stop(c->s);
	timer_shutdown_sync(&c->timer);
	irq_work_sync(&c->work);
}

KUNIT_DEFINE_ACTION_WRAPPER(rht_stress_ctx_stop_action, rht_stress_ctx_stop,
			    struct rht_stress_ctx *);

static void rht_stress_contexts(struct kunit *test)
{
	struct rht_stress_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct rht_test_obj *objs = rht_test_objs(test, 3 * 64, 1U << 24);
	struct rht_stress *s;

	KUNIT_ASSERT_NOT_NULL(test, c);
	s = rht_stress_new(test, &rht_test_params, RHT_STRESS_PLAIN,
			   rht_test_scale(512), rht_test_scale(1024), 0);
	s->nwriters = 1;
	s->mode = RHT_STRESS_CYCLE;
	s->ctx = c;
	c->s = s;
	c->objs = objs;
	raw_spin_lock_init(&c->lock);
	timer_setup(&c->timer, rht_stress_timer_fn, 0);
	c->work = IRQ_WORK_INIT_HARD(rht_stress_irq_work_fn);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							rht_stress_ctx_stop_action,
							c), 0);
	rht_stress_begin(s);
	rht_stress_spawn(s, rht_stress_reader, 0, 0, "reader");
	rht_stress_spawn(s, rht_stress_writer, 0, 0, "writer");
	rht_stress_spawn(s, rht_stress_resizer, 5, 0, "resizer");
	rht_stress_spawn(s, rht_stress_irq_queuer, 0, 0, "irq");
	rht_stress_spawn(s, rht_stress_raw_locker, 0, 0, "raw");
	mod_timer(&c->timer, jiffies + 1);
	rht_stress_run_for(s, RHT_STRESS_MS);
	rht_stress_ctx_stop(c);
	kunit_info(test, "rht-detail contexts: softirq %ld, hardirq %ld, raw spinlock %ld\n",
		   atomic_long_read(&c->ops[0]), atomic_long_read(&c->ops[1]),
		   atomic_long_read(&c->ops[2]));
	rht_stress_report(s, "contexts");
	KUNIT_EXPECT_GT(test, atomic_long_read(&c->ops[0]), 0L);
	KUNIT_EXPECT_GT(test, atomic_long_read(&c->ops[1]), 0L);
	KUNIT_EXPECT_GT(test, atomic_long_read(&c->ops[2]), 0L);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&c->wrong_context), 0L);
	rht_stress_verify(s, "after the interrupts");
	KUNIT_EXPECT_EQ(test, rht_stress_check_set(s, objs, 3 * 64), 0U);
}

/* Toggle random objects of the writer's slice of an rhltable. */
static int rht_stress_rhl_writer(void *arg)
{
	struct rht_stress_thread *t = arg;
	struct rht_stress *s = t->s;
	unsigned int per = (s->nlobjs - s->nlstable) / s->nwriters, n = 0;
	struct rht_test_lobj *slice = s->lobjs + s->nlstable + t->idx * per;
	u32 rnd = 0x68e31da4 * (t->idx + 1);
	struct rht_test_lobj *obj;
	int err;

	while (!READ_ONCE(s->stop)) {
		obj = &slice[rht_stress_rand(&rnd) % per];
		if (obj->live)
			err = rhltable_remove(s->hlt, &obj->list,
					      rht_test_lparams);
		else
			err = rhltable_insert(s->hlt, &obj->list,
					      rht_test_lparams);
		if (err) {
			rht_stress_error(s, err, obj->key);
		} else {
			atomic_long_inc(obj->live ? &s->removes : &s->inserts);
			obj->live = !obj->live;
		}
		if (++n % 32 == 0)
			cond_resched();
	}
	rht_stress_put(s);
	return 0;
}

/* Every list holds the stable objects of its key and no other key. */
static int rht_stress_rhl_reader(void *arg)
{
	struct rht_stress_thread *t = arg;
	struct rht_stress *s = t->s;
	unsigned int per_key = s->nlstable / s->nkeys, stable, k;
	long lookups = 0, misses = 0, hits = 0;
	u32 rnd = 0x1b873593 * (t->idx + 1);
	struct rhlist_head *first, *pos;
	struct rht_test_lobj *obj;
	u32 key;

	while (!READ_ONCE(s->stop)) {
		for (k = 0; k < 16; k++) {
			key = rht_stress_rand(&rnd) % (s->nkeys + 1);
			stable = 0;
			rcu_read_lock();
			first = rhltable_lookup(s->hlt, &key, rht_test_lparams);
			rhl_for_each_entry_rcu(obj, pos, first, list) {
				if (obj->key != key)
					hits++;
				else if (obj < s->lobjs + s->nlstable)
					stable++;
			}
			rcu_read_unlock();
			/* Key nkeys is never inserted. */
			if (stable != (key < s->nkeys ? per_key : 0))
				misses++;
			lookups++;
		}
		cond_resched();
	}
	atomic_long_add(lookups, &s->lookups);
	atomic_long_add(misses, &s->false_misses);
	atomic_long_add(hits, &s->false_hits);
	rht_stress_put(s);
	return 0;
}

/*
 * Objects that die: recyclers allocate objects, insert them, remove them
 * and free them after a grace period, so the same memory comes back with
 * other keys.  A reader that the table let reach an object after its grace
 * period reads freed memory (KASAN reports it) or a poisoned stamp.
 */
#define RHT_RECYCLED		BIT(28)
#define RHT_RECYCLE_SLOTS	256
#define RHT_STAMP_LIVE		0x4c495645
#define RHT_STAMP_DEAD		0x44454144

struct rht_recycled {
	struct rht_test_obj o;
	struct rcu_head rcu;
};

static void rht_recycled_free(struct rcu_head *head)
{
	struct rht_recycled *r = container_of(head, struct rht_recycled, rcu);

	WRITE_ONCE(r->o.stamp, RHT_STAMP_DEAD);
	kfree(r);
}

static u32 rht_recycled_key(unsigned int recycler, unsigned int slot)
{
	return RHT_RECYCLED | recycler << 16 | slot;
}

static int rht_stress_recycler(void *arg)
{
	struct rht_stress_thread *t = arg;
	struct rht_stress *s = t->s;
	struct rht_recycled **slot = t->buf;
	u32 rnd = 0x2545f491 * (t->idx + 1);
	long inserts = 0, removes = 0;
	struct rht_recycled *r;
	unsigned int i, k;
	int err;

	while (!READ_ONCE(s->stop)) {
		for (k = 0; k < 16; k++) {
			i = rht_stress_rand(&rnd) % RHT_RECYCLE_SLOTS;
			r = slot[i];
			if (r) {
				err = rht_stress_remove(s, &r->o);
				if (err)
					rht_stress_error(s, err, r->o.key);
				call_rcu(&r->rcu, rht_recycled_free);
				slot[i] = NULL;
				removes++;
				continue;
			}
			r = kzalloc(sizeof(*r), GFP_KERNEL);
			if (!r)
				continue;
			r->o.key = rht_recycled_key(t->idx, i);
			r->o.stamp = RHT_STAMP_LIVE;
			err = rht_stress_insert(s, &r->o);
			if (err) {
				rht_stress_error(s, err, r->o.key);
				kfree(r);
				continue;
			}
			slot[i] = r;
			inserts++;
		}
		cond_resched();
	}
	/* Leave the table as the test found it. */
	for (i = 0; i < RHT_RECYCLE_SLOTS; i++) {
		r = slot[i];
		if (!r)
			continue;
		err = rht_stress_remove(s, &r->o);
		if (err)
			rht_stress_error(s, err, r->o.key);
		call_rcu(&r->rcu, rht_recycled_free);
	}
	atomic_long_add(inserts, &s->inserts);
	atomic_long_add(removes, &s->removes);
	rht_stress_put(s);
	return 0;
}

/* Look the recyclers' keys up and read what is found, under RCU. */
static int rht_stress_recycled_reader(void *arg)
{
	struct rht_stress_thread *t = arg;
	struct rht_stress *s = t->s;
	u32 rnd = 0x61c88647 * (t->idx + 1);
	long lookups = 0, hits = 0;
	struct rht_test_obj *obj;
	unsigned int k, i;
	u32 key;

	while (!READ_ONCE(s->stop)) {
		for (k = 0; k < 32; k++) {
			i = rht_stress_rand(&rnd);
			key = rht_recycled_key(i >> 16 & 1,
					       i % RHT_RECYCLE_SLOTS);
			rcu_read_lock();
			obj = rhashtable_lookup(s->ht, &key, rht_test_params);
			if (obj && (READ_ONCE(obj->key) != key ||
				    READ_ONCE(obj->stamp) != RHT_STAMP_LIVE))
				hits++;
			rcu_read_unlock();
			lookups++;
		}
		cond_resched();
	}
	atomic_long_add(lookups, &s->lookups);
	atomic_long_add(hits, &s->false_hits);
	rht_stress_put(s);
	return 0;
}

static void rht_stress_freed_objects_outlive_readers(struct kunit *test)
{
	struct rhashtable_params p = rht_test_params;
	struct rht_stress *s;
	unsigned int i;

	p.automatic_shrinking = true;
	s = rht_stress_new(test, &p, RHT_STRESS_PLAIN, rht_test_scale(256),
			   1, 0);
	rht_stress_begin(s);
	for (i = 0; i < 2; i++)
		rht_stress_spawn(s, rht_stress_recycler, i,
				 RHT_RECYCLE_SLOTS * sizeof(void *),
				 "recycler");
	for (i = 0; i < 2; i++)
		rht_stress_spawn(s, rht_stress_recycled_reader, i, 0,
				 "recycled-reader");
	rht_stress_spawn(s, rht_stress_reader, 0, 0, "reader");
	rht_stress_spawn(s, rht_stress_resizer, 1, 0, "resizer");
	rht_stress_run_for(s, RHT_STRESS_MS);
	rht_stress_stop(s);
	/* Every object freed by a callback before the test returns. */
	rcu_barrier();
	rht_stress_report(s, "recycled");
	KUNIT_EXPECT_GT(test, atomic_long_read(&s->removes), 0L);
	KUNIT_EXPECT_EQ(test, rhashtable_count(s->ht), s->nstable);
	rht_stress_verify(s, "after the recycling");
}

static void rht_stress_rhltable_duplicates(struct kunit *test)
{
	struct rht_stress *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct rhashtable_params p = rht_test_lparams;
	struct rhashtable_iter iter;
	struct rht_test_lobj *obj;
	unsigned int i, key, bad = 0, live = 0, walked = 0;

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->test = test;
	s->nkeys = 8;
	s->nlstable = 16;
	s->nlobjs = s->nlstable + 3 * rht_test_scale(256);
	s->nwriters = 3;
	s->lobjs = rht_test_lobjs(test, s->nlobjs);
	for (i = 0; i < s->nlobjs; i++) {
		s->lobjs[i].key = i % s->nkeys;
		s->lobjs[i].id = i;
	}
	p.automatic_shrinking = true;
	s->hlt = rht_test_new_rhl(test, &p);
	s->ht = &s->hlt->ht;
	init_completion(&s->done);
	rht_stress_round(s);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							rht_stress_stop_action,
							s), 0);
	rht_test_rhl_insert_all(test, s->hlt, s->lobjs, s->nlstable);
	rht_stress_begin(s);
	for (i = 0; i < 2; i++)
		rht_stress_spawn(s, rht_stress_rhl_reader, i, 0, "reader");
	for (i = 0; i < s->nwriters; i++)
		rht_stress_spawn(s, rht_stress_rhl_writer, i, 0, "writer");
	rht_stress_spawn(s, rht_stress_resizer, 5, 0, "resizer");
	rht_stress_run_for(s, RHT_STRESS_MS);
	rht_stress_stop(s);
	rht_stress_report(s, "rhltable");

	/* At rest: each key's list is exactly its live objects. */
	for (key = 0; key <= s->nkeys; key++)
		bad += rht_test_rhl_check_key(s->hlt, s->lobjs, s->nlobjs, key,
					      key & 1);
	KUNIT_EXPECT_EQ(test, bad, 0U);
	for (i = 0; i < s->nlobjs; i++) {
		live += s->lobjs[i].live;
		s->lobjs[i].visited = 0;
	}
	KUNIT_EXPECT_EQ(test, rhashtable_count(s->ht),
			rht_test_rhl_live_keys(s->lobjs, s->nlobjs));
	KUNIT_EXPECT_EQ(test, (long)live, (long)s->nlstable +
			atomic_long_read(&s->inserts) -
			atomic_long_read(&s->removes));
	rhltable_walk_enter(s->hlt, &iter);
	rhashtable_walk_start(&iter);
	while ((obj = rhashtable_walk_next(&iter)))
		if (!IS_ERR(obj) && !obj->visited++)
			walked++;
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	KUNIT_EXPECT_EQ(test, walked, live);
}

static bool rht_test_compare_key_only(void *ptr, void *arg)
{
	const struct rht_test_obj *obj = ptr;

	return obj->key == *(u32 *)arg;
}

/* Caller holds the RCU read lock: the hash and the lookup agree. */
static struct rht_test_obj *rht_stress_lookup_compare(struct rht_stress *s,
						      u32 key)
{
	u32 hash = rhashtable_hashfn(s->ht, &key, sizeof(key));

	return rhashtable_lookup_compare(s->ht, hash,
					 rht_test_compare_key_only, &key);
}

/* The 3.17 lookups, with the table's own hash for the compare form. */
static int rht_stress_seed_reader(void *arg)
{
	struct rht_stress_thread *t = arg;
	struct rht_stress *s = t->s;
	long lookups = 0, misses = 0, hits = 0;
	u32 rnd = 0x85ebca6b * (t->idx + 1);
	struct rht_test_obj *obj, *found;
	unsigned int k, i;
	u32 key;

	while (!READ_ONCE(s->stop)) {
		for (k = 0; k < 32; k++) {
			i = rht_stress_rand(&rnd);
			obj = &s->stable[i % s->nstable];
			rcu_read_lock();
			if (i & 1)
				found = rhashtable_lookup(s->ht, &obj->key);
			else
				found = rht_stress_lookup_compare(s, obj->key);
			rcu_read_unlock();
			if (!found)
				misses++;
			else if (found != obj)
				hits++;
			key = RHT_TEST_NEVER | i;
			rcu_read_lock();
			if (rhashtable_lookup(s->ht, &key))
				hits++;
			obj = &s->churn[i % s->nchurn];
			found = rhashtable_lookup(s->ht, &obj->key);
			if (found && found != obj)
				hits++;
			rcu_read_unlock();
			lookups += 3;
		}
		cond_resched();
	}
	atomic_long_add(lookups, &s->lookups);
	atomic_long_add(misses, &s->false_misses);
	atomic_long_add(hits, &s->false_hits);
	rht_stress_put(s);
	return 0;
}

/*
 * Fill the slice with 3.17 inserts and empty it again with 3.17 removes,
 * every other one by the link found walking the chain.
 */
static int rht_stress_seed_writer(void *arg)
{
	struct rht_stress_thread *t = arg;
	struct rht_stress *s = t->s;
	unsigned int per = s->nchurn / s->nwriters, i, n = 0;
	struct rht_test_obj *slice = s->churn + t->idx * per;
	struct rhash_head __rcu **pprev;
	struct rht_test_obj *obj;
	int err;

	while (!READ_ONCE(s->stop)) {
		for (i = 0; i < per && !READ_ONCE(s->stop); i++) {
			obj = &slice[i];
			mutex_lock(&rht_test_caller_mutex);
			err = rhashtable_insert(s->ht, &obj->node);
			mutex_unlock(&rht_test_caller_mutex);
			if (err)
				rht_stress_error(s, err, obj->key);
			else
				obj->live = true;
			if (++n % 32 == 0)
				cond_resched();
		}
		for (i = 0; i < per && !READ_ONCE(s->stop); i++) {
			obj = &slice[i];
			if (!obj->live)
				continue;
			mutex_lock(&rht_test_caller_mutex);
			rcu_read_lock();
			pprev = i & 1 ? rht_test_find_pprev(s->ht, obj) : NULL;
			if (pprev)
				rhashtable_remove_pprev(s->ht, &obj->node, pprev);
			else if (!rhashtable_remove(s->ht, &obj->node))
				rht_stress_error(s, -ENOENT, obj->key);
			if (rhashtable_lookup(s->ht, &obj->key))
				rht_stress_error(s, -EEXIST, obj->key);
			rcu_read_unlock();
			mutex_unlock(&rht_test_caller_mutex);
			obj->live = false;
			if (++n % 32 == 0)
				cond_resched();
		}
	}
	rht_stress_put(s);
	return 0;
}

static void rht_stress_seed_interface(struct kunit *test)
{
	struct rhashtable_params p = rht_test_seed_params;
	struct rht_stress *s;
	unsigned int i;

	p.grow_decision = rht_grow_above_75;
	p.shrink_decision = rht_shrink_below_30;
	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->test = test;
	s->nstable = rht_test_scale(512);
	s->nchurn = rht_test_scale(2048);
	s->nwriters = 2;
	s->stamp = 1000;
	s->stable = rht_test_objs(test, s->nstable, 1);
	s->churn = rht_test_objs(test, s->nchurn, 1 + s->nstable);
	s->hostile = rht_test_objs(test, 1, RHT_TEST_HOSTILE);
	s->ht = rht_test_new(test, &p);
	init_completion(&s->done);
	rht_stress_round(s);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							rht_stress_stop_action,
							s), 0);
	rht_test_seed_insert_all(test, s->ht, s->stable, s->nstable);
	rht_stress_begin(s);
	for (i = 0; i < 2; i++)
		rht_stress_spawn(s, rht_stress_seed_reader, i, 0, "reader");
	for (i = 0; i < s->nwriters; i++)
		rht_stress_spawn(s, rht_stress_seed_writer, i, 0, "writer");
	rht_stress_run_for(s, RHT_STRESS_MS);
	rht_stress_stop(s);
	rht_stress_report(s, "seed-interface");
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(s->ht, s->stable,
							  s->nstable), 0U);
	KUNIT_EXPECT_EQ(test, rht_test_seed_check_lookups(s->ht, s->churn,
							  s->nchurn), 0U);
	KUNIT_EXPECT_EQ(test, rhashtable_count(s->ht),
			rht_stress_live(s->stable, s->nstable) +
			rht_stress_live(s->churn, s->nchurn));
}

/*
 * One thread fills a table that shrinks automatically, looks every key up
 * and empties it again: the table grows and shrinks back on its own.  How
 * fast is for lab/kbench; this prints the "rht-summary" line of the run.
 */
static void rht_test_summary_workload(struct kunit *test)
{
	unsigned int n = rht_test_scale(65536) == 65536 ? 65536 : 16384;
	struct rht_test_obj *objs = rht_test_objs(test, n, 1);
	struct rhashtable_params p = rht_test_params;
	unsigned int i, failed = 0, found = 0, size;
	unsigned long resizes;
	struct rhashtable *ht;

	p.automatic_shrinking = true;
	ht = rht_test_new(test, &p);
	resizes = rht_test_resizes(ht);
	for (i = 0; i < n; i++) {
		failed += !!rhashtable_insert_fast(ht, &objs[i].node,
						   rht_test_params);
		/* Let the worker grow the table as it would elsewhere. */
		if (i % 256 == 255)
			cond_resched();
	}
	for (i = 0; i < n; i++) {
		found += rht_test_lookup(ht, objs[i].key) == &objs[i];
		if (i % 256 == 255)
			cond_resched();
	}
	for (i = 0; i < n; i++) {
		failed += !!rhashtable_remove_fast(ht, &objs[i].node,
						   rht_test_params);
		if (i % 256 == 255)
			cond_resched();
	}
	rht_test_settle(ht);
	resizes = rht_test_resizes(ht) - resizes;
	rcu_read_lock();
	size = rht_dereference_rcu(ht->tbl, ht)->size;
	rcu_read_unlock();
	kunit_info(test,
		   "rht-summary: inserted=%u found=%u removed=%u resizes=%lu buckets_after=%u\n",
		   n, found, n - failed, resizes, size);
	KUNIT_EXPECT_EQ(test, failed, 0U);
	KUNIT_EXPECT_EQ(test, found, n);
	KUNIT_EXPECT_EQ(test, rhashtable_count(ht), 0U);
	KUNIT_EXPECT_GT(test, resizes, 0UL);
}

static struct kunit_case rht_stress_test_cases[] = {
	KUNIT_CASE_SLOW(rht_stress_resize_storm),
	KUNIT_CASE_SLOW(rht_stress_movers),
	KUNIT_CASE_SLOW(rht_stress_chains_hold_unique_keys),
	KUNIT_CASE_SLOW(rht_stress_accounting_holds_after_every_phase),
	KUNIT_CASE_SLOW(rht_stress_walkers_see_every_object),
	KUNIT_CASE_SLOW(rht_stress_faults_during_resizes),
	KUNIT_CASE_SLOW(rht_stress_hostile_keys),
	KUNIT_CASE_SLOW(rht_stress_contexts),
	KUNIT_CASE_SLOW(rht_stress_freed_objects_outlive_readers),
	KUNIT_CASE_SLOW(rht_stress_rhltable_duplicates),
	KUNIT_CASE_SLOW(rht_stress_seed_interface),
	KUNIT_CASE_SLOW(rht_test_summary_workload),
	{}
};

static struct kunit_suite rht_stress_test_suite = {
	.name = "rhashtable_stress",
	.test_cases = rht_stress_test_cases,
};

kunit_test_suites(&rht_seed_test_suite, &rht_test_suite,
		  &rht_stress_test_suite);

MODULE_DESCRIPTION("KUnit tests for the resizable hash table");
MODULE_LICENSE("GPL");
