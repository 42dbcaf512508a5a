// SPDX-License-Identifier: GPL-2.0
/*
 * In-kernel benchmark of the rhashtable, for "make bench-kernel".
 *
 * Uses only the 6.12 interface, so that the same file builds into the
 * patched tree and into the pristine one; the lab drops it in as
 * lib/test_rhashtable.c of each.  Each workload prints one line
 *
 *   rht-bench <workload> threads=<t> entries=<n> ops_per_sec=<x>
 *
 * and lab/kbench.sh puts the two kernels' lines side by side.  Nothing
 * here is asserted: timings are reported, never tested.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/rhashtable.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

struct kb_obj {
	u32 key;
	struct rhash_head node;
};

static const struct rhashtable_params kb_params = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct kb_obj, key),
	.head_offset = offsetof(struct kb_obj, node),
	.automatic_shrinking = true,
};

struct kb_set {
	struct rhashtable ht;
	struct kb_obj *objs;
	u32 *order;
	u32 *keys;	/* keys in lookup order, apart from the objects */
	unsigned int n;
};

static unsigned int kb_scale(unsigned int n)
{
	/* Emulated x86 is some 20 times slower than UML on the same host. */
	return IS_ENABLED(CONFIG_UML) ? n : max(n / 8, 1024U);
}

static void kb_report(struct kunit *test, const char *what,
		      unsigned int threads, unsigned int entries,
		      u64 ops, u64 ns)
{
	kunit_info(test, "rht-bench %s threads=%u entries=%u ops_per_sec=%llu",
		   what, threads, entries, ns ? div64_u64(ops * NSEC_PER_SEC, ns) : 0);
}

static int kb_fill(struct kb_set *s, unsigned int n)
{
	unsigned int i, j;
	int err;

	s->n = n;
	s->objs = vzalloc(array_size(n, sizeof(*s->objs)));
	s->order = vmalloc(array_size(n, sizeof(*s->order)));
	s->keys = vmalloc(array_size(n, sizeof(*s->keys)));
	if (!s->objs || !s->order || !s->keys)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		s->objs[i].key = i * 2654435761U | 1;	/* odd: present */
		s->order[i] = i;
	}
	for (i = n - 1; i > 0; i--) {
		j = get_random_u32_below(i + 1);
		swap(s->order[i], s->order[j]);
	}
	for (i = 0; i < n; i++)
		s->keys[i] = s->objs[s->order[i]].key;
	err = rhashtable_init(&s->ht, &kb_params);
	return err;
}

static void kb_free(struct kb_set *s)
{
	rhashtable_destroy(&s->ht);
	vfree(s->objs);
	vfree(s->order);
	vfree(s->keys);
}

static u64 kb_insert_all(struct kb_set *s)
{
	u64 t = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < s->n; i++)
		WARN_ON(rhashtable_insert_fast(&s->ht, &s->objs[i].node,
					       kb_params));
	return ktime_get_ns() - t;
}

static u64 kb_lookup_all(struct kb_set *s, unsigned int rounds, bool miss)
{
	unsigned int r, i, hits = 0;
	u64 t = ktime_get_ns();
	u32 key;

	for (r = 0; r < rounds; r++) {
		rcu_read_lock();
		for (i = 0; i < s->n; i++) {
			/* No object line is touched before its lookup. */
			key = s->keys[i];
			if (miss)
				key &= ~1U;
			hits += !!rhashtable_lookup(&s->ht, &key, kb_params);
			if (!(i & 1023)) {
				rcu_read_unlock();
				cond_resched();
				rcu_read_lock();
			}
		}
		rcu_read_unlock();
	}
	t = ktime_get_ns() - t;
	WARN_ON(hits != (miss ? 0 : rounds * s->n));
	return t;
}

static u64 kb_remove_all(struct kb_set *s)
{
	u64 t = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < s->n; i++)
		WARN_ON(rhashtable_remove_fast(&s->ht, &s->objs[i].node,
					       kb_params));
	return ktime_get_ns() - t;
}

