/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resizable, RCU-protected hash tables ("relativistic" hash tables).
 *
 * Lookups take no lock and never block; they run under rcu_read_lock() and
 * are not slowed down by a resize.  Updaters take a bit lock stored in the
 * bucket they change, so updates to different buckets proceed in parallel.
 * A deferred worker resizes the table: a doubling "unzips" every chain in
 * place into the two chains of the bigger table, a halving "zips" two chains
 * into one, and in both cases every object keeps its single next pointer.
 *
 * The fast paths are inline here so that the parameters, which callers pass
 * as compile-time constants, fold into the code.  Resizes, walkers and the
 * paths taken while a resize runs live in lib/rhashtable.c.
 *
 * Documentation/core-api/rhashtable.rst describes the design, the locking
 * rules and the guarantees a lookup or a walk gets.
 */
#ifndef _LINUX_RHASHTABLE_H
#define _LINUX_RHASHTABLE_H

#include <linux/rhashtable-types.h>

#include <linux/args.h>
#include <linux/bit_spinlock.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/jhash.h>
#include <linux/list_nulls.h>
#include <linux/lockdep.h>
#include <linux/processor.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>

/* Readers may hold any flavour of RCU read lock, or run preempt-off. */
#define rht_deref_any(p)	rcu_dereference_check(p, rcu_read_lock_any_held())

/*
 * A bucket holds the first object of its chain with bit 0 used as the
 * bucket's lock.  The pointer stored there is typed as this empty structure
 * so that nobody follows it without clearing the lock bit first.
 */
struct rhash_lock_head {};

/*
 * How a bucket array was made from the one before it; fixed once the array
 * is reachable by readers.  The marker rules of a reader depend on it.
 */
enum rht_kind {
	RHT_KIND_FIRST,		/* made by rhashtable_init() */
	RHT_KIND_GROW,		/* a doubling: chains unzipped in place */
	RHT_KIND_SHRINK,	/* a halving: pairs of chains zipped */
	RHT_KIND_REHASH,	/* objects moved in one by one */
};

/*
 * Counters that readers check before they believe a miss (see "Nulls
 * markers" below).  An array of n buckets has min(RHT_SEQ_STRIPES, n / 2)
 * of them: the two buckets of a doubling's or halving's pair, which differ
 * only in their top index bit, always share one.
 */
#define RHT_SEQ_STRIPES		16U

struct rht_resizer;

/**
 * struct bucket_table - one bucket array of a table
 * @size: number of buckets, a power of two
 * @shift: log2 of @size
 * @kind: how the array was made (enum rht_kind)
 * @phase: which rules updaters follow during the resize (lib/rhashtable.c)
 * @seq_mask: stripe of bucket i in @seq is i & @seq_mask
 * @nest: 0 for a flat array; otherwise the number of index bits resolved
 *	by the top level of an array built from page-sized pieces
 * @hash_rnd: seed folded into every hash computed for this array
 * @future_tbl: the array that replaces this one, once a resize started
 * @past_tbl: while a resize into this array has not finished, the array it
 *	replaces; updaters take the older array's bucket lock first
 * @walkers: walkers registered on this array (under the table's lock)
 * @flags: notes to the worker (RHT_TBL_* bits in lib/rhashtable.c)
 * @rs: the table's resize state, once it has resized (under the mutex);
 *	every array made by a resize inherits it
 * @rcu: frees the array once readers are done with it
 * @dep_map: lockdep map shared by all bucket locks of the array
 * @seq: bumped before an update links an object where a reader standing
 *	on it could be carried past part of its own chain without ending on
 *	a foreign marker; on a cache line of its own
 * @buckets: the buckets
 */
struct bucket_table {
	unsigned int			size;
	u8				shift;
	u8				kind;
	u8				phase;
	u8				seq_mask;
	unsigned int			nest;
	u32				hash_rnd;
	struct bucket_table __rcu	*future_tbl;
	struct bucket_table __rcu	*past_tbl;
	struct list_head		walkers;
	unsigned long			flags;
	struct rht_resizer		*rs;
	struct rcu_head			rcu;
	struct lockdep_map		dep_map;
	atomic_t			seq[RHT_SEQ_STRIPES] ____cacheline_aligned_in_smp;
	struct rhash_lock_head __rcu	*buckets[] ____cacheline_aligned_in_smp;
};

/*
 * Nulls markers.
 *
 * A chain does not end in NULL but in an odd value, a "nulls marker": the
 * address of its bucket with bit 0 set, RHT_NULLS_MARKER(), as in 6.12.
 * No two live buckets share an address, so a marker names one bucket of
 * one array of one table.  A lookup that finishes on the marker of another
 * bucket knows it was carried off its chain (the object it stood on was
 * removed and inserted elsewhere, or moved to a new array) and starts over.
 *
 * Two things make a resize different:
 *
 *  - Chains share tails.  In a doubling, the two buckets of a pair start
 *    two paths through the old array's chain, both ending on the old
 *    bucket's marker until they are unzipped; in a halving, the old
 *    array's first chain of a pair runs on into the second and ends on the
 *    new bucket's marker.  Those markers "fit" the buckets they cover (see
 *    rht_nulls_fits()).
 *
 *  - A marker that fits no longer proves that the reader stayed on its
 *    chain: an object it stood on may have been inserted at the head of the
 *    sibling's path, whose tail it shares, or in the middle of a zipped
 *    chain.  Every update that could do so first bumps the bucket's stripe
 *    in @seq, so a reader reads the stripe before its walk and believes a
 *    miss only if the stripe did not move (rht_seq_begin(), rht_seq_retry()).
 *    Hits never look at it again.
 */
#define RHT_NULLS_MARKER(ptr)		((void *)((unsigned long)(ptr) | 1UL))
#define INIT_RHT_NULLS_HEAD(ptr)	WRITE_ONCE(ptr, NULL)

static inline bool rht_is_a_nulls(const struct rhash_head *ptr)
{
	return (unsigned long)ptr & 1;
}

/*
 * A chain longer than this is treated as a sign of a hash flood: the
 * worker is asked to rebuild the table with a fresh seed.  Random chains
 * do not get this long, even in a table of 2^32 buckets.
 */
#define RHT_ELASTICITY	16u

/* The bucket of @hash: arrays are powers of two. */
static inline unsigned int
rht_bucket_index(const struct bucket_table *tbl, unsigned int hash)
{
	return (tbl->size - 1) & hash;
}

/* The object that embeds hook @he. */
static inline void *
rht_obj(const struct rhashtable *ht, const struct rhash_head *he)
{
	return (void *)((unsigned long)he - ht->p.head_offset);
}

/*
 * Hash @key.  With constant @params the branches fold away: a fixed key
 * length without a hash function becomes a direct jhash2()/jhash() call.
 */
static __always_inline unsigned int
rht_key_get_hash(struct rhashtable *ht, const void *key,
		 const struct rhashtable_params params, unsigned int hash_rnd)
{
	unsigned int len = params.key_len;

	if (params.hashfn)
		return params.hashfn(key, len ? len : ht->p.key_len, hash_rnd);
	if (!len)
		return ht->p.hashfn(key, ht->key_len, hash_rnd);
	if (len % sizeof(u32))
		return jhash(key, len, hash_rnd);
	return jhash2(key, len / sizeof(u32), hash_rnd);
}

static __always_inline unsigned int
rht_key_hashfn(struct rhashtable *ht, const struct bucket_table *tbl,
	       const void *key, const struct rhashtable_params params)
{
	return rht_bucket_index(tbl, rht_key_get_hash(ht, key, params,
						      tbl->hash_rnd));
}

