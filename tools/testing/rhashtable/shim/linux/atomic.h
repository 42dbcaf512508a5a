/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomic_t, atomic_long_t, cmpxchg() and friends built on the compiler's
 * __atomic builtins.  tools/include's version covers only a
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

/* tools/include/linux/types.h defines atomic_t and atomic_long_t. */
#define ATOMIC_INIT(i)		{ (i) }
#define ATOMIC_LONG_INIT(i)	{ (i) }

#define __RHT_ORD_		__ATOMIC_SEQ_CST
#define __RHT_ORD__relaxed	__ATOMIC_RELAXED
#define __RHT_ORD__acquire	__ATOMIC_ACQUIRE
#define __RHT_ORD__release	__ATOMIC_RELEASE

/*
 * Generate one family of value-returning operations for one ordering.
 * The atomic type is spelled __typeof__(pfx##_t), that is pfx##_t:
 * checkpatch takes a pasted type name followed by '*' for a product.
 */
#define __RHT_ATOMIC_RET_OPS(pfx, type, sfx)				\
static inline type pfx##_add_return##sfx(type i,			\
					  __typeof__(pfx##_t) *v)	\
{ return __atomic_add_fetch(&v->counter, i, __RHT_ORD_##sfx); }		\
static inline type pfx##_sub_return##sfx(type i,			\
					  __typeof__(pfx##_t) *v)	\
{ return __atomic_sub_fetch(&v->counter, i, __RHT_ORD_##sfx); }		\
static inline type pfx##_inc_return##sfx(__typeof__(pfx##_t) *v)	\
{ return __atomic_add_fetch(&v->counter, 1, __RHT_ORD_##sfx); }		\
static inline type pfx##_dec_return##sfx(__typeof__(pfx##_t) *v)	\
{ return __atomic_sub_fetch(&v->counter, 1, __RHT_ORD_##sfx); }		\
static inline type pfx##_fetch_add##sfx(type i, __typeof__(pfx##_t) *v)	\
{ return __atomic_fetch_add(&v->counter, i, __RHT_ORD_##sfx); }		\
static inline type pfx##_fetch_sub##sfx(type i, __typeof__(pfx##_t) *v)	\
{ return __atomic_fetch_sub(&v->counter, i, __RHT_ORD_##sfx); }		\
static inline type pfx##_fetch_inc##sfx(__typeof__(pfx##_t) *v)		\
{ return __atomic_fetch_add(&v->counter, 1, __RHT_ORD_##sfx); }		\
static inline type pfx##_fetch_dec##sfx(__typeof__(pfx##_t) *v)		\
{ return __atomic_fetch_sub(&v->counter, 1, __RHT_ORD_##sfx); }		\
static inline type pfx##_fetch_and##sfx(type i, __typeof__(pfx##_t) *v)	\
{ return __atomic_fetch_and(&v->counter, i, __RHT_ORD_##sfx); }		\
static inline type pfx##_fetch_or##sfx(type i, __typeof__(pfx##_t) *v)	\
{ return __atomic_fetch_or(&v->counter, i, __RHT_ORD_##sfx); }		\
static inline type pfx##_fetch_xor##sfx(type i, __typeof__(pfx##_t) *v)	\
{ return __atomic_fetch_xor(&v->counter, i, __RHT_ORD_##sfx); }		\
static inline type pfx##_xchg##sfx(__typeof__(pfx##_t) *v, type n)	\
{ return __atomic_exchange_n(&v->counter, n, __RHT_ORD_##sfx); }	\
static inline type pfx##_cmpxchg##sfx(__typeof__(pfx##_t) *v,		\
				       type o, type n)			\
{									\
	__atomic_compare_exchange_n(&v->counter, &o, n, false,		\
				    __RHT_ORD_##sfx, __ATOMIC_RELAXED);	\
	return o;							\
}									\
static inline bool pfx##_try_cmpxchg##sfx(__typeof__(pfx##_t) *v,	\
					   type *o, type n)		\
{									\
	return __atomic_compare_exchange_n(&v->counter, o, n, false,	\
					   __RHT_ORD_##sfx,		\
					   __ATOMIC_RELAXED);		\
}

/* The rest; needs the value-returning operations of all orderings. */
#define __RHT_ATOMIC_OPS(pfx, type)					\
static inline type pfx##_read(const __typeof__(pfx##_t) *v)		\
{ return __atomic_load_n(&v->counter, __ATOMIC_RELAXED); }		\
static inline type pfx##_read_acquire(const __typeof__(pfx##_t) *v)	\
{ return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE); }		\
static inline void pfx##_set(__typeof__(pfx##_t) *v, type i)		\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); }			\
static inline void pfx##_set_release(__typeof__(pfx##_t) *v, type i)	\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELEASE); }			\
static inline void pfx##_add(type i, __typeof__(pfx##_t) *v)		\
{ __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline void pfx##_sub(type i, __typeof__(pfx##_t) *v)		\
{ __atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline void pfx##_inc(__typeof__(pfx##_t) *v)			\
{ __atomic_fetch_add(&v->counter, 1, __ATOMIC_RELAXED); }		\
static inline void pfx##_dec(__typeof__(pfx##_t) *v)			\
{ __atomic_fetch_sub(&v->counter, 1, __ATOMIC_RELAXED); }		\
static inline void pfx##_and(type i, __typeof__(pfx##_t) *v)		\
{ __atomic_fetch_and(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline void pfx##_or(type i, __typeof__(pfx##_t) *v)		\
{ __atomic_fetch_or(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline void pfx##_xor(type i, __typeof__(pfx##_t) *v)		\
{ __atomic_fetch_xor(&v->counter, i, __ATOMIC_RELAXED); }		\
static inline bool pfx##_dec_and_test(__typeof__(pfx##_t) *v)		\
{ return pfx##_dec_return(v) == 0; }					\
static inline bool pfx##_inc_and_test(__typeof__(pfx##_t) *v)		\
{ return pfx##_inc_return(v) == 0; }					\
static inline bool pfx##_sub_and_test(type i, __typeof__(pfx##_t) *v)	\
{ return pfx##_sub_return(i, v) == 0; }					\
static inline bool pfx##_add_negative(type i, __typeof__(pfx##_t) *v)	\
{ return pfx##_add_return(i, v) < 0; }					\
static inline bool pfx##_add_unless(__typeof__(pfx##_t) *v,		\
				      type a, type u)			\
{									\
	type c = pfx##_read(v);						\
	do {								\
		if (c == u)						\
			return false;					\
	} while (!pfx##_try_cmpxchg(v, &c, c + a));			\
	return true;							\
}									\
static inline type pfx##_fetch_add_unless(__typeof__(pfx##_t) *v,	\
					   type a, type u)		\
{									\
	type c = pfx##_read(v);						\
	do {								\
		if (c == u)						\
			break;						\
	} while (!pfx##_try_cmpxchg(v, &c, c + a));			\
	return c;							\
}									\
static inline bool pfx##_inc_not_zero(__typeof__(pfx##_t) *v)		\
{ return pfx##_add_unless(v, 1, 0); }					\
static inline type pfx##_dec_if_positive(__typeof__(pfx##_t) *v)	\
{									\
	type c = pfx##_read(v), n;					\
	do {								\
		n = c - 1;						\
		if (n < 0)						\
			break;						\
	} while (!pfx##_try_cmpxchg(v, &c, n));				\
	return n;							\
}

__RHT_ATOMIC_RET_OPS(atomic, int, /* fully ordered */)
__RHT_ATOMIC_RET_OPS(atomic, int, _relaxed)
__RHT_ATOMIC_RET_OPS(atomic, int, _acquire)
__RHT_ATOMIC_RET_OPS(atomic, int, _release)
__RHT_ATOMIC_OPS(atomic, int)

__RHT_ATOMIC_RET_OPS(atomic_long, long, /* fully ordered */)
__RHT_ATOMIC_RET_OPS(atomic_long, long, _relaxed)
__RHT_ATOMIC_RET_OPS(atomic_long, long, _acquire)
__RHT_ATOMIC_RET_OPS(atomic_long, long, _release)
__RHT_ATOMIC_OPS(atomic_long, long)

/* Plain-pointer cmpxchg()/xchg() family. */
#define __rht_cmpxchg(ptr, o, n, ord) ({				\
	__auto_type __c_p = (ptr);					\
	__typeof__(*__c_p) __c_o = (o);					\
	__typeof__(*__c_p) __c_n = (n);					\
									\
	__atomic_compare_exchange_n(__c_p, &__c_o, __c_n, false,	\
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
	__auto_type __t_p = (ptr);					\
	__typeof__(*__t_p) __t_n = (n);					\
									\
	__atomic_compare_exchange_n(__t_p, (po), __t_n, false,		\
				    ord, __ATOMIC_RELAXED);		\
})
#define try_cmpxchg(ptr, po, n)	__rht_try_cmpxchg(ptr, po, n, __ATOMIC_SEQ_CST)
#define try_cmpxchg_relaxed(ptr, po, n)					\
	__rht_try_cmpxchg(ptr, po, n, __ATOMIC_RELAXED)
#define try_cmpxchg_acquire(ptr, po, n)					\
	__rht_try_cmpxchg(ptr, po, n, __ATOMIC_ACQUIRE)
#define try_cmpxchg_release(ptr, po, n)					\
	__rht_try_cmpxchg(ptr, po, n, __ATOMIC_RELEASE)

#define __rht_xchg(ptr, v, ord) ({					\
	__auto_type __x_p = (ptr);					\
	__typeof__(*__x_p) __x_v = (v);					\
									\
	__atomic_exchange_n(__x_p, __x_v, ord);				\
})
#define xchg(ptr, v)		__rht_xchg(ptr, v, __ATOMIC_SEQ_CST)
#define xchg_relaxed(ptr, v)	__rht_xchg(ptr, v, __ATOMIC_RELAXED)

#endif /* _RHT_SHIM_LINUX_ATOMIC_H */
