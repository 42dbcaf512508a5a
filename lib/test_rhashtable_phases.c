// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites that stop a resize at one of its steps and check what a
 * reader sees there.  The promise under test: a lookup or a walk under
 * rcu_read_lock() finds every object that is in the table for the whole
 * lookup or walk, whatever updaters do meanwhile, in particular when the
 * object the reader stands on is taken out, given another key and
 * inserted again, in the same table or in another one.
 *
 * The object is moved from inside the table's compare function, which a
 * lookup calls on the object it stands on just before it reads the
 * object's next pointer; a walk gets the object back and the test moves
 * it before asking for the next one.  The resize runs in the test's own
 * thread (rhashtable_expand() and friends) and stops at the step a case
 * names through the step hook of lib/rhashtable_test.h.  Nothing depends
 * on timing, so every case runs the same way on one CPU or many.
 *
 * The same file builds in the userspace harness (tools/testing/rhashtable)
 * against its small KUnit, so that these cases also run under the
 * sanitizers there.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>

#include "rhashtable_test.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The hash is the key XOR a fixed seed whose low bits are clear, so that
 * key k lands in bucket k % size: the cases below build chains by hand.
 */
#define PH_SEED		0x40000000u
#define PH_OBJS		8
#define PH_MAX_EAGAIN	64	/* a walk that needs more is stuck */

struct ph_obj {
	u32 key;
	struct rhash_head node;
	struct rhashtable *in;		/* the table it is in, or NULL */
};

enum ph_resize {
	PH_STEADY,			/* no resize: check at once */
	PH_GROW,			/* rhashtable_expand() */
	PH_SHRINK,			/* rhashtable_shrink() */
	PH_REHASH,			/* same size, new seed */
};

/* One case: a table, a resize, the step to stop at, and a move. */
struct ph_case {
	unsigned int size;		/* buckets of the table */
	u32 keys[PH_OBJS];		/* inserted in this order, 0 ends */
	enum ph_resize resize;
	enum rht_test_point point;	/* where the check runs */
	int arg;			/* ...at this hook argument, or -1 */
	u32 want;			/* the key looked up */
	u32 trap;			/* key of the object moved under it */
	u32 moved_key;			/* its new key */
	unsigned int other_size;	/* move into a second table this big */
	bool walk;			/* check with a walk, not a lookup */
	bool nested;			/* the table's array is nested */
};

struct ph_ctx {
	struct kunit *test;
	const struct ph_case *c;
	struct rhashtable ht, other;
	bool other_live;
	struct ph_obj obj[PH_OBJS];
	unsigned int nobj;
	struct ph_obj *trap;		/* move this one when compared */
	bool sprung;			/* ...which happened */
	bool checked;			/* the check ran */
	unsigned long gp_cookie;	/* for the grace-period case */
	unsigned int passes;
	unsigned int grow_to;		/* worker's resizes: grow below this */
	unsigned int shrink_to;		/* ...and shrink above this, if set */
	bool settled;			/* a halving left its zip rules */
};

static struct ph_ctx *ph_cur;

static u32 ph_hash(const void *data, u32 len, u32 seed)
{
	return *(const u32 *)data ^ seed;
}

/* Resizes are driven by the cases, or by the worker when they ask. */
static bool ph_grow(const struct rhashtable *ht, size_t size)
{
	struct ph_ctx *ctx = READ_ONCE(ph_cur);

	return ctx && ht == &ctx->ht && size < READ_ONCE(ctx->grow_to);
}

static bool ph_shrink(const struct rhashtable *ht, size_t size)
{
	struct ph_ctx *ctx = READ_ONCE(ph_cur);
	unsigned int to = ctx ? READ_ONCE(ctx->shrink_to) : 0;

	return ctx && ht == &ctx->ht && to && size > to;
}

static void ph_move(struct ph_ctx *ctx, struct ph_obj *obj);

/* Compares like memcmp(), but first springs the trap on its object. */
static int ph_cmp(struct rhashtable_compare_arg *arg, const void *ptr)
{
	struct ph_ctx *ctx = READ_ONCE(ph_cur);
	struct ph_obj *obj = (struct ph_obj *)ptr;

	if (ctx && obj == ctx->trap && !ctx->sprung)
		ph_move(ctx, obj);
	return obj->key != *(const u32 *)arg->key;
}

/* No automatic resizes: each case drives the one it wants. */
static const struct rhashtable_params ph_params = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct ph_obj, key),
	.head_offset = offsetof(struct ph_obj, node),
	.hashfn = ph_hash,
	.obj_cmpfn = ph_cmp,
	.hash_rnd = PH_SEED,
	.grow_decision = ph_grow,
	.shrink_decision = ph_shrink,
};

static int ph_init_table(struct rhashtable *ht, unsigned int size)
{
	struct rhashtable_params p = ph_params;

	p.nelem_hint = size / 2;	/* makes an array of @size buckets */
	return rhashtable_init(ht, &p);
}

static unsigned int ph_size(struct rhashtable *ht)
{
	unsigned int size;

	rcu_read_lock();
	size = rht_dereference_rcu(ht->tbl, ht)->size;
	rcu_read_unlock();
	return size;
}

static struct ph_obj *ph_find(struct ph_ctx *ctx, u32 key)
{
	unsigned int i;

	for (i = 0; i < ctx->nobj; i++)
		if (ctx->obj[i].key == key)
			return &ctx->obj[i];
	return NULL;
}

/* Take @obj out, give it the case's new key, insert it again. */
static void ph_move(struct ph_ctx *ctx, struct ph_obj *obj)
{
	struct rhashtable *to = ctx->c->other_size ? &ctx->other : &ctx->ht;
	struct kunit *test = ctx->test;

	ctx->sprung = true;
	KUNIT_EXPECT_EQ(test, rhashtable_remove_fast(obj->in, &obj->node,
						     ph_params), 0);
	obj->key = ctx->c->moved_key;
	obj->in = to;
	KUNIT_EXPECT_EQ(test, rhashtable_lookup_insert_fast(to, &obj->node,
							    ph_params), 0);
}

