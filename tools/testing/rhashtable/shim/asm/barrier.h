/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory barriers in terms of the compiler's C11 atomics, so that the
 * sanitizers understand the ordering they provide.  There is only SMP
 * here: the smp_*() barriers are the plain ones.
 */
#ifndef _RHT_SHIM_ASM_BARRIER_H
#define _RHT_SHIM_ASM_BARRIER_H

#include <linux/compiler.h>

#define mb()			__atomic_thread_fence(__ATOMIC_SEQ_CST) /* full */
#define rmb()			__atomic_thread_fence(__ATOMIC_ACQUIRE) /* loads */
#define wmb()			__atomic_thread_fence(__ATOMIC_RELEASE) /* stores */
#define smp_mb()		mb()		/* full */
#define smp_rmb()		rmb()		/* loads */
#define smp_wmb()		wmb()		/* stores */
#define __smp_mb()		mb()		/* full */
/* As on x86, where every atomic read-modify-write is a full barrier. */
#define smp_mb__before_atomic()	barrier()	/* compiler only */
#define smp_mb__after_atomic()	barrier()	/* compiler only */
#define smp_mb__after_spinlock() mb()		/* full */
#define smp_acquire__after_ctrl_dep() rmb()	/* loads */
#define smp_read_barrier_depends() do { } while (0)

/* A release store: orders all earlier accesses before the store. */
#define smp_store_release(p, v)						\
do {									\
	__auto_type __sr_p = (p);					\
	__typeof__(*__sr_p) __sr_v = (v);				\
									\
	__atomic_store_n(__sr_p, __sr_v, __ATOMIC_RELEASE);		\
} while (0)
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE) /* acquire */
/* A store followed by a full barrier. */
#define smp_store_mb(var, v)						\
do {									\
	__typeof__(var) __sm_v = (v);					\
	__atomic_store_n(&(var), __sm_v, __ATOMIC_SEQ_CST);		\
} while (0)

#ifndef cpu_relax
#define cpu_relax()		__builtin_ia32_pause()
#endif

#endif /* _RHT_SHIM_ASM_BARRIER_H */
