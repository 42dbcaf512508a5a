// SPDX-License-Identifier: GPL-2.0
/*
 * rhashtable benchmarks.  One binary per implementation (ours and stock
 * define the same symbols); each binary also carries the two reference
 * contenders, liburcu's cds_lfht and a plain unsynchronised fixed-size
 * chained table ("the limit"), all hashing with jhash2 on the same keys.
 *
 *   bench -c rht|lfht|plain -f FAMILY -n ENTRIES -k u32|k16 [-t 1,2]
 *         [-d SECS] [-w SECS]
 *
 * prints CSV lines "workload,contender,threads,entries,metric,value",
 * where metric is one of
 *   wall_ops_per_s   operations per second of wall-clock time
 *   cpu_ops_per_s    operations per CPU second: divided by the CPU time
 *                    (CLOCK_THREAD_CPUTIME_ID) the measured threads spent
 *                    in the window, so a thread that waits for a CPU
 *                    held by another process costs nothing
 *   tables_per_s     tables set up and torn down per second (life)
 *   bytes_per_entry  table memory per entry (memory)
 *   count            how many times something happened (resizes...)
 * Every timed figure gets one wall_ops_per_s and one cpu_ops_per_s line.
 * Worker i runs pinned to the i-th CPU the process may use (modulo their
 * number), the extra thread of the storm family on the next one.
 * Duration-bound figures (lookup, churn, storm) warm up for -w seconds
 * (0.2), then measure for -d seconds (2).  lab/bench/bench.sh runs the
 * binaries round by round and bench_report.py turns the runs into
 * medians and per-round ratios.
 *
 * Families:
 *   lookup  positive and negative lookups in a table of ENTRIES keys, in
 *           batches of 256 under one RCU read-side section
 *   churn   remove + insert of random keys at a steady size of ENTRIES
 *   grow    insert ENTRIES keys into an empty table: the inserters alone
 *           (grow_*), and until the table has settled (grow_settled_*:
 *           resizes done, old arrays freed; per CPU second of the whole
 *           process, as the resizes run in other threads), the CPU the
 *           rest of the process spent besides the inserters (grow_worker_*,
 *           objects per such CPU second); for ours also the resizes, unzip
 *           passes and rehashes it took (count)
 *   storm   positive lookups while another thread grows and shrinks the
 *           table (ENTRIES stable keys, 3x ENTRIES extra inserted and
 *           removed over and over), and the same with that thread idle
 *   life    create 10,000 tables, put 16 keys in each, destroy them;
 *           again with tables that resize in between (tables_per_s)
 *   memory  table bytes per entry (bucket arrays, allocator overhead and
 *           the link inside each object) after inserting ENTRIES keys
 *   timeline
 *           lookups per millisecond over time, for the pictures (rht
 *           only): while one thread grows a table from empty to ENTRIES
 *           keys, and in a table of ENTRIES keys before and during a
 *           resize storm; lines "tl,PHASE,CONTENDER,ENTRIES,MS,LOOKUPS,
 *           BUCKETS,RESIZING" and one "tl-event,PHASE,CONTENDER,ENTRIES,
 *           MS_INSERTED_OR_STORM_START,MS_SETTLED_OR_END" per phase
 */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <sched.h>
#include <stdarg.h>

#include "rht_test.h"
#include <urcu/rculfhash.h>

#define BENCH_MAX_THREADS	64
#define BENCH_RUN_TO_END	1
#define STR_(x)			#x
#define STR(x)			STR_(x)

enum { C_RHT, C_LFHT, C_PLAIN };

static double run_secs = 2;
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

/*
 * A worker counts its operations and calls bench_thread_tick() once per
 * batch; the first tick after the main thread opens the measured window
 * takes the start snapshot (operation count and thread CPU time), and
 * bench_thread_done() the end one.  The window opens after the warm-up,
 * or at once for workloads that run to their end.
 */
struct bench_thread {
	pthread_t tid;
	u64 seed;
	u64 ops;		/* operations inside the measured window */
	u64 ops0;		/* operation count at the start snapshot */
	double cpu0, cpu1;	/* thread CPU time at start and end */
	bool measuring;		/* start snapshot taken */
};

