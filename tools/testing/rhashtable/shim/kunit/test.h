/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small KUnit for userspace, so that a suite written for the kernel
 * (lib/test_rhashtable_phases.c) also runs in the harness, unchanged.  It
 * has what those suites use: expectations and assertions, test-managed
 * allocations and deferred actions, and suites registered with
 * kunit_test_suites().  kunit.c runs them and prints KTAP.
 */
#ifndef _RHT_SHIM_KUNIT_TEST_H
#define _RHT_SHIM_KUNIT_TEST_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/compiler.h>
#include <linux/slab.h>

struct kunit_resource;

struct kunit {
	const char *name;
	bool failed;
	jmp_buf *abort;			/* where a failed assertion goes */
	struct kunit_resource *res;	/* allocations and actions, newest first */
	void *priv;
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char name[256];
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(fn)		{ .run_case = fn, .name = #fn }

typedef void (kunit_action_t)(void *);

void rht_kunit_register(struct kunit_suite **suites, int n);
__printf(5, 6)
void rht_kunit_fail(struct kunit *test, bool assert, const char *file,
		    int line, const char *fmt, ...);
void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp);
void *kunit_kcalloc(struct kunit *test, size_t n, size_t size, gfp_t gfp);
int kunit_add_action(struct kunit *test, kunit_action_t *action, void *ctx);
int kunit_add_action_or_reset(struct kunit *test, kunit_action_t *action,
			      void *ctx);
__printf(2, 3)
void kunit_log_line(struct kunit *test, const char *fmt, ...);

#define kunit_info(test, fmt, ...)	kunit_log_line(test, fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...)	kunit_log_line(test, fmt, ##__VA_ARGS__)

#define kunit_test_suites(...)						\
	static struct kunit_suite *__rht_kunit_suites[] = { __VA_ARGS__ };	\
	static void __attribute__((constructor)) __rht_kunit_reg(void)	\
	{								\
		rht_kunit_register(__rht_kunit_suites,			\
				   ARRAY_SIZE(__rht_kunit_suites));	\
	}

/* Module metadata: declarations that name their argument, nothing more. */
#define MODULE_IMPORT_NS(ns)		extern int __rht_kunit_import_##ns
#define MODULE_LICENSE(l)		extern char __rht_kunit_license[sizeof(l)]
#define MODULE_DESCRIPTION(d)		extern char __rht_kunit_desc[sizeof(d)]

/* Values are printed as integers; pointers by their address. */
#define __RHT_KUNIT_BINARY(test, assert, a, op, b, fmt, ...)		\
do {									\
	__typeof__(a) __ka = (a);					\
	__typeof__(b) __kb = (b);					\
	if (!(__ka op __kb))						\
		rht_kunit_fail(test, assert, __FILE__, __LINE__,	\
			       "%s %s %s (%lld vs %lld) " fmt, #a, #op,	\
			       #b, (long long)(uintptr_t)__ka,		\
			       (long long)(uintptr_t)__kb, ##__VA_ARGS__);	\
} while (0)

#define __RHT_KUNIT_TRUE(test, assert, c, fmt, ...)			\
do {									\
	if (!(c))							\
		rht_kunit_fail(test, assert, __FILE__, __LINE__,	\
			       "%s " fmt, #c, ##__VA_ARGS__);		\
} while (0)

#define KUNIT_EXPECT_TRUE_MSG(t, c, fmt, ...) \
	__RHT_KUNIT_TRUE(t, false, c, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(t, c, fmt, ...) \
	__RHT_KUNIT_TRUE(t, false, !(c), fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_EQ_MSG(t, a, b, fmt, ...) \
	__RHT_KUNIT_BINARY(t, false, a, ==, b, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(t, a, b, fmt, ...) \
	__RHT_KUNIT_BINARY(t, false, a, !=, b, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(t, a, b, fmt, ...) \
	__RHT_KUNIT_BINARY(t, false, a, <=, b, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(t, a, b, fmt, ...) \
	__RHT_KUNIT_BINARY(t, false, a, <, b, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, a, b, fmt, ...) \
	__RHT_KUNIT_BINARY(t, false, a, >=, b, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(t, a, b, fmt, ...) \
	__RHT_KUNIT_BINARY(t, false, a, >, b, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_PTR_EQ_MSG(t, a, b, fmt, ...) \
	__RHT_KUNIT_BINARY(t, false, (void *)(a), ==, (void *)(b), fmt, \
			   ##__VA_ARGS__)

#define KUNIT_EXPECT_TRUE(t, c)		KUNIT_EXPECT_TRUE_MSG(t, c, "")
#define KUNIT_EXPECT_FALSE(t, c)	KUNIT_EXPECT_FALSE_MSG(t, c, "")
#define KUNIT_EXPECT_EQ(t, a, b)	KUNIT_EXPECT_EQ_MSG(t, a, b, "")
#define KUNIT_EXPECT_NE(t, a, b)	KUNIT_EXPECT_NE_MSG(t, a, b, "")
#define KUNIT_EXPECT_LE(t, a, b)	KUNIT_EXPECT_LE_MSG(t, a, b, "")
#define KUNIT_EXPECT_LT(t, a, b)	KUNIT_EXPECT_LT_MSG(t, a, b, "")
#define KUNIT_EXPECT_GE(t, a, b)	KUNIT_EXPECT_GE_MSG(t, a, b, "")
#define KUNIT_EXPECT_GT(t, a, b)	KUNIT_EXPECT_GT_MSG(t, a, b, "")
#define KUNIT_EXPECT_PTR_EQ(t, a, b)	KUNIT_EXPECT_PTR_EQ_MSG(t, a, b, "")
#define KUNIT_EXPECT_NULL(t, p)		KUNIT_EXPECT_TRUE(t, (p) == NULL)
#define KUNIT_EXPECT_NOT_NULL(t, p)	KUNIT_EXPECT_TRUE(t, (p) != NULL)

#define KUNIT_ASSERT_TRUE(t, c)		__RHT_KUNIT_TRUE(t, true, c, "")
#define KUNIT_ASSERT_FALSE(t, c)	__RHT_KUNIT_TRUE(t, true, !(c), "")
#define KUNIT_ASSERT_EQ(t, a, b)	__RHT_KUNIT_BINARY(t, true, a, ==, b, "")
#define KUNIT_ASSERT_NE(t, a, b)	__RHT_KUNIT_BINARY(t, true, a, !=, b, "")
#define KUNIT_ASSERT_GE(t, a, b)	__RHT_KUNIT_BINARY(t, true, a, >=, b, "")
#define KUNIT_ASSERT_NOT_NULL(t, p)	__RHT_KUNIT_TRUE(t, true, (p) != NULL, "")
#define KUNIT_ASSERT_EQ_MSG(t, a, b, fmt, ...) \
	__RHT_KUNIT_BINARY(t, true, a, ==, b, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_TRUE_MSG(t, c, fmt, ...) \
	__RHT_KUNIT_TRUE(t, true, c, fmt, ##__VA_ARGS__)

#endif /* _RHT_SHIM_KUNIT_TEST_H */
