// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases that only make sense in userspace: they choose the CPU each
 * update runs on (rht_shim_set_cpu()), which a kernel test cannot do on a
 * machine with fewer CPUs.  Run by kunit.c with the suites of lib/.
 */
#include <pthread.h>
#include <unistd.h>

#include <linux/kernel.h>
#include <kunit/test.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>

#include "shim/rht_shim.h"
#include "../../../lib/rhashtable_test.h"

struct hk_obj {
	u32 key;
	struct rhash_head node;
};

static const struct rhashtable_params hk_params = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct hk_obj, key),
	.head_offset = offsetof(struct hk_obj, node),
};

static void hk_destroy(void *ht)
{
	rhashtable_destroy(ht);
}

/*
 * @nelems is read directly by users (as an int, against their own
 * limits): it must never go below zero, whichever CPUs the updates run on,
 * and in a big table as well as in a small one.
 */
static void nelems_never_negative_across_cpus(struct kunit *test)
{
	struct rhashtable_params p = hk_params;
	struct rhashtable *ht = kunit_kzalloc(test, sizeof(*ht), GFP_KERNEL);
	struct hk_obj *objs = kunit_kcalloc(test, 64, sizeof(*objs),
					    GFP_KERNEL);
	int i, low = 0;

	KUNIT_ASSERT_NOT_NULL(test, ht);
	KUNIT_ASSERT_NOT_NULL(test, objs);
	p.nelem_hint = 65535;		/* a big table from the start */
	KUNIT_ASSERT_EQ(test, rhashtable_init(ht, &p), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, hk_destroy, ht),
			0);
	/* Let the worker run once on it, as after any resize. */
	KUNIT_ASSERT_EQ(test, rhashtable_shrink(ht), 0);

	for (i = 0; i < 64; i++) {
		objs[i].key = i;
		rht_shim_set_cpu(i < 63 ? 0 : 1);
		KUNIT_ASSERT_EQ(test, rhashtable_insert_fast(ht, &objs[i].node,
							     hk_params), 0);
	}
	rht_shim_set_cpu(2);
	for (i = 0; i < 64; i++) {
		KUNIT_ASSERT_EQ(test, rhashtable_remove_fast(ht, &objs[i].node,
							     hk_params), 0);
		low = min(low, atomic_read(&ht->nelems));
	}
	rht_shim_set_cpu(0);
	KUNIT_EXPECT_EQ(test, low, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ht->nelems), 0);
}

/*
 * Readers walk the lists of an rhltable while a writer adds duplicates to
 * them and takes them out again.  A duplicate is filled in before it is
 * added; a reader that finds it must see it filled in, which under TSAN
 * holds only if adding it publishes it with release order.
 */
#define HK_KEYS		16
#define HK_DUPS		8
#define HK_FILLED	0x600dcafeu

struct hk_dup {
	u32 key;
	u32 filled;
	struct rhlist_head list;
	struct rcu_head rcu;
};

static const struct rhashtable_params hk_lparams = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct hk_dup, key),
	.head_offset = offsetof(struct hk_dup, list),
};

struct hk_rhl {
	struct rhltable hlt;
	struct hk_dup *dup[HK_KEYS][HK_DUPS];
	int stop;
	long lookups, bad;
};

static void *hk_rhl_reader(void *arg)
{
	struct hk_rhl *r = arg;
	struct rhlist_head *list, *pos;
	struct hk_dup *d;
	long lookups = 0, bad = 0;
	u32 key = 0;

	while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
		key = (key + 7) % HK_KEYS;
		rcu_read_lock();
		list = rhltable_lookup(&r->hlt, &key, hk_lparams);
		/*
		 * Each duplicate's fields before its link, as an open-coded
		 * loop (or 6.12's rhl_for_each_entry_rcu()) reads them: then
		 * only the store that published it orders them, and TSAN
		 * sees a relaxed one.
		 */
		for (pos = list; pos; pos = rcu_dereference(pos->next)) {
			d = container_of(pos, struct hk_dup, list);
			bad += d->filled != HK_FILLED || d->key != key;
		}
		rcu_read_unlock();
		lookups++;
	}
	__atomic_add_fetch(&r->lookups, lookups, __ATOMIC_RELAXED);
	__atomic_add_fetch(&r->bad, bad, __ATOMIC_RELAXED);
	return NULL;
}

static void hk_dup_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct hk_dup, rcu));
}

