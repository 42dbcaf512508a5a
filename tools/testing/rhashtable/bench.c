// SPDX-License-Identifier: GPL-2.0
/*
 * rhashtable benchmarks.  One binary per implementation (ours and stock
 * define the same symbols); each binary also carries the two reference
 * contenders, liburcu's cds_lfht and a plain unsynchronised fixed-size
 * chained table ("the limit"), all hashing with jhash2 on the same keys.
 *
 *   bench -c rht|lfht|plain -f FAMILY -n ENTRIES -k u32|k16 [-t 1,2] [-d S]
 *
 * prints one CSV line "workload,contender,threads,entries,value" per
 * figure; value is operations per second, except for the memory family
 * where it is bytes per entry.  scripts/bench.sh runs the binaries
 * alternately, takes medians and draws the graphs.
 *
 * Families:
 *   lookup  positive and negative lookups in a table of ENTRIES keys
 *   churn   remove + insert of random keys at a steady size of ENTRIES
 *   grow    insert ENTRIES keys into an empty table
 *   storm   positive lookups while another thread grows and shrinks the
 *           table (ENTRIES stable keys, 3x ENTRIES extra inserted and
 *           removed over and over), and the same with that thread idle
 *   life    create 10,000 tables, put 16 keys in each, destroy them;
 *           again with tables that resize in between (tables/s)
 *   memory  table bytes per entry (bucket arrays, allocator overhead and
 *           the link inside each object) after inserting ENTRIES keys
 */
#include <getopt.h>
#include <malloc.h>
#include <stdarg.h>

#include "rht_test.h"
#include <urcu/rculfhash.h>

#define BENCH_MAX_THREADS	64
#define BENCH_RUN_TO_END	1
#define STR_(x)			#x
#define STR(x)			STR_(x)

enum { C_RHT, C_LFHT, C_PLAIN };

static double run_secs = 0.3;
static int lfht_flags = CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING;
static unsigned long lfht_init = 64;	/* rhashtable starts at 64 too */

static __noreturn __printf(1, 2) void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(1);
}

