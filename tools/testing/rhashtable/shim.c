// SPDX-License-Identifier: GPL-2.0
/*
 * Runtime half of the userspace kernel shims used to build rhashtable
 * implementations unchanged in userspace: diagnostics, allocators with
 * failure injection, the liburcu glue behind call_rcu() and the polled
 * grace-period API, per-CPU memory, percpu_counter, workqueues, random
 * numbers and jiffies.
 */
#include <errno.h>
#include <execinfo.h>
#include <malloc.h>
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/percpu.h>
#include <linux/percpu_counter.h>
#include <linux/random.h>
#include <linux/timer.h>

#include "shim/rht_shim.h"

__thread struct rht_shim_ctx rht_ctx = { .cpu = -1 };
int rht_shim_verbose;
int debug_locks = 1;

/* ------------------------------------------------------------------ */
/* Diagnostics                                                          */
/* ------------------------------------------------------------------ */

static unsigned long warn_count;

/* Linked in with a sanitizer runtime only: a weak reference, NULL without. */
#pragma weak __sanitizer_print_stack_trace

static void dump_stack_here(void)
{
	void *frames[48];
	int n;

	if (__sanitizer_print_stack_trace) {
		__sanitizer_print_stack_trace();
		return;
	}
	n = backtrace(frames, 48);
	backtrace_symbols_fd(frames, n, 2);
}

static void vreport(const char *kind, const char *file, int line,
		    const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "%s: %s:%d: %s [thread cpu %d, preempt %d, bh %d, irqs-off %d]\n",
		kind, file, line, msg, rht_ctx.cpu, rht_ctx.preempt,
		rht_ctx.bh, rht_ctx.irq_off);
	dump_stack_here();
}

void rht_shim_warn(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	__atomic_fetch_add(&warn_count, 1, __ATOMIC_RELAXED);
	va_start(ap, fmt);
	vreport("WARNING", file, line, fmt, ap);
	va_end(ap);
}

void rht_shim_bug(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("BUG", file, line, fmt, ap);
	va_end(ap);
	abort();
}

unsigned long rht_shim_warn_count(void)
{
	return __atomic_load_n(&warn_count, __ATOMIC_RELAXED);
}

/* CONFIG_DEBUG_ATOMIC_SLEEP: may this thread block right now? */
void rht_shim_check_sleep(const char *file, int line, const char *what)
{
	const char *why = NULL;

	if (rht_ctx.preempt)
		why = "preemption disabled (spinlock or bit lock held?)";
	else if (rht_ctx.irq_off)
		why = "interrupts disabled";
	else if (rht_ctx.bh)
		why = "bottom halves disabled";
	else if (rht_ctx.rcu_state && __RHT_URCU(read_ongoing)())
		why = "inside an RCU read-side critical section";
	if (why)
		rht_shim_bug(file, line, "sleeping function (%s) called from invalid context: %s",
			     what, why);
}

/* ------------------------------------------------------------------ */
/* Per-thread setup and teardown                                        */
/* ------------------------------------------------------------------ */

static pthread_key_t thread_key;
static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT;

static void cpu_id_release(int cpu);

static void thread_exit(void *arg)
{
	if (rht_ctx.rcu_state == 1) {
		__RHT_URCU(unregister_thread)();
		rht_ctx.rcu_state = 0;
	}
	if (rht_ctx.cpu >= 0) {
		cpu_id_release(rht_ctx.cpu);
		rht_ctx.cpu = -1;
	}
}

static void thread_key_init(void)
{
	pthread_key_create(&thread_key, thread_exit);
}

static void want_thread_exit_hook(void)
{
	pthread_once(&thread_key_once, thread_key_init);
	pthread_setspecific(thread_key, (void *)1);
}

void rht_rcu_thread_online(void)
{
	if (rht_ctx.rcu_state)
		return;
	__RHT_URCU(register_thread)();
	rht_ctx.rcu_state = 1;
	want_thread_exit_hook();
}

static __thread struct task_struct current_task;

struct task_struct *rht_shim_current(void)
{
	if (!current_task.pid)
		current_task.pid = (int)gettid();
	return &current_task;
}

void rht_shim_cond_resched(void)
{
	static __thread unsigned int calls;

	if (!(++calls & 1023))
		sched_yield();
}

/* ------------------------------------------------------------------ */
/* Random numbers: splitmix64 per thread, seeded from one global seed   */
/* ------------------------------------------------------------------ */

static uint64_t random_seed = 0x5eed5eed12345678ULL;
static unsigned long random_threads;
static __thread uint64_t random_state;
static __thread int random_ready;

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rht_random_seed(uint64_t seed)
{
	__atomic_store_n(&random_seed, seed, __ATOMIC_RELAXED);
	random_state = seed;
	random_ready = 1;
}

u64 rht_random_u64(void)
{
	if (unlikely(!random_ready)) {
		unsigned long n = __atomic_add_fetch(&random_threads, 1,
						     __ATOMIC_RELAXED);

		random_state = __atomic_load_n(&random_seed, __ATOMIC_RELAXED) ^
			       (n * 0xd1b54a32d192ed03ULL);
		random_ready = 1;
	}
	return splitmix64(&random_state);
}

/* ------------------------------------------------------------------ */
/* Allocators                                                           */
/* ------------------------------------------------------------------ */

long rht_fail_nth;
unsigned int rht_fail_ppm;
static unsigned long alloc_failed;
static unsigned long alloc_total;
static long alloc_live_objects;
static long alloc_live_bytes;
static __thread uint64_t fail_rng = 0x243f6a8885a308d3ULL;

