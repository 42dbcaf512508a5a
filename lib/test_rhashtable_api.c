// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases for the parts of the rhashtable interface that in-tree users
 * reach into: the bucket walks and locks of <linux/rhashtable.h>, the
 * helpers behind the inline fast paths, a direct rhashtable_insert_slow(),
 * nested bucket arrays, and the walker's peek.  Each case uses the names
 * the way a user does; lab/api-coverage.sh checks that every name of the
 * 6.12 interface appears in some test.
 *
 * Like test_rhashtable_phases.c, this file also builds in the userspace
 * harness (tools/testing/rhashtable).
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>

#include "rhashtable_test.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* key k lands in bucket k % size, as in test_rhashtable_phases.c */
#define API_SEED	0x40000000u
#define API_OBJS	32

struct api_obj {
	u32 key;
	struct rhash_head node;
	struct rhlist_head list;
};

static u32 api_hash(const void *data, u32 len, u32 seed)
{
	return *(const u32 *)data ^ seed;
}

static u32 api_obj_hash(const void *data, u32 len, u32 seed)
{
	const struct api_obj *obj = data;

	return obj->key ^ seed;
}

static int api_cmp(struct rhashtable_compare_arg *arg, const void *ptr)
{
	const struct api_obj *obj = ptr;

	return obj->key != *(const u32 *)arg->key;
}

/* The typedefs users declare their hooks with. */
static const rht_hashfn_t api_hashfn = api_hash;
static const rht_obj_hashfn_t api_obj_hashfn = api_obj_hash;
static const rht_obj_cmpfn_t api_cmpfn = api_cmp;

static const struct rhashtable_params api_params = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct api_obj, key),
	.head_offset = offsetof(struct api_obj, node),
	.hashfn = api_hash,
	.hash_rnd = API_SEED,
};

static const struct rhashtable_params api_lparams = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct api_obj, key),
	.head_offset = offsetof(struct api_obj, list),
	.hashfn = api_hash,
	.hash_rnd = API_SEED,
};

static bool api_never(const struct rhashtable *ht, size_t size)
{
	return false;
}

struct api_ctx {
	struct rhashtable ht;
	struct api_obj obj[API_OBJS];
	unsigned int n;
};

static void api_destroy(void *ht)
{
	rhashtable_destroy(ht);
}

/* A table of @size buckets holding @keys (0 ends), the last at the head. */
static struct api_ctx *api_new(struct kunit *test, unsigned int size,
			       const u32 *keys)
{
	struct api_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	struct rhashtable_params p = api_params;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	p.nelem_hint = size / 2;
	/* The 3.17 hook: the worker never resizes on its own. */
	p.grow_decision = api_never;
	/* What rhashtable_init() expands to, without the profiling hook. */
	KUNIT_ASSERT_EQ(test, rhashtable_init_noprof(&ctx->ht, &p), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, api_destroy,
							&ctx->ht), 0);
	for (; keys && keys[ctx->n]; ctx->n++) {
		ctx->obj[ctx->n].key = keys[ctx->n];
		KUNIT_ASSERT_EQ(test,
				rhashtable_insert_fast(&ctx->ht,
						       &ctx->obj[ctx->n].node,
						       api_params), 0);
	}
	return ctx;
}

/* The current array; the cases start no resize while they use it. */
static struct bucket_table *api_cur_tbl(struct rhashtable *ht)
{
	struct bucket_table *tbl;

	mutex_lock(&ht->mutex);
	tbl = rht_dereference(ht->tbl, ht);
	mutex_unlock(&ht->mutex);
	return tbl;
}

static struct bucket_table *api_tbl(struct api_ctx *ctx)
{
	return api_cur_tbl(&ctx->ht);
}

/*
 * Under the bucket lock: the chain from its head with rht_ptr() and the
 * _from forms, rht_entry(), and an insert and a removal made by hand with
 * rht_assign_locked() and rht_assign_unlock(), as in-tree code once did.
 */