/*
 * Wait until the table is as large as its element count wants and no
 * resize is announced, then a little more for one that is finishing.
 * Both implementations may leave growth to a worker, so the time spent
 * here belongs to the cost of growing.  6.12 announces a resize in the
 * old array's future_tbl until the last object has moved.  Ours makes
 * the new array current before it unzips, and the array's past_tbl
 * stays set until the last unzip pass: without waiting for it the
 * lookups that follow ran beside the passes, and the grow was timed
 * short (seen on x86_64 -smp 2 at 128K entries).
 */
static u64 kb_settle(struct kb_set *s)
{
	unsigned long deadline = jiffies + 20 * HZ;
	u64 t = ktime_get_ns();
	struct bucket_table *tbl;
	bool done;

	do {
		rcu_read_lock();
		tbl = rcu_dereference(s->ht.tbl);
		done = !rcu_access_pointer(tbl->future_tbl) &&
		       atomic_read(&s->ht.nelems) <= tbl->size / 4 * 3;
#if IS_ENABLED(CONFIG_RHASHTABLE_KUNIT_TEST)
		done = done && !rcu_access_pointer(tbl->past_tbl);
#endif
		rcu_read_unlock();
		if (!done)
			usleep_range(1000, 2000);
	} while (!done && time_before(jiffies, deadline));
	t = ktime_get_ns() - t;
	msleep(50);
	return t;
}

/* Insert, look up hits and misses, remove, at one size. */
static void kb_basic(struct kunit *test, unsigned int n)
{
	unsigned int rounds = max(65536U / n, 2U);
#if IS_ENABLED(CONFIG_RHASHTABLE_KUNIT_TEST)
	struct rhashtable_stats st;
#endif
	struct kb_set s;
	u64 ns, settle;

	KUNIT_ASSERT_EQ(test, kb_fill(&s, n), 0);
	ns = kb_insert_all(&s);
	kb_report(test, "insert_only", 1, n, n, ns);
	settle = kb_settle(&s);
	kb_report(test, "insert_grow", 1, n, n, ns + settle);
	/* Notes, not figures: where the time until settled went. */
	kunit_info(test, "rht-detail grow entries=%u insert_us=%llu settle_us=%llu",
		   n, ns / 1000, settle / 1000);
#if IS_ENABLED(CONFIG_RHASHTABLE_KUNIT_TEST)
	rhashtable_get_stats(&s.ht, &st);
	kunit_info(test, "rht-detail grow entries=%u rehashes=%lu grows=%lu unzip_passes=%lu grace_periods=%lu",
		   n, st.rehashes, st.grows, st.unzip_passes, st.grace_periods);
#endif
	ns = kb_lookup_all(&s, rounds, false);
	kb_report(test, "lookup_hit", 1, n, (u64)rounds * n, ns);
	ns = kb_lookup_all(&s, rounds, true);
	kb_report(test, "lookup_miss", 1, n, (u64)rounds * n, ns);
	kunit_info(test, "rht-bench bytes_per_entry threads=1 entries=%u ops_per_sec=%zu",
		   n, (rcu_dereference_raw(s.ht.tbl)->size * sizeof(void *)) / n +
		   sizeof(struct rhash_head));
	/*
	 * Where the array the lookups used lives: kvmalloc() gives either
	 * the linear map or vmalloc space, which costs more TLB misses (and
	 * under QEMU's TCG many more).  Not a figure: a note per boot.
	 */
	kunit_info(test, "rht-detail array entries=%u buckets=%u vmalloc=%d",
		   n, rcu_dereference_raw(s.ht.tbl)->size,
		   is_vmalloc_addr(rcu_dereference_raw(s.ht.tbl)));
	ns = kb_remove_all(&s);
	kb_report(test, "remove_shrink", 1, n, n, ns);
	kb_free(&s);
}

static void kb_small(struct kunit *test)
{
	kb_basic(test, 1024);
}

static void kb_medium(struct kunit *test)
{
	kb_basic(test, kb_scale(65536));
}

static void kb_large(struct kunit *test)
{
	kb_basic(test, kb_scale(1 << 20));
}