static bool should_fail(gfp_t gfp)
{
	unsigned int ppm;
	long n;

	if (gfp & __GFP_NOFAIL)
		return false;

	n = __atomic_load_n(&rht_fail_nth, __ATOMIC_RELAXED);
	while (n > 0) {
		if (__atomic_compare_exchange_n(&rht_fail_nth, &n, n - 1, false,
						__ATOMIC_RELAXED,
						__ATOMIC_RELAXED)) {
			if (n == 1)
				goto fail;
			break;
		}
	}

	ppm = __atomic_load_n(&rht_fail_ppm, __ATOMIC_RELAXED);
	if (ppm && splitmix64(&fail_rng) % 1000000 < ppm)
		goto fail;
	return false;
fail:
	__atomic_fetch_add(&alloc_failed, 1, __ATOMIC_RELAXED);
	return true;
}

void rht_set_fail_ppm(unsigned int ppm)
{
	__atomic_store_n(&rht_fail_ppm, ppm, __ATOMIC_RELAXED);
}

void rht_set_fail_nth(long nth)
{
	__atomic_store_n(&rht_fail_nth, nth, __ATOMIC_RELAXED);
}

unsigned long rht_alloc_failed_count(void)
{
	return __atomic_load_n(&alloc_failed, __ATOMIC_RELAXED);
}

long rht_alloc_live_objects(void)
{
	return __atomic_load_n(&alloc_live_objects, __ATOMIC_RELAXED);
}

long rht_alloc_live_bytes(void)
{
	return __atomic_load_n(&alloc_live_bytes, __ATOMIC_RELAXED);
}

unsigned long rht_alloc_total_count(void)
{
	return __atomic_load_n(&alloc_total, __ATOMIC_RELAXED);
}

static void account(void *p, int sign)
{
	if (sign > 0)
		__atomic_fetch_add(&alloc_total, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&alloc_live_objects, sign, __ATOMIC_RELAXED);
	__atomic_fetch_add(&alloc_live_bytes,
			   sign * (long)malloc_usable_size(p),
			   __ATOMIC_RELAXED);
}

void *rht_shim_alloc(size_t size, gfp_t gfp, size_t align)
{
	void *p;

	might_sleep_if(gfpflags_allow_blocking(gfp));
	if (should_fail(gfp))
		return NULL;
	if (!size)
		size = 1;
	/* kmalloc(): power-of-two sizes are naturally aligned (<= a page). */
	if (!align && !(size & (size - 1)) && size > 16)
		align = size < PAGE_SIZE ? size : PAGE_SIZE;
	if (align > 16)
		p = aligned_alloc(align, (size + align - 1) & ~(align - 1));
	else
		p = malloc(size);
	if (!p) {
		if (gfp & __GFP_NOFAIL)
			rht_shim_bug(__FILE__, __LINE__,
				     "__GFP_NOFAIL allocation of %zu bytes failed", size);
		return NULL;
	}
	if (gfp & __GFP_ZERO)
		memset(p, 0, size);
	account(p, 1);
	return p;
}

void rht_shim_free(const void *p)
{
	if (ZERO_OR_NULL_PTR(p))
		return;
	account((void *)p, -1);
	free((void *)p);
}

size_t rht_shim_ksize(const void *p)
{
	return ZERO_OR_NULL_PTR(p) ? 0 : malloc_usable_size((void *)p);
}

void *rht_shim_realloc(const void *p, size_t size, gfp_t gfp)
{
	size_t old = rht_shim_ksize(p);
	void *n;

	if (!size) {
		rht_shim_free(p);
		return ZERO_SIZE_PTR;
	}
	if (p && size <= old)
		return (void *)p;
	n = rht_shim_alloc(size, gfp & ~__GFP_ZERO, 0);
	if (!n)
		return NULL;
	if (p)
		memcpy(n, p, old);
	if (gfp & __GFP_ZERO)
		memset((char *)n + old, 0, size - old);
	rht_shim_free(p);
	return n;
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, unsigned long flags,
				     void (*ctor)(void *))
{
	struct kmem_cache *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->name = name;
	s->size = size;
	s->align = (flags & SLAB_HWCACHE_ALIGN) && align < 64 ? 64 : align;
	s->ctor = ctor;
	return s;
}

void kmem_cache_destroy(struct kmem_cache *s)
{
	free(s);
}

void *kmem_cache_alloc_noprof(struct kmem_cache *s, gfp_t gfp)
{
	void *p = rht_shim_alloc(s->size, gfp, s->align);

	if (p && s->ctor)
		s->ctor(p);
	return p;
}

void kmem_cache_free(struct kmem_cache *s, void *obj)
{
	rht_shim_free(obj);
}

/* ------------------------------------------------------------------ */
/* Locks                                                                */
/* ------------------------------------------------------------------ */

