// SPDX-License-Identifier: GPL-2.0
/*
 * Differential fuzzer: the input drives a sequence of operations on an
 * rhashtable (or rhltable) and on a trivial reference model (an array
 * indexed by key number), and every result is compared.
 *
 * Input layout:
 *   byte 0   configuration flags
 *              bit 0     rhltable (duplicate keys) instead of rhashtable
 *              bit 1     automatic_shrinking
 *              bits 2-3  key length: 4, 8, 5 (jhash path), 16 bytes
 *              bit 4     degenerate hash function (few buckets used,
 *                        ignores the seed: long chains, futile rehashes)
 *              bit 5     custom obj_hashfn + obj_cmpfn
 *              bit 6     use compile-time constant params (4-byte keys)
 *   byte 1   min_size
 *   byte 2   max_size: 0 none, else 1 << (4 + n % 12)
 *   byte 3   nelem_hint / 4
 *   then two bytes per operation: opcode (low 5 bits; bit 7 is key bit
 *   8) and key number bits 0-7, so 512 distinct keys.
 *
 * Besides inserts, removes and replacements, objects move: the same
 * object is taken out and inserted again at once under another key, or
 * parked in a second table of the same kind and brought back later under
 * any free key, as users that re-key objects or move them between tables
 * do.
 *
 * Deferred work (the resize worker) and RCU callbacks run only when an
 * operation says so (rht_wq_set_manual(), rht_rcu_set_manual()), which
 * makes every run deterministic.  With
 * implementations that provide explicit resizing, expand/shrink/rehash
 * are operations too (RHT_TEST_HAVE_RESIZE).
 *
 * After the last operation the whole table is compared with the model,
 * destroyed with *_free_and_destroy() (each object exactly once) and no
 * shim allocation may be left.
 */
#include <stdint.h>
#include <sys/stat.h>

#ifndef RHT_FUZZ_STANDALONE
#define RHT_FAIL_ABORT	1	/* let libFuzzer save the failing input */
#endif
#include "rht_test.h"

#define NKEYS		512
#define MAX_DUPS	6	/* rhltable: objects per key in the model */
#define MAX_OBJS	4096

struct fobj {
	union {
		struct rhash_head node;
		struct rhlist_head list;
	};
	u8 key[16];
	u32 knum;
	u32 magic;
	unsigned int destroyed;
	int walk_epoch;		/* op_walk_move(): last epoch returned in */
	bool walk_moved;	/* op_walk_move(): moved during the walk */
};

#define FOBJ_MAGIC	0xf0b1ec75u

static bool lax_walk;

static struct {
	bool rhl, const_params, degenerate, custom;
	unsigned int key_len;
	struct rhashtable_params p;
	union {
		struct rhashtable ht;
		struct rhltable hlt;
	};
	/* model */
	struct fobj *obj[NKEYS][MAX_DUPS];
	unsigned int nobj[NKEYS];
	unsigned long count;
	/* persistent iterator across operations */
	struct rhashtable_iter iter;
	bool iter_active;
	bool failing;		/* fault injection armed at some point */
	u8 keys[NKEYS][16];
	/* the second table, and the objects parked in it */
	union {
		struct rhashtable ht2;
		struct rhltable hlt2;
	};
	struct fobj *out[64];
	unsigned int nout;
} F;

static void make_keys(void)
{
	unsigned int i;

	for (i = 0; i < NKEYS; i++) {
		u32 a = i * 0x9e3779b1u + 0x12345u, b = ~i, c = i * 7 + 1;
		u8 *k = F.keys[i];

		memcpy(k, &a, 4);
		memcpy(k + 4, &b, 4);
		memcpy(k + 8, &c, 4);
		memcpy(k + 12, &a, 4);
		k[4] ^= i >> 8;		/* 5-byte keys must differ too */
	}
}

/* Degenerate: four buckets at most, and the seed is ignored. */
static u32 bad_hashfn(const void *data, u32 len, u32 seed)
{
	return ((const u8 *)data)[0] & 3;
}

static u32 custom_obj_hashfn(const void *data, u32 len, u32 seed)
{
	const struct fobj *obj = data;

	if (F.degenerate)
		return bad_hashfn(obj->key, F.key_len, seed);
	return jhash(obj->key, F.key_len, seed);
}

static int custom_obj_cmpfn(struct rhashtable_compare_arg *arg,
			    const void *ptr)
{
	const struct fobj *obj = ptr;

	return memcmp(obj->key, arg->key, F.key_len) != 0;
}

