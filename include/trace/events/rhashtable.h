/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the resizable hash table: one event when a resize starts,
 * one per unzip pass of a doubling, one when a resize is complete.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rhashtable

#if !defined(_TRACE_RHASHTABLE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_RHASHTABLE_H

#include <linux/rhashtable.h>
#include <linux/tracepoint.h>

/* How the new array is made from the old one (enum rht_kind). */
TRACE_DEFINE_ENUM(RHT_KIND_GROW);
TRACE_DEFINE_ENUM(RHT_KIND_SHRINK);
TRACE_DEFINE_ENUM(RHT_KIND_REHASH);

TRACE_EVENT(rhashtable_resize_start,
	    TP_PROTO(const struct rhashtable *ht, unsigned int old_size,
		     unsigned int new_size, int kind),
	    TP_ARGS(ht, old_size, new_size, kind),
	    TP_STRUCT__entry(__field(const void *, ht)
			     __field(unsigned int, old_size)
			     __field(unsigned int, new_size)
			     __field(int, kind)),
	    TP_fast_assign(__entry->ht = ht;
			   __entry->old_size = old_size;
			   __entry->new_size = new_size;
			   __entry->kind = kind),
	    TP_printk("ht=%p buckets %u -> %u by %s", __entry->ht,
		      __entry->old_size, __entry->new_size,
		      __print_symbolic(__entry->kind,
				       { RHT_KIND_GROW, "unzipping" },
				       { RHT_KIND_SHRINK, "zipping" },
				       { RHT_KIND_REHASH, "moving" }))
);

TRACE_EVENT(rhashtable_unzip_pass,
	    TP_PROTO(const struct rhashtable *ht, unsigned int size,
		     bool more),
	    TP_ARGS(ht, size, more),
	    TP_STRUCT__entry(__field(const void *, ht)
			     __field(unsigned int, size)
			     __field(bool, more)),
	    TP_fast_assign(__entry->ht = ht;
			   __entry->size = size;
			   __entry->more = more),
	    TP_printk("ht=%p buckets %u %s", __entry->ht, __entry->size,
		      __entry->more ? "more passes needed" : "chains apart")
);

TRACE_EVENT(rhashtable_resize_done,
	    TP_PROTO(const struct rhashtable *ht, unsigned int old_size,
		     unsigned int new_size),
	    TP_ARGS(ht, old_size, new_size),
	    TP_STRUCT__entry(__field(const void *, ht)
			     __field(unsigned int, old_size)
			     __field(unsigned int, new_size)),
	    TP_fast_assign(__entry->ht = ht;
			   __entry->old_size = old_size;
			   __entry->new_size = new_size),
	    TP_printk("ht=%p buckets %u -> %u done", __entry->ht,
		      __entry->old_size, __entry->new_size)
);

#endif /* _TRACE_RHASHTABLE_H */

#include <trace/define_trace.h>
