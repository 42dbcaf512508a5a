/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RHT_SHIM_LINUX_MM_H
#define _RHT_SHIM_LINUX_MM_H

#include <linux/types.h>
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#ifndef PAGE_SHIFT
#define PAGE_SHIFT	12
#endif
#ifndef PAGE_SIZE
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
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
#define get_order(n)							\
	((n) <= PAGE_SIZE ? 0 : (int)ilog2(roundup_pow_of_two(n) >> PAGE_SHIFT))

#endif /* _RHT_SHIM_LINUX_MM_H */
