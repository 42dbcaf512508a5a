/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the stress test and the fuzzer.
 */
#ifndef _RHT_TEST_H
#define _RHT_TEST_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/kernel.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include "shim/rht_shim.h"
#include "rht_compat.h"

/* Names the table under test in the reports; a build may set its own. */
#ifndef RHT_TEST_LABEL
#define RHT_TEST_LABEL "rhashtable"
#endif

/*
 * A failed check prints what failed and where, then exits 1 at once
 * (without running atexit handlers, other threads may still be busy).
 * Under libFuzzer it aborts instead, so that the input gets saved.
 */
#ifdef RHT_FAIL_ABORT
#define __rht_fail_exit()	abort()
#else
#define __rht_fail_exit()	_exit(1)
#endif
#define rht_fail(fmt, ...)						\
do {									\
	fprintf(stderr, "FAIL: %s:%d: " fmt "\n", __FILE__, __LINE__,	\
		##__VA_ARGS__);						\
	fflush(stderr);							\
	fflush(stdout);							\
	__rht_fail_exit();						\
} while (0)

#define CHECK(cond, fmt, ...)						\
do {									\
	if (unlikely(!(cond)))						\
		rht_fail("%s: " fmt, #cond, ##__VA_ARGS__);		\
} while (0)

static inline double rht_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Small, fast per-thread PRNG for the tests themselves (xorshift64*). */
struct trng {
	u64 s;
};

static inline void trng_seed(struct trng *r, u64 seed)
{
	r->s = seed * 0x9e3779b97f4a7c15ULL + 0x7f4a7c159e3779b9ULL;
	if (!r->s)
		r->s = 1;
}

static inline u64 trng_next(struct trng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

static inline u32 trng_below(struct trng *r, u32 n)
{
	return (u32)(((trng_next(r) >> 32) * (u64)n) >> 32);
}

/* Bitmaps for "seen" sets. */
static inline unsigned long *rht_bitmap_alloc(size_t bits)
{
	unsigned long *b = calloc((bits + 63) / 64 + 1, sizeof(long));

	if (!b)
		rht_fail("out of memory");
	return b;
}

#endif /* _RHT_TEST_H */
