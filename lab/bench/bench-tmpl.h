/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-key-type half of bench.c, included once per key type with
 *   KT      key type (u32 or struct k16)
 *   KS      name suffix (u32, k16)
 *   KMAKE   KMAKE(&key, i): the i-th key (a bijection of i)
 *   KEQ     KEQ(a, b): keys equal
 * Every contender gets its own object type and its own timed loops, so
 * that keys, hashing and comparisons are inlined into each loop exactly as
 * a kernel user would compile them.
 */

#define CAT_(a, b)	a##_##b
#define CAT(a, b)	CAT_(a, b)
#define N_(x)		CAT(x, KS)

/* This key type's structure tags, e.g. struct robj_u32. */
#define ROBJ		N_(robj)
#define LOBJ		N_(lobj)
#define POBJ		N_(pobj)
#define TBL		N_(tbl)
#define WARG		N_(warg)

/* ---- objects --------------------------------------------------------- */

struct ROBJ {				/* rhashtable (stock or ours) */
	struct rhash_head node;
	KT key;
	struct rcu_head rcu;
};

struct LOBJ {				/* liburcu cds_lfht */
	struct cds_lfht_node node;
	KT key;
	struct rcu_head rcu;
};

/*
 * The plain table's object is the same as the others': same size and key
 * offset, so that they spread over as many cache lines and pages.
 */
struct POBJ {				/* plain chained table */
	struct POBJ *next;
	KT key;
	struct rcu_head unused;
};

static const struct rhashtable_params N_(rparams) = {
	.key_len = sizeof(KT),
	.key_offset = offsetof(struct ROBJ, key),
	.head_offset = offsetof(struct ROBJ, node),
	.automatic_shrinking = true,
};

static inline u32 N_(hash)(const KT *k, u32 seed)
{
	return jhash2((const u32 *)k, sizeof(KT) / sizeof(u32), seed);
}

/* ---- the three tables behind one small interface ---------------------- */

struct TBL {
	int kind;
	struct rhashtable rht;
	struct cds_lfht *lfht;
	struct POBJ **pb;		/* plain buckets */
	unsigned long pmask;
	u32 seed;
};

static int N_(lfht_match)(struct cds_lfht_node *node, const void *key)
{
	struct LOBJ *o = caa_container_of(node, struct LOBJ, node);

	return KEQ(&o->key, (const KT *)key);
}

static void N_(tbl_init)(struct TBL *t, int kind, unsigned long size_hint)
{
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->seed = 0x5eed1234;
	switch (kind) {
	case C_RHT:
		if (rhashtable_init(&t->rht, &N_(rparams)))
			die("rhashtable_init failed");
		break;
	case C_LFHT:
		/*
		 * The malloc-backed bucket allocator, so that the memory
		 * figures (mallinfo2) see its buckets; with a bucket limit
		 * liburcu would otherwise pick its mmap() allocator.
		 */
		t->lfht = _cds_lfht_new(lfht_init, 1, 1UL << 24, lfht_flags,
					&cds_lfht_mm_order, &urcu_memb_flavor,
					NULL);
		if (!t->lfht)
			die("cds_lfht_new failed");
		break;
	case C_PLAIN: {
		unsigned long n = 1;

		/* Fixed size: buckets for a 75% load at the hinted size. */
		while (n * 3 < size_hint * 4)
			n <<= 1;
		t->pb = calloc(n, sizeof(*t->pb));
		if (!t->pb)
			die("out of memory");
		t->pmask = n - 1;
		break;
	}
	}
}