/* What one timed run measured. */
struct bench_result {
	u64 ops;		/* operations of the measured threads */
	double wall;		/* seconds the window stayed open */
	double cpu;		/* CPU seconds the measured threads spent */
	double t0;		/* rht_now() at the opening of the window */
	double pcpu0;		/* process CPU time at the opening */
};

static pthread_barrier_t start_barrier;
static int stop_flag, measure_flag;
static double warmup_secs = 0.2;
static int cpu_ids[BENCH_MAX_THREADS + 1], nr_cpu_ids_allowed;

static double clock_secs(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The CPUs this process may run on; worker i is pinned to the i-th. */
static void bench_cpus_init(void)
{
	cpu_set_t set;
	int c;

	if (sched_getaffinity(0, sizeof(set), &set))
		CPU_ZERO(&set);
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (nr_cpu_ids_allowed == ARRAY_SIZE(cpu_ids))
			break;
		if (CPU_ISSET(c, &set))
			cpu_ids[nr_cpu_ids_allowed++] = c;
	}
	if (!nr_cpu_ids_allowed)
		cpu_ids[nr_cpu_ids_allowed++] = 0;
}

static void bench_pin(pthread_t tid, int i)
{
	static bool warned;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu_ids[i % nr_cpu_ids_allowed], &set);
	if (pthread_setaffinity_np(tid, sizeof(set), &set) && !warned) {
		warned = true;
		fprintf(stderr, "bench: cannot pin threads, running unpinned\n");
	}
}

static bool bench_stopping(void)
{
	return __atomic_load_n(&stop_flag, __ATOMIC_RELAXED);
}

/* Once per batch: take the start snapshot when the window has opened. */
static inline void bench_thread_tick(struct bench_thread *bt, u64 ops)
{
	if (likely(bt->measuring) ||
	    !__atomic_load_n(&measure_flag, __ATOMIC_ACQUIRE))
		return;
	bt->measuring = true;
	bt->ops0 = ops;
	bt->cpu0 = clock_secs(CLOCK_THREAD_CPUTIME_ID);
}

static void bench_thread_ready(struct bench_thread *bt)
{
	pthread_barrier_wait(&start_barrier);
	bench_thread_tick(bt, 0);
}

/* Every worker ends with this, @ops being all it did since it started. */
static void bench_thread_done(struct bench_thread *bt, u64 ops)
{
	bt->cpu1 = clock_secs(CLOCK_THREAD_CPUTIME_ID);
	if (!bt->measuring) {
		/* never saw the window open: nothing of it was measured */
		bt->ops0 = ops;
		bt->cpu0 = bt->cpu1;
	}
	bt->ops = ops - bt->ops0;
}

static void *bench_idle_thread(void *arg)
{
	pthread_barrier_wait(&start_barrier);
	while (!bench_stopping())
		usleep(1000);
	return NULL;
}