static void ph_check_lookup(struct ph_ctx *ctx)
{
	struct kunit *test = ctx->test;
	struct ph_obj *want = ph_find(ctx, ctx->c->want), *got;

	ctx->trap = ph_find(ctx, ctx->c->trap);
	rcu_read_lock();
	got = rhashtable_lookup(&ctx->ht, &ctx->c->want, ph_params);
	rcu_read_unlock();
	ctx->trap = NULL;
	KUNIT_EXPECT_TRUE_MSG(test, ctx->sprung,
			      "the lookup never stood on key %u", ctx->c->trap);
	KUNIT_EXPECT_PTR_EQ_MSG(test, got, want, "lookup of key %u",
				ctx->c->want);
}

/*
 * Walk the whole table, moving the trap once the walk returned it.  Every
 * other object was in the table throughout and must come back, and none
 * twice without an -EAGAIN in between.
 */
static void ph_check_walk(struct ph_ctx *ctx)
{
	struct kunit *test = ctx->test;
	struct ph_obj *trap = ph_find(ctx, ctx->c->trap), *obj;
	unsigned int seen[PH_OBJS] = { };	/* epoch + 1 of the last return */
	struct rhashtable_iter iter;
	unsigned int eagain = 0, i;

	rhashtable_walk_enter(&ctx->ht, &iter);
	rhashtable_walk_start(&iter);
	while ((obj = rhashtable_walk_next(&iter))) {
		if (IS_ERR(obj)) {
			KUNIT_EXPECT_EQ(test, PTR_ERR(obj), -EAGAIN);
			if (++eagain > PH_MAX_EAGAIN)
				break;
			continue;
		}
		i = obj - ctx->obj;
		KUNIT_EXPECT_NE_MSG(test, seen[i], eagain + 1,
				    "key %u returned twice without -EAGAIN",
				    obj->key);
		seen[i] = eagain + 1;
		if (obj == trap && !ctx->sprung)
			ph_move(ctx, obj);
	}
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);

	KUNIT_EXPECT_LE_MSG(test, eagain, PH_MAX_EAGAIN, "the walk never ends");
	KUNIT_EXPECT_TRUE_MSG(test, ctx->sprung,
			      "the walk never returned key %u", ctx->c->trap);
	for (i = 0; i < ctx->nobj; i++)
		if (&ctx->obj[i] != trap)
			KUNIT_EXPECT_TRUE_MSG(test, seen[i],
					      "the walk missed key %u",
					      ctx->obj[i].key);
}

static void ph_check(struct ph_ctx *ctx)
{
	KUNIT_EXPECT_EQ_MSG(ctx->test, rht_test_validate(&ctx->ht), 0,
			    "before the check");
	ctx->checked = true;
	if (ctx->c->walk)
		ph_check_walk(ctx);
	else
		ph_check_lookup(ctx);
}

static void ph_step(struct rhashtable *ht, enum rht_test_point point,
		    unsigned int arg)
{
	struct ph_ctx *ctx = READ_ONCE(ph_cur);

	if (!ctx || ht != &ctx->ht || ctx->checked ||
	    point != ctx->c->point ||
	    (ctx->c->arg >= 0 && arg != (unsigned int)ctx->c->arg))
		return;
	ph_check(ctx);
}

static const struct rht_test_hooks ph_hooks = {
	.step = ph_step,
};

static void ph_teardown(void *data)
{
	struct ph_ctx *ctx = data;

	rht_test_set_hooks(NULL);
	WRITE_ONCE(ph_cur, NULL);
	rhashtable_destroy(&ctx->ht);
	if (ctx->other_live)
		rhashtable_destroy(&ctx->other);
}

/* Make the case's table fail to get a flat array. */
static bool ph_fail_flat(const struct rhashtable *ht, enum rht_alloc_site site)
{
	struct ph_ctx *ctx = READ_ONCE(ph_cur);

	return ctx && ht == &ctx->ht && site == RHT_ALLOC_FLAT;
}

static const struct rht_test_hooks ph_fail_flat_hooks = {
	.fail_alloc = ph_fail_flat,
};

/* Build the case's table(s) and objects, with the hooks installed. */
static struct ph_ctx *ph_setup(struct kunit *test, const struct ph_case *c)
{
	struct ph_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	unsigned int i;
	int err;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->test = test;
	ctx->c = c;
	if (c->nested) {
		WRITE_ONCE(ph_cur, ctx);
		rht_test_set_hooks(&ph_fail_flat_hooks);
	}
	err = ph_init_table(&ctx->ht, c->size);
	rht_test_set_hooks(NULL);
	WRITE_ONCE(ph_cur, NULL);
	KUNIT_ASSERT_EQ(test, err, 0);
	if (c->other_size) {
		if (ph_init_table(&ctx->other, c->other_size)) {
			rhashtable_destroy(&ctx->ht);
			KUNIT_ASSERT_TRUE_MSG(test, false, "init of 2nd table");
		}
		ctx->other_live = true;
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ph_teardown,
							ctx), 0);
	KUNIT_ASSERT_EQ(test, ph_size(&ctx->ht), c->size);
	rcu_read_lock();
	err = !rht_dereference_rcu(ctx->ht.tbl, &ctx->ht)->nest != !c->nested;
	rcu_read_unlock();
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "nested array wanted: %d", c->nested);

	for (i = 0; i < PH_OBJS && c->keys[i]; i++) {
		struct ph_obj *obj = &ctx->obj[i];

		obj->key = c->keys[i];
		obj->in = &ctx->ht;
		KUNIT_ASSERT_EQ(test,
				rhashtable_lookup_insert_fast(&ctx->ht,
							      &obj->node,
							      ph_params), 0);
	}
	ctx->nobj = i;
	WRITE_ONCE(ph_cur, ctx);
	rht_test_set_hooks(&ph_hooks);
	return ctx;
}

