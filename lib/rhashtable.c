// SPDX-License-Identifier: GPL-2.0
/*
 * Resizable, RCU-protected hash tables.
 *
 * The structure
 * -------------
 * A table is a power-of-two array of buckets.  A bucket word holds the first
 * object of a singly linked chain; bit 0 of the word is the bucket's lock.
 * Chains end in nulls markers that name their bucket (see rhashtable.h).
 * Objects embed one struct rhash_head: a resize relinks those pointers and
 * never copies or allocates per object.
 *
 * Readers walk a chain under rcu_read_lock() and take no lock.  If the walk
 * ends on a marker that does not fit its bucket, it was carried off its
 * chain and starts again.  A miss continues in @future_tbl, where entries go
 * when they are moved to a rebuilt array.
 *
 * What a reader may believe
 * -------------------------
 * A reader stands on an object and reads its next pointer.  Meanwhile the
 * object may be removed (its next pointer stays: the reader goes on along
 * its old chain) and inserted again, anywhere (its next pointer changes:
 * the reader is carried to wherever the object went).  Outside a resize an
 * insert puts the object at the head of a chain, and a reader carried
 * there walks that whole chain to its end: if the chain is its own it
 * misses nothing, and if it is another bucket's, of this or any other
 * table, its marker (the bucket's address) tells the reader so.
 *
 * A resize breaks both halves of that argument: the head of a bucket can
 * be the middle of another chain (zipping), and two buckets share a tail
 * and its marker (unzipping, zipping).  So every update that links an
 * object where that matters first bumps a counter, the bucket's "stripe"
 * (rht_seq_bump()): all inserts while a resize runs, a replacement, an
 * rhltable object taking its key's place in a chain, and the zipping of a
 * pair.  A reader reads its stripe before it walks and believes a miss
 * only if the stripe is unchanged at the end (rht_seq_begin(),
 * rht_seq_retry()); a hit needs no check.  The two buckets of a pair share
 * a stripe, in both arrays.
 *
 * A walk (rhashtable_walk_next()) returns each object it passes, so for it
 * being carried back is not harmless: carried to the head of its own
 * bucket, or into a bucket it has walked, it would return objects twice.
 * So while a walk is under way every removal bumps the stripe of the
 * object's bucket once the object has left its chain (rht_unlinked()), a
 * rehash bumps it before each object it moves and keeps the old array in
 * the updaters' domain until the walks in it are gone, and a walk checks
 * its stripe before it returns each object: a walk that followed a link
 * written after such a bump sees the bump and starts the bucket again.
 * Objects inserted again are linked with release stores, since readers
 * from their earlier life follow those links at once.
 *
 * Resizing
 * --------
 * A worker resizes the table; inserts only ask for it.  Three kinds exist:
 *
 * Doubling (T -> U, |U| = 2|T|, same seed).  Bucket x of T holds the objects
 * of U's buckets x ("a") and x + |T| ("b"), interleaved.  The worker points
 * U[a] at the first a-object of the chain and U[b] at the first b-object, so
 * each of U's buckets starts a path through the old chain that visits all of
 * its objects and some of the sibling's.  U is published, and once readers
 * of T are gone (one grace period) the chains are unzipped: where the two
 * paths meet, the side whose bucket differs from the meeting object's gets
 * its last own link redirected past the other side's run:
 *
 *   U[a] -> a1 -> b1 -> b2 -> a2 -> M          U[a] -> a1 --------> a2 -> M
 *   U[b] -------> b1 -> b2 -> a2 -> M   ==>   U[b] -------> b1 -> b2 -> a2 -> M
 *
 * A reader of a standing on b1 or b2 still reaches a2; no reader of b ever
 * stood on a1.  One such cut is made per bucket pair per pass and a grace
 * period separates passes, so that no reader of one side is still on a link
 * the next pass cuts for the other.  When the paths no longer share objects
 * their ends get their own markers and the pair is done; the pass that makes
 * the last cut also ends the remaining tail on its own marker.  Until then
 * both end in T's marker, which fits either bucket; a reader ending there
 * also checks its stripe (an update may have carried it across).
 *
 * Halving (T -> U, |U| = |T|/2, same seed): U[x] is the concatenation of T's
 * chains x and x + |U| ("zipping"): the second chain's end gets U's marker,
 * the first chain's last object points at the second chain, U[x] at the
 * first.  Readers of T's x simply see more objects.  U is published and T is
 * retired once its readers are gone.
 *
 * Rehashing (new seed, or a flat array replacing a nested one, or any other
 * size): objects are moved one by one to U under both buckets' locks; a
 * reader standing on a moved object ends on U's marker, which never fits a
 * bucket of T in a rehash, and retries.
 *
 * Updaters during a resize
 * ------------------------
 * While T and U both live, an updater takes T's bucket lock and then U's.
 * T's lock covers everything a doubling touches for its pair; for a halving
 * U's lock covers both of T's buckets.  The worker takes the locks of the
 * smaller array (for halving: both of T's buckets), which every updater of
 * the pair holds.  How an update is done depends on U->phase, read under the
 * locks:
 *
 *  GROW_PREP    readers may be in T: change T's chain, then recompute U's
 *               two heads from it (rht_unzip_link()); insert after the
 *               first object of the new one's side, so that no new run
 *               costs the unzip another pass.
 *  GROW_UNZIP   T has no readers: insert at U's head; remove from both
 *               paths of the pair.
 *  SHRINK_PREP  change T's chain, then re-zip the pair (rht_zip_pair()).
 *  REHASH       insert into U; remove from T or U.
 *  NONE         U is the table.
 *
 * A phase never goes back, and no update of an earlier phase runs after
 * one of a later phase on the same pair: either the locks order them, or
 * a grace period separates the change of phase from the release of the
 * fast path (see rht_advance()).
 */

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/prefetch.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/rhashtable.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#define CREATE_TRACE_POINTS
#include <trace/events/rhashtable.h>

#include <kunit/visibility.h>
#include "rhashtable_test.h"

/* Buckets of a table made without a hint: 6.12's default, one page. */
#define RHT_DEFAULT_SIZE	64U
/* Fewest buckets, as in 6.12. */
#define RHT_MIN_SIZE		4U
/* Most buckets: indices and counts stay in 31 bits. */
#define RHT_MAX_SHIFT		30
/* Index bits resolved by one page-sized leaf of a nested array. */
#define RHT_LEAF_SHIFT		(PAGE_SHIFT - ilog2(sizeof(void *)))
/*
 * Reseeding after long chains: at most every RHT_RESEED_MIN, and the gap
 * doubles up to RHT_RESEED_MAX while long chains keep coming back (a hash
 * no seed fixes, or an attacker), so that a rehash of a big table cannot
 * be had more than about twice a minute.
 */
#define RHT_RESEED_MIN		(HZ / 8)
#define RHT_RESEED_MAX		(32 * HZ)
/*
 * Retrying a failed allocation: after 20 ms, doubling up to 8 s, which is
 * soon enough for memory that comes back and rare enough not to add to
 * the pressure.
 */
#define RHT_BACKOFF_MIN		(HZ / 50 + 1)
#define RHT_BACKOFF_MAX		(8 * HZ)

/* bucket_table->flags */
enum {
	RHT_TBL_LONG_CHAIN,	/* an insert saw a chain over RHT_ELASTICITY */
	RHT_TBL_DYING,		/* destruction has begun: the worker stays idle */
};

/* bucket_table->phase, on the newer array of a resize */
enum rht_phase {
	RHT_PH_NONE,
	RHT_PH_GROW_PREP,
	RHT_PH_GROW_UNZIP,
	RHT_PH_SHRINK_PREP,
	RHT_PH_REHASH,
};

/* rht_resizer->step: what the worker does once the awaited grace period ended */
enum rht_step {
	RHT_STEP_IDLE,
	RHT_STEP_UNZIP,		/* T's readers gone or last pass seen: unzip */
	RHT_STEP_SETTLE,	/* halving: T's readers gone: leave PREP */
	RHT_STEP_RELEASE,	/* halving: PREP updaters gone: fast path */
	RHT_STEP_REHASHED,	/* rehash: T's walks gone: leave T out */
};

enum rht_wait {
	RHT_WAIT_ASYNC,		/* come back from an RCU callback */
	RHT_WAIT_SYNC,		/* block in cond_synchronize_rcu() */
	RHT_WAIT_NONE,		/* no readers can exist: do not wait */
};

/*
 * What a table needs only once it resizes.  Tables are embedded by the
 * thousand (several per network namespace) and most never resize, so this
 * is not in struct rhashtable: the first resize allocates it, every array
 * points to it (bucket_table->rs), and destruction frees it, unless a
 * grace-period callback is still queued: then rht_gp_cb() frees it, and
 * destruction need not wait for it.
 *
 * @lock covers @ht and @gp_armed, which rht_gp_cb() reads; the rest is
 * under the table's mutex.
 */
struct rht_resizer {
	struct rhashtable	*ht;		/* NULL once the table is gone */
	spinlock_t		lock;
	bool			gp_armed;	/* @rcu is queued */
	unsigned int		step;		/* enum rht_step */
	struct bucket_table	*old;		/* being replaced, or NULL */
	struct bucket_table	*new;		/* its replacement */
	unsigned long		*todo;		/* pairs left to unzip, or NULL */
	unsigned long		gp;		/* the grace period awaited */
	unsigned long		backoff;	/* before retrying an allocation */
	unsigned long		reseed_at;	/* no new seed before this */
	unsigned long		reseed_gap;	/* minimum time between seeds */
	unsigned int		began_with;	/* objects at the last begin */
	unsigned int		grew_by;	/* arrived while it ran */
	struct rcu_head		rcu;		/* wakes the worker after @gp */
	struct timer_list	retry;		/* wakes it after @backoff */
	struct rhashtable_stats	stats;
};

#if IS_ENABLED(CONFIG_RHASHTABLE_KUNIT_TEST)
static const struct rht_test_hooks *rht_hooks;

/**
 * rht_test_set_hooks - let the tests fail allocations and follow resizes
 * @hooks: the hooks, or %NULL to remove them
 *
 * Only built with the KUnit suites (see lib/rhashtable_test.h).
 */
void rht_test_set_hooks(const struct rht_test_hooks *hooks)
{
	WRITE_ONCE(rht_hooks, hooks);
}
EXPORT_SYMBOL_IF_KUNIT(rht_test_set_hooks);

static bool rht_fail_alloc(const struct rhashtable *ht,
			   enum rht_alloc_site site)
{
	const struct rht_test_hooks *hooks = READ_ONCE(rht_hooks);

	return hooks && hooks->fail_alloc && hooks->fail_alloc(ht, site);
}

static void rht_test_point(struct rhashtable *ht, enum rht_test_point point,
			   unsigned int arg)
{
	const struct rht_test_hooks *hooks = READ_ONCE(rht_hooks);

	if (hooks && hooks->step)
		hooks->step(ht, point, arg);
}
#else
static bool rht_fail_alloc(const struct rhashtable *ht,
			   enum rht_alloc_site site)
{
	return false;
}

static void rht_test_point(struct rhashtable *ht, enum rht_test_point point,
			   unsigned int arg)
{
}
#endif

#ifdef CONFIG_MEM_ALLOC_PROFILING
#define rht_alloc_as(ht, call)	alloc_hooks_tag((ht)->alloc_tag, call)
#else
#define rht_alloc_as(ht, call)	((void)(ht), (call))
#endif

/*
 * Chain links under a bucket lock.  While a resize runs, the lock that
 * keeps a path still may belong to the other array (an unzip walks U's
 * paths under T's lock), so lockdep is asked whether a bucket lock of
 * @tbl or of an array linked to it is held: which bucket's, the comment
 * at each use says.  Like xa_entry_locked(), every chain pointer read by
 * an updater or the worker goes through rht_locked().
 */
#ifdef CONFIG_PROVE_LOCKING
static bool rht_lock_held(const struct bucket_table *tbl)
{
	const struct bucket_table *other;

	if (!debug_locks || lock_is_held(&tbl->dep_map))
		return true;
	other = rcu_dereference_raw(tbl->past_tbl);
	if (other && lock_is_held(&other->dep_map))
		return true;
	other = rcu_dereference_raw(tbl->future_tbl);
	return other && lock_is_held(&other->dep_map);
}
#else
#define rht_lock_held(tbl)	((void)(tbl), true)
#endif

#define rht_locked(p, tbl)	rcu_dereference_protected(p, rht_lock_held(tbl))
#define rht_assert_locked(tbl)	lockdep_assert(rht_lock_held(tbl))

/* The object after @he on a path of @tbl. */
static struct rhash_head *rht_next(const struct bucket_table *tbl,
				   const struct rhash_head *he)
{
	return rht_locked(he->next, tbl);
}

static unsigned int rht_index_of(struct rhashtable *ht,
				 const struct bucket_table *tbl,
				 const struct rhash_head *he)
{
	return rht_head_hashfn(ht, tbl, he, ht->p);
}

/* First object of bucket @idx, or its marker; a covering lock is held. */
static struct rhash_head *rht_first(struct bucket_table *tbl,
				    unsigned int idx)
{
	struct rhash_lock_head __rcu **slot = rht_bucket_var(tbl, idx);
	struct rhash_head *he = __rht_word_head(rht_locked(*slot, tbl));

	return he ? he : rht_nulls_of(tbl, idx);
}

