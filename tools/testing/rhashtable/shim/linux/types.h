/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/include/linux/types.h plus struct rcu_head, which the kernel
 * declares here too (as struct callback_head) so that any structure can
 * embed one without including rcupdate.h.
 */
#ifndef _RHT_SHIM_LINUX_TYPES_H
#define _RHT_SHIM_LINUX_TYPES_H

#include_next <linux/types.h>

/* Same layout as liburcu's struct rcu_head; checked in rcupdate.h. */
struct rht_urcu_node_compat {
	struct rht_urcu_node_compat *next;
};

struct callback_head {
	struct {
		struct rht_urcu_node_compat next;
		void (*func)(void *head);
	} urcu;				/* handed to liburcu's call_rcu() */
	void (*func)(struct callback_head *head);
	unsigned long gp_id;		/* grace period that will cover it */
};

#define rcu_head callback_head
typedef void (*rcu_callback_t)(struct callback_head *head);

#endif /* _RHT_SHIM_LINUX_TYPES_H */
