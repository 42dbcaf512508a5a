/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Not in tools/include: struct timer_list, run by the timer thread of
 * shim.c (or by hand in the fuzzer's manual mode).
 */
#ifndef _RHT_SHIM_LINUX_TIMER_TYPES_H
#define _RHT_SHIM_LINUX_TIMER_TYPES_H

#include <linux/types.h>

/* Fields are owned by the timer code in shim.c (under its lock). */
struct timer_list {
	struct list_head entry;		/* on the armed list */
	unsigned long expires;
	void (*function)(struct timer_list *timer);
	u32 flags;
	int pending;			/* armed; read locklessly */
	int shutdown;			/* timer_shutdown*(): ignore re-arming */
};

#endif /* _RHT_SHIM_LINUX_TIMER_TYPES_H */