/* The same, at teardown: nobody else uses the table, its mutex is held. */
static struct rhash_head *rht_first_idle(struct rhashtable *ht,
					 struct bucket_table *tbl,
					 unsigned int idx)
{
	struct rhash_lock_head *w = rht_dereference(*rht_bucket_var(tbl, idx),
						    ht);
	struct rhash_head *he = __rht_word_head(w);

	return he ? he : rht_nulls_of(tbl, idx);
}

/*
 * The worker's sweeps take the buckets in order, but each object is a
 * cache miss of its own, and the links of a chain cannot overlap them.
 * Touching the first object of a bucket some steps ahead lets the misses
 * of different chains overlap.  The word is read without a lock: a stale
 * one costs a useless prefetch, which never faults.
 */
#define RHT_PREFETCH_AHEAD	8

static void rht_prefetch_first(const struct bucket_table *tbl,
			       unsigned int idx)
{
	struct rhash_head *he;

	if (idx >= tbl->size || tbl->nest)
		return;
	he = __rht_word_head(rcu_access_pointer(tbl->buckets[idx]));
	if (he)
		prefetch(he);
}

/**
 * __rht_nulls_fits_shared - may a walk of a bucket end on a shared tail?
 * @m: the marker the walk ended on
 * @tbl: the array walked
 * @idx: the bucket walked
 *
 * While @tbl is the new array of a doubling, the two buckets of a pair
 * end on the marker of the old bucket they come from until they are
 * unzipped.  While @tbl is being halved, each of its chains runs on into
 * the new array's chain of its pair and ends on that bucket's marker.  No
 * other marker but the bucket's own may end a walk of it; a rehash never
 * shares a tail, so a reader that a move took to the new array always
 * ends on a foreign marker.  The caller still checks the bucket's stripe.
 *
 * Context: under any flavour of RCU read lock, or a bucket lock.
 * Return: whether @m ends a tail that bucket @idx of @tbl shares.
 */
bool __rht_nulls_fits_shared(const struct rhash_head *m,
			     const struct bucket_table *tbl, unsigned int idx)
{
	const struct bucket_table *other;

	if (tbl->kind == RHT_KIND_GROW) {
		other = rht_deref_any(tbl->past_tbl);
		if (other && m == rht_nulls_of(other, idx & (other->size - 1)))
			return true;
	}
	other = rht_deref_any(tbl->future_tbl);
	return other && other->kind == RHT_KIND_SHRINK &&
	       m == rht_nulls_of(other, idx & (other->size - 1));
}
EXPORT_SYMBOL_GPL(__rht_nulls_fits_shared);

/*
 * Point bucket @idx at @he (a marker empties it), keeping the lock bit.
 * The bucket may belong to the other array of a resize, whose lock we do
 * not hold; nobody can hold it either (its holders first take a lock we
 * hold), but somebody may be spinning on it, hence the cmpxchg.  Release
 * ordering publishes @he.
 */
static void rht_set_first(struct bucket_table *tbl, unsigned int idx,
			  struct rhash_head *he)
{
	unsigned long *word = (unsigned long *)rht_bucket_var(tbl, idx);
	unsigned long want = rht_is_a_nulls(he) ? 0 : (unsigned long)he;
	unsigned long old;

	rht_assert_locked(tbl);
	old = READ_ONCE(*word);
	do {
		if ((old & ~1UL) == want)
			return;
	} while (!try_cmpxchg_release(word, &old, want | (old & 1UL)));
}

/* Number of objects from @he to the end of its path. */
static unsigned int rht_path_len(const struct bucket_table *tbl,
				 struct rhash_head *he)
{
	unsigned int n = 0;

	for (; !rht_is_a_nulls(he); he = rht_next(tbl, he))
		n++;
	return n;
}

/*
 * First object shared by the paths starting at @p and @q, or NULL.  Shared
 * objects form a common tail, so equal distances from the end meet there.
 */
static struct rhash_head *rht_meet(const struct bucket_table *tbl,
				   struct rhash_head *p, struct rhash_head *q)
{
	unsigned int lp = rht_path_len(tbl, p), lq = rht_path_len(tbl, q);

	for (; lp > lq; lp--)
		p = rht_next(tbl, p);
	for (; lq > lp; lq--)
		q = rht_next(tbl, q);
	while (!rht_is_a_nulls(p) && p != q) {
		p = rht_next(tbl, p);
		q = rht_next(tbl, q);
	}
	return rht_is_a_nulls(p) ? NULL : p;
}

/*
 * Make the link that points at @old on the path of bucket @idx point at
 * @repl instead (@repl NULL: at @old's successor).  Returns whether @old
 * was on the path.
 */
static bool rht_relink_path(struct bucket_table *tbl, unsigned int idx,
			    struct rhash_head *old, struct rhash_head *repl)
{
	struct rhash_head *prev = NULL, *he;

