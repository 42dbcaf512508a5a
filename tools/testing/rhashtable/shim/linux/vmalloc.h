/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RHT_SHIM_LINUX_VMALLOC_H
#define _RHT_SHIM_LINUX_VMALLOC_H

#include <linux/slab.h>

#define vmalloc(s)		kvmalloc((s), GFP_KERNEL)
#define vzalloc(s)		kvzalloc((s), GFP_KERNEL)
#define vmalloc_node(s, n)	vmalloc(s)
#define vzalloc_node(s, n)	vzalloc(s)
#define vmalloc_array(n, s)	kvmalloc_array((n), (s), GFP_KERNEL)
#define vcalloc(n, s)		kvcalloc((n), (s), GFP_KERNEL)
#define __vmalloc(s, g)		kvmalloc((s), (g))
#define vfree(p)		kvfree(p)
#define is_vmalloc_addr(p)	false

#endif /* _RHT_SHIM_LINUX_VMALLOC_H */