static void hk_dup_free(void *ptr, void *arg)
{
	kfree(ptr);
}

static void rhltable_readers_see_filled_duplicates(struct kunit *test)
{
	struct hk_rhl *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	unsigned int k, i, rnd = 1, round;
	pthread_t readers[2];
	struct hk_dup *d;

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_EQ(test, rhltable_init(&r->hlt, &hk_lparams), 0);
	for (i = 0; i < ARRAY_SIZE(readers); i++)
		KUNIT_ASSERT_EQ(test, pthread_create(&readers[i], NULL,
						     hk_rhl_reader, r), 0);
	for (round = 0; round < 100000; round++) {
		rnd = rnd * 1103515245 + 12345;
		k = (rnd >> 8) % HK_KEYS;
		i = (rnd >> 16) % HK_DUPS;
		d = r->dup[k][i];
		if (d) {
			KUNIT_EXPECT_EQ(test, rhltable_remove(&r->hlt, &d->list,
							      hk_lparams), 0);
			r->dup[k][i] = NULL;
			call_rcu(&d->rcu, hk_dup_free_rcu);
			continue;
		}
		d = kzalloc(sizeof(*d), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, d);
		d->key = k;
		d->filled = HK_FILLED;
		KUNIT_EXPECT_EQ(test, rhltable_insert(&r->hlt, &d->list,
						      hk_lparams), 0);
		r->dup[k][i] = d;
	}
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < ARRAY_SIZE(readers); i++)
		pthread_join(readers[i], NULL);
	KUNIT_EXPECT_GT(test, r->lookups, 0L);
	KUNIT_EXPECT_EQ(test, r->bad, 0L);
	rhltable_free_and_destroy(&r->hlt, hk_dup_free, NULL);
	rcu_barrier();
}

/*
 * An interrupt right after an insert unlocks its bucket removes the object
 * again.  The insert must have counted it before it became visible, or
 * @nelems reads -1 in the handler (and, as an unsigned load, a full
 * table: the handler's own inserts would fail with -E2BIG).
 */
struct hk_irq {
	struct rhashtable *ht;
	struct rhltable *hlt;
	struct hk_obj *obj;
	struct hk_dup *dup;
	int fired, nelems, err;
};

static bool hk_irq_remove(void *arg)
{
	struct hk_irq *h = arg;
	u32 key = h->obj ? h->obj->key : h->dup->key;
	bool seen;

	rcu_read_lock();
	seen = h->hlt ? !!rhltable_lookup(h->hlt, &key, hk_lparams) :
			!!rhashtable_lookup(h->ht, &key, hk_params);
	rcu_read_unlock();
	if (!seen)
		return false;	/* not published yet: wait for the next unlock */
	h->fired++;
	h->err = h->hlt ? rhltable_remove(h->hlt, &h->dup->list, hk_lparams) :
			  rhashtable_remove_fast(h->ht, &h->obj->node,
						 hk_params);
	h->nelems = atomic_read(h->hlt ? &h->hlt->ht.nelems : &h->ht->nelems);
	return true;
}

static void hk_irq_check(struct kunit *test, struct hk_irq *h, void *ret)
{
	rht_shim_irq_arm(NULL, NULL);
	KUNIT_EXPECT_NULL(test, ret);
	KUNIT_EXPECT_EQ(test, h->fired, 1);
	KUNIT_EXPECT_EQ(test, h->err, 0);
	KUNIT_EXPECT_EQ(test, h->nelems, 0);
}

static void insert_is_counted_before_it_is_visible(struct kunit *test)
{
	struct rhashtable *ht = kunit_kzalloc(test, sizeof(*ht), GFP_KERNEL);
	struct rhltable *hlt = kunit_kzalloc(test, sizeof(*hlt), GFP_KERNEL);
	struct hk_obj obj = { .key = 7 };
	struct hk_dup dup = { .key = 7 };
	struct hk_irq h = { .ht = ht, .obj = &obj };
	u32 key = obj.key;

	KUNIT_ASSERT_NOT_NULL(test, ht);
	KUNIT_ASSERT_NOT_NULL(test, hlt);
	KUNIT_ASSERT_EQ(test, rhashtable_init(ht, &hk_params), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, hk_destroy, ht),
			0);
	KUNIT_ASSERT_EQ(test, rhltable_init(hlt, &hk_lparams), 0);

	/* The inline path, with no resize running. */
	rht_shim_irq_arm(hk_irq_remove, &h);
	hk_irq_check(test, &h, ERR_PTR(rhashtable_insert_fast(ht, &obj.node,
							      hk_params)));

	/* The out-of-line path, as net/core/xdp.c calls it. */
	h.fired = 0;
	rht_shim_irq_arm(hk_irq_remove, &h);
	rcu_read_lock();
	hk_irq_check(test, &h, rhashtable_insert_slow(ht, &key, &obj.node));
	rcu_read_unlock();

	/* An rhltable counts keys: the first object of a key is one. */
	h = (struct hk_irq){ .hlt = hlt, .dup = &dup };
	rht_shim_irq_arm(hk_irq_remove, &h);
	hk_irq_check(test, &h, ERR_PTR(rhltable_insert(hlt, &dup.list,
						       hk_lparams)));
	rhltable_destroy(hlt);
}