static __always_inline unsigned int
rht_head_hashfn(struct rhashtable *ht, const struct bucket_table *tbl,
		const struct rhash_head *he,
		const struct rhashtable_params params)
{
	const char *obj = rht_obj(ht, he);
	unsigned int len = params.key_len ? params.key_len : ht->p.key_len;

	if (!params.obj_hashfn)
		return rht_key_hashfn(ht, tbl, obj + params.key_offset, params);
	return rht_bucket_index(tbl, params.obj_hashfn(obj, len,
						       tbl->hash_rnd));
}

/*
 * Load checks.  Updates change @nelems with one atomic each: an insert
 * counts its object before publishing it, a removal uncounts it after
 * unlinking it.  So @nelems never reads below the number of objects that
 * can be found, and never below zero, which users that read it directly
 * as an int rely on.  It may read one high per update in flight.
 */
static inline unsigned int rht_nelems_approx(const struct rhashtable *ht)
{
	return atomic_read(&ht->nelems);
}

/*
 * The sizing policy, used by the inline update paths, the worker and the
 * 3.17 decision hooks alike.  A table doubles once it holds more objects
 * than 3/4 of its buckets: chains then stay short enough that most
 * lookups touch one object.  It halves (with automatic_shrinking) below
 * 3/10: a doubling leaves 3/8 and a halving 3/5, both well inside the
 * band, so a table that hovers around one size does not flap.
 */
static inline bool rht_load_above_75(unsigned int n, size_t size)
{
	return n > size / 4 * 3;
}

static inline bool rht_load_below_30(unsigned int n, size_t size)
{
	return n < size * 3 / 10;
}

static inline bool rht_may_grow(const struct rhashtable *ht, size_t size)
{
	return !ht->p.max_size || size < ht->p.max_size;
}

static inline bool __rht_grow_above_75(const struct rhashtable *ht,
				       const struct bucket_table *tbl)
{
	return rht_load_above_75(rht_nelems_approx(ht), tbl->size) &&
	       rht_may_grow(ht, tbl->size);
}

static inline bool __rht_shrink_below_30(const struct rhashtable *ht,
					 const struct bucket_table *tbl)
{
	return rht_load_below_30(rht_nelems_approx(ht), tbl->size) &&
	       tbl->size > ht->p.min_size;
}

/* More objects than buckets, and room to grow. */
static inline bool
rht_grow_above_100(const struct rhashtable *ht, const struct bucket_table *tbl)
{
	return rht_may_grow(ht, tbl->size) && rht_nelems_approx(ht) > tbl->size;
}

/* As many objects as the table may hold: inserts fail with -E2BIG. */
static inline bool
rht_grow_above_max(const struct rhashtable *ht, const struct bucket_table *tbl)
{
	return rht_nelems_approx(ht) >= ht->max_elems;
}

/*
 * rht_grow_above_75() and rht_shrink_below_30() exist in two forms.  The
 * 3.17 form takes the bucket count and is meant as a @grow_decision or
 * @shrink_decision hook, so it is a real function whose address can be
 * taken; the 6.12 form takes the bucket array.  A call picks the form by
 * the type of its second argument; the other form is not evaluated.
 */
bool rht_grow_above_75(const struct rhashtable *ht, size_t new_size);
bool rht_shrink_below_30(const struct rhashtable *ht, size_t new_size);

#define __rht_is_table(v)						\
	(__builtin_types_compatible_p(typeof(v), struct bucket_table *) ||	\
	 __builtin_types_compatible_p(typeof(v), const struct bucket_table *))
#define __rht_as_table(v)	((const struct bucket_table *)(unsigned long)(v))

#define rht_grow_above_75(ht, x)					\
({									\
	const struct rhashtable *__rht_h = (ht);			\
	typeof(x) __rht_x = (x);					\
	__builtin_choose_expr(__rht_is_table(__rht_x),			\
		__rht_grow_above_75(__rht_h, __rht_as_table(__rht_x)),	\
		(rht_grow_above_75)(__rht_h, (size_t)__rht_x));		\
})
#define rht_shrink_below_30(ht, x)					\
({									\
	const struct rhashtable *__rht_h = (ht);			\
	typeof(x) __rht_x = (x);					\
	__builtin_choose_expr(__rht_is_table(__rht_x),			\
		__rht_shrink_below_30(__rht_h, __rht_as_table(__rht_x)),	\
		(rht_shrink_below_30)(__rht_h, (size_t)__rht_x));	\
})

/*
 * Lockdep conditions for the rht_dereference*() macros.  Without lockdep
 * they are constant true and their arguments are not evaluated.
 */
#ifdef CONFIG_PROVE_LOCKING
int lockdep_rht_mutex_is_held(struct rhashtable *ht);
int lockdep_rht_bucket_is_held(const struct bucket_table *tbl, u32 hash);
#else
#define lockdep_rht_mutex_is_held(ht)		((void)(ht), 1)
#define lockdep_rht_bucket_is_held(tbl, hash)	((void)(tbl), (void)(hash), 1)
#endif

#define rht_dereference_rcu(p, ht) \
	rcu_dereference_check(p, lockdep_rht_mutex_is_held(ht))
#define rht_dereference(p, ht) \
	rcu_dereference_protected(p, lockdep_rht_mutex_is_held(ht))

void *rhashtable_insert_slow(struct rhashtable *ht, const void *key,
			     struct rhash_head *obj);
int rhashtable_remove_slow(struct rhashtable *ht, struct rhash_head *obj,
			   bool rhlist);
int rhashtable_replace_slow(struct rhashtable *ht, struct rhash_head *obj_old,
			    struct rhash_head *obj_new);
void rhashtable_kick(struct rhashtable *ht, unsigned int chain);

/* Table life cycle and accounting (lib/rhashtable.c). */
void rhashtable_destroy(struct rhashtable *ht);
void rhashtable_free_and_destroy(struct rhashtable *ht,
				 void (*free_fn)(void *ptr, void *arg),
				 void *arg);
unsigned int rhashtable_count(struct rhashtable *ht);
void rhashtable_get_stats(struct rhashtable *ht, struct rhashtable_stats *st);

/* Walks; see rhashtable_walk_enter() for what they guarantee. */
void rhashtable_walk_enter(struct rhashtable *ht,
			   struct rhashtable_iter *iter);
int rhashtable_walk_start_check(struct rhashtable_iter *iter) __acquires(RCU);
void *rhashtable_walk_peek(struct rhashtable_iter *iter);
void *rhashtable_walk_next(struct rhashtable_iter *iter);
void rhashtable_walk_stop(struct rhashtable_iter *iter) __releases(RCU);
void rhashtable_walk_exit(struct rhashtable_iter *iter);

/* rhashtable_walk_start_check() for callers that ignore -EAGAIN. */
static inline void rhashtable_walk_start(struct rhashtable_iter *iter)
	__acquires(RCU)
{
	int restarted = rhashtable_walk_start_check(iter);

	(void)restarted;
}

struct rhash_lock_head __rcu **rht_bucket_nested(const struct bucket_table *tbl,
						 unsigned int hash);
struct rhash_lock_head __rcu **
__rht_bucket_nested(const struct bucket_table *tbl, unsigned int hash);
struct rhash_lock_head __rcu **
rht_bucket_nested_insert(struct rhashtable *ht, struct bucket_table *tbl,
			 unsigned int hash);

static inline struct rhash_lock_head __rcu *const *
rht_bucket(const struct bucket_table *tbl, unsigned int hash)
{
	if (unlikely(tbl->nest))
		return rht_bucket_nested(tbl, hash);
	return &tbl->buckets[hash];
}

