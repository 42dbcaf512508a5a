/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timers on one timer thread.  Callbacks run in "softirq" context (the
 * thread's bottom-half count is raised, so sleeping in one is caught by
 * RHT_SHIM_DEBUG).  In manual mode (rht_wq_set_manual()) nothing fires
 * until rht_time_advance() moves the virtual clock past the expiry.
 */
#ifndef _RHT_SHIM_LINUX_TIMER_H
#define _RHT_SHIM_LINUX_TIMER_H

#include <time.h>	/* before the macros below rename timer_delete() */
#include <linux/types.h>
#include <linux/list.h>
#include <linux/jiffies.h>
#include <linux/timer_types.h>

#define TIMER_DEFERRABLE	0x00080000
#define TIMER_PINNED		0x00100000
#define TIMER_IRQSAFE		0x00200000

void timer_setup(struct timer_list *timer,
		 void (*func)(struct timer_list *), unsigned int flags);
#define timer_setup_on_stack(t, f, fl)	timer_setup(t, f, fl)
#define from_timer(var, callback_timer, field)				\
	container_of(callback_timer, __typeof__(*(var)), field)
#define timer_container_of(var, callback_timer, field)			\
	from_timer(var, callback_timer, field)

int mod_timer(struct timer_list *timer, unsigned long expires);
int mod_timer_pending(struct timer_list *timer, unsigned long expires);
int timer_reduce(struct timer_list *timer, unsigned long expires);
void add_timer(struct timer_list *timer);
/* POSIX owns timer_delete(); the kernel names map onto rht_*(). */
int rht_timer_delete(struct timer_list *timer, bool sync, bool shutdown);
#define timer_delete(t)		rht_timer_delete((t), false, false)
#define timer_delete_sync(t)	rht_timer_delete((t), true, false)
#define timer_shutdown(t)	rht_timer_delete((t), false, true)
#define timer_shutdown_sync(t)	rht_timer_delete((t), true, true)
#define del_timer(t)		timer_delete(t)
#define del_timer_sync(t)	timer_delete_sync(t)

static inline void destroy_timer_on_stack(struct timer_list *timer)
{
}

static inline void add_timer_on(struct timer_list *timer, int cpu)
{
	add_timer(timer);
}

static inline int timer_pending(const struct timer_list *timer)
{
	return __atomic_load_n(&timer->pending, __ATOMIC_RELAXED);
}

#endif /* _RHT_SHIM_LINUX_TIMER_H */
