/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Runtime state of the userspace kernel shims (implemented in ../shim.c).
 *
 * Every thread carries a small context that models the kernel's notion of
 * "where am I": a preemption count, an irq-off flag, a softirq-off count
 * and the CPU id the percpu shim uses.  With RHT_SHIM_DEBUG the sleeping
 * primitives check this context the way CONFIG_DEBUG_ATOMIC_SLEEP does.
 */
#ifndef _RHT_SHIM_H
#define _RHT_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rht_shim_ctx {
	int preempt;		/* preempt_disable() nesting */
	int bh;			/* local_bh_disable() nesting */
	int irq_off;		/* local_irq_save() state */
	int cpu;		/* smp_processor_id(); -1 until first use */
	int rcu_state;		/* 0: unknown, 1: urcu-registered by us, 2: urcu-owned */
	bool (*irq_fn)(void *arg);	/* rht_shim_irq_arm() */
	void *irq_arg;
	bool (*release_fn)(void *arg);	/* rht_shim_release_arm() */
	void *release_arg;
};

extern __thread struct rht_shim_ctx rht_ctx;

/* ---- diagnostics -------------------------------------------------- */
extern int rht_shim_verbose;
unsigned long rht_shim_warn_count(void);
void rht_shim_check_sleep(const char *file, int line, const char *what);

/* ---- allocation failure injection & accounting -------------------- */
/*
 * rht_fail_nth:  if non-zero, the Nth failable shim allocation from now
 *                on fails (one shot; it is reset to 0 when it fires).
 * rht_fail_ppm:  every failable allocation fails with this probability
 *                (parts per million).
 * Allocations with __GFP_NOFAIL never fail.  Both knobs can be preset
 * through the environment variables RHT_FAIL_NTH and RHT_FAIL_PPM; set
 * them with the setters while other threads may be allocating.
 */
extern long rht_fail_nth;
extern unsigned int rht_fail_ppm;
void rht_set_fail_ppm(unsigned int ppm);
void rht_set_fail_nth(long nth);
unsigned long rht_alloc_failed_count(void);	/* injected failures */
unsigned long rht_alloc_total_count(void);	/* successful allocations */
long rht_alloc_live_objects(void);	/* live shim allocations */
long rht_alloc_live_bytes(void);	/* usable bytes in those */

/* ---- RCU / threads ------------------------------------------------- */
void rht_rcu_thread_online(void);	/* register with liburcu now */
long rht_rcu_pending_callbacks(void);
/*
 * Manual RCU callbacks: call_rcu() only queues; rht_rcu_run_callbacks()
 * (or rcu_barrier()) waits for a liburcu grace period and runs what was
 * queued, in the calling thread.  Grace periods themselves stay
 * liburcu's.  The fuzzer uses it for determinism and speed.
 */
void rht_rcu_set_manual(bool manual);
int rht_rcu_run_callbacks(void);

/* ---- CPUs ---------------------------------------------------------- */
int rht_shim_cpu_id(void);		/* assigns one on first use */
void rht_shim_set_cpu(int cpu);

/* ---- interrupts ---------------------------------------------------- */
/*
 * There are no interrupts in userspace; with RHT_SHIM_DEBUG a test can
 * arm one for the calling thread.  Each time the thread enables
 * interrupts again (local_irq_restore() back to enabled,
 * local_irq_enable()), @fn runs there with interrupts off, as a handler
 * would, until it returns true.  It lets a test update the table in the
 * window right after a bucket unlock, which no timing can hit reliably.
 */
void rht_shim_irq_arm(bool (*fn)(void *arg), void *arg);
void rht_shim_irq_point(void);

/*
 * The same for the moment a thread is about to release a bucket lock
 * (lock_map_release(), with RHT_SHIM_DEBUG): @fn runs there, the lock
 * still held and every change of the update made but the last store,
 * until it returns true.  It lets a test run other threads inside an
 * update's critical section.
 */
void rht_shim_release_arm(bool (*fn)(void *arg), void *arg);
void rht_shim_release_point(const void *map);

/* ---- workqueues, timers, time --------------------------------------- */
/*
 * Manual mode: queued work items are not run by worker threads but only
 * when the caller invokes rht_wq_run_pending() (delayed ones too, their
 * delay is ignored), and jiffies become a virtual clock that only moves
 * with rht_time_advance(), which also runs the timers that fall due, in
 * the calling thread.  The fuzzer uses this to make deferred resizing
 * deterministic.  Switch modes only while no work is queued.
 */
void rht_wq_set_manual(bool manual);
int rht_wq_run_pending(void);	/* returns number of work items run */
int rht_time_advance(unsigned long ms);	/* returns timers fired */

/* ---- random --------------------------------------------------------- */
void rht_random_seed(uint64_t seed);

#endif /* _RHT_SHIM_H */