static unsigned long gcd_ul(unsigned long a, unsigned long b)
{
	while (b) {
		unsigned long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Heap bytes in use: small blocks plus mmap()ed big ones. */
static long heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return (long)(mi.uordblks + mi.hblkhd);
}

/* ---- keys -------------------------------------------------------------- */

/* murmur3's finaliser: a bijection on 32 bits, so keys never collide. */
static inline u32 mix32(u32 h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

struct k16 {
	u32 w[4];
};

static inline void kmake_u32(u32 *k, unsigned long i)
{
	*k = mix32((u32)i);
}

static inline void kmake_k16(struct k16 *k, unsigned long i)
{
	k->w[0] = mix32((u32)i);
	k->w[1] = (u32)i;
	k->w[2] = ~(u32)i;
	k->w[3] = 0x9e3779b9u;
}

#define KEQ_U32(a, b)		(*(a) == *(b))
#define KEQ_K16(a, b)		(!memcmp((a), (b), sizeof(struct k16)))

/* ---- threads ------------------------------------------------------------ */

struct bench_thread {
	pthread_t tid;
	u64 seed;
	u64 ops;
};

static pthread_barrier_t start_barrier;
static int stop_flag;

static bool bench_stopping(void)
{
	return __atomic_load_n(&stop_flag, __ATOMIC_RELAXED);
}

static void bench_thread_ready(struct bench_thread *bt)
{
	pthread_barrier_wait(&start_barrier);
}

static void *bench_idle_thread(void *arg)
{
	pthread_barrier_wait(&start_barrier);
	while (!bench_stopping())
		usleep(1000);
	return NULL;
}

/*
 * Start @n threads running @fn (and one running @fn2 if given) on the
 * argument array, let them run for run_secs (or to their end) and return
 * the ops per second of the @fn threads.
 */
static double bench_run_common(void *(*fn)(void *), void *(*fn2)(void *),
			       void *args, size_t stride, size_t bt_off, int n,
			       int flags)
{
	int total = n + (fn2 ? 1 : 0), i;
	double t0, t1;
	u64 ops = 0;

	if (n < 1 || n > BENCH_MAX_THREADS)
		die("bad thread count %d", n);
	__atomic_store_n(&stop_flag, 0, __ATOMIC_RELAXED);
	pthread_barrier_init(&start_barrier, NULL, total + 1);
	for (i = 0; i < total; i++) {
		void *a = (char *)args + i * stride;
		struct bench_thread *bt = (void *)((char *)a + bt_off);

		bt->seed = 0x9e3779b97f4a7c15ULL * (i + 1);
		bt->ops = 0;
		if (pthread_create(&bt->tid, NULL, i < n ? fn : fn2, a))
			die("pthread_create");
	}
	/* before the barrier: a worker may finish before we run again */
	t0 = rht_now();
	pthread_barrier_wait(&start_barrier);
	if (!(flags & BENCH_RUN_TO_END)) {
		usleep((useconds_t)(run_secs * 1e6));
		__atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
	}
	for (i = 0; i < n; i++) {
		struct bench_thread *bt = (void *)((char *)args + i * stride +
						   bt_off);

		pthread_join(bt->tid, NULL);
		ops += bt->ops;
	}
	t1 = rht_now();
	__atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
	for (; i < total; i++)
		pthread_join(((struct bench_thread *)((char *)args + i * stride +
						       bt_off))->tid, NULL);
	pthread_barrier_destroy(&start_barrier);
	return ops / (t1 - t0);
}

#define bench_run(fn, args, stride, off, n, flags)			\
	bench_run_common(fn, NULL, args, stride, off, n, flags)
#define bench_run2(fn, fn2, args, stride, off, n)			\
	bench_run_common(fn, fn2, args, stride, off, n, 0)

static const char *impl_label = RHT_IMPL_NAME;

static void bench_report(const char *workload, const char *contender,
			 int threads, unsigned long entries, double value)
{
	printf("%s,%s,%d,%lu,%.1f\n", workload, contender, threads, entries,
	       value);
	fflush(stdout);
}

/* ---- the per-key-type code ---------------------------------------------- */

#define KT	u32
#define KS	u32
#define KMAKE	kmake_u32
#define KEQ	KEQ_U32
#include "bench-tmpl.h"
#undef KT
#undef KS
#undef KMAKE
#undef KEQ

#define KT	struct k16
#define KS	k16
#define KMAKE	kmake_k16
#define KEQ	KEQ_K16
#include "bench-tmpl.h"
#undef KT
#undef KS
#undef KMAKE
#undef KEQ

int main(int argc, char **argv)
{
	const char *family = "lookup", *ktype = "u32", *cname = "rht";
	int threads[8], nthreads = 0, kind, c;
	unsigned long n = 65536;
	char *tlist = NULL;

	if (getenv("BENCH_LFHT_INIT"))
		lfht_init = strtoul(getenv("BENCH_LFHT_INIT"), NULL, 0);
	if (getenv("BENCH_LFHT_FLAGS"))
		lfht_flags = atoi(getenv("BENCH_LFHT_FLAGS"));
	while ((c = getopt(argc, argv, "c:f:n:k:t:d:")) != -1) {
		switch (c) {
		case 'c':
			cname = optarg;
			break;
		case 'f':
			family = optarg;
			break;
		case 'n':
			n = strtoul(optarg, NULL, 0);
			break;
		case 'k':
			ktype = optarg;
			break;
		case 't':
			tlist = optarg;
			break;
		case 'd':
			run_secs = atof(optarg);
			break;
		default:
			die("%s",
			    "usage: bench -c rht|lfht|plain -f lookup|churn|grow|storm|memory|life -n N -k u32|k16 [-t 1,2] [-d secs]");
		}
	}
	if (!strcmp(cname, "rht")) {
		kind = C_RHT;
		cname = impl_label;
	} else if (!strcmp(cname, "lfht")) {
		kind = C_LFHT;
		cname = "cds_lfht";
	} else if (!strcmp(cname, "plain")) {
		kind = C_PLAIN;
	} else {
		die("unknown contender %s", cname);
	}
	if (tlist) {
		char *s = strtok(tlist, ",");

		for (; s && nthreads < 8; s = strtok(NULL, ","))
			threads[nthreads++] = atoi(s);
	} else {
		threads[nthreads++] = 1;
	}

	if (!strcmp(ktype, "u32"))
		run_family_u32(kind, cname, family, n, threads, nthreads);
	else if (!strcmp(ktype, "k16"))
		run_family_k16(kind, cname, family, n, threads, nthreads);
	else
		die("unknown key type %s", ktype);
	return 0;
}
