/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmalloc()/kvmalloc() families on top of malloc, with allocation-failure
 * injection (rht_fail_nth / rht_fail_ppm in rht_shim.h) and live-object
 * accounting.  Every allocator has its _noprof twin, as in 6.10+.
 */
#ifndef _RHT_SHIM_LINUX_SLAB_H
#define _RHT_SHIM_LINUX_SLAB_H

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/gfp.h>
#include <linux/overflow.h>
#include <linux/alloc_tag.h>
#include <linux/sched.h>
#include <linux/numa.h>
#include "../rht_shim.h"

void *rht_shim_alloc(size_t size, gfp_t gfp, size_t align);
void rht_shim_free(const void *p);
void *rht_shim_realloc(const void *p, size_t size, gfp_t gfp);
size_t rht_shim_ksize(const void *p);

#define ZERO_SIZE_PTR		((void *)16)
#define ZERO_OR_NULL_PTR(x)	((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)
#define ARCH_KMALLOC_MINALIGN	8
#define KMALLOC_MAX_SIZE	BIT(30)

#define SLAB_HWCACHE_ALIGN	0x00002000U
#define SLAB_PANIC		0x00040000U
#define SLAB_ACCOUNT		0x04000000U
#define SLAB_RECLAIM_ACCOUNT	0x00020000U
#define SLAB_TYPESAFE_BY_RCU	0x00080000U

static inline void *__rht_array_alloc(size_t n, size_t size, gfp_t gfp)
{
	size_t bytes;

	if (check_mul_overflow(n, size, &bytes))
		return NULL;
	return rht_shim_alloc(bytes, gfp, 0);
}

#define kmalloc_noprof(s, g)		rht_shim_alloc((s), (g), 0)
#define kmalloc_node_noprof(s, g, ...)	kmalloc_noprof(s, g)
#define kzalloc_noprof(s, g)		kmalloc_noprof(s, (g) | __GFP_ZERO)
#define kzalloc_node_noprof(s, g, ...)	kzalloc_noprof(s, g)
#define kmalloc_array_noprof(n, s, g)	__rht_array_alloc((n), (s), (g))
#define kmalloc_array_node_noprof(n, s, g, ...) kmalloc_array_noprof(n, s, g)
#define kcalloc_noprof(n, s, g)		kmalloc_array_noprof(n, s, (g) | __GFP_ZERO)
#define kcalloc_node_noprof(n, s, g, ...) kcalloc_noprof(n, s, g)
#define kvmalloc_noprof(s, g)		rht_shim_alloc((s), (g), 0)
#define kvmalloc_node_noprof(s, g, ...)	kvmalloc_noprof(s, g)
#define __kvmalloc_node_noprof(s, g, ...) kvmalloc_noprof(s, g)
#define kvzalloc_noprof(s, g)		kvmalloc_noprof(s, (g) | __GFP_ZERO)
#define kvzalloc_node_noprof(s, g, ...)	kvzalloc_noprof(s, g)
#define kvmalloc_array_noprof(n, s, g)	__rht_array_alloc((n), (s), (g))
#define kvmalloc_array_node_noprof(n, s, g, ...) kvmalloc_array_noprof(n, s, g)
#define kvcalloc_noprof(n, s, g)	kvmalloc_array_noprof(n, s, (g) | __GFP_ZERO)
#define kvcalloc_node_noprof(n, s, g, ...) kvcalloc_noprof(n, s, g)
#define krealloc_noprof(p, s, g)	rht_shim_realloc((p), (s), (g))
#define kvrealloc_noprof(p, s, g)	rht_shim_realloc((p), (s), (g))

#define kmalloc(...)		alloc_hooks(kmalloc_noprof(__VA_ARGS__))
#define kmalloc_node(...)	alloc_hooks(kmalloc_node_noprof(__VA_ARGS__))
#define kzalloc(...)		alloc_hooks(kzalloc_noprof(__VA_ARGS__))
#define kzalloc_node(...)	alloc_hooks(kzalloc_node_noprof(__VA_ARGS__))
#define kmalloc_array(...)	alloc_hooks(kmalloc_array_noprof(__VA_ARGS__))
#define kmalloc_array_node(...)	alloc_hooks(kmalloc_array_node_noprof(__VA_ARGS__))
#define kcalloc(...)		alloc_hooks(kcalloc_noprof(__VA_ARGS__))
#define kcalloc_node(...)	alloc_hooks(kcalloc_node_noprof(__VA_ARGS__))
#define kvmalloc(...)		alloc_hooks(kvmalloc_noprof(__VA_ARGS__))
#define kvmalloc_node(...)	alloc_hooks(kvmalloc_node_noprof(__VA_ARGS__))
#define kvzalloc(...)		alloc_hooks(kvzalloc_noprof(__VA_ARGS__))
#define kvzalloc_node(...)	alloc_hooks(kvzalloc_node_noprof(__VA_ARGS__))
#define kvmalloc_array(...)	alloc_hooks(kvmalloc_array_noprof(__VA_ARGS__))
#define kvcalloc(...)		alloc_hooks(kvcalloc_noprof(__VA_ARGS__))
#define krealloc(...)		alloc_hooks(krealloc_noprof(__VA_ARGS__))
#define kvrealloc(...)		alloc_hooks(kvrealloc_noprof(__VA_ARGS__))

#define kfree(p)		rht_shim_free(p)
#define kvfree(p)		rht_shim_free(p)
#define kfree_sensitive(p)	rht_shim_free(p)
#define kvfree_sensitive(p, ...)	rht_shim_free(p)
#define ksize(p)		rht_shim_ksize(p)
#define kmalloc_size_roundup(s)	(s)

static inline void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p = rht_shim_alloc(len, gfp, 0);

	if (p)
		__builtin_memcpy(p, src, len);
	return p;
}

/* kmem_cache: a size/align/ctor record in front of rht_shim_alloc(). */
struct kmem_cache {
	const char *name;
	unsigned int size;
	unsigned int align;
	void (*ctor)(void *obj);
};

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, unsigned long flags,
				     void (*ctor)(void *));
void kmem_cache_destroy(struct kmem_cache *s);
void *kmem_cache_alloc_noprof(struct kmem_cache *s, gfp_t gfp);
void kmem_cache_free(struct kmem_cache *s, void *obj);
#define kmem_cache_alloc(...)	alloc_hooks(kmem_cache_alloc_noprof(__VA_ARGS__))
#define kmem_cache_zalloc(s, g)	kmem_cache_alloc((s), (g) | __GFP_ZERO)
#define kmem_cache_alloc_node(s, g, ...)	kmem_cache_alloc(s, g)

#endif /* _RHT_SHIM_LINUX_SLAB_H */