static u32 custom_hashfn(const void *data, u32 len, u32 seed)
{
	if (F.degenerate)
		return bad_hashfn(data, len, seed);
	return jhash(data, len, seed);
}

static const struct rhashtable_params const_params = {
	.key_len = 4,
	.key_offset = offsetof(struct fobj, key),
	.head_offset = offsetof(struct fobj, node),
	.automatic_shrinking = true,
};

static struct fobj *obj_new(unsigned int knum)
{
	struct fobj *obj = calloc(1, sizeof(*obj));

	CHECK(obj, "out of memory");
	memcpy(obj->key, F.keys[knum], sizeof(obj->key));
	obj->knum = knum;
	obj->magic = FOBJ_MAGIC;
	return obj;
}

static void obj_free(struct fobj *obj)
{
	obj->magic = 0;
	free(obj);
}

/* Is @obj one of the model's objects for its key? */
static int model_index(const struct fobj *obj)
{
	unsigned int i;

	CHECK(obj->magic == FOBJ_MAGIC, "object %p has bad magic %#x", obj,
	      obj->magic);
	for (i = 0; i < F.nobj[obj->knum]; i++)
		if (F.obj[obj->knum][i] == obj)
			return i;
	return -1;
}

static void model_add(unsigned int knum, struct fobj *obj)
{
	F.obj[knum][F.nobj[knum]++] = obj;
	F.count++;
}

static void model_del(unsigned int knum, unsigned int idx)
{
	F.obj[knum][idx] = F.obj[knum][--F.nobj[knum]];
	F.count--;
}

/*
 * Errors an insertion may legitimately return; the model is unchanged
 * then.  -ENOMEM only while allocation failures are being injected,
 * -E2BIG only with a max_size.
 */
static void check_insert_error(int err, unsigned int knum, const char *op)
{
	CHECK(err == -EBUSY || (err == -ENOMEM && F.failing) ||
	      (err == -E2BIG && F.p.max_size),
	      "%s of key %u failed with %d", op, knum, err);
}

/* ------------------------------------------------------------------ */
/* Operations.  @p is either the runtime params or the constant set;     */
/* the functions are always inlined so the constant case is compiled   */
/* the way typical kernel users compile it.                             */
/* ------------------------------------------------------------------ */

enum {
	OP_INSERT, OP_LOOKUP_INSERT, OP_LOOKUP_GET_INSERT, OP_REMOVE,
	OP_REPLACE, OP_LOOKUP, OP_LOOKUP_MISSING, OP_WALK, OP_WALK_STEP,
	OP_WALK_END, OP_RUN_WORK, OP_AUDIT, OP_FAIL_NTH, OP_INSERT_BURST,
	OP_REMOVE_BURST, OP_EXPAND, OP_SHRINK, OP_REHASH, OP_RCU, OP_TIME,
	OP_MOVE, OP_MOVE_OUT, OP_MOVE_IN, OP_WALK_MOVE,
	OP_MAX
};

static __always_inline struct fobj *
lookup_one(const struct rhashtable_params p, unsigned int knum)
{
	return rhashtable_lookup_fast(&F.ht, F.keys[knum], p);
}

/* Check what a lookup of @knum sees against the model. */
static __always_inline void check_lookup(const struct rhashtable_params p,
					 unsigned int knum)
{
	if (!F.rhl) {
		struct fobj *obj = lookup_one(p, knum), *obj2;

		CHECK(obj == (F.nobj[knum] ? F.obj[knum][0] : NULL),
		      "lookup of key %u: got %p, model has %u objects", knum,
		      obj, F.nobj[knum]);
		rcu_read_lock();
		obj2 = rhashtable_lookup(&F.ht, F.keys[knum], p);
		rcu_read_unlock();
		CHECK(obj2 == obj, "rhashtable_lookup disagrees for key %u",
		      knum);
	} else {
		bool seen[MAX_DUPS] = { false };
		struct rhlist_head *list, *pos;
		unsigned int n = 0;
		struct fobj *obj;

		rcu_read_lock();
		list = rhltable_lookup(&F.hlt, F.keys[knum], p);
		rhl_for_each_entry_rcu(obj, pos, list, list) {
			int i = model_index(obj);

			CHECK(obj->knum == knum && i >= 0,
			      "rhltable lookup of key %u returned key %u (%d)",
			      knum, obj->knum, i);
			CHECK(!seen[i], "rhltable lookup of key %u: object twice",
			      knum);
			seen[i] = true;
			n++;
		}
		rcu_read_unlock();
		CHECK(n == F.nobj[knum],
		      "rhltable lookup of key %u found %u objects, model %u",
		      knum, n, F.nobj[knum]);
	}
}

