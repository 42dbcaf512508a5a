/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BUG/WARN that report where they fired and can never be compiled out:
 * every BUG aborts, every WARN is counted so a test can fail on it
 * (rht_shim_warn_count(), see rht_shim.h).
 */
#ifndef _RHT_SHIM_LINUX_BUG_H
#define _RHT_SHIM_LINUX_BUG_H

/* tools' kernel.h defines BUG() too: let it come first, then override. */
#include <linux/kernel.h>
#include <linux/compiler.h>
#include <linux/build_bug.h>
#include <stdbool.h>

__printf(3, 4)
void rht_shim_warn(const char *file, int line, const char *fmt, ...);
__printf(3, 4) __noreturn
void rht_shim_bug(const char *file, int line, const char *fmt, ...);

#undef WARN
#undef WARN_ON
#undef WARN_ON_ONCE
#undef WARN_ONCE
#undef BUG
#undef BUG_ON

#define WARN(cond, fmt, ...) ({						\
	bool __w = !!(cond);						\
	if (unlikely(__w))						\
		rht_shim_warn(__FILE__, __LINE__, fmt, ##__VA_ARGS__);	\
	unlikely(__w);							\
})
#define WARN_ON(cond) ({						\
	bool __w = !!(cond);						\
	if (unlikely(__w))						\
		rht_shim_warn(__FILE__, __LINE__, "WARN_ON(%s)", #cond);\
	unlikely(__w);							\
})
#define WARN_ONCE(cond, fmt, ...) ({					\
	static bool __warned;						\
	bool __w = !!(cond);						\
	if (unlikely(__w) && !__atomic_exchange_n(&__warned, true,	\
						  __ATOMIC_RELAXED))	\
		rht_shim_warn(__FILE__, __LINE__, fmt, ##__VA_ARGS__);	\
	unlikely(__w);							\
})
#define WARN_ON_ONCE(cond)	WARN_ONCE(cond, "WARN_ON_ONCE(%s)", #cond)

/*
 * The shims' own consistency checks abort through rht_bug_on(), and so
 * do BUG() and BUG_ON(), which are the same with the kernel's names.
 */
#define rht_bug()	rht_shim_bug(__FILE__, __LINE__, "BUG()")
#define rht_bug_on(cond)						\
do {									\
	if (unlikely(cond))						\
		rht_shim_bug(__FILE__, __LINE__, "BUG_ON(%s)", #cond);	\
} while (0)
#define BUG			rht_bug
#define BUG_ON			rht_bug_on
#define VM_BUG_ON		rht_bug_on
#define VM_WARN_ON(cond)	((void)WARN_ON(cond))
#define VM_WARN_ON_ONCE(cond)	((void)WARN_ON_ONCE(cond))

#endif /* _RHT_SHIM_LINUX_BUG_H */