/*
 * Halvings while updates run on both buckets of every pair.  An update
 * that sees the halving re-zips its pair and so reads the head of the
 * pair's other bucket; an update that started before the halving may be
 * changing that head on the inline path, under that bucket's lock alone.
 * Unless the first one holds both locks of the pair, it can join its
 * chain to an object the second is removing, which then stays reachable
 * after it is freed.  The identity hash puts key k in bucket k mod size;
 * the updaters insert and remove heads in all eight buckets in turn, so
 * both buckets of every pair change while the resizer halves and doubles
 * the table between 8 and 4 buckets.  Probabilistic; the next case makes
 * the race happen.
 */
#define HK_PAIRS	4
#define HK_STABLE	2		/* per bucket, looked up throughout */

struct hk_pobj {
	u32 key;
	struct rhash_head node;
	struct rcu_head rcu;
};

static u32 hk_ident(const void *key, u32 len, u32 seed)
{
	return *(const u32 *)key;
}

static bool hk_no_policy(const struct rhashtable *ht, size_t size)
{
	return false;
}

static const struct rhashtable_params hk_pparams = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct hk_pobj, key),
	.head_offset = offsetof(struct hk_pobj, node),
	.hashfn = hk_ident,
	.min_size = HK_PAIRS,
};

/* A table of 8 buckets that only the test's own resizes resize. */
static int hk_init_8(struct rhashtable *ht)
{
	struct rhashtable_params params = hk_pparams;

	params.nelem_hint = 4;
	params.grow_decision = hk_no_policy;
	params.shrink_decision = hk_no_policy;
	return rhashtable_init(ht, &params);
}

struct hk_pairs {
	struct rhashtable ht;
	struct hk_pobj stable[2 * HK_PAIRS][HK_STABLE];
	int stop;
	long misses, errors, resizes, churns;
};

static void hk_pobj_free(struct rcu_head *head)
{
	kfree(container_of(head, struct hk_pobj, rcu));
}

/* Insert a fresh object at the head of @bucket, take it out, free it. */
static void hk_churn(struct hk_pairs *p, u32 bucket, u32 *serial)
{
	struct hk_pobj *o = kzalloc(sizeof(*o), GFP_KERNEL);

	if (!o)
		return;
	o->key = bucket + 8 * (HK_STABLE + 1 + (++*serial % 1024));
	if (rhashtable_insert_fast(&p->ht, &o->node, hk_pparams) ||
	    rhashtable_remove_fast(&p->ht, &o->node, hk_pparams))
		__atomic_add_fetch(&p->errors, 1, __ATOMIC_RELAXED);
	call_rcu(&o->rcu, hk_pobj_free);
}

static void *hk_pair_updater(void *arg)
{
	struct hk_pairs *p = arg;
	static int next_id;
	int id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
	u32 serial = id << 16, bucket = id % (2 * HK_PAIRS);
	long n = 0;

	while (!__atomic_load_n(&p->stop, __ATOMIC_RELAXED)) {
		hk_churn(p, bucket, &serial);
		bucket = (bucket + 3) % (2 * HK_PAIRS);
		n++;
	}
	__atomic_add_fetch(&p->churns, n, __ATOMIC_RELAXED);
	return NULL;
}

static void *hk_pair_reader(void *arg)
{
	struct hk_pairs *p = arg;
	long misses = 0;
	u32 i = 0, key;

	while (!__atomic_load_n(&p->stop, __ATOMIC_RELAXED)) {
		i = (i + 1) % (2 * HK_PAIRS * HK_STABLE);
		key = p->stable[i / HK_STABLE][i % HK_STABLE].key;
		misses += !rhashtable_lookup_fast(&p->ht, &key, hk_pparams);
	}
	__atomic_add_fetch(&p->misses, misses, __ATOMIC_RELAXED);
	return NULL;
}

