/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomic_t, atomic_long_t, atomic64_t, cmpxchg() and friends built on the
 * compiler's __atomic builtins.  tools/include's version covers only a
 * handful of operations and hides them from ThreadSanitizer in inline asm.
 *
 * Ordering: value-returning RMW ops are fully ordered, the _relaxed,
 * _acquire and _release variants are what they say, void RMW ops are
 * relaxed, as in the kernel's memory model.
 */
#ifndef _RHT_SHIM_LINUX_ATOMIC_H
#define _RHT_SHIM_LINUX_ATOMIC_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/barrier.h>

#ifndef cpu_relax
#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax()	__builtin_ia32_pause()
#else
#define cpu_relax()	barrier()
#endif
#endif

/* tools/include/linux/types.h already defines atomic_t and atomic_long_t. */
typedef struct {
	s64 counter;
} atomic64_t;

#define ATOMIC_INIT(i)		{ (i) }
#define ATOMIC_LONG_INIT(i)	{ (i) }
#define ATOMIC64_INIT(i)	{ (i) }

#define __RHT_ORD_		__ATOMIC_SEQ_CST
#define __RHT_ORD__relaxed	__ATOMIC_RELAXED
#define __RHT_ORD__acquire	__ATOMIC_ACQUIRE
#define __RHT_ORD__release	__ATOMIC_RELEASE