static __always_inline void op_insert(const struct rhashtable_params p,
				      unsigned int knum, int how)
{
	struct fobj *obj, *old;
	bool present;
	int err;

	if (F.count >= MAX_OBJS)
		return;
	if (F.rhl) {
		if (F.nobj[knum] >= MAX_DUPS)
			return;
		obj = obj_new(knum);
		err = how ? rhltable_insert_key(&F.hlt, F.keys[knum],
						&obj->list, p) :
			    rhltable_insert(&F.hlt, &obj->list, p);
		if (err) {
			check_insert_error(err, knum, "rhltable_insert");
			obj_free(obj);
		} else {
			model_add(knum, obj);
		}
		check_lookup(p, knum);
		return;
	}

	present = F.nobj[knum];
	obj = obj_new(knum);
	switch (how) {
	case 0:
		/* insert_fast does not look for duplicates: only if absent */
		if (present) {
			obj_free(obj);
			return;
		}
		err = rhashtable_insert_fast(&F.ht, &obj->node, p);
		break;
	case 1:
		/* The _fast variants refuse tables with an obj_hashfn. */
		if (F.custom)
			err = rhashtable_lookup_insert_key(&F.ht, F.keys[knum],
							   &obj->node, p);
		else
			err = rhashtable_lookup_insert_fast(&F.ht, &obj->node,
							    p);
		break;
	default:
		if (F.custom)
			old = rhashtable_lookup_get_insert_key(&F.ht,
							       F.keys[knum],
							       &obj->node, p);
		else
			old = rhashtable_lookup_get_insert_fast(&F.ht,
								&obj->node, p);
		if (IS_ERR(old)) {
			err = PTR_ERR(old);
		} else if (old) {
			CHECK(present && old == F.obj[knum][0],
			      "lookup_get_insert of key %u returned %p, model %p",
			      knum, old, present ? F.obj[knum][0] : NULL);
			err = -EEXIST;
		} else {
			err = 0;
		}
		break;
	}
	if (!err) {
		CHECK(!present, "key %u inserted twice (insert op %d)", knum,
		      how);
		model_add(knum, obj);
	} else {
		if (err == -EEXIST)
			CHECK(present, "insert op %d of absent key %u: -EEXIST",
			      how, knum);
		else
			check_insert_error(err, knum, "insert");
		obj_free(obj);
	}
	check_lookup(p, knum);
}

static __always_inline void op_remove(const struct rhashtable_params p,
				      unsigned int knum, unsigned int sel)
{
	struct fobj *obj;
	int err;

	if (!F.nobj[knum] || sel % 8 == 7) {
		/* Something that is not in the table. */
		struct fobj *stray = obj_new(knum);

		err = F.rhl ? rhltable_remove(&F.hlt, &stray->list, p) :
			      rhashtable_remove_fast(&F.ht, &stray->node, p);
		CHECK(err == -ENOENT, "remove of absent object (key %u): %d",
		      knum, err);
		obj_free(stray);
	} else {
		unsigned int idx = sel % F.nobj[knum];

		obj = F.obj[knum][idx];
		err = F.rhl ? rhltable_remove(&F.hlt, &obj->list, p) :
			      rhashtable_remove_fast(&F.ht, &obj->node, p);
		CHECK(!err, "remove of present key %u: %d", knum, err);
		model_del(knum, idx);
		obj_free(obj);
	}
	check_lookup(p, knum);
}

static __always_inline void op_replace(const struct rhashtable_params p,
				       unsigned int knum)
{
	struct fobj *obj, *new;
	int err;

	if (F.rhl)
		return;
	new = obj_new(knum);
	if (F.nobj[knum]) {
		obj = F.obj[knum][0];
		err = rhashtable_replace_fast(&F.ht, &obj->node, &new->node, p);
		CHECK(!err, "replace of present key %u: %d", knum, err);
		F.obj[knum][0] = new;
		obj_free(obj);
	} else {
		struct fobj *stray = obj_new(knum);

		err = rhashtable_replace_fast(&F.ht, &stray->node, &new->node, p);
		CHECK(err == -ENOENT, "replace of absent key %u: %d", knum, err);
		obj_free(stray);
		obj_free(new);
	}
	check_lookup(p, knum);
}