static void *N_(obj_alloc)(int kind, unsigned long i)
{
	size_t sz = kind == C_RHT ? sizeof(struct ROBJ) :
		    kind == C_LFHT ? sizeof(struct LOBJ) :
				     sizeof(struct POBJ);
	/*
	 * Cache-line aligned, as kmalloc-64 places them: with malloc's
	 * 16-byte alignment every object of one run sits at the same
	 * offset in its line, which puts the key across two lines in
	 * some runs and not in others (a 2x swing in misses per lookup
	 * from one contender's binary to the next).
	 */
	size_t asz = (sz + 63) & ~(size_t)63;
	void *o = aligned_alloc(64, asz);

	if (!o)
		die("out of memory");
	memset(o, 0, asz);
	switch (kind) {
	case C_RHT:
		KMAKE(&((struct ROBJ *)o)->key, i);
		break;
	case C_LFHT:
		KMAKE(&((struct LOBJ *)o)->key, i);
		break;
	default:
		KMAKE(&((struct POBJ *)o)->key, i);
		break;
	}
	return o;
}

static void N_(robj_free_rcu)(struct rcu_head *h)
{
	free(container_of(h, struct ROBJ, rcu));
}

static void N_(lobj_free_rcu)(struct rcu_head *h)
{
	free(container_of(h, struct LOBJ, rcu));
}

/* Insert without a duplicate check (grow); 0 or -errno. */
static inline int N_(insert)(struct TBL *t, void *o)
{
	switch (t->kind) {
	case C_RHT:
		return rhashtable_insert_fast(&t->rht,
					      &((struct ROBJ *)o)->node,
					      N_(rparams));
	case C_LFHT: {
		struct LOBJ *l = o;

		rcu_read_lock();
		cds_lfht_add(t->lfht, N_(hash)(&l->key, t->seed), &l->node);
		rcu_read_unlock();
		return 0;
	}
	default: {
		struct POBJ *p = o;
		unsigned long b = N_(hash)(&p->key, t->seed) & t->pmask;

		p->next = t->pb[b];
		t->pb[b] = p;
		return 0;
	}
	}
}

/* Insert unless the key is present (churn); 0 or -errno. */
static inline int N_(insert_unique)(struct TBL *t, void *o)
{
	switch (t->kind) {
	case C_RHT:
		return rhashtable_lookup_insert_fast(&t->rht,
						     &((struct ROBJ *)o)->node,
						     N_(rparams));
	case C_LFHT: {
		struct LOBJ *l = o;
		struct cds_lfht_node *ret;

		rcu_read_lock();
		ret = cds_lfht_add_unique(t->lfht, N_(hash)(&l->key, t->seed),
					  N_(lfht_match), &l->key, &l->node);
		rcu_read_unlock();
		return ret == &l->node ? 0 : -EEXIST;
	}
	default:
		return N_(insert)(t, o);
	}
}

/* Remove @o and free it once no reader can see it. */
static inline void N_(remove)(struct TBL *t, void *o)
{
	switch (t->kind) {
	case C_RHT: {
		struct ROBJ *r = o;

		if (rhashtable_remove_fast(&t->rht, &r->node, N_(rparams)))
			die("remove failed");
		call_rcu(&r->rcu, N_(robj_free_rcu));
		break;
	}
	case C_LFHT: {
		struct LOBJ *l = o;

		rcu_read_lock();
		if (cds_lfht_del(t->lfht, &l->node))
			die("cds_lfht_del failed");
		rcu_read_unlock();
		call_rcu(&l->rcu, N_(lobj_free_rcu));
		break;
	}
	default: {
		struct POBJ *p = o, **pp;

		pp = &t->pb[N_(hash)(&p->key, t->seed) & t->pmask];
		while (*pp != p)
			pp = &(*pp)->next;
		*pp = p->next;
		free(p);
		break;
	}
	}
}

/*
 * Readers of the RCU tables (ours, stock, cds_lfht) enter one read-side
 * section per batch of lookups, as a kernel user looking up several keys
 * would: liburcu's rcu_read_lock() costs more than the kernel's, and
 * taking it per lookup would weigh on the contenders unevenly.
 */
static inline void N_(read_lock)(struct TBL *t)
{
	if (t->kind != C_PLAIN)
		rcu_read_lock();
}

static inline void N_(read_unlock)(struct TBL *t)
{
	if (t->kind != C_PLAIN)
		rcu_read_unlock();
}