void rht_spin_lock_init(spinlock_t *l)
{
	pthread_mutexattr_t attr;

	pthread_mutexattr_init(&attr);
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
	pthread_mutex_init(&l->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	l->owner = NULL;
}

int rht_lock_held_by_me(const void *const *owner)
{
	return __atomic_load_n(owner, __ATOMIC_RELAXED) == &rht_ctx;
}

/* ------------------------------------------------------------------ */
/* RCU                                                                  */
/* ------------------------------------------------------------------ */

#ifdef RHT_TSAN
char rht_tsan_rcu_gp;
static char tsan_cb_done;
#define tsan_acquire(a)	__tsan_acquire(a)
#define tsan_release(a)	__tsan_release(a)
#else
#define tsan_acquire(...)	do { } while (0)
#define tsan_release(...)	do { } while (0)
#endif

static long rcu_pending;
static unsigned long gp_started;	/* grace periods begun (ids) */
static unsigned long gp_completed;	/* highest id known to have ended */

long rht_rcu_pending_callbacks(void)
{
	return __atomic_load_n(&rcu_pending, __ATOMIC_RELAXED);
}

static void gp_mark_completed(unsigned long id)
{
	unsigned long cur = __atomic_load_n(&gp_completed, __ATOMIC_RELAXED);

	while (cur < id &&
	       !__atomic_compare_exchange_n(&gp_completed, &cur, id, false,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
}

static void check_may_wait_for_gp(const char *what)
{
#ifdef RHT_SHIM_DEBUG
	rht_shim_check_sleep(__FILE__, __LINE__, what);
#endif
}

void rht_synchronize_rcu(void)
{
	unsigned long id;

	check_may_wait_for_gp("synchronize_rcu()");
	id = __atomic_add_fetch(&gp_started, 1, __ATOMIC_SEQ_CST);
	__RHT_URCU(synchronize_rcu)();
	gp_mark_completed(id);
	tsan_acquire(&rht_tsan_rcu_gp);
}

static void run_callback(struct callback_head *head)
{
	rcu_callback_t func;

	/* We run on liburcu's call_rcu thread, which liburcu registered. */
	if (!rht_ctx.rcu_state)
		rht_ctx.rcu_state = 2;
	tsan_acquire(&rht_tsan_rcu_gp);
	func = __atomic_load_n(&head->func, __ATOMIC_ACQUIRE);
	gp_mark_completed(head->gp_id);
	if ((unsigned long)func < 4096)
		rht_shim_free((char *)head - (unsigned long)func);
	else
		func(head);
	tsan_release(&tsan_cb_done);
	__atomic_fetch_sub(&rcu_pending, 1, __ATOMIC_RELEASE);
}

/*
 * liburcu's struct rcu_head is the urcu member of ours (linux/rcupdate.h
 * checks the layout).  Outside of this glue its name is ours.
 */
#undef rcu_head
static void rcu_trampoline(struct rcu_head *uh)
{
	run_callback((struct callback_head *)((char *)uh -
				offsetof(struct callback_head, urcu)));
}

static void urcu_call_rcu(struct callback_head *head)
{
	__RHT_URCU(call_rcu)((struct rcu_head *)&head->urcu, rcu_trampoline);
}

#define rcu_head callback_head

/*
 * Manual mode (rht_rcu_set_manual()): callbacks wait on a local FIFO,
 * linked through liburcu's own queue node, until rht_rcu_run_callbacks()
 * or rcu_barrier() waits for a liburcu grace period and runs them in the
 * calling thread.  Deterministic, and free of call_rcu's batching delay.
 */
static bool rcu_manual;
static pthread_mutex_t rcu_manual_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rht_urcu_node_compat *manual_head, **manual_tail = &manual_head;

static void enqueue_rcu(struct callback_head *head, rcu_callback_t func)
{
	if (unlikely(!rht_ctx.rcu_state))
		rht_rcu_thread_online();
	/* The grace period serving this callback starts after this point. */
	head->gp_id = __atomic_add_fetch(&gp_started, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&head->func, func, __ATOMIC_RELEASE);
	__atomic_fetch_add(&rcu_pending, 1, __ATOMIC_RELAXED);
	if (__atomic_load_n(&rcu_manual, __ATOMIC_RELAXED)) {
		pthread_mutex_lock(&rcu_manual_lock);
		head->urcu.next.next = NULL;
		*manual_tail = &head->urcu.next;
		manual_tail = &head->urcu.next.next;
		pthread_mutex_unlock(&rcu_manual_lock);
		return;
	}
	urcu_call_rcu(head);
}

void rht_rcu_set_manual(bool manual)
{
	rht_rcu_barrier();
	__atomic_store_n(&rcu_manual, manual, __ATOMIC_RELAXED);
}

int rht_rcu_run_callbacks(void)
{
	struct rht_urcu_node_compat *list, *next;
	int n = 0;

	for (;;) {
		pthread_mutex_lock(&rcu_manual_lock);
		list = manual_head;
		manual_head = NULL;
		manual_tail = &manual_head;
		pthread_mutex_unlock(&rcu_manual_lock);
		if (!list)
			return n;
		rht_synchronize_rcu();
		for (; list; list = next) {
			next = list->next;
			run_callback(container_of(list, struct callback_head,
						  urcu.next));
			n++;
		}
	}
}

void rht_call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	if (WARN_ON(!func || (unsigned long)func < 4096))
		return;
	enqueue_rcu(head, func);
}

void rht_kvfree_call_rcu(struct rcu_head *head, void *ptr)
{
	unsigned long off = (char *)head - (char *)ptr;

	if (off >= 4096) {
		/* Too far for the offset encoding: wait here instead. */
		rht_synchronize_rcu();
		rht_shim_free(ptr);
		return;
	}
	enqueue_rcu(head, (rcu_callback_t)off);
}

void rht_kvfree_rcu_sync(void *ptr)
{
	rht_synchronize_rcu();
	rht_shim_free(ptr);
}

void rht_rcu_barrier(void)
{
	check_may_wait_for_gp("rcu_barrier()");
	if (unlikely(!rht_ctx.rcu_state))
		rht_rcu_thread_online();
	rht_rcu_run_callbacks();
	/* Nothing queued means nothing to wait for. */
	if (__atomic_load_n(&rcu_pending, __ATOMIC_ACQUIRE))
		__RHT_URCU(barrier)();
	tsan_acquire(&tsan_cb_done);
}

/*
 * Polled grace periods.  A cookie is the id a grace period must reach:
 * ids are handed out when a grace period starts, and a completed grace
 * period with id >= cookie started after the cookie was taken.
 */
unsigned long get_state_synchronize_rcu(void)
{
	return __atomic_load_n(&gp_started, __ATOMIC_SEQ_CST) + 1;
}

/* The trampoline records the grace period; this only has to exist. */
static void poll_gp_done(struct rcu_head *head)
{
	free(head);
}

unsigned long start_poll_synchronize_rcu(void)
{
	unsigned long cookie = get_state_synchronize_rcu();
	struct rcu_head *head = malloc(sizeof(*head));

	if (!head)
		rht_shim_bug(__FILE__, __LINE__, "out of memory");
	rht_call_rcu(head, poll_gp_done);
	return cookie;
}

bool poll_state_synchronize_rcu(unsigned long oldstate)
{
	if (__atomic_load_n(&gp_completed, __ATOMIC_ACQUIRE) >= oldstate) {
		tsan_acquire(&rht_tsan_rcu_gp);
		return true;
	}
	return false;
}

void cond_synchronize_rcu(unsigned long oldstate)
{
	if (!poll_state_synchronize_rcu(oldstate))
		rht_synchronize_rcu();
}

/* ------------------------------------------------------------------ */
/* CPU ids and per-CPU memory                                           */
/* ------------------------------------------------------------------ */

unsigned int nr_cpu_ids = RHT_NR_CPUS;
static pthread_mutex_t cpu_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char cpu_used[RHT_NR_CPUS];
static unsigned int cpu_rr;

int rht_shim_cpu_id(void)
{
	unsigned int i;
	int cpu = -1;

	if (rht_ctx.cpu >= 0)
		return rht_ctx.cpu;
	pthread_mutex_lock(&cpu_lock);
	for (i = 0; i < nr_cpu_ids; i++) {
		if (!cpu_used[i]) {
			cpu_used[i] = 1;
			cpu = i;
			break;
		}
	}
	if (cpu < 0) {
		WARN_ONCE(1, "more than %u threads use CPU ids; this_cpu ops are no longer exclusive",
			  nr_cpu_ids);
		cpu = cpu_rr++ % nr_cpu_ids;
	}
	pthread_mutex_unlock(&cpu_lock);
	rht_ctx.cpu = cpu;
	want_thread_exit_hook();
	return cpu;
}

void rht_shim_set_cpu(int cpu)
{
	rht_ctx.cpu = cpu;
}

/* An armed "interrupt" fires where the thread enables interrupts again. */
void rht_shim_irq_arm(bool (*fn)(void *arg), void *arg)
{
	rht_ctx.irq_arg = arg;
	rht_ctx.irq_fn = fn;
}

void rht_shim_irq_point(void)
{
	bool (*fn)(void *arg) = rht_ctx.irq_fn;

	if (!fn || rht_ctx.irq_off)
		return;
	rht_ctx.irq_fn = NULL;		/* no nesting */
	rht_ctx.irq_off = 1;
	if (!fn(rht_ctx.irq_arg))
		rht_ctx.irq_fn = fn;
	rht_ctx.irq_off = 0;
}

void rht_shim_release_arm(bool (*fn)(void *arg), void *arg)
{
	rht_ctx.release_arg = arg;
	rht_ctx.release_fn = fn;
}

void rht_shim_release_point(const void *map)
{
	bool (*fn)(void *arg) = rht_ctx.release_fn;

	if (!fn)
		return;
	rht_ctx.release_fn = NULL;	/* no nesting */
	if (!fn(rht_ctx.release_arg))
		rht_ctx.release_fn = fn;
}

static void cpu_id_release(int cpu)
{
	pthread_mutex_lock(&cpu_lock);
	if (cpu >= 0 && cpu < RHT_NR_CPUS)
		cpu_used[cpu] = 0;
	pthread_mutex_unlock(&cpu_lock);
}

#define PCPU_CHUNK	64
#define PCPU_NCHUNKS	(RHT_PCPU_UNIT / PCPU_CHUNK)

static char *pcpu_base;
static pthread_mutex_t pcpu_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char pcpu_used[PCPU_NCHUNKS];
static unsigned int pcpu_len[PCPU_NCHUNKS];

void __percpu *rht_alloc_percpu(size_t size, size_t align, gfp_t gfp)
{
	size_t n = (size + PCPU_CHUNK - 1) / PCPU_CHUNK, run = 0, i, start = 0;
	unsigned int cpu;
	void *ret = NULL;

	might_sleep_if(gfpflags_allow_blocking(gfp));
	if (!size || align > PCPU_CHUNK || should_fail(gfp))
		return NULL;
	pthread_mutex_lock(&pcpu_lock);
	if (!pcpu_base) {
		void *m = mmap(NULL, RHT_PCPU_UNIT * RHT_NR_CPUS,
			       PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			       -1, 0);

		if (m == MAP_FAILED)
			goto out;
		pcpu_base = m;
	}
	for (i = 0; i < PCPU_NCHUNKS; i++) {
		if (pcpu_used[i]) {
			run = 0;
			continue;
		}
		if (!run++)
			start = i;
		if (run == n)
			break;
	}
	if (run != n)
		goto out;
	memset(pcpu_used + start, 1, n);
	pcpu_len[start] = n;
	for (cpu = 0; cpu < RHT_NR_CPUS; cpu++)
		memset(pcpu_base + cpu * RHT_PCPU_UNIT + start * PCPU_CHUNK, 0,
		       n * PCPU_CHUNK);
	ret = pcpu_base + start * PCPU_CHUNK;
out:
	pthread_mutex_unlock(&pcpu_lock);
	if (!ret && !(gfp & __GFP_NOWARN))
		pr_warn("alloc_percpu(%zu) failed\n", size);
	return ret;
}

void rht_free_percpu(void __percpu *p)
{
	size_t start;

	if (!p)
		return;
	start = ((char *)p - pcpu_base) / PCPU_CHUNK;
	pthread_mutex_lock(&pcpu_lock);
	rht_bug_on((char *)p < pcpu_base || start >= PCPU_NCHUNKS ||
		   !pcpu_used[start] || !pcpu_len[start]);
	memset(pcpu_used + start, 0, pcpu_len[start]);
	pcpu_len[start] = 0;
	pthread_mutex_unlock(&pcpu_lock);
}

s32 percpu_counter_batch = 32;

int __percpu_counter_init_many(struct percpu_counter *fbc, s64 amount,
			       gfp_t gfp, u32 nr_counters,
			       struct lock_class_key *key)
{
	s32 __percpu *c;
	u32 i;

	c = rht_alloc_percpu(sizeof(s32) * nr_counters, __alignof__(s32), gfp);
	if (!c)
		return -ENOMEM;
	for (i = 0; i < nr_counters; i++) {
		spin_lock_init(&fbc[i].lock);
		fbc[i].count = amount;
		fbc[i].counters = c + i;
	}
	return 0;
}

void percpu_counter_destroy_many(struct percpu_counter *fbc, u32 nr_counters)
{
	u32 i;

	if (!fbc[0].counters)
		return;
	rht_free_percpu(fbc[0].counters);
	for (i = 0; i < nr_counters; i++)
		fbc[i].counters = NULL;
}

void percpu_counter_set(struct percpu_counter *fbc, s64 amount)
{
	int cpu;

	spin_lock(&fbc->lock);
	for_each_possible_cpu(cpu)
		__atomic_store_n(per_cpu_ptr(fbc->counters, cpu), 0,
				 __ATOMIC_RELAXED);
	WRITE_ONCE(fbc->count, amount);
	spin_unlock(&fbc->lock);
}

void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount,
			      s32 batch)
{
	s64 local;

	preempt_disable();
	local = this_cpu_read(*fbc->counters) + amount;
	if (local >= batch || local <= -batch) {
		/* Fold this CPU's delta into the shared count. */
		spin_lock(&fbc->lock);
		WRITE_ONCE(fbc->count, fbc->count + local);
		this_cpu_sub(*fbc->counters, local - amount);
		spin_unlock(&fbc->lock);
	} else {
		this_cpu_add(*fbc->counters, amount);
	}
	preempt_enable();
}

s64 __percpu_counter_sum(struct percpu_counter *fbc)
{
	s64 sum;
	int cpu;

	spin_lock(&fbc->lock);
	sum = fbc->count;
	for_each_possible_cpu(cpu)
		sum += __atomic_load_n(per_cpu_ptr(fbc->counters, cpu),
				       __ATOMIC_RELAXED);
	spin_unlock(&fbc->lock);
	return sum;
}

int __percpu_counter_compare(struct percpu_counter *fbc, s64 rhs, s32 batch)
{
	s64 approx = percpu_counter_read(fbc), exact;

	/* The approximation is good enough when it is far from rhs. */
	if (approx - rhs > (s64)batch * nr_cpu_ids)
		return 1;
	if (rhs - approx > (s64)batch * nr_cpu_ids)
		return -1;
	exact = __percpu_counter_sum(fbc);
	return exact > rhs ? 1 : exact < rhs ? -1 : 0;
}

bool __percpu_counter_limited_add(struct percpu_counter *fbc, s64 limit,
				  s64 amount, s32 batch)
{
	bool ok;

	if (!amount)
		return true;
	spin_lock(&fbc->lock);
	{
		s64 sum = fbc->count;
		int cpu;

		for_each_possible_cpu(cpu)
			sum += __atomic_load_n(per_cpu_ptr(fbc->counters, cpu),
					       __ATOMIC_RELAXED);
		ok = amount > 0 ? sum + amount <= limit : sum + amount >= limit;
		if (ok)
			WRITE_ONCE(fbc->count, fbc->count + amount);
	}
	spin_unlock(&fbc->lock);
	return ok;
}

/* ------------------------------------------------------------------ */
/* Jiffies                                                              */
/* ------------------------------------------------------------------ */

static struct timespec boot_time;
static bool time_manual;
static unsigned long virt_jiffies = 100000;

unsigned long rht_jiffies(void)
{
	struct timespec ts;

	if (__atomic_load_n(&time_manual, __ATOMIC_RELAXED))
		return __atomic_load_n(&virt_jiffies, __ATOMIC_RELAXED);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)(ts.tv_sec - boot_time.tv_sec) * 1000 +
	       (ts.tv_nsec - boot_time.tv_nsec) / 1000000 + 100000;
}

