/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Not in tools/include.  preempt_disable()/enable(), counted per thread
 * under RHT_SHIM_DEBUG so that sleeping in atomic context is caught.
 */
#ifndef _RHT_SHIM_LINUX_PREEMPT_H
#define _RHT_SHIM_LINUX_PREEMPT_H

#include <linux/compiler.h>
#include "../rht_shim.h"

#ifdef RHT_SHIM_DEBUG
#define preempt_disable()	do { rht_ctx.preempt++; barrier(); } while (0)
#define preempt_enable()						\
do {									\
	barrier();							\
	rht_bug_on(--rht_ctx.preempt < 0);				\
} while (0)
#define preempt_count()		(rht_ctx.preempt)
#else
#define preempt_disable()	barrier()
#define preempt_enable()	barrier()
#define preempt_count()		0
#endif
#define preempt_disable_notrace()	preempt_disable()
#define preempt_enable_notrace()	preempt_enable()
#define preempt_enable_no_resched()	preempt_enable()
#define migrate_disable()	preempt_disable()
#define migrate_enable()	preempt_enable()

#define in_interrupt()		0
#define in_irq()		0
#define in_hardirq()		0
#define in_nmi()		0
#define in_task()		1
/* rht_in_atomic() is the kernel's in_atomic(): must the caller not sleep? */
#ifdef RHT_SHIM_DEBUG
#define in_softirq()		(rht_ctx.bh > 0)
#define rht_in_atomic()							\
	(rht_ctx.preempt > 0 || rht_ctx.bh > 0 || rht_ctx.irq_off)
#else
#define in_softirq()		0
#define rht_in_atomic()		0
#endif
#define in_atomic		rht_in_atomic
#define preemptible()		(!rht_in_atomic())

#endif /* _RHT_SHIM_LINUX_PREEMPT_H */
