/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Approximate counters: a shared s64 plus a per-CPU s32 delta that is
 * folded into the shared value whenever it reaches +-batch.  Readers can
 * take the cheap approximate value or sum every CPU's delta for the exact
 * one.
 */
#ifndef _RHT_SHIM_LINUX_PERCPU_COUNTER_H
#define _RHT_SHIM_LINUX_PERCPU_COUNTER_H

#include <linux/types.h>
#include <linux/spinlock.h>
#include <linux/percpu.h>
#include <linux/lockdep.h>
#include <linux/gfp.h>

struct percpu_counter {
	raw_spinlock_t lock;
	s64 count;
	s32 __percpu *counters;
};

extern s32 percpu_counter_batch;

int __percpu_counter_init_many(struct percpu_counter *fbc, s64 amount,
			       gfp_t gfp, u32 nr_counters,
			       struct lock_class_key *key);
#define percpu_counter_init_many(fbc, v, gfp, nr)			\
	__percpu_counter_init_many(fbc, v, gfp, nr, NULL)
#define percpu_counter_init(fbc, v, gfp)				\
	percpu_counter_init_many(fbc, v, gfp, 1)
void percpu_counter_destroy_many(struct percpu_counter *fbc, u32 nr_counters);
void percpu_counter_set(struct percpu_counter *fbc, s64 amount);
void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount,
			      s32 batch);
s64 __percpu_counter_sum(struct percpu_counter *fbc);
int __percpu_counter_compare(struct percpu_counter *fbc, s64 rhs, s32 batch);
bool __percpu_counter_limited_add(struct percpu_counter *fbc, s64 limit,
				  s64 amount, s32 batch);

static inline void percpu_counter_destroy(struct percpu_counter *fbc)
{
	percpu_counter_destroy_many(fbc, 1);
}

static inline int percpu_counter_compare(struct percpu_counter *fbc, s64 rhs)
{
	return __percpu_counter_compare(fbc, rhs, percpu_counter_batch);
}

static inline bool percpu_counter_limited_add(struct percpu_counter *fbc,
					      s64 limit, s64 amount)
{
	return __percpu_counter_limited_add(fbc, limit, amount,
					    percpu_counter_batch);
}

static inline void percpu_counter_add(struct percpu_counter *fbc, s64 amount)
{
	percpu_counter_add_batch(fbc, amount, percpu_counter_batch);
}

static inline void percpu_counter_add_local(struct percpu_counter *fbc,
					    s64 amount)
{
	percpu_counter_add_batch(fbc, amount, S32_MAX);
}

static inline s64 percpu_counter_sum(struct percpu_counter *fbc)
{
	return __percpu_counter_sum(fbc);
}

static inline s64 percpu_counter_sum_positive(struct percpu_counter *fbc)
{
	s64 v = __percpu_counter_sum(fbc);

	return v < 0 ? 0 : v;
}

static inline s64 percpu_counter_read(struct percpu_counter *fbc)
{
	return READ_ONCE(fbc->count);
}

static inline s64 percpu_counter_read_positive(struct percpu_counter *fbc)
{
	s64 v = READ_ONCE(fbc->count);

	return v < 0 ? 0 : v;
}

static inline bool percpu_counter_initialized(struct percpu_counter *fbc)
{
	return !!fbc->counters;
}

#define percpu_counter_inc(fbc)		percpu_counter_add(fbc, 1)
#define percpu_counter_dec(fbc)		percpu_counter_add(fbc, -1)
#define percpu_counter_sub(fbc, a)	percpu_counter_add(fbc, -(s64)(a))
#define percpu_counter_sub_local(fbc, a) percpu_counter_add_local(fbc, -(s64)(a))

#endif /* _RHT_SHIM_LINUX_PERCPU_COUNTER_H */