static inline struct rhash_lock_head __rcu **
rht_bucket_var(struct bucket_table *tbl, unsigned int hash)
{
	if (unlikely(tbl->nest))
		return __rht_bucket_nested(tbl, hash);
	return &tbl->buckets[hash];
}

/* Our bucket arrays are allocated whole: a bucket always exists. */
static inline struct rhash_lock_head __rcu **
rht_bucket_insert(struct rhashtable *ht, struct bucket_table *tbl,
		  unsigned int hash)
{
	return rht_bucket_var(tbl, hash);
}

/* The marker that ends the chain of bucket @idx of @tbl. */
static inline struct rhash_head *rht_nulls_of(const struct bucket_table *tbl,
					      unsigned int idx)
{
	return RHT_NULLS_MARKER(rht_bucket(tbl, idx));
}

bool __rht_nulls_fits_shared(const struct rhash_head *m,
			     const struct bucket_table *tbl, unsigned int idx);

/*
 * May a walk of bucket @idx of @tbl end on marker @m?  Its own marker, or
 * while a resize runs the marker of the tail it shares with other buckets
 * (lib/rhashtable.c decides that, off the fast path).  A marker that fits
 * is final only if rht_seq_retry() agrees.
 */
static inline bool rht_nulls_fits(const struct rhash_head *m,
				  const struct bucket_table *tbl,
				  unsigned int idx)
{
	return m == rht_nulls_of(tbl, idx) || __rht_nulls_fits_shared(m, tbl, idx);
}

/*
 * Read bucket @idx's stripe before walking its chain.  The acquire orders
 * the read before the walk's loads: an update whose bump this read missed
 * comes after every link the walk can see that update change.
 */
static inline unsigned int rht_seq_begin(const struct bucket_table *tbl,
					 unsigned int idx)
{
	return atomic_read_acquire(&tbl->seq[idx & tbl->seq_mask]);
}

/*
 * After a walk that began with rht_seq_begin() ended on a fitting marker:
 * must it start over?  Pairs with the barriers of rht_seq_bump() in
 * lib/rhashtable.c: a walk that followed a link written after a bump sees
 * the bump here.
 */
static inline bool rht_seq_retry(const struct bucket_table *tbl,
				 unsigned int idx, unsigned int seq)
{
	smp_rmb();	/* the walk's loads before the stripe's: rht_seq_bump() */
	return atomic_read(&tbl->seq[idx & tbl->seq_mask]) != (int)seq;
}

/*
 * Called by an update before it writes the next pointer of an object it
 * links where a reader that still stands on the object (from before its
 * removal) would be carried without ending on a foreign marker: into the
 * middle of a chain, or onto a tail shared during a resize.  The full
 * barriers order the bump after the removal that freed the object (which
 * may have run on another CPU) and before the link written next; the
 * other side is rht_seq_begin() and rht_seq_retry().
 */
static inline void rht_seq_bump(struct bucket_table *tbl, unsigned int idx)
{
	smp_mb__before_atomic();	/* the removal, then the bump... */
	atomic_inc(&tbl->seq[idx & tbl->seq_mask]);
	smp_mb__after_atomic();		/* ...then the link: rht_seq_retry() */
}

/* Chain pointers, under the bucket's lock or RCU. */
#define rht_dereference_bucket_rcu(p, tbl, hash) \
	rcu_dereference_check(p, lockdep_rht_bucket_is_held(tbl, hash))
#define rht_dereference_bucket(p, tbl, hash) \
	rcu_dereference_protected(p, lockdep_rht_bucket_is_held(tbl, hash))

/*
 * Bucket locks.
 *
 * Bit 0 of the bucket word is a bit spinlock.  Interrupts are disabled
 * while it is held, so a table may be updated from any context.  All
 * buckets of an array share one lockdep map; a second array's lock taken
 * during a resize uses a nesting subclass.  The map is a spinning lock for
 * lockdep's wait-context checks, so the bucket lock may be taken under a
 * raw spinlock.  Nothing is allocated and no other lock is taken while a
 * bucket lock is held.
 */
static inline unsigned long
__rht_lock(struct bucket_table *tbl, struct rhash_lock_head __rcu **bkt,
	   unsigned int subclass)
{
	unsigned long flags;

	/* Like spin_lock(): lockdep hears of it before we spin. */
	local_irq_save(flags);
	lock_acquire_exclusive(&tbl->dep_map, subclass, 0, NULL, _RET_IP_);
	bit_spin_lock(0, (unsigned long *)bkt);
	return flags;
}

static inline unsigned long rht_lock(struct bucket_table *tbl,
				     struct rhash_lock_head __rcu **bkt)
{
	return __rht_lock(tbl, bkt, 0);
}

/* A second array's bucket during a resize: older array first. */
static inline unsigned long
rht_lock_nested(struct bucket_table *tbl, struct rhash_lock_head __rcu **bucket,
		unsigned int subclass)
{
	return __rht_lock(tbl, bucket, subclass);
}

static inline void
rht_unlock(struct bucket_table *tbl, struct rhash_lock_head __rcu **bkt,
	   unsigned long flags)
{
	lock_map_release(&tbl->dep_map);
	bit_spin_unlock(0, (unsigned long *)bkt);
	local_irq_restore(flags);
}

/* Head of the chain in bucket word @p, with the lock bit masked off. */
static inline struct rhash_head *__rht_word_head(struct rhash_lock_head *p)
{
	return (struct rhash_head *)((unsigned long)p & ~1UL);
}

static inline struct rhash_head *
__rht_ptr(struct rhash_lock_head *p, struct rhash_lock_head __rcu *const *bkt)
{
	struct rhash_head *he = __rht_word_head(p);

	return he ? he : RHT_NULLS_MARKER(bkt);
}

/*
 * rht_ptr_rcu(), rht_ptr() and rht_ptr_exclusive() give the first object
 * of a bucket, or for an empty bucket the address-derived marker of
 * RHT_NULLS_MARKER(); use them with the rht_for_each*() macros.
 */
static inline struct rhash_head *
rht_ptr_rcu(struct rhash_lock_head __rcu *const *bkt)
{
	return __rht_ptr(rht_deref_any(*bkt), bkt);
}

static inline struct rhash_head *
rht_ptr(struct rhash_lock_head __rcu *const *bkt, struct bucket_table *tbl,
	unsigned int hash)
{
	return __rht_ptr(rht_dereference_bucket(*bkt, tbl, hash), bkt);
}

/*
 * The caller owns the table outright: no reader, no updater, no worker.
 * There is no lock for lockdep to check.
 */
static inline struct rhash_head *
rht_ptr_exclusive(struct rhash_lock_head __rcu *const *bkt)
{
	return __rht_ptr(rcu_dereference_raw(*bkt), bkt);
}

/* Our own view of a bucket: an empty one yields its coded marker. */
static inline struct rhash_head *rht_head_rcu(const struct bucket_table *tbl,
					      struct rhash_lock_head __rcu *const *bkt,
					      unsigned int idx)
{
	struct rhash_head *he = __rht_word_head(rht_deref_any(*bkt));

	return he ? he : rht_nulls_of(tbl, idx);
}

static inline struct rhash_head *rht_head_locked(struct bucket_table *tbl,
						 struct rhash_lock_head __rcu *const *bkt,
						 unsigned int idx)
{
	struct rhash_lock_head *p = rht_dereference_bucket(*bkt, tbl, idx);
	struct rhash_head *he = __rht_word_head(p);

	return he ? he : rht_nulls_of(tbl, idx);
}

/*
 * Is the lock bit of @bkt set?  bit_spin_lock() sets it only where the lock
 * can be contended (SMP) or is debugged; elsewhere holding is assumed.
 */