/* Insert @obj, under its current key, into table @ht (rhltable or not). */
static __always_inline int obj_insert(const struct rhashtable_params p,
				      struct rhashtable *ht, struct fobj *obj)
{
	if (F.rhl)
		return rhltable_insert_key(container_of(ht, struct rhltable, ht),
					   obj->key, &obj->list, p);
	if (F.custom)
		return rhashtable_lookup_insert_key(ht, obj->key, &obj->node, p);
	return rhashtable_lookup_insert_fast(ht, &obj->node, p);
}

static __always_inline int obj_remove(const struct rhashtable_params p,
				      struct rhashtable *ht, struct fobj *obj)
{
	if (F.rhl)
		return rhltable_remove(container_of(ht, struct rhltable, ht),
				       &obj->list, p);
	return rhashtable_remove_fast(ht, &obj->node, p);
}

static void obj_rekey(struct fobj *obj, unsigned int knum)
{
	memcpy(obj->key, F.keys[knum], sizeof(obj->key));
	obj->knum = knum;
}

/* A key an object may move to: free, or with room for a duplicate. */
static int free_key(unsigned int from)
{
	unsigned int k, n;

	for (n = 0; n < NKEYS; n++) {
		k = (from + n * 37) % NKEYS;
		if (F.rhl ? F.nobj[k] < MAX_DUPS : !F.nobj[k])
			return k;
	}
	return -1;
}

/* A failed re-insertion leaves the object out of every table. */
static void moved_insert_failed(int err, struct fobj *obj, const char *op)
{
	check_insert_error(err, obj->knum, op);
	obj_free(obj);
}

/*
 * Take @obj (the model's @idx-th of its key) out and insert it again
 * under key @to.  Returns the insert's error; the object is then out of
 * every table and the caller frees it.
 */
static __always_inline int obj_move(const struct rhashtable_params p,
				    struct fobj *obj, unsigned int idx,
				    unsigned int to, const char *who)
{
	int err = obj_remove(p, &F.ht, obj);

	CHECK(!err, "%s: remove of key %u: %d", who, obj->knum, err);
	model_del(obj->knum, idx);
	obj_rekey(obj, to);
	err = obj_insert(p, &F.ht, obj);
	if (err)
		check_insert_error(err, obj->knum, who);
	else
		model_add(to, obj);
	return err;
}

/* Take an object of @knum out and insert it again under another key. */
static __always_inline void op_move(const struct rhashtable_params p,
				    unsigned int knum, unsigned int sel)
{
	int to = free_key(knum + 1 + sel);
	unsigned int idx;
	struct fobj *obj;

	if (!F.nobj[knum] || to < 0 || to == (int)knum)
		return;
	idx = sel % F.nobj[knum];
	obj = F.obj[knum][idx];
	if (obj_move(p, obj, idx, to, "move"))
		obj_free(obj);
	check_lookup(p, knum);
	check_lookup(p, to);
}

/* Does an object parked in the second table have key @knum? */
static bool parked(unsigned int knum)
{
	unsigned int i;

	for (i = 0; i < F.nout; i++)
		if (F.out[i]->knum == knum)
			return true;
	return false;
}

/* Park an object of @knum in the second table, under its key. */
static __always_inline void op_move_out(const struct rhashtable_params p,
					unsigned int knum, unsigned int sel)
{
	unsigned int idx, k;
	struct fobj *obj;
	int err;

	if (!F.nobj[knum] || F.nout == ARRAY_SIZE(F.out))
		return;
	idx = sel % F.nobj[knum];
	obj = F.obj[knum][idx];
	err = obj_remove(p, &F.ht, obj);
	CHECK(!err, "move out: remove of key %u: %d", knum, err);
	model_del(knum, idx);
	/* Under its own key, unless the second table has that already. */
	for (k = knum; parked(k); k = (k + 1) % NKEYS)
		;
	obj_rekey(obj, k);
	err = obj_insert(F.p, &F.ht2, obj);
	if (err)
		moved_insert_failed(err, obj, "move out");
	else
		F.out[F.nout++] = obj;
	check_lookup(p, knum);
}

