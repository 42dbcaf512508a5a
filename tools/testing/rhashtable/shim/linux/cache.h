/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/include's cache.h has only the line size (and says 32 bytes);
 * the table's structures need ____cacheline_aligned and friends too.
 */
#ifndef _RHT_SHIM_LINUX_CACHE_H
#define _RHT_SHIM_LINUX_CACHE_H

#define L1_CACHE_SHIFT		6
#define L1_CACHE_BYTES		64	/* 1 << L1_CACHE_SHIFT */
#define SMP_CACHE_BYTES		L1_CACHE_BYTES
#define cache_line_size()	L1_CACHE_BYTES
#define ____cacheline_aligned	__aligned(SMP_CACHE_BYTES)
#define ____cacheline_aligned_in_smp ____cacheline_aligned
#define __cacheline_aligned	____cacheline_aligned
#define __cacheline_aligned_in_smp ____cacheline_aligned
#define ____cacheline_internodealigned_in_smp ____cacheline_aligned

#endif /* _RHT_SHIM_LINUX_CACHE_H */