static void api_locked_bucket_walks(struct kunit *test)
{
	static const u32 keys[] = { 1, 9, 17, 0 };
	struct api_ctx *ctx = api_new(test, 8, keys);
	struct bucket_table *tbl = api_tbl(ctx);
	struct rhash_lock_head __rcu **bkt = rht_bucket_var(tbl, 1);
	struct api_obj *extra = &ctx->obj[ctx->n], *obj;
	struct rhash_head *pos, *head;
	unsigned int n = 0, hash;
	unsigned long flags;

	hash = rht_key_hashfn(&ctx->ht, tbl, &keys[0], api_params);
	KUNIT_EXPECT_EQ(test, hash, 1U);
	KUNIT_EXPECT_EQ(test, rht_head_hashfn(&ctx->ht, tbl, &ctx->obj[1].node,
					      api_params), 1U);
	KUNIT_EXPECT_EQ(test, rht_key_get_hash(&ctx->ht, &keys[1], api_params,
					       tbl->hash_rnd) &
			(tbl->size - 1), 1U);

	flags = rht_lock(tbl, bkt);
	KUNIT_EXPECT_TRUE(test, lockdep_rht_bucket_is_held(tbl, 1));
	head = rht_ptr(bkt, tbl, 1);
	KUNIT_EXPECT_PTR_EQ(test, head, &ctx->obj[2].node);
	KUNIT_EXPECT_PTR_EQ(test, rht_ptr_exclusive(bkt), head);
	KUNIT_EXPECT_PTR_EQ(test, __rht_ptr(rht_dereference_bucket(*bkt, tbl, 1),
					    bkt), head);
	rht_for_each_from(pos, head, tbl, 1) {
		KUNIT_EXPECT_TRUE(test, rht_entry(obj, pos, node));
		KUNIT_EXPECT_EQ(test, obj->key % 8, 1U);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 3U);
	/* From the second object on. */
	n = 0;
	rht_for_each_entry_from(obj, pos,
				rht_dereference_bucket(head->next, tbl, 1),
				tbl, 1, node)
		n++;
	KUNIT_EXPECT_EQ(test, n, 2U);
	KUNIT_EXPECT_TRUE(test, rht_is_a_nulls(pos));

	/* A hand-made insert at the head; the lock stays held. */
	extra->key = 25;
	RCU_INIT_POINTER(extra->node.next, head);
	rht_assign_locked(bkt, &extra->node);
	KUNIT_EXPECT_PTR_EQ(test, rht_ptr(bkt, tbl, 1), &extra->node);
	/* Take it out again, publishing the head and unlocking at once. */
	rht_assign_unlock(tbl, bkt, head, flags);
	rcu_read_lock();
	KUNIT_EXPECT_PTR_EQ(test, rht_ptr_rcu(bkt), head);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, rht_test_validate(&ctx->ht), 0);
}

/* A loop that retries more often than this is stuck: fail, do not hang. */
#define API_MAX_RETRIES	100

/*
 * The lookup loop bcachefs runs with rht_for_each_entry_rcu_from(): retry
 * the bucket while the walk ends on another marker than its own, then go on
 * into the array that replaces this one.  Here an object ahead of the key
 * moves to another bucket under the walk; the loop must still find the key.
 */
static struct api_obj *api_bcachefs_lookup(struct api_ctx *ctx, u32 key,
					   struct api_obj *move,
					   u32 move_to)
{
	struct rhash_lock_head __rcu *const *bkt;
	struct bucket_table *tbl;
	struct api_obj *obj, *found = NULL;
	unsigned int hash, tries = 0;
	struct rhash_head *he;

	rcu_read_lock();
	tbl = rht_dereference_rcu(ctx->ht.tbl, &ctx->ht);
	do {
		hash = rht_key_hashfn(&ctx->ht, tbl, &key, api_params);
		bkt = rht_bucket(tbl, hash);
		do {
			/* Nothing moves but what we move: a few retries do. */
			if (++tries > API_MAX_RETRIES) {
				rcu_read_unlock();
				return ERR_PTR(-ELOOP);
			}
			rht_for_each_entry_rcu_from(obj, he, rht_ptr_rcu(bkt),
						    tbl, hash, node) {
				if (obj->key == key)
					found = obj;
				if (obj != move || obj->key == move_to)
					continue;
				/* Another CPU moves it while we stand on it. */
				WARN_ON(rhashtable_remove_fast(&ctx->ht,
							       &obj->node,
							       api_params));
				obj->key = move_to;
				WARN_ON(rhashtable_insert_fast(&ctx->ht,
							       &obj->node,
							       api_params));
			}
		} while (he != RHT_NULLS_MARKER(bkt));
		if (found)
			break;
		smp_rmb();	/* as __rhashtable_lookup(): see new arrays */
		tbl = rht_dereference_rcu(tbl->future_tbl, &ctx->ht);
	} while (tbl);
	rcu_read_unlock();
	return found;
}

