/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel RCU API on top of liburcu.
 *
 * Grace periods, read-side critical sections, call_rcu() and rcu_barrier()
 * are liburcu's (flavour urcu-memb, or urcu-mb with -DRHT_URCU_MB).  Only
 * the pointer accessors are our own: they are C11 acquire/release/relaxed
 * atomics so that ThreadSanitizer sees publication order, and with
 * CONFIG_PROVE_RCU (set by RHT_SHIM_DEBUG) every rcu_dereference*()
 * condition is checked like the kernel's lockdep-RCU does.
 *
 * Threads register with liburcu on first use (rcu_read_lock(), call_rcu()
 * ...) and unregister automatically when they exit.
 *
 * The kernel's struct rcu_head is a "struct callback_head" wrapping
 * liburcu's head plus the kernel callback, so that call_rcu() can run a
 * trampoline that tells ThreadSanitizer about the grace period, records
 * that grace period for the polled API (when a callback runs, every
 * cookie taken before its call_rcu() has completed, as in the kernel) and
 * handles kfree_rcu()'s offset encoding.
 */
#ifndef _RHT_SHIM_LINUX_RCUPDATE_H
#define _RHT_SHIM_LINUX_RCUPDATE_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/kconfig.h>
#include <linux/bug.h>
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include <linux/bottom_half.h>
#include <linux/cleanup.h>
#include "../rht_shim.h"

/*
 * liburcu names its own struct rcu_head; ours is in linux/types.h.  Code
 * that talks to liburcu (shim.c) #undefs rcu_head around it.
 */
#undef rcu_head
#ifdef RHT_URCU_MB
#include <urcu/urcu-mb.h>
#define __RHT_URCU(x)	urcu_mb_##x
#else
#include <urcu/urcu-memb.h>
#define __RHT_URCU(x)	urcu_memb_##x
#endif
static_assert(sizeof(struct rcu_head) ==
	      sizeof(((struct callback_head *)0)->urcu) &&
	      __alignof__(struct rcu_head) <=
	      __alignof__(struct callback_head),
	      "struct callback_head does not match liburcu's rcu_head");
#define rcu_head callback_head

/* liburcu's own pointer macros are replaced below. */
#undef rcu_dereference
#undef rcu_assign_pointer
#undef rcu_set_pointer
#undef rcu_xchg_pointer
#undef rcu_cmpxchg_pointer

/* ---- ThreadSanitizer glue ----------------------------------------- */
#if defined(__SANITIZE_THREAD__)
#define RHT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RHT_TSAN 1
#endif
#endif

#ifdef RHT_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
/*
 * Every reader releases this token when it leaves its critical section;
 * the end of a grace period acquires it.  That is exactly the
 * happens-before edge RCU guarantees, which liburcu implements with
 * membarrier()/futexes that TSAN cannot see.
 */
extern char rht_tsan_rcu_gp;
#define rht_tsan_reader_exit()	__tsan_release(&rht_tsan_rcu_gp)
#else
#define rht_tsan_reader_exit()	do { } while (0)
#endif

/* ---- read side ----------------------------------------------------- */
static inline void rcu_read_lock(void)
{
	if (unlikely(!rht_ctx.rcu_state))
		rht_rcu_thread_online();
	__RHT_URCU(read_lock)();
}

static inline void rcu_read_unlock(void)
{
#ifdef RHT_SHIM_DEBUG
	if (unlikely(!__RHT_URCU(read_ongoing)()))
		rht_shim_warn(__FILE__, __LINE__,
			      "%s() without rcu_read_lock()", __func__);
#endif
	rht_tsan_reader_exit();
	__RHT_URCU(read_unlock)();
}

#define rcu_read_lock_bh()	do { local_bh_disable(); rcu_read_lock(); } while (0)
#define rcu_read_unlock_bh()	do { rcu_read_unlock(); local_bh_enable(); } while (0)
#define rcu_read_lock_sched()	do { preempt_disable(); rcu_read_lock(); } while (0)
#define rcu_read_unlock_sched()	do { rcu_read_unlock(); preempt_enable(); } while (0)
#define rcu_read_lock_sched_notrace()	rcu_read_lock_sched()
#define rcu_read_unlock_sched_notrace()	rcu_read_unlock_sched()