static inline bool rht_word_held(struct rhash_lock_head __rcu *const *bkt)
{
	if (!IS_ENABLED(CONFIG_SMP) && !IS_ENABLED(CONFIG_DEBUG_SPINLOCK))
		return true;
	return (unsigned long)rcu_access_pointer(*bkt) & 1UL;
}

/*
 * Replace the head of a bucket whose lock we hold; the lock stays held.
 * The lock bit is carried over rather than forced: uniprocessor kernels
 * without spinlock debugging never set it.
 */
static inline void rht_assign_locked(struct rhash_lock_head __rcu **bkt,
				     struct rhash_head *obj)
{
	unsigned long word = rht_is_a_nulls(obj) ? 0 : (unsigned long)obj;
	unsigned long held;

	held = (unsigned long)rcu_dereference_protected(*bkt,
							rht_word_held(bkt));

	rcu_assign_pointer(*bkt, (struct rhash_lock_head *)(word | (held & 1UL)));
}

/*
 * Publish a new head and drop the lock with the same store: the release
 * makes the object visible to readers no earlier than the unlock.
 */
static inline void
rht_assign_unlock(struct bucket_table *tbl, struct rhash_lock_head __rcu **bkt,
		  struct rhash_head *obj, unsigned long flags)
{
	struct rhash_lock_head *word = NULL;

	if (!rht_is_a_nulls(obj))
		word = (struct rhash_lock_head *)obj;
	lock_map_release(&tbl->dep_map);
	rcu_assign_pointer(*bkt, word);
	preempt_enable();
	__release(bitlock);
	local_irq_restore(flags);
}

/*
 * Point the link @pprev at @obj and unlock; a NULL @pprev is the bucket
 * word itself, which is written and unlocked by one release store.
 */
static inline void
rht_relink_unlock(struct bucket_table *tbl, struct rhash_lock_head __rcu **bkt,
		  struct rhash_head __rcu **pprev, struct rhash_head *obj,
		  unsigned long flags)
{
	if (!pprev) {
		rht_assign_unlock(tbl, bkt, obj, flags);
		return;
	}
	rcu_assign_pointer(*pprev, obj);
	rht_unlock(tbl, bkt, flags);
}

/*
 * After an RCU walk of bucket @hash ends on marker @pos: if the walk
 * provably stayed on the bucket's chain (the marker fits and the stripe
 * read as @seq did not move), give RHT_NULLS_MARKER() of the bucket, so
 * that callers can test "did I reach the end of my own chain?" with a
 * plain comparison, as in 6.12.  Otherwise give a marker that is not the
 * bucket's, which makes such callers retry.
 */
static inline struct rhash_head *rht_nulls_canon(struct rhash_head *pos,
						 const struct bucket_table *tbl,
						 unsigned int hash,
						 unsigned int seq)
{
	struct rhash_head *own = rht_nulls_of(tbl, hash);

	if (pos != own && !__rht_nulls_fits_shared(pos, tbl, hash))
		return pos;
	if (rht_seq_retry(tbl, hash, seq))
		return RHT_NULLS_MARKER(NULL);
	return own;
}

/*
 * Chain traversal.
 *
 * The loops keep their position in a cursor they declare, so that every
 * macro argument is evaluated once.  The next pointer is read before the
 * body runs, which may therefore unlink the current object.
 *
 * The 6.12 forms name a bucket by array and index; the forms without _rcu
 * need the bucket lock.  The 3.17 forms take a chain head (a &struct
 * rhash_head pointer, e.g. from rht_ptr_rcu()) and are told apart by their
 * number of arguments.
 *
 * When an RCU form ends, @pos is RHT_NULLS_MARKER(rht_bucket(tbl, hash)) if
 * the walk stayed on its own chain; any other value means it may have been
 * carried to another chain and should be retried.  The _rcu_from forms
 * read the bucket's stripe before they evaluate @head, so that a head read
 * from the bucket in that argument (rht_ptr_rcu()) is covered too.
 */
struct rht_cursor {
	struct rhash_head *ahead;
	struct rhash_head *at;
	const struct bucket_table *ctbl;
	unsigned int chash;
	unsigned int cseq;
	bool crcu;
	bool cbare;
	size_t coff;
};

static inline struct rht_cursor rht_cursor_at(struct rhash_head *head,
					      const struct bucket_table *tbl,
					      unsigned int hash, bool rcu,
					      size_t off)
{
	struct rht_cursor c = {
		.ahead = head, .ctbl = tbl, .chash = hash, .crcu = rcu,
		.coff = off,
	};

	if (rcu)
		c.cseq = rht_seq_begin(tbl, hash);
	return c;
}

/*
 * A cursor of the 3.17 forms: a bare chain, no bucket to check the end
 * against.  @cbare is a constant in every form, so the 6.12 forms carry
 * no test for it.
 */
static inline struct rht_cursor rht_cursor_chain(struct rhash_head *head,
						 size_t off)
{
	struct rht_cursor c = {
		.ahead = head, .crcu = true, .cbare = true, .coff = off,
	};

	return c;
}

static inline struct rht_cursor rht_cursor_bucket(struct bucket_table *tbl,
						  unsigned int hash, bool rcu,
						  size_t off)
{
	struct rhash_lock_head __rcu *const *bkt = rht_bucket(tbl, hash);
	struct rht_cursor c = rht_cursor_at(NULL, tbl, hash, rcu, off);

	/* The stripe is read (in rht_cursor_at()) before the head. */
	c.ahead = rcu ? rht_ptr_rcu(bkt) : rht_ptr(bkt, tbl, hash);
	return c;
}

/* A cursor of the _rcu_from forms: the stripe first, then @head. */
#define __rht_cursor_rcu_from(head, tbl, hash, off)			\
({									\
	struct rht_cursor __rht_f = rht_cursor_at(NULL, tbl, hash,	\
						  true, off);		\
	__rht_f.ahead = (head);						\
	__rht_f;							\
})

/*
 * Hand out the next object in *@pos and, if @obj is given, the structure
 * embedding it in *@obj.  At the end *@pos gets the chain's marker.
 */
static __always_inline bool rht_cursor_step(struct rht_cursor *c,
					    struct rhash_head **pos,
					    void **obj)
{
	struct rhash_head *he = c->ahead;

	if (rht_is_a_nulls(he)) {
		if (c->crcu && !c->cbare)
			he = rht_nulls_canon(he, c->ctbl, c->chash, c->cseq);
		*pos = he;
		return false;
	}
	*pos = he;
	if (obj)
		*obj = (char *)he - c->coff;
	if (c->cbare)
		c->ahead = rcu_dereference_raw(he->next);
	else if (c->crcu)
		c->ahead = rht_dereference_bucket_rcu(he->next, c->ctbl,
						      c->chash);
	else
		c->ahead = rht_dereference_bucket(he->next, c->ctbl, c->chash);
	return true;
}

/* The object after the current one, for the 3.17 _safe form. */
static inline void *rht_cursor_peek(const struct rht_cursor *c)
{
	return rht_is_a_nulls(c->ahead) ? NULL : (char *)c->ahead - c->coff;
}

#define rht_entry(tpos, pos, member) \
	({ tpos = container_of(pos, typeof(tpos[0]), member); 1; })

#define rht_for_each_from(pos, head, tbl, hash)				\
	for (struct rht_cursor __rht_c =				\
		rht_cursor_at(head, tbl, hash, false, 0);		\
	     rht_cursor_step(&__rht_c, &(pos), NULL);)

#define __rht_for_each_3(pos, tbl, hash)				\
	for (struct rht_cursor __rht_c =				\
		rht_cursor_bucket(tbl, hash, false, 0);			\
	     rht_cursor_step(&__rht_c, &(pos), NULL);)