/* Every object is where ph_move() or the setup put it, and only there. */
static void ph_verify(struct ph_ctx *ctx)
{
	struct kunit *test = ctx->test;
	unsigned int i, in_ht = 0;

	for (i = 0; i < ctx->nobj; i++) {
		struct ph_obj *obj = &ctx->obj[i];

		in_ht += obj->in == &ctx->ht;
		if (!obj->in) {		/* removed by the case */
			KUNIT_EXPECT_NULL(test,
					  rhashtable_lookup_fast(&ctx->ht,
								 &obj->key,
								 ph_params));
			continue;
		}
		KUNIT_EXPECT_PTR_EQ_MSG(test,
					rhashtable_lookup_fast(obj->in, &obj->key,
							       ph_params),
					obj, "key %u after the resize",
					obj->key);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->ht.nelems), in_ht);
	KUNIT_EXPECT_EQ(test, rht_test_validate(&ctx->ht), 0);
	if (ctx->other_live)
		KUNIT_EXPECT_EQ(test, rht_test_validate(&ctx->other), 0);
}

static void ph_run(struct kunit *test, const struct ph_case *c)
{
	struct ph_ctx *ctx = ph_setup(test, c);

	switch (c->resize) {
	case PH_STEADY:
		ph_check(ctx);
		break;
	case PH_GROW:
		KUNIT_EXPECT_EQ(test, rhashtable_expand(&ctx->ht), 0);
		break;
	case PH_SHRINK:
		KUNIT_EXPECT_EQ(test, rhashtable_shrink(&ctx->ht), 0);
		break;
	case PH_REHASH:
		KUNIT_EXPECT_EQ(test, rht_test_resize(&ctx->ht, c->size, true),
				0);
		break;
	}
	KUNIT_EXPECT_TRUE_MSG(test, ctx->checked, "the resize never reached the step");
	ph_verify(ctx);
}

/*
 * The chains.  Keys are chosen by bucket: with 8 buckets, keys 1, 9, 17
 * share bucket 1, and 5, 13, 21 bucket 5; with 4 buckets all of them share
 * bucket 1.  Objects are inserted at the head, so the last key listed is
 * the first a reader stands on.
 *
 * Doubling 4 -> 8: old bucket 1 holds [9 1 5 13 17]; new bucket 1's path
 * is 9 1 5 13 17, bucket 5's is 5 13 17, both ending on old bucket 1's
 * marker.  The first unzip pass cuts 1 -> 5 into 1 -> 17: the paths still
 * meet at 17 and end on the old marker.  The second cuts 13 -> 17, which
 * parts them, and ends 17 on new bucket 1's marker.
 */
#define PH_GROW_CHAIN	{ 17, 13, 5, 1, 9 }

/* Halving 8 -> 4: bucket 1 [9 1] and bucket 5 [5] zip into 9 1 5. */
#define PH_SHRINK_CHAIN	{ 5, 1, 9 }

#define PH_CASE(name, ...)						\
static void name(struct kunit *test)					\
{									\
	static const struct ph_case c = { __VA_ARGS__ };		\
									\
	ph_run(test, &c);						\
}

/* No resize: the object moves to another bucket, or another table. */
PH_CASE(lookup_steady_move_to_other_bucket,
	.size = 8, .keys = { 1, 9 }, .want = 1, .trap = 9, .moved_key = 2)
PH_CASE(lookup_steady_move_to_same_size_table,
	.size = 8, .keys = { 1, 9 }, .want = 1, .trap = 9, .moved_key = 17,
	.other_size = 8)
PH_CASE(lookup_steady_move_to_bigger_table,
	.size = 8, .keys = { 1, 9 }, .want = 1, .trap = 9, .moved_key = 17,
	.other_size = 16)
PH_CASE(walk_steady_move_to_same_size_table,
	.size = 8, .keys = { 1, 9 }, .want = 1, .trap = 9, .moved_key = 17,
	.other_size = 8, .walk = true)
/*
 * A walk carried back: to the head of its own bucket (9 goes in front of
 * 17 again as 25), or into a bucket it walked (10 goes to bucket 1 as 17).
 */
PH_CASE(walk_steady_move_to_same_bucket,
	.size = 8, .keys = { 1, 9, 17 }, .want = 1, .trap = 9, .moved_key = 25,
	.walk = true)
PH_CASE(walk_steady_move_to_walked_bucket,
	.size = 8, .keys = { 1, 9, 2, 10 }, .want = 1, .trap = 10,
	.moved_key = 17, .walk = true)

/* Doubling, new array published, old readers may remain. */
PH_CASE(lookup_grow_published_move_to_sibling,
	.size = 4, .keys = PH_GROW_CHAIN, .resize = PH_GROW,
	.point = RHT_TP_PUBLISHED, .arg = -1,
	.want = 1, .trap = 9, .moved_key = 21)
/* Doubling, after the first unzip pass: the paths share a marker. */
PH_CASE(lookup_grow_unzipping_move_to_sibling,
	.size = 4, .keys = PH_GROW_CHAIN, .resize = PH_GROW,
	.point = RHT_TP_UNZIP_PASS, .arg = 1,
	.want = 1, .trap = 9, .moved_key = 21)
PH_CASE(lookup_grow_unzipping_move_to_same_bucket,
	.size = 4, .keys = PH_GROW_CHAIN, .resize = PH_GROW,
	.point = RHT_TP_UNZIP_PASS, .arg = 1,
	.want = 1, .trap = 9, .moved_key = 25)
