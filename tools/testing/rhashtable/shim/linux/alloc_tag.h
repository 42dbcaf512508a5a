/* SPDX-License-Identifier: GPL-2.0 */
/* Memory allocation profiling is compiled out (!CONFIG_MEM_ALLOC_PROFILING). */
#ifndef _RHT_SHIM_LINUX_ALLOC_TAG_H
#define _RHT_SHIM_LINUX_ALLOC_TAG_H

struct alloc_tag {
	int __unused;
};

#define DEFINE_ALLOC_TAG(...)
#define alloc_hooks(_do_alloc)			(_do_alloc)
/*
 * The tag names a field that only exists with allocation profiling: it is
 * stringified, never evaluated.
 */
#define alloc_hooks_tag(_tag, _do_alloc)	((void)#_tag, (_do_alloc))
#define alloc_tag_record(...)			do { } while (0)
#define mem_alloc_profiling_enabled()		false

#endif /* _RHT_SHIM_LINUX_ALLOC_TAG_H */
