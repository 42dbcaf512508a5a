/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resizable, RCU-protected hash tables: the data types.
 *
 * This header only declares what a structure embedding a table needs, so
 * that it can be included from other headers without dragging in the
 * inline fast paths of <linux/rhashtable.h>.  See
 * Documentation/core-api/rhashtable.rst for the design and the rules of use.
 */
#ifndef _LINUX_RHASHTABLE_TYPES_H
#define _LINUX_RHASHTABLE_TYPES_H

#include <linux/alloc_tag.h>
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/mutex.h>
#include <linux/spinlock_types.h>
#include <linux/timer_types.h>
#include <linux/types.h>
#include <linux/workqueue_types.h>

struct bucket_table;
struct rhashtable;
struct rhltable;
struct rhashtable_params;

int rhashtable_init_noprof(struct rhashtable *ht,
			   const struct rhashtable_params *params);
int rhltable_init_noprof(struct rhltable *hlt,
			 const struct rhashtable_params *params);

/* Charge the bucket arrays to the caller under allocation profiling. */
#define rhashtable_init(...) \
	alloc_hooks(rhashtable_init_noprof(__VA_ARGS__))
#define rhltable_init(...) \
	alloc_hooks(rhltable_init_noprof(__VA_ARGS__))

/**
 * struct rhash_head - hook embedded in every object stored in a table
 * @next: the next object of the hash chain, or a nulls marker at its end
 *
 * One pointer per object: resizing relinks these pointers in place and
 * never needs a second hook.
 */
struct rhash_head {
	struct rhash_head __rcu		*next;
};

/**
 * struct rhashtable_compare_arg - what an @obj_cmpfn is asked to compare
 * @ht: the table being searched
 * @key: the key being looked for
 */
struct rhashtable_compare_arg {
	struct rhashtable	*ht;
	const void		*key;
};

/**
 * struct rhlist_head - hook for tables that accept duplicate keys
 * @rhead: links the first object of each key into its hash chain
 * @next: the next object with the same key
 */
struct rhlist_head {
	struct rhash_head		rhead;
	struct rhlist_head __rcu	*next;
};

typedef u32 (*rht_hashfn_t)(const void *data, u32 len, u32 seed);
typedef int (*rht_obj_cmpfn_t)(struct rhashtable_compare_arg *arg,
			       const void *obj);
typedef u32 (*rht_obj_hashfn_t)(const void *data, u32 len, u32 seed);

/**
 * struct rhashtable_params - how a table hashes, compares and sizes itself
 * @key_len: length of the key in bytes (0 if @obj_hashfn hashes objects)
 * @key_offset: offset of the key within the object
 * @head_offset: offset of the &struct rhash_head within the object
 * @hashfn: hash a key (default: jhash, or jhash2 for whole 32-bit words)
 * @obj_cmpfn: compare a key with an object, 0 meaning equal
 * @obj_hashfn: hash a whole object instead of its key (6.12 signature)
 * @nelem_hint: expected number of elements, sizes the first bucket array
 * @min_size: lower bound on the number of buckets
 * @max_size: upper bound on the number of buckets (0: no bound)
 * @automatic_shrinking: shrink the table when it becomes sparse
 * @max_shift: upper bound on the bucket count as a power of two
 *	(alternative to @max_size, from the 3.17 interface)
 * @hash_rnd: hash seed; 0 asks for a random one (and lets the table pick
 *	a fresh one when it detects a hash flood)
 * @grow_decision: return true to double the table; called with the
 *	current number of buckets (3.17 interface)
 * @shrink_decision: return true to halve the table (3.17 interface)
 * @mutex_is_held: for lockdep: does the caller hold the lock that
 *	serialises the 3.17-style update calls?
 *
 * Tables set up with the 6.12 fields alone behave exactly as in 6.12; the
 * last five fields belong to the 3.17 interface.
 */
struct rhashtable_params {
	u16			key_len;
	u16			key_offset;
	u16			head_offset;
	rht_hashfn_t		hashfn;
	rht_obj_cmpfn_t		obj_cmpfn;
	rht_obj_hashfn_t	obj_hashfn;
	u16			nelem_hint;
	u16			min_size;
	unsigned int		max_size;
	bool			automatic_shrinking;
	u8			max_shift;
	u32			hash_rnd;
	bool			(*grow_decision)(const struct rhashtable *ht,
						 size_t new_size);
	bool			(*shrink_decision)(const struct rhashtable *ht,
						   size_t new_size);
	int			(*mutex_is_held)(void);
};

