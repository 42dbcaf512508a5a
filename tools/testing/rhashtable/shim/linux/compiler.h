/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wrap tools/include/linux/compiler.h and replace the access-once helpers
 * with C11 atomics.  On x86 they compile to the same plain moves, but
 * ThreadSanitizer then knows these accesses are intentionally racy, as
 * KCSAN does for READ_ONCE()/WRITE_ONCE().
 *
 * READ_ONCE() is a consume load: the kernel memory model orders accesses
 * that depend on a marked load's value after it (address dependencies),
 * C11 only does so for consume, and compilers implement consume as
 * acquire.  A relaxed load here would make TSAN report every object that
 * was initialised, published with a release store and then reached by a
 * READ_ONCE() or rcu_dereference_protected() chain walk.
 */
#ifndef _RHT_SHIM_LINUX_COMPILER_H
#define _RHT_SHIM_LINUX_COMPILER_H

#include_next <linux/compiler.h>

#undef READ_ONCE
#undef WRITE_ONCE
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_CONSUME)
#define WRITE_ONCE(x, val)						\
do {									\
	__typeof__(x) __wo_val = (val);					\
	__atomic_store_n(&(x), __wo_val, __ATOMIC_RELAXED);		\
} while (0)

#ifndef __percpu
#define __percpu
#endif
#ifndef __iomem
#define __iomem
#endif
#ifndef __kernel
#define __kernel
#endif
#ifndef __private
#define __private
#endif
#ifndef __must_check
#define __must_check		__attribute__((__warn_unused_result__))
#endif
#ifndef __cleanup
#define __cleanup(func)		__attribute__((__cleanup__(func)))
#endif
#ifndef fallthrough
#define fallthrough		__attribute__((__fallthrough__))
#endif
#ifndef __counted_by
#define __counted_by(...)
#endif
#ifndef __nonstring
#define __nonstring
#endif
#ifndef __randomize_layout
#define __randomize_layout
#endif
#ifndef __no_randomize_layout
#define __no_randomize_layout
#endif
#ifndef __ro_after_init
#define __ro_after_init
#endif
#ifndef __latent_entropy
#define __latent_entropy
#endif
#ifndef __UNIQUE_ID
#define __UNIQUE_ID(prefix)	__PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)
#endif
/* No KCSAN here: data_race() and the assertions are plain code. */
#ifndef data_race
/* An intentional data race: the access as it is. */
#define data_race(expr)		(expr)
#endif
#ifndef ASSERT_EXCLUSIVE_WRITER
#define ASSERT_EXCLUSIVE_WRITER(...)	do { } while (0)
#define ASSERT_EXCLUSIVE_ACCESS(...)	do { } while (0)
#endif
#ifndef _RET_IP_
#define _RET_IP_	((unsigned long)__builtin_return_address(0))
#endif
#ifndef _THIS_IP_
#define _THIS_IP_	({ __label__ __here; __here: (unsigned long)&&__here; })
#endif

#include <linux/cache.h>

#endif /* _RHT_SHIM_LINUX_COMPILER_H */
