/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Not in tools/include: current, might_sleep(), cond_resched() and the
 * context checks behind them.
 */
#ifndef _RHT_SHIM_LINUX_SCHED_H
#define _RHT_SHIM_LINUX_SCHED_H

#include <sched.h>
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include <linux/bottom_half.h>
#include "../rht_shim.h"

struct alloc_tag;
struct task_struct {
	int pid;
	struct alloc_tag *alloc_tag;
};

struct task_struct *rht_shim_current(void);
#define current			(rht_shim_current())

#ifdef RHT_SHIM_DEBUG
#define might_sleep()	rht_shim_check_sleep(__FILE__, __LINE__, "might_sleep()")
#else
#define might_sleep()	do { } while (0)
#endif
#define might_sleep_if(cond)	do { if (cond) might_sleep(); } while (0)
#define might_resched()		do { } while (0)
#define cant_sleep()		WARN_ON_ONCE(!rht_in_atomic())
#define cant_migrate()		do { } while (0)

void rht_shim_cond_resched(void);
#define cond_resched()		({ might_sleep(); rht_shim_cond_resched(); 0; })
#define cond_resched_rcu()	do { } while (0)
#define schedule()		sched_yield()
#define need_resched()		0

static inline void __might_sleep(const char *file, int line)
{
}

/* Nothing sends signals to a task. */
static inline int signal_pending(struct task_struct *p)
{
	return 0;
}

static inline int fatal_signal_pending(struct task_struct *p)
{
	return 0;
}

#define TASK_RUNNING		0
#define TASK_INTERRUPTIBLE	1
#define TASK_UNINTERRUPTIBLE	2

#endif /* _RHT_SHIM_LINUX_SCHED_H */
