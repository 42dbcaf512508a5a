/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workqueues backed by one worker thread per workqueue (started lazily),
 * with the kernel's single-execution guarantees: a queued item is pending
 * at most once, cancel_work_sync() and flush_work() wait for a running
 * instance.  See rht_wq_set_manual() in rht_shim.h for the deterministic
 * mode used by the fuzzer.
 */
#ifndef _RHT_SHIM_LINUX_WORKQUEUE_H
#define _RHT_SHIM_LINUX_WORKQUEUE_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/workqueue_types.h>
#include <linux/rcupdate.h>
#include <linux/jiffies.h>
#include "../rht_shim.h"

struct delayed_work {
	struct work_struct work;
};

struct rcu_work {
	struct work_struct work;
	struct rcu_head rcu;
	struct workqueue_struct *wq;
};

#define __WORK_INITIALIZER(n, f) {					\
	.entry = LIST_HEAD_INIT((n).entry), .func = (f) }

void rht_init_work(struct work_struct *work, work_func_t func);
#define INIT_WORK(w, f)			rht_init_work((w), (f))
#define INIT_WORK_ONSTACK(w, f)		rht_init_work((w), (f))
#define INIT_DELAYED_WORK(dw, f)	rht_init_work(&(dw)->work, (f))
#define INIT_DEFERRABLE_WORK(dw, f)	rht_init_work(&(dw)->work, (f))
#define INIT_RCU_WORK(rw, f)		rht_init_work(&(rw)->work, (f))

static inline void destroy_work_on_stack(struct work_struct *work)
{
}

static inline void destroy_delayed_work_on_stack(struct delayed_work *dwork)
{
}

#define to_delayed_work(w)	container_of(w, struct delayed_work, work)
#define to_rcu_work(w)		container_of(w, struct rcu_work, work)

#define work_pending(w)		(__atomic_load_n(&(w)->pending, __ATOMIC_RELAXED) != 0)
#define delayed_work_pending(dw) work_pending(&(dw)->work)

/* Workqueue flags accepted (and ignored) by alloc_workqueue(). */
enum {
	WQ_BH			= 1 << 0,
	WQ_UNBOUND		= 1 << 1,
	WQ_FREEZABLE		= 1 << 2,
	WQ_MEM_RECLAIM		= 1 << 3,
	WQ_HIGHPRI		= 1 << 4,
	WQ_CPU_INTENSIVE	= 1 << 5,
	WQ_SYSFS		= 1 << 6,
	WQ_POWER_EFFICIENT	= 1 << 7,
	__WQ_ORDERED		= 1 << 17,
	WQ_MAX_ACTIVE		= 512,
};

extern struct workqueue_struct *system_wq;
extern struct workqueue_struct *system_highpri_wq;
extern struct workqueue_struct *system_long_wq;
extern struct workqueue_struct *system_unbound_wq;
extern struct workqueue_struct *system_freezable_wq;
extern struct workqueue_struct *system_power_efficient_wq;
extern struct workqueue_struct *system_freezable_power_efficient_wq;
extern struct workqueue_struct *system_bh_wq;

struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags,
					 int max_active, ...);
#define alloc_ordered_workqueue(fmt, flags, args...)			\
	alloc_workqueue(fmt, (flags) | __WQ_ORDERED, 1, ##args)
#define create_workqueue(name)		alloc_workqueue("%s", 0, 1, (name))
#define create_singlethread_workqueue(name) alloc_ordered_workqueue("%s", 0, (name))
void destroy_workqueue(struct workqueue_struct *wq);
void flush_workqueue(struct workqueue_struct *wq);
void drain_workqueue(struct workqueue_struct *wq);

bool queue_work_on(int cpu, struct workqueue_struct *wq,
		   struct work_struct *work);
bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
			   struct delayed_work *dwork, unsigned long delay);
bool mod_delayed_work_on(int cpu, struct workqueue_struct *wq,
			 struct delayed_work *dwork, unsigned long delay);
bool queue_rcu_work(struct workqueue_struct *wq, struct rcu_work *rwork);
bool cancel_work_sync(struct work_struct *work);
bool cancel_work(struct work_struct *work);
bool flush_work(struct work_struct *work);
bool flush_rcu_work(struct rcu_work *rwork);

#define WORK_CPU_UNBOUND	64
#define queue_work(wq, w)	queue_work_on(WORK_CPU_UNBOUND, (wq), (w))
#define queue_delayed_work(wq, dw, d)					\
	queue_delayed_work_on(WORK_CPU_UNBOUND, (wq), (dw), (d))
#define mod_delayed_work(wq, dw, d)					\
	mod_delayed_work_on(WORK_CPU_UNBOUND, (wq), (dw), (d))
#define schedule_work(w)	queue_work(system_wq, (w))
#define schedule_work_on(c, w)	queue_work_on((c), system_wq, (w))
#define schedule_delayed_work(dw, d) queue_delayed_work(system_wq, (dw), (d))
#define cancel_delayed_work(dw)		cancel_work(&(dw)->work)
#define cancel_delayed_work_sync(dw)	cancel_work_sync(&(dw)->work)
#define flush_delayed_work(dw)		flush_work(&(dw)->work)
#define disable_work_sync(w)		cancel_work_sync(w)
#define flush_scheduled_work()		flush_workqueue(system_wq)

#endif /* _RHT_SHIM_LINUX_WORKQUEUE_H */