/* Remove and reinsert at a steady size. */
static void kb_churn(struct kunit *test)
{
	unsigned int n = kb_scale(65536), i, rounds = 4;
	struct kb_set s;
	u64 t;

	KUNIT_ASSERT_EQ(test, kb_fill(&s, n), 0);
	kb_insert_all(&s);
	kb_settle(&s);
	t = ktime_get_ns();
	for (i = 0; i < rounds * n; i++) {
		struct kb_obj *o = &s.objs[s.order[i % n]];

		WARN_ON(rhashtable_remove_fast(&s.ht, &o->node, kb_params));
		WARN_ON(rhashtable_insert_fast(&s.ht, &o->node, kb_params));
	}
	kb_report(test, "churn", 1, n, 2ULL * rounds * n, ktime_get_ns() - t);
	kb_free(&s);
}

struct kb_storm {
	struct kb_set *stable;
	struct kb_obj *extra;
	unsigned int nextra;
	atomic_t stop;
	struct completion done;
	unsigned long resizes;
};

/* Grow and shrink the table continuously by adding and removing a batch. */
static int kb_storm_fn(void *arg)
{
	struct kb_storm *st = arg;
	unsigned int i;

	while (!atomic_read(&st->stop)) {
		for (i = 0; i < st->nextra; i++)
			rhashtable_insert_fast(&st->stable->ht,
					       &st->extra[i].node, kb_params);
		msleep(20);
		for (i = 0; i < st->nextra; i++)
			rhashtable_remove_fast(&st->stable->ht,
					       &st->extra[i].node, kb_params);
		msleep(20);
		st->resizes++;
	}
	complete(&st->done);
	return 0;
}

/* Lookups of a stable set, alone and while the table is resized. */
static void kb_resize_storm(struct kunit *test)
{
	unsigned int n = kb_scale(16384), i, rounds = 16;
	struct kb_storm st = { };
	struct task_struct *tsk;
	struct kb_set s;
	u64 calm, storm;

	KUNIT_ASSERT_EQ(test, kb_fill(&s, n), 0);
	kb_insert_all(&s);
	st.stable = &s;
	st.nextra = 4 * n;
	st.extra = vzalloc(array_size(st.nextra, sizeof(*st.extra)));
	KUNIT_ASSERT_NOT_NULL(test, st.extra);
	for (i = 0; i < st.nextra; i++)
		st.extra[i].key = (i + n) * 2654435761U | 1;
	kb_settle(&s);
	calm = kb_lookup_all(&s, rounds, false);
	kb_report(test, "lookup_calm", 1, n, (u64)rounds * n, calm);

	init_completion(&st.done);
	tsk = kthread_run(kb_storm_fn, &st, "rht-kbench-storm");
	KUNIT_ASSERT_FALSE(test, IS_ERR(tsk));
	msleep(50);
	storm = kb_lookup_all(&s, rounds, false);
	atomic_set(&st.stop, 1);
	wait_for_completion(&st.done);
	kb_report(test, "lookup_storm", 1, n, (u64)rounds * n, storm);
	kunit_info(test, "rht-bench storm_cycles threads=1 entries=%u ops_per_sec=%lu",
		   n, st.resizes);
	for (i = 0; i < st.nextra; i++)
		rhashtable_remove_fast(&s.ht, &st.extra[i].node, kb_params);
	vfree(st.extra);
	kb_free(&s);
}

struct kb_reader {
	struct kb_set *s;
	struct completion done;
	u64 ns;
};

static int kb_reader_fn(void *arg)
{
	struct kb_reader *r = arg;

	r->ns = kb_lookup_all(r->s, 8, false);
	complete(&r->done);
	return 0;
}