/* Lookup of key number @i, inside N_(read_lock); returns whether found. */
static inline bool N_(lookup)(struct TBL *t, unsigned long i)
{
	KT key;

	KMAKE(&key, i);
	switch (t->kind) {
	case C_RHT:
		return rhashtable_lookup(&t->rht, &key, N_(rparams));
	case C_LFHT: {
		struct cds_lfht_iter iter;

		cds_lfht_lookup(t->lfht, N_(hash)(&key, t->seed),
				N_(lfht_match), &key, &iter);
		return cds_lfht_iter_get_node(&iter);
	}
	default: {
		struct POBJ *p;

		p = t->pb[N_(hash)(&key, t->seed) & t->pmask];
		for (; p; p = p->next)
			if (KEQ(&p->key, &key))
				return true;
		return false;
	}
	}
}

/* Wait until background resizing has settled and old memory is freed. */
static void N_(settle)(struct TBL *t)
{
	int i;

	if (t->kind == C_RHT) {
		rht_test_quiesce_lock(&t->rht);
		rht_test_unlock(&t->rht);
	}
	for (i = 0; i < 3; i++)
		rcu_barrier();
	if (t->kind == C_LFHT) {
		/*
		 * liburcu's lazy auto-resize runs from call_rcu and may still
		 * be far behind (or not even queued) after a fast fill; do
		 * what it would end up doing: one bucket per node.
		 */
		long before, after;
		unsigned long count, size = 1;

		rcu_read_lock();
		cds_lfht_count_nodes(t->lfht, &before, &count, &after);
		rcu_read_unlock();
		while (size < count)
			size <<= 1;
		cds_lfht_resize(t->lfht, size);
		rcu_barrier();
	}
}

static void N_(rht_free_obj)(void *ptr, void *arg)
{
	free(ptr);
}

static void N_(tbl_destroy)(struct TBL *t)
{
	switch (t->kind) {
	case C_RHT:
		rhashtable_free_and_destroy(&t->rht, N_(rht_free_obj), NULL);
		break;
	case C_LFHT: {
		struct cds_lfht_iter iter;
		struct cds_lfht_node *node;

		rcu_read_lock();
		cds_lfht_first(t->lfht, &iter);
		while ((node = cds_lfht_iter_get_node(&iter)) != NULL) {
			struct LOBJ *l = caa_container_of(node, struct LOBJ,
							  node);

			cds_lfht_next(t->lfht, &iter);
			cds_lfht_del(t->lfht, node);
			call_rcu(&l->rcu, N_(lobj_free_rcu));
		}
		rcu_read_unlock();
		rcu_barrier();
		if (cds_lfht_destroy(t->lfht, NULL))
			die("cds_lfht_destroy failed");
		break;
	}
	default: {
		unsigned long b;

		for (b = 0; b <= t->pmask; b++) {
			struct POBJ *p = t->pb[b], *n;

			for (; p; p = n) {
				n = p->next;
				free(p);
			}
		}
		free(t->pb);
		break;
	}
	}
	rcu_barrier();
}

/* Fill with keys [0, n) in a scattered order; keeps pointers if @objs. */
static void N_(fill)(struct TBL *t, unsigned long n, void **objs)
{
	unsigned long i, step = n | 1;

	/* an odd step that is coprime with n visits every index once */
	while (gcd_ul(step, n) != 1)
		step += 2;
	for (i = 0; i < n; i++) {
		unsigned long k = (i * step + 7) % n;
		void *o = N_(obj_alloc)(t->kind, k);

		if (N_(insert)(t, o))
			die("insert failed while filling");
		if (objs)
			objs[k] = o;
	}
}

/* ---- workloads ------------------------------------------------------- */

struct WARG {
	struct TBL *t;
	struct bench_thread bt;
	unsigned long n, lo, hi;	/* key range and own slice */
	bool negative;
	void **objs;
	u8 *gen;			/* churn: which key a slot holds */
};

