/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Really atomic bit operations.  tools/include aliases these to
 * non-atomic read-modify-write sequences, which is fine for single
 * threaded tools but not for a concurrent hash table.
 */
#ifndef _RHT_SHIM_ASM_GENERIC_BITOPS_ATOMIC_H
#define _RHT_SHIM_ASM_GENERIC_BITOPS_ATOMIC_H

#include <stdbool.h>
#include <asm/bitsperlong.h>

#define __RHT_BIT_WORD(nr)	((nr) / __BITS_PER_LONG)
#define __RHT_BIT_MASK(nr)	(1UL << ((nr) % __BITS_PER_LONG))

static inline void set_bit(long nr, unsigned long *addr)
{
	__atomic_fetch_or(&addr[__RHT_BIT_WORD(nr)], __RHT_BIT_MASK(nr),
			  __ATOMIC_RELAXED);
}

static inline void clear_bit(long nr, unsigned long *addr)
{
	__atomic_fetch_and(&addr[__RHT_BIT_WORD(nr)], ~__RHT_BIT_MASK(nr),
			   __ATOMIC_RELAXED);
}

static inline void change_bit(long nr, unsigned long *addr)
{
	__atomic_fetch_xor(&addr[__RHT_BIT_WORD(nr)], __RHT_BIT_MASK(nr),
			   __ATOMIC_RELAXED);
}

static inline bool test_and_set_bit(long nr, unsigned long *addr)
{
	return __atomic_fetch_or(&addr[__RHT_BIT_WORD(nr)],
				 __RHT_BIT_MASK(nr), __ATOMIC_SEQ_CST) &
	       __RHT_BIT_MASK(nr);
}

static inline bool test_and_clear_bit(long nr, unsigned long *addr)
{
	return __atomic_fetch_and(&addr[__RHT_BIT_WORD(nr)],
				  ~__RHT_BIT_MASK(nr), __ATOMIC_SEQ_CST) &
	       __RHT_BIT_MASK(nr);
}

static inline bool test_and_change_bit(long nr, unsigned long *addr)
{
	return __atomic_fetch_xor(&addr[__RHT_BIT_WORD(nr)],
				  __RHT_BIT_MASK(nr), __ATOMIC_SEQ_CST) &
	       __RHT_BIT_MASK(nr);
}

static inline bool test_and_set_bit_lock(long nr, unsigned long *addr)
{
	return __atomic_fetch_or(&addr[__RHT_BIT_WORD(nr)],
				 __RHT_BIT_MASK(nr), __ATOMIC_ACQUIRE) &
	       __RHT_BIT_MASK(nr);
}

static inline void clear_bit_unlock(long nr, unsigned long *addr)
{
	__atomic_fetch_and(&addr[__RHT_BIT_WORD(nr)], ~__RHT_BIT_MASK(nr),
			   __ATOMIC_RELEASE);
}

/* Kernel: non-atomic store-release; here atomic so racing RMWs stay sane. */
static inline void __clear_bit_unlock(long nr, unsigned long *addr)
{
	clear_bit_unlock(nr, addr);
}

static inline bool rht_test_bit_acquire(long nr, const unsigned long *addr)
{
	return __atomic_load_n(&addr[__RHT_BIT_WORD(nr)], __ATOMIC_ACQUIRE) &
	       __RHT_BIT_MASK(nr);
}

static inline bool rht_test_bit_relaxed(long nr, const unsigned long *addr)
{
	return __atomic_load_n(&addr[__RHT_BIT_WORD(nr)], __ATOMIC_RELAXED) &
	       __RHT_BIT_MASK(nr);
}

#define test_bit_acquire(nr, addr)	rht_test_bit_acquire(nr, addr)

#endif /* _RHT_SHIM_ASM_GENERIC_BITOPS_ATOMIC_H */