/* Generate one family of value-returning operations for one ordering. */
#define __RHT_ATOMIC_RET_OPS(pfx, T, sfx)				\
static inline T pfx##_add_return##sfx(T i, pfx##_t *v)			\
{ return __atomic_add_fetch(&v->counter, i, __RHT_ORD_##sfx); }		\
static inline T pfx##_sub_return##sfx(T i, pfx##_t *v)			\
{ return __atomic_sub_fetch(&v->counter, i, __RHT_ORD_##sfx); }		\
static inline T pfx##_inc_return##sfx(pfx##_t *v)			\
{ return __atomic_add_fetch(&v->counter, 1, __RHT_ORD_##sfx); }		\
static inline T pfx##_dec_return##sfx(pfx##_t *v)			\
{ return __atomic_sub_fetch(&v->counter, 1, __RHT_ORD_##sfx); }		\
static inline T pfx##_fetch_add##sfx(T i, pfx##_t *v)			\
{ return __atomic_fetch_add(&v->counter, i, __RHT_ORD_##sfx); }		\
static inline T pfx##_fetch_sub##sfx(T i, pfx##_t *v)			\
{ return __atomic_fetch_sub(&v->counter, i, __RHT_ORD_##sfx); }		\
static inline T pfx##_fetch_inc##sfx(pfx##_t *v)			\
{ return __atomic_fetch_add(&v->counter, 1, __RHT_ORD_##sfx); }		\
static inline T pfx##_fetch_dec##sfx(pfx##_t *v)			\
{ return __atomic_fetch_sub(&v->counter, 1, __RHT_ORD_##sfx); }		\
static inline T pfx##_fetch_and##sfx(T i, pfx##_t *v)			\
{ return __atomic_fetch_and(&v->counter, i, __RHT_ORD_##sfx); }		\
static inline T pfx##_fetch_or##sfx(T i, pfx##_t *v)			\
{ return __atomic_fetch_or(&v->counter, i, __RHT_ORD_##sfx); }		\
static inline T pfx##_fetch_xor##sfx(T i, pfx##_t *v)			\
{ return __atomic_fetch_xor(&v->counter, i, __RHT_ORD_##sfx); }		\
static inline T pfx##_xchg##sfx(pfx##_t *v, T n)			\
{ return __atomic_exchange_n(&v->counter, n, __RHT_ORD_##sfx); }	\
static inline T pfx##_cmpxchg##sfx(pfx##_t *v, T o, T n)		\
{									\
	__atomic_compare_exchange_n(&v->counter, &o, n, false,		\
				    __RHT_ORD_##sfx, __ATOMIC_RELAXED);	\
	return o;							\
}									\
static inline bool pfx##_try_cmpxchg##sfx(pfx##_t *v, T *o, T n)	\
{									\
	return __atomic_compare_exchange_n(&v->counter, o, n, false,	\
					   __RHT_ORD_##sfx,		\
					   __ATOMIC_RELAXED);		\
}

#define __RHT_ATOMIC_OPS(pfx, T)					\
static inline T pfx##_read(const pfx##_t *v)				\
{ return __atomic_load_n(&v->counter, __ATOMIC_RELAXED); }		\
static inline T pfx##_read_acquire(const pfx##_t *v)			\
{ return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE); }		\
static inline void pfx##_set(pfx##_t *v, T i)				\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); }			\
static inline void pfx##_set_release(pfx##_t *v, T i)			\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELEASE); }			\
static inline void pfx##_add(T i, pfx##_t *v)				\
{ __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline void pfx##_sub(T i, pfx##_t *v)				\
{ __atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline void pfx##_inc(pfx##_t *v)				\
{ __atomic_fetch_add(&v->counter, 1, __ATOMIC_RELAXED); }		\
static inline void pfx##_dec(pfx##_t *v)				\
{ __atomic_fetch_sub(&v->counter, 1, __ATOMIC_RELAXED); }		\
static inline void pfx##_and(T i, pfx##_t *v)				\
{ __atomic_fetch_and(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline void pfx##_or(T i, pfx##_t *v)				\
{ __atomic_fetch_or(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline void pfx##_xor(T i, pfx##_t *v)				\
{ __atomic_fetch_xor(&v->counter, i, __ATOMIC_RELAXED); }		\
__RHT_ATOMIC_RET_OPS(pfx, T, )						\
__RHT_ATOMIC_RET_OPS(pfx, T, _relaxed)					\
__RHT_ATOMIC_RET_OPS(pfx, T, _acquire)					\
__RHT_ATOMIC_RET_OPS(pfx, T, _release)					\
static inline bool pfx##_dec_and_test(pfx##_t *v)			\
{ return pfx##_dec_return(v) == 0; }					\
static inline bool pfx##_inc_and_test(pfx##_t *v)			\
{ return pfx##_inc_return(v) == 0; }					\
static inline bool pfx##_sub_and_test(T i, pfx##_t *v)			\
{ return pfx##_sub_return(i, v) == 0; }					\
static inline bool pfx##_add_negative(T i, pfx##_t *v)			\
{ return pfx##_add_return(i, v) < 0; }					\
static inline bool pfx##_add_unless(pfx##_t *v, T a, T u)		\
{									\
	T c = pfx##_read(v);						\
	do {								\
		if (c == u)						\
			return false;					\
	} while (!pfx##_try_cmpxchg(v, &c, c + a));			\
	return true;							\
}									\
static inline T pfx##_fetch_add_unless(pfx##_t *v, T a, T u)		\
{									\
	T c = pfx##_read(v);						\
	do {								\
		if (c == u)						\
			break;						\
	} while (!pfx##_try_cmpxchg(v, &c, c + a));			\
	return c;							\
}									\
static inline bool pfx##_inc_not_zero(pfx##_t *v)			\
{ return pfx##_add_unless(v, 1, 0); }					\
static inline T pfx##_dec_if_positive(pfx##_t *v)			\
{									\
	T c = pfx##_read(v), n;						\
	do {								\
		n = c - 1;						\
		if (n < 0)						\
			break;						\
	} while (!pfx##_try_cmpxchg(v, &c, n));				\
	return n;							\
}

__RHT_ATOMIC_OPS(atomic, int)
__RHT_ATOMIC_OPS(atomic_long, long)
__RHT_ATOMIC_OPS(atomic64, s64)

/* Plain-pointer cmpxchg()/xchg() family. */
#define __rht_cmpxchg(ptr, o, n, ord) ({				\
	__typeof__(*(ptr)) __c_o = (o);					\
	__typeof__(*(ptr)) __c_n = (n);					\
	__atomic_compare_exchange_n((ptr), &__c_o, __c_n, false,	\
				    ord, __ATOMIC_RELAXED);		\
	__c_o;								\
})
#define cmpxchg(ptr, o, n)	__rht_cmpxchg(ptr, o, n, __ATOMIC_SEQ_CST)
#define cmpxchg_relaxed(ptr, o, n) __rht_cmpxchg(ptr, o, n, __ATOMIC_RELAXED)
#define cmpxchg_acquire(ptr, o, n) __rht_cmpxchg(ptr, o, n, __ATOMIC_ACQUIRE)
#define cmpxchg_release(ptr, o, n) __rht_cmpxchg(ptr, o, n, __ATOMIC_RELEASE)
#define cmpxchg64(ptr, o, n)	cmpxchg(ptr, o, n)
#define cmpxchg_local(ptr, o, n) cmpxchg(ptr, o, n)

#define __rht_try_cmpxchg(ptr, po, n, ord) ({				\
	__typeof__(*(ptr)) __t_n = (n);					\
	__atomic_compare_exchange_n((ptr), (po), __t_n, false,		\
				    ord, __ATOMIC_RELAXED);		\
})
#define try_cmpxchg(ptr, po, n)	__rht_try_cmpxchg(ptr, po, n, __ATOMIC_SEQ_CST)
#define try_cmpxchg_relaxed(ptr, po, n) \
	__rht_try_cmpxchg(ptr, po, n, __ATOMIC_RELAXED)
#define try_cmpxchg_acquire(ptr, po, n) \
	__rht_try_cmpxchg(ptr, po, n, __ATOMIC_ACQUIRE)
#define try_cmpxchg_release(ptr, po, n) \
	__rht_try_cmpxchg(ptr, po, n, __ATOMIC_RELEASE)

#define xchg(ptr, v) ({							\
	__typeof__(*(ptr)) __x_v = (v);					\
	__atomic_exchange_n((ptr), __x_v, __ATOMIC_SEQ_CST);		\
})
#define xchg_relaxed(ptr, v) ({						\
	__typeof__(*(ptr)) __x_v = (v);					\
	__atomic_exchange_n((ptr), __x_v, __ATOMIC_RELAXED);		\
})

#endif /* _RHT_SHIM_LINUX_ATOMIC_H */
