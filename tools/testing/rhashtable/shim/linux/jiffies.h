/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Jiffies are milliseconds of CLOCK_MONOTONIC here (HZ=1000), or, in the
 * fuzzer's manual mode (rht_wq_set_manual()), a virtual clock that only
 * moves when rht_time_advance() is called.
 */
#ifndef _RHT_SHIM_LINUX_JIFFIES_H
#define _RHT_SHIM_LINUX_JIFFIES_H

#include <linux/types.h>

#define HZ			1000
#define MAX_JIFFY_OFFSET	((LONG_MAX >> 1) - 1)

unsigned long rht_jiffies(void);
#define jiffies			(rht_jiffies())
#define get_jiffies_64()	((u64)rht_jiffies())

#define msecs_to_jiffies(m)	((unsigned long)(m))
#define jiffies_to_msecs(j)	((unsigned int)(j))
#define usecs_to_jiffies(u)	((unsigned long)(((u) + 999) / 1000))
#define jiffies_to_usecs(j)	((unsigned int)(j) * 1000)
#define nsecs_to_jiffies(n)	((unsigned long)((n) / 1000000))

#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)
#define time_is_before_jiffies(a)	time_after(jiffies, a)
#define time_is_after_jiffies(a)	time_before(jiffies, a)

static inline bool time_in_range(unsigned long a, unsigned long b,
				 unsigned long c)
{
	return time_after_eq(a, b) && time_before_eq(a, c);
}

#endif /* _RHT_SHIM_LINUX_JIFFIES_H */