/* ------------------------------------------------------------------ */
/* Timers                                                               */
/* ------------------------------------------------------------------ */

static pthread_mutex_t timer_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t timer_wake = PTHREAD_COND_INITIALIZER;
static pthread_cond_t timer_done = PTHREAD_COND_INITIALIZER;
static LIST_HEAD(armed_timers);
static struct timer_list *running_timer;
static bool timer_thread_started;

void timer_setup(struct timer_list *timer,
		 void (*func)(struct timer_list *), unsigned int flags)
{
	memset(timer, 0, sizeof(*timer));
	INIT_LIST_HEAD(&timer->entry);
	timer->function = func;
	timer->flags = flags;
}

/* Run @t in the calling thread; called and returns with timer_lock held. */
static void fire_timer_locked(struct timer_list *t)
{
	list_del_init(&t->entry);
	__atomic_store_n(&t->pending, 0, __ATOMIC_RELAXED);
	running_timer = t;
	pthread_mutex_unlock(&timer_lock);

	rht_ctx.bh++;		/* timers run in softirq context */
	t->function(t);
	rht_ctx.bh--;

	pthread_mutex_lock(&timer_lock);
	running_timer = NULL;
	pthread_cond_broadcast(&timer_done);
}

static struct timer_list *earliest_timer(void)
{
	struct timer_list *t, *first = NULL;