static void *hk_pair_resizer(void *arg)
{
	struct hk_pairs *p = arg;
	long n = 0;

	while (!__atomic_load_n(&p->stop, __ATOMIC_RELAXED)) {
		if (rhashtable_shrink(&p->ht) || rhashtable_expand(&p->ht))
			__atomic_add_fetch(&p->errors, 1, __ATOMIC_RELAXED);
		n += 2;
	}
	__atomic_add_fetch(&p->resizes, n, __ATOMIC_RELAXED);
	return NULL;
}

/*
 * The halving zips its pairs in order; pausing after each gives updates
 * that see the halving time to re-zip the pairs ahead of it.
 */
static struct hk_pairs *hk_paused;

static void hk_pair_step(struct rhashtable *ht, enum rht_test_point point,
			 unsigned int arg)
{
	if (point == RHT_TP_ZIPPED_PAIR && ht == &READ_ONCE(hk_paused)->ht)
		usleep(20);
}

static const struct rht_test_hooks hk_pair_hooks = {
	.step = hk_pair_step,
};

static void halving_races_updates_on_both_halves(struct kunit *test)
{
	struct hk_pairs *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	pthread_t tid[6];
	unsigned int b, i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, hk_init_8(&p->ht), 0);
	for (b = 0; b < 2 * HK_PAIRS; b++)
		for (i = 0; i < HK_STABLE; i++) {
			struct hk_pobj *o = &p->stable[b][i];

			o->key = b + 8 * (i + 1);
			KUNIT_ASSERT_EQ(test, rhashtable_insert_fast(&p->ht,
								     &o->node,
								     hk_pparams),
					0);
		}

	WRITE_ONCE(hk_paused, p);
	rht_test_set_hooks(&hk_pair_hooks);
	KUNIT_ASSERT_EQ(test, pthread_create(&tid[0], NULL, hk_pair_resizer,
					     p), 0);
	KUNIT_ASSERT_EQ(test, pthread_create(&tid[1], NULL, hk_pair_reader,
					     p), 0);
	for (i = 2; i < ARRAY_SIZE(tid); i++)
		KUNIT_ASSERT_EQ(test, pthread_create(&tid[i], NULL,
						     hk_pair_updater, p), 0);
	usleep(2000 * 1000);
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < ARRAY_SIZE(tid); i++)
		pthread_join(tid[i], NULL);
	rht_test_set_hooks(NULL);
	WRITE_ONCE(hk_paused, NULL);
	rcu_barrier();

	kunit_info(test, "resizes=%ld churns=%ld misses=%ld\n", p->resizes,
		   p->churns, p->misses);
	KUNIT_EXPECT_GT(test, p->resizes, 10L);
	KUNIT_EXPECT_EQ(test, p->errors, 0L);
	KUNIT_EXPECT_EQ(test, p->misses, 0L);
	KUNIT_EXPECT_EQ(test, rht_test_validate(&p->ht), 0);
	KUNIT_EXPECT_EQ(test, rhashtable_count(&p->ht),
			2U * HK_PAIRS * HK_STABLE);
	rhashtable_destroy(&p->ht);
}

/*
 * The same race, made to happen: an inline removal of the head of bucket
 * 7 (of 8) is about to store the new head, still holding the bucket's
 * lock, when a halving starts.  Before the worker zips pair 3, an insert
 * into bucket 3 sees the halving and re-zips the pair.  It must wait for
 * bucket 7's lock; had it read bucket 7's head without it, it would join
 * bucket 3's chain to the object being removed, which would then stay
 * reachable (and be found) after its removal.
 */
struct hk_zip_race {
	struct rhashtable ht;
	struct hk_pobj x, y0, y1, s;
	pthread_t worker;
	int s_done, shrink_err;
};

static struct hk_zip_race *hk_zr;

static void *hk_zr_shrink(void *arg)
{
	struct hk_zip_race *zr = arg;

	zr->shrink_err = rhashtable_shrink(&zr->ht);
	return NULL;
}

