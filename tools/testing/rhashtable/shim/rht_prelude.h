/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Force-included (-include) ahead of every translation unit that is built
 * against the kernel shims.  It plays the role that the kernel build's
 * implicit "-include linux/kconfig.h" and the generated autoconf.h play.
 */
#ifndef _RHT_PRELUDE_H
#define _RHT_PRELUDE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#define CONFIG_64BIT		1
#define CONFIG_SMP		1
#define CONFIG_MMU		1

/* Number of "possible CPUs" the percpu shim provides. */
#ifndef RHT_NR_CPUS
#define RHT_NR_CPUS		64
#endif
#define CONFIG_NR_CPUS		RHT_NR_CPUS
#define NR_CPUS			RHT_NR_CPUS

/*
 * RHT_SHIM_DEBUG turns the shims into checkers: lockdep-ish ownership
 * tracking, "sleeping in atomic context" detection and PROVE_RCU style
 * checks of rcu_dereference*() conditions.  Used by the sanitizer and fuzz
 * builds; the benchmark builds leave it off.
 */
#ifdef RHT_SHIM_DEBUG
#define CONFIG_PROVE_LOCKING	1
#define CONFIG_PROVE_RCU	1
#define CONFIG_DEBUG_ATOMIC_SLEEP 1
/* The test hooks of lib/rhashtable.c (lib/rhashtable_test.h). */
#define CONFIG_KUNIT		1
#define CONFIG_RHASHTABLE_KUNIT_TEST 1
#endif

#include <linux/kconfig.h>

#endif /* _RHT_PRELUDE_H */
