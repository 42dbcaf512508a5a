/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RCU-safe list primitives: writers publish with rcu_assign_pointer(),
 * readers traverse with rcu_dereference().  Only the subset a hash table
 * is likely to need.
 */
#ifndef _RHT_SHIM_LINUX_RCULIST_H
#define _RHT_SHIM_LINUX_RCULIST_H

#include <linux/list.h>
#include <linux/rcupdate.h>

#define list_next_rcu(list)	(*((struct list_head __rcu **)(&(list)->next)))

static inline void list_add_rcu(struct list_head *new, struct list_head *head)
{
	struct list_head *next = head->next;

	new->next = next;
	new->prev = head;
	rcu_assign_pointer(list_next_rcu(head), new);
	next->prev = new;
}

static inline void list_add_tail_rcu(struct list_head *new,
				     struct list_head *head)
{
	struct list_head *prev = head->prev;

	new->next = head;
	new->prev = prev;
	rcu_assign_pointer(list_next_rcu(prev), new);
	head->prev = new;
}

static inline void list_del_rcu(struct list_head *entry)
{
	struct list_head *next = entry->next, *prev = entry->prev;

	next->prev = prev;
	WRITE_ONCE(prev->next, next);
	/* Leave ->next intact for concurrent readers; poison ->prev only. */
	entry->prev = (struct list_head *)LIST_POISON2;
}

static inline void list_replace_rcu(struct list_head *old,
				    struct list_head *new)
{
	new->next = old->next;
	new->prev = old->prev;
	rcu_assign_pointer(list_next_rcu(new->prev), new);
	new->next->prev = new;
	old->prev = (struct list_head *)LIST_POISON2;
}

#define list_entry_rcu(ptr, type, member)				\
	container_of(rcu_dereference_raw(ptr), type, member)
#define list_first_or_null_rcu(head, type, member) ({			\
	struct list_head *__h = (head);					\
	struct list_head *__n = rcu_dereference_raw(__h->next);		\
	__n != __h ? container_of(__n, type, member) : NULL;		\
})

#define hlist_first_rcu(head)	(*((struct hlist_node __rcu **)(&(head)->first)))
#define hlist_next_rcu(node)	(*((struct hlist_node __rcu **)(&(node)->next)))

static inline void hlist_add_head_rcu(struct hlist_node *n,
				      struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	n->next = first;
	WRITE_ONCE(n->pprev, &h->first);
	rcu_assign_pointer(hlist_first_rcu(h), n);
	if (first)
		WRITE_ONCE(first->pprev, &n->next);
}

static inline void hlist_del_rcu(struct hlist_node *n)
{
	struct hlist_node *next = n->next;
	struct hlist_node **pprev = n->pprev;

	WRITE_ONCE(*pprev, next);
	if (next)
		WRITE_ONCE(next->pprev, pprev);
	WRITE_ONCE(n->pprev, (struct hlist_node **)LIST_POISON2);
}

#endif /* _RHT_SHIM_LINUX_RCULIST_H */