/* Bring a parked object back under a free key of its own choosing. */
static __always_inline void op_move_in(const struct rhashtable_params p,
				       unsigned int knum)
{
	int to = free_key(knum), err;
	unsigned int slot;
	struct fobj *obj;

	if (!F.nout || to < 0)
		return;
	slot = knum % F.nout;
	obj = F.out[slot];
	F.out[slot] = F.out[--F.nout];
	err = obj_remove(F.p, &F.ht2, obj);
	CHECK(!err, "move in: remove from the second table: %d", err);
	obj_rekey(obj, to);
	err = obj_insert(p, &F.ht, obj);
	if (err)
		moved_insert_failed(err, obj, "move in");
	else
		model_add(to, obj);
	check_lookup(p, to);
}

/* ------------------------------------------------------------------ */
/* Whole-table comparisons                                              */
/* ------------------------------------------------------------------ */

/* Count occurrences of every model object in a bitmap-like array. */
static unsigned char *seen_alloc(void)
{
	unsigned char *s = calloc(NKEYS * MAX_DUPS, 1);

	CHECK(s, "out of memory");
	return s;
}

/* @dups: a walk restarted (-EAGAIN) and may return objects again. */
static void seen_obj(unsigned char *seen, struct fobj *obj, const char *who,
		     bool dups)
{
	int idx = model_index(obj);

	CHECK(idx >= 0, "%s returned key %u which the model does not have",
	      who, obj->knum);
	CHECK(!seen[obj->knum * MAX_DUPS + idx]++ || dups,
	      "%s returned an object of key %u twice (resize in flight: %d)",
	      who, obj->knum, rht_test_resizing(&F.ht));
}

static void seen_all(unsigned char *seen, const char *who, bool dups)
{
	unsigned int k, i;

	for (k = 0; k < NKEYS; k++)
		for (i = 0; i < F.nobj[k]; i++)
			CHECK(seen[k * MAX_DUPS + i] == 1 ||
			      (dups && seen[k * MAX_DUPS + i] > 1),
			      "%s returned an object of key %u %u times", who,
			      k, seen[k * MAX_DUPS + i]);
}

static void op_walk(void)
{
	unsigned char *seen = seen_alloc();
	struct rhashtable_iter iter;
	bool restarted = false;
	void *ptr;

	if (F.rhl)
		rhltable_walk_enter(&F.hlt, &iter);
	else
		rhashtable_walk_enter(&F.ht, &iter);
	rhashtable_walk_start(&iter);
	/* RHT_FUZZ_LAX_WALK=1 tolerates repeats, to look past a known bug. */
	restarted = lax_walk;
	/*
	 * Nothing changes while we walk (deferred work only runs on
	 * request), so every object must come back exactly once; after an
	 * -EAGAIN (the walk moved to another bucket array and restarted)
	 * the API allows repeats, but still nothing may be missed.
	 */
	while ((ptr = rhashtable_walk_next(&iter)) != NULL) {
		if (IS_ERR(ptr)) {
			CHECK(PTR_ERR(ptr) == -EAGAIN, "walk: error %ld",
			      PTR_ERR(ptr));
			restarted = true;
			continue;
		}
		seen_obj(seen, ptr, "walk", restarted);
	}
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	seen_all(seen, "walk", restarted);
	free(seen);
}

#define WALK_MOVES	64

/*
 * A walk that moves every @stride-th object it returns to a free key of
 * the table while it still stands on it, under the RCU read lock: the walk
 * is carried to wherever the object went (the head of its own bucket, a
 * bucket walked already...).  Objects present for the whole walk must come
 * back at least once, and not twice without an -EAGAIN in between; what
 * the walk returns must be in the table.
 */