static void *N_(lookup_thread)(void *arg)
{
	struct WARG *a = arg;
	u64 rng = a->bt.seed, ops = 0, hits = 0;
	unsigned long off = a->negative ? a->n : 0;

	bench_thread_ready(&a->bt);
	while (!bench_stopping()) {
		int i;

		bench_thread_tick(&a->bt, ops);
		N_(read_lock)(a->t);
		for (i = 0; i < 256; i++) {
			rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
			hits += N_(lookup)(a->t, off +
					   (unsigned long)(((rng >> 32) * a->n) >> 32));
		}
		N_(read_unlock)(a->t);
		ops += 256;
	}
	bench_thread_done(&a->bt, ops);
	if (a->negative ? hits != 0 : hits != ops)
		die("lookup %s: %llu hits in %llu lookups",
		    a->negative ? "negative" : "positive",
		    (unsigned long long)hits, (unsigned long long)ops);
	return NULL;
}

/* Churn: each slot toggles between key s and key s + n. */
static void *N_(churn_thread)(void *arg)
{
	struct WARG *a = arg;
	u64 rng = a->bt.seed, ops = 0;
	unsigned long span = a->hi - a->lo;

	bench_thread_ready(&a->bt);
	while (!bench_stopping()) {
		int i;

		bench_thread_tick(&a->bt, ops);
		for (i = 0; i < 64; i++) {
			unsigned long s;
			void *o;

			rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
			s = a->lo + (unsigned long)(((rng >> 32) * span) >> 32);
			N_(remove)(a->t, a->objs[s]);
			a->gen[s] ^= 1;
			o = N_(obj_alloc)(a->t->kind, s + (a->gen[s] ? a->n : 0));
			if (N_(insert_unique)(a->t, o))
				die("churn insert failed");
			a->objs[s] = o;
		}
		ops += 128;
	}
	bench_thread_done(&a->bt, ops);
	return NULL;
}

static void *N_(grow_thread)(void *arg)
{
	struct WARG *a = arg;
	unsigned long i;

	bench_thread_ready(&a->bt);
	for (i = a->lo; i < a->hi; i++)
		if (N_(insert)(a->t, a->objs[i]))
			die("grow insert failed");
	bench_thread_done(&a->bt, a->hi - a->lo);
	return NULL;
}

/* Resize storm: add then remove n extra keys, over and over. */
static void *N_(storm_thread)(void *arg)
{
	struct WARG *a = arg;
	unsigned long i, m = a->n * 3;
	void **extra = calloc(m, sizeof(*extra));
	u64 cycles = 0;

	if (!extra)
		die("out of memory");
	bench_thread_ready(&a->bt);
	while (!bench_stopping()) {
		for (i = 0; i < m && !bench_stopping(); i++) {
			extra[i] = N_(obj_alloc)(a->t->kind, 2 * a->n + i);
			if (N_(insert)(a->t, extra[i]))
				die("storm insert failed");
		}
		m = i;
		for (i = 0; i < m; i++)
			N_(remove)(a->t, extra[i]);
		cycles++;
		m = a->n * 3;
	}
	bench_thread_done(&a->bt, cycles);	/* not part of the figure */
	free(extra);
	return NULL;
}

/*
 * Tables that live inside other objects, by the thousand (several per
 * network namespace): make LIFE_TABLES of them, put LIFE_OBJS objects in
 * each, destroy them all.  With @resized they start at 8 buckets, so the
 * objects make each grow twice; the resizes are waited for between the
 * two timed phases, as a table lives a while between set-up and teardown.
 * Reports tables per second of set-up plus teardown.
 */
#define LIFE_TABLES	10000
#define LIFE_OBJS	16