/* Lookups on every CPU at once. */
static void kb_parallel(struct kunit *test)
{
	unsigned int n = kb_scale(65536), cpus = num_online_cpus(), i;
	struct kb_reader *r;
	struct kb_set s;
	u64 worst = 0;

	KUNIT_ASSERT_EQ(test, kb_fill(&s, n), 0);
	kb_insert_all(&s);
	kb_settle(&s);
	r = kcalloc(cpus, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	for (i = 0; i < cpus; i++) {
		struct task_struct *t;

		r[i].s = &s;
		init_completion(&r[i].done);
		t = kthread_create(kb_reader_fn, &r[i], "rht-kbench-%u", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		kthread_bind(t, i);
		wake_up_process(t);
	}
	for (i = 0; i < cpus; i++) {
		wait_for_completion(&r[i].done);
		worst = max(worst, r[i].ns);
	}
	kb_report(test, "lookup_parallel", cpus, n, 8ULL * n * cpus, worst);
	kfree(r);
	kb_free(&s);
}

/*
 * Tables embedded by the thousand (several per network namespace): create
 * them, put KB_LIFE_OBJS objects in each, destroy them.  With @resized
 * they start at 8 buckets and grow twice on the way; the resizes are
 * waited for outside the timed parts, as a table lives a while between
 * set-up and teardown.  Reports tables per second.
 */
#define KB_LIFE_OBJS	16

static void kb_life(struct kunit *test, bool resized)
{
	unsigned int n = kb_scale(10000), i, k;
	struct rhashtable_params p = kb_params;
	struct rhashtable *hts;
	struct kb_obj *objs;
	u64 t, ns;

	hts = vzalloc(array_size(n, sizeof(*hts)));
	objs = vzalloc(array_size(n * KB_LIFE_OBJS, sizeof(*objs)));
	KUNIT_ASSERT_NOT_NULL(test, hts);
	KUNIT_ASSERT_NOT_NULL(test, objs);
	if (resized)
		p.nelem_hint = 4;
	t = ktime_get_ns();
	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_EQ(test, rhashtable_init(&hts[i], &p), 0);
		for (k = 0; k < KB_LIFE_OBJS; k++) {
			struct kb_obj *o = &objs[i * KB_LIFE_OBJS + k];

			o->key = k * 2654435761U | 1;
			KUNIT_ASSERT_EQ(test,
					rhashtable_insert_fast(&hts[i], &o->node,
							       kb_params), 0);
		}
	}
	ns = ktime_get_ns() - t;
	for (i = 0; resized && i < n; i++) {
		unsigned long deadline = jiffies + 20 * HZ;
		struct bucket_table *tbl;
		bool done;

		do {
			rcu_read_lock();
			tbl = rcu_dereference(hts[i].tbl);
			done = tbl->size >= 32 &&
			       !rcu_access_pointer(tbl->future_tbl);
			rcu_read_unlock();
			if (!done)
				usleep_range(1000, 2000);
		} while (!done && time_before(jiffies, deadline));
	}
	msleep(100);
	t = ktime_get_ns();
	for (i = 0; i < n; i++)
		rhashtable_destroy(&hts[i]);
	ns += ktime_get_ns() - t;
	kb_report(test, resized ? "life_resized" : "life", 1, KB_LIFE_OBJS,
		  n, ns);
	rcu_barrier();		/* arrays retired by the resizes */
	vfree(objs);
	vfree(hts);
}

static void kb_lifetime(struct kunit *test)
{
	/* Not a speed: the size of the structure users embed, in bytes. */
	kunit_info(test, "rht-bench sizeof_rhashtable threads=1 entries=0 ops_per_sec=%zu",
		   sizeof(struct rhashtable));
	kb_life(test, false);
	kb_life(test, true);
}

static struct kunit_case kb_cases[] = {
	KUNIT_CASE(kb_lifetime),
	KUNIT_CASE(kb_small),
	KUNIT_CASE(kb_medium),
	KUNIT_CASE(kb_large),
	KUNIT_CASE(kb_churn),
	KUNIT_CASE(kb_resize_storm),
	KUNIT_CASE(kb_parallel),
	{}
};

static struct kunit_suite kb_suite = {
	.name = "rhashtable_kbench",
	.test_cases = kb_cases,
};

kunit_test_suite(kb_suite);

MODULE_DESCRIPTION("rhashtable in-kernel benchmark");
MODULE_LICENSE("GPL");
