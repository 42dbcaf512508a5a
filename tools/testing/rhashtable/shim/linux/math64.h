/* SPDX-License-Identifier: GPL-2.0 */
/* tools/include's math64.h lacks div_u64(); a 64-bit host just divides. */
#ifndef _RHT_SHIM_LINUX_MATH64_H
#define _RHT_SHIM_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

#endif