static void N_(life)(const char *cname, int resized)
{
	struct rhashtable_params p = N_(rparams);
	struct rhashtable *hts = calloc(LIFE_TABLES, sizeof(*hts));
	struct ROBJ *objs = calloc((size_t)LIFE_TABLES * LIFE_OBJS,
				   sizeof(*objs));
	double t0, spent;
	unsigned long i, k;
	char wl[64];

	if (!hts || !objs)
		die("out of memory");
	if (resized)
		p.nelem_hint = 4;	/* 8 buckets */
	t0 = rht_now();
	for (i = 0; i < LIFE_TABLES; i++) {
		if (rhashtable_init(&hts[i], &p))
			die("rhashtable_init failed");
		for (k = 0; k < LIFE_OBJS; k++) {
			struct ROBJ *o = &objs[i * LIFE_OBJS + k];

			KMAKE(&o->key, k);
			if (rhashtable_insert_fast(&hts[i], &o->node,
						   N_(rparams)))
				die("insert failed");
		}
	}
	spent = rht_now() - t0;
	for (i = 0; i < LIFE_TABLES; i++) {
		struct rhashtable *ht = &hts[i];
		unsigned int size;

		for (;;) {
			rcu_read_lock();
			size = rht_dereference_rcu(ht->tbl, ht)->size;
			rcu_read_unlock();
			if ((!resized || size >= 4 * 8) &&
			    !rht_test_resizing(ht) &&
			    !work_pending(&ht->run_work))
				break;
			usleep(100);
		}
	}
	t0 = rht_now();
	for (i = 0; i < LIFE_TABLES; i++)
		rhashtable_destroy(&hts[i]);
	spent += rht_now() - t0;
	snprintf(wl, sizeof(wl), "life%s_%s", resized ? "_resized" : "",
		 STR(KS));
	bench_report(wl, cname, 1, LIFE_OBJS, "tables_per_s",
		     LIFE_TABLES / spent);
	/* Arrays retired by resizes may still wait for a grace period. */
	rcu_barrier();
	free(objs);
	free(hts);
}

/*
 * How much resizing a figure took: "resizes" counts grows, shrinks and
 * rehashes, "unzip_passes" the passes the grows made over the table,
 * "rehashes" the arrays rebuilt by moving objects (to catch up with a
 * burst of inserts, or for a new seed) and "reseeds" those of them that
 * took a new seed after a long chain.
 * Only our implementation keeps these counters.
 */
static void N_(report_resizes)(struct TBL *t, const char *cname, int nt,
			       unsigned long n)
{
#ifdef RHT_IMPL_OURS
	struct rhashtable_stats st;
	char wl[64];

	rhashtable_get_stats(&t->rht, &st);
	snprintf(wl, sizeof(wl), "grow_resizes_%s", STR(KS));
	bench_report(wl, cname, nt, n, "count",
		     st.grows + st.shrinks + st.rehashes);
	snprintf(wl, sizeof(wl), "grow_unzip_passes_%s", STR(KS));
	bench_report(wl, cname, nt, n, "count", st.unzip_passes);
	snprintf(wl, sizeof(wl), "grow_rehashes_%s", STR(KS));
	bench_report(wl, cname, nt, n, "count", st.rehashes);
	snprintf(wl, sizeof(wl), "grow_reseeds_%s", STR(KS));
	bench_report(wl, cname, nt, n, "count", st.reseeds);
#endif
}

/* ---- timeline ------------------------------------------------------------ */

/*
 * The table's size, and whether a resize is in flight: rht_test_resizing(),
 * or a rehash of ours, which fills future_tbl before it publishes it.
 */
static bool N_(tl_resizing)(struct TBL *t, unsigned int *size)
{
	struct bucket_table *tbl;
	bool rehashing;

	rcu_read_lock();
	tbl = rcu_dereference(t->rht.tbl);
	*size = tbl->size;
	rehashing = rcu_access_pointer(tbl->future_tbl);
	rcu_read_unlock();
	return rehashing || rht_test_resizing(&t->rht);
}

/*
 * The looker of a timeline: random positive lookups among the keys
 * inserted so far, 32 per read-side section; after each batch it adds
 * them to the current millisecond's sample with the table's state.  A
 * miss is a bug and ends the run.
 */