static void api_bcachefs_rcu_from_loop(struct kunit *test)
{
	static const u32 keys[] = { 1, 9, 0 };
	struct api_ctx *ctx = api_new(test, 8, keys);

	KUNIT_EXPECT_PTR_EQ(test, api_bcachefs_lookup(ctx, 1, &ctx->obj[1], 2),
			    &ctx->obj[0]);
	KUNIT_EXPECT_PTR_EQ(test, api_bcachefs_lookup(ctx, 2, NULL, 0),
			    &ctx->obj[1]);
	KUNIT_EXPECT_EQ(test, rht_test_validate(&ctx->ht), 0);
}

/* The loop again, at every step of a doubling, a halving and a rehash. */
static struct api_ctx *api_step_ctx;
static unsigned int api_step_checks;
static struct kunit *api_step_test;

static void api_step(struct rhashtable *ht, enum rht_test_point point,
		     unsigned int arg)
{
	struct api_ctx *ctx = READ_ONCE(api_step_ctx);
	unsigned int i;

	if (!ctx || ht != &ctx->ht)
		return;
	for (i = 0; i < ctx->n; i++)
		KUNIT_EXPECT_PTR_EQ_MSG(api_step_test,
					api_bcachefs_lookup(ctx,
							    ctx->obj[i].key,
							    NULL, 0),
					&ctx->obj[i], "step %d", point);
	api_step_checks++;
}

static const struct rht_test_hooks api_step_hooks = {
	.step = api_step,
};

static void api_steps_done(void *unused)
{
	rht_test_set_hooks(NULL);
	WRITE_ONCE(api_step_ctx, NULL);
}

static void api_bcachefs_loop_in_every_resize_step(struct kunit *test)
{
	static const u32 keys[] = { 1, 9, 5, 13, 17, 2, 3, 0 };
	struct api_ctx *ctx = api_new(test, 4, keys);

	api_step_test = test;
	api_step_checks = 0;
	WRITE_ONCE(api_step_ctx, ctx);
	rht_test_set_hooks(&api_step_hooks);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, api_steps_done,
							NULL), 0);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(&ctx->ht), 0);
	KUNIT_EXPECT_EQ(test, rhashtable_shrink(&ctx->ht), 0);
	KUNIT_EXPECT_EQ(test, rht_test_resize(&ctx->ht, 8, true), 0);
	/* published, passes, retire; pairs, published, retire; ... */
	KUNIT_EXPECT_GE(test, api_step_checks, 10U);
}

/*
 * RCU walks of a bucket, the btree_key_cache way: a hand-written loop over
 * rht_dereference_bucket_rcu(), and rht_for_each_rcu_from().
 */
static void api_rcu_bucket_walks(struct kunit *test)
{
	static const u32 keys[] = { 3, 11, 19, 0 };
	struct api_ctx *ctx = api_new(test, 8, keys);
	struct bucket_table *tbl;
	struct rhash_head *pos, *next;
	unsigned int n = 0;

	rcu_read_lock();
	tbl = rht_dereference_rcu(ctx->ht.tbl, &ctx->ht);
	for (pos = rht_ptr_rcu(rht_bucket(tbl, 3)); !rht_is_a_nulls(pos);
	     pos = next) {
		next = rht_dereference_bucket_rcu(pos->next, tbl, 3);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 3U);
	n = 0;
	rht_for_each_rcu_from(pos, rht_ptr_rcu(rht_bucket(tbl, 3)), tbl, 3)
		n++;
	KUNIT_EXPECT_EQ(test, n, 3U);
	KUNIT_EXPECT_PTR_EQ(test, pos, RHT_NULLS_MARKER(rht_bucket(tbl, 3)));
	rcu_read_unlock();
}

/*
 * rhashtable_insert_slow() called directly, as net/core/xdp.c does:
 * %NULL once inserted, the object holding the key, or an error.
 */
