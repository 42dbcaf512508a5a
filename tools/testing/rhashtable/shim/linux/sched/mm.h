/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RHT_SHIM_LINUX_SCHED_MM_H
#define _RHT_SHIM_LINUX_SCHED_MM_H

#include <linux/sched.h>

static inline unsigned int memalloc_noio_save(void) { return 0; }
static inline void memalloc_noio_restore(unsigned int flags) { }
static inline unsigned int memalloc_nofs_save(void) { return 0; }
static inline void memalloc_nofs_restore(unsigned int flags) { }
static inline unsigned int memalloc_noreclaim_save(void) { return 0; }
static inline void memalloc_noreclaim_restore(unsigned int flags) { }

#endif /* _RHT_SHIM_LINUX_SCHED_MM_H */