static inline int rcu_read_lock_held(void)
{
#ifdef CONFIG_PROVE_RCU
	return rht_ctx.rcu_state && __RHT_URCU(read_ongoing)();
#else
	return 1;
#endif
}

#define rcu_read_lock_bh_held()		(rcu_read_lock_held() || in_softirq())
#define rcu_read_lock_sched_held()	(rcu_read_lock_held() || preempt_count() || irqs_disabled())
#define rcu_read_lock_any_held()	rcu_read_lock_sched_held()
#define rcu_lockdep_current_cpu_online()	1
#define rcu_is_watching()		1
#define lockdep_assert_in_rcu_read_lock()	WARN_ON_ONCE(!rcu_read_lock_held())

#ifdef CONFIG_PROVE_RCU
#define __rht_rcu_cond_check(c, what)					\
do {									\
	if (unlikely(!(c)))						\
		rht_shim_warn(__FILE__, __LINE__,			\
			      "suspicious %s usage", what);		\
} while (0)
#else
#define __rht_rcu_cond_check(...)	do { } while (0)
#endif
#define RCU_LOCKDEP_WARN(c, s)	__rht_rcu_cond_check(!(c), s)

/* ---- pointer accessors -------------------------------------------- */
#define __rht_rcu_load(p, ord)		__atomic_load_n(&(p), ord)

/* Consume everywhere: see READ_ONCE() in linux/compiler.h. */
#define rcu_dereference_raw(p)		__rht_rcu_load(p, __ATOMIC_CONSUME)
#define rcu_dereference_raw_check(p)	rcu_dereference_raw(p)
#define rcu_dereference_check(p, c) ({					\
	__rht_rcu_cond_check((c) || rcu_read_lock_held(),		\
			     "rcu_dereference_check()");		\
	__rht_rcu_load(p, __ATOMIC_CONSUME);				\
})
#define rcu_dereference_bh_check(p, c) ({				\
	__rht_rcu_cond_check((c) || rcu_read_lock_bh_held(),		\
			     "rcu_dereference_bh_check()");		\
	__rht_rcu_load(p, __ATOMIC_CONSUME);				\
})
#define rcu_dereference_sched_check(p, c) ({				\
	__rht_rcu_cond_check((c) || rcu_read_lock_sched_held(),		\
			     "rcu_dereference_sched_check()");		\
	__rht_rcu_load(p, __ATOMIC_CONSUME);				\
})
#define rcu_dereference(p)		rcu_dereference_check(p, 0)
#define rcu_dereference_bh(p)		rcu_dereference_bh_check(p, 0)
#define rcu_dereference_sched(p)	rcu_dereference_sched_check(p, 0)
#define rcu_dereference_protected(p, c) ({				\
	__rht_rcu_cond_check(c, "rcu_dereference_protected()");		\
	__rht_rcu_load(p, __ATOMIC_CONSUME);				\
})
#define rcu_access_pointer(p)		__rht_rcu_load(p, __ATOMIC_CONSUME)
#define unrcu_pointer(p)		(p)
#define rcu_pointer_handoff(p)		(p)

#define rcu_assign_pointer(p, v)					\
do {									\
	__typeof__(p) __ra_v = (__typeof__(p))(v);			\
	__atomic_store_n(&(p), __ra_v, __ATOMIC_RELEASE);		\
} while (0)
#define RCU_INIT_POINTER(p, v)						\
do {									\
	__typeof__(p) __ri_v = (__typeof__(p))(v);			\
	__atomic_store_n(&(p), __ri_v, __ATOMIC_RELAXED);		\
} while (0)
#define RCU_INITIALIZER(v)		(v)
#define RCU_POINTER_INITIALIZER(p, v)	.p = RCU_INITIALIZER(v)
#define rcu_replace_pointer(rp, p, c) ({				\
	__auto_type __rr_pp = &(rp);					\
	__typeof__(rp) __rr_old = rcu_dereference_protected(*__rr_pp, c); \
									\
	rcu_assign_pointer(*__rr_pp, p);				\
	__rr_old;							\
})