static void *N_(tl_look_thread)(void *arg)
{
	struct WARG *a = arg;
	u64 rng = a->bt.seed;

	while (!bench_stopping()) {
		unsigned long have = __atomic_load_n(&tl_inserted,
						     __ATOMIC_ACQUIRE);
		unsigned int size, ms;
		bool busy;
		int i;

		if (!have)
			continue;
		N_(read_lock)(a->t);
		for (i = 0; i < 32; i++) {
			unsigned long k;

			rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
			k = (unsigned long)(((rng >> 32) * have) >> 32);
			if (!N_(lookup)(a->t, k))
				die("timeline: key %lu of %lu missed", k, have);
		}
		N_(read_unlock)(a->t);
		busy = N_(tl_resizing)(a->t, &size);
		ms = (unsigned int)((rht_now() - tl_t0) * 1000);
		if (ms >= TL_MAX_MS)
			die("timeline: longer than %d ms", TL_MAX_MS);
		tl[ms].lookups += 32;
		tl[ms].size = size;
		tl[ms].resizing |= busy;
		tl[ms].seen = 1;
		if (ms > tl_last)
			tl_last = ms;
	}
	return NULL;
}

/* Inserts keys 0..n-1 in order, telling the looker how far it got. */
static void *N_(tl_grow_thread)(void *arg)
{
	struct WARG *a = arg;
	unsigned long i;

	for (i = 0; i < a->n; i++) {
		if (N_(insert)(a->t, a->objs[i]))
			die("timeline insert failed");
		__atomic_store_n(&tl_inserted, i + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void N_(timeline)(int kind, const char *cname, unsigned long n)
{
	struct WARG look = { 0 }, work = { 0 };
	struct TBL t;
	pthread_t lt, wt;
	double t_end, t_settled;
	unsigned long k, m;
	void **objs;
	int storm;

	for (storm = 0; storm < 2; storm++) {
		/* the storm figure's size: a storm cycle of 1M keys is long */
		m = storm && n > 65536 ? 65536 : n;
		look.n = m;
		work.n = m;
		memset(tl, 0, sizeof(tl));
		tl_last = 0;
		objs = calloc(m, sizeof(*objs));
		if (!objs)
			die("out of memory");
		for (k = 0; k < m; k++)
			objs[k] = N_(obj_alloc)(kind, k);
		N_(tbl_init)(&t, kind, 0);
		if (storm) {
			for (k = 0; k < m; k++)
				if (N_(insert)(&t, objs[k]))
					die("insert failed");
			N_(settle)(&t);
		}
		look.t = &t;
		work.t = &t;
		work.objs = objs;
		look.bt.seed = 0x9e3779b97f4a7c15ULL;
		__atomic_store_n(&tl_inserted, storm ? m : 0, __ATOMIC_RELEASE);
		__atomic_store_n(&stop_flag, 0, __ATOMIC_RELAXED);
		tl_t0 = rht_now();
		if (pthread_create(&lt, NULL, N_(tl_look_thread), &look))
			die("pthread_create");
		bench_pin(lt, 1);
		if (storm)
			bench_sleep(TL_CALM_MS / 1000.0);
		t_end = rht_now();
		/* storm_thread waits at the start barrier */
		pthread_barrier_init(&start_barrier, NULL, 2);
		if (pthread_create(&wt, NULL, storm ? N_(storm_thread) :
				   N_(tl_grow_thread), &work))
			die("pthread_create");
		bench_pin(wt, 0);
		if (storm) {
			pthread_barrier_wait(&start_barrier);
			bench_sleep(TL_STORM_MS / 1000.0);
			__atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
			pthread_join(wt, NULL);
			pthread_join(lt, NULL);
			t_settled = rht_now();
		} else {
			pthread_join(wt, NULL);
			t_end = rht_now();
			N_(settle)(&t);
			t_settled = rht_now();
			bench_sleep(0.02);
			__atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
			pthread_join(lt, NULL);
		}
		pthread_barrier_destroy(&start_barrier);
		printf("tl-event,%s,%s,%lu,%.1f,%.1f\n", storm ? "storm" : "grow",
		       cname, m, (t_end - tl_t0) * 1000,
		       (t_settled - tl_t0) * 1000);
		for (k = 0; k <= tl_last; k++)
			if (tl[k].seen)
				printf("tl,%s,%s,%lu,%lu,%lu,%u,%u\n",
				       storm ? "storm" : "grow", cname, m, k,
				       tl[k].lookups, tl[k].size,
				       tl[k].resizing);
		fflush(stdout);
		N_(tbl_destroy)(&t);
		free(objs);	/* the objects went with the table */
	}
}

static void N_(run_family)(int kind, const char *cname, const char *family,
			   unsigned long n, const int *threads, int nthreads)
{
	struct WARG args[BENCH_MAX_THREADS + 1];
	struct bench_result res;
	struct TBL t;
	char wl[64];
	int ti, i;

	if (!strncmp(family, "lookup", 6)) {
		int neg0, neg1;

		family_half(family, "lookup_pos", "lookup_neg", &neg0, &neg1);

		N_(tbl_init)(&t, kind, n);
		N_(fill)(&t, n, NULL);
		N_(settle)(&t);
		for (ti = 0; ti < nthreads; ti++) {
			int neg;

			for (neg = neg0; neg < neg1; neg++) {
				for (i = 0; i < threads[ti]; i++)
					args[i] = (struct WARG){
						.t = &t, .n = n, .negative = neg };
				snprintf(wl, sizeof(wl), "lookup_%s_%s",
					 neg ? "neg" : "pos", STR(KS));
				res = bench_run(N_(lookup_thread), args,
						sizeof(args[0]),
						offsetof(struct WARG, bt),
						threads[ti], 0);
				bench_report_rates(wl, cname, threads[ti], n,
						   res.ops, res.wall, res.cpu);
			}
		}
		N_(tbl_destroy)(&t);
	} else if (!strcmp(family, "churn")) {
		for (ti = 0; ti < nthreads; ti++) {
			void **objs = calloc(n, sizeof(*objs));
			u8 *gen = calloc(n, 1);
			int nt = threads[ti];

			if (!objs || !gen)
				die("out of memory");
			if (kind == C_PLAIN && nt > 1)
				continue;	/* not thread-safe */
			N_(tbl_init)(&t, kind, n);
			N_(fill)(&t, n, objs);
			N_(settle)(&t);
			for (i = 0; i < nt; i++)
				args[i] = (struct WARG){
					.t = &t, .n = n, .objs = objs,
					.gen = gen, .lo = n * i / nt,
					.hi = n * (i + 1) / nt };
			snprintf(wl, sizeof(wl), "churn_%s", STR(KS));
			res = bench_run(N_(churn_thread), args, sizeof(args[0]),
					offsetof(struct WARG, bt), nt, 0);
			bench_report_rates(wl, cname, nt, n, res.ops, res.wall,
					   res.cpu);
			N_(tbl_destroy)(&t);
			free(objs);
			free(gen);
		}
	} else if (!strcmp(family, "grow")) {
		for (ti = 0; ti < nthreads; ti++) {
			void **objs = calloc(n, sizeof(*objs));
			int nt = threads[ti];
			double settled, pcpu;
			unsigned long k;

			if (!objs)
				die("out of memory");
			if (kind == C_PLAIN && nt > 1)
				continue;
			for (k = 0; k < n; k++)
				objs[k] = N_(obj_alloc)(kind, k);
			/* the plain table is sized for n up front: the limit */
			N_(tbl_init)(&t, kind, n);
			for (i = 0; i < nt; i++)
				args[i] = (struct WARG){
					.t = &t, .n = n, .objs = objs,
					.lo = n * i / nt, .hi = n * (i + 1) / nt };
			res = bench_run(N_(grow_thread), args, sizeof(args[0]),
					offsetof(struct WARG, bt), nt,
					BENCH_RUN_TO_END);
			/* the inserters, then until no resize is left to do */
			N_(settle)(&t);
			settled = rht_now() - res.t0;
			pcpu = clock_secs(CLOCK_PROCESS_CPUTIME_ID) - res.pcpu0;
			snprintf(wl, sizeof(wl), "grow_%s", STR(KS));
			bench_report_rates(wl, cname, nt, n, res.ops, res.wall,
					   res.cpu);
			snprintf(wl, sizeof(wl), "grow_settled_%s", STR(KS));
			bench_report_rates(wl, cname, nt, n, res.ops, settled,
					   pcpu);
			/*
			 * What the rest of the process spent on it: the
			 * resizes (worker, RCU callbacks), per inserted object,
			 * as a rate so that higher is better like the others.
			 */
			if (kind != C_PLAIN && pcpu > res.cpu) {
				snprintf(wl, sizeof(wl), "grow_worker_%s",
					 STR(KS));
				bench_report(wl, cname, nt, n, "cpu_ops_per_s",
					     res.ops / (pcpu - res.cpu));
			}
			if (kind == C_RHT)
				N_(report_resizes)(&t, cname, nt, n);
			N_(tbl_destroy)(&t);
			free(objs);
		}
	} else if (!strncmp(family, "storm", 5)) {
		int storm0, storm1;

		family_half(family, "storm_calm", "storm_only", &storm0, &storm1);

		if (kind == C_PLAIN)
			return;		/* a fixed table cannot resize */
		for (ti = 0; ti < nthreads; ti++) {
			int nt = threads[ti], storm;

			for (storm = storm0; storm < storm1; storm++) {
				N_(tbl_init)(&t, kind, n);
				N_(fill)(&t, n, NULL);
				N_(settle)(&t);
				for (i = 0; i < nt; i++)
					args[i] = (struct WARG){
						.t = &t, .n = n };
				/* last thread storms, or idles for the baseline */
				args[nt] = (struct WARG){ .t = &t, .n = n };
				snprintf(wl, sizeof(wl), "%s_%s",
					 storm ? "lookup_resize_storm" :
						 "lookup_no_storm", STR(KS));
				res = bench_run2(N_(lookup_thread),
						 storm ? N_(storm_thread) :
							 bench_idle_thread,
						 args, sizeof(args[0]),
						 offsetof(struct WARG, bt), nt);
				bench_report_rates(wl, cname, nt, n, res.ops,
						   res.wall, res.cpu);
				N_(tbl_destroy)(&t);
			}
		}
	} else if (!strcmp(family, "timeline")) {
		if (kind == C_RHT)
			N_(timeline)(kind, cname, n);
	} else if (!strcmp(family, "life")) {
		if (kind == C_RHT) {
			N_(life)(cname, 0);
			N_(life)(cname, 1);
		}
	} else if (!strcmp(family, "memory")) {
		void **objs = calloc(n, sizeof(*objs));
		size_t link = kind == C_RHT ? sizeof(struct rhash_head) :
			      kind == C_LFHT ? sizeof(struct cds_lfht_node) :
					       sizeof(void *);
		unsigned long k;
		long before, after;

		if (!objs)
			die("out of memory");
		for (k = 0; k < n; k++)
			objs[k] = N_(obj_alloc)(kind, k);
		rcu_barrier();
		before = heap_in_use();
		N_(tbl_init)(&t, kind, n);
		for (k = 0; k < n; k++)
			if (N_(insert)(&t, objs[k]))
				die("insert failed");
		N_(settle)(&t);
		after = heap_in_use();
		snprintf(wl, sizeof(wl), "memory_bytes_per_entry_%s", STR(KS));
		/* table memory per entry plus the link inside each object */
		bench_report(wl, cname, 1, n, "bytes_per_entry",
			     (double)(after - before) / n + link);
		N_(tbl_destroy)(&t);
		free(objs);
	} else {
		die("unknown family %s", family);
	}
}

#undef ROBJ
#undef LOBJ
#undef POBJ
#undef TBL
#undef WARG
#undef N_
#undef CAT
#undef CAT_