PH_CASE(lookup_grow_unzipping_move_to_same_size_table,
	.size = 4, .keys = PH_GROW_CHAIN, .resize = PH_GROW,
	.point = RHT_TP_UNZIP_PASS, .arg = 1,
	.want = 1, .trap = 9, .moved_key = 17, .other_size = 8)
PH_CASE(lookup_grow_unzipping_move_to_smaller_table,
	.size = 4, .keys = PH_GROW_CHAIN, .resize = PH_GROW,
	.point = RHT_TP_UNZIP_PASS, .arg = 1,
	.want = 1, .trap = 9, .moved_key = 17, .other_size = 4)
PH_CASE(walk_grow_unzipping_move_to_sibling,
	.size = 4, .keys = PH_GROW_CHAIN, .resize = PH_GROW,
	.point = RHT_TP_UNZIP_PASS, .arg = 1,
	.want = 1, .trap = 9, .moved_key = 21, .walk = true)
PH_CASE(walk_grow_unzipping_move_to_same_bucket,
	.size = 4, .keys = PH_GROW_CHAIN, .resize = PH_GROW,
	.point = RHT_TP_UNZIP_PASS, .arg = 1,
	.want = 1, .trap = 1, .moved_key = 25, .walk = true)

/* Halving, while pairs are zipped and the old array is still current. */
PH_CASE(lookup_shrink_zipping_move_to_other_half,
	.size = 8, .keys = PH_SHRINK_CHAIN, .resize = PH_SHRINK,
	.point = RHT_TP_ZIPPED_PAIR, .arg = 1,
	.want = 1, .trap = 9, .moved_key = 13)
PH_CASE(walk_shrink_zipping_move_to_other_half,
	.size = 8, .keys = PH_SHRINK_CHAIN, .resize = PH_SHRINK,
	.point = RHT_TP_ZIPPED_PAIR, .arg = 1,
	.want = 1, .trap = 9, .moved_key = 13, .walk = true)
/* Halving, the zipped array published: 13 goes mid-chain. */
PH_CASE(lookup_shrink_published_move_to_other_half,
	.size = 8, .keys = PH_SHRINK_CHAIN, .resize = PH_SHRINK,
	.point = RHT_TP_PUBLISHED, .arg = -1,
	.want = 1, .trap = 9, .moved_key = 13)
PH_CASE(lookup_shrink_published_move_to_same_size_table,
	.size = 8, .keys = PH_SHRINK_CHAIN, .resize = PH_SHRINK,
	.point = RHT_TP_PUBLISHED, .arg = -1,
	.want = 1, .trap = 9, .moved_key = 13, .other_size = 4)
PH_CASE(walk_shrink_published_move_to_other_half,
	.size = 8, .keys = PH_SHRINK_CHAIN, .resize = PH_SHRINK,
	.point = RHT_TP_PUBLISHED, .arg = -1,
	.want = 1, .trap = 9, .moved_key = 13, .walk = true)

/* Rehash, half done: some objects moved to the new array already. */
PH_CASE(lookup_rehash_moving_move_to_other_bucket,
	.size = 8, .keys = { 1, 9, 17 }, .resize = PH_REHASH,
	.point = RHT_TP_MOVED_BUCKET, .arg = 0,
	.want = 1, .trap = 17, .moved_key = 2)
PH_CASE(lookup_rehash_moving_move_to_same_size_table,
	.size = 8, .keys = { 1, 9, 17 }, .resize = PH_REHASH,
	.point = RHT_TP_MOVED_BUCKET, .arg = 0,
	.want = 1, .trap = 17, .moved_key = 25, .other_size = 8)
/* A nested array (one of page-sized leaves), and its rehash to a flat one. */
PH_CASE(lookup_nested_move_to_same_size_table,
	.size = 1024, .nested = true, .keys = { 1, 1025 },
	.want = 1, .trap = 1025, .moved_key = 2049, .other_size = 1024)
PH_CASE(walk_nested_move_to_other_bucket,
	.size = 1024, .nested = true, .keys = { 1, 1025 },
	.want = 1, .trap = 1025, .moved_key = 2, .walk = true)
PH_CASE(lookup_nested_rehash_moving_move_to_same_size_table,
	.size = 1024, .nested = true, .keys = { 1, 1025, 2049 },
	.resize = PH_REHASH, .point = RHT_TP_MOVED_BUCKET, .arg = 0,
	.want = 1, .trap = 2049, .moved_key = 3073, .other_size = 1024)

/* A walk reaching the end of the old array must go on into the new. */
PH_CASE(walk_rehash_moving_ends,
	.size = 8, .keys = { 2, 1, 9, 17, 4 }, .resize = PH_REHASH,
	.point = RHT_TP_MOVED_BUCKET, .arg = 1,
	.want = 1, .trap = 17, .moved_key = 25, .walk = true)

/*
 * The worker's steps after the publication wait for grace periods:
 *
 * - a reader of one side of a pair may stand on an object that the next
 *   unzip pass cuts off that side's path; only a grace period between two
 *   passes lets it leave first;
 * - a reader that began on the old array before the new one was
 *   published may walk an old chain with rht_for_each_rcu() and expects
 *   all of it: the first pass waits for it;
 * - a halving leaves its zip rules only once the old array's readers are
 *   gone, and opens the fast path only once the updaters that still
 *   followed the zip rules are gone (a re-zip of theirs could otherwise
 *   drop an object inserted on the fast path).
 *
 * At each step, check that a grace period has ended since the step before.
 */
