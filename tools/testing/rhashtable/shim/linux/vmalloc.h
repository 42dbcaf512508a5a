/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Not in tools/include: the vmalloc family on the shim allocator, so
 * that its failures can be injected like kmalloc's.
 */
#ifndef _RHT_SHIM_LINUX_VMALLOC_H
#define _RHT_SHIM_LINUX_VMALLOC_H

#include <linux/slab.h>

#define vmalloc(s)		kvmalloc((s), GFP_KERNEL)
#define vzalloc(s)		kvzalloc((s), GFP_KERNEL)
#define vmalloc_array(n, s)	kvmalloc_array((n), (s), GFP_KERNEL)
#define vcalloc(n, s)		kvcalloc((n), (s), GFP_KERNEL)
#define __vmalloc(s, g)		kvmalloc((s), (g))
#define vfree(p)		kvfree(p)

/* There are no NUMA nodes. */
static inline void *vmalloc_node(unsigned long size, int node)
{
	return vmalloc(size);
}

static inline void *vzalloc_node(unsigned long size, int node)
{
	return vzalloc(size);
}

static inline bool is_vmalloc_addr(const void *p)
{
	return false;
}

#endif /* _RHT_SHIM_LINUX_VMALLOC_H */