static __always_inline void op_walk_move(const struct rhashtable_params p,
					 unsigned int stride)
{
	struct fobj *obj, *lost[WALK_MOVES];
	unsigned int k, i, n = 0, moves = 0, nlost = 0;
	struct rhashtable_iter iter;
	int epoch = 0, to;
	void *ptr;

	for (k = 0; k < NKEYS; k++)
		for (i = 0; i < F.nobj[k]; i++) {
			F.obj[k][i]->walk_epoch = -1;
			F.obj[k][i]->walk_moved = false;
		}
	if (F.rhl)
		rhltable_walk_enter(&F.hlt, &iter);
	else
		rhashtable_walk_enter(&F.ht, &iter);
	rhashtable_walk_start(&iter);
	while ((ptr = rhashtable_walk_next(&iter)) != NULL) {
		if (IS_ERR(ptr)) {
			CHECK(PTR_ERR(ptr) == -EAGAIN, "walk move: error %ld",
			      PTR_ERR(ptr));
			epoch++;
			continue;
		}
		obj = ptr;
		CHECK(model_index(obj) >= 0,
		      "walk move returned key %u which is not in the table",
		      obj->knum);
		CHECK(obj->walk_moved || obj->walk_epoch != epoch,
		      "walk move returned key %u twice without -EAGAIN",
		      obj->knum);
		obj->walk_epoch = epoch;
		if (++n % stride || obj->walk_moved || moves == WALK_MOVES)
			continue;
		to = free_key(obj->knum + 1 + n);
		if (to < 0 || to == (int)obj->knum)
			continue;
		obj->walk_moved = true;
		moves++;
		/* The walk may stand on a lost one: free it afterwards. */
		if (obj_move(p, obj, model_index(obj), to, "walk move"))
			lost[nlost++] = obj;
	}
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	for (k = 0; k < NKEYS; k++)
		for (i = 0; i < F.nobj[k]; i++)
			CHECK(F.obj[k][i]->walk_moved ||
			      F.obj[k][i]->walk_epoch >= 0,
			      "walk move missed key %u", k);
	for (i = 0; i < nlost; i++)
		obj_free(lost[i]);
}

/* An iterator that lives across operations: stop, modify, start. */
static void op_walk_step(unsigned int n)
{
	void *ptr;

	if (!F.iter_active) {
		if (F.rhl)
			rhltable_walk_enter(&F.hlt, &F.iter);
		else
			rhashtable_walk_enter(&F.ht, &F.iter);
		F.iter_active = true;
	}
	rhashtable_walk_start(&F.iter);
	while (n--) {
		ptr = rhashtable_walk_next(&F.iter);
		if (!ptr)
			break;
		if (IS_ERR(ptr)) {
			CHECK(PTR_ERR(ptr) == -EAGAIN, "walk step: error %ld",
			      PTR_ERR(ptr));
			continue;
		}
		/* Whatever it returns must be in the table right now. */
		CHECK(model_index(ptr) >= 0,
		      "walk step returned key %u which is not in the table",
		      ((struct fobj *)ptr)->knum);
	}
	rhashtable_walk_stop(&F.iter);
}

static void op_walk_end(void)
{
	if (F.iter_active) {
		rhashtable_walk_exit(&F.iter);
		F.iter_active = false;
	}
}

static int audit_chain_obj(void *arg, struct rhash_head *he,
			   unsigned int table, unsigned int bucket)
{
	unsigned char *seen = arg;

	if (F.rhl) {
		struct rhlist_head *list = container_of(he, struct rhlist_head,
							rhead);

		for (; list; list = rcu_dereference(list->next))
			seen_obj(seen, container_of(list, struct fobj, list),
				 "chain walk", false);
	} else {
		seen_obj(seen, container_of(he, struct fobj, node),
			 "chain walk", false);
	}
	return 0;
}

static void op_audit(void)
{
	unsigned long keys = 0;
	unsigned int k;

	/*
	 * Each object on exactly one chain, unless a resize is in flight:
	 * then it may legitimately sit on the chains of two arrays.
	 */
	if (!rht_test_resizing(&F.ht)) {
		unsigned char *seen = seen_alloc();

		rht_test_chain_walk(&F.ht, audit_chain_obj, seen);
		seen_all(seen, "chain walk", false);
		free(seen);
	}
	/* An rhltable's nelems counts keys: duplicates share one entry. */
	for (k = 0; k < NKEYS; k++)
		keys += RHT_TEST_RHL_COUNTS_OBJECTS ? F.nobj[k] : !!F.nobj[k];
	CHECK(rht_test_nelems(&F.ht) == keys, "nelems %u, model %lu",
	      rht_test_nelems(&F.ht), keys);
}

