/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Not in tools/include: struct work_struct and friends, run by the
 * workqueue threads of shim.c (or by hand in the fuzzer's manual mode).
 */
#ifndef _RHT_SHIM_LINUX_WORKQUEUE_TYPES_H
#define _RHT_SHIM_LINUX_WORKQUEUE_TYPES_H

#include <linux/types.h>

struct work_struct;
struct workqueue_struct;
typedef void (*work_func_t)(struct work_struct *work);

/*
 * State is protected by the owning workqueue's mutex; 'pending' and
 * 'wq' are also read locklessly by work_pending() (relaxed atomics).
 */
struct work_struct {
	struct list_head entry;		/* on wq->pending when queued */
	work_func_t func;
	struct workqueue_struct *wq;	/* last queue it was put on */
	unsigned long expires;		/* delayed work: due time, ms */
	int pending;
	int rcu_phase;			/* rcu_work waiting for its GP */
};

#endif /* _RHT_SHIM_LINUX_WORKQUEUE_TYPES_H */