static void api_insert_slow_direct(struct kunit *test)
{
	struct api_ctx *ctx = api_new(test, 8, NULL);
	struct rhashtable_params p = api_params;
	struct rhashtable *full;
	void *ret;
	u32 key;

	key = 5;
	ctx->obj[0].key = key;
	ctx->obj[1].key = 5;
	rcu_read_lock();
	ret = rhashtable_insert_slow(&ctx->ht, &key, &ctx->obj[0].node);
	rcu_read_unlock();
	KUNIT_EXPECT_NULL(test, ret);
	rcu_read_lock();
	ret = rhashtable_insert_slow(&ctx->ht, &key, &ctx->obj[1].node);
	rcu_read_unlock();
	KUNIT_EXPECT_PTR_EQ(test, ret, &ctx->obj[0]);

	/* A table that holds at most twice max_size objects. */
	full = kunit_kzalloc(test, sizeof(*full), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, full);
	p.max_size = 4;
	KUNIT_ASSERT_EQ(test, rhashtable_init(full, &p), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, api_destroy,
							full), 0);
	for (key = 0; key < 9; key++) {
		ctx->obj[2 + key].key = 100 + key;
		rcu_read_lock();
		ret = rhashtable_insert_slow(full, &ctx->obj[2 + key].key,
					     &ctx->obj[2 + key].node);
		rcu_read_unlock();
		if (key < 8)
			KUNIT_EXPECT_NULL(test, ret);
		else
			KUNIT_EXPECT_PTR_EQ(test, ret, ERR_PTR(-E2BIG));
	}
	KUNIT_EXPECT_TRUE(test, rht_grow_above_max(full,
						   api_cur_tbl(full)));
}

/*
 * The helpers behind the inline calls, called directly as a few users do
 * (__rhashtable_lookup()), and the checks of the sizing policy.
 */
static void api_fast_path_internals(struct kunit *test)
{
	struct api_ctx *ctx = api_new(test, 8, NULL);
	struct rhashtable_compare_arg arg = { .ht = &ctx->ht };
	struct bucket_table *tbl;
	struct rhash_head *he;
	unsigned int i;

	for (i = 0; i < 9; i++) {
		ctx->obj[i].key = i;
		KUNIT_EXPECT_NULL(test,
				  __rhashtable_insert_fast(&ctx->ht,
							   &ctx->obj[i].key,
							   &ctx->obj[i].node,
							   api_params, false));
	}
	rcu_read_lock();
	he = __rhashtable_lookup(&ctx->ht, &ctx->obj[4].key, api_params);
	rcu_read_unlock();
	KUNIT_EXPECT_PTR_EQ(test, rht_obj(&ctx->ht, he), &ctx->obj[4]);
	arg.key = &ctx->obj[4].key;
	KUNIT_EXPECT_EQ(test, rhashtable_compare(&arg, &ctx->obj[4]), 0);
	arg.key = &ctx->obj[5].key;
	KUNIT_EXPECT_NE(test, rhashtable_compare(&arg, &ctx->obj[4]), 0);
	KUNIT_EXPECT_EQ(test, api_cmpfn(&arg, &ctx->obj[5]), 0);
	KUNIT_EXPECT_EQ(test, api_hashfn(&ctx->obj[5].key, 4, 0),
			api_obj_hashfn(&ctx->obj[5], 4, 0));

	/* 9 objects in 8 buckets: above 100 %, and above 75 % too. */
	tbl = api_tbl(ctx);
	KUNIT_EXPECT_TRUE(test, rht_grow_above_100(&ctx->ht, tbl));
	KUNIT_EXPECT_TRUE(test, rht_grow_above_75(&ctx->ht, tbl));
	KUNIT_EXPECT_EQ(test, __rhashtable_remove_fast(&ctx->ht,
						       &ctx->obj[4].node,
						       api_params, false), 0);
	KUNIT_EXPECT_EQ(test, __rhashtable_remove_fast(&ctx->ht,
						       &ctx->obj[4].node,
						       api_params, false),
			-ENOENT);
	KUNIT_EXPECT_FALSE(test, rht_grow_above_100(&ctx->ht, tbl));
	KUNIT_EXPECT_EQ(test, rht_test_validate(&ctx->ht), 0);
}

/* Bucket locks of two arrays, older first, as during a resize. */
static void api_nested_locks(struct kunit *test)
{
	struct api_ctx *a = api_new(test, 8, NULL);
	struct api_ctx *b = api_new(test, 16, NULL);
	struct bucket_table *ta = api_tbl(a), *tb = api_tbl(b);
	struct rhash_lock_head __rcu **ba = rht_bucket_var(ta, 1);
	struct rhash_lock_head __rcu **bb = rht_bucket_var(tb, 1);
	unsigned long fa, fb;

	fa = rht_lock(ta, ba);
	fb = rht_lock_nested(tb, bb, SINGLE_DEPTH_NESTING);
	KUNIT_EXPECT_TRUE(test, lockdep_rht_bucket_is_held(tb, 1));
	rht_unlock(tb, bb, fb);
	rht_unlock(ta, ba, fa);
}