static __always_inline void run_ops(const struct rhashtable_params p,
				    const u8 *data, size_t size)
{
	size_t i;

	for (i = 0; i + 1 < size; i += 2) {
		unsigned int op = (data[i] & 0x1f) % OP_MAX;
		unsigned int knum = data[i + 1] | ((data[i] & 0x80) << 1);
		unsigned int k;

		switch (op) {
		case OP_INSERT:
			op_insert(p, knum, 0);
			break;
		case OP_LOOKUP_INSERT:
			op_insert(p, knum, 1);
			break;
		case OP_LOOKUP_GET_INSERT:
			op_insert(p, knum, 2);
			break;
		case OP_REMOVE:
			op_remove(p, knum, data[i] >> 5);
			break;
		case OP_REPLACE:
			op_replace(p, knum);
			break;
		case OP_LOOKUP:
			check_lookup(p, knum);
			break;
		case OP_LOOKUP_MISSING: {
			/* A key that is never inserted. */
			u8 key[16];

			memcpy(key, F.keys[knum], sizeof(key));
			key[0] ^= 0x5a;
			key[3] ^= 0xa5;
			rcu_read_lock();
			if (F.rhl)
				CHECK(!rhltable_lookup(&F.hlt, key, p),
				      "never-inserted key found");
			else
				CHECK(!rhashtable_lookup(&F.ht, key, p),
				      "never-inserted key found");
			rcu_read_unlock();
			break;
		}
		case OP_WALK:
			op_walk();
			break;
		case OP_WALK_STEP:
			op_walk_step(knum % 32 + 1);
			break;
		case OP_WALK_END:
			op_walk_end();
			break;
		case OP_RUN_WORK:
			rht_wq_run_pending();
			break;
		case OP_RCU:
			/* Grace period: deferred frees (old tables) happen. */
			rht_rcu_run_callbacks();
			break;
		case OP_TIME:
			/* Time passes (0..2 s): due timers fire. */
			rht_time_advance(knum * 4);
			break;
		case OP_AUDIT:
			op_audit();
			break;
		case OP_FAIL_NTH:
			/* Fail the n-th allocation from now (0: stop). */
			rht_set_fail_nth(knum % 17);
			F.failing |= knum % 17 != 0;
			break;
		case OP_INSERT_BURST:
			for (k = 0; k < 64; k++)
				op_insert(p, (knum + k) % NKEYS, k % 3);
			break;
		case OP_REMOVE_BURST:
			for (k = 0; k < 64; k++)
				if (F.nobj[(knum + k) % NKEYS])
					op_remove(p, (knum + k) % NKEYS, k);
			break;
		case OP_MOVE:
			op_move(p, knum, data[i] >> 5);
			break;
		case OP_MOVE_OUT:
			op_move_out(p, knum, data[i] >> 5);
			break;
		case OP_MOVE_IN:
			op_move_in(p, knum);
			break;
		case OP_WALK_MOVE:
			op_walk_move(p, knum % 4 + 1);
			break;
#ifdef RHT_TEST_HAVE_RESIZE
		case OP_EXPAND:
		case OP_SHRINK:
		case OP_REHASH: {
			int err;

			/* Doubling an empty table forever only eats memory. */
			if (op == OP_EXPAND &&
			    rht_test_table_size(&F.ht) >= (1u << 16))
				break;
			err = op == OP_EXPAND ? rht_test_expand(&F.ht) :
				  op == OP_SHRINK ? rht_test_shrink(&F.ht) :
						    rht_test_rehash(&F.ht);

			CHECK(!err || (rht_test_resize_err_ok(err) &&
				       (err != -ENOMEM || F.failing)),
			      "explicit resize op %u returned %d", op, err);
			break;
		}
#endif
		default:
			break;
		}
		/*
		 * Single-threaded, worker parked: the chains hold still.
		 * Big arrays every 32 operations, small ones after each.
		 */
		if (rht_test_table_size(&F.ht) <= 1024 || !(i % 64))
			CHECK(!rht_test_check_structure(&F.ht),
			      "broken table after op %u on key %u", op, knum);
	}
}

static unsigned long destroyed;
static bool F_setup_done;
/* Key lengths, picked by bits 2 and 3 of the first input byte. */
static const unsigned int key_lens[] = { 4, 8, 5, 16 };

static void destroy_one(void *ptr, void *arg)
{
	struct fobj *obj = ptr;

	CHECK(arg == &destroyed, "free_fn arg %p", arg);
	CHECK(model_index(obj) >= 0, "destroy returned a foreign object");
	CHECK(++obj->destroyed == 1, "destroy returned key %u twice",
	      obj->knum);
	destroyed++;
}

/*
 * The libFuzzer entry point.  libFuzzer looks for it by a mixed-case name,
 * which only its symbol has to carry: hence the asm label.
 */
int rht_fuzz_one_input(const uint8_t *data, size_t size)
	__asm__("LLVMFuzzerTestOneInput");