	for (he = rht_first(tbl, idx); !rht_is_a_nulls(he);
	     prev = he, he = rht_next(tbl, he)) {
		if (he != old)
			continue;
		if (!repl)
			repl = rht_next(tbl, old);
		if (prev)
			rcu_assign_pointer(prev->next, repl);
		else
			rht_set_first(tbl, idx, repl);
		return true;
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* Bucket arrays                                                       */
/* ------------------------------------------------------------------ */

static struct lock_class_key rht_bucket_key;

/* Leaf pages of a nested array, stored in its top-level bucket area. */
static struct rhash_lock_head __rcu **rht_leaf(const struct bucket_table *tbl,
					       unsigned int i)
{
	struct rhash_lock_head __rcu ***top = (void *)tbl->buckets;

	return top[i];
}

struct rhash_lock_head __rcu **
__rht_bucket_nested(const struct bucket_table *tbl, unsigned int hash)
{
	unsigned int mask = (1U << RHT_LEAF_SHIFT) - 1;

	return &rht_leaf(tbl, hash >> RHT_LEAF_SHIFT)[hash & mask];
}
EXPORT_SYMBOL_GPL(__rht_bucket_nested);

struct rhash_lock_head __rcu **rht_bucket_nested(const struct bucket_table *tbl,
						 unsigned int hash)
{
	return __rht_bucket_nested(tbl, hash);
}
EXPORT_SYMBOL_GPL(rht_bucket_nested);

struct rhash_lock_head __rcu **
rht_bucket_nested_insert(struct rhashtable *ht, struct bucket_table *tbl,
			 unsigned int hash)
{
	return __rht_bucket_nested(tbl, hash);
}
EXPORT_SYMBOL_GPL(rht_bucket_nested_insert);

static void rht_free_table(struct bucket_table *tbl)
{
	unsigned int i;

	if (tbl->nest)
		for (i = 0; i < 1U << tbl->nest; i++)
			kfree(rht_leaf(tbl, i));
	kvfree(tbl);
}

static void rht_free_table_rcu(struct rcu_head *head)
{
	rht_free_table(container_of(head, struct bucket_table, rcu));
}

static void rht_init_table(struct bucket_table *tbl, unsigned int shift)
{
	tbl->size = 1U << shift;
	tbl->shift = shift;
	tbl->seq_mask = min(RHT_SEQ_STRIPES, max(tbl->size / 2, 1U)) - 1;
	INIT_LIST_HEAD(&tbl->walkers);
	lockdep_init_map_wait(&tbl->dep_map, "rhashtable_bucket",
			      &rht_bucket_key, 0, LD_WAIT_SPIN);
}

static struct bucket_table *rht_alloc_flat(struct rhashtable *ht,
					   unsigned int shift, gfp_t gfp)
{
	struct bucket_table *tbl;
	size_t bytes;

	if (rht_fail_alloc(ht, RHT_ALLOC_FLAT))
		return NULL;
	bytes = struct_size(tbl, buckets, 1UL << shift);
	tbl = rht_alloc_as(ht, kvmalloc_node_noprof(bytes, gfp | __GFP_ZERO,
						    NUMA_NO_NODE));
	if (tbl)
		rht_init_table(tbl, shift);
	return tbl;
}

/*
 * An array made of page-sized leaves under a small top level, for when a
 * large contiguous one cannot be had.  Every leaf is allocated up front, so
 * inserts never allocate.  The top level fits in half a page, which caps
 * the size; beyond it chains just get longer.
 */
static struct bucket_table *rht_alloc_nested(struct rhashtable *ht,
					     unsigned int shift, gfp_t gfp)
{
	unsigned int nest, i;
	struct bucket_table *tbl;
	void **top;

	if (shift <= RHT_LEAF_SHIFT)
		return NULL;
	shift = min_t(unsigned int, shift, 2 * RHT_LEAF_SHIFT - 1);
	nest = shift - RHT_LEAF_SHIFT;
	if (rht_fail_alloc(ht, RHT_ALLOC_NESTED_TOP))
		return NULL;
	tbl = rht_alloc_as(ht, kzalloc_noprof(struct_size(tbl, buckets,
							  1UL << nest), gfp));
	if (!tbl)
		return NULL;
	rht_init_table(tbl, shift);
	tbl->nest = nest;
	top = (void **)tbl->buckets;
	for (i = 0; i < 1U << nest; i++) {
		if (!rht_fail_alloc(ht, RHT_ALLOC_NESTED_LEAF))
			top[i] = rht_alloc_as(ht, kzalloc_noprof(PAGE_SIZE, gfp));
		if (!top[i]) {
			rht_free_table(tbl);
			return NULL;
		}
	}
	return tbl;
}

/*
 * A flat array of @size buckets or, failing that, a nested one of at least
 * @nested_min buckets (0: none will do).  Nested arrays are capped in
 * size, so the one made may be smaller than @size.
 */
static struct bucket_table *rht_alloc_table(struct rhashtable *ht,
					    unsigned int size,
					    unsigned int nested_min)
{
	unsigned int shift = ilog2(size);
	struct bucket_table *tbl;

	tbl = rht_alloc_flat(ht, shift, GFP_KERNEL | __GFP_NOWARN);
	if (tbl || !nested_min ||
	    min_t(int, shift, 2 * RHT_LEAF_SHIFT - 1) < ilog2(nested_min))
		return tbl;
	return rht_alloc_nested(ht, shift, GFP_KERNEL | __GFP_NOWARN);
}

/* ------------------------------------------------------------------ */
/* Counting                                                            */
/* ------------------------------------------------------------------ */

/**
 * rhashtable_count - number of objects in a table
 * @ht: the table
 *
 * For an rhltable the number of keys, as @nelems counts in 6.12.
 *
 * Context: any context.
 * Return: the number of objects.
 */
unsigned int rhashtable_count(struct rhashtable *ht)
{
	return atomic_read(&ht->nelems);
}
EXPORT_SYMBOL_GPL(rhashtable_count);

/*
 * The update paths of this file ask the 3.17 decision hooks when the
 * table has them; the inline paths of the header never do, and leave
 * the decision to the worker.
 */
static bool rht_grow_wanted(struct rhashtable *ht, struct bucket_table *tbl,
			    unsigned int chain)
{
	if (ht->p.grow_decision && chain <= RHT_ELASTICITY)
		return ht->p.grow_decision(ht, tbl->size);
	return rht_insert_wants_work(ht, tbl, chain);
}

static bool rht_shrink_wanted(struct rhashtable *ht, struct bucket_table *tbl)
{
	if (ht->p.shrink_decision)
		return ht->p.shrink_decision(ht, tbl->size);
	return rht_remove_wants_work(ht, tbl);
}

/* ------------------------------------------------------------------ */
/* Updates during a resize                                             */
/* ------------------------------------------------------------------ */

/*
 * The locks an update holds and where its object belongs.  @t is the older
 * array of a running resize (locked first) or NULL; @u is the newest one.
 */
struct rht_dom {
	struct bucket_table *t, *u;
	unsigned int ti, ui;
	struct rhash_lock_head __rcu **tb, **ub, **sb;
	unsigned long tflags, uflags, sflags;
	u8 phase;
};

struct rht_root {
	struct bucket_table *tbl;
	unsigned int idx;
};

static void rht_dom_unlock(struct rht_dom *d)
	__releases(bitlock) __releases(bitlock)
{
	rht_unlock(d->u, d->ub, d->uflags);
	if (d->sb) {
		__acquire(bitlock);
		rht_unlock(d->t, d->sb, d->sflags);
	}
	if (d->t)
		rht_unlock(d->t, d->tb, d->tflags);
	else
		__release(bitlock);
}

/*
 * For sparse, an update always holds two bucket locks: with one array only
 * the second is a fake acquisition.
 */
static void rht_dom_lock(struct rhashtable *ht, struct rht_dom *d,
			 const struct rhash_head *obj)
	__acquires(bitlock) __acquires(bitlock)
{
	struct bucket_table *tbl, *older, *newer;

retry:
	d->sb = NULL;
	tbl = rht_dereference_rcu(ht->tbl, ht);
	older = rcu_dereference(tbl->past_tbl);
	if (older) {
		newer = tbl;
	} else {
		older = tbl;
		newer = NULL;
	}
	d->ti = rht_index_of(ht, older, obj);
	d->tb = rht_bucket_var(older, d->ti);
	d->tflags = rht_lock(older, d->tb);
	if (!newer)
		newer = rcu_dereference(older->future_tbl);
	if (!newer) {
		d->t = NULL;
		d->u = older;
		d->ui = d->ti;
		d->ub = d->tb;
		d->uflags = d->tflags;
		d->phase = RHT_PH_NONE;
		__acquire(bitlock);
		return;
	}
	d->t = older;
	d->u = newer;
	d->ui = rht_index_of(ht, newer, obj);
	d->ub = rht_bucket_var(newer, d->ui);
	d->uflags = rht_lock_nested(newer, d->ub, SINGLE_DEPTH_NESTING);
	/*
	 * A resize of @newer itself started: two resizes further on.  This
	 * is only known under @newer's lock, which that resize's worker
	 * takes (after setting future_tbl) before it touches our bucket.
	 */
	if (unlikely(rcu_access_pointer(newer->future_tbl))) {
		rht_unlock(newer, d->ub, d->uflags);
		rht_unlock(older, d->tb, d->tflags);
		cpu_relax();
		goto retry;
	}
	d->phase = READ_ONCE(newer->phase);
	if (d->phase != RHT_PH_SHRINK_PREP)
		return;

	/*
	 * Halving, before T's readers are gone: an update also changes the
	 * chain of the other bucket of its pair (re-zipping), which an update
	 * that saw no resize yet may be changing under that bucket's lock
	 * alone.  So take both of T's locks of the pair, in index order, then
	 * U's: drop ours and start over in that order.  Sparse does not see
	 * the third lock.
	 */
	rht_unlock(newer, d->ub, d->uflags);
	rht_unlock(older, d->tb, d->tflags);
	d->tb = rht_bucket_var(older, d->ui);
	d->tflags = rht_lock(older, d->tb);
	d->sb = rht_bucket_var(older, d->ui + newer->size);
	d->sflags = rht_lock_nested(older, d->sb, SINGLE_DEPTH_NESTING);
	__release(bitlock);
	d->uflags = rht_lock_nested(newer, d->ub, SINGLE_DEPTH_NESTING + 1);
	/* If the halving finished meanwhile, more locks do no harm... */
	d->phase = READ_ONCE(newer->phase);
	/* ...but if U's own resize started, start over. */
	if (unlikely(rcu_access_pointer(newer->future_tbl))) {
		rht_dom_unlock(d);
		cpu_relax();
		goto retry;
	}
}

/* Buckets whose paths may hold the object, in the arrays readers use. */
static unsigned int rht_dom_search(const struct rht_dom *d,
				   struct rht_root *r)
{
	switch (d->phase) {
	case RHT_PH_GROW_PREP:
	case RHT_PH_SHRINK_PREP:
		r[0] = (struct rht_root){ d->t, d->ti };
		return 1;
	case RHT_PH_REHASH:
		r[0] = (struct rht_root){ d->t, d->ti };
		r[1] = (struct rht_root){ d->u, d->ui };
		return 2;
	default:
		r[0] = (struct rht_root){ d->u, d->ui };
		return 1;
	}
}

/* Every bucket whose path may link to the object. */
static unsigned int rht_dom_roots(const struct rht_dom *d, struct rht_root *r)
{
	unsigned int lo;

	switch (d->phase) {
	case RHT_PH_GROW_PREP:
		r[0] = (struct rht_root){ d->t, d->ti };
		r[1] = (struct rht_root){ d->u, d->ti };
		r[2] = (struct rht_root){ d->u, d->ti + d->t->size };
		return 3;
	case RHT_PH_GROW_UNZIP:
		r[0] = (struct rht_root){ d->u, d->ti };
		r[1] = (struct rht_root){ d->u, d->ti + d->t->size };
		return 2;
	case RHT_PH_SHRINK_PREP:
		lo = d->ui;
		r[0] = (struct rht_root){ d->t, lo };
		r[1] = (struct rht_root){ d->t, lo + d->u->size };
		r[2] = (struct rht_root){ d->u, lo };
		return 3;
	default:
		return rht_dom_search(d, r);
	}
}

static void rht_unzip_link(struct rhashtable *ht, struct bucket_table *t,
			   struct bucket_table *u, unsigned int x);
static void rht_zip_pair(struct rhashtable *ht, struct bucket_table *t,
			 struct bucket_table *u, unsigned int x);

/* Restore the invariants of the PREP phases after T's chain changed. */
static void rht_dom_fixup(struct rhashtable *ht, struct rht_dom *d)
{
	if (d->phase == RHT_PH_GROW_PREP)
		rht_unzip_link(ht, d->t, d->u, d->ti);
	else if (d->phase == RHT_PH_SHRINK_PREP)
		rht_zip_pair(ht, d->t, d->u, d->ui);
}

/*
 * An update under @d links an object where readers of either array could
 * be carried without noticing, or re-routes a path that readers may be on
 * (see rht_seq_bump()).
 */
static void rht_dom_bump(const struct rht_dom *d)
{
	if (d->t)
		rht_seq_bump(d->t, d->ti);
	rht_seq_bump(d->u, d->ui);
}

static bool rht_dom_relink(struct rhashtable *ht, struct rht_dom *d,
			   struct rhash_head *old, struct rhash_head *repl)
{
	struct rht_root r[3];
	unsigned int i, n = rht_dom_roots(d, r);
	bool found = false;

	for (i = 0; i < n; i++)
		found |= rht_relink_path(r[i].tbl, r[i].idx, old, repl);
	if (!found)
		return false;
	rht_dom_fixup(ht, d);
	/*
	 * Before the unzipping, a new bucket's path may start with objects
	 * of its sibling.  Taking out its first own object moves its head
	 * past them, and the first unzip pass may then cut a link that a
	 * reader which entered through the removed object still follows:
	 * it would miss the object the cut skips.  Readers see the bump
	 * made after the change and check again.  (Found by the model,
	 * lab/model.)
	 */
	if (d->phase == RHT_PH_GROW_PREP)
		rht_dom_bump(d);
	return true;
}

/*
 * Look for @key; @chain gets the number of objects passed.  Without a key
 * this only measures the chain, and stops once it is too long.
 */
static struct rhash_head *rht_dom_find(struct rhashtable *ht,
				       struct rht_dom *d, const void *key,
				       unsigned int *chain)
{
	struct rht_root r[2];
	unsigned int i, n = rht_dom_search(d, r);
	struct rhash_head *he;

	for (i = 0; i < n; i++) {
		for (he = rht_first(r[i].tbl, r[i].idx); !rht_is_a_nulls(he);
		     he = rht_next(r[i].tbl, he)) {
			if (++*chain > RHT_ELASTICITY && !key)
				return NULL;
			if (key && !rht_key_differs(ht, key, he, ht->p))
				return he;
		}
	}
	return NULL;
}

static void rht_dom_link(struct rhashtable *ht, struct rht_dom *d,
			 struct rhash_head *obj)
{
	struct bucket_table *tbl = d->u;
	unsigned int idx = d->ui;

	if (d->phase == RHT_PH_GROW_PREP || d->phase == RHT_PH_SHRINK_PREP) {
		tbl = d->t;
		idx = d->ti;
	}
	/*
	 * While a resize runs, the head of a bucket may be the middle of a
	 * zipped chain or the start of a path whose tail the sibling shares.
	 * Otherwise an insert at a head carries its readers to the whole of
	 * a chain, which a marker check covers.
	 */
	if (d->t)
		rht_dom_bump(d);
	/*
	 * Before the unzipping, T's chain interleaves the objects of U's two
	 * buckets, and the unzip needs one pass, and a grace period, per run.
	 * Put at the head, a burst of inserts while the worker waits for its
	 * first grace period would interleave them ever more.  Next to the
	 * first object of its own side (U's head, which is on T's chain) the
	 * object joins a run: readers of T and of both of U's paths through
	 * that object see it, and the runs stay as the resize found them.
	 */
	if (d->phase == RHT_PH_GROW_PREP) {
		struct rhash_head *own = rht_first(d->u, d->ui);

		if (!rht_is_a_nulls(own)) {
			rcu_assign_pointer(obj->next, rht_next(tbl, own));
			rcu_assign_pointer(own->next, obj);
			return;
		}
	}
	rcu_assign_pointer(obj->next, rht_first(tbl, idx));
	rht_set_first(tbl, idx, obj);
	rht_dom_fixup(ht, d);
}

/*
 * Take @obj off its key's list in an rhltable: 1 if the key left the table
 * with it, 0 if other objects keep the key, -ENOENT.
 */
static int rht_dom_unlink_rhl(struct rhashtable *ht, struct rht_dom *d,
			      struct rhash_head *obj)
{
	struct rhlist_head *victim = container_of(obj, struct rhlist_head,
						  rhead);
	struct rhlist_head __rcu **lprev;
	struct rhlist_head *first, *l;
	struct rht_root r[2];
	unsigned int i, n = rht_dom_search(d, r);
	struct rhash_head *he;

	for (i = 0; i < n; i++) {
		for (he = rht_first(r[i].tbl, r[i].idx); !rht_is_a_nulls(he);
		     he = rht_next(r[i].tbl, he)) {
			first = container_of(he, struct rhlist_head, rhead);
			if (first == victim) {
				l = rht_locked(first->next, r[i].tbl);
				if (!l)
					return rht_dom_relink(ht, d, he, NULL);
				/* @l takes @first's place mid-chain. */
				rht_dom_bump(d);
				rcu_assign_pointer(l->rhead.next,
						   rht_next(r[i].tbl, he));
				rht_dom_relink(ht, d, he, &l->rhead);
				return 0;
			}
			for (lprev = &first->next;
			     (l = rht_locked(*lprev, r[i].tbl));
			     lprev = &l->next) {
				if (l == victim) {
					rcu_assign_pointer(*lprev,
							   rht_locked(l->next,
								      r[i].tbl));
					return 0;
				}
			}
		}
	}
	return -ENOENT;
}

/**
 * rhashtable_kick - ask the worker to look at the table
 * @ht: the table
 * @chain: length of the chain an insert just walked, 0 if none
 *
 * Called by the update paths after they dropped their bucket locks.
 *
 * Context: any context.
 */
void rhashtable_kick(struct rhashtable *ht, unsigned int chain)
{
	struct bucket_table *tbl;
	bool noted = false;

	/*
	 * One request per array: the worker either reseeds or stops asking.
	 * A table with more objects than buckets that may still grow is
	 * behind its load (a burst of inserts outran the worker): there a
	 * long chain says nothing about the hash, the grow it waits for is
	 * the cure, and the chains of the grown array are judged afresh.
	 * (With a good hash and one object per bucket, a chain longer than
	 * RHT_ELASTICITY has odds of about 1 in 10^15 per bucket; at four
	 * per bucket, about 1 in 10^6.)
	 */
	if (chain > RHT_ELASTICITY) {
		rcu_read_lock();
		tbl = rht_dereference_rcu(ht->tbl, ht);
		if (ht->p.grow_decision || !rht_grow_above_100(ht, tbl))
			noted = test_and_set_bit(RHT_TBL_LONG_CHAIN,
						 &tbl->flags);
		rcu_read_unlock();
	}
	if (!noted)
		schedule_work(&ht->run_work);
}
EXPORT_SYMBOL_GPL(rhashtable_kick);

/**
 * rhashtable_insert_slow - insert an object, whatever state the table is in
 * @ht: the table
 * @key: the key to keep unique, or %NULL to insert unconditionally
 * @obj: the object's hook
 *
 * The path the inline inserts take while a resize runs; also callable
 * directly.  On an rhltable an existing key gets @obj added to its list.
 *
 * Context: any context.
 * Return: %NULL if inserted, the object that holds @key already, or
 * ERR_PTR(-E2BIG) if the table holds its maximum number of objects.
 */
void *rhashtable_insert_slow(struct rhashtable *ht, const void *key,
			     struct rhash_head *obj)
{
	struct rhlist_head *first, *list;
	unsigned int chain = 0;
	struct rhash_head *dup;
	bool counted = true;
	struct rht_dom d;
	void *ret = NULL;

	rcu_read_lock();
	rht_dom_lock(ht, &d, obj);
	/*
	 * Without a key to look for, the chain is walked only to measure
	 * it, for the long-chain check.  While a resize runs that says
	 * nothing about the hash (the table is behind its load, a path may
	 * hold both buckets of a pair) and costs a cache miss per object on
	 * most inserts of a fast-growing table; the check resumes with the
	 * resize done.
	 */
	dup = key || !d.t ? rht_dom_find(ht, &d, key, &chain) : NULL;
	if (dup && !ht->rhlist) {
		ret = rht_obj(ht, dup);
	} else if (dup) {
		/* Joins the key's list; rhltables count keys, as in 6.12. */
		first = container_of(dup, struct rhlist_head, rhead);
		list = container_of(obj, struct rhlist_head, rhead);
		rcu_assign_pointer(list->next, rht_locked(first->next, d.u));
		rcu_assign_pointer(first->next, list);
		counted = false;
	} else if (rht_grow_above_max(ht, d.u)) {
		ret = ERR_PTR(-E2BIG);
	} else {
		if (ht->rhlist)
			RCU_INIT_POINTER(container_of(obj, struct rhlist_head,
						      rhead)->next, NULL);
		rht_count_add(ht, 1);	/* before anyone can remove it */
		rht_dom_link(ht, &d, obj);
	}
	rht_dom_unlock(&d);

	if (!ret && counted && rht_grow_wanted(ht, d.u, chain))
		rhashtable_kick(ht, chain);
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(rhashtable_insert_slow);

/**
 * rhashtable_remove_slow - remove an object, whatever state the table is in
 * @ht: the table
 * @obj: the object's hook
 * @rhlist: @ht is the inside of an rhltable
 *
 * Context: any context.
 * Return: 0, or -ENOENT if @obj is not in the table.
 */
int rhashtable_remove_slow(struct rhashtable *ht, struct rhash_head *obj,
			   bool rhlist)
{
	struct rht_dom d;
	int gone;

	rcu_read_lock();
	rht_dom_lock(ht, &d, obj);
	if (rhlist)
		gone = rht_dom_unlink_rhl(ht, &d, obj);
	else
		gone = rht_dom_relink(ht, &d, obj, NULL) ? 1 : -ENOENT;
	rht_dom_unlock(&d);
	if (gone >= 0) {
		if (rht_unlinked(ht, gone))
			rht_dom_bump(&d);
		if (gone && rht_shrink_wanted(ht, d.u))
			rhashtable_kick(ht, 0);
	}
	rcu_read_unlock();
	return min(gone, 0);
}
EXPORT_SYMBOL_GPL(rhashtable_remove_slow);

/**
 * rhashtable_replace_slow - replace an object, whatever state the table is in
 * @ht: the table
 * @obj_old: hook of the object to replace
 * @obj_new: hook of the replacement
 *
 * Context: any context.
 * Return: 0, -ENOENT if @obj_old is not in the table, -EINVAL if the two
 * objects hash differently.
 */
int rhashtable_replace_slow(struct rhashtable *ht, struct rhash_head *obj_old,
			    struct rhash_head *obj_new)
{
	struct rht_dom d;
	int err = -EINVAL;

	rcu_read_lock();
	rht_dom_lock(ht, &d, obj_old);
	if (rht_index_of(ht, d.u, obj_new) == d.ui &&
	    (!d.t || rht_index_of(ht, d.t, obj_new) == d.ti)) {
		rht_dom_bump(&d);
		rcu_assign_pointer(obj_new->next, rht_next(d.u, obj_old));
		err = rht_dom_relink(ht, &d, obj_old, obj_new) ? 0 : -ENOENT;
	}
	rht_dom_unlock(&d);
	if (!err && rht_unlinked(ht, 0))
		rht_dom_bump(&d);
	rcu_read_unlock();
	return err;
}
EXPORT_SYMBOL_GPL(rhashtable_replace_slow);

/* ------------------------------------------------------------------ */
/* Zip, unzip, move                                                    */
/* ------------------------------------------------------------------ */

/*
 * Doubling, before unzipping: point U's buckets x and x + |T| at the first
 * object of each in T's chain x.  Caller holds T's lock of bucket x.
 */
static void rht_unzip_link(struct rhashtable *ht, struct bucket_table *t,
			   struct bucket_table *u, unsigned int x)
{
	struct rhash_head *first[2] = { NULL, NULL };
	struct rhash_head *he;
	int side;

	rht_assert_locked(t);
	for (he = rht_first(t, x); !rht_is_a_nulls(he); he = rht_next(t, he)) {
		side = rht_index_of(ht, u, he) != x;
		if (!first[side])
			first[side] = he;
		if (first[!side])
			break;
	}
	rht_set_first(u, x, first[0] ? first[0] : rht_nulls_of(u, x));
	rht_set_first(u, x + t->size,
		      first[1] ? first[1] : rht_nulls_of(u, x + t->size));
}

/*
 * One unzip step for U's buckets x and x + |T|, under T's lock of x.
 * Returns true if the pair needs another pass after a grace period.
 */
static bool rht_unzip_step(struct rhashtable *ht, struct bucket_table *t,
			   struct bucket_table *u, unsigned int x)
{
	unsigned int idx[2] = { x, x + t->size };
	struct rhash_head *h[2], *meet, *prev, *last, *he, *to;
	int side, other;
	bool busy;

	rht_assert_locked(t);
	h[0] = rht_first(u, idx[0]);
	h[1] = rht_first(u, idx[1]);
	meet = rht_meet(u, h[0], h[1]);
	if (!meet) {
		/* Apart: give each path its own end marker. */
		for (side = 0; side < 2; side++) {
			prev = NULL;
			for (he = h[side]; !rht_is_a_nulls(he); he = rht_next(u, he))
				prev = he;
			to = rht_nulls_of(u, idx[side]);
			if (prev && rht_next(u, prev) != to)
				rcu_assign_pointer(prev->next, to);
		}
		return false;
	}

	/*
	 * The side the meeting object belongs to keeps its path; the other
	 * side's last own link skips the run up to its next object.
	 */
	side = rht_index_of(ht, u, meet) != idx[0];
	other = !side;
	prev = NULL;
	for (he = h[other]; he != meet; he = rht_next(u, he))
		prev = he;
	last = meet;
	for (to = rht_next(u, meet); !rht_is_a_nulls(to); to = rht_next(u, to)) {
		if (rht_index_of(ht, u, to) == idx[other])
			break;
		last = to;
	}
	busy = !rht_is_a_nulls(to);
	if (!busy)
		to = rht_nulls_of(u, idx[other]);
	if (prev)
		rcu_assign_pointer(prev->next, to);
	else
		rht_set_first(u, idx[other], to);
	if (busy)
		return true;

	/*
	 * That was the last cut: the paths are apart, and the tail left to
	 * the meeting side can end on its own marker now rather than a pass
	 * later.  A reader of the other side still on that tail (it took
	 * the link just cut) has passed all of its own objects; it ends on
	 * a marker that does not fit and scans its bucket again.
	 */
	to = rht_nulls_of(u, idx[side]);
	if (rht_next(u, last) != to)
		rcu_assign_pointer(last->next, to);
	return false;
}

/* One pass over all pairs; true if another one is needed. */
static bool rht_unzip_one(struct rhashtable *ht, struct bucket_table *t,
			  struct bucket_table *u, unsigned int x)
{
	struct rhash_lock_head __rcu **bkt = rht_bucket_var(t, x);
	unsigned long flags;
	bool busy;

	rht_prefetch_first(u, x + RHT_PREFETCH_AHEAD);
	rht_prefetch_first(u, x + RHT_PREFETCH_AHEAD + t->size);
	flags = rht_lock(t, bkt);
	busy = rht_unzip_step(ht, t, u, x);

	rht_unlock(t, bkt, flags);
	cond_resched();
	return busy;
}

/*
 * One pass over the pairs that are not apart yet (all of them if the
 * bitmap of those could not be allocated; a pair once apart stays so).
 */
static bool rht_unzip_pass(struct rhashtable *ht, struct bucket_table *t,
			   struct bucket_table *u)
{
	struct rht_resizer *rs = t->rs;
	unsigned long *todo = rs->todo;
	bool more = false;
	unsigned int x;

	if (!todo) {
		for (x = 0; x < t->size; x++)
			more |= rht_unzip_one(ht, t, u, x);
	} else {
		for_each_set_bit(x, todo, t->size) {
			if (rht_unzip_one(ht, t, u, x))
				more = true;
			else
				__clear_bit(x, todo);
		}
	}
	rs->stats.unzip_passes++;
	trace_rhashtable_unzip_pass(ht, u->size, more);
	return more;
}

/*
 * Halving: make U's bucket x the concatenation of T's chains x and
 * x + |U|.  Idempotent; also repairs the join after T's chains changed.
 * Callers hold locks that cover both of T's buckets.
 */
static void rht_zip_pair(struct rhashtable *ht, struct bucket_table *t,
			 struct bucket_table *u, unsigned int x)
{
	struct rhash_head *hx = rht_first(t, x);
	struct rhash_head *hy = rht_first(t, x + u->size);
	struct rhash_head *end = rht_nulls_of(u, x);
	struct rhash_head *he, *prev, *join, *to;

	rht_assert_locked(t);
	/*
	 * A reader of T that an update carried from chain x to x + |U| used
	 * to end on a foreign marker; once zipped, it ends on U's, which
	 * fits either.  The bump makes it check again.  Both of T's buckets
	 * share a stripe, and U's bucket x is the same one.
	 */
	rht_seq_bump(t, x);
	rht_seq_bump(u, x);

	if (!rht_is_a_nulls(hy)) {
		for (prev = hy; !rht_is_a_nulls(he = rht_next(t, prev));)
			prev = he;
		if (he != end)
			rcu_assign_pointer(prev->next, end);
	}
	/* The first chain ends where it joins the second, or at a marker. */
	join = NULL;
	if (!rht_is_a_nulls(hx) && !rht_is_a_nulls(hy))
		join = rht_meet(t, hx, hy);
	if (join && join == hx) {
		/* Its last object was removed: T's bucket x has none left. */
		rht_set_first(t, x, rht_nulls_of(t, x));
		hx = rht_nulls_of(t, x);
	}
	if (rht_is_a_nulls(hx)) {
		rht_set_first(u, x, hy);
		return;
	}
	for (prev = hx; !rht_is_a_nulls(he = rht_next(t, prev)) && he != join;)
		prev = he;
	to = rht_is_a_nulls(hy) ? end : hy;
	if (he != to)
		rcu_assign_pointer(prev->next, to);
	rht_set_first(u, x, hx);
}

static void rht_zip_pass(struct rhashtable *ht, struct bucket_table *t,
			 struct bucket_table *u)
{
	struct rhash_lock_head __rcu **lo, **hi;
	unsigned long lflags, hflags;
	unsigned int x;

	for (x = 0; x < u->size; x++) {
		rht_prefetch_first(t, x + RHT_PREFETCH_AHEAD);
		rht_prefetch_first(t, x + RHT_PREFETCH_AHEAD + u->size);
		lo = rht_bucket_var(t, x);
		hi = rht_bucket_var(t, x + u->size);
		lflags = rht_lock(t, lo);
		hflags = rht_lock_nested(t, hi, SINGLE_DEPTH_NESTING);
		rht_zip_pair(ht, t, u, x);
		rht_unlock(t, hi, hflags);
		rht_unlock(t, lo, lflags);
		rht_test_point(ht, RHT_TP_ZIPPED_PAIR, x);
		cond_resched();
	}
}

/*
 * Rehashing: move every object of T's bucket x to U.  An object is linked
 * into U before it leaves T, so a lookup that misses it in T finds it in
 * U; a reader standing on it ends on U's marker and retries T.
 *
 * A walk of T's bucket x must not get that far: carried into U's chain,
 * it could meet objects of bucket x that it returned from T before they
 * moved.  So the stripe is bumped before each move links an object into
 * U: a walk that follows the new link sees the bump before it returns
 * anything there.  (One bump per bucket is not enough: a walk may begin
 * the bucket after it and still return objects before they move; found
 * by the model, lab/model.)
 */
static void rht_move_bucket(struct rhashtable *ht, struct bucket_table *t,
			    struct bucket_table *u, unsigned int x)
{
	struct rhash_lock_head __rcu **tb = rht_bucket_var(t, x), **ub;
	unsigned long tflags, uflags;
	struct rhash_head *he, *rest;
	unsigned int ui;

	tflags = rht_lock(t, tb);
	while (!rht_is_a_nulls(he = rht_first(t, x))) {
		rht_seq_bump(t, x);
		rest = rht_next(t, he);
		ui = rht_index_of(ht, u, he);
		ub = rht_bucket_var(u, ui);
		uflags = rht_lock_nested(u, ub, SINGLE_DEPTH_NESTING);
		rcu_assign_pointer(he->next, rht_first(u, ui));
		rht_assign_locked(ub, he);
		rht_unlock(u, ub, uflags);
		rht_assign_locked(tb, rest);
	}
	rht_unlock(t, tb, tflags);
}

/* ------------------------------------------------------------------ */
/* The worker                                                          */
/* ------------------------------------------------------------------ */

/* The table's resize state; NULL until its first resize.  Under the mutex. */
static struct rht_resizer *rht_rs(struct rhashtable *ht)
{
	return rht_dereference(ht->tbl, ht)->rs;
}

static void rht_retry_fn(struct timer_list *t);

/*
 * The resize state, allocated if this is the table's first resize.  On
 * failure nothing retries by itself: the next update that finds the table
 * too full or too empty queues the worker again.
 */
static struct rht_resizer *rht_get_rs(struct rhashtable *ht)
{
	struct bucket_table *tbl = rht_dereference(ht->tbl, ht);
	struct rht_resizer *rs = tbl->rs;

	if (rs)
		return rs;
	if (rht_fail_alloc(ht, RHT_ALLOC_RESIZER))
		return NULL;
	rs = rht_alloc_as(ht, kzalloc_noprof(sizeof(*rs), GFP_KERNEL));
	if (!rs)
		return NULL;
	rs->ht = ht;
	spin_lock_init(&rs->lock);
	timer_setup(&rs->retry, rht_retry_fn, 0);
	/* The first array, made by rhashtable_init(), counts too. */
	rs->stats.nested = !!tbl->nest;
	tbl->rs = rs;
	return rs;
}

/*
 * The grace period a resize waits for is over: run the worker again,
 * unless the table was destroyed meanwhile, which left the state to us.
 * @gp_armed is cleared first, so that a worker that starts now and needs
 * another grace period queues this callback again rather than count on
 * this one.
 */
static void rht_gp_cb(struct rcu_head *head)
{
	struct rht_resizer *rs = container_of(head, struct rht_resizer, rcu);
	struct rhashtable *ht;

	spin_lock_bh(&rs->lock);
	rs->gp_armed = false;
	ht = rs->ht;
	if (ht)
		schedule_work(&ht->run_work);
	spin_unlock_bh(&rs->lock);
	if (!ht)
		kfree(rs);
}

static void rht_start_gp(struct rht_resizer *rs)
{
	rs->gp = start_poll_synchronize_rcu();
	rs->stats.grace_periods++;
}

/* Has the grace period the next step needs ended?  Arrange to return. */
static bool rht_gp_done(struct rht_resizer *rs, enum rht_wait how)
{
	if (how == RHT_WAIT_NONE || poll_state_synchronize_rcu(rs->gp))
		return true;
	if (how == RHT_WAIT_SYNC) {
		cond_synchronize_rcu(rs->gp);
		return true;
	}
	spin_lock_bh(&rs->lock);
	if (!rs->gp_armed) {
		rs->gp_armed = true;
		call_rcu(&rs->rcu, rht_gp_cb);
	}
	spin_unlock_bh(&rs->lock);
	return false;
}

/* Destruction shuts the timer down before it lets go of @rs->ht. */
static void rht_retry_fn(struct timer_list *t)
{
	struct rht_resizer *rs = from_timer(rs, t, retry);

	schedule_work(&rs->ht->run_work);
}

static void rht_retry_later(struct rht_resizer *rs)
{
	unsigned long delay = rs->backoff * 2;

	delay = clamp_t(unsigned long, delay, RHT_BACKOFF_MIN, RHT_BACKOFF_MAX);
	rs->backoff = delay;
	mod_timer(&rs->retry, jiffies + delay);
}

/* Make @u the array readers start from; walkers of @t must restart. */
static void rht_publish(struct rhashtable *ht, struct bucket_table *t,
			struct bucket_table *u)
{
	struct rhashtable_walker *w, *n;

	rcu_assign_pointer(ht->tbl, u);
	spin_lock(&ht->lock);
	list_for_each_entry_safe(w, n, &t->walkers, list) {
		w->tbl = NULL;
		list_del(&w->list);
	}
	spin_unlock(&ht->lock);
}

static void rht_finish(struct rhashtable *ht, struct rht_resizer *rs)
{
	struct bucket_table *u = rs->new;
	unsigned int n;

	trace_rhashtable_resize_done(ht, rs->old->size, u->size);
	rht_test_point(ht, RHT_TP_RETIRE, u->size);
	call_rcu(&rs->old->rcu, rht_free_table_rcu);
	n = rhashtable_count(ht);
	rs->grew_by = n > rs->began_with ? n - rs->began_with : 0;
	rs->old = NULL;
	rs->new = NULL;
	bitmap_free(rs->todo);
	rs->todo = NULL;
	rs->step = RHT_STEP_IDLE;
}

/* The next step of the running resize, once its grace period ended. */
static void rht_advance(struct rhashtable *ht, struct rht_resizer *rs)
{
	struct bucket_table *t = rs->old, *u = rs->new;
	bool more;

	switch (rs->step) {
	case RHT_STEP_UNZIP:
		/*
		 * T's readers are gone.  Updaters see the new phase under T's
		 * lock of a pair before its first cut; see the file comment.
		 */
		WRITE_ONCE(u->phase, RHT_PH_GROW_UNZIP);
		more = rht_unzip_pass(ht, t, u);
		rht_test_point(ht, RHT_TP_UNZIP_PASS, more);
		if (more) {
			rht_start_gp(rs);
			return;
		}
		/* The pairs are apart: U's own locks suffice from now on. */
		WRITE_ONCE(u->phase, RHT_PH_NONE);
		RCU_INIT_POINTER(u->past_tbl, NULL);
		rs->stats.grows++;
		rht_finish(ht, rs);
		return;
	case RHT_STEP_SETTLE:
		/*
		 * T's readers are gone: updaters may work on U alone.  Those
		 * that read the old phase must finish before the fast path is
		 * opened, or a re-zip could drop an object inserted there.
		 */
		WRITE_ONCE(u->phase, RHT_PH_NONE);
		rs->step = RHT_STEP_RELEASE;
		rht_start_gp(rs);
		rht_test_point(ht, RHT_TP_SETTLED, u->size);
		return;
	case RHT_STEP_RELEASE:
		RCU_INIT_POINTER(u->past_tbl, NULL);
		rs->stats.shrinks++;
		rht_finish(ht, rs);
		return;
	case RHT_STEP_REHASHED:
		/* No walk of T is left: updaters may work on U alone. */
		WRITE_ONCE(u->phase, RHT_PH_NONE);
		RCU_INIT_POINTER(u->past_tbl, NULL);
		rht_finish(ht, rs);
		return;
	}
}

/* Carry the running resize as far as it goes; true once none runs. */
static bool rht_drive(struct rhashtable *ht, enum rht_wait how)
{
	struct rht_resizer *rs = rht_rs(ht);

	while (rs && rs->step != RHT_STEP_IDLE) {
		if (!rht_gp_done(rs, how))
			return false;
		rht_advance(ht, rs);
	}
	return true;
}

#define RHT_BEGIN_FLAT	BIT(0)	/* no nested array, however big */
#define RHT_BEGIN_MOVE	BIT(1)	/* move the objects, even to double */
#define RHT_BEGIN_AUTO	BIT(2)	/* the worker's own plan: may turn to a move */

/*
 * Start replacing the current array by one of @size buckets.  Doubling and
 * halving a flat array with the same seed unzip or zip in place, unless
 * @how asks for a move; anything else moves the objects.  Returns 0 or
 * -ENOMEM.
 */
static int rht_begin(struct rhashtable *ht, unsigned int size, bool reseed,
		     unsigned int how)
{
	struct bucket_table *t = rht_dereference(ht->tbl, ht), *u;
	struct rht_resizer *rs = rht_get_rs(ht);
	unsigned int x;
	u8 phase;

	if (!rs)
		return -ENOMEM;

	/*
	 * A nested array smaller than both what was asked for and the current
	 * array is no replacement: a grow that cannot have a bigger array
	 * keeps the current one.
	 */
	u = rht_alloc_table(ht, size,
			    how & RHT_BEGIN_FLAT ? 0 : min(size, 2 * t->size));
	if (!u) {
		rs->stats.alloc_failures++;
		rht_retry_later(rs);
		return -ENOMEM;
	}
	rs->backoff = 0;
	/*
	 * Inserts go on while the array is allocated, and a large one takes
	 * a while.  A doubling the worker planned that finds more objects
	 * than buckets now is behind after all: unzipping would take a pass
	 * per run and a grace period per pass while the chains grow (in
	 * make bench with two inserters, 34K objects in 32K buckets were
	 * still unzipping when the last of 1M arrived).  Move them, as
	 * rht_plan() does when it sees the lag itself.
	 */
	rs->began_with = rhashtable_count(ht);
	if ((how & RHT_BEGIN_AUTO) && rs->began_with > t->size)
		how |= RHT_BEGIN_MOVE;
	u->rs = rs;
	if (u->nest)
		rs->stats.nested++;
	u->hash_rnd = reseed ? get_random_u32() : t->hash_rnd;
	phase = RHT_PH_REHASH;
	if (!reseed && !t->nest && !u->nest && !(how & RHT_BEGIN_MOVE)) {
		if (u->size == t->size * 2)
			phase = RHT_PH_GROW_PREP;
		else if (u->size * 2 == t->size)
			phase = RHT_PH_SHRINK_PREP;
	}
	u->kind = phase == RHT_PH_GROW_PREP ? RHT_KIND_GROW :
		  phase == RHT_PH_SHRINK_PREP ? RHT_KIND_SHRINK : RHT_KIND_REHASH;
	u->phase = phase;
	if (phase != RHT_PH_REHASH)
		RCU_INIT_POINTER(u->past_tbl, t);
	rs->old = t;
	rs->new = u;
	trace_rhashtable_resize_start(ht, t->size, u->size, u->kind);
	rcu_assign_pointer(t->future_tbl, u);

	switch (phase) {
	case RHT_PH_GROW_PREP:
		for (x = 0; x < t->size; x++) {
			struct rhash_lock_head __rcu **bkt = rht_bucket_var(t, x);
			unsigned long flags;

			rht_prefetch_first(t, x + RHT_PREFETCH_AHEAD);
			flags = rht_lock(t, bkt);

			rht_unzip_link(ht, t, u, x);
			rht_unlock(t, bkt, flags);
			cond_resched();
		}
		rht_publish(ht, t, u);
		if (!rht_fail_alloc(ht, RHT_ALLOC_BITMAP))
			rs->todo = bitmap_alloc(t->size,
						GFP_KERNEL | __GFP_NOWARN);
		if (rs->todo)
			bitmap_fill(rs->todo, t->size);
		rs->step = RHT_STEP_UNZIP;
		rht_start_gp(rs);
		rht_test_point(ht, RHT_TP_PUBLISHED, u->size);
		break;
	case RHT_PH_SHRINK_PREP:
		rht_zip_pass(ht, t, u);
		rht_publish(ht, t, u);
		rs->step = RHT_STEP_SETTLE;
		rht_start_gp(rs);
		rht_test_point(ht, RHT_TP_PUBLISHED, u->size);
		break;
	default:
		for (x = 0; x < t->size; x++) {
			rht_prefetch_first(t, x + RHT_PREFETCH_AHEAD);
			rht_move_bucket(ht, t, u, x);
			rht_test_point(ht, RHT_TP_MOVED_BUCKET, x);
			cond_resched();
		}
		/*
		 * Walks of T may still be carried into U's chains by moved
		 * objects: until they are gone, updaters that find U must
		 * keep T in their domain and bump its stripes too (see
		 * rht_unlinked(); found by the model, lab/model).
		 */
		RCU_INIT_POINTER(u->past_tbl, t);
		rht_publish(ht, t, u);
		rs->stats.rehashes++;
		if (reseed)
			rs->stats.reseeds++;
		rs->step = RHT_STEP_REHASHED;
		rht_start_gp(rs);
		rht_test_point(ht, RHT_TP_PUBLISHED, u->size);
		break;
	}
	return 0;
}

static unsigned int rht_max_size(const struct rhashtable *ht)
{
	return ht->p.max_size ? ht->p.max_size : 1U << RHT_MAX_SHIFT;
}

/*
 * Smallest size that keeps @n objects below the grow threshold with room
 * for one more (rht_load_above_75()), within limits.
 */
static unsigned int rht_fit_size(const struct rhashtable *ht, unsigned int n)
{
	unsigned long want = roundup_pow_of_two(max(n, 1U) * 4UL / 3 + 1);

	return clamp_t(unsigned long, want, ht->p.min_size, rht_max_size(ht));
}

/* The size the table should have now. */
static unsigned int rht_wanted_size(struct rhashtable *ht,
				    const struct bucket_table *tbl)
{
	unsigned int size = tbl->size, n = rhashtable_count(ht);
	bool grow, shrink;

	if (ht->p.grow_decision || ht->p.shrink_decision) {
		grow = ht->p.grow_decision && ht->p.grow_decision(ht, size);
		shrink = ht->p.shrink_decision &&
			 ht->p.shrink_decision(ht, size);
	} else {
		grow = rht_load_above_75(n, size);
		shrink = ht->p.automatic_shrinking && rht_load_below_30(n, size);
	}
	if (grow && size < rht_max_size(ht))
		return size * 2;
	if (shrink && size > ht->p.min_size)
		return size / 2;
	return size;
}

/*
 * A fresh seed after a long chain, but not at a rate an attacker (or a
 * hash function that collides whatever the seed) can drive: the minimum
 * gap doubles while long chains keep coming back, up to RHT_RESEED_MAX.
 */
static bool rht_may_reseed(struct rht_resizer *rs)
{
	unsigned long now = jiffies, gap = rs->reseed_gap;

	if (gap && time_before(now, rs->reseed_at)) {
		mod_timer(&rs->retry, rs->reseed_at);
		return false;
	}
	if (!gap || time_after(now, rs->reseed_at + gap))
		gap = RHT_RESEED_MIN;
	else
		gap = min_t(unsigned long, gap * 2, RHT_RESEED_MAX);
	rs->reseed_gap = gap;
	rs->reseed_at = now + gap;
	return true;
}

/*
 * How many more objects a move of @n objects should leave room for: the
 * inserts that outran the worker are likely to go on while it moves.  The
 * last resize tells how many arrived per object it began with; room is
 * made for as many as that rate brings in the move, but no more than n/2,
 * so that a burst that stops leaves the array at most one doubling larger
 * than it needs.
 */
static unsigned int rht_expected(struct rhashtable *ht, unsigned int n)
{
	struct rht_resizer *rs = rht_rs(ht);
	u64 more;

	if (!rs || !rs->began_with)
		return 0;
	more = div_u64((u64)n * rs->grew_by, rs->began_with);
	return min_t(u64, more, n / 2);
}

/* Decide whether to start a resize; returns true if one was started. */
static bool rht_plan(struct rhashtable *ht)
{
	struct bucket_table *tbl = rht_dereference(ht->tbl, ht);
	unsigned int size = rht_wanted_size(ht, tbl), how = 0, n;
	struct rht_resizer *rs;
	bool reseed = false;

	if (test_bit(RHT_TBL_LONG_CHAIN, &tbl->flags)) {
		rs = rht_get_rs(ht);
		if (!rs) {
			/* Let the next long chain ask again. */
			clear_bit(RHT_TBL_LONG_CHAIN, &tbl->flags);
			return false;
		}
		if (!ht->p.hash_rnd)
			reseed = rht_may_reseed(rs);
		/* A fixed seed cannot be changed; stop asking. */
		if (reseed || ht->p.hash_rnd) {
			clear_bit(RHT_TBL_LONG_CHAIN, &tbl->flags);
			rs->stats.long_chains++;
		}
	}
	if (tbl->nest)
		return !rht_begin(ht, rht_fit_size(ht, rhashtable_count(ht)),
				  reseed, RHT_BEGIN_FLAT);
	/*
	 * Behind (a burst of inserts while the worker slept, or a doubling
	 * that waited for grace periods while inserts kept coming): above
	 * one object per bucket, unzipping takes one pass per run of
	 * objects, and each pass a grace period in which the chains grow
	 * again, and every pass walks the pairs it has not parted yet.
	 * Move everything straight into an array of the right size instead,
	 * also when that is twice the size: one move per object costs the
	 * worker less than the passes.
	 */
	if (size > tbl->size && !ht->p.grow_decision) {
		n = rhashtable_count(ht);
		how = RHT_BEGIN_AUTO;
		if (n > tbl->size) {
			size = rht_fit_size(ht, n + rht_expected(ht, n));
			how = RHT_BEGIN_MOVE;
		}
	}
	if (!reseed && size == tbl->size)
		return false;
	return !rht_begin(ht, size, reseed, how);
}

static void rht_worker(struct work_struct *work)
{
	struct rhashtable *ht = container_of(work, struct rhashtable,
					     run_work);

	mutex_lock(&ht->mutex);
	if (!test_bit(RHT_TBL_DYING, &rht_dereference(ht->tbl, ht)->flags))
		while (rht_drive(ht, RHT_WAIT_ASYNC) && rht_plan(ht))
			;
	mutex_unlock(&ht->mutex);
}

/* ------------------------------------------------------------------ */
/* Set-up and tear-down                                                */
/* ------------------------------------------------------------------ */

static u32 rht_jhash2(const void *key, u32 len, u32 seed)
{
	return jhash2(key, len / sizeof(u32), seed);
}

static u32 rht_jhash(const void *key, u32 len, u32 seed)
{
	return jhash(key, len, seed);
}

static int rht_check_params(const struct rhashtable_params *p)
{
	unsigned int min, max;

	if (!p->key_len && !p->obj_hashfn)
		return -EINVAL;
	if (p->obj_hashfn && !p->obj_cmpfn)
		return -EINVAL;
	if (p->max_shift > RHT_MAX_SHIFT)
		return -EINVAL;
	max = p->max_size ? p->max_size : p->max_shift ? 1U << p->max_shift : 0;
	if (!max)
		return 0;
	/*
	 * The bounds as the table uses them: powers of two, rounded inwards
	 * (5 and 6 become 8 and 4).  They must leave at least one size.
	 */
	min = roundup_pow_of_two(max_t(unsigned int, p->min_size, RHT_MIN_SIZE));
	max = rounddown_pow_of_two(max_t(unsigned int, max, RHT_MIN_SIZE));
	return min > max ? -EINVAL : 0;
}

/**
 * rhashtable_init - initialise a table
 * @ht: the table
 * @params: how the table hashes, compares and sizes itself; copied
 *
 * Call through rhashtable_init(), which charges the table's memory to the
 * caller under allocation profiling.  The key is either @key_len bytes at
 * @key_offset in the object, compared with memcmp() unless @obj_cmpfn is
 * given, or the whole object, hashed by @obj_hashfn and compared by
 * @obj_cmpfn (both required then).  @hash_rnd 0 asks for a random seed.
 *
 * Context: process context, may sleep.
 * Return: 0; -EINVAL if @params are inconsistent (neither @key_len nor
 * @obj_hashfn, @obj_hashfn without @obj_cmpfn, @max_shift above 30, no
 * power of two between @min_size and @max_size, or 1 << @max_shift when
 * @max_size is 0); -ENOMEM.  On error the
 * table is left unusable and nothing is allocated.
 */
int rhashtable_init_noprof(struct rhashtable *ht,
			   const struct rhashtable_params *params)
{
	struct bucket_table *tbl;
	unsigned int size;
	int err;

	err = rht_check_params(params);
	if (err)
		return err;

	memset(ht, 0, sizeof(*ht));
	mutex_init(&ht->mutex);
	spin_lock_init(&ht->lock);
	ht->p = *params;
	alloc_tag_record(ht->alloc_tag);

	if (ht->p.max_shift && !ht->p.max_size)
		ht->p.max_size = 1U << ht->p.max_shift;
	if (ht->p.max_size)
		ht->p.max_size = rounddown_pow_of_two(max(ht->p.max_size,
							  RHT_MIN_SIZE));
	ht->p.min_size = max_t(unsigned int, ht->p.min_size, RHT_MIN_SIZE);
	ht->p.min_size = roundup_pow_of_two(ht->p.min_size);
	ht->max_elems = 1U << 31;
	if (ht->p.max_size && ht->p.max_size < ht->max_elems / 2)
		ht->max_elems = ht->p.max_size * 2;

	ht->key_len = ht->p.key_len;
	if (!ht->p.hashfn)
		ht->p.hashfn = ht->key_len % sizeof(u32) ? rht_jhash : rht_jhash2;

	size = ht->p.nelem_hint ? rht_fit_size(ht, ht->p.nelem_hint) :
				  clamp(RHT_DEFAULT_SIZE, ht->p.min_size,
					rht_max_size(ht));
	tbl = rht_alloc_table(ht, size, 1);
	if (!tbl)
		tbl = rht_alloc_table(ht, ht->p.min_size, 0);
	if (!tbl) {
		mutex_destroy(&ht->mutex);
		return -ENOMEM;
	}
	tbl->hash_rnd = ht->p.hash_rnd ? ht->p.hash_rnd : get_random_u32();
	RCU_INIT_POINTER(ht->tbl, tbl);
	INIT_WORK(&ht->run_work, rht_worker);
	return 0;
}
EXPORT_SYMBOL_GPL(rhashtable_init_noprof);

/**
 * rhltable_init - initialise a table whose keys may repeat
 * @hlt: the table
 * @params: as for rhashtable_init()
 *
 * Context: process context, may sleep.
 * Return: as for rhashtable_init().
 */
int rhltable_init_noprof(struct rhltable *hlt,
			 const struct rhashtable_params *params)
{
	int err = rhashtable_init_noprof(&hlt->ht, params);

	if (!err)
		hlt->ht.rhlist = true;
	return err;
}
EXPORT_SYMBOL_GPL(rhltable_init_noprof);

static void rht_free_objects(struct rhashtable *ht, struct bucket_table *tbl,
			     void (*free_fn)(void *ptr, void *arg), void *arg)
{
	struct rhash_head *he, *next;
	struct rhlist_head *l, *ln;
	unsigned int i;

	for (i = 0; i < tbl->size; i++) {
		rht_prefetch_first(tbl, i + RHT_PREFETCH_AHEAD);
		for (he = rht_first_idle(ht, tbl, i); !rht_is_a_nulls(he);
		     he = next) {
			next = rht_dereference(he->next, ht);
			if (!ht->rhlist) {
				free_fn(rht_obj(ht, he), arg);
				continue;
			}
			l = container_of(he, struct rhlist_head, rhead);
			for (; l; l = ln) {
				ln = rht_dereference(l->next, ht);
				free_fn(rht_obj(ht, &l->rhead), arg);
			}
		}
		cond_resched();
	}
}

/**
 * rhashtable_free_and_destroy - free every object, then the table
 * @ht: the table
 * @free_fn: called once for every object still in the table, or %NULL
 * @arg: passed to @free_fn
 *
 * Stops the worker (finishing a resize in progress without waiting for
 * readers: there must be none) and frees the bucket arrays.  Walkers must
 * have exited.  Does not wait for a grace period: an RCU callback of the
 * worker that is still queued owns what it needs and frees it.
 *
 * Context: process context, may sleep; no concurrent users of @ht.
 */
void rhashtable_free_and_destroy(struct rhashtable *ht,
				 void (*free_fn)(void *ptr, void *arg),
				 void *arg)
{
	struct bucket_table *tbl;
	struct rht_resizer *rs;
	bool handed_over = false;

	/*
	 * The worker may still be queued by its timer and its RCU callback,
	 * and run, until both have let go of @ht (below).  Until then it finds
	 * the array marked dying and does nothing.
	 */
	cancel_work_sync(&ht->run_work);
	mutex_lock(&ht->mutex);
	rht_drive(ht, RHT_WAIT_NONE);
	tbl = rht_dereference(ht->tbl, ht);
	set_bit(RHT_TBL_DYING, &tbl->flags);
	rs = tbl->rs;
	if (free_fn)
		rht_free_objects(ht, tbl, free_fn, arg);
	mutex_unlock(&ht->mutex);

	if (rs) {
		/* After this neither of them queues the worker again. */
		timer_shutdown_sync(&rs->retry);
		spin_lock_bh(&rs->lock);
		rs->ht = NULL;
		handed_over = rs->gp_armed;
		spin_unlock_bh(&rs->lock);
		if (!handed_over)
			kfree(rs);	/* else rht_gp_cb() frees it */
		/* What either of them queued before it let go. */
		cancel_work_sync(&ht->run_work);
	}
	/*
	 * Without @rs nothing could queue the worker since the first
	 * cancel_work_sync(): updates are over, and only the timer and the
	 * RCU callback of @rs queue it besides them.
	 */
	rht_free_table(tbl);
	mutex_destroy(&ht->mutex);
}
EXPORT_SYMBOL_GPL(rhashtable_free_and_destroy);

/**
 * rhashtable_destroy - destroy a table without touching its objects
 * @ht: the table
 *
 * Context: process context, may sleep; no concurrent users of @ht.
 */
void rhashtable_destroy(struct rhashtable *ht)
{
	rhashtable_free_and_destroy(ht, NULL, NULL);
}
EXPORT_SYMBOL_GPL(rhashtable_destroy);

/**
 * rhashtable_get_stats - read a table's counters
 * @ht: the table
 * @st: filled in
 *
 * Context: process context, may sleep (takes the table's mutex).
 */
void rhashtable_get_stats(struct rhashtable *ht, struct rhashtable_stats *st)
{
	struct bucket_table *tbl;

	mutex_lock(&ht->mutex);
	tbl = rht_dereference(ht->tbl, ht);
	if (tbl->rs) {
		*st = tbl->rs->stats;
	} else {
		memset(st, 0, sizeof(*st));
		st->nested = !!tbl->nest;
	}
	mutex_unlock(&ht->mutex);
}
EXPORT_SYMBOL_GPL(rhashtable_get_stats);

/* ------------------------------------------------------------------ */
/* Walkers                                                             */
/* ------------------------------------------------------------------ */

/*
 * A stopped walk is "parked" on the walker list of its array, so that
 * rht_publish() can tell it the array was replaced (by clearing
 * walker.tbl).  @tbl NULL parks on the current array.  A walk may also be
 * in the array a rehash is filling, which becomes the current one later;
 * an array that is neither is stale: the walk is not parked, but cleared.
 * Context: RCU read lock held if @tbl is not NULL.
 */
static void rht_walker_park(struct rhashtable_iter *iter,
			    struct bucket_table *tbl)
{
	struct rhashtable *ht = iter->ht;
	struct bucket_table *cur;

	spin_lock(&ht->lock);
	cur = rcu_dereference_protected(ht->tbl, lockdep_is_held(&ht->lock));
	if (tbl && tbl != cur && tbl == rcu_dereference(cur->future_tbl))
		cur = tbl;
	if (!tbl || tbl == cur) {
		iter->walker.tbl = cur;
		list_add(&iter->walker.list, &cur->walkers);
	} else {
		iter->walker.tbl = NULL;
	}
	spin_unlock(&ht->lock);
}

/* Take a walk off its array's walker list, if it is still on one. */
static void rht_walker_unpark(struct rhashtable_iter *iter)
{
	struct rhashtable *ht = iter->ht;

	spin_lock(&ht->lock);
	if (iter->walker.tbl)
		list_del(&iter->walker.list);
	spin_unlock(&ht->lock);
}

/**
 * rhashtable_walk_enter - prepare a walk over a table
 * @ht: the table
 * @iter: the walk's state
 *
 * A walk returns every object present from its start to its end at least
 * once, and such an object twice only if an -EAGAIN came in between (an
 * object removed meanwhile and inserted again into a bucket the walk has
 * yet to reach is a new one, and comes back), after which it goes on: the
 * walk went back to the start of a bucket or of the table, and returns
 * again what it finds there.  That happens when the table was replaced by
 * a resize while the walk was stopped; when the object the walk stopped at
 * was removed or moved meanwhile; when an object of the walk's bucket (or
 * of one sharing its stripe) was removed or moved while the walk was in
 * the bucket, since the walk may stand on it; when the walk was carried
 * off its bucket, or an update may have carried it past part of it (see
 * rht_seq_bump()); and when a rehash moved objects under the walk, which
 * then goes on in the new array.  Each of these needs an update or a
 * resize to happen: a walk that keeps going ends.  A walk returns only
 * objects that were in the table at some time during the walk.
 * Call rhashtable_walk_exit() when done, also if the walk was abandoned.
 *
 * Context: process context; takes the table's walker lock.
 */
void rhashtable_walk_enter(struct rhashtable *ht, struct rhashtable_iter *iter)
{
	*iter = (struct rhashtable_iter){ .ht = ht };
	rht_walker_park(iter, NULL);
}
EXPORT_SYMBOL_GPL(rhashtable_walk_enter);

/**
 * rhashtable_walk_exit - end a walk
 * @iter: the walk's state
 *
 * Context: process context; takes the table's walker lock.
 */
void rhashtable_walk_exit(struct rhashtable_iter *iter)
{
	rht_walker_unpark(iter);
	iter->walker.tbl = NULL;
}
EXPORT_SYMBOL_GPL(rhashtable_walk_exit);

/* Stand before the first object of the walk's bucket. */
static void rht_walk_bucket_start(struct rhashtable_iter *iter)
{
	iter->p = NULL;
	iter->list = NULL;
	iter->skip = 0;
}

/* Go back to the first bucket of array @tbl. */
static void rht_walk_rewind(struct rhashtable_iter *iter,
			    struct bucket_table *tbl)
{
	iter->walker.tbl = tbl;
	iter->slot = 0;
	rht_walk_bucket_start(iter);
}

/**
 * rhashtable_walk_start_check - resume a walk
 * @iter: the walk's state
 *
 * Takes the RCU read lock, which rhashtable_walk_stop() releases; objects
 * returned in between stay valid until then.
 *
 * Context: process context; takes the RCU read lock and the walker lock.
 * Return: 0, or -EAGAIN if the table was replaced since the walk stopped
 * and the walk starts over.
 */
int rhashtable_walk_start_check(struct rhashtable_iter *iter)
	__acquires(RCU)
{
	rcu_read_lock();
	atomic_inc(&iter->ht->walks);
	smp_mb__after_atomic();		/* count, then links: rht_unlinked() */
	rht_walker_unpark(iter);
	if (iter->end_of_table || iter->walker.tbl)
		return 0;
	rht_walk_rewind(iter, rht_dereference_rcu(iter->ht->tbl, iter->ht));
	return -EAGAIN;
}
EXPORT_SYMBOL_GPL(rhashtable_walk_start_check);

/*
 * Is the walk's stopping point still where it was in its bucket?  An
 * object that was removed and inserted again meanwhile is found in the
 * bucket, but with another successor (inserts go to the head): from
 * there the walk would return objects a second time.
 */
static bool rht_walk_relocate(struct rhashtable_iter *iter,
			      struct bucket_table *tbl)
{
	struct rhash_lock_head __rcu *const *bkt = rht_bucket(tbl, iter->slot);
	struct rhash_head *he;
	struct rhlist_head *l;

	for (he = rht_head_rcu(tbl, bkt, iter->slot); !rht_is_a_nulls(he);
	     he = rcu_dereference(he->next)) {
		if (he != iter->p)
			continue;
		if (rcu_access_pointer(he->next) != iter->p_next)
			return false;
		if (!iter->ht->rhlist)
			return true;
		for (l = container_of(he, struct rhlist_head, rhead); l;
		     l = rcu_dereference(l->next))
			if (l == iter->list)
				return true;
		return false;
	}
	return false;
}

/*
 * A chain may run through the objects of another bucket: in the old array
 * of a halving it continues into its sibling, in the new array of a
 * doubling it shares objects with its sibling until unzipped.  A walk
 * that stood on such a shared tail when the doubling ended is still
 * there, although no resize runs any more, so the test does not depend
 * on one running (found by the model, lab/model).  A walk returns an
 * object only from the bucket it hashes to.
 */
static bool rht_walk_foreign(struct rhashtable_iter *iter,
			     struct bucket_table *tbl, struct rhash_head *he)
{
	return rht_index_of(iter->ht, tbl, he) != iter->slot;
}

/* Go back to the start of the walk's bucket, saying so. */
static void *rht_walk_redo(struct rhashtable_iter *iter)
{
	rht_walk_bucket_start(iter);
	return ERR_PTR(-EAGAIN);
}

/*
 * Before the walk returns an object it reached through a link: was the
 * bucket's stripe bumped since the walk began the bucket?  The walk may
 * have followed the link of an object that left its chain and was
 * linked elsewhere (rht_unlinked(), rht_move_bucket()): back to the head
 * of this bucket, into a bucket walked already, into another table.  So
 * it goes back to the start of the bucket, saying so.
 */
static bool rht_walk_moved(struct rhashtable_iter *iter,
			   struct bucket_table *tbl)
{
	return rht_seq_retry(tbl, iter->slot, iter->seq);
}

static void *rht_walk_take(struct rhashtable_iter *iter,
			   struct rhash_head *he)
{
	iter->p = he;
	iter->list = iter->ht->rhlist ?
		     container_of(he, struct rhlist_head, rhead) : NULL;
	iter->live = true;
	iter->skip++;
	return rht_obj(iter->ht, he);
}

/* Find the object after the walk's position; @advance false: stay. */
static void *rht_walk(struct rhashtable_iter *iter, bool advance)
{
	struct bucket_table *tbl = iter->walker.tbl, *next;
	struct rhashtable *ht = iter->ht;
	struct rhlist_head *l;
	struct rhash_head *he;

	if (iter->end_of_table)
		return NULL;

	if (iter->p && !iter->live) {
		iter->seq = rht_seq_begin(tbl, iter->slot);
		/* Stopped at an object that left: redo the bucket. */
		if (!rht_walk_relocate(iter, tbl))
			return rht_walk_redo(iter);
		iter->live = true;
		if (!advance)
			return rht_obj(ht, iter->list ? &iter->list->rhead :
							iter->p);
	}

	if (iter->p) {
		if (iter->list) {
			l = rcu_dereference(iter->list->next);
			if (l) {
				if (rht_walk_moved(iter, tbl))
					return rht_walk_redo(iter);
				iter->list = l;
				return rht_obj(ht, &l->rhead);
			}
		}
		he = rcu_dereference(iter->p->next);
	} else {
		iter->seq = rht_seq_begin(tbl, iter->slot);
		he = rht_head_rcu(tbl, rht_bucket(tbl, iter->slot), iter->slot);
	}

	for (;;) {
		for (; !rht_is_a_nulls(he); he = rcu_dereference(he->next)) {
			if (rht_walk_foreign(iter, tbl, he))
				continue;
			if (rht_walk_moved(iter, tbl))
				return rht_walk_redo(iter);
			return rht_walk_take(iter, he);
		}

		/* Carried off, or maybe past objects of the bucket: redo it. */
		if (!rht_nulls_fits(he, tbl, iter->slot) ||
		    rht_seq_retry(tbl, iter->slot, iter->seq))
			return rht_walk_redo(iter);
		rht_walk_bucket_start(iter);
		if (++iter->slot < tbl->size) {
			iter->seq = rht_seq_begin(tbl, iter->slot);
			he = rht_head_rcu(tbl, rht_bucket(tbl, iter->slot),
					  iter->slot);
			continue;
		}
		/*
		 * A rehash moves objects out of this array into the next one,
		 * maybe before it is published: go on there, so that the walk
		 * ends even if the mover cannot run meanwhile.
		 */
		smp_rmb();
		next = rcu_dereference(tbl->future_tbl);
		if (next && next->kind == RHT_KIND_REHASH) {
			rht_walk_rewind(iter, next);
			return ERR_PTR(-EAGAIN);
		}
		iter->end_of_table = true;
		return NULL;
	}
}

/**
 * rhashtable_walk_next - the next object of a walk
 * @iter: the walk's state, between rhashtable_walk_start() and _stop()
 *
 * Context: under the RCU read lock taken by rhashtable_walk_start().
 * Return: the next object; %NULL at the end; ERR_PTR(-EAGAIN) when the walk
 * had to go back (see rhashtable_walk_enter()): call again to continue.
 */
void *rhashtable_walk_next(struct rhashtable_iter *iter)
{
	return rht_walk(iter, true);
}
EXPORT_SYMBOL_GPL(rhashtable_walk_next);

/**
 * rhashtable_walk_peek - the walk's current object, without advancing
 * @iter: the walk's state, between rhashtable_walk_start() and _stop()
 *
 * Returns the object the last rhashtable_walk_next() returned, or, if
 * there is none, the next one, which becomes the current one.
 *
 * Context: under the RCU read lock taken by rhashtable_walk_start().
 * Return: as for rhashtable_walk_next().
 */
void *rhashtable_walk_peek(struct rhashtable_iter *iter)
{
	if (iter->p && iter->live)
		return rht_obj(iter->ht, iter->list ? &iter->list->rhead :
						      iter->p);
	return rht_walk(iter, false);
}
EXPORT_SYMBOL_GPL(rhashtable_walk_peek);

/**
 * rhashtable_walk_stop - pause a walk
 * @iter: the walk's state
 *
 * Drops the RCU read lock; objects returned so far may be freed from now.
 *
 * Context: under the RCU read lock taken by rhashtable_walk_start().
 */
void rhashtable_walk_stop(struct rhashtable_iter *iter)
	__releases(RCU)
{
	iter->live = false;
	iter->p_next = iter->p ? rcu_dereference(iter->p->next) : NULL;
	if (iter->walker.tbl)
		rht_walker_park(iter, iter->walker.tbl);
	smp_mb__before_atomic();	/* the walk's last link, then uncount */
	atomic_dec(&iter->ht->walks);
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(rhashtable_walk_stop);

/* ------------------------------------------------------------------ */
/* The 3.17 interface                                                  */
/* ------------------------------------------------------------------ */

/* The caller's own lock, announced through @mutex_is_held. */
static void rht_assert_caller_lock(const struct rhashtable *ht)
{
#ifdef CONFIG_PROVE_LOCKING
	WARN_ON_ONCE(debug_locks && ht->p.mutex_is_held &&
		     !ht->p.mutex_is_held());
#endif
}

/**
 * rhashtable_hashfn - hash a key the way the table does
 * @ht: the table
 * @key: the key
 * @len: its length in bytes
 *
 * For rhashtable_lookup_compare().  The value depends on the table's seed:
 * compute it in the same RCU read-side critical section as the lookup.
 *
 * Context: rcu_read_lock() held.
 * Return: the full 32-bit hash (not a bucket index).
 */
u32 rhashtable_hashfn(const struct rhashtable *ht, const void *key, u32 len)
{
	struct rhashtable *t = (struct rhashtable *)ht;
	struct bucket_table *tbl = rht_dereference_rcu(t->tbl, t);

	return ht->p.hashfn(key, len, tbl->hash_rnd);
}
EXPORT_SYMBOL_GPL(rhashtable_hashfn);

/**
 * rhashtable_obj_hashfn - hash an object the way the table does
 * @ht: the table
 * @ptr: the object
 *
 * Context: rcu_read_lock() held.
 * Return: the full 32-bit hash of the object.
 */
u32 rhashtable_obj_hashfn(const struct rhashtable *ht, void *ptr)
{
	struct rhashtable *t = (struct rhashtable *)ht;
	struct bucket_table *tbl = rht_dereference_rcu(t->tbl, t);

	if (ht->p.obj_hashfn)
		return ht->p.obj_hashfn(ptr, ht->p.key_len, tbl->hash_rnd);
	return ht->p.hashfn((char *)ptr + ht->p.key_offset, ht->p.key_len,
			    tbl->hash_rnd);
}
EXPORT_SYMBOL_GPL(rhashtable_obj_hashfn);

/**
 * rhashtable_insert - 3.17 insert, keys need not be unique
 * @ht: the table
 * @node: the object's hook
 *
 * The caller serialises its updates (lockdep checks @mutex_is_held).
 *
 * Context: any context.
 * Return: 0, or -E2BIG if the table holds its maximum number of objects.
 */
int rhashtable_insert(struct rhashtable *ht, struct rhash_head *node)
{
	rht_assert_caller_lock(ht);
	return PTR_ERR_OR_ZERO(rhashtable_insert_slow(ht, NULL, node));
}
EXPORT_SYMBOL_GPL(rhashtable_insert);

/**
 * rhashtable_remove - 3.17 remove
 * @ht: the table
 * @node: the object's hook
 *
 * Context: any context.
 * Return: true if @node was found and removed.
 */
bool rhashtable_remove(struct rhashtable *ht, struct rhash_head *node)
{
	rht_assert_caller_lock(ht);
	return !rhashtable_remove_slow(ht, node, ht->rhlist);
}
EXPORT_SYMBOL_GPL(rhashtable_remove);

/**
 * rhashtable_remove_pprev - 3.17 remove, given the link that points at @obj
 * @ht: the table
 * @obj: the object's hook
 * @pprev: the next pointer of @obj's predecessor, found under the caller's
 *	lock by walking the chain
 *
 * Uses @pprev when it still points at @obj and no resize runs; otherwise
 * falls back to rhashtable_remove().
 *
 * Context: any context.
 */
void rhashtable_remove_pprev(struct rhashtable *ht, struct rhash_head *obj,
			     struct rhash_head __rcu **pprev)
{
	struct rht_dom d;
	bool done = false;

	rht_assert_caller_lock(ht);
	if (ht->rhlist) {
		rhashtable_remove(ht, obj);
		return;
	}
	rcu_read_lock();
	rht_dom_lock(ht, &d, obj);
	if (d.phase == RHT_PH_NONE && (void *)pprev != (void *)d.ub &&
	    rht_locked(*pprev, d.u) == obj) {
		rcu_assign_pointer(*pprev, rht_next(d.u, obj));
		done = true;
	}
	rht_dom_unlock(&d);
	if (done) {
		if (rht_unlinked(ht, 1))
			rht_dom_bump(&d);
		if (rht_shrink_wanted(ht, d.u))
			rhashtable_kick(ht, 0);
	}
	rcu_read_unlock();
	if (!done)
		rhashtable_remove(ht, obj);
}
EXPORT_SYMBOL_GPL(rhashtable_remove_pprev);

/* Explicit resize to @size, waiting for it to finish. */
static int rht_resize_now(struct rhashtable *ht, bool grow)
{
	struct bucket_table *tbl;
	int err = 0;

	mutex_lock(&ht->mutex);
	rht_drive(ht, RHT_WAIT_SYNC);
	tbl = rht_dereference(ht->tbl, ht);
	if (grow && tbl->size >= rht_max_size(ht))
		err = -E2BIG;
	else if (!grow && tbl->size <= ht->p.min_size)
		err = -ERANGE;
	else
		err = rht_begin(ht, grow ? tbl->size * 2 : tbl->size / 2,
				false, 0);
	if (!err)
		rht_drive(ht, RHT_WAIT_SYNC);
	mutex_unlock(&ht->mutex);
	return err;
}

#if IS_ENABLED(CONFIG_RHASHTABLE_KUNIT_TEST)
/**
 * rht_test_resize - resize to any size now, maybe with a new seed
 * @ht: the table
 * @size: the new number of buckets, a power of two within the limits
 * @reseed: pick a new seed (the objects are moved, not unzipped or zipped)
 *
 * Like rhashtable_expand(), for the tests: it reaches the rehash, which
 * otherwise only the worker starts.
 *
 * Context: process context, may sleep.
 * Return: 0 or -ENOMEM.
 */
int rht_test_resize(struct rhashtable *ht, unsigned int size, bool reseed)
{
	int err;

	mutex_lock(&ht->mutex);
	rht_drive(ht, RHT_WAIT_SYNC);
	err = rht_begin(ht, size, reseed, 0);
	if (!err)
		rht_drive(ht, RHT_WAIT_SYNC);
	mutex_unlock(&ht->mutex);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(rht_test_resize);

/* The state of the worker's current step, without its mutex. */
static struct rht_resizer *rht_test_rs(struct rhashtable *ht)
{
	struct rht_resizer *rs;

	rcu_read_lock();
	rs = READ_ONCE(rht_dereference_rcu(ht->tbl, ht)->rs);
	rcu_read_unlock();
	return rs;	/* freed only by destruction */
}

/**
 * rht_test_resize_step - where the resize in progress stands
 * @ht: the table
 *
 * Context: any context; exact under @ht->mutex.
 * Return: 0 if no resize runs, else the worker's next step (enum
 * rht_step above).
 */
unsigned int rht_test_resize_step(struct rhashtable *ht)
{
	struct rht_resizer *rs = rht_test_rs(ht);

	return rs ? READ_ONCE(rs->step) : RHT_STEP_IDLE;
}
EXPORT_SYMBOL_IF_KUNIT(rht_test_resize_step);

/**
 * rht_test_retry_now - retry a failed allocation without its back-off
 * @ht: the table
 *
 * For tests that stop failing allocations and then wait for the resize.
 *
 * Context: any context.
 */
void rht_test_retry_now(struct rhashtable *ht)
{
	struct rht_resizer *rs = rht_test_rs(ht);

	if (rs && timer_pending(&rs->retry))
		mod_timer(&rs->retry, jiffies);
}
EXPORT_SYMBOL_IF_KUNIT(rht_test_retry_now);

/*
 * Check every chain the readers of @ht can reach.  The caller makes sure
 * that nothing changes meanwhile: no update runs, and the worker is idle
 * or stopped at one of its test points.
 *
 * A path may only hold objects of its own bucket, except where a resize
 * lets it run through another's: a new bucket of a doubling through its
 * sibling's objects, an old bucket of a halving into the other half of
 * its pair.  It must end on a marker that fits (rht_nulls_fits()).  And
 * the objects that readers find under their own buckets, in the current
 * array (and in the one a rehash is filling), are exactly @nelems many.
 */
static unsigned int rht_validate_array(struct rhashtable *ht,
				       struct bucket_table *tbl,
				       unsigned long bound,
				       unsigned long *own, int *bad)
{
	unsigned int i, idx, sibling_bit = 0;
	struct bucket_table *fut;
	struct rhash_head *he;
	unsigned long steps;

	fut = rcu_dereference(tbl->future_tbl);
	if (tbl->kind == RHT_KIND_GROW &&
	    rcu_access_pointer(tbl->past_tbl))
		sibling_bit = tbl->size / 2;
	else if (fut && fut->kind == RHT_KIND_SHRINK)
		sibling_bit = fut->size;

	for (i = 0; i < tbl->size; i++) {
		steps = 0;
		for (he = rht_head_rcu(tbl, rht_bucket(tbl, i), i);
		     !rht_is_a_nulls(he); he = rcu_dereference(he->next)) {
			if (++steps > bound) {
				pr_err("rhashtable: %p: bucket %u of %u: cycle\n",
				       ht, i, tbl->size);
				++*bad;
				break;
			}
			idx = rht_index_of(ht, tbl, he);
			if (idx == i) {
				++*own;
			} else if (!sibling_bit || (idx ^ i) != sibling_bit) {
				pr_err("rhashtable: %p: bucket %u of %u holds an object of bucket %u\n",
				       ht, i, tbl->size, idx);
				++*bad;
			}
		}
		if (rht_is_a_nulls(he) && !rht_nulls_fits(he, tbl, i)) {
			pr_err("rhashtable: %p: bucket %u of %u ends on a foreign marker\n",
			       ht, i, tbl->size);
			++*bad;
		}
	}
	return *bad;
}

/**
 * rht_test_validate - check the structure of a table, for the tests
 * @ht: the table; nothing may change it during the call
 *
 * Context: any context.
 * Return: the number of problems found (each is printed), 0 if none.
 */
int rht_test_validate(struct rhashtable *ht)
{
	unsigned long nelems = atomic_read(&ht->nelems), own = 0, bound;
	struct bucket_table *tbl, *fut;
	int bad = 0;

	guard(rcu)();
	tbl = rcu_dereference(ht->tbl);
	fut = rcu_dereference(tbl->future_tbl);
	bound = nelems + 1;
	rht_validate_array(ht, tbl, bound, &own, &bad);
	if (fut && fut->kind == RHT_KIND_REHASH)
		rht_validate_array(ht, fut, bound, &own, &bad);
	if (own != nelems) {
		pr_err("rhashtable: %p: %lu objects in their buckets, nelems %lu\n",
		       ht, own, nelems);
		bad++;
	}
	if (!fut && !rcu_access_pointer(tbl->past_tbl) && tbl->phase) {
		pr_err("rhashtable: %p: idle, but in phase %u\n", ht,
		       tbl->phase);
		bad++;
	}
	return bad;
}
EXPORT_SYMBOL_IF_KUNIT(rht_test_validate);

/**
 * rht_test_lock_held - would the chain accessors accept the caller's locks?
 * @tbl: a bucket array of a table
 *
 * The condition rht_locked() gives lockdep, for the tests to check that it
 * is false without a bucket lock and true with one.
 *
 * Context: any context.
 * Return: whether a bucket lock of @tbl, or of an array linked to it, is
 * held (always true without CONFIG_PROVE_LOCKING or once lockdep is off).
 */
bool rht_test_lock_held(const struct bucket_table *tbl)
{
	return rht_lock_held(tbl);
}
EXPORT_SYMBOL_IF_KUNIT(rht_test_lock_held);
#endif

/**
 * rhashtable_expand - double the table now
 * @ht: the table
 *
 * Unzips every chain and returns once readers no longer see the old
 * bucket array.  A resize already running is finished first.
 *
 * Context: process context, may sleep.
 * Return: 0; -E2BIG at the maximum size; -ENOMEM if the bigger bucket
 * array could not be allocated (the worker will retry on its own).
 */
int rhashtable_expand(struct rhashtable *ht)
{
	return rht_resize_now(ht, true);
}
EXPORT_SYMBOL_GPL(rhashtable_expand);

/**
 * rhashtable_shrink - halve the table now
 * @ht: the table
 *
 * Zips pairs of chains and returns once the old bucket array is retired.
 *
 * Context: process context, may sleep.
 * Return: 0; -ERANGE at the minimum size; -ENOMEM.
 */
int rhashtable_shrink(struct rhashtable *ht)
{
	return rht_resize_now(ht, false);
}
EXPORT_SYMBOL_GPL(rhashtable_shrink);

/**
 * rhashtable_lookup_seed - 3.17 lookup with the table's own parameters
 * @ht: the table
 * @key: the key
 *
 * Reached as two-argument rhashtable_lookup().
 *
 * Context: rcu_read_lock() held.
 * Return: the object, or %NULL.
 */
void *rhashtable_lookup_seed(const struct rhashtable *ht, const void *key)
{
	struct rhashtable *t = (struct rhashtable *)ht;
	struct rhash_head *he = __rhashtable_lookup(t, key, t->p);

	return he ? rht_obj(t, he) : NULL;
}
EXPORT_SYMBOL_GPL(rhashtable_lookup_seed);

/**
 * rhashtable_lookup_compare - 3.17 lookup with a caller's comparison
 * @ht: the table
 * @hash: hash of the wanted key, from rhashtable_hashfn()
 * @compare: returns true for the wanted object (object, @arg)
 * @arg: passed to @compare
 *
 * A fresh seed chosen between rhashtable_hashfn() and this call (only
 * tables with a random seed reseed, after a hash flood) can make the
 * lookup miss; tables that need exact results set @hash_rnd.
 *
 * Context: rcu_read_lock() held.
 * Return: the first object @compare accepts, or %NULL.
 */
void *rhashtable_lookup_compare(const struct rhashtable *ht, u32 hash,
				bool (*compare)(void *, void *), void *arg)
{
	struct rhashtable *t = (struct rhashtable *)ht;
	struct rhash_lock_head __rcu *const *bkt;
	struct bucket_table *tbl;
	struct rhash_head *he;
	unsigned int idx, seq;

	tbl = rht_dereference_rcu(t->tbl, t);
	do {
		idx = rht_bucket_index(tbl, hash);
		bkt = rht_bucket(tbl, idx);
		do {
			seq = rht_seq_begin(tbl, idx);
			for (he = rht_head_rcu(tbl, bkt, idx);
			     !rht_is_a_nulls(he);
			     he = rcu_dereference(he->next))
				if (compare(rht_obj(t, he), arg))
					return rht_obj(t, he);
		} while (!rht_nulls_fits(he, tbl, idx) ||
			 rht_seq_retry(tbl, idx, seq));
		/* As in __rhashtable_lookup(): a moved object is in U. */
		smp_rmb();
		tbl = rht_dereference_rcu(tbl->future_tbl, t);
	} while (tbl);
	return NULL;
}
EXPORT_SYMBOL_GPL(rhashtable_lookup_compare);

/*
 * The 3.17 decision hooks.  The header's macros of the same names pick
 * between these and the 6.12 checks; from here on the names are the
 * functions.
 */
#undef rht_grow_above_75
#undef rht_shrink_below_30

/**
 * rht_grow_above_75 - 3.17 grow decision: more than 75% load
 * @ht: the table
 * @new_size: the current number of buckets
 *
 * Usable as &rhashtable_params.grow_decision.  Called with a bucket array
 * instead of a size, the name gives the 6.12 check (see rhashtable.h).
 *
 * Context: any context.
 * Return: whether the table should double.
 */
bool rht_grow_above_75(const struct rhashtable *ht, size_t new_size)
{
	unsigned int n = max(atomic_read(&ht->nelems), 0);

	return rht_load_above_75(n, new_size) && rht_may_grow(ht, new_size);
}
EXPORT_SYMBOL_GPL(rht_grow_above_75);

/**
 * rht_shrink_below_30 - 3.17 shrink decision: less than 30% load
 * @ht: the table
 * @new_size: the current number of buckets
 *
 * Usable as &rhashtable_params.shrink_decision.
 *
 * Context: any context.
 * Return: whether the table should halve.
 */
bool rht_shrink_below_30(const struct rhashtable *ht, size_t new_size)
{
	unsigned int n = max(atomic_read(&ht->nelems), 0);

	return rht_load_below_30(n, new_size) && new_size > ht->p.min_size;
}
EXPORT_SYMBOL_GPL(rht_shrink_below_30);

/* ------------------------------------------------------------------ */
/* Lockdep                                                             */
/* ------------------------------------------------------------------ */

#ifdef CONFIG_PROVE_LOCKING
/**
 * lockdep_rht_mutex_is_held - may the caller change the table's arrays?
 * @ht: the table
 *
 * True with the table's mutex held, or the lock the caller announced
 * through @mutex_is_held.
 *
 * Return: nonzero if the lock is held (or lockdep is off).
 */
int lockdep_rht_mutex_is_held(struct rhashtable *ht)
{
	if (!debug_locks)
		return 1;
	if (ht->p.mutex_is_held && ht->p.mutex_is_held())
		return 1;
	return lockdep_is_held(&ht->mutex);
}
EXPORT_SYMBOL_GPL(lockdep_rht_mutex_is_held);

/**
 * lockdep_rht_bucket_is_held - does the caller hold a bucket's lock?
 * @tbl: the bucket array
 * @hash: the bucket index
 *
 * Return: nonzero if the lock is held (or lockdep is off).
 */
int lockdep_rht_bucket_is_held(const struct bucket_table *tbl, u32 hash)
{
	if (!debug_locks)
		return 1;
	return lock_is_held(&tbl->dep_map) &&
	       bit_spin_is_locked(0, (unsigned long *)rht_bucket(tbl, hash));
}
EXPORT_SYMBOL_GPL(lockdep_rht_bucket_is_held);
#endif