	list_for_each_entry(t, &armed_timers, entry)
		if (!first || time_before(t->expires, first->expires))
			first = t;
	return first;
}

static void *timer_main(void *arg)
{
	pthread_setname_np(pthread_self(), "ktimer");
	pthread_mutex_lock(&timer_lock);
	for (;;) {
		struct timer_list *t = earliest_timer();
		unsigned long now = rht_jiffies();
		struct timespec ts;
		long ms;

		if (!t || __atomic_load_n(&time_manual, __ATOMIC_RELAXED)) {
			pthread_cond_wait(&timer_wake, &timer_lock);
			continue;
		}
		if (time_after_eq(now, t->expires)) {
			fire_timer_locked(t);
			continue;
		}
		ms = t->expires - now;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += ms / 1000;
		ts.tv_nsec += (ms % 1000) * 1000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&timer_wake, &timer_lock, &ts);
	}
	return NULL;
}

static void arm_timer_locked(struct timer_list *t, unsigned long expires)
{
	t->expires = expires;
	if (!t->pending) {
		list_add_tail(&t->entry, &armed_timers);
		__atomic_store_n(&t->pending, 1, __ATOMIC_RELAXED);
	}
	if (!timer_thread_started) {
		pthread_t tid;

		if (pthread_create(&tid, NULL, timer_main, NULL))
			rht_shim_bug(__FILE__, __LINE__,
				     "cannot start the timer thread");
		pthread_detach(tid);
		timer_thread_started = true;
	}
	pthread_cond_signal(&timer_wake);
}

