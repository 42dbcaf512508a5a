// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit cases that only make sense in userspace: they choose the CPU each
 * update runs on (rht_shim_set_cpu()), which a kernel test cannot do on a
 * machine with fewer CPUs.  Run by kunit.c with the suites of lib/.
 */
#include <linux/kernel.h>
#include <kunit/test.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>

#include "shim/rht_shim.h"

struct hk_obj {
	u32 key;
	struct rhash_head node;
};

static const struct rhashtable_params hk_params = {
	.key_len = sizeof(u32),
	.key_offset = offsetof(struct hk_obj, key),
	.head_offset = offsetof(struct hk_obj, node),
};

static void hk_destroy(void *ht)
{
	rhashtable_destroy(ht);
}

/*
 * @nelems is read directly by users (as an int, against their own
 * limits): it must never go below zero, whichever CPUs the updates run on,
 * and in a big table as well as in a small one.
 */
static void nelems_never_negative_across_cpus(struct kunit *test)
{
	struct rhashtable_params p = hk_params;
	struct rhashtable *ht = kunit_kzalloc(test, sizeof(*ht), GFP_KERNEL);
	struct hk_obj *objs = kunit_kcalloc(test, 64, sizeof(*objs),
					    GFP_KERNEL);
	int i, low = 0;

	KUNIT_ASSERT_NOT_NULL(test, ht);
	KUNIT_ASSERT_NOT_NULL(test, objs);
	p.nelem_hint = 65535;		/* a big table from the start */
	KUNIT_ASSERT_EQ(test, rhashtable_init(ht, &p), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, hk_destroy, ht),
			0);
	/* Let the worker run once on it, as after any resize. */
	KUNIT_ASSERT_EQ(test, rhashtable_shrink(ht), 0);

	for (i = 0; i < 64; i++) {
		objs[i].key = i;
		rht_shim_set_cpu(i < 63 ? 0 : 1);
		KUNIT_ASSERT_EQ(test, rhashtable_insert_fast(ht, &objs[i].node,
							     hk_params), 0);
	}
	rht_shim_set_cpu(2);
	for (i = 0; i < 64; i++) {
		KUNIT_ASSERT_EQ(test, rhashtable_remove_fast(ht, &objs[i].node,
							     hk_params), 0);
		low = min(low, atomic_read(&ht->nelems));
	}
	rht_shim_set_cpu(0);
	KUNIT_EXPECT_EQ(test, low, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ht->nelems), 0);
}

static struct kunit_case hk_cases[] = {
	KUNIT_CASE(nelems_never_negative_across_cpus),
	{}
};

static struct kunit_suite hk_suite = {
	.name = "rhashtable-harness",
	.test_cases = hk_cases,
};

kunit_test_suites(&hk_suite);