#define __rht_for_each_2(pos, head)					\
	for (struct rht_cursor __rht_c =				\
		rht_cursor_chain(head, 0);				\
	     rht_cursor_step(&__rht_c, &(pos), NULL);)
#define rht_for_each(...) \
	CONCATENATE(__rht_for_each_, COUNT_ARGS(__VA_ARGS__))(__VA_ARGS__)

#define rht_for_each_entry_from(tpos, pos, head, tbl, hash, member)	\
	for (struct rht_cursor __rht_c =				\
		rht_cursor_at(head, tbl, hash, false,			\
			      offsetof(typeof(tpos[0]), member));	\
	     rht_cursor_step(&__rht_c, &(pos), (void **)&(tpos));)

#define __rht_for_each_entry_5(tpos, pos, tbl, hash, member)		\
	for (struct rht_cursor __rht_c =				\
		rht_cursor_bucket(tbl, hash, false,			\
				  offsetof(typeof(tpos[0]), member));	\
	     rht_cursor_step(&__rht_c, &(pos), (void **)&(tpos));)
#define __rht_for_each_entry_3(tpos, head, member)			\
	for (struct rht_cursor __rht_c =				\
		rht_cursor_chain(head, offsetof(typeof(tpos[0]), member)); \
	     rht_cursor_step(&__rht_c, &__rht_c.at, (void **)&(tpos));)
#define rht_for_each_entry(...) \
	CONCATENATE(__rht_for_each_entry_, COUNT_ARGS(__VA_ARGS__))(__VA_ARGS__)

#define __rht_for_each_entry_safe_6(tpos, pos, next, tbl, hash, member)	\
	for (struct rht_cursor __rht_c =				\
		rht_cursor_bucket(tbl, hash, false,			\
				  offsetof(typeof(tpos[0]), member));	\
	     rht_cursor_step(&__rht_c, &(pos), (void **)&(tpos)) &&	\
	     ((next) = __rht_c.ahead, true);)
#define __rht_for_each_entry_safe_4(tpos, next, head, member)		\
	for (struct rht_cursor __rht_c =				\
		rht_cursor_chain(head, offsetof(typeof(tpos[0]), member)); \
	     rht_cursor_step(&__rht_c, &__rht_c.at, (void **)&(tpos)) &&	\
	     ((next) = rht_cursor_peek(&__rht_c), true);)
#define rht_for_each_entry_safe(...) \
	CONCATENATE(__rht_for_each_entry_safe_, COUNT_ARGS(__VA_ARGS__))(__VA_ARGS__)

#define rht_for_each_rcu_from(pos, head, tbl, hash)			\
	for (struct rht_cursor __rht_c =				\
		__rht_cursor_rcu_from(head, tbl, hash, 0);		\
	     rht_cursor_step(&__rht_c, &(pos), NULL);)

#define __rht_for_each_rcu_3(pos, tbl, hash)				\
	for (struct rht_cursor __rht_c =				\
		rht_cursor_bucket(tbl, hash, true, 0);			\
	     rht_cursor_step(&__rht_c, &(pos), NULL);)
#define __rht_for_each_rcu_2(pos, head)					\
	__rht_for_each_2(pos, head)
#define rht_for_each_rcu(...) \
	CONCATENATE(__rht_for_each_rcu_, COUNT_ARGS(__VA_ARGS__))(__VA_ARGS__)

#define rht_for_each_entry_rcu_from(tpos, pos, head, tbl, hash, member) \
	for (struct rht_cursor __rht_c =				\
		__rht_cursor_rcu_from(head, tbl, hash,			\
				      offsetof(typeof(tpos[0]), member)); \
	     rht_cursor_step(&__rht_c, &(pos), (void **)&(tpos));)

#define __rht_for_each_entry_rcu_5(tpos, pos, tbl, hash, member)	\
	for (struct rht_cursor __rht_c =				\
		rht_cursor_bucket(tbl, hash, true,			\
				  offsetof(typeof(tpos[0]), member));	\
	     rht_cursor_step(&__rht_c, &(pos), (void **)&(tpos));)
#define __rht_for_each_entry_rcu_3(tpos, head, member)			\
	__rht_for_each_entry_3(tpos, head, member)
#define rht_for_each_entry_rcu(...) \
	CONCATENATE(__rht_for_each_entry_rcu_, COUNT_ARGS(__VA_ARGS__))(__VA_ARGS__)

/* Hand out the next object of a key's list; false at the end. */
static __always_inline bool rhl_cursor_step(struct rhlist_head **ahead,
					    struct rhlist_head **pos,
					    void **obj, size_t off)
{
	struct rhlist_head *l = *ahead;

	*pos = l;
	if (!l)
		return false;
	if (obj)
		*obj = (char *)l - off;
	*ahead = rcu_dereference_raw(l->next);
	return true;
}

/**
 * rhl_for_each_rcu - iterate over the objects of one key in an rhltable
 * @pos:	&struct rhlist_head to use as a cursor
 * @list:	the first object, as returned by rhltable_lookup()
 */
#define rhl_for_each_rcu(pos, list)					\
	for (struct rhlist_head *__rhl_c = (list);			\
	     rhl_cursor_step(&__rhl_c, &(pos), NULL, 0);)

/**
 * rhl_for_each_entry_rcu - iterate over the objects of one key, typed
 * @tpos:	the type * to use as a cursor
 * @pos:	&struct rhlist_head to use as a cursor
 * @list:	the first object, as returned by rhltable_lookup()
 * @member:	name of the &struct rhlist_head within the object
 */
#define rhl_for_each_entry_rcu(tpos, pos, list, member)			\
	for (struct rhlist_head *__rhl_c = (list);			\
	     rhl_cursor_step(&__rhl_c, &(pos), (void **)&(tpos),	\
			     offsetof(typeof(tpos[0]), member));)

/* Default key comparison: 0 when the object's key equals @arg->key. */
static inline int
rhashtable_compare(struct rhashtable_compare_arg *arg, const void *obj)
{
	const struct rhashtable_params *p = &arg->ht->p;

	return memcmp((const char *)obj + p->key_offset, arg->key, p->key_len);
}

static __always_inline bool rht_key_differs(struct rhashtable *ht,
					    const void *key,
					    const struct rhash_head *he,
					    const struct rhashtable_params params)
{
	struct rhashtable_compare_arg arg = { .ht = ht, .key = key };
	/* The caller's constant, not a load from @ht at every step. */
	const char *obj = (const char *)he - params.head_offset;

	if (params.obj_cmpfn)
		return params.obj_cmpfn(&arg, obj);
	/*
	 * A key length known at compile time turns memcmp() into a load and
	 * a compare or two.  The parameters are those the table was
	 * created with (the hash relies on that too).
	 */
	if (params.key_len)
		return memcmp(obj + params.key_offset, key, params.key_len);
	return rhashtable_compare(&arg, obj);
}

/*
 * Look @key up in the arrays readers can reach.  A miss is believed only
 * when the walk ended on a marker that fits its bucket and the bucket's
 * stripe did not move meanwhile; otherwise the bucket is scanned again.
 * A believed miss continues in the array that replaces this one, where a
 * move may have taken the object.  Call under rcu_read_lock().
 */