int mod_timer(struct timer_list *timer, unsigned long expires)
{
	int was;

	pthread_mutex_lock(&timer_lock);
	was = timer->pending;
	if (!timer->shutdown)
		arm_timer_locked(timer, expires);
	pthread_mutex_unlock(&timer_lock);
	return was;
}

int mod_timer_pending(struct timer_list *timer, unsigned long expires)
{
	int was;

	pthread_mutex_lock(&timer_lock);
	was = timer->pending;
	if (was && !timer->shutdown)
		arm_timer_locked(timer, expires);
	pthread_mutex_unlock(&timer_lock);
	return was;
}

int timer_reduce(struct timer_list *timer, unsigned long expires)
{
	int was;

	pthread_mutex_lock(&timer_lock);
	was = timer->pending;
	if (!timer->shutdown &&
	    (!was || time_before(expires, timer->expires)))
		arm_timer_locked(timer, expires);
	pthread_mutex_unlock(&timer_lock);
	return was;
}

void add_timer(struct timer_list *timer)
{
	WARN_ON(timer_pending(timer));
	mod_timer(timer, timer->expires);
}

int rht_timer_delete(struct timer_list *timer, bool sync, bool shutdown)
{
	int was;

	pthread_mutex_lock(&timer_lock);
	if (shutdown)
		timer->shutdown = 1;
	was = timer->pending;
	if (was) {
		list_del_init(&timer->entry);
		__atomic_store_n(&timer->pending, 0, __ATOMIC_RELAXED);
	}
	while (sync && running_timer == timer)
		pthread_cond_wait(&timer_done, &timer_lock);
	pthread_mutex_unlock(&timer_lock);
	return was;
}

int rht_time_advance(unsigned long ms)
{
	struct timer_list *t;
	int fired = 0;

	__atomic_add_fetch(&virt_jiffies, ms, __ATOMIC_RELAXED);
	pthread_mutex_lock(&timer_lock);
	while ((t = earliest_timer()) &&
	       time_after_eq(rht_jiffies(), t->expires)) {
		fire_timer_locked(t);
		fired++;
	}
	pthread_mutex_unlock(&timer_lock);
	return fired;
}

/* ------------------------------------------------------------------ */
/* Workqueues                                                           */
/* ------------------------------------------------------------------ */

/*
 * One lock for every workqueue keeps cancel/flush simple: they can look
 * at any queue.  A work function may free its work item, so nothing
 * touches the item after the function returns; "is it running?" is
 * answered by comparing against each queue's current item.
 */
struct workqueue_struct {
	char name[32];
	struct list_head list;		/* queued items, FIFO */
	struct list_head node;		/* on all_wqs */
	pthread_cond_t wake;
	pthread_t thread;
	bool started, stopping;
	struct work_struct *cur_work;	/* being run, or NULL */
	unsigned int flags;
};

static pthread_mutex_t wq_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wq_done = PTHREAD_COND_INITIALIZER;
static LIST_HEAD(all_wqs);
static bool wq_manual;
static struct work_struct *manual_current;
static int rcu_phase_works;

struct workqueue_struct *system_wq;
struct workqueue_struct *system_highpri_wq;
struct workqueue_struct *system_long_wq;
struct workqueue_struct *system_unbound_wq;
struct workqueue_struct *system_freezable_wq;
struct workqueue_struct *system_power_efficient_wq;
struct workqueue_struct *system_freezable_power_efficient_wq;
struct workqueue_struct *system_bh_wq;

struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags,
					 int max_active, ...)
{
	struct workqueue_struct *wq = calloc(1, sizeof(*wq));
	va_list ap;

	if (!wq)
		return NULL;
	va_start(ap, max_active);
	vsnprintf(wq->name, sizeof(wq->name), fmt, ap);
	va_end(ap);
	INIT_LIST_HEAD(&wq->list);
	pthread_cond_init(&wq->wake, NULL);
	wq->flags = flags;
	pthread_mutex_lock(&wq_lock);
	list_add_tail(&wq->node, &all_wqs);
	pthread_mutex_unlock(&wq_lock);
	return wq;
}

void rht_init_work(struct work_struct *work, work_func_t func)
{
	memset(work, 0, sizeof(*work));
	INIT_LIST_HEAD(&work->entry);
	work->func = func;
}

