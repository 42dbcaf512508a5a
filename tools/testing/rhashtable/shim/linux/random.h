/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fast per-thread pseudo-random numbers.  The sequence of every thread is
 * derived from one global seed (rht_random_seed()), which makes fuzzer
 * runs reproducible.  Not cryptographic, like nothing here needs to be.
 */
#ifndef _RHT_SHIM_LINUX_RANDOM_H
#define _RHT_SHIM_LINUX_RANDOM_H

#include <linux/types.h>
#include "../rht_shim.h"

u64 rht_random_u64(void);

static inline u32 get_random_u32(void)
{
	return (u32)(rht_random_u64() >> 32);
}

static inline u64 get_random_u64(void)
{
	return rht_random_u64();
}

static inline unsigned long get_random_long(void)
{
	return (unsigned long)rht_random_u64();
}

static inline u8 get_random_u8(void)
{
	return (u8)(rht_random_u64() >> 56);
}

static inline u16 get_random_u16(void)
{
	return (u16)(rht_random_u64() >> 48);
}

/* Uniform in [0, ceil) by 32x32->64 multiply (tiny bias is irrelevant). */
static inline u32 get_random_u32_below(u32 ceil)
{
	return (u32)(((u64)get_random_u32() * ceil) >> 32);
}

static inline u32 get_random_u32_inclusive(u32 floor, u32 ceil)
{
	return floor + get_random_u32_below(ceil - floor + 1);
}

static inline void get_random_bytes(void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len) {
		u64 r = rht_random_u64();
		size_t n = len < sizeof(r) ? len : sizeof(r);

		__builtin_memcpy(p, &r, n);
		p += n;
		len -= n;
	}
}

#define prandom_u32_max(c)	get_random_u32_below(c)

#endif /* _RHT_SHIM_LINUX_RANDOM_H */