static __always_inline struct rhash_head *
__rhashtable_lookup(struct rhashtable *ht, const void *key,
		    const struct rhashtable_params params)
{
	struct rhash_lock_head __rcu *const *bkt;
	struct bucket_table *tbl;
	struct rhash_head *he;
	unsigned int idx, seq;

	tbl = rht_dereference_rcu(ht->tbl, ht);
	do {
		idx = rht_key_hashfn(ht, tbl, key, params);
		bkt = rht_bucket(tbl, idx);
		do {
			seq = rht_seq_begin(tbl, idx);
			he = __rht_word_head(rht_deref_any(*bkt));
			if (!he)
				break;		/* empty: nothing to miss */
			do {
				if (!rht_key_differs(ht, key, he, params))
					return he;
				he = rcu_dereference_raw(he->next);
			} while (!rht_is_a_nulls(he));
		} while (unlikely(he != RHT_NULLS_MARKER(bkt) &&
				  !__rht_nulls_fits_shared(he, tbl, idx)) ||
			 unlikely(rht_seq_retry(tbl, idx, seq)));

		/* Pairs with the move of an object to the future array. */
		smp_rmb();
		tbl = rht_dereference_rcu(tbl->future_tbl, ht);
	} while (unlikely(tbl));

	return NULL;
}

/**
 * rhashtable_lookup_params - look up a key, caller holds the RCU read lock
 * @ht:		the table
 * @key:	the key
 * @params:	the table's parameters (a compile-time constant)
 *
 * This is the 6.12 three-argument rhashtable_lookup().  An object present
 * for the whole call is found, also while the table is being resized.
 *
 * Context: rcu_read_lock() held (or the bucket lock).
 * Return: the object, or %NULL if no object has the key.
 */
static __always_inline void *
rhashtable_lookup_params(struct rhashtable *ht, const void *key,
			 const struct rhashtable_params params)
{
	struct rhash_head *he = __rhashtable_lookup(ht, key, params);

	/* The caller's constant offset, as in the compare: no load. */
	return he ? (char *)he - params.head_offset : NULL;
}

void *rhashtable_lookup_seed(const struct rhashtable *ht, const void *key);

/*
 * rhashtable_lookup() is both the 3.17 call (table, key: parameters taken
 * from the table) and the 6.12 call (table, key, constant parameters).
 */
#define __rhashtable_lookup_by_2(ht, key)	rhashtable_lookup_seed(ht, key)
#define __rhashtable_lookup_by_3(ht, key, params) \
	rhashtable_lookup_params(ht, key, params)
#define rhashtable_lookup(...)						\
	CONCATENATE(__rhashtable_lookup_by_, COUNT_ARGS(__VA_ARGS__))(__VA_ARGS__)

/**
 * rhashtable_lookup_fast - look up a key, taking the RCU read lock
 * @ht:		the table
 * @key:	the key
 * @params:	the table's parameters
 *
 * The returned object is only guaranteed to stay valid if the caller has
 * its own means (a reference, a lock, RCU held by the caller) to keep it.
 *
 * Context: any context.
 * Return: the object, or %NULL if no object has the key.
 */
static __always_inline void *
rhashtable_lookup_fast(struct rhashtable *ht, const void *key,
		       const struct rhashtable_params params)
{
	guard(rcu)();
	return rhashtable_lookup_params(ht, key, params);
}

/**
 * rhltable_lookup - find the objects with a key in an rhltable
 * @hlt:	the table
 * @key:	the key
 * @params:	the table's parameters
 *
 * Walk the result with rhl_for_each_rcu() or rhl_for_each_entry_rcu().
 *
 * Context: rcu_read_lock() held.
 * Return: the first object with the key, or %NULL.
 */
static __always_inline struct rhlist_head *
rhltable_lookup(struct rhltable *hlt, const void *key,
		const struct rhashtable_params params)
{
	struct rhash_head *he = __rhashtable_lookup(&hlt->ht, key, params);

	return he ? container_of(he, struct rhlist_head, rhead) : NULL;
}

/* Element counting: one atomic per update, as in 6.12. */
static inline void rht_count_add(struct rhashtable *ht, int delta)
{
	atomic_add(delta, &ht->nelems);
}

/*
 * After an object left its chain (@gone of them left the count): must
 * the update tell walks under way, by bumping the stripe of the bucket?
 * A walk may stand on the object, and once the object is linked anywhere
 * again its next pointer would carry the walk there unnoticed; the bump
 * comes first, so the walk sees it when it checks its stripe before it
 * returns what it found.  The fully ordered uncount orders the unlink
 * before the read of @walks; the other side is
 * rhashtable_walk_start_check(), which counts the walk before it reads a
 * link.  Either the walk sees the unlink, or this sees the walk.
 */
static inline bool rht_unlinked(struct rhashtable *ht, int gone)
{
	atomic_sub(gone, &ht->nelems);
	smp_mb__after_atomic();		/* the unlink before @walks */
	return atomic_read(&ht->walks);
}

/*
 * After an insert: does the worker have something to do?  By the 6.12
 * policy only: the 3.17 decision hooks are consulted by the worker, which
 * decides, and by lib/rhashtable.c's own update paths, never inline.
 */
static inline bool rht_insert_wants_work(struct rhashtable *ht,
					 struct bucket_table *tbl,
					 unsigned int chain)
{
	if (unlikely(chain > RHT_ELASTICITY))
		return true;
	return __rht_grow_above_75(ht, tbl);
}

static inline bool rht_remove_wants_work(struct rhashtable *ht,
					 struct bucket_table *tbl)
{
	return ht->p.automatic_shrinking && __rht_shrink_below_30(ht, tbl);
}

/*
 * Common insert.  With @key, an object with an equal key is looked for:
 * a plain table returns it, an rhltable adds @obj to its list.  Without
 * @key the object is inserted unconditionally.  The inline path handles
 * the table when no resize runs; during a resize the bucket locks of two
 * arrays are needed and lib/rhashtable.c takes over.
 *
 * Returns NULL when inserted, the existing object, or an ERR_PTR().
 */
static __always_inline void *
__rhashtable_insert_fast(struct rhashtable *ht, const void *key,
			 struct rhash_head *obj,
			 const struct rhashtable_params params, bool rhlist)
{
	struct rhash_lock_head __rcu **bkt;
	struct rhash_head *head, *pos;
	struct bucket_table *tbl;
	unsigned int idx, chain = 0;
	unsigned long flags;
	void *ret = NULL;

	rcu_read_lock();
	tbl = rht_dereference_rcu(ht->tbl, ht);
	if (unlikely(rcu_access_pointer(tbl->past_tbl)))
		goto slow;
	idx = rht_head_hashfn(ht, tbl, obj, params);
	bkt = rht_bucket_var(tbl, idx);
	flags = rht_lock(tbl, bkt);
	if (unlikely(rcu_access_pointer(tbl->future_tbl))) {
		rht_unlock(tbl, bkt, flags);
		goto slow;
	}

	head = rht_head_locked(tbl, bkt, idx);
	rht_for_each_from(pos, head, tbl, idx) {
		struct rhlist_head *first, *list;

		/* Without a key the walk only measures the chain: stop early. */
		if (++chain > RHT_ELASTICITY && !key)
			break;
		if (!key || rht_key_differs(ht, key, pos, params))
			continue;
		if (!rhlist) {
			ret = rht_obj(ht, pos);
			rht_unlock(tbl, bkt, flags);
			goto out;
		}
		/* Another object with this key: join its list, second. */
		first = container_of(pos, struct rhlist_head, rhead);
		list = container_of(obj, struct rhlist_head, rhead);
		rcu_assign_pointer(list->next,
				   rht_dereference_bucket(first->next, tbl, idx));
		rcu_assign_pointer(first->next, list);
		rht_unlock(tbl, bkt, flags);
		goto out;	/* rhltables count keys, as in 6.12 */
	}

	if (unlikely(rht_grow_above_max(ht, tbl))) {
		rht_unlock(tbl, bkt, flags);
		ret = ERR_PTR(-E2BIG);
		goto out;
	}
	if (rhlist)
		RCU_INIT_POINTER(container_of(obj, struct rhlist_head,
					      rhead)->next, NULL);
	/*
	 * Released: readers may still stand on @obj from an earlier life in
	 * a table (objects are inserted again without a grace period), and
	 * they follow this link at once.
	 */
	rcu_assign_pointer(obj->next, head);
	rht_count_add(ht, 1);		/* before anyone can remove it */
	rht_assign_unlock(tbl, bkt, obj, flags);
	if (rht_insert_wants_work(ht, tbl, chain))
		rhashtable_kick(ht, chain);
out:
	rcu_read_unlock();
	return ret;

slow:
	ret = rhashtable_insert_slow(ht, key, obj);
	rcu_read_unlock();
	return ret;
}