static void ph_gp_step(struct rhashtable *ht, enum rht_test_point point,
		       unsigned int arg)
{
	struct ph_ctx *ctx = READ_ONCE(ph_cur);

	if (!ctx || ht != &ctx->ht)
		return;
	switch (point) {
	case RHT_TP_PUBLISHED:
		break;
	case RHT_TP_UNZIP_PASS:
	case RHT_TP_SETTLED:
		ctx->passes++;
		ctx->settled = point == RHT_TP_SETTLED;
		KUNIT_EXPECT_TRUE_MSG(ctx->test,
				      poll_state_synchronize_rcu(ctx->gp_cookie),
				      "no grace period before step %u",
				      ctx->passes);
		break;
	case RHT_TP_RETIRE:
		/* After the last unzip pass a doubling is done at once. */
		if (ctx->settled)
			KUNIT_EXPECT_TRUE_MSG(ctx->test,
					      poll_state_synchronize_rcu(ctx->gp_cookie),
					      "a halving released before a grace period");
		return;
	default:
		return;
	}
	ctx->gp_cookie = get_state_synchronize_rcu();
}

static const struct rht_test_hooks ph_gp_hooks = {
	.step = ph_gp_step,
};

/*
 * Let the worker resize to @size on its own, which waits with call_rcu().
 * (An explicit resize waits with cond_synchronize_rcu(), which Tiny RCU
 * rightly skips: on one CPU a sleepable caller is a quiescent state, and
 * the grace-period counter then does not show the wait.)
 */
static void ph_worker_resize(struct ph_ctx *ctx, unsigned int size)
{
	unsigned int ms;

	rht_test_set_hooks(&ph_gp_hooks);
	if (size > ph_size(&ctx->ht))
		WRITE_ONCE(ctx->grow_to, size);
	else
		WRITE_ONCE(ctx->shrink_to, size);
	rhashtable_kick(&ctx->ht, 0);
	for (ms = 0; ms < 10000; ms++) {	/* 10 s at least */
		bool idle;

		/* The worker's mutex orders its work before what we read. */
		mutex_lock(&ctx->ht.mutex);
		idle = !rht_test_resize_step(&ctx->ht);
		mutex_unlock(&ctx->ht.mutex);
		if (idle && ph_size(&ctx->ht) == size)
			break;
		usleep_range(1000, 2000);
	}
	KUNIT_EXPECT_EQ(ctx->test, ph_size(&ctx->ht), size);
}

static void unzip_passes_are_grace_periods_apart(struct kunit *test)
{
	/*
	 * [9 5 1 13 17]: the paths meet four times, one cut per pass; the
	 * pass of the last cut also ends the tail on its own marker.
	 */
	static const struct ph_case c = {
		.size = 4, .keys = { 17, 13, 1, 5, 9 },
	};
	struct ph_ctx *ctx = ph_setup(test, &c);

	ph_worker_resize(ctx, 8);
	KUNIT_EXPECT_EQ(test, ctx->passes, 4);
	ph_verify(ctx);
}

static void zip_steps_are_grace_periods_apart(struct kunit *test)
{
	static const struct ph_case c = {
		.size = 8, .keys = { 1, 5, 9, 2, 6 },
	};
	struct ph_ctx *ctx = ph_setup(test, &c);

	ph_worker_resize(ctx, 4);
	KUNIT_EXPECT_EQ(test, ctx->passes, 1);
	KUNIT_EXPECT_TRUE(test, ctx->settled);
	ph_verify(ctx);
}

/*
 * A reader that stops mid-chain, as rht_for_each_rcu() users may, across
 * a step of the worker.  Only legal for a reader that began after the
 * worker took the grace-period cookie of the step it spans, so that the
 * worker need not wait for it; the case drops the RCU read lock in
 * between only because the worker runs in this very thread, and frees
 * nothing meanwhile.
 *
 * Doubling 4 -> 8 of [9 5 1 13]: the reader enters new bucket 1 through
 * 9 and reads 9's next (5); then 9 is removed before the unzipping began,
 * which moves bucket 1's head past 5, to 1.  The first unzip pass then
 * cuts 5 -> 1 (5 is now only on bucket 5's path): the reader goes on to
 * 13 and ends on the old bucket's marker, which fits.  It must not end
 * on its own marker as if it had seen the whole chain.
 */
struct ph_parked {
	struct rht_cursor c;
	struct rhash_head *pos;
	bool found, vouched;
	int state;		/* where the worker and the reader stand */
};

static void ph_parked_step(struct ph_ctx *ctx, struct ph_parked *r)
{
	struct ph_obj *want = ph_find(ctx, 1);

	while (rht_cursor_step(&r->c, &r->pos, NULL))
		r->found |= r->pos == &want->node;
	r->vouched = r->pos == RHT_NULLS_MARKER(rht_bucket(r->c.ctbl, 1));
}

static struct ph_parked ph_parked;

static void ph_parked_hook(struct rhashtable *ht, enum rht_test_point point,
			   unsigned int arg)
{
	struct ph_ctx *ctx = READ_ONCE(ph_cur);
	struct ph_parked *r = &ph_parked;
	struct bucket_table *tbl;

	if (!ctx || ht != &ctx->ht || ctx->checked)
		return;
	rcu_read_lock();
	if (point == RHT_TP_PUBLISHED) {
		tbl = rht_dereference_rcu(ht->tbl, ht);
		r->c = rht_cursor_bucket(tbl, 1, true, 0);
		/* Stand on 9, its next already read. */
		KUNIT_EXPECT_TRUE(ctx->test, rht_cursor_step(&r->c, &r->pos,
							     NULL));
		KUNIT_EXPECT_PTR_EQ(ctx->test, r->pos, &ph_find(ctx, 9)->node);
		KUNIT_EXPECT_EQ(ctx->test, rhashtable_remove_fast(ht, r->pos,
								  ph_params),
				0);
		ph_find(ctx, 9)->in = NULL;
	} else if (point == RHT_TP_UNZIP_PASS) {
		ph_parked_step(ctx, r);
		ctx->checked = true;
	}
	rcu_read_unlock();
}