static bool work_is_running(struct work_struct *work)
{
	struct workqueue_struct *wq;

	if (manual_current == work)
		return true;
	list_for_each_entry(wq, &all_wqs, node)
		if (wq->cur_work == work)
			return true;
	return false;
}

static struct work_struct *first_ready(struct workqueue_struct *wq,
				       unsigned long now, unsigned long *next)
{
	struct work_struct *w;

	list_for_each_entry(w, &wq->list, entry) {
		if (!w->expires || time_after_eq(now, w->expires))
			return w;
		if (!*next || time_before(w->expires, *next))
			*next = w->expires;
	}
	return NULL;
}

static void *worker_main(void *arg)
{
	struct workqueue_struct *wq = arg;
	char name[16];

	snprintf(name, sizeof(name), "kworker/%.7s", wq->name);
	pthread_setname_np(pthread_self(), name);
	pthread_mutex_lock(&wq_lock);
	while (!wq->stopping) {
		unsigned long next = 0;
		struct work_struct *w;

		w = wq_manual ? NULL : first_ready(wq, rht_jiffies(), &next);
		if (!w) {
			if (next && !wq_manual) {
				struct timespec ts;
				unsigned long ms = next - rht_jiffies();

				clock_gettime(CLOCK_REALTIME, &ts);
				ts.tv_sec += ms / 1000;
				ts.tv_nsec += (ms % 1000) * 1000000;
				if (ts.tv_nsec >= 1000000000) {
					ts.tv_sec++;
					ts.tv_nsec -= 1000000000;
				}
				pthread_cond_timedwait(&wq->wake, &wq_lock, &ts);
			} else {
				pthread_cond_wait(&wq->wake, &wq_lock);
			}
			continue;
		}
		list_del_init(&w->entry);
		__atomic_store_n(&w->pending, 0, __ATOMIC_RELAXED);
		wq->cur_work = w;
		pthread_mutex_unlock(&wq_lock);

		w->func(w);	/* may free w */

		pthread_mutex_lock(&wq_lock);
		wq->cur_work = NULL;
		pthread_cond_broadcast(&wq_done);
	}
	pthread_mutex_unlock(&wq_lock);
	return NULL;
}

/* Called with wq_lock held. */
static void enqueue_locked(struct workqueue_struct *wq,
			   struct work_struct *work, unsigned long delay)
{
	work->wq = wq;
	work->expires = delay ? rht_jiffies() + delay : 0;
	list_add_tail(&work->entry, &wq->list);
	if (wq_manual)
		return;
	if (!wq->started) {
		if (pthread_create(&wq->thread, NULL, worker_main, wq))
			rht_shim_bug(__FILE__, __LINE__,
				     "cannot start worker thread");
		wq->started = true;
	}
	pthread_cond_signal(&wq->wake);
}

static bool queue_common(struct workqueue_struct *wq, struct work_struct *work,
			 unsigned long delay)
{
	bool queued = false;

	pthread_mutex_lock(&wq_lock);
	if (!__atomic_load_n(&work->pending, __ATOMIC_RELAXED)) {
		__atomic_store_n(&work->pending, 1, __ATOMIC_RELAXED);
		enqueue_locked(wq, work, delay);
		queued = true;
	}
	pthread_mutex_unlock(&wq_lock);
	return queued;
}

bool queue_work_on(int cpu, struct workqueue_struct *wq,
		   struct work_struct *work)
{
	return queue_common(wq, work, 0);
}

bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
			   struct delayed_work *dwork, unsigned long delay)
{
	return queue_common(wq, &dwork->work, delay);
}

bool mod_delayed_work_on(int cpu, struct workqueue_struct *wq,
			 struct delayed_work *dwork, unsigned long delay)
{
	struct work_struct *work = &dwork->work;
	bool was_pending;

	pthread_mutex_lock(&wq_lock);
	was_pending = work->pending && !work->rcu_phase;
	if (was_pending)
		list_del_init(&work->entry);
	__atomic_store_n(&work->pending, 1, __ATOMIC_RELAXED);
	enqueue_locked(wq, work, delay);
	pthread_mutex_unlock(&wq_lock);
	return was_pending;
}

static void rcu_work_ready(struct rcu_head *head)
{
	struct rcu_work *rwork = container_of(head, struct rcu_work, rcu);

	pthread_mutex_lock(&wq_lock);
	rwork->work.rcu_phase = 0;
	rcu_phase_works--;
	enqueue_locked(rwork->wq, &rwork->work, 0);
	pthread_cond_broadcast(&wq_done);
	pthread_mutex_unlock(&wq_lock);
}

bool queue_rcu_work(struct workqueue_struct *wq, struct rcu_work *rwork)
{
	struct work_struct *work = &rwork->work;

	pthread_mutex_lock(&wq_lock);
	if (work->pending) {
		pthread_mutex_unlock(&wq_lock);
		return false;
	}
	__atomic_store_n(&work->pending, 1, __ATOMIC_RELAXED);
	work->rcu_phase = 1;
	rcu_phase_works++;
	rwork->wq = wq;
	pthread_mutex_unlock(&wq_lock);
	call_rcu(&rwork->rcu, rcu_work_ready);
	return true;
}

static bool cancel_common(struct work_struct *work, bool sync)
{
	bool was_pending;

	if (sync)
		might_sleep();
	pthread_mutex_lock(&wq_lock);
	/* An rcu_work waiting for its grace period cannot be stolen yet. */
	while (work->rcu_phase)
		pthread_cond_wait(&wq_done, &wq_lock);
	was_pending = work->pending;
	if (was_pending) {
		list_del_init(&work->entry);
		__atomic_store_n(&work->pending, 0, __ATOMIC_RELAXED);
	}
	while (sync && work_is_running(work))
		pthread_cond_wait(&wq_done, &wq_lock);
	pthread_mutex_unlock(&wq_lock);
	return was_pending;
}