/**
 * rhashtable_insert_fast - insert an object, keys need not be unique
 * @ht:		the table
 * @obj:	the object's hook
 * @params:	the table's parameters
 *
 * Never allocates and never fails because a resize is pending.
 *
 * Context: any context; takes a bucket lock with interrupts disabled.
 * Return: 0, or -E2BIG if the table holds its maximum number of objects.
 */
static __always_inline int
rhashtable_insert_fast(struct rhashtable *ht, struct rhash_head *obj,
		       const struct rhashtable_params params)
{
	void *ret = __rhashtable_insert_fast(ht, NULL, obj, params, false);

	return IS_ERR(ret) ? PTR_ERR(ret) : 0;
}

/**
 * rhltable_insert_key - insert an object into an rhltable under @key
 * @hlt:	the table
 * @key:	the object's key
 * @list:	the object's hook
 * @params:	the table's parameters
 *
 * Context: any context.
 * Return: 0, or -E2BIG if the table holds its maximum number of objects.
 */
static __always_inline int
rhltable_insert_key(struct rhltable *hlt, const void *key,
		    struct rhlist_head *list,
		    const struct rhashtable_params params)
{
	return PTR_ERR(__rhashtable_insert_fast(&hlt->ht, key, &list->rhead,
						params, true));
}

/**
 * rhltable_insert - insert an object into an rhltable
 * @hlt:	the table
 * @list:	the object's hook
 * @params:	the table's parameters
 *
 * The key is taken from the object.
 *
 * Context: any context.
 * Return: 0, or -E2BIG if the table holds its maximum number of objects.
 */
static __always_inline int
rhltable_insert(struct rhltable *hlt, struct rhlist_head *list,
		const struct rhashtable_params params)
{
	const char *key = rht_obj(&hlt->ht, &list->rhead);

	return rhltable_insert_key(hlt, key + hlt->ht.p.key_offset, list,
				   params);
}

/**
 * rhashtable_lookup_insert_fast - insert an object unless its key exists
 * @ht:		the table
 * @obj:	the object's hook
 * @params:	the table's parameters
 *
 * For tables hashed by key (no @obj_hashfn).
 *
 * Context: any context.
 * Return: 0; -EEXIST if an object with the key is present; -E2BIG if the
 * table is full; -EINVAL if the table hashes whole objects.
 */
static __always_inline int
rhashtable_lookup_insert_fast(struct rhashtable *ht, struct rhash_head *obj,
			      const struct rhashtable_params params)
{
	const char *key = rht_obj(ht, obj);
	void *ret;

	if (ht->p.obj_hashfn)
		return -EINVAL;
	ret = __rhashtable_insert_fast(ht, key + ht->p.key_offset, obj,
				       params, false);
	if (IS_ERR(ret))
		return PTR_ERR(ret);
	return ret ? -EEXIST : 0;
}

/**
 * rhashtable_lookup_get_insert_fast - insert unless the key exists
 * @ht:		the table
 * @obj:	the object's hook
 * @params:	the table's parameters
 *
 * Like rhashtable_lookup_insert_fast() but hands back the object that
 * holds the key already.
 *
 * Context: any context.
 * Return: %NULL if @obj was inserted, the existing object if the key is
 * present, ERR_PTR(-E2BIG) if the table is full, ERR_PTR(-EINVAL) if the
 * table hashes whole objects.
 */
static __always_inline void *
rhashtable_lookup_get_insert_fast(struct rhashtable *ht, struct rhash_head *obj,
				  const struct rhashtable_params params)
{
	const char *key = rht_obj(ht, obj);

	if (ht->p.obj_hashfn)
		return ERR_PTR(-EINVAL);
	return __rhashtable_insert_fast(ht, key + ht->p.key_offset, obj,
					params, false);
}

/**
 * rhashtable_lookup_insert_key - insert under @key unless the key exists
 * @ht:		the table
 * @key:	the object's key
 * @obj:	the object's hook
 * @params:	the table's parameters
 *
 * For tables that hash whole objects (@obj_hashfn set).
 *
 * Context: any context.
 * Return: 0; -EEXIST if the key is present; -E2BIG if the table is full;
 * -EINVAL without @obj_hashfn or without @key.
 */
static __always_inline int
rhashtable_lookup_insert_key(struct rhashtable *ht, const void *key,
			     struct rhash_head *obj,
			     const struct rhashtable_params params)
{
	void *ret;

	if (!ht->p.obj_hashfn || !key)
		return -EINVAL;
	ret = __rhashtable_insert_fast(ht, key, obj, params, false);
	if (IS_ERR(ret))
		return PTR_ERR(ret);
	return ret ? -EEXIST : 0;
}

/**
 * rhashtable_lookup_get_insert_key - insert under @key or return the owner
 * @ht:		the table
 * @key:	the object's key
 * @obj:	the object's hook
 * @params:	the table's parameters
 *
 * Context: any context.
 * Return: %NULL if @obj was inserted, the existing object if the key is
 * present, or ERR_PTR(-E2BIG) / ERR_PTR(-EINVAL) as for
 * rhashtable_lookup_insert_key().
 */
static __always_inline void *
rhashtable_lookup_get_insert_key(struct rhashtable *ht, const void *key,
				 struct rhash_head *obj,
				 const struct rhashtable_params params)
{
	if (!ht->p.obj_hashfn || !key)
		return ERR_PTR(-EINVAL);
	return __rhashtable_insert_fast(ht, key, obj, params, false);
}

/*
 * Take @obj out of the chain that starts in bucket @bkt (locked), or, for
 * an rhltable, out of the list of its key.  Returns 1 if a key left the
 * table (what the element count counts), 0 if only a duplicate did, or
 * -ENOENT; the lock is released either way.
 */
static __always_inline int
__rht_unlink_locked(struct rhashtable *ht, struct bucket_table *tbl,
		    struct rhash_lock_head __rcu **bkt, unsigned int idx,
		    struct rhash_head *obj, unsigned long flags, bool rhlist)
{
	struct rhash_head __rcu **pprev = NULL;
	struct rhash_head *pos, *repl;

	rht_for_each_from(pos, rht_head_locked(tbl, bkt, idx), tbl, idx) {
		repl = rht_dereference_bucket(pos->next, tbl, idx);
		if (rhlist) {
			struct rhlist_head *first, *victim, *l;
			struct rhlist_head __rcu **lprev;

			first = container_of(pos, struct rhlist_head, rhead);
			victim = container_of(obj, struct rhlist_head, rhead);
			lprev = &first->next;
			for (l = first; l && l != victim;
			     l = rht_dereference_bucket(*lprev, tbl, idx))
				lprev = &l->next;
			if (!l)
				goto next;
			if (l != first) {
				l = rht_dereference_bucket(l->next, tbl, idx);
				rcu_assign_pointer(*lprev, l);
				rht_unlock(tbl, bkt, flags);
				return 0;
			}
			l = rht_dereference_bucket(first->next, tbl, idx);
			if (l) {
				/* @l takes @first's place mid-chain. */
				rht_seq_bump(tbl, idx);
				rcu_assign_pointer(l->rhead.next, repl);
				rht_relink_unlock(tbl, bkt, pprev, &l->rhead,
						  flags);
				return 0;
			}
		} else if (pos != obj) {
			goto next;
		}
		rht_relink_unlock(tbl, bkt, pprev, repl, flags);
		return 1;
next:
		pprev = &pos->next;
	}
	rht_unlock(tbl, bkt, flags);
	return -ENOENT;
}