static const struct rht_test_hooks ph_parked_hooks = {
	.step = ph_parked_hook,
};

static void rcu_walk_parked_across_first_unzip_pass(struct kunit *test)
{
	static const struct ph_case c = {
		.size = 4, .keys = { 13, 1, 5, 9 },
	};
	struct ph_ctx *ctx = ph_setup(test, &c);
	struct ph_parked *r = &ph_parked;

	memset(r, 0, sizeof(*r));
	rht_test_set_hooks(&ph_parked_hooks);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(&ctx->ht), 0);
	KUNIT_EXPECT_TRUE(test, ctx->checked);
	KUNIT_EXPECT_TRUE_MSG(test, r->found || !r->vouched,
			      "the walk vouched for a chain it skipped key 1 of");
	ph_verify(ctx);
}

/*
 * A reader carried to the other half of a pair before a halving began,
 * then zipped past: T has 8 buckets, [17 9 1] in bucket 1 and [5] in
 * bucket 5.  The reader of bucket 1 stands on 17 when 9 moves to key 13,
 * at the head of bucket 5 (no resize runs: the fast path, no bump); the
 * reader follows 9 there and stops, its next (5) read.  Then the halving
 * zips pair 1: bucket 5's chain now ends on the marker of U's bucket 1,
 * which fits T's bucket 1.  The reader goes on through 5 to that marker:
 * without the zip's bump of the pair's stripe it would vouch for bucket 1
 * having seen only 17, 9 and 5, and miss 1.  (Found by the model,
 * lab/model, NO_ZIP_BUMP.)
 */
static void ph_zip_carried_hook(struct rhashtable *ht,
				enum rht_test_point point, unsigned int arg)
{
	struct ph_ctx *ctx = READ_ONCE(ph_cur);
	struct ph_parked *r = &ph_parked;

	if (!ctx || ht != &ctx->ht || point != RHT_TP_ZIPPED_PAIR ||
	    arg != 1 || ctx->checked)
		return;
	rcu_read_lock();
	ph_parked_step(ctx, r);
	rcu_read_unlock();
	ctx->checked = true;
}

static const struct rht_test_hooks ph_zip_carried_hooks = {
	.step = ph_zip_carried_hook,
};

static void rcu_walk_carried_then_zipped(struct kunit *test)
{
	static const struct ph_case c = {
		.size = 8, .keys = { 5, 1, 9, 17 },
	};
	struct ph_ctx *ctx = ph_setup(test, &c);
	struct ph_parked *r = &ph_parked;
	struct ph_obj *nine = ph_find(ctx, 9);
	struct bucket_table *tbl;
	bool on17, on9;

	memset(r, 0, sizeof(*r));
	rht_test_set_hooks(NULL);
	/*
	 * The RCU read lock is dropped while the reader is parked only
	 * because nothing is freed until the case ends (see above).
	 */
	rcu_read_lock();
	tbl = rht_dereference_rcu(ctx->ht.tbl, &ctx->ht);
	r->c = rht_cursor_bucket(tbl, 1, true, 0);
	on17 = rht_cursor_step(&r->c, &r->pos, NULL) &&
	       r->pos == &ph_find(ctx, 17)->node;
	KUNIT_EXPECT_EQ(test, rhashtable_remove_fast(&ctx->ht, &nine->node,
						     ph_params), 0);
	nine->key = 13;
	KUNIT_EXPECT_EQ(test, rhashtable_lookup_insert_fast(&ctx->ht,
							    &nine->node,
							    ph_params), 0);
	on9 = rht_cursor_step(&r->c, &r->pos, NULL) && r->pos == &nine->node;
	rcu_read_unlock();
	KUNIT_ASSERT_TRUE(test, on17);
	KUNIT_ASSERT_TRUE(test, on9);

	rht_test_set_hooks(&ph_zip_carried_hooks);
	KUNIT_EXPECT_EQ(test, rhashtable_shrink(&ctx->ht), 0);
	KUNIT_EXPECT_TRUE(test, ctx->checked);
	KUNIT_EXPECT_TRUE_MSG(test, r->found || !r->vouched,
			      "the walk vouched for a chain it skipped key 1 of");
	ph_verify(ctx);
}

/*
 * The grace period between two unzip passes, seen by a reader: doubling
 * 4 -> 8 of [9 5 1 13 17].  After the first pass, a reader of new bucket 5
 * stands on 5 (its next, 1, read) and stops there, inside its read-side
 * critical section.  The third pass would cut 1 -> 13 off bucket 1's path,
 * which this reader still needs: a worker that waits for grace periods
 * cannot get there before the reader leaves.  The worker runs on its own
 * (call_rcu()), so this case needs a second CPU to catch a worker that
 * does not wait; on one it passes either way.
 */
enum { PH_P_NONE, PH_P_PASS1, PH_P_PARKED, PH_P_PASS3, PH_P_DONE };

/* In the worker: wait (10 s at most) for the reader to be in @state. */
static void ph_between_wait(int state)
{
	unsigned int ms;

	for (ms = 0; ms < 10000; ms++) {
		/* Pairs with the reader's release of @state. */
		if (smp_load_acquire(&ph_parked.state) == state)
			return;
		usleep_range(1000, 2000);
	}
}

static void ph_between_hook(struct rhashtable *ht, enum rht_test_point point,
			    unsigned int arg)
{
	struct ph_ctx *ctx = READ_ONCE(ph_cur);

	if (!ctx || ht != &ctx->ht || point != RHT_TP_UNZIP_PASS)
		return;
	switch (++ctx->passes) {
	case 1:
		/* Let the reader park before this pass's grace period. */
		smp_store_release(&ph_parked.state, PH_P_PASS1);
		ph_between_wait(PH_P_PARKED);
		break;
	case 3:
		/* Only a worker that did not wait gets here this early. */
		if (cmpxchg(&ph_parked.state, PH_P_PARKED, PH_P_PASS3) ==
		    PH_P_PARKED)
			ph_between_wait(PH_P_DONE);
		break;
	}
}

