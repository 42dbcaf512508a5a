// SPDX-License-Identifier: GPL-2.0
/*
 * Multi-threaded rhashtable stress test.
 *
 * Key space (u32 keys, the low two bits are the class):
 *   stable  - inserted before the threads start, never removed.  Readers
 *             must always find them (else: false miss).
 *   churn   - each writer owns a disjoint slice and inserts, removes,
 *             replaces and re-inserts them at random.  Because only the
 *             owner touches a key, the owner knows exactly whether it must
 *             be present and checks every operation's result against that.
 *   never   - never inserted.  Nobody may ever find one (else: false hit).
 *   moving  - each mover owns a few objects and keeps taking one out,
 *             giving it another free key of its own and inserting it
 *             again, into this table or into a second one, at once and
 *             without a grace period: readers that stood on it are carried
 *             along, which must never make them miss a stable key.
 *
 * The second table also holds fillers that keep it about as big as the
 * first (so that the chains of the two look alike), with churn keys that
 * no writer owns.  (Readers do not look up keys that the other table
 * holds: a reader carried there by a mover could find such a key, which
 * is as much a hit as any other; callers that move objects between tables
 * check which table the object they found is in.)
 *
 * Meanwhile the table grows and shrinks on its own (min_size is tiny and
 * automatic_shrinking is on), and with implementations that support it a
 * resizer thread forces expand/shrink/rehash (RHT_TEST_HAVE_RESIZE).
 * A walker thread iterates with the rhashtable_walk_*() API throughout.
 *
 * Every checkpoint interval the writers are paused and, once no resize is
 * in flight (the table mutex is then held so none starts), the table is
 * audited: element count against the writers'
 * bookkeeping and the insert/remove totals, a walk of every bucket chain
 * (each key exactly once, right object, nothing unexpected), an iterator
 * walk (each key exactly once) and a lookup of every key of the key space
 * against the expected answer.  The run ends with the same audit and
 * rhashtable_free_and_destroy(), which must hand back every object exactly
 * once, after which no shim allocation may remain.
 *
 * With -L the run is on an rhltable instead, see "rhltable mode" below.
 */
#include <getopt.h>
#include <sched.h>
#include <signal.h>

#include "rht_test.h"

enum { KC_STABLE = 0, KC_CHURN = 1, KC_MOVE = 2, KC_NEVER = 3 };
#define KEY(idx, cls)	(((u32)(idx) << 2) | (cls))
#define KEY_IDX(k)	((k) >> 2)
#define KEY_CLS(k)	((k) & 3)

#define MAGIC_LIVE	0x4c495645u	/* linked, or about to be */
#define MAGIC_GONE	0x474f4e45u	/* unlinked, waiting for RCU */
#define MAGIC_DEAD	0xdeadbeefu	/* set right before free() */

struct tobj {
	struct rhash_head node;
	u32 key;
	u32 magic;
	unsigned int destroyed;
	struct rhashtable *in;		/* movers' objects: the table, or NULL */
	struct rcu_head rcu;
};

/*
 * Key index in the low bits, class in the top two, seed ignored: bucket
 * = index mod size, in every table of a size.  That lets movers pick keys
 * whose buckets are what readers trip over: the sibling of a pair, the
 * same bucket in the other table.
 */
static u32 stress_hash(const void *key, u32 len, u32 seed)
{
	u32 k = READ_ONCE(*(const u32 *)key);	/* movers re-key */

	return k >> 2 | k << 30;
}

/* Movers re-key objects that readers may still be comparing. */
static int stress_cmp(struct rhashtable_compare_arg *arg, const void *obj)
{
	return READ_ONCE(*(const u32 *)((const char *)obj +
					 offsetof(struct tobj, key))) !=
	       *(const u32 *)arg->key;
}

static const struct rhashtable_params tparams = {
	.key_len = sizeof(u32),
	.hashfn = stress_hash,
	.obj_cmpfn = stress_cmp,
	.key_offset = offsetof(struct tobj, key),
	.head_offset = offsetof(struct tobj, node),
	.min_size = 4,
	.automatic_shrinking = true,
};

/*
 * Readers also look stable keys up with a compare function that now and
 * then dawdles on the object it stands on, which widens the window in
 * which a mover can carry them away.  Same hashing, so same table.
 */
static __thread unsigned int dawdle_rng = 1;

static int dawdle_cmp(struct rhashtable_compare_arg *arg, const void *obj)
{
	const struct tobj *o = obj;

	dawdle_rng = dawdle_rng * 1103515245 + 12345;
	if (!(dawdle_rng >> 28)) {	/* 1 in 16 */
		int i;

		for (i = 0; i < 200; i++)
			cpu_relax();
	}
	return READ_ONCE(o->key) != *(const u32 *)arg->key;
}

static const struct rhashtable_params dparams = {
	.key_len = sizeof(u32),
	.hashfn = stress_hash,
	.key_offset = offsetof(struct tobj, key),
	.head_offset = offsetof(struct tobj, node),
	.obj_cmpfn = dawdle_cmp,
	.min_size = 4,
	.automatic_shrinking = true,
};

struct stats {
	u64 lookups, false_miss, false_hit, bad_obj;
	u64 inserts, removes, replaces, nomem, busy, ops;
	u64 walks, walk_objs, walk_eagain;
	u64 resizes, resize_err;
	u64 moves;
	u64 rm_head, rm_mid, rm_tail;	/* rhltable mode: where removed */
};

/*
 * Statistics of running threads are read by the auditor: the owner bumps
 * them with a relaxed atomic store, readers use relaxed atomic loads.
 */
static inline void stat_add(u64 *field, u64 n)
{
	__atomic_store_n(field, *field + n, __ATOMIC_RELAXED);
}

#define BUMP(field, n)	stat_add(&(field), (n))
#define LOAD(field)	__atomic_load_n(&(field), __ATOMIC_RELAXED)

struct writer {
	pthread_t tid;
	int id;
	u32 first, count;	/* churn indices first + i * nwriters */
	struct tobj **obj;	/* current object per owned key, or NULL */
	u64 present;
	struct stats st;
	struct trng rng;
};

struct reader {
	pthread_t tid;
	int id;
	struct stats st;
	struct trng rng;
};

/*
 * A mover owns the keys KEY(id + j * movers, KC_MOVE) for j < MOVE_KEYS
 * and MOVE_OBJS objects that always hold distinct ones of them.
 */
#define MOVE_OBJS	64
#define MOVE_KEYS	65536

struct mover {
	pthread_t tid;
	int id;
	struct tobj obj[MOVE_OBJS];
	struct tobj **by_key;		/* the object holding key j */
	struct stats st;
	struct trng rng;
};

static struct {
	double secs;
	int readers, writers, walker, movers;
	u32 nstable, nchurn;	/* nchurn: per writer */
	u64 seed;
	unsigned int fail_ppm;
	int checkpoint_ms;
	int verbose;
	int sabotage;		/* -X: break the test on purpose (selftest) */
	int rhl;		/* -L: the rhltable variant (rhl_run()) */
	unsigned long min_peak;	/* -B: the table must reach this many buckets */
} opt = {
	.secs = 10,
	.walker = 1,
	.movers = 1,
	.nstable = 1000,
	.nchurn = 4096,
	.seed = 1,
	.checkpoint_ms = 1000,
};

static struct rhashtable ht, ht2;
static struct tobj *stable;
static struct writer *writers;
static struct reader *readers;
static struct mover *movers;
static struct tobj *fill2;
static u32 nfill2;
static struct stats walker_st, resizer_st;
static int stop;
static u64 stable_inserted;

static pthread_mutex_t pause_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pause_cond = PTHREAD_COND_INITIALIZER;
static int pause_req, paused, pausers;