static void bench_sleep(double secs)
{
	struct timespec ts = {
		.tv_sec = (time_t)secs,
		.tv_nsec = (long)((secs - (time_t)secs) * 1e9),
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static struct bench_thread *bench_bt(void *args, size_t stride,
				     size_t bt_off, int i)
{
	return (void *)((char *)args + i * stride + bt_off);
}

/*
 * Start @n threads running @fn (and one running @fn2 if given) on the
 * argument array, each pinned to a CPU of its own as far as they go.
 * Duration-bound runs warm up for warmup_secs, then measure for run_secs;
 * with BENCH_RUN_TO_END the threads are measured from start to end.  Only
 * the @fn threads are measured.
 */
static struct bench_result bench_run_common(void *(*fn)(void *),
					    void *(*fn2)(void *), void *args,
					    size_t stride, size_t bt_off,
					    int n, int flags)
{
	int total = n + (fn2 ? 1 : 0), i;
	struct bench_result res = { 0 };
	bool to_end = flags & BENCH_RUN_TO_END;

	if (n < 1 || n > BENCH_MAX_THREADS)
		die("bad thread count %d", n);
	__atomic_store_n(&stop_flag, 0, __ATOMIC_RELAXED);
	/* a run to the end is measured from its first operation */
	__atomic_store_n(&measure_flag, to_end, __ATOMIC_RELEASE);
	pthread_barrier_init(&start_barrier, NULL, total + 1);
	for (i = 0; i < total; i++) {
		void *a = (char *)args + i * stride;
		struct bench_thread *bt = bench_bt(args, stride, bt_off, i);

		bt->seed = 0x9e3779b97f4a7c15ULL * (i + 1);
		bt->ops = 0;
		bt->measuring = false;
		if (pthread_create(&bt->tid, NULL, i < n ? fn : fn2, a))
			die("pthread_create");
		bench_pin(bt->tid, i);
	}
	if (to_end) {
		/* before the barrier: a worker may finish before we run again */
		res.t0 = rht_now();
		res.pcpu0 = clock_secs(CLOCK_PROCESS_CPUTIME_ID);
		pthread_barrier_wait(&start_barrier);
	} else {
		pthread_barrier_wait(&start_barrier);
		bench_sleep(warmup_secs);
		res.t0 = rht_now();
		res.pcpu0 = clock_secs(CLOCK_PROCESS_CPUTIME_ID);
		__atomic_store_n(&measure_flag, 1, __ATOMIC_RELEASE);
		bench_sleep(run_secs);
		__atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
		res.wall = rht_now() - res.t0;
	}
	for (i = 0; i < n; i++) {
		struct bench_thread *bt = bench_bt(args, stride, bt_off, i);

		pthread_join(bt->tid, NULL);
		res.ops += bt->ops;
		res.cpu += bt->cpu1 - bt->cpu0;
	}
	if (to_end)
		res.wall = rht_now() - res.t0;
	__atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
	for (; i < total; i++)
		pthread_join(bench_bt(args, stride, bt_off, i)->tid, NULL);
	pthread_barrier_destroy(&start_barrier);
	return res;
}

#define bench_run(fn, args, stride, off, n, flags)			\
	bench_run_common(fn, NULL, args, stride, off, n, flags)
#define bench_run2(fn, fn2, args, stride, off, n)			\
	bench_run_common(fn, fn2, args, stride, off, n, 0)

static const char *impl_label = RHT_TEST_LABEL;

/*
 * The timeline family: one sample per millisecond of lookups done, the
 * table's buckets, and whether a resize was in flight in it.
 */
#define TL_MAX_MS	60000
#define TL_CALM_MS	500	/* storm: lookups alone first */
#define TL_STORM_MS	1500	/* then with the storm */

static struct {
	unsigned long lookups;
	unsigned int size;
	u8 resizing, seen;
} tl[TL_MAX_MS];
static unsigned long tl_inserted;	/* keys the looker may look up */
static unsigned int tl_last;
static double tl_t0;

static void bench_report(const char *workload, const char *contender,
			 int threads, unsigned long entries,
			 const char *metric, double value)
{
	/* counts are whole numbers, everything else gets two decimals */
	printf("%s,%s,%d,%lu,%s,%.*f\n", workload, contender, threads,
	       entries, metric, strcmp(metric, "count") ? 2 : 0, value);
	fflush(stdout);
}

/* Both rates of a timed figure: per wall-clock second, per CPU second. */
static void bench_report_rates(const char *workload, const char *contender,
			       int threads, unsigned long entries,
			       u64 ops, double wall, double cpu)
{
	bench_report(workload, contender, threads, entries, "wall_ops_per_s",
		     wall > 0 ? ops / wall : 0);
	bench_report(workload, contender, threads, entries, "cpu_ops_per_s",
		     cpu > 0 ? ops / cpu : 0);
}

/*
 * A family of two halves (lookups of present and absent keys; lookups
 * without and with a storm) runs both, or with the name of one half only
 * that one (for profiles): the halves to run are [*lo, *hi) of {0, 1}.
 */
static void family_half(const char *family, const char *first,
			const char *second, int *lo, int *hi)
{
	*lo = !strcmp(family, second);
	*hi = strcmp(family, first) ? 2 : 1;
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
	while ((c = getopt(argc, argv, "c:f:n:k:t:d:w:")) != -1) {
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
		case 'w':
			warmup_secs = atof(optarg);
			break;
		default:
			die("%s",
			    "usage: bench -c rht|lfht|plain -f lookup|churn|grow|storm|memory|life|timeline -n N -k u32|k16 [-t 1,2] [-d secs] [-w secs]");
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
	bench_cpus_init();
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