static __always_inline int
__rhashtable_remove_fast(struct rhashtable *ht, struct rhash_head *obj,
			 const struct rhashtable_params params, bool rhlist)
{
	struct rhash_lock_head __rcu **bkt;
	struct bucket_table *tbl;
	unsigned long flags;
	unsigned int idx;
	int err;

	rcu_read_lock();
	tbl = rht_dereference_rcu(ht->tbl, ht);
	if (unlikely(rcu_access_pointer(tbl->past_tbl)))
		goto slow;
	idx = rht_head_hashfn(ht, tbl, obj, params);
	bkt = rht_bucket_var(tbl, idx);
	flags = rht_lock(tbl, bkt);
	if (unlikely(rcu_access_pointer(tbl->future_tbl))) {
		rht_unlock(tbl, bkt, flags);
		goto slow;
	}
	err = __rht_unlink_locked(ht, tbl, bkt, idx, obj, flags, rhlist);
	if (err >= 0) {
		if (unlikely(rht_unlinked(ht, err)))
			rht_seq_bump(tbl, idx);
		if (err && rht_remove_wants_work(ht, tbl))
			rhashtable_kick(ht, 0);
	}
	rcu_read_unlock();
	return min(err, 0);

slow:
	err = rhashtable_remove_slow(ht, obj, rhlist);
	rcu_read_unlock();
	return err;
}

/**
 * rhashtable_remove_fast - remove an object from the table
 * @ht:		the table
 * @obj:	the object's hook
 * @params:	the table's parameters
 *
 * Readers may still see the object until a grace period has passed: free
 * it with kfree_rcu() or after synchronize_rcu().
 *
 * Context: any context; takes a bucket lock with interrupts disabled.
 * Return: 0, or -ENOENT if @obj is not in the table.
 */
static __always_inline int
rhashtable_remove_fast(struct rhashtable *ht, struct rhash_head *obj,
		       const struct rhashtable_params params)
{
	return __rhashtable_remove_fast(ht, obj, params, false);
}

/**
 * rhltable_remove - remove an object from an rhltable
 * @hlt:	the table
 * @list:	the object's hook
 * @params:	the table's parameters
 *
 * Context: any context.
 * Return: 0, or -ENOENT if @list is not in the table.
 */
static __always_inline int
rhltable_remove(struct rhltable *hlt, struct rhlist_head *list,
		const struct rhashtable_params params)
{
	return __rhashtable_remove_fast(&hlt->ht, &list->rhead, params, true);
}

/**
 * rhashtable_replace_fast - put @obj_new where @obj_old is
 * @ht:		the table
 * @obj_old:	hook of the object to replace
 * @obj_new:	hook of its replacement, which must hash the same
 * @params:	the table's parameters
 *
 * A reader sees either object, never neither.  Not for rhltables.
 *
 * Context: any context.
 * Return: 0; -ENOENT if @obj_old is not in the table; -EINVAL if the two
 * objects hash differently.
 */
static __always_inline int
rhashtable_replace_fast(struct rhashtable *ht, struct rhash_head *obj_old,
			struct rhash_head *obj_new,
			const struct rhashtable_params params)
{
	struct rhash_head __rcu **pprev = NULL;
	struct rhash_lock_head __rcu **bkt;
	struct bucket_table *tbl;
	struct rhash_head *pos;
	unsigned long flags;
	unsigned int idx;
	int err = -ENOENT;

	rcu_read_lock();
	tbl = rht_dereference_rcu(ht->tbl, ht);
	if (unlikely(rcu_access_pointer(tbl->past_tbl)))
		goto slow;
	idx = rht_head_hashfn(ht, tbl, obj_old, params);
	if (idx != rht_head_hashfn(ht, tbl, obj_new, params)) {
		err = -EINVAL;
		goto out;
	}
	bkt = rht_bucket_var(tbl, idx);
	flags = rht_lock(tbl, bkt);
	if (unlikely(rcu_access_pointer(tbl->future_tbl))) {
		rht_unlock(tbl, bkt, flags);
		goto slow;
	}
	rht_for_each_from(pos, rht_head_locked(tbl, bkt, idx), tbl, idx) {
		if (pos != obj_old) {
			pprev = &pos->next;
			continue;
		}
		/* @obj_new may have readers on it from an earlier life. */
		rht_seq_bump(tbl, idx);
		rcu_assign_pointer(obj_new->next,
				   rht_dereference_bucket(pos->next, tbl, idx));
		rht_relink_unlock(tbl, bkt, pprev, obj_new, flags);
		if (unlikely(rht_unlinked(ht, 0)))
			rht_seq_bump(tbl, idx);
		err = 0;
		goto out;
	}
	rht_unlock(tbl, bkt, flags);
out:
	rcu_read_unlock();
	return err;

slow:
	err = rhashtable_replace_slow(ht, obj_old, obj_new);
	rcu_read_unlock();
	return err;
}

/**
 * rhltable_walk_enter - start a walk over an rhltable
 * @hlt:	the table
 * @iter:	the walk's state
 *
 * See rhashtable_walk_enter().
 */
static inline void rhltable_walk_enter(struct rhltable *hlt,
				       struct rhashtable_iter *iter)
{
	rhashtable_walk_enter(&hlt->ht, iter);
}

/**
 * rhltable_free_and_destroy - free every object, then the table
 * @hlt:	the table
 * @free_fn:	called once for every object
 * @arg:	passed to @free_fn
 *
 * Context: process context, may sleep; no concurrent users.
 */
static inline void
rhltable_free_and_destroy(struct rhltable *hlt,
			  void (*free_fn)(void *ptr, void *arg), void *arg)
{
	rhashtable_free_and_destroy(&hlt->ht, free_fn, arg);
}

/**
 * rhltable_destroy - destroy an empty rhltable
 * @hlt:	the table
 *
 * Context: process context, may sleep; no concurrent users.
 */
static inline void rhltable_destroy(struct rhltable *hlt)
{
	rhltable_free_and_destroy(hlt, NULL, NULL);
}

/*
 * The 3.17 interface.
 *
 * The update calls use the table's own parameters and the same bucket
 * locks as the 6.12 calls, so both may be mixed on one table.  The caller
 * still serialises its updates with a lock of its own, checked through
 * @mutex_is_held under lockdep.  Resizes run in the worker; there are no
 * gfp_t arguments.
 */
u32 rhashtable_hashfn(const struct rhashtable *ht, const void *key, u32 len);
u32 rhashtable_obj_hashfn(const struct rhashtable *ht, void *ptr);
int rhashtable_insert(struct rhashtable *ht, struct rhash_head *node);
bool rhashtable_remove(struct rhashtable *ht, struct rhash_head *node);
void rhashtable_remove_pprev(struct rhashtable *ht, struct rhash_head *obj,
			     struct rhash_head __rcu **pprev);
int rhashtable_expand(struct rhashtable *ht);
int rhashtable_shrink(struct rhashtable *ht);
void *rhashtable_lookup_compare(const struct rhashtable *ht, u32 hash,
				bool (*compare)(void *, void *), void *arg);

#endif /* _LINUX_RHASHTABLE_H */