/* A nested bucket array, reached through the _nested helpers. */
static bool api_fail_flat(const struct rhashtable *ht,
			  enum rht_alloc_site site)
{
	return site == RHT_ALLOC_FLAT;
}

static const struct rht_test_hooks api_fail_flat_hooks = {
	.fail_alloc = api_fail_flat,
};

static void api_nested_buckets(struct kunit *test)
{
	struct rhashtable *ht = kunit_kzalloc(test, sizeof(*ht), GFP_KERNEL);
	struct rhashtable_params p = api_params;
	struct rhash_lock_head __rcu **bkt;
	struct api_obj *objs;
	struct bucket_table *tbl;
	unsigned int i;
	int err;

	objs = kunit_kcalloc(test, 4, sizeof(*objs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ht);
	KUNIT_ASSERT_NOT_NULL(test, objs);
	p.nelem_hint = 2048;	/* well above a page of buckets */
	rht_test_set_hooks(&api_fail_flat_hooks);
	err = rhashtable_init(ht, &p);
	rht_test_set_hooks(NULL);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, api_destroy, ht),
			0);
	tbl = api_cur_tbl(ht);
	KUNIT_ASSERT_NE(test, tbl->nest, 0U);
	for (i = 0; i < 4; i++) {
		objs[i].key = i * tbl->size / 4 + 1;
		KUNIT_EXPECT_EQ(test, rhashtable_insert_fast(ht, &objs[i].node,
							     api_params), 0);
	}
	for (i = 0; i < 4; i++) {
		unsigned int hash = objs[i].key & (tbl->size - 1);

		bkt = rht_bucket_nested_insert(ht, tbl, hash);
		KUNIT_EXPECT_PTR_EQ(test, bkt, __rht_bucket_nested(tbl, hash));
		KUNIT_EXPECT_PTR_EQ(test, (void *)rht_bucket_nested(tbl, hash),
				    (void *)bkt);
		KUNIT_EXPECT_PTR_EQ(test, rht_bucket_insert(ht, tbl, hash), bkt);
		KUNIT_EXPECT_PTR_EQ(test, rht_ptr_exclusive(bkt),
				    &objs[i].node);
	}
	KUNIT_EXPECT_EQ(test, rht_test_validate(ht), 0);
}

/*
 * Count what a walk returns from its current position on: what peek gives
 * (the current object, or the next one, which becomes current), then every
 * object after it.
 */
static unsigned int api_walk_rest(struct kunit *test,
				  struct rhashtable_iter *iter)
{
	struct api_obj *obj = rhashtable_walk_peek(iter);
	unsigned int n = 0;

	KUNIT_EXPECT_PTR_EQ(test, rhashtable_walk_peek(iter), obj);
	for (; obj; obj = rhashtable_walk_next(iter)) {
		KUNIT_EXPECT_FALSE(test, IS_ERR(obj));
		if (IS_ERR(obj))
			break;
		n++;
	}
	return n;
}

/*
 * rhashtable_walk_peek() after an -EAGAIN (the walk went back: peek gives
 * the first object again), and on an rhltable, whose walk returns every
 * object of a key; rhltable_init_noprof() is what rhltable_init() wraps.
 */
static void api_walk_peek(struct kunit *test)
{
	static const u32 keys[] = { 1, 2, 3, 0 };
	struct api_ctx *ctx = api_new(test, 8, keys);
	struct rhashtable_walker *walker;
	struct rhashtable_iter iter;
	struct rhltable *hlt;
	unsigned int n;

	rhashtable_walk_enter(&ctx->ht, &iter);
	walker = &iter.walker;
	KUNIT_EXPECT_PTR_EQ(test, walker->tbl, api_tbl(ctx));
	rhashtable_walk_start(&iter);
	KUNIT_EXPECT_NOT_NULL(test, rhashtable_walk_peek(&iter));
	rhashtable_walk_stop(&iter);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(&ctx->ht), 0);
	KUNIT_EXPECT_EQ(test, rhashtable_walk_start_check(&iter), -EAGAIN);
	n = api_walk_rest(test, &iter);
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	KUNIT_EXPECT_EQ(test, n, 3U);

	hlt = kunit_kzalloc(test, sizeof(*hlt), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hlt);
	KUNIT_ASSERT_EQ(test, rhltable_init_noprof(hlt, &api_lparams), 0);
	KUNIT_EXPECT_TRUE(test, hlt->ht.rhlist);
	for (n = 0; n < 3; n++) {
		ctx->obj[n].key = 7;	/* three objects, one key */
		KUNIT_EXPECT_EQ(test, rhltable_insert(hlt, &ctx->obj[n].list,
						      api_lparams), 0);
	}
	rhltable_walk_enter(hlt, &iter);
	rhashtable_walk_start(&iter);
	n = api_walk_rest(test, &iter);
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	KUNIT_EXPECT_EQ(test, n, 3U);
	for (n = 0; n < 3; n++)
		KUNIT_EXPECT_EQ(test, rhltable_remove(hlt, &ctx->obj[n].list,
						      api_lparams), 0);
	rhltable_destroy(hlt);
}

