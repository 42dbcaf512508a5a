/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Not in tools/include.  local_bh_disable()/enable(), counted per thread
 * under RHT_SHIM_DEBUG so that the sleep checks see softirq context.
 */
#ifndef _RHT_SHIM_LINUX_BOTTOM_HALF_H
#define _RHT_SHIM_LINUX_BOTTOM_HALF_H

#include <linux/compiler.h>
#include "../rht_shim.h"

#ifdef RHT_SHIM_DEBUG
#define local_bh_disable()	do { rht_ctx.bh++; barrier(); } while (0)
#define local_bh_enable()						\
do {									\
	barrier();							\
	rht_bug_on(--rht_ctx.bh < 0);					\
} while (0)
#else
#define local_bh_disable()	barrier()
#define local_bh_enable()	barrier()
#endif

#endif /* _RHT_SHIM_LINUX_BOTTOM_HALF_H */
