// SPDX-License-Identifier: GPL-2.0
/*
 * Runs the KUnit suites linked into the program (see shim/kunit/test.h)
 * and prints their results in KTAP, ending with one summary line:
 *
 *	kunit: N passed, N failed
 *
 * An argument selects the cases whose name contains it.  Exit status 1 if
 * any case failed.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/err.h>
#include <kunit/test.h>

#include "shim/rht_shim.h"

#define RHT_KUNIT_MAX_SUITES	32

static struct kunit_suite *rht_kunit_suites[RHT_KUNIT_MAX_SUITES];
static int rht_kunit_nsuites;

/* A test-managed allocation or a deferred action: both undone at the end. */
struct kunit_resource {
	struct kunit_resource *next;
	kunit_action_t *action;
	void *ctx;
};

void rht_kunit_register(struct kunit_suite **suites, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (rht_kunit_nsuites == RHT_KUNIT_MAX_SUITES) {
			fprintf(stderr, "kunit: too many suites\n");
			exit(2);
		}
		rht_kunit_suites[rht_kunit_nsuites++] = suites[i];
	}
}

void kunit_log_line(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	printf("    # %s: ", test->name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!strchr(fmt, '\n'))
		putchar('\n');
}

void rht_kunit_fail(struct kunit *test, bool assert, const char *file,
		    int line, const char *fmt, ...)
{
	va_list ap;

	printf("    # %s: %s failed at %s:%d\n    # ", test->name,
	       assert ? "ASSERTION" : "EXPECTATION", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	test->failed = true;
	if (assert)
		longjmp(*test->abort, 1);
}

int kunit_add_action(struct kunit *test, kunit_action_t *action, void *ctx)
{
	struct kunit_resource *r = calloc(1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->action = action;
	r->ctx = ctx;
	r->next = test->res;
	test->res = r;
	return 0;
}

int kunit_add_action_or_reset(struct kunit *test, kunit_action_t *action,
			      void *ctx)
{
	int err = kunit_add_action(test, action, ctx);

	if (err)
		action(ctx);
	return err;
}

static void rht_kunit_free(void *p)
{
	kfree(p);
}

void *kunit_kzalloc(struct kunit *test, size_t size, gfp_t gfp)
{
	void *p = kzalloc(size, gfp);

	if (p && kunit_add_action_or_reset(test, rht_kunit_free, p))
		return NULL;
	return p;
}

void *kunit_kcalloc(struct kunit *test, size_t n, size_t size, gfp_t gfp)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return kunit_kzalloc(test, n * size, gfp);
}

static void rht_kunit_cleanup(struct kunit *test)
{
	struct kunit_resource *r;

	while ((r = test->res)) {
		test->res = r->next;
		r->action(r->ctx);
		free(r);
	}
}

/*
 * A case that does not end (a broken table can loop a reader in a cycle
 * forever) fails after RHT_KUNIT_CASE_SECS instead of hanging the run;
 * the slowest case takes a few seconds under TSAN.
 */
#define RHT_KUNIT_CASE_SECS	60

static const char *rht_kunit_running;	/* set before alarm() */

static void rht_kunit_watchdog(int sig)
{
	static const char pre[] = "    not ok - ", post[] =
		": watchdog: the case did not end in time\nkunit: failed\n";
	const char *name = rht_kunit_running;

	if (write(1, pre, sizeof(pre) - 1) < 0 ||
	    write(1, name, strlen(name)) < 0 ||
	    write(1, post, sizeof(post) - 1) < 0)
		_exit(2);
	_exit(1);
}

/* Runs one case; returns whether it passed. */
static bool rht_kunit_run(struct kunit_suite *suite, struct kunit_case *c)
{
	unsigned long warnings = rht_shim_warn_count();
	struct kunit test = { .name = c->name };
	jmp_buf abort_case;

	fflush(stdout);
	rht_kunit_running = c->name;
	alarm(RHT_KUNIT_CASE_SECS);
	test.abort = &abort_case;
	if (!setjmp(abort_case)) {
		if (!suite->init || !suite->init(&test))
			c->run_case(&test);
		else
			rht_kunit_fail(&test, false, __FILE__, __LINE__,
				       "suite init failed");
	}
	/* A failed assertion in exit() ends exit() only. */
	if (suite->exit && !setjmp(abort_case))
		suite->exit(&test);
	rht_kunit_cleanup(&test);
	alarm(0);
	/* A kernel warning (lockdep, RCU, WARN_ON) fails the case. */
	if (rht_shim_warn_count() != warnings) {
		printf("    # %s: %lu kernel warnings\n", c->name,
		       rht_shim_warn_count() - warnings);
		test.failed = true;
	}
	return !test.failed;
}

int main(int argc, char **argv)
{
	const char *filter = argc > 1 ? argv[1] : NULL;
	int passed = 0, failed = 0, s;

	signal(SIGALRM, rht_kunit_watchdog);
	printf("KTAP version 1\n1..%d\n", rht_kunit_nsuites);
	for (s = 0; s < rht_kunit_nsuites; s++) {
		struct kunit_suite *suite = rht_kunit_suites[s];
		bool suite_ok = true;
		struct kunit_case *c;
		int n = 0;

		printf("    # Subtest: %s\n", suite->name);
		if (suite->suite_init && suite->suite_init(suite)) {
			printf("not ok %d %s # suite init failed\n", s + 1,
			       suite->name);
			failed++;
			continue;
		}
		for (c = suite->test_cases; c->run_case; c++) {
			bool ok;

			if (filter && !strstr(c->name, filter))
				continue;
			ok = rht_kunit_run(suite, c);
			printf("    %sok %d %s\n", ok ? "" : "not ", ++n,
			       c->name);
			fflush(stdout);
			if (ok)
				passed++;
			else
				failed++;
			suite_ok &= ok;
		}
		if (suite->suite_exit)
			suite->suite_exit(suite);
		printf("%sok %d %s\n", suite_ok ? "" : "not ", s + 1,
		       suite->name);
	}
	printf("kunit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