/* The worker, after pair 2 and before pair 3: insert into bucket 3. */
static void hk_zr_step(struct rhashtable *ht, enum rht_test_point point,
		       unsigned int arg)
{
	struct hk_zip_race *zr = READ_ONCE(hk_zr);

	if (!zr || ht != &zr->ht || point != RHT_TP_ZIPPED_PAIR || arg != 2)
		return;
	if (rhashtable_insert_fast(&zr->ht, &zr->s.node, hk_pparams))
		zr->shrink_err = -EINVAL;
	__atomic_store_n(&zr->s_done, 1, __ATOMIC_RELEASE);
}

static const struct rht_test_hooks hk_zr_hooks = {
	.step = hk_zr_step,
};

/* Inside the removal: start the halving, give the insert 300 ms. */
static bool hk_zr_in_removal(void *arg)
{
	struct hk_zip_race *zr = arg;
	int ms;

	if (pthread_create(&zr->worker, NULL, hk_zr_shrink, zr))
		return true;
	for (ms = 0; ms < 300; ms++) {
		if (__atomic_load_n(&zr->s_done, __ATOMIC_ACQUIRE))
			break;
		usleep(1000);
	}
	return true;
}

static void zip_waits_for_inline_removal_of_partner_head(struct kunit *test)
{
	struct hk_zip_race *zr = kunit_kzalloc(test, sizeof(*zr), GFP_KERNEL);
	u32 key;

	KUNIT_ASSERT_NOT_NULL(test, zr);
	KUNIT_ASSERT_EQ(test, hk_init_8(&zr->ht), 0);
	zr->x.key = 3;
	zr->s.key = 11;				/* bucket 3 too */
	zr->y1.key = 15;
	zr->y0.key = 23;			/* bucket 7, its head */
	KUNIT_ASSERT_EQ(test, rhashtable_insert_fast(&zr->ht, &zr->x.node,
						     hk_pparams), 0);
	KUNIT_ASSERT_EQ(test, rhashtable_insert_fast(&zr->ht, &zr->y1.node,
						     hk_pparams), 0);
	KUNIT_ASSERT_EQ(test, rhashtable_insert_fast(&zr->ht, &zr->y0.node,
						     hk_pparams), 0);

	WRITE_ONCE(hk_zr, zr);
	rht_test_set_hooks(&hk_zr_hooks);
	rht_shim_release_arm(hk_zr_in_removal, zr);
	KUNIT_EXPECT_EQ(test, rhashtable_remove_fast(&zr->ht, &zr->y0.node,
						     hk_pparams), 0);
	rht_shim_release_arm(NULL, NULL);
	KUNIT_ASSERT_TRUE(test, zr->worker != 0);
	pthread_join(zr->worker, NULL);
	rht_test_set_hooks(NULL);
	WRITE_ONCE(hk_zr, NULL);

	KUNIT_EXPECT_EQ(test, zr->shrink_err, 0);
	KUNIT_EXPECT_EQ(test, zr->s_done, 1);
	key = zr->y0.key;
	rcu_read_lock();
	KUNIT_EXPECT_NULL(test, rhashtable_lookup(&zr->ht, &key, hk_pparams));
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, rht_test_validate(&zr->ht), 0);
	KUNIT_EXPECT_EQ(test, rhashtable_count(&zr->ht), 3U);
	rhashtable_destroy(&zr->ht);
}

/*
 * A rehash moves a bucket's objects one by one to the head of their bucket
 * in the new array.  Keys 1, 9 and 17 stay together (the hash ignores the
 * seed), so after the move of bucket 1 the new chain is 1 9 17.  A walk
 * that returned 17 and 9 from the old chain and still stands on 9 follows
 * 9's new link to 17, returned already.  The rehash bumps the bucket's
 * stripe before its first move, and the walk must see it and go back.
 * The walk runs in a thread of its own and stays under the RCU read lock
 * from one step of the rehash to the next, which only the harness can
 * arrange: the test thread, which runs the worker, parks it at the steps.
 */
struct hk_rehash_walk {
	struct rhashtable ht;
	struct hk_pobj obj[3];
	struct rhashtable_iter iter;
	int seen[3];		/* epoch + 1 of each object's last return */
	int epoch, dups, returned, steps;
	bool ended;
	pthread_t walker;
	int phase;		/* 1: walk to 9; 2: on 9; 3: go on; 4: done */
};

static struct hk_rehash_walk *hk_rw;