static const struct rht_test_hooks ph_between_hooks = {
	.step = ph_between_hook,
};

static void rcu_walk_parked_between_unzip_passes(struct kunit *test)
{
	static const struct ph_case c = {
		.size = 4, .keys = { 17, 13, 1, 5, 9 },
	};
	struct ph_ctx *ctx = ph_setup(test, &c);
	struct ph_parked *r = &ph_parked;
	struct rhash_head *want = &ph_find(ctx, 13)->node;
	struct bucket_table *tbl;
	unsigned int ms, us;
	bool parked;

	memset(r, 0, sizeof(*r));
	rht_test_set_hooks(&ph_between_hooks);
	WRITE_ONCE(ctx->grow_to, 8);
	rhashtable_kick(&ctx->ht, 0);
	for (ms = 0; ms < 10000; ms++) {	/* 10 s at least */
		/* Pairs with the worker's release of PASS1. */
		if (smp_load_acquire(&r->state) == PH_P_PASS1)
			break;
		usleep_range(1000, 2000);
	}
	KUNIT_ASSERT_EQ(test, READ_ONCE(r->state), PH_P_PASS1);

	rcu_read_lock();
	tbl = rht_dereference_rcu(ctx->ht.tbl, &ctx->ht);
	r->c = rht_cursor_bucket(tbl, 5, true, 0);
	parked = rht_cursor_step(&r->c, &r->pos, NULL) &&
		 r->pos == &ph_find(ctx, 5)->node;
	if (cmpxchg(&r->state, PH_P_PASS1, PH_P_PARKED) != PH_P_PASS1)
		parked = false;
	/* Give a worker that does not wait the time to cut 1 -> 13. */
	for (us = 0; us < 200000; us++) {
		/* Pairs with the cmpxchg() of a worker past its pass 3. */
		if (smp_load_acquire(&r->state) == PH_P_PASS3)
			break;
		udelay(1);
	}
	while (rht_cursor_step(&r->c, &r->pos, NULL))
		r->found |= r->pos == want;
	r->vouched = r->pos == RHT_NULLS_MARKER(rht_bucket(tbl, 5));
	rcu_read_unlock();
	smp_store_release(&r->state, PH_P_DONE);	/* the walk is over */

	KUNIT_EXPECT_TRUE(test, parked);
	KUNIT_EXPECT_TRUE_MSG(test, r->found || !r->vouched,
			      "the walk vouched for a chain it skipped key 13 of");
	for (ms = 0; ms < 10000; ms++) {	/* 10 s at least */
		bool idle;

		mutex_lock(&ctx->ht.mutex);
		idle = !rht_test_resize_step(&ctx->ht);
		mutex_unlock(&ctx->ht.mutex);
		if (idle && ph_size(&ctx->ht) == 8)
			break;
		usleep_range(1000, 2000);
	}
	KUNIT_EXPECT_EQ(test, ph_size(&ctx->ht), 8);
	ph_verify(ctx);
}

/*
 * Inserts made while a doubling waits for its first grace period go into
 * the old chains, where readers of the old array look.  Put at a chain's
 * head they interleave the two sides of the pair, and every new run costs
 * the unzip one more pass, a grace period each: a table filling from
 * empty once kept a 128-bucket doubling unzipping chains of thousands for
 * minutes.  An insert must join a run of its own side, so that the passes
 * depend only on the chain the doubling started from.
 *
 * Doubling 4 -> 8 of [5 1] (two passes), with 64 keys of bucket 1 and
 * bucket 5 inserted in turn before the first pass.
 */
#define PH_BURST	64

static struct ph_obj *ph_burst;

static void ph_burst_hook(struct rhashtable *ht, enum rht_test_point point,
			  unsigned int arg)
{
	struct ph_ctx *ctx = READ_ONCE(ph_cur);
	unsigned int i;

	if (!ctx || ht != &ctx->ht || point != RHT_TP_PUBLISHED ||
	    ctx->checked)
		return;
	ctx->checked = true;
	for (i = 0; i < PH_BURST; i++) {
		ph_burst[i].key = 9 + 4 * i;
		ph_burst[i].in = ht;
		KUNIT_EXPECT_EQ(ctx->test,
				rhashtable_lookup_insert_fast(ht,
							      &ph_burst[i].node,
							      ph_params), 0);
	}
}

static const struct rht_test_hooks ph_burst_hooks = {
	.step = ph_burst_hook,
};

static void inserts_before_unzip_add_no_passes(struct kunit *test)
{
	static const struct ph_case c = { .size = 4, .keys = { 1, 5 } };
	struct rhashtable_stats before, after;
	struct ph_ctx *ctx;
	unsigned int i;

	ph_burst = kunit_kcalloc(test, PH_BURST, sizeof(*ph_burst),
				 GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ph_burst);
	ctx = ph_setup(test, &c);
	rht_test_set_hooks(&ph_burst_hooks);
	rhashtable_get_stats(&ctx->ht, &before);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(&ctx->ht), 0);
	rhashtable_get_stats(&ctx->ht, &after);
	rht_test_set_hooks(NULL);
	KUNIT_EXPECT_TRUE(test, ctx->checked);
	KUNIT_EXPECT_EQ(test, after.grows - before.grows, 1);
	KUNIT_EXPECT_LE_MSG(test, after.unzip_passes - before.unzip_passes, 2,
			    "the inserts added runs to unzip");
	for (i = 0; i < PH_BURST; i++)
		KUNIT_EXPECT_PTR_EQ(test,
				    rhashtable_lookup_fast(&ctx->ht,
							   &ph_burst[i].key,
							   ph_params),
				    &ph_burst[i]);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->ht.nelems), PH_BURST + 2);
	KUNIT_EXPECT_EQ(test, rht_test_validate(&ctx->ht), 0);
}

