/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/include's bitmap.h plus bitmap_alloc()/bitmap_free(), which it
 * lacks, on the shim allocator so that their failures can be injected.
 */
#ifndef _RHT_SHIM_LINUX_BITMAP_H
#define _RHT_SHIM_LINUX_BITMAP_H

#include_next <linux/bitmap.h>
#include <linux/slab.h>

/* The kernel's signatures, on the shim allocator (failures injectable). */
static inline unsigned long *rht_shim_bitmap_alloc(unsigned int nbits,
						   gfp_t gfp)
{
	return rht_shim_alloc(BITS_TO_LONGS(nbits) * sizeof(unsigned long),
			      gfp, 0);
}

#define bitmap_alloc(nbits, gfp)	rht_shim_bitmap_alloc(nbits, gfp)
#define bitmap_free(p)			rht_shim_free(p)

#endif /* _RHT_SHIM_LINUX_BITMAP_H */