static bool hk_rw_next(struct hk_rehash_walk *rw)
{
	void *ptr = rhashtable_walk_next(&rw->iter);
	struct hk_pobj *o = ptr;
	int i;

	if (!ptr)
		return false;
	if (IS_ERR(ptr)) {
		rw->epoch++;
		return true;
	}
	i = o - rw->obj;
	rw->dups += rw->seen[i] == rw->epoch + 1;
	rw->seen[i] = rw->epoch + 1;
	rw->returned++;
	return true;
}

static void hk_rw_wait(struct hk_rehash_walk *rw, int phase)
{
	while (__atomic_load_n(&rw->phase, __ATOMIC_ACQUIRE) != phase)
		usleep(100);
}

static void hk_rw_set(struct hk_rehash_walk *rw, int phase)
{
	__atomic_store_n(&rw->phase, phase, __ATOMIC_RELEASE);
}

static void *hk_rw_walker(void *arg)
{
	struct hk_rehash_walk *rw = arg;
	int n;

	rhashtable_walk_enter(&rw->ht, &rw->iter);
	rhashtable_walk_start(&rw->iter);
	while (rw->returned < 2 && hk_rw_next(rw))
		;
	hk_rw_set(rw, 2);
	hk_rw_wait(rw, 3);
	for (n = 0; n < 64 && hk_rw_next(rw); n++)
		;
	rw->ended = n < 64;
	rhashtable_walk_stop(&rw->iter);
	rhashtable_walk_exit(&rw->iter);
	hk_rw_set(rw, 4);
	return NULL;
}

static void hk_rw_step(struct rhashtable *ht, enum rht_test_point point,
		       unsigned int arg)
{
	struct hk_rehash_walk *rw = READ_ONCE(hk_rw);

	if (!rw || ht != &rw->ht || point != RHT_TP_MOVED_BUCKET)
		return;
	rw->steps++;
	if (arg == 0) {
		/* Bucket 1 not moved yet: the walk returns 17, 9, stays. */
		hk_rw_set(rw, 1);
		if (pthread_create(&rw->walker, NULL, hk_rw_walker, rw))
			return;
		hk_rw_wait(rw, 2);
	} else if (arg == 1 && rw->phase == 2) {
		hk_rw_set(rw, 3);
		hk_rw_wait(rw, 4);
		pthread_join(rw->walker, NULL);
	}
}

static const struct rht_test_hooks hk_rw_hooks = {
	.step = hk_rw_step,
};

static void rehash_bumps_before_moving_a_walked_bucket(struct kunit *test)
{
	struct hk_rehash_walk *rw = kunit_kzalloc(test, sizeof(*rw),
						  GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, rw);
	KUNIT_ASSERT_EQ(test, hk_init_8(&rw->ht), 0);
	for (i = 0; i < 3; i++) {
		rw->obj[i].key = 1 + 8 * i;
		KUNIT_ASSERT_EQ(test, rhashtable_insert_fast(&rw->ht,
							     &rw->obj[i].node,
							     hk_pparams), 0);
	}
	WRITE_ONCE(hk_rw, rw);
	rht_test_set_hooks(&hk_rw_hooks);
	KUNIT_EXPECT_EQ(test, rht_test_resize(&rw->ht, 8, true), 0);
	rht_test_set_hooks(NULL);
	WRITE_ONCE(hk_rw, NULL);

	KUNIT_EXPECT_EQ(test, rw->steps, 8);
	KUNIT_EXPECT_EQ(test, rw->phase, 4);
	KUNIT_EXPECT_TRUE(test, rw->ended);
	KUNIT_EXPECT_EQ(test, rw->dups, 0);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_NE_MSG(test, rw->seen[i], 0, "key %u missed",
				    rw->obj[i].key);
	KUNIT_EXPECT_EQ(test, rht_test_validate(&rw->ht), 0);
	rhashtable_destroy(&rw->ht);
}

static struct kunit_case hk_cases[] = {
	KUNIT_CASE(zip_waits_for_inline_removal_of_partner_head),
	KUNIT_CASE(halving_races_updates_on_both_halves),
	KUNIT_CASE(insert_is_counted_before_it_is_visible),
	KUNIT_CASE(nelems_never_negative_across_cpus),
	KUNIT_CASE(rhltable_readers_see_filled_duplicates),
	KUNIT_CASE(rehash_bumps_before_moving_a_walked_bucket),
	{}
};

static struct kunit_suite hk_suite = {
	.name = "rhashtable-harness",
	.test_cases = hk_cases,
};

kunit_test_suites(&hk_suite);
