/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Not in tools/include.  local_irq_save()/restore() and friends, with a
 * per-thread flag under RHT_SHIM_DEBUG for the context checks.
 */
#ifndef _RHT_SHIM_LINUX_IRQFLAGS_H
#define _RHT_SHIM_LINUX_IRQFLAGS_H

#include <linux/compiler.h>
#include "../rht_shim.h"

/*
 * There are no interrupts; keep a per-thread flag so checks can see it,
 * and let a test run a handler where interrupts come back on.
 */
#ifdef RHT_SHIM_DEBUG
#define local_irq_save(flags)						\
do {									\
	(flags) = (unsigned long)rht_ctx.irq_off;			\
	rht_ctx.irq_off = 1;						\
	barrier();							\
} while (0)
#define local_irq_restore(flags)					\
do {									\
	barrier();							\
	rht_ctx.irq_off = (int)(flags);					\
	rht_shim_irq_point();						\
} while (0)
#define local_irq_disable()	do { rht_ctx.irq_off = 1; barrier(); } while (0)
#define local_irq_enable()						\
do {									\
	barrier();							\
	rht_ctx.irq_off = 0;						\
	rht_shim_irq_point();						\
} while (0)
#define irqs_disabled()		(rht_ctx.irq_off != 0)
#else
#define local_irq_save(flags)	do { (flags) = 0; barrier(); } while (0)
#define local_irq_restore(flags) do { (void)(flags); barrier(); } while (0)
#define local_irq_disable()	barrier()
#define local_irq_enable()	barrier()
#define irqs_disabled()		0
#endif
#define raw_local_irq_save(flags)	local_irq_save(flags)
#define raw_local_irq_restore(flags)	local_irq_restore(flags)
#define local_save_flags(flags)	((flags) = irqs_disabled())
#define lockdep_assert_irqs_disabled()	WARN_ON_ONCE(!irqs_disabled())
#define lockdep_assert_irqs_enabled()	WARN_ON_ONCE(irqs_disabled())

#endif /* _RHT_SHIM_LINUX_IRQFLAGS_H */