/* A bucket slot of one's own, emptied the 6.12 way. */
static void api_init_nulls_head(struct kunit *test)
{
	struct rhash_lock_head __rcu *slot = (void __force __rcu *)1UL;

	INIT_RHT_NULLS_HEAD(slot);
	KUNIT_EXPECT_TRUE(test, rht_is_a_nulls(rht_ptr_exclusive(&slot)));
	KUNIT_EXPECT_PTR_EQ(test, rht_ptr_exclusive(&slot),
			    RHT_NULLS_MARKER(&slot));
}

static bool api_grow_below_64(const struct rhashtable *ht, size_t size)
{
	return size < 64;
}

/* Bytes of @ht that are not @c (no memchr_inv() in the harness). */
static unsigned int api_changed(const struct rhashtable *ht, u8 c)
{
	const u8 *b = (const u8 *)ht;
	unsigned int i, n = 0;

	for (i = 0; i < sizeof(*ht); i++)
		n += b[i] != c;
	return n;
}

/*
 * Destruction while the worker waits for a grace period between two steps
 * of a doubling.  Destruction does not wait for it; the callback that runs
 * later must touch neither the table nor anything destruction freed.  The
 * table's memory is poisoned right after destruction (bit 0 of each byte
 * clear: a late schedule_work() would set one) and checked once every
 * callback has run; KASAN and ASAN watch the memory destruction freed.
 */
static void api_destroy_while_waiting_for_gp(struct kunit *test)
{
	struct rhashtable *ht = kunit_kzalloc(test, sizeof(*ht), GFP_KERNEL);
	struct rhashtable_params p = api_params;
	unsigned int round, waiting = 0;

	KUNIT_ASSERT_NOT_NULL(test, ht);
	p.nelem_hint = 4;			/* 8 buckets */
	p.grow_decision = api_grow_below_64;
	p.shrink_decision = api_never;
	for (round = 0; round < 8; round++) {
		KUNIT_ASSERT_EQ(test, rhashtable_init(ht, &p), 0);
		rhashtable_kick(ht, 0);
		/* Once the worker is back, the doubling waits for a callback. */
		flush_work(&ht->run_work);
		waiting += rht_test_resize_step(ht) != 0;
		rhashtable_destroy(ht);
		memset(ht, 0x6a, sizeof(*ht));
		rcu_barrier();
		KUNIT_EXPECT_EQ(test, api_changed(ht, 0x6a), 0U);
	}
	kunit_info(test, "destroyed %u of 8 tables while a grace period was awaited\n",
		   waiting);
	KUNIT_EXPECT_GT(test, waiting, 0U);
}

static struct kunit_case api_cases[] = {
	KUNIT_CASE(api_locked_bucket_walks),
	KUNIT_CASE(api_bcachefs_rcu_from_loop),
	KUNIT_CASE(api_bcachefs_loop_in_every_resize_step),
	KUNIT_CASE(api_rcu_bucket_walks),
	KUNIT_CASE(api_insert_slow_direct),
	KUNIT_CASE(api_fast_path_internals),
	KUNIT_CASE(api_nested_locks),
	KUNIT_CASE(api_nested_buckets),
	KUNIT_CASE(api_walk_peek),
	KUNIT_CASE(api_init_nulls_head),
	KUNIT_CASE(api_destroy_while_waiting_for_gp),
	{}
};

static struct kunit_suite api_suite = {
	.name = "rhashtable-api",
	.test_cases = api_cases,
};

kunit_test_suites(&api_suite);

MODULE_DESCRIPTION("KUnit tests of the rhashtable interface users reach into");
MODULE_LICENSE("GPL");
