/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/include/linux/kernel.h plus the few things it gets wrong for us:
 * it stubs synchronize_rcu() out and turns BUG_ON() into assert().
 */
#ifndef _RHT_SHIM_LINUX_KERNEL_H
#define _RHT_SHIM_LINUX_KERNEL_H

#include_next <linux/kernel.h>
#include <string.h>

#undef synchronize_rcu
#undef BUG_ON
#undef BUG

/*
 * tools/ still has the old strict min()/max() that reject operands of
 * different types; 6.12 accepts them when the comparison is safe (e.g.
 * unsigned int against unsigned short), and code written for 6.12 does
 * that.  These follow the usual arithmetic conversions instead.
 */
#undef min
#undef max
#undef clamp
#define min(x, y) ({							\
	__auto_type __mn_x = (x);					\
	__auto_type __mn_y = (y);					\
	__mn_x < __mn_y ? __mn_x : __mn_y;				\
})
#define max(x, y) ({							\
	__auto_type __mx_x = (x);					\
	__auto_type __mx_y = (y);					\
	__mx_x > __mx_y ? __mx_x : __mx_y;				\
})
#define clamp(val, lo, hi)	min(max(val, lo), hi)
#define min3(x, y, z)		min(min(x, y), z)
#define max3(x, y, z)		max(max(x, y), z)

#include <linux/bug.h>
#include <linux/printk.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/err.h>
#include <linux/sched.h>
#include <linux/align.h>

#ifndef clamp_t
#define clamp_t(type, val, lo, hi)	min_t(type, max_t(type, val, lo), hi)
#define clamp_val(val, lo, hi)		clamp_t(__typeof__(val), val, lo, hi)
#endif
#ifndef swap
#define swap(a, b)							\
do {									\
	__typeof__(a) *__sw_a = &(a), *__sw_b = &(b);			\
	__typeof__(a) __sw_tmp = *__sw_a;				\
									\
	*__sw_a = *__sw_b;						\
	*__sw_b = __sw_tmp;						\
} while (0)
#endif
#ifndef U32_MAX
#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define S32_MAX		((s32)(U32_MAX >> 1))
#define S64_MAX		((s64)(U64_MAX >> 1))
#endif
#ifndef SIZE_MAX
#define SIZE_MAX	(~(size_t)0)
#endif
#ifndef lower_32_bits
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))
#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))
#endif

#endif /* _RHT_SHIM_LINUX_KERNEL_H */