/* Nested arrays have a size limit: beyond it, a grow must fail. */
static void failed_doubling_keeps_the_array(struct kunit *test)
{
	/* The biggest nested array: a top level of half a page of leaves. */
	unsigned int leaf = PAGE_SHIFT - ilog2(sizeof(void *));
	unsigned int cap = 1U << (2 * leaf - 1), size;
	static const struct ph_case c = { .size = 4, .keys = { 1, 2, 3 } };
	struct ph_ctx *ctx = ph_setup(test, &c);

	while ((size = ph_size(&ctx->ht)) < 2 * cap)
		KUNIT_ASSERT_EQ(test, rhashtable_expand(&ctx->ht), 0);

	rht_test_set_hooks(&ph_fail_flat_hooks);
	KUNIT_EXPECT_EQ(test, rhashtable_expand(&ctx->ht), -ENOMEM);
	rht_test_set_hooks(NULL);
	KUNIT_EXPECT_EQ(test, ph_size(&ctx->ht), size);
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, rht_dereference_rcu(ctx->ht.tbl, &ctx->ht)->nest,
			0);
	rcu_read_unlock();
	ph_verify(ctx);
}

/* The structural check must see a broken chain: it guards every case. */
static void validate_catches_broken_chains(struct kunit *test)
{
	static const struct ph_case c = { .size = 8, .keys = { 1, 9, 2 } };
	struct ph_ctx *ctx = ph_setup(test, &c);
	struct rhash_head *one = &ph_find(ctx, 1)->node;
	struct rhash_head *nine = &ph_find(ctx, 9)->node;
	struct rhash_head *two = &ph_find(ctx, 2)->node;
	struct rhash_head *end;

	KUNIT_ASSERT_EQ(test, rht_test_validate(&ctx->ht), 0);
	end = rcu_access_pointer(one->next);	/* compared and put back */
	KUNIT_ASSERT_TRUE(test, rht_is_a_nulls(end));

	rcu_assign_pointer(one->next, two);	/* another bucket's object */
	KUNIT_EXPECT_GT(test, rht_test_validate(&ctx->ht), 0);
	rcu_assign_pointer(one->next, nine);	/* a cycle */
	KUNIT_EXPECT_GT(test, rht_test_validate(&ctx->ht), 0);
	rcu_assign_pointer(one->next, RHT_NULLS_MARKER(&ctx->ht));
	KUNIT_EXPECT_GT(test, rht_test_validate(&ctx->ht), 0);
	rcu_assign_pointer(one->next, end);
	KUNIT_EXPECT_EQ(test, rht_test_validate(&ctx->ht), 0);
	atomic_inc(&ctx->ht.nelems);		/* a count that is off */
	KUNIT_EXPECT_GT(test, rht_test_validate(&ctx->ht), 0);
	atomic_dec(&ctx->ht.nelems);
	ph_verify(ctx);
}

static struct kunit_case ph_cases[] = {
	KUNIT_CASE(lookup_steady_move_to_other_bucket),
	KUNIT_CASE(lookup_steady_move_to_same_size_table),
	KUNIT_CASE(lookup_steady_move_to_bigger_table),
	KUNIT_CASE(walk_steady_move_to_same_size_table),
	KUNIT_CASE(walk_steady_move_to_same_bucket),
	KUNIT_CASE(walk_steady_move_to_walked_bucket),
	KUNIT_CASE(lookup_grow_published_move_to_sibling),
	KUNIT_CASE(lookup_grow_unzipping_move_to_sibling),
	KUNIT_CASE(lookup_grow_unzipping_move_to_same_bucket),
	KUNIT_CASE(lookup_grow_unzipping_move_to_same_size_table),
	KUNIT_CASE(lookup_grow_unzipping_move_to_smaller_table),
	KUNIT_CASE(walk_grow_unzipping_move_to_sibling),
	KUNIT_CASE(walk_grow_unzipping_move_to_same_bucket),
	KUNIT_CASE(lookup_shrink_zipping_move_to_other_half),
	KUNIT_CASE(walk_shrink_zipping_move_to_other_half),
	KUNIT_CASE(lookup_shrink_published_move_to_other_half),
	KUNIT_CASE(lookup_shrink_published_move_to_same_size_table),
	KUNIT_CASE(walk_shrink_published_move_to_other_half),
	KUNIT_CASE(lookup_rehash_moving_move_to_other_bucket),
	KUNIT_CASE(lookup_rehash_moving_move_to_same_size_table),
	KUNIT_CASE(walk_rehash_moving_ends),
	KUNIT_CASE(lookup_nested_move_to_same_size_table),
	KUNIT_CASE(walk_nested_move_to_other_bucket),
	KUNIT_CASE(lookup_nested_rehash_moving_move_to_same_size_table),
	KUNIT_CASE(unzip_passes_are_grace_periods_apart),
	KUNIT_CASE(zip_steps_are_grace_periods_apart),
	KUNIT_CASE(rcu_walk_parked_across_first_unzip_pass),
	KUNIT_CASE(rcu_walk_parked_between_unzip_passes),
	KUNIT_CASE(rcu_walk_carried_then_zipped),
	KUNIT_CASE(inserts_before_unzip_add_no_passes),
	KUNIT_CASE(failed_doubling_keeps_the_array),
	KUNIT_CASE(validate_catches_broken_chains),
	{}
};

static struct kunit_suite ph_suite = {
	.name = "rhashtable-phases",
	.test_cases = ph_cases,
};

kunit_test_suites(&ph_suite);

MODULE_DESCRIPTION("KUnit tests that stop rhashtable resizes step by step");
MODULE_LICENSE("GPL");