bool cancel_work_sync(struct work_struct *work)
{
	return cancel_common(work, true);
}

bool cancel_work(struct work_struct *work)
{
	return cancel_common(work, false);
}

bool flush_work(struct work_struct *work)
{
	bool waited = false;

	might_sleep();
	if (wq_manual) {
		rht_wq_run_pending();
		return false;
	}
	pthread_mutex_lock(&wq_lock);
	while (work->rcu_phase || work->pending || work_is_running(work)) {
		/* Delayed work is run now rather than waited for. */
		if (work->pending && work->expires) {
			work->expires = 0;
			pthread_cond_signal(&work->wq->wake);
		}
		pthread_cond_wait(&wq_done, &wq_lock);
		waited = true;
	}
	pthread_mutex_unlock(&wq_lock);
	return waited;
}

bool flush_rcu_work(struct rcu_work *rwork)
{
	return flush_work(&rwork->work);
}

void flush_workqueue(struct workqueue_struct *wq)
{
	might_sleep();
	if (wq_manual) {
		rht_wq_run_pending();
		return;
	}
	pthread_mutex_lock(&wq_lock);
	while (!list_empty(&wq->list) || wq->cur_work)
		pthread_cond_wait(&wq_done, &wq_lock);
	pthread_mutex_unlock(&wq_lock);
}

void drain_workqueue(struct workqueue_struct *wq)
{
	flush_workqueue(wq);
}

void destroy_workqueue(struct workqueue_struct *wq)
{
	flush_workqueue(wq);
	pthread_mutex_lock(&wq_lock);
	wq->stopping = true;
	pthread_cond_signal(&wq->wake);
	list_del(&wq->node);
	pthread_mutex_unlock(&wq_lock);
	if (wq->started)
		pthread_join(wq->thread, NULL);
	pthread_cond_destroy(&wq->wake);
	free(wq);
}

void rht_wq_set_manual(bool manual)
{
	pthread_mutex_lock(&wq_lock);
	wq_manual = manual;
	pthread_mutex_unlock(&wq_lock);
	pthread_mutex_lock(&timer_lock);
	if (manual && !time_manual)
		virt_jiffies = rht_jiffies();
	__atomic_store_n(&time_manual, manual, __ATOMIC_RELAXED);
	pthread_cond_signal(&timer_wake);
	pthread_mutex_unlock(&timer_lock);
}

int rht_wq_run_pending(void)
{
	int ran = 0;

	for (;;) {
		struct workqueue_struct *wq;
		struct work_struct *w = NULL;
		int waiting_rcu;

		pthread_mutex_lock(&wq_lock);
		waiting_rcu = rcu_phase_works;
		list_for_each_entry(wq, &all_wqs, node) {
			if (!list_empty(&wq->list)) {
				w = list_first_entry(&wq->list,
						     struct work_struct, entry);
				break;
			}
		}
		if (!w) {
			pthread_mutex_unlock(&wq_lock);
			if (!waiting_rcu)
				return ran;
			rcu_barrier();	/* let queued rcu_works arrive */
			continue;
		}
		list_del_init(&w->entry);
		__atomic_store_n(&w->pending, 0, __ATOMIC_RELAXED);
		manual_current = w;
		pthread_mutex_unlock(&wq_lock);

		w->func(w);

		pthread_mutex_lock(&wq_lock);
		manual_current = NULL;
		pthread_cond_broadcast(&wq_done);
		pthread_mutex_unlock(&wq_lock);
		if (++ran > 100000)
			rht_shim_bug(__FILE__, __LINE__,
				     "work items keep requeueing themselves");
	}
}

/* ------------------------------------------------------------------ */
/* Start-up                                                             */
/* ------------------------------------------------------------------ */

static void __attribute__((constructor)) rht_shim_init(void)
{
	const char *s;

	clock_gettime(CLOCK_MONOTONIC, &boot_time);
	s = getenv("RHT_NR_CPU_IDS");
	if (s && atoi(s) > 0 && atoi(s) <= RHT_NR_CPUS)
		nr_cpu_ids = atoi(s);
	s = getenv("RHT_FAIL_NTH");
	if (s)
		rht_fail_nth = atol(s);
	s = getenv("RHT_FAIL_PPM");
	if (s)
		rht_fail_ppm = atoi(s);
	s = getenv("RHT_SHIM_VERBOSE");
	if (s)
		rht_shim_verbose = atoi(s);
	percpu_counter_batch = max(32, (int)nr_cpu_ids * 2);

	system_wq = alloc_workqueue("events", 0, 0);
	system_highpri_wq = alloc_workqueue("events_highpri", WQ_HIGHPRI, 0);
	system_long_wq = alloc_workqueue("events_long", 0, 0);
	system_unbound_wq = alloc_workqueue("events_unbound", WQ_UNBOUND, 0);
	system_freezable_wq = system_wq;
	system_power_efficient_wq = system_wq;
	system_freezable_power_efficient_wq = system_wq;
	system_bh_wq = system_highpri_wq;
	if (!system_wq || !system_highpri_wq || !system_long_wq ||
	    !system_unbound_wq)
		rht_shim_bug(__FILE__, __LINE__, "cannot allocate workqueues");

	/* The main thread is an RCU reader from the start. */
	rht_rcu_thread_online();
}

/* ---- bit searching, for for_each_set_bit() ---------------------------- */

unsigned long _find_next_bit(const unsigned long *addr, unsigned long nbits,
			     unsigned long start)
{
	for (; start < nbits; start++)
		if (addr[start / BITS_PER_LONG] & (1UL << (start % BITS_PER_LONG)))
			return start;
	return nbits;
}

unsigned long _find_first_bit(const unsigned long *addr, unsigned long size)
{
	return _find_next_bit(addr, size, 0);
}