int rht_fuzz_one_input(const uint8_t *data, size_t size)
{
	unsigned int k, i;
	int err;

	if (size < 4)
		return 0;

	memset(&F, 0, sizeof(F));
	make_keys();
	rht_random_seed(0x1234 + size);
	if (!F_setup_done) {
		lax_walk = getenv("RHT_FUZZ_LAX_WALK") &&
			   atoi(getenv("RHT_FUZZ_LAX_WALK"));
		rht_wq_set_manual(true);
		rht_rcu_set_manual(true);
		F_setup_done = true;
	}

	F.rhl = data[0] & 1;
	F.key_len = key_lens[(data[0] >> 2) & 3];
	F.degenerate = data[0] & 0x10;
	F.custom = data[0] & 0x20;
	F.const_params = (data[0] & 0x40) && F.key_len == 4 && !F.custom &&
			 !F.degenerate && !F.rhl;
	F.p = (struct rhashtable_params){
		.key_len = F.key_len,
		.key_offset = offsetof(struct fobj, key),
		.head_offset = offsetof(struct fobj, node),
		.automatic_shrinking = data[0] & 2,
		.min_size = data[1],
		.max_size = data[2] ? 1u << (4 + data[2] % 12) : 0,
		.nelem_hint = data[3] * 4,
	};
	if (F.degenerate || F.custom)
		F.p.hashfn = custom_hashfn;
	if (F.custom) {
		F.p.obj_hashfn = custom_obj_hashfn;
		F.p.obj_cmpfn = custom_obj_cmpfn;
	}
	if (F.const_params)
		F.p = const_params;

	err = F.rhl ? rhltable_init(&F.hlt, &F.p) : rhashtable_init(&F.ht, &F.p);
	if (err == -EINVAL && RHT_TEST_INIT_REJECTS_MIN_GT_MAX &&
	    F.p.max_size && F.p.min_size > F.p.max_size)
		return 0;
	CHECK(!err, "init: %d", err);
	err = F.rhl ? rhltable_init(&F.hlt2, &F.p) :
		      rhashtable_init(&F.ht2, &F.p);
	CHECK(!err, "init of the second table: %d", err);

	if (F.const_params)
		run_ops(const_params, data + 4, size - 4);
	else
		run_ops(F.p, data + 4, size - 4);

	/* Final comparison, without injected failures. */
	rht_set_fail_nth(0);
	op_walk_end();
	op_walk();
	op_audit();
	/* Let every pending resize finish, then audit once more. */
	for (k = 0; k < 64 && (rht_wq_run_pending() + rht_rcu_run_callbacks() +
			       rht_time_advance(10000)); k++)
		;
	op_audit();
	for (k = 0; k < NKEYS; k++) {
		if (F.const_params)
			check_lookup(const_params, k);
		else
			check_lookup(F.p, k);
	}

	destroyed = 0;
	if (F.rhl)
		rhltable_free_and_destroy(&F.hlt, destroy_one, &destroyed);
	else
		rhashtable_free_and_destroy(&F.ht, destroy_one, &destroyed);
	CHECK(destroyed == F.count, "destroy freed %lu objects, model has %lu",
	      destroyed, F.count);
	for (i = 0; i < F.nout; i++)
		CHECK(!obj_remove(F.p, &F.ht2, F.out[i]),
		      "parked object missing from the second table");
	CHECK(rht_test_nelems(&F.ht2) == 0, "second table: %u left",
	      rht_test_nelems(&F.ht2));
	if (F.rhl)
		rhltable_destroy(&F.hlt2);
	else
		rhashtable_destroy(&F.ht2);
	for (i = 0; i < F.nout; i++)
		obj_free(F.out[i]);
	for (k = 0; k < NKEYS; k++)
		for (i = 0; i < F.nobj[k]; i++)
			obj_free(F.obj[k][i]);

	rht_wq_run_pending();
	rcu_barrier();
	CHECK(rht_alloc_live_objects() == 0, "%ld shim allocations leaked",
	      rht_alloc_live_objects());
	CHECK(!rht_shim_warn_count(), "%lu kernel warnings",
	      rht_shim_warn_count());
	return 0;
}

#ifdef RHT_FUZZ_STANDALONE
/* Replay inputs without libFuzzer: ./fuzz-standalone FILE... */
int main(int argc, char **argv)
{
	int i, n = 0;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		static u8 buf[1 << 20];
		size_t len;

		if (!f) {
			perror(argv[i]);
			return 2;
		}
		len = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		rht_fuzz_one_input(buf, len);
		n++;
	}
	printf("fuzz-standalone: %d passed, 0 failed\n", n);
	return 0;
}
#endif