/**
 * struct rhashtable_stats - what a table has done since it was created
 * @grows: completed doublings (chains unzipped in place)
 * @shrinks: completed halvings (chains zipped in place)
 * @rehashes: tables rebuilt by moving entries (new seed, new layout)
 * @reseeds: rehashes that picked a fresh seed after a long chain
 * @nested: bucket arrays built from page-sized pieces
 * @unzip_passes: passes over the table made by all doublings
 * @grace_periods: RCU grace periods waited for by resizes
 * @alloc_failures: bucket arrays that could not be allocated
 * @long_chains: requests for a new seed the worker took up, made by
 *	inserts that found a chain longer than RHT_ELASTICITY; one can be
 *	pending at a time
 */
struct rhashtable_stats {
	unsigned long		grows;
	unsigned long		shrinks;
	unsigned long		rehashes;
	unsigned long		reseeds;
	unsigned long		nested;
	unsigned long		unzip_passes;
	unsigned long		grace_periods;
	unsigned long		alloc_failures;
	unsigned long		long_chains;
};

/**
 * struct rhashtable - a resizable hash table
 * @tbl: the bucket array readers start from
 * @key_len: key length in bytes
 * @max_elems: inserts fail with -E2BIG once this many objects are stored
 * @p: the parameters the table was created with, completed with defaults
 * @rhlist: the table is the inside of a &struct rhltable
 * @mutex: serialises the worker, explicit resizes and destruction
 * @run_work: the deferred worker that resizes the table
 * @lock: protects the walker lists
 * @nelems: number of objects (of keys, in an rhltable)
 * @walks: walks between rhashtable_walk_start() and _stop(); while there
 *	are any, removals tell them (see rht_unlinked())
 * @alloc_tag: allocation profiling tag
 *
 * Embedded in many structures (several per network namespace), so it
 * holds only what every table needs.  What resizing needs besides the
 * worker is allocated by the first resize and hangs off the bucket array
 * (&bucket_table.rs).  On x86_64 without debug options this is 32 bytes
 * more than 6.12's, all of them the 3.17 members of &struct
 * rhashtable_params; @walks fills a hole.
 */
struct rhashtable {
	/* Read by every lookup: the array and the parameters first. */
	struct bucket_table __rcu	*tbl;
	struct rhashtable_params	p;
	unsigned int			max_elems;
	unsigned int			key_len;
	bool				rhlist;
	/* Written only as walks start and stop: in the hole after @rhlist. */
	atomic_t			walks;
	/* The worker's, and the slow paths'. */
	struct mutex			mutex;
	struct work_struct		run_work;
	/* Written by every update: away from the lines lookups read. */
	atomic_t			nelems;
	spinlock_t			lock;	/* walker lists */
#ifdef CONFIG_MEM_ALLOC_PROFILING
	struct alloc_tag		*alloc_tag;
#endif
};

/**
 * struct rhashtable_walker - a walker registered on a bucket array
 * @tbl: the array being walked; NULL once it has been replaced
 * @list: entry in the array's walker list
 */
struct rhashtable_walker {
	struct bucket_table	*tbl;
	struct list_head	list;
};

/**
 * struct rhashtable_iter - position of a walk over a table
 * @ht: the table being walked
 * @walker: registration that tells the walk when its array is replaced
 * @slot: bucket index the walk is in
 * @p: the object returned last (its hook), NULL before the first
 * @list: for rhltables, the duplicate returned last
 * @skip: objects of the bucket already returned
 * @seq: the bucket's stripe, read before the walk of the bucket began
 * @p_next: @p's successor when the walk stopped, to tell after a restart
 *	whether @p was moved meanwhile
 * @live: @p was returned under the current RCU read lock, so it may be
 *	followed; after a stop it is only compared against
 * @end_of_table: the walk has returned every object
 */
struct rhashtable_iter {
	struct rhashtable		*ht;
	struct rhashtable_walker	walker;
	unsigned int			slot;
	struct rhash_head		*p;
	struct rhlist_head		*list;
	unsigned int			skip;
	unsigned int			seq;
	struct rhash_head		*p_next;
	bool				live;
	bool				end_of_table;
};

/**
 * struct rhltable - a hash table whose keys may repeat
 * @ht: the underlying table; objects with equal keys share one chain slot
 */
struct rhltable {
	struct rhashtable ht;
};

#endif /* _LINUX_RHASHTABLE_TYPES_H */
