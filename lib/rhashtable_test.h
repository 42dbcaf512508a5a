/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hooks that let the rhashtable tests reach into lib/rhashtable.c: make a
 * given allocation fail, and run test code at each step of a resize.  The
 * hooks exist only in kernels built with the rhashtable KUnit suites (and
 * in the userspace harness); elsewhere lib/rhashtable.c compiles them to
 * nothing.  Not an interface for anything but those tests.
 */
#ifndef _LIB_RHASHTABLE_TEST_H
#define _LIB_RHASHTABLE_TEST_H

#include <linux/rhashtable-types.h>

/* What the worker is about to allocate. */
enum rht_alloc_site {
	RHT_ALLOC_FLAT,		/* a bucket array in one piece */
	RHT_ALLOC_NESTED_TOP,	/* the top level of a nested array */
	RHT_ALLOC_NESTED_LEAF,	/* one page of a nested array */
	RHT_ALLOC_BITMAP,	/* the doubling's map of pairs left to unzip */
	RHT_ALLOC_RESIZER,	/* the resize state, at the first resize */
	RHT_ALLOC_SITES
};

/*
 * Steps of a resize at which the worker calls the step hook, holding the
 * table's mutex and no bucket lock.  @arg says where the step stands.
 */
enum rht_test_point {
	RHT_TP_PUBLISHED,	/* the new array is ht->tbl; arg: its size */
	RHT_TP_UNZIP_PASS,	/* one unzip pass done; arg: another follows */
	RHT_TP_ZIPPED_PAIR,	/* halving, not published: arg: pair index */
	RHT_TP_SETTLED,		/* halving: updaters left the zip rules */
	RHT_TP_MOVED_BUCKET,	/* rehash, not published: arg: old bucket */
	RHT_TP_RETIRE,		/* resize done, old array about to go */
};

/**
 * struct rht_test_hooks - test code lib/rhashtable.c calls into
 * @fail_alloc: asked before each allocation of the worker or of init;
 *	returning true makes it fail
 * @step: called at each &enum rht_test_point of a resize
 *
 * Either may be %NULL.  Hooks see every table in the system, not only the
 * test's: they must check @ht.
 */
struct rht_test_hooks {
	bool (*fail_alloc)(const struct rhashtable *ht,
			   enum rht_alloc_site site);
	void (*step)(struct rhashtable *ht, enum rht_test_point point,
		     unsigned int arg);
};

void rht_test_set_hooks(const struct rht_test_hooks *hooks);
int rht_test_resize(struct rhashtable *ht, unsigned int size, bool reseed);
int rht_test_validate(struct rhashtable *ht);
bool rht_test_lock_held(const struct bucket_table *tbl);
unsigned int rht_test_resize_step(struct rhashtable *ht);
void rht_test_retry_now(struct rhashtable *ht);

#endif /* _LIB_RHASHTABLE_TEST_H */
