/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/include's mm.h has the page macros but not the allocator
 * declarations the table expects from <linux/mm.h> (kvmalloc, gfp).
 */
#ifndef _RHT_SHIM_LINUX_MM_H
#define _RHT_SHIM_LINUX_MM_H

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/log2.h>
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#ifndef PAGE_SHIFT
#define PAGE_SHIFT	12
#endif
#ifndef PAGE_SIZE
#define PAGE_SIZE	BIT(PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#endif
#ifndef PAGE_ALIGN
#define PAGE_ALIGN(x)	(((x) + PAGE_SIZE - 1) & PAGE_MASK)
#endif

/* Page-allocator lookalikes: page-aligned, counted, failure-injected. */
#define __get_free_pages_noprof(g, order)				\
	((unsigned long)rht_shim_alloc(PAGE_SIZE << (order), (g), PAGE_SIZE))
#define __get_free_pages(g, order)	__get_free_pages_noprof(g, order)
#define __get_free_page(g)		__get_free_pages((g), 0)
#define get_zeroed_page_noprof(g)	__get_free_pages((g) | __GFP_ZERO, 0)
#define get_zeroed_page(g)		get_zeroed_page_noprof(g)
#define free_pages(addr, order)						\
	do { (void)(order); rht_shim_free((void *)(addr)); } while (0)
#define free_page(addr)			free_pages((addr), 0)

static inline int get_order(unsigned long size)
{
	if (size <= PAGE_SIZE)
		return 0;
	return (int)ilog2(roundup_pow_of_two(size) >> PAGE_SHIFT);
}

#endif /* _RHT_SHIM_LINUX_MM_H */