/* ---- update side --------------------------------------------------- */
void rht_synchronize_rcu(void);
void rht_call_rcu(struct rcu_head *head, rcu_callback_t func);
void rht_rcu_barrier(void);
void rht_kvfree_call_rcu(struct rcu_head *head, void *ptr);
void rht_kvfree_rcu_sync(void *ptr);

#define synchronize_rcu()		rht_synchronize_rcu()
#define synchronize_rcu_expedited()	rht_synchronize_rcu()
#define synchronize_net()		rht_synchronize_rcu()
#define call_rcu(head, func)		rht_call_rcu(head, func)
#define call_rcu_hurry(head, func)	rht_call_rcu(head, func)
#define rcu_barrier()			rht_rcu_barrier()

static inline void rcu_head_init(struct rcu_head *rhp)
{
	__atomic_store_n(&rhp->func, (rcu_callback_t)~0UL, __ATOMIC_RELAXED);
}

static inline bool rcu_head_after_call_rcu(struct rcu_head *rhp,
					   rcu_callback_t f)
{
	rcu_callback_t func = __atomic_load_n(&rhp->func, __ATOMIC_ACQUIRE);

	if (func == f)
		return true;
	WARN_ON_ONCE(func != (rcu_callback_t)~0UL);
	return false;
}

/* kfree_rcu(ptr, field) / kvfree_rcu(ptr, field), and the _mightsleep()s */
#define kvfree_rcu(ptr, rhf) ({						\
	__auto_type __kr_p = (ptr);					\
	size_t __kr_off = offsetof(__typeof__(*__kr_p), rhf);		\
									\
	rht_kvfree_call_rcu((void *)((char *)__kr_p + __kr_off), __kr_p); \
})
#define kfree_rcu(ptr, rhf)		kvfree_rcu(ptr, rhf)
#define kvfree_rcu_mightsleep(ptr)	rht_kvfree_rcu_sync((void *)(ptr))
#define kfree_rcu_mightsleep(ptr)	kvfree_rcu_mightsleep(ptr)

/* ---- polled grace periods ------------------------------------------ */
struct rcu_gp_oldstate {
	unsigned long rgos_norm;
};

#define NUM_ACTIVE_RCU_POLL_OLDSTATE		2
#define NUM_ACTIVE_RCU_POLL_FULL_OLDSTATE	2

unsigned long get_state_synchronize_rcu(void);
unsigned long start_poll_synchronize_rcu(void);
bool poll_state_synchronize_rcu(unsigned long oldstate);
void cond_synchronize_rcu(unsigned long oldstate);

static inline unsigned long get_completed_synchronize_rcu(void)
{
	return 0;	/* cookie 0 is always "completed" */
}

static inline bool same_state_synchronize_rcu(unsigned long a,
					      unsigned long b)
{
	return a == b;
}

static inline void get_state_synchronize_rcu_full(struct rcu_gp_oldstate *s)
{
	s->rgos_norm = get_state_synchronize_rcu();
}

static inline void start_poll_synchronize_rcu_full(struct rcu_gp_oldstate *s)
{
	s->rgos_norm = start_poll_synchronize_rcu();
}

static inline bool poll_state_synchronize_rcu_full(struct rcu_gp_oldstate *s)
{
	return poll_state_synchronize_rcu(s->rgos_norm);
}

static inline void cond_synchronize_rcu_full(struct rcu_gp_oldstate *s)
{
	cond_synchronize_rcu(s->rgos_norm);
}

static inline void get_completed_synchronize_rcu_full(struct rcu_gp_oldstate *s)
{
	s->rgos_norm = get_completed_synchronize_rcu();
}

static inline bool same_state_synchronize_rcu_full(struct rcu_gp_oldstate *a,
						   struct rcu_gp_oldstate *b)
{
	return a->rgos_norm == b->rgos_norm;
}

/* ---- scope-based helpers ------------------------------------------- */
DEFINE_LOCK_GUARD_0(rcu, rcu_read_lock(), rcu_read_unlock())

#endif /* _RHT_SHIM_LINUX_RCUPDATE_H */