static void pause_point(void)
{
	if (!__atomic_load_n(&pause_req, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&pause_lock);
	paused++;
	pthread_cond_broadcast(&pause_cond);
	while (pause_req)
		pthread_cond_wait(&pause_cond, &pause_lock);
	paused--;
	pthread_mutex_unlock(&pause_lock);
}

static void pause_all(void)
{
	pthread_mutex_lock(&pause_lock);
	__atomic_store_n(&pause_req, 1, __ATOMIC_RELEASE);
	while (paused < pausers)
		pthread_cond_wait(&pause_cond, &pause_lock);
	pthread_mutex_unlock(&pause_lock);
}

static void resume_all(void)
{
	pthread_mutex_lock(&pause_lock);
	__atomic_store_n(&pause_req, 0, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&pause_cond);
	pthread_mutex_unlock(&pause_lock);
}

static bool stopping(void)
{
	return __atomic_load_n(&stop, __ATOMIC_RELAXED);
}

static void obj_free_rcu(struct rcu_head *head)
{
	struct tobj *obj = container_of(head, struct tobj, rcu);

	CHECK(obj->magic == MAGIC_GONE, "freeing key %u with magic %#x",
	      obj->key, obj->magic);
	WRITE_ONCE(obj->magic, MAGIC_DEAD);
	free(obj);
}

static struct tobj *obj_new(u32 key)
{
	struct tobj *obj = calloc(1, sizeof(*obj));

	CHECK(obj, "out of memory");
	obj->key = key;
	obj->magic = MAGIC_LIVE;
	return obj;
}

/* Retire an object that is no longer (or never was) in the table. */
static void obj_retire(struct tobj *obj)
{
	WRITE_ONCE(obj->magic, MAGIC_GONE);	/* readers may be looking */
	if (opt.sabotage == 2) {		/* selftest: no grace period */
		obj->magic = MAGIC_DEAD;
		free(obj);
		return;
	}
	call_rcu(&obj->rcu, obj_free_rcu);
}

/* ------------------------------------------------------------------ */
/* Readers                                                              */
/* ------------------------------------------------------------------ */

static void report_bad(struct stats *st, const char *what, u32 key,
		       struct tobj *obj)
{
	/* Count; the first few are printed, the totals fail the run. */
	if (LOAD(st->false_miss) + LOAD(st->false_hit) + LOAD(st->bad_obj) < 5)
		fprintf(stderr, "stress: %s: key %#x obj %p (key %#x magic %#x)\n",
			what, key, obj, obj ? obj->key : 0,
			obj ? READ_ONCE(obj->magic) : 0);
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct stats *st = &r->st;
	u32 total_churn = opt.nchurn * opt.writers;

	while (!stopping()) {
		int i;

		for (i = 0; i < 512; i++) {
			struct tobj *obj;
			u32 key, magic;

			/* Stable key, self-locking lookup: must hit. */
			key = KEY(trng_below(&r->rng, opt.nstable), KC_STABLE);
			if (i & 1)
				obj = rhashtable_lookup_fast(&ht, &key, dparams);
			else
				obj = rhashtable_lookup_fast(&ht, &key, tparams);
			BUMP(st->lookups, 1);
			if (!obj) {
				report_bad(st, "false miss", key, NULL);
				BUMP(st->false_miss, 1);
			} else if (obj != &stable[KEY_IDX(key)] ||
				   READ_ONCE(obj->magic) != MAGIC_LIVE) {
				report_bad(st, "wrong object", key, obj);
				BUMP(st->bad_obj, 1);
			}

			/* Never-inserted key: must miss. */
			key = KEY(trng_below(&r->rng, 1u << 29), KC_NEVER);
			obj = rhashtable_lookup_fast(&ht, &key, tparams);
			BUMP(st->lookups, 1);
			if (obj) {
				report_bad(st, "false hit", key, obj);
				BUMP(st->false_hit, 1);
			}

			/* Churning key under our own RCU section: either. */
			key = KEY(trng_below(&r->rng, total_churn), KC_CHURN);
			rcu_read_lock();
			obj = rhashtable_lookup(&ht, &key, tparams);
			magic = obj ? READ_ONCE(obj->magic) : 0;
			if (obj && (READ_ONCE(obj->key) != key ||
				    (magic != MAGIC_LIVE && magic != MAGIC_GONE))) {
				report_bad(st, "corrupt churn hit", key, obj);
				BUMP(st->bad_obj, 1);
			}
			/* And a stable key with the caller-locked variant. */
			key = KEY(trng_below(&r->rng, opt.nstable), KC_STABLE);
			obj = rhashtable_lookup(&ht, &key, tparams);
			if (!obj) {
				report_bad(st, "false miss (locked)", key, NULL);
				BUMP(st->false_miss, 1);
			}
			rcu_read_unlock();
			BUMP(st->lookups, 2);
		}
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Writers                                                              */
/* ------------------------------------------------------------------ */

static u32 writer_key(struct writer *w, u32 slot)
{
	return KEY(w->first + slot * opt.writers, KC_CHURN);
}

static struct tobj *lookup_own(u32 key)
{
	struct tobj *obj;

	rcu_read_lock();
	obj = rhashtable_lookup(&ht, &key, tparams);
	rcu_read_unlock();
	return obj;	/* only compared by address */
}

/* Tolerated insertion failures; the key must then be absent. */
static void insert_failed(struct writer *w, struct tobj *obj, int err,
			  const char *how)
{
	if (err == -ENOMEM)
		w->st.nomem++;
	else if (err == -EBUSY)
		w->st.busy++;
	else
		rht_fail("%s of absent key %#x returned %d", how, obj->key, err);
	CHECK(!lookup_own(obj->key),
	      "key %#x visible after failed %s (%d)", obj->key, how, err);
	obj_retire(obj);
}

static void writer_absent(struct writer *w, u32 slot, u32 key)
{
	struct tobj *obj, *old;
	int err;

	switch (trng_below(&w->rng, 5)) {
	case 0:
		obj = obj_new(key);
		err = rhashtable_insert_fast(&ht, &obj->node, tparams);
		if (err)
			return insert_failed(w, obj, err, "insert_fast");
		break;
	case 1:
		obj = obj_new(key);
		err = rhashtable_lookup_insert_fast(&ht, &obj->node, tparams);
		if (err)
			return insert_failed(w, obj, err, "lookup_insert_fast");
		break;
	case 2:
		obj = obj_new(key);
		old = rhashtable_lookup_get_insert_fast(&ht, &obj->node,
							tparams);
		if (IS_ERR(old))
			return insert_failed(w, obj, PTR_ERR(old),
					     "lookup_get_insert_fast");
		CHECK(!old, "lookup_get_insert_fast of absent key %#x found %p",
		      key, old);
		break;
	case 3: {
		/* Removing an object that is not in the table. */
		struct tobj stray = { .key = key, .magic = MAGIC_LIVE };

		err = rhashtable_remove_fast(&ht, &stray.node, tparams);
		CHECK(err == -ENOENT, "remove of absent key %#x returned %d",
		      key, err);
		return;
	}
	default:
		CHECK(!lookup_own(key), "absent key %#x found", key);
		w->st.lookups++;
		return;
	}
	w->obj[slot] = obj;
	w->present++;
	w->st.inserts++;
	CHECK(lookup_own(key) == obj, "key %#x not found right after insert",
	      key);
}

static void writer_present(struct writer *w, u32 slot, u32 key)
{
	struct tobj *obj = w->obj[slot], *dup, *ret;
	int err;

	switch (trng_below(&w->rng, 6)) {
	case 0:
	case 1:
		err = rhashtable_remove_fast(&ht, &obj->node, tparams);
		CHECK(!err, "remove of present key %#x returned %d", key, err);
		if (opt.sabotage == 1 && !trng_below(&w->rng, 1000))
			return;			/* selftest: forget a removal */
		w->obj[slot] = NULL;
		w->present--;
		w->st.removes++;
		CHECK(!lookup_own(key),
		      "key %#x still found after remove", key);
		obj_retire(obj);
		return;
	case 2:
		dup = obj_new(key);
		err = rhashtable_replace_fast(&ht, &obj->node, &dup->node,
					      tparams);
		CHECK(!err, "replace of present key %#x returned %d", key, err);
		w->obj[slot] = dup;
		w->st.replaces++;
		CHECK(lookup_own(key) == dup,
		      "key %#x does not find the replacement", key);
		obj_retire(obj);
		return;
	case 3:
		dup = obj_new(key);
		err = rhashtable_lookup_insert_fast(&ht, &dup->node, tparams);
		CHECK(err == -EEXIST || err == -ENOMEM || err == -EBUSY,
		      "lookup_insert of present key %#x returned %d", key, err);
		obj_retire(dup);
		break;
	case 4:
		dup = obj_new(key);
		ret = rhashtable_lookup_get_insert_fast(&ht, &dup->node,
							tparams);
		CHECK(ret == obj || ret == ERR_PTR(-ENOMEM) ||
		      ret == ERR_PTR(-EBUSY),
		      "lookup_get_insert of present key %#x returned %p, want %p",
		      key, ret, obj);
		obj_retire(dup);
		break;
	default:
		w->st.lookups++;
		break;
	}
	CHECK(lookup_own(key) == obj, "present key %#x lost", key);
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;

	while (!stopping()) {
		int i;

		pause_point();
		for (i = 0; i < 64; i++) {
			u32 slot = trng_below(&w->rng, w->count);
			u32 key = writer_key(w, slot);

			if (w->obj[slot])
				writer_present(w, slot, key);
			else
				writer_absent(w, slot, key);
			w->st.ops++;
		}
		/* Sometimes sweep a burst of inserts or removes, so the
		 * table really grows and shrinks instead of hovering.
		 */
		if (!trng_below(&w->rng, 64)) {
			bool fill = trng_below(&w->rng, 2);
			u32 slot;

			for (slot = 0; slot < w->count && !stopping(); slot++) {
				u32 key = writer_key(w, slot);

				if (fill && !w->obj[slot])
					writer_absent(w, slot, key);
				else if (!fill && w->obj[slot])
					writer_present(w, slot, key);
			}
		}
	}
	pause_point();
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Movers                                                               */
/* ------------------------------------------------------------------ */

static u32 mover_key(struct mover *m, u32 j)
{
	return KEY(m->id + j * opt.movers, KC_MOVE);
}

/* Take an object out, re-key it and insert it again, right away. */
static void move_one(struct mover *m)
{
	struct tobj *obj = &m->obj[trng_below(&m->rng, MOVE_OBJS)];
	struct rhashtable *to = trng_below(&m->rng, 4) ? &ht : &ht2;
	u32 old = KEY_IDX(obj->key) / opt.movers, j;
	int err;

	/* Mostly a key one bit away: a sibling in some doubling. */
	do
		j = trng_below(&m->rng, 4) ?
		    old ^ (1U << trng_below(&m->rng, 16)) :
		    trng_below(&m->rng, MOVE_KEYS);
	while (m->by_key[j]);
	err = rhashtable_remove_fast(obj->in, &obj->node, tparams);
	CHECK(!err, "mover: remove of key %#x returned %d", obj->key, err);
	m->by_key[old] = NULL;
	WRITE_ONCE(obj->key, mover_key(m, j));
	obj->in = to;
	m->by_key[j] = obj;
	err = rhashtable_lookup_insert_fast(to, &obj->node, tparams);
	CHECK(!err, "mover: insert of key %#x returned %d", obj->key, err);
	m->st.moves++;
}

static void *mover_main(void *arg)
{
	struct mover *m = arg;

	while (!stopping()) {
		int i;

		pause_point();
		for (i = 0; i < 64; i++)
			move_one(m);
	}
	pause_point();
	return NULL;
}

static void movers_init(void)
{
	int i, k;

	nfill2 = opt.nstable + opt.nchurn * opt.writers / 2;
	fill2 = calloc(nfill2, sizeof(*fill2));
	CHECK(fill2, "out of memory");
	for (i = 0; i < (int)nfill2; i++) {
		fill2[i].key = KEY(opt.nchurn * opt.writers + i, KC_CHURN);
		fill2[i].magic = MAGIC_LIVE;
		CHECK(!rhashtable_insert_fast(&ht2, &fill2[i].node, tparams),
		      "inserting filler %d", i);
	}

	movers = calloc(opt.movers, sizeof(*movers));
	CHECK(movers || !opt.movers, "out of memory");
	for (i = 0; i < opt.movers; i++) {
		struct mover *m = &movers[i];

		m->id = i;
		m->by_key = calloc(MOVE_KEYS, sizeof(*m->by_key));
		CHECK(m->by_key, "out of memory");
		trng_seed(&m->rng, opt.seed * 3000 + i);
		for (k = 0; k < MOVE_OBJS; k++) {
			struct tobj *obj = &m->obj[k];

			obj->key = mover_key(m, k);
			obj->magic = MAGIC_LIVE;
			obj->in = k & 1 ? &ht2 : &ht;
			m->by_key[k] = obj;
			CHECK(!rhashtable_insert_fast(obj->in, &obj->node,
						      tparams),
			      "inserting mover object %d", k);
		}
	}
}

/* The object that holds moving key @key, in table @t, or NULL. */
static struct tobj *mover_obj(u32 key, struct rhashtable *t)
{
	u32 idx = KEY_IDX(key);
	struct tobj *obj;

	if (idx >= (u32)opt.movers * MOVE_KEYS)
		return NULL;
	obj = movers[idx % opt.movers].by_key[idx / opt.movers];
	return obj && obj->in == t ? obj : NULL;
}

static u64 movers_in(struct rhashtable *t)
{
	u64 n = 0;
	int i, k;

	for (i = 0; i < opt.movers; i++)
		for (k = 0; k < MOVE_OBJS; k++)
			n += movers[i].obj[k].in == t;
	return n;
}

/* ------------------------------------------------------------------ */
/* Walker                                                               */
/* ------------------------------------------------------------------ */

/*
 * Every stable key must come back from every walk, those that drop out of
 * RCU every 64 objects included, and none twice without an -EAGAIN in
 * between: @epoch counts the -EAGAINs of the walk, @seen_in the epoch in
 * which each stable key came back last (0: not yet).
 */
static void *walker_main(void *arg)
{
	u32 *seen_in = calloc(opt.nstable, sizeof(*seen_in));
	struct stats *st = &walker_st;

	CHECK(seen_in, "out of memory");
	while (!stopping()) {
		bool stopstart = st->walks & 1;
		struct rhashtable_iter iter;
		u32 nseen = 0, n = 0, epoch = 1, magic, key;
		bool abandoned = false;
		struct tobj *obj;

		memset(seen_in, 0, opt.nstable * sizeof(*seen_in));
		rhashtable_walk_enter(&ht, &iter);
		rhashtable_walk_start(&iter);
		while ((obj = rhashtable_walk_next(&iter)) != NULL) {
			if (IS_ERR(obj)) {
				CHECK(PTR_ERR(obj) == -EAGAIN,
				      "rhashtable_walk_next() returned %ld",
				      PTR_ERR(obj));
				BUMP(st->walk_eagain, 1);
				epoch++;
				continue;
			}
			BUMP(st->walk_objs, 1);
			magic = READ_ONCE(obj->magic);
			key = READ_ONCE(obj->key);	/* movers re-key */
			CHECK(magic == MAGIC_LIVE || magic == MAGIC_GONE,
			      "walker met key %#x with magic %#x", key, magic);
			CHECK(KEY_CLS(key) != KC_NEVER,
			      "walker met never-inserted key %#x", key);
			if (obj >= stable && obj < stable + opt.nstable) {
				u32 idx = obj - stable;

				CHECK(seen_in[idx] != epoch,
				      "walk returned stable key %#x twice without -EAGAIN",
				      obj->key);
				nseen += !seen_in[idx];
				seen_in[idx] = epoch;
			}
			/* Resize storms can keep a stop/start walk going. */
			if (stopping()) {
				abandoned = true;
				break;
			}
			if (stopstart && !(++n & 63)) {
				int err;

				rhashtable_walk_stop(&iter);
				sched_yield();
				/* A restart says so here, not in _next(). */
				err = rhashtable_walk_start_check(&iter);
				CHECK(!err || err == -EAGAIN,
				      "rhashtable_walk_start_check() returned %d",
				      err);
				epoch += !!err;
			}
		}
		rhashtable_walk_stop(&iter);
		rhashtable_walk_exit(&iter);
		if (abandoned)
			break;
		BUMP(st->walks, 1);
		CHECK(nseen == opt.nstable, "%s walk saw %u of %u stable keys",
		      stopstart ? "stop/start" : "continuous", nseen,
		      opt.nstable);
	}
	free(seen_in);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Explicit resizes (implementations that have them)                    */
/* ------------------------------------------------------------------ */

#ifdef RHT_TEST_HAVE_RESIZE
/* @arg: the struct rhashtable to resize. */
static void *resizer_main(void *arg)
{
	struct rhashtable *t = arg;
	struct trng rng;

	trng_seed(&rng, opt.seed * 977 + 5);
	while (!stopping()) {
		int err;

		pause_point();
		switch (trng_below(&rng, 3)) {
		case 0:
			err = rht_test_expand(t);
			break;
		case 1:
			err = rht_test_shrink(t);
			break;
		default:
			err = rht_test_rehash(t);
			break;
		}
		if (err)
			CHECK(rht_test_resize_err_ok(err),
			      "explicit resize returned %d", err);
		resizer_st.resizes++;
		resizer_st.resize_err += !!err;
		usleep(trng_below(&rng, 2000));
	}
	pause_point();
	return NULL;
}
#endif

/* ------------------------------------------------------------------ */
/* Audits                                                               */
/* ------------------------------------------------------------------ */

struct audit {
	unsigned long *seen_stable, *seen_churn, *seen_move;
	u64 count;
};

static unsigned long *audit_seen(struct audit *a, u32 key)
{
	switch (KEY_CLS(key)) {
	case KC_STABLE:
		return a->seen_stable;
	case KC_CHURN:
		return a->seen_churn;
	default:
		return a->seen_move;
	}
}

static struct tobj *expected_obj(u32 key)
{
	u32 idx = KEY_IDX(key);

	switch (KEY_CLS(key)) {
	case KC_STABLE:
		return idx < opt.nstable ? &stable[idx] : NULL;
	case KC_CHURN: {
		struct writer *w;

		if (idx >= opt.nchurn * opt.writers)
			return NULL;
		w = &writers[idx % opt.writers];
		return w->obj[idx / opt.writers];
	}
	case KC_MOVE:
		return mover_obj(key, &ht);
	default:
		return NULL;
	}
}

static int audit_chain_obj(void *arg, struct rhash_head *he,
			   unsigned int table, unsigned int bucket)
{
	struct audit *a = arg;
	struct tobj *obj = container_of(he, struct tobj, node);
	unsigned long *seen;

	CHECK(obj->magic == MAGIC_LIVE,
	      "chain walk: key %#x magic %#x (table %u bucket %u)", obj->key,
	      obj->magic, table, bucket);
	CHECK(expected_obj(obj->key) == obj,
	      "chain walk: unexpected object %p key %#x (table %u bucket %u)",
	      obj, obj->key, table, bucket);
	seen = audit_seen(a, obj->key);
	CHECK(!test_and_set_bit(KEY_IDX(obj->key), seen),
	      "chain walk: key %#x visible twice (table %u bucket %u)",
	      obj->key, table, bucket);
	a->count++;
	return 0;
}

static u64 expected_count(void)
{
	u64 n = opt.nstable;
	int i;

	for (i = 0; i < opt.writers; i++)
		n += writers[i].present;
	return n + movers_in(&ht);
}

static void stats_add(struct stats *sum, struct stats *s)
{
	sum->lookups += LOAD(s->lookups);
	sum->false_miss += LOAD(s->false_miss);
	sum->false_hit += LOAD(s->false_hit);
	sum->bad_obj += LOAD(s->bad_obj);
	sum->inserts += LOAD(s->inserts);
	sum->removes += LOAD(s->removes);
	sum->replaces += LOAD(s->replaces);
	sum->nomem += LOAD(s->nomem);
	sum->busy += LOAD(s->busy);
	sum->ops += LOAD(s->ops);
	sum->moves += LOAD(s->moves);
	sum->rm_head += LOAD(s->rm_head);
	sum->rm_mid += LOAD(s->rm_mid);
	sum->rm_tail += LOAD(s->rm_tail);
}

static void totals(struct stats *sum)
{
	int i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < opt.readers; i++)
		stats_add(sum, &readers[i].st);
	for (i = 0; i < opt.writers; i++)
		stats_add(sum, &writers[i].st);
	for (i = 0; i < opt.movers; i++)
		stats_add(sum, &movers[i].st);
	sum->walks = LOAD(walker_st.walks);
	sum->walk_objs = LOAD(walker_st.walk_objs);
	sum->walk_eagain = LOAD(walker_st.walk_eagain);
	sum->resizes = LOAD(resizer_st.resizes);
	sum->resize_err = LOAD(resizer_st.resize_err);
}

static unsigned int audits;

/* Runs with every writer (and the resizer) paused. */
static void audit_table(const char *when)
{
	u32 total_churn = opt.nchurn * opt.writers;
	u32 total_move = opt.movers * MOVE_KEYS;
	struct rhashtable_iter iter;
	struct audit a = { 0 };
	u64 expect, inserted, walked;
	struct stats sum;
	struct tobj *obj;
	u32 i;

	rht_test_quiesce_lock(&ht);
	expect = expected_count();
	totals(&sum);
	inserted = stable_inserted + sum.inserts;

	/* 1. Counters. */
	CHECK(inserted + movers_in(&ht) - sum.removes == expect,
	      "%s: inserts %llu - removes %llu != expected %llu", when,
	      (unsigned long long)inserted, (unsigned long long)sum.removes,
	      (unsigned long long)expect);
	CHECK(rht_test_nelems(&ht) == expect, "%s: nelems %u, expected %llu",
	      when, rht_test_nelems(&ht), (unsigned long long)expect);
	CHECK(rht_test_nelems(&ht2) == movers_in(&ht2) + nfill2,
	      "%s: second table: nelems %u, expected %llu", when,
	      rht_test_nelems(&ht2),
	      (unsigned long long)movers_in(&ht2) + nfill2);

	/* 2. Every chain: each key exactly once, the right object. */
	a.seen_stable = rht_bitmap_alloc(opt.nstable);
	a.seen_churn = rht_bitmap_alloc(total_churn);
	a.seen_move = rht_bitmap_alloc(total_move);
	rht_test_chain_walk(&ht, audit_chain_obj, &a);
	CHECK(a.count == expect, "%s: chain walk found %llu objects, expected %llu",
	      when, (unsigned long long)a.count, (unsigned long long)expect);

	/* 3. The iterator sees the same set, each exactly once. */
	memset(a.seen_stable, 0, (opt.nstable + 63) / 64 * sizeof(long));
	memset(a.seen_churn, 0, (total_churn + 63) / 64 * sizeof(long));
	memset(a.seen_move, 0, (total_move + 63) / 64 * sizeof(long));
	walked = 0;
	rhashtable_walk_enter(&ht, &iter);
	rhashtable_walk_start(&iter);
	while ((obj = rhashtable_walk_next(&iter)) != NULL) {
		unsigned long *seen;

		if (IS_ERR(obj)) {
			/* A restart: count afresh. */
			CHECK(PTR_ERR(obj) == -EAGAIN, "%s: walk error %ld",
			      when, PTR_ERR(obj));
			memset(a.seen_stable, 0,
			       (opt.nstable + 63) / 64 * sizeof(long));
			memset(a.seen_churn, 0,
			       (total_churn + 63) / 64 * sizeof(long));
			memset(a.seen_move, 0,
			       (total_move + 63) / 64 * sizeof(long));
			walked = 0;
			continue;
		}
		CHECK(expected_obj(obj->key) == obj,
		      "%s: iterator returned unexpected key %#x", when, obj->key);
		seen = audit_seen(&a, obj->key);
		CHECK(!test_and_set_bit(KEY_IDX(obj->key), seen),
		      "%s: iterator returned key %#x twice", when, obj->key);
		walked++;
	}
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	CHECK(walked == expect, "%s: iterator returned %llu objects, expected %llu",
	      when, (unsigned long long)walked, (unsigned long long)expect);

	/* 4. Every key of the stable and churn space looks up right. */
	for (i = 0; i < opt.nstable; i++) {
		u32 key = KEY(i, KC_STABLE);

		CHECK(lookup_own(key) == &stable[i], "%s: stable key %#x lost",
		      when, key);
	}
	for (i = 0; i < total_churn; i++) {
		u32 key = KEY(i, KC_CHURN);

		CHECK(lookup_own(key) == expected_obj(key),
		      "%s: churn key %#x: lookup gives %p, expected %p", when,
		      key, lookup_own(key), expected_obj(key));
	}

	/* 5. Readers' verdicts so far, and the shims' own complaints. */
	CHECK(!sum.false_miss && !sum.false_hit && !sum.bad_obj,
	      "%s: %llu false misses, %llu false hits, %llu bad objects", when,
	      (unsigned long long)sum.false_miss,
	      (unsigned long long)sum.false_hit,
	      (unsigned long long)sum.bad_obj);
	CHECK(!rht_shim_warn_count(), "%s: %lu kernel warnings", when,
	      rht_shim_warn_count());

	for (i = 0; i < total_move; i++) {
		u32 key = KEY(i, KC_MOVE);

		CHECK(lookup_own(key) == mover_obj(key, &ht),
		      "%s: moving key %#x: lookup gives %p, expected %p", when,
		      key, lookup_own(key), mover_obj(key, &ht));
	}

	rht_test_unlock(&ht);
	free(a.seen_stable);
	free(a.seen_churn);
	free(a.seen_move);
	audits++;
	if (opt.verbose)
		fprintf(stderr, "stress: audit %s ok: %llu objects, %u buckets\n",
			when, (unsigned long long)expect,
			(unsigned int)rht_test_table_size(&ht));
}

/* ------------------------------------------------------------------ */
/* Teardown                                                             */
/* ------------------------------------------------------------------ */

static u64 destroyed;

static void destroy_one(void *ptr, void *arg)
{
	struct tobj *obj = ptr;

	CHECK(arg == &destroyed, "free_fn got arg %p", arg);
	CHECK(obj->magic == MAGIC_LIVE,
	      "free_and_destroy handed back key %#x with magic %#x", obj->key,
	      obj->magic);
	CHECK(expected_obj(obj->key) == obj,
	      "free_and_destroy handed back a foreign object (key %#x)",
	      obj->key);
	CHECK(++obj->destroyed == 1,
	      "free_and_destroy handed back key %#x twice", obj->key);
	destroyed++;
}

static void destroy_moved(void *ptr, void *arg)
{
	struct tobj *obj = ptr;

	CHECK((obj >= fill2 && obj < fill2 + nfill2) ||
	      (KEY_CLS(obj->key) == KC_MOVE && mover_obj(obj->key, &ht2) == obj),
	      "second table handed back a foreign object (key %#x)", obj->key);
	CHECK(++obj->destroyed == 1,
	      "second table handed back key %#x twice", obj->key);
	(*(u64 *)arg)++;
}

static void teardown(void)
{
	u64 expect = expected_count(), moved = 0;
	u32 i;
	int w;

	rhashtable_free_and_destroy(&ht, destroy_one, &destroyed);
	CHECK(destroyed == expect, "free_and_destroy freed %llu objects, expected %llu",
	      (unsigned long long)destroyed, (unsigned long long)expect);
	rhashtable_free_and_destroy(&ht2, destroy_moved, &moved);
	CHECK(moved == movers_in(&ht2) + nfill2,
	      "second table freed %llu objects, expected %llu",
	      (unsigned long long)moved,
	      (unsigned long long)movers_in(&ht2) + nfill2);
	for (w = 0; w < opt.movers; w++)
		free(movers[w].by_key);
	free(movers);
	free(fill2);
	for (i = 0; i < opt.nstable; i++)
		CHECK(stable[i].destroyed == 1, "stable key %#x freed %u times",
		      stable[i].key, stable[i].destroyed);
	for (w = 0; w < opt.writers; w++) {
		for (i = 0; i < writers[w].count; i++) {
			struct tobj *obj = writers[w].obj[i];

			if (!obj)
				continue;
			CHECK(obj->destroyed == 1, "churn key %#x freed %u times",
			      obj->key, obj->destroyed);
			obj->magic = MAGIC_DEAD;
			free(obj);
		}
		free(writers[w].obj);
	}
	free(stable);

	/* Every deferred free (tables, objects) must have run. */
	rcu_barrier();
	CHECK(rht_rcu_pending_callbacks() == 0, "%ld RCU callbacks pending",
	      rht_rcu_pending_callbacks());
	CHECK(rht_alloc_live_objects() == 0,
	      "%ld shim allocations (%ld bytes) leaked after destroy",
	      rht_alloc_live_objects(), rht_alloc_live_bytes());
	CHECK(!rht_shim_warn_count(), "%lu kernel warnings",
	      rht_shim_warn_count());
}

/* ------------------------------------------------------------------ */
/* rhltable mode (-L)                                                   */
/* ------------------------------------------------------------------ */

/*
 * The same kind of run on an rhltable, whose keys may have any number of
 * objects ("duplicates"), all on one list that hangs off the hash chain.
 *
 *   stable - RHL_DUPS objects per key, inserted before the threads start
 *            and never removed.  Every lookup must return each of them
 *            exactly once (a miss or a repeat fails the run).
 *   churn  - each writer owns a disjoint set of keys and adds objects to
 *            them and removes objects from them: the first of a key's
 *            list, one in the middle, the last.  As nobody else touches
 *            those keys, the owner knows exactly which objects each one
 *            holds and checks that with a lookup after every operation.
 *            Readers only require that whatever they meet on such a list
 *            has that key, has not been freed, and comes back only once.
 *   never  - never inserted: a lookup must find nothing.
 *
 * The table counts keys, not objects, so it grows and shrinks with the
 * number of keys that have objects; the writers' sweeps empty or fill all
 * their keys now and then to make it do so.  The resizer and the walker
 * run as in the plain mode.  The audits compare every chain, every key's
 * list, a full walk and a lookup of every key against the writers'
 * bookkeeping; free_and_destroy must hand back every object exactly once.
 */
#define RHL_DUPS	3	/* objects per stable key */
#define RHL_MAX_DUPS	5	/* most objects a churn key ever has */
#define RHL_SEEN	16	/* repeats a reader can spot on a churn list */

struct lobj {
	struct rhlist_head list;
	u32 key;
	u32 slot;		/* stable: which duplicate; churn: owner's slot */
	u32 magic;
	u32 mark;		/* the last audit pass that met it */
	unsigned int destroyed;
	struct rcu_head rcu;
};

static const struct rhashtable_params lparams = {
	.key_len = sizeof(u32),
	.hashfn = stress_hash,
	.key_offset = offsetof(struct lobj, key),
	.head_offset = offsetof(struct lobj, list),
	.min_size = 4,
	.automatic_shrinking = true,
};

/* A writer's exact knowledge of one of its keys. */
struct rhl_key {
	struct lobj *obj[RHL_MAX_DUPS];	/* in no particular order */
	u32 n;
};

struct rhl_writer {
	pthread_t tid;
	int id;
	struct rhl_key *keys;	/* slot j: key rhl_churn_key(id, j) */
	struct stats st;
	struct trng rng;
};

static struct rhltable hlt;
static struct lobj *lstable;	/* stable key i: lstable[i * RHL_DUPS + d] */
static struct rhl_writer *rwriters;
static u64 rhl_stable_inserted;
static u32 rhl_pass;		/* audit passes, for lobj.mark */

static u32 rhl_churn_key(int writer, u32 slot)
{
	return KEY(writer + slot * opt.writers, KC_CHURN);
}

static void lobj_free_rcu(struct rcu_head *head)
{
	struct lobj *obj = container_of(head, struct lobj, rcu);

	CHECK(obj->magic == MAGIC_GONE, "rhl: freeing key %#x with magic %#x",
	      obj->key, obj->magic);
	WRITE_ONCE(obj->magic, MAGIC_DEAD);
	free(obj);
}

static struct lobj *lobj_new(u32 key, u32 slot)
{
	struct lobj *obj = calloc(1, sizeof(*obj));

	CHECK(obj, "out of memory");
	obj->key = key;
	obj->slot = slot;
	obj->magic = MAGIC_LIVE;
	return obj;
}

/* As obj_retire(): poison now, free after a grace period. */
static void lobj_retire(struct lobj *obj)
{
	WRITE_ONCE(obj->magic, MAGIC_GONE);
	if (opt.sabotage == 2) {		/* selftest: no grace period */
		obj->magic = MAGIC_DEAD;
		free(obj);
		return;
	}
	call_rcu(&obj->rcu, lobj_free_rcu);
}

/*
 * The writer's record of churn key @key, or NULL for a key out of range.
 * Only the owner may call this while the writers run.
 */
static struct rhl_key *rhl_churn_rec(u32 key)
{
	u32 idx = KEY_IDX(key);

	if (idx >= opt.nchurn * opt.writers)
		return NULL;
	return &rwriters[idx % opt.writers].keys[idx / opt.writers];
}

/* How many objects @key must have right now. */
static u32 rhl_key_count(u32 key)
{
	struct rhl_key *k;

	switch (KEY_CLS(key)) {
	case KC_STABLE:
		return KEY_IDX(key) < opt.nstable ? RHL_DUPS : 0;
	case KC_CHURN:
		k = rhl_churn_rec(key);
		return k ? k->n : 0;
	default:
		return 0;
	}
}

/* Must @obj be in the table right now? */
static bool rhl_expected(const struct lobj *obj)
{
	u32 idx = KEY_IDX(obj->key), i;
	struct rhl_key *k;

	switch (KEY_CLS(obj->key)) {
	case KC_STABLE:
		return idx < opt.nstable && obj->slot < RHL_DUPS &&
		       obj == &lstable[idx * RHL_DUPS + obj->slot];
	case KC_CHURN:
		k = rhl_churn_rec(obj->key);
		if (!k)
			return false;
		for (i = 0; i < k->n; i++)
			if (k->obj[i] == obj)
				return true;
		return false;
	default:
		return false;
	}
}

/*
 * Look @key up and store its objects in @found, in list order.  Stops at
 * @max, so a list that does not end looks too long instead of hanging.
 * Only for keys that nobody else changes meanwhile (the caller's own, the
 * stable ones, or any key while the writers are paused): the objects are
 * used after the RCU read-side section.
 */
static u32 rhl_collect(u32 key, struct lobj **found, u32 max)
{
	struct rhlist_head *head, *pos;
	struct lobj *obj;
	u32 n = 0;

	rcu_read_lock();
	head = rhltable_lookup(&hlt, &key, lparams);
	rhl_for_each_entry_rcu(obj, pos, head, list) {
		found[n++] = obj;
		if (n == max)
			break;
	}
	rcu_read_unlock();
	return n;
}

/* A lookup of @key must return exactly the objects it must have. */
static void rhl_check_key(u32 key, const char *when)
{
	struct lobj *found[RHL_MAX_DUPS + 1];
	u32 want = rhl_key_count(key), n, i, j;

	n = rhl_collect(key, found, ARRAY_SIZE(found));
	CHECK(n == want, "%s: key %#x: lookup finds %u objects, expected %u",
	      when, key, n, want);
	for (i = 0; i < n; i++) {
		CHECK(found[i]->key == key && rhl_expected(found[i]),
		      "%s: key %#x: lookup returns foreign object %p (key %#x magic %#x)",
		      when, key, found[i], found[i]->key, found[i]->magic);
		for (j = 0; j < i; j++)
			CHECK(found[j] != found[i],
			      "%s: key %#x: lookup returns %p twice", when,
			      key, found[i]);
	}
}

/* ------------------------------------------------------------------ */
/* rhltable mode: readers                                               */
/* ------------------------------------------------------------------ */

static void rhl_report(struct stats *st, const char *what, u32 key,
		       const struct lobj *obj)
{
	/* Count; the first few are printed, the totals fail the run. */
	if (LOAD(st->false_miss) + LOAD(st->false_hit) + LOAD(st->bad_obj) < 5)
		fprintf(stderr,
			"stress: rhl: %s: key %#x obj %p (key %#x magic %#x)\n",
			what, key, obj, obj ? obj->key : 0,
			obj ? READ_ONCE(obj->magic) : 0);
}

/* Each of a stable key's objects, exactly once. */
static void rhl_read_stable(struct reader *r)
{
	u32 idx = trng_below(&r->rng, opt.nstable);
	const struct lobj *mine = &lstable[idx * RHL_DUPS];
	u32 key = KEY(idx, KC_STABLE);
	struct rhlist_head *head, *pos;
	struct stats *st = &r->st;
	unsigned long seen = 0;
	struct lobj *obj;
	bool bad = false;

	rcu_read_lock();
	head = rhltable_lookup(&hlt, &key, lparams);
	rhl_for_each_entry_rcu(obj, pos, head, list) {
		if (obj < mine || obj >= mine + RHL_DUPS ||
		    READ_ONCE(obj->magic) != MAGIC_LIVE) {
			rhl_report(st, "foreign object on a stable list", key,
				   obj);
			bad = true;
			break;
		}
		if (seen & BIT(obj - mine)) {
			rhl_report(st, "stable object returned twice", key,
				   obj);
			bad = true;
			break;
		}
		seen |= BIT(obj - mine);
	}
	rcu_read_unlock();
	BUMP(st->lookups, 1);
	if (bad) {
		BUMP(st->bad_obj, 1);
	} else if (seen != BIT(RHL_DUPS) - 1) {
		rhl_report(st, "stable object missed", key, NULL);
		BUMP(st->false_miss, 1);
	}
}

static void rhl_read_never(struct reader *r)
{
	u32 key = KEY(trng_below(&r->rng, 1u << 29), KC_NEVER);
	struct rhlist_head *head;

	rcu_read_lock();
	head = rhltable_lookup(&hlt, &key, lparams);
	if (head) {
		rhl_report(&r->st, "false hit", key,
			   container_of(head, struct lobj, list));
		BUMP(r->st.false_hit, 1);
	}
	rcu_read_unlock();
	BUMP(r->st.lookups, 1);
}

/*
 * Whatever a churning key's list holds: that key, not freed, nothing met
 * twice (objects keep their order on a list and are never inserted
 * again, so not even a reader that stands on a removed one can come back
 * to an object it has passed).
 */
static void rhl_read_churn(struct reader *r)
{
	u32 key = KEY(trng_below(&r->rng, opt.nchurn * opt.writers),
		      KC_CHURN);
	struct rhlist_head *head, *pos;
	struct lobj *seen[RHL_SEEN];
	struct stats *st = &r->st;
	u32 n = 0, i, magic;

	rcu_read_lock();
	head = rhltable_lookup(&hlt, &key, lparams);
	rhl_for_each_rcu(pos, head) {
		struct lobj *obj = container_of(pos, struct lobj, list);

		magic = READ_ONCE(obj->magic);
		if (obj->key != key ||
		    (magic != MAGIC_LIVE && magic != MAGIC_GONE)) {
			rhl_report(st, "corrupt churn object", key, obj);
			BUMP(st->bad_obj, 1);
			break;
		}
		for (i = 0; i < min_t(u32, n, RHL_SEEN); i++)
			if (seen[i] == obj)
				break;
		if (i < min_t(u32, n, RHL_SEEN)) {
			rhl_report(st, "churn object returned twice", key, obj);
			BUMP(st->bad_obj, 1);
			break;
		}
		if (n < RHL_SEEN)
			seen[n] = obj;
		n++;
	}
	rcu_read_unlock();
	BUMP(st->lookups, 1);
}

static void *rhl_reader_main(void *arg)
{
	struct reader *r = arg;

	while (!stopping()) {
		int i;

		for (i = 0; i < 512; i++) {
			rhl_read_stable(r);
			rhl_read_never(r);
			rhl_read_churn(r);
		}
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* rhltable mode: writers                                               */
/* ------------------------------------------------------------------ */

/* Add one object to our key in @slot, by its own key or by @key. */
static void rhl_add(struct rhl_writer *w, u32 slot, bool by_key)
{
	struct rhl_key *k = &w->keys[slot];
	u32 key = rhl_churn_key(w->id, slot);
	struct lobj *obj = lobj_new(key, slot);
	int err;

	if (by_key)
		err = rhltable_insert_key(&hlt, &key, &obj->list, lparams);
	else
		err = rhltable_insert(&hlt, &obj->list, lparams);
	if (err) {
		/* Tolerated as in the plain mode; the check that follows
		 * makes sure that the object did not get in.
		 */
		CHECK(err == -ENOMEM || err == -EBUSY,
		      "rhltable_insert%s of key %#x returned %d",
		      by_key ? "_key" : "", key, err);
		if (err == -ENOMEM)
			BUMP(w->st.nomem, 1);
		else
			BUMP(w->st.busy, 1);
		lobj_retire(obj);
		return;
	}
	k->obj[k->n++] = obj;
	BUMP(w->st.inserts, 1);
}

enum { RHL_RM_HEAD, RHL_RM_MID, RHL_RM_TAIL, RHL_RM_ANY };

/*
 * Remove one object of our key in @slot, chosen by its place on the list
 * the table holds: the first (the one in the hash chain), one in the
 * middle, the last or any.
 */
static void rhl_remove(struct rhl_writer *w, u32 slot, int where)
{
	struct rhl_key *k = &w->keys[slot];
	u32 key = rhl_churn_key(w->id, slot);
	struct lobj *found[RHL_MAX_DUPS + 1], *victim;
	u32 n, pos, i;
	int err;

	n = rhl_collect(key, found, ARRAY_SIZE(found));
	CHECK(n == k->n, "writer %d: key %#x has %u objects, expected %u",
	      w->id, key, n, k->n);
	if (!n)
		return;
	switch (where) {
	case RHL_RM_HEAD:
		pos = 0;
		break;
	case RHL_RM_MID:
		pos = n >= 3 ? 1 + trng_below(&w->rng, n - 2) :
			       trng_below(&w->rng, n);
		break;
	case RHL_RM_TAIL:
		pos = n - 1;
		break;
	default:
		pos = trng_below(&w->rng, n);
		break;
	}
	victim = found[pos];
	err = rhltable_remove(&hlt, &victim->list, lparams);
	CHECK(!err, "rhltable_remove of object %u of %u of key %#x returned %d",
	      pos, n, key, err);
	if (opt.sabotage == 5 && !trng_below(&w->rng, 1000))
		return;			/* selftest: forget a removal */
	for (i = 0; i < k->n && k->obj[i] != victim; i++)
		;
	CHECK(i < k->n,
	      "writer %d: removed an object of key %#x it did not insert",
	      w->id, key);
	k->obj[i] = k->obj[--k->n];
	BUMP(w->st.removes, 1);
	if (pos == 0)
		BUMP(w->st.rm_head, 1);
	else if (pos == n - 1)
		BUMP(w->st.rm_tail, 1);
	else
		BUMP(w->st.rm_mid, 1);
	lobj_retire(victim);
}

/* Removing an object that is not in the table, next to ours. */
static void rhl_remove_stray(struct rhl_writer *w, u32 slot)
{
	struct lobj stray = {
		.key = rhl_churn_key(w->id, slot),
		.slot = slot,
		.magic = MAGIC_LIVE,
	};
	int err;

	err = rhltable_remove(&hlt, &stray.list, lparams);
	CHECK(err == -ENOENT,
	      "rhltable_remove of a stray object of key %#x returned %d",
	      stray.key, err);
}

static void rhl_writer_op(struct rhl_writer *w, u32 slot)
{
	struct rhl_key *k = &w->keys[slot];
	u32 op = trng_below(&w->rng, 10);

	switch (op) {
	case 0 ... 3:
		if (k->n < RHL_MAX_DUPS) {
			rhl_add(w, slot, op & 1);
			break;
		}
		rhl_remove(w, slot, RHL_RM_ANY);
		break;
	case 4 ... 7:
		rhl_remove(w, slot, op - 4);	/* RHL_RM_HEAD ... ANY */
		break;
	case 8:
		rhl_remove_stray(w, slot);
		break;
	default:
		BUMP(w->st.lookups, 1);
		break;
	}
	/* Only we change this key: the table must agree with us exactly. */
	rhl_check_key(rhl_churn_key(w->id, slot), "writer");
	BUMP(w->st.ops, 1);
}

static void *rhl_writer_main(void *arg)
{
	struct rhl_writer *w = arg;

	while (!stopping()) {
		int i;

		pause_point();
		for (i = 0; i < 64; i++)
			rhl_writer_op(w, trng_below(&w->rng, opt.nchurn));
		/* Now and then give every key of ours an object, or take
		 * all of them away, so that the number of keys swings.
		 */
		if (!trng_below(&w->rng, 64)) {
			bool fill = trng_below(&w->rng, 2);
			u32 slot;

			for (slot = 0; slot < opt.nchurn && !stopping();
			     slot++) {
				struct rhl_key *k = &w->keys[slot];
				u32 key = rhl_churn_key(w->id, slot);

				if (fill && !k->n) {
					rhl_add(w, slot, slot & 1);
					rhl_check_key(key, "writer sweep");
				}
				while (!fill && k->n) {
					rhl_remove(w, slot, RHL_RM_ANY);
					rhl_check_key(key, "writer sweep");
				}
			}
		}
	}
	pause_point();
	return NULL;
}

/* ------------------------------------------------------------------ */
/* rhltable mode: walker                                                */
/* ------------------------------------------------------------------ */

/*
 * An rhltable walk returns every object, duplicates included.  As in the
 * plain mode every walk must return every stable object, and none twice
 * without an -EAGAIN in between (@epoch, @seen_in: see walker_main()).
 */
static void *rhl_walker_main(void *arg)
{
	u32 nobj = opt.nstable * RHL_DUPS;
	u32 *seen_in = calloc(nobj, sizeof(*seen_in));
	u32 total_churn = opt.nchurn * opt.writers;
	struct stats *st = &walker_st;

	CHECK(seen_in, "out of memory");
	while (!stopping()) {
		bool stopstart = st->walks & 1;
		struct rhashtable_iter iter;
		u32 nseen = 0, n = 0, epoch = 1, magic, key, i;
		bool abandoned = false;
		struct lobj *obj;

		memset(seen_in, 0, nobj * sizeof(*seen_in));
		rhashtable_walk_enter(&hlt.ht, &iter);
		rhashtable_walk_start(&iter);
		while ((obj = rhashtable_walk_next(&iter)) != NULL) {
			if (IS_ERR(obj)) {
				CHECK(PTR_ERR(obj) == -EAGAIN,
				      "rhl: rhashtable_walk_next() returned %ld",
				      PTR_ERR(obj));
				BUMP(st->walk_eagain, 1);
				epoch++;
				continue;
			}
			BUMP(st->walk_objs, 1);
			magic = READ_ONCE(obj->magic);
			key = obj->key;
			CHECK(magic == MAGIC_LIVE || magic == MAGIC_GONE,
			      "rhl walker met key %#x with magic %#x", key,
			      magic);
			switch (KEY_CLS(key)) {
			case KC_STABLE:
				CHECK(obj >= lstable && obj < lstable + nobj,
				      "rhl walker met a foreign object of stable key %#x",
				      key);
				i = obj - lstable;
				CHECK(KEY_IDX(key) == i / RHL_DUPS,
				      "rhl walker met stable object %u with key %#x",
				      i, key);
				CHECK(seen_in[i] != epoch,
				      "rhl walk returned stable object %u of key %#x twice without -EAGAIN",
				      i % RHL_DUPS, key);
				nseen += !seen_in[i];
				seen_in[i] = epoch;
				break;
			case KC_CHURN:
				CHECK(KEY_IDX(key) < total_churn,
				      "rhl walker met stray churn key %#x", key);
				break;
			default:
				rht_fail("rhl walker met key %#x", key);
			}
			if (stopping()) {
				abandoned = true;
				break;
			}
			if (stopstart && !(++n & 63)) {
				int err;

				rhashtable_walk_stop(&iter);
				sched_yield();
				err = rhashtable_walk_start_check(&iter);
				CHECK(!err || err == -EAGAIN,
				      "rhl: rhashtable_walk_start_check() returned %d",
				      err);
				epoch += !!err;
			}
		}
		rhashtable_walk_stop(&iter);
		rhashtable_walk_exit(&iter);
		if (abandoned)
			break;
		BUMP(st->walks, 1);
		CHECK(nseen == nobj, "rhl: %s walk saw %u of %u stable objects",
		      stopstart ? "stop/start" : "continuous", nseen, nobj);
	}
	free(seen_in);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* rhltable mode: audits and teardown                                   */
/* ------------------------------------------------------------------ */

/* Keys and objects the table must hold (writers paused or gone). */
static void rhl_expected_counts(u64 *keys, u64 *objs)
{
	u32 slot;
	int w;

	*keys = opt.nstable;
	*objs = (u64)opt.nstable * RHL_DUPS;
	for (w = 0; w < opt.writers; w++) {
		for (slot = 0; slot < opt.nchurn; slot++) {
			u32 n = rwriters[w].keys[slot].n;

			*keys += !!n;
			*objs += n;
		}
	}
}

static void rhl_totals(struct stats *sum)
{
	int i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < opt.readers; i++)
		stats_add(sum, &readers[i].st);
	for (i = 0; i < opt.writers; i++)
		stats_add(sum, &rwriters[i].st);
	sum->walks = LOAD(walker_st.walks);
	sum->walk_objs = LOAD(walker_st.walk_objs);
	sum->walk_eagain = LOAD(walker_st.walk_eagain);
	sum->resizes = LOAD(resizer_st.resizes);
	sum->resize_err = LOAD(resizer_st.resize_err);
}

struct rhl_audit {
	const char *when;
	unsigned long *seen_stable, *seen_churn;	/* keys */
	u64 keys, objs;
};

/* One hash chain entry: a key's first object, and its list behind it. */
static int rhl_audit_chain(void *arg, struct rhash_head *he,
			   unsigned int table, unsigned int bucket)
{
	struct lobj *first = container_of(he, struct lobj, list.rhead);
	struct rhl_audit *a = arg;
	u32 key = first->key, n = 0;
	struct rhlist_head *pos;
	unsigned long *seen;

	switch (KEY_CLS(key)) {
	case KC_STABLE:
		CHECK(KEY_IDX(key) < opt.nstable,
		      "%s: chain walk: stray stable key %#x (table %u bucket %u)",
		      a->when, key, table, bucket);
		seen = a->seen_stable;
		break;
	case KC_CHURN:
		CHECK(rhl_churn_rec(key),
		      "%s: chain walk: stray churn key %#x (table %u bucket %u)",
		      a->when, key, table, bucket);
		seen = a->seen_churn;
		break;
	default:
		rht_fail("%s: chain walk: key %#x (table %u bucket %u)",
			 a->when, key, table, bucket);
	}
	CHECK(!test_and_set_bit(KEY_IDX(key), seen),
	      "%s: chain walk: key %#x heads two lists (table %u bucket %u)",
	      a->when, key, table, bucket);
	rhl_for_each_rcu(pos, &first->list) {
		struct lobj *obj = container_of(pos, struct lobj, list);

		CHECK(obj->key == key && obj->magic == MAGIC_LIVE &&
		      rhl_expected(obj),
		      "%s: chain walk: list of key %#x holds %p (key %#x magic %#x)",
		      a->when, key, obj, obj->key, obj->magic);
		CHECK(obj->mark != rhl_pass,
		      "%s: chain walk: object %p of key %#x met twice",
		      a->when, obj, key);
		obj->mark = rhl_pass;
		n++;
	}
	CHECK(n == rhl_key_count(key),
	      "%s: chain walk: key %#x has %u objects, expected %u", a->when,
	      key, n, rhl_key_count(key));
	a->keys++;
	a->objs += n;
	return 0;
}

/* Runs with every writer (and the resizer) paused. */
static void rhl_audit(const char *when)
{
	u32 total_churn = opt.nchurn * opt.writers;
	u64 keys, objs, walked, stable_walked;
	struct rhl_audit a = { .when = when };
	struct rhashtable_iter iter;
	struct stats sum;
	struct lobj *obj;
	u32 i;

	rht_test_quiesce_lock(&hlt.ht);
	rhl_expected_counts(&keys, &objs);
	rhl_totals(&sum);

	/* 1. Counters; the table's own counts keys. */
	CHECK(rhl_stable_inserted + sum.inserts - sum.removes == objs,
	      "%s: rhl: inserts %llu - removes %llu != expected %llu", when,
	      (unsigned long long)(rhl_stable_inserted + sum.inserts),
	      (unsigned long long)sum.removes, (unsigned long long)objs);
	CHECK(rht_test_nelems(&hlt.ht) ==
	      (RHT_TEST_RHL_COUNTS_OBJECTS ? objs : keys),
	      "%s: rhl: nelems %u, expected %llu keys, %llu objects", when,
	      rht_test_nelems(&hlt.ht), (unsigned long long)keys,
	      (unsigned long long)objs);

	/* 2. Every chain: each key once, its list exactly as expected. */
	a.seen_stable = rht_bitmap_alloc(opt.nstable);
	a.seen_churn = rht_bitmap_alloc(total_churn);
	rhl_pass++;
	rht_test_chain_walk(&hlt.ht, rhl_audit_chain, &a);
	CHECK(a.keys == keys && a.objs == objs,
	      "%s: rhl: chains hold %llu keys, %llu objects, expected %llu, %llu",
	      when, (unsigned long long)a.keys, (unsigned long long)a.objs,
	      (unsigned long long)keys, (unsigned long long)objs);
	free(a.seen_stable);
	free(a.seen_churn);

	/* 3. A walk returns every object exactly once (afresh on -EAGAIN). */
	rhl_pass++;
	walked = 0;
	stable_walked = 0;
	rhltable_walk_enter(&hlt, &iter);
	rhashtable_walk_start(&iter);
	while ((obj = rhashtable_walk_next(&iter)) != NULL) {
		if (IS_ERR(obj)) {
			CHECK(PTR_ERR(obj) == -EAGAIN,
			      "%s: rhl: walk error %ld", when, PTR_ERR(obj));
			rhl_pass++;
			walked = 0;
			stable_walked = 0;
			continue;
		}
		CHECK(rhl_expected(obj),
		      "%s: rhl: walk returned unexpected object %p key %#x",
		      when, obj, obj->key);
		CHECK(obj->mark != rhl_pass,
		      "%s: rhl: walk returned object %p of key %#x twice",
		      when, obj, obj->key);
		obj->mark = rhl_pass;
		walked++;
		stable_walked += KEY_CLS(obj->key) == KC_STABLE;
	}
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	CHECK(stable_walked == (u64)opt.nstable * RHL_DUPS,
	      "%s: rhl: walk returned %llu of %u stable objects", when,
	      (unsigned long long)stable_walked, opt.nstable * RHL_DUPS);
	CHECK(walked == objs,
	      "%s: rhl: walk returned %llu objects, expected %llu", when,
	      (unsigned long long)walked, (unsigned long long)objs);

	/* 4. Every key looks up to exactly its objects; never keys to none. */
	for (i = 0; i < opt.nstable; i++)
		rhl_check_key(KEY(i, KC_STABLE), when);
	for (i = 0; i < total_churn; i++)
		rhl_check_key(KEY(i, KC_CHURN), when);
	for (i = 0; i < 1024; i++)
		rhl_check_key(KEY(i * 524287u, KC_NEVER), when);

	/* 5. Readers' verdicts so far, and the shims' own complaints. */
	CHECK(!sum.false_miss && !sum.false_hit && !sum.bad_obj,
	      "%s: rhl: %llu false misses, %llu false hits, %llu bad objects",
	      when, (unsigned long long)sum.false_miss,
	      (unsigned long long)sum.false_hit,
	      (unsigned long long)sum.bad_obj);
	CHECK(!rht_shim_warn_count(), "%s: %lu kernel warnings", when,
	      rht_shim_warn_count());

	rht_test_unlock(&hlt.ht);
	audits++;
	if (opt.verbose)
		fprintf(stderr,
			"stress: rhl audit %s ok: %llu keys, %llu objects, %u buckets\n",
			when, (unsigned long long)keys,
			(unsigned long long)objs,
			(unsigned int)rht_test_table_size(&hlt.ht));
}

static void rhl_destroy_one(void *ptr, void *arg)
{
	struct lobj *obj = ptr;

	CHECK(arg == &destroyed, "rhl: free_fn got arg %p", arg);
	CHECK(obj->magic == MAGIC_LIVE,
	      "rhl: free_and_destroy handed back key %#x with magic %#x",
	      obj->key, obj->magic);
	CHECK(rhl_expected(obj),
	      "rhl: free_and_destroy handed back a foreign object (key %#x)",
	      obj->key);
	CHECK(++obj->destroyed == 1,
	      "rhl: free_and_destroy handed back object %p of key %#x twice",
	      obj, obj->key);
	destroyed++;
}

static void rhl_teardown(void)
{
	u64 keys, objs;
	u32 i, slot;
	int w;

	rhl_expected_counts(&keys, &objs);
	rhltable_free_and_destroy(&hlt, rhl_destroy_one, &destroyed);
	CHECK(destroyed == objs,
	      "rhl: free_and_destroy freed %llu objects, expected %llu",
	      (unsigned long long)destroyed, (unsigned long long)objs);
	for (i = 0; i < opt.nstable * RHL_DUPS; i++)
		CHECK(lstable[i].destroyed == 1,
		      "rhl: stable object %u of key %#x freed %u times",
		      lstable[i].slot, lstable[i].key, lstable[i].destroyed);
	for (w = 0; w < opt.writers; w++) {
		for (slot = 0; slot < opt.nchurn; slot++) {
			struct rhl_key *k = &rwriters[w].keys[slot];

			for (i = 0; i < k->n; i++) {
				struct lobj *obj = k->obj[i];

				CHECK(obj->destroyed == 1,
				      "rhl: object of churn key %#x freed %u times",
				      obj->key, obj->destroyed);
				obj->magic = MAGIC_DEAD;
				free(obj);
			}
		}
		free(rwriters[w].keys);
	}
	free(rwriters);
	free(lstable);

	/* Every deferred free (tables, objects) must have run. */
	rcu_barrier();
	CHECK(rht_rcu_pending_callbacks() == 0, "%ld RCU callbacks pending",
	      rht_rcu_pending_callbacks());
	CHECK(rht_alloc_live_objects() == 0,
	      "%ld shim allocations (%ld bytes) leaked after destroy",
	      rht_alloc_live_objects(), rht_alloc_live_bytes());
	CHECK(!rht_shim_warn_count(), "%lu kernel warnings",
	      rht_shim_warn_count());
}

/*
 * Watch @table for the run's duration: count its size changes, note its
 * peak size, and every checkpoint interval @audit it with the other
 * threads paused and no allocation failing.
 */
static void watch_table(struct rhashtable *table, void (*audit)(const char *),
			unsigned long *changes, unsigned long *peak)
{
	double start = rht_now(), next_audit;
	unsigned long last = rht_test_table_size(table);

	next_audit = start + opt.checkpoint_ms / 1000.0;
	*peak = last;
	while (rht_now() - start < opt.secs) {
		unsigned long size;

		usleep(1000);
		size = rht_test_table_size(table);
		*changes += size != last;
		last = size;
		*peak = max(*peak, size);
		if (opt.checkpoint_ms > 0 && rht_now() >= next_audit) {
			pause_all();
			rht_set_fail_ppm(0);
			audit("checkpoint");
			rht_set_fail_ppm(opt.fail_ppm);
			resume_all();
			next_audit = rht_now() + opt.checkpoint_ms / 1000.0;
		}
	}
}

/* The run of -L; main() has parsed the options. */
static int rhl_run(void)
{
	unsigned long peak_size, size_changes = 0;
	pthread_t walker_tid, resizer_tid;
	struct stats sum;
	int i, err;
	u32 j;

	fprintf(stdout,
		"stress: impl %s, rhltable, %d readers, %d writers%s%s, %u stable keys x %d + %u churn keys (up to %d each), %.1fs, seed %llu, fail %u ppm\n",
		RHT_TEST_LABEL, opt.readers, opt.writers,
		opt.walker ? ", walker" : "",
#ifdef RHT_TEST_HAVE_RESIZE
		", resizer",
#else
		"",
#endif
		opt.nstable, RHL_DUPS, opt.nchurn * opt.writers, RHL_MAX_DUPS,
		opt.secs, (unsigned long long)opt.seed, opt.fail_ppm);

	err = rhltable_init(&hlt, &lparams);
	CHECK(!err, "rhltable_init: %d", err);

	lstable = calloc((size_t)opt.nstable * RHL_DUPS, sizeof(*lstable));
	CHECK(lstable, "out of memory");
	for (j = 0; j < opt.nstable * RHL_DUPS; j++) {
		struct lobj *obj = &lstable[j];

		obj->key = KEY(j / RHL_DUPS, KC_STABLE);
		obj->slot = j % RHL_DUPS;
		obj->magic = MAGIC_LIVE;
		if (j & 1)
			err = rhltable_insert_key(&hlt, &obj->key, &obj->list,
						  lparams);
		else
			err = rhltable_insert(&hlt, &obj->list, lparams);
		CHECK(!err, "inserting stable object %u: %d", j, err);
		rhl_stable_inserted++;
	}

	rwriters = calloc(opt.writers, sizeof(*rwriters));
	readers = calloc(opt.readers, sizeof(*readers));
	CHECK(rwriters && readers, "out of memory");
	for (i = 0; i < opt.writers; i++) {
		struct rhl_writer *w = &rwriters[i];

		w->id = i;
		w->keys = calloc(opt.nchurn, sizeof(*w->keys));
		CHECK(w->keys, "out of memory");
		trng_seed(&w->rng, opt.seed * 1000 + i);
	}
	for (i = 0; i < opt.readers; i++) {
		readers[i].id = i;
		trng_seed(&readers[i].rng, opt.seed * 2000 + i);
	}

	rhl_audit("initial");
	rht_set_fail_ppm(opt.fail_ppm);

	pausers = opt.writers;
	for (i = 0; i < opt.writers; i++)
		CHECK(!pthread_create(&rwriters[i].tid, NULL, rhl_writer_main,
				      &rwriters[i]), "pthread_create");
	for (i = 0; i < opt.readers; i++)
		CHECK(!pthread_create(&readers[i].tid, NULL, rhl_reader_main,
				      &readers[i]), "pthread_create");
	if (opt.walker)
		CHECK(!pthread_create(&walker_tid, NULL, rhl_walker_main,
				      NULL), "pthread_create");
#ifdef RHT_TEST_HAVE_RESIZE
	pausers++;
	CHECK(!pthread_create(&resizer_tid, NULL, resizer_main, &hlt.ht),
	      "pthread_create");
#else
	(void)resizer_tid;
#endif

	watch_table(&hlt.ht, rhl_audit, &size_changes, &peak_size);

	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	resume_all();
	for (i = 0; i < opt.writers; i++)
		pthread_join(rwriters[i].tid, NULL);
	for (i = 0; i < opt.readers; i++)
		pthread_join(readers[i].tid, NULL);
	if (opt.walker)
		pthread_join(walker_tid, NULL);
#ifdef RHT_TEST_HAVE_RESIZE
	pthread_join(resizer_tid, NULL);
#endif
	rht_set_fail_ppm(0);
	rhl_audit("final");

	rhl_totals(&sum);
	printf("stress: rhl: %llu lookups (%llu false misses, %llu false hits, %llu bad objects)\n",
	       (unsigned long long)sum.lookups,
	       (unsigned long long)sum.false_miss,
	       (unsigned long long)sum.false_hit,
	       (unsigned long long)sum.bad_obj);
	fprintf(stdout,
		"stress: rhl: %llu writer ops: %llu inserts, %llu removes (%llu first, %llu middle, %llu last), %llu -ENOMEM, %llu -EBUSY (%lu injected alloc failures)\n",
		(unsigned long long)sum.ops, (unsigned long long)sum.inserts,
		(unsigned long long)sum.removes,
		(unsigned long long)sum.rm_head,
		(unsigned long long)sum.rm_mid,
		(unsigned long long)sum.rm_tail,
		(unsigned long long)sum.nomem, (unsigned long long)sum.busy,
		rht_alloc_failed_count());
	fprintf(stdout,
		"stress: rhl: %lu table-size changes seen, largest %lu buckets, %lu shim allocations\n",
		size_changes, peak_size, rht_alloc_total_count());
	CHECK(peak_size >= opt.min_peak,
	      "the table never reached %lu buckets (largest seen %lu)",
	      opt.min_peak, peak_size);
	CHECK(!opt.fail_ppm || rht_alloc_failed_count(),
	      "-F %u injected no allocation failure", opt.fail_ppm);
	CHECK(sum.rm_head && sum.rm_mid && sum.rm_tail,
	      "rhl: not every kind of removal happened (%llu first, %llu middle, %llu last)",
	      (unsigned long long)sum.rm_head,
	      (unsigned long long)sum.rm_mid,
	      (unsigned long long)sum.rm_tail);
	fprintf(stdout,
		"stress: rhl: %llu walks, %llu objects walked, %llu -EAGAIN, every stable object every walk\n",
		(unsigned long long)sum.walks,
		(unsigned long long)sum.walk_objs,
		(unsigned long long)sum.walk_eagain);
#ifdef RHT_TEST_HAVE_RESIZE
	printf("stress: rhl: %llu explicit resizes (%llu refused)\n",
	       (unsigned long long)sum.resizes,
	       (unsigned long long)sum.resize_err);
#endif
	rhl_teardown();
	printf("stress: rhl: %u audits, destroy returned %llu objects, no leaks\n",
	       audits, (unsigned long long)destroyed);
	/*
	 * lookups, misses/hits, writers' own checks, audits, walker,
	 * destroy, leaks, warnings, size reached, failures injected, every
	 * kind of removal
	 */
	printf("stress: rhl: 11 passed, 0 failed\n");
	return 0;
}

/* ------------------------------------------------------------------ */

/* A run that hangs (a livelock, a stuck resize) fails instead. */
static void stress_timeout(int sig)
{
	static const char msg[] =
		"FAIL: stress: watchdog: the run did not end in time\n";

	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

static void print_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-d secs] [-r readers] [-w writers] [-k stable_keys]\n"
		"          [-c churn_keys_per_writer] [-s seed] [-F fail_ppm]\n"
		"          [-p checkpoint_ms] [-m movers] [-W(no walker)] [-v]\n"
		"          [-B buckets: fail unless the table grows this big]\n"
		"          [-L: an rhltable with duplicate keys instead]\n"
		"          [-X 1-5: sabotage the test, it must then fail (-L: 2, 5)]\n",
		prog);
	exit(2);
}

int main(int argc, char **argv)
{
	pthread_t walker_tid, resizer_tid;
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long peak_size, size_changes = 0;
	struct stats sum;
	int c, i, err;

	opt.readers = ncpu > 0 ? ncpu : 2;
	opt.writers = max(2, opt.readers / 2);
	while ((c = getopt(argc, argv, "d:r:w:k:c:s:F:p:m:B:X:LWvh")) != -1) {
		switch (c) {
		case 'd':
			opt.secs = atof(optarg);
			break;
		case 'r':
			opt.readers = atoi(optarg);
			break;
		case 'w':
			opt.writers = atoi(optarg);
			break;
		case 'k':
			opt.nstable = atoi(optarg);
			break;
		case 'c':
			opt.nchurn = atoi(optarg);
			break;
		case 's':
			opt.seed = strtoull(optarg, NULL, 0);
			break;
		case 'F':
			opt.fail_ppm = atoi(optarg);
			break;
		case 'p':
			opt.checkpoint_ms = atoi(optarg);
			break;
		case 'W':
			opt.walker = 0;
			break;
		case 'm':
			opt.movers = atoi(optarg);
			break;
		case 'B':
			opt.min_peak = strtoul(optarg, NULL, 0);
			break;
		case 'v':
			opt.verbose++;
			break;
		case 'X':
			opt.sabotage = atoi(optarg);
			break;
		case 'L':
			opt.rhl = 1;
			break;
		default:
			print_usage(argv[0]);
		}
	}
	if (opt.readers < 1 || opt.writers < 1 || opt.nstable < 1 ||
	    opt.nchurn < 1 || opt.movers < 0)
		print_usage(argv[0]);
	rht_random_seed(opt.seed);
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, stress_timeout);
	alarm((unsigned int)opt.secs + 120);
	if (opt.rhl)
		return rhl_run();

	fprintf(stdout,
		"stress: impl %s, %d readers, %d writers, %d movers%s%s, %u stable + %u churn keys, %.1fs, seed %llu, fail %u ppm\n",
		RHT_TEST_LABEL, opt.readers, opt.writers, opt.movers,
		opt.walker ? ", walker" : "",
#ifdef RHT_TEST_HAVE_RESIZE
		", resizer",
#else
		"",
#endif
		opt.nstable, opt.nchurn * opt.writers, opt.secs,
		(unsigned long long)opt.seed, opt.fail_ppm);

	err = rhashtable_init(&ht, &tparams);
	CHECK(!err, "rhashtable_init: %d", err);
	err = rhashtable_init(&ht2, &tparams);
	CHECK(!err, "rhashtable_init: %d", err);

	stable = calloc(opt.nstable, sizeof(*stable));
	CHECK(stable, "out of memory");
	for (i = 0; i < (int)opt.nstable; i++) {
		stable[i].key = KEY(i, KC_STABLE);
		stable[i].magic = MAGIC_LIVE;
		/* selftest 3: a "never" key in the table; 4: a stable key not */
		if (opt.sabotage == 3 && i == 7)
			stable[i].key = KEY(12345, KC_NEVER);
		if (opt.sabotage == 4 && i == 7)
			continue;
		err = rhashtable_insert_fast(&ht, &stable[i].node, tparams);
		CHECK(!err, "inserting stable key %d: %d", i, err);
		stable_inserted++;
	}

	writers = calloc(opt.writers, sizeof(*writers));
	readers = calloc(opt.readers, sizeof(*readers));
	CHECK(writers && readers, "out of memory");
	for (i = 0; i < opt.writers; i++) {
		struct writer *w = &writers[i];

		w->id = i;
		w->first = i;
		w->count = opt.nchurn;
		w->obj = calloc(w->count, sizeof(*w->obj));
		CHECK(w->obj, "out of memory");
		trng_seed(&w->rng, opt.seed * 1000 + i);
	}
	for (i = 0; i < opt.readers; i++) {
		readers[i].id = i;
		trng_seed(&readers[i].rng, opt.seed * 2000 + i);
	}
	movers_init();

	audit_table("initial");
	rht_set_fail_ppm(opt.fail_ppm);

	pausers = opt.writers + opt.movers;
	for (i = 0; i < opt.writers; i++)
		CHECK(!pthread_create(&writers[i].tid, NULL, writer_main,
				      &writers[i]), "pthread_create");
	for (i = 0; i < opt.movers; i++)
		CHECK(!pthread_create(&movers[i].tid, NULL, mover_main,
				      &movers[i]), "pthread_create");
	for (i = 0; i < opt.readers; i++)
		CHECK(!pthread_create(&readers[i].tid, NULL, reader_main,
				      &readers[i]), "pthread_create");
	if (opt.walker)
		CHECK(!pthread_create(&walker_tid, NULL, walker_main, NULL),
		      "pthread_create");
#ifdef RHT_TEST_HAVE_RESIZE
	pausers++;
	CHECK(!pthread_create(&resizer_tid, NULL, resizer_main, &ht),
	      "pthread_create");
#else
	(void)resizer_tid;
#endif

	watch_table(&ht, audit_table, &size_changes, &peak_size);

	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	resume_all();
	for (i = 0; i < opt.writers; i++)
		pthread_join(writers[i].tid, NULL);
	for (i = 0; i < opt.movers; i++)
		pthread_join(movers[i].tid, NULL);
	for (i = 0; i < opt.readers; i++)
		pthread_join(readers[i].tid, NULL);
	if (opt.walker)
		pthread_join(walker_tid, NULL);
#ifdef RHT_TEST_HAVE_RESIZE
	pthread_join(resizer_tid, NULL);
#endif
	rht_set_fail_ppm(0);
	audit_table("final");

	totals(&sum);
	printf("stress: %llu lookups (%llu false misses, %llu false hits, %llu bad objects)\n",
	       (unsigned long long)sum.lookups,
	       (unsigned long long)sum.false_miss,
	       (unsigned long long)sum.false_hit,
	       (unsigned long long)sum.bad_obj);
	fprintf(stdout,
		"stress: %llu writer ops: %llu inserts, %llu removes, %llu replaces, %llu -ENOMEM, %llu -EBUSY (%lu injected alloc failures)\n",
		(unsigned long long)sum.ops, (unsigned long long)sum.inserts,
		(unsigned long long)sum.removes,
		(unsigned long long)sum.replaces,
		(unsigned long long)sum.nomem, (unsigned long long)sum.busy,
		rht_alloc_failed_count());
	printf("stress: %lu table-size changes seen, largest %lu buckets, %lu shim allocations\n",
	       size_changes, peak_size, rht_alloc_total_count());
	CHECK(peak_size >= opt.min_peak,
	      "the table never reached %lu buckets (largest seen %lu)",
	      opt.min_peak, peak_size);
	CHECK(!opt.fail_ppm || rht_alloc_failed_count(),
	      "-F %u injected no allocation failure", opt.fail_ppm);
	fprintf(stdout,
		"stress: %llu walks, %llu objects walked, %llu -EAGAIN, every stable key every walk\n",
		(unsigned long long)sum.walks,
		(unsigned long long)sum.walk_objs,
		(unsigned long long)sum.walk_eagain);
#ifdef RHT_TEST_HAVE_RESIZE
	printf("stress: %llu explicit resizes (%llu refused)\n",
	       (unsigned long long)sum.resizes,
	       (unsigned long long)sum.resize_err);
#endif
	printf("stress: false_misses=%llu false_hits=%llu moves=%llu resizes=%llu\n",
	       (unsigned long long)sum.false_miss,
	       (unsigned long long)sum.false_hit,
	       (unsigned long long)sum.moves,
	       (unsigned long long)(size_changes + sum.resizes));
	teardown();
	printf("stress: %u audits, destroy returned %llu objects, no leaks\n",
	       audits, (unsigned long long)destroyed);
	/*
	 * lookups, misses/hits, audits, walker, destroy, leaks, warnings,
	 * size reached, failures injected
	 */
	printf("stress: 9 passed, 0 failed\n");
	return 0;
}
