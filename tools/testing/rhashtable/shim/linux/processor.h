/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The spin_begin()/spin_until_cond() helpers, which tools/include lacks.
 */
#ifndef _RHT_SHIM_LINUX_PROCESSOR_H
#define _RHT_SHIM_LINUX_PROCESSOR_H

#include <asm/barrier.h>	/* cpu_relax() */

#define spin_begin()		do { } while (0)
#define spin_cpu_relax()	cpu_relax()
#define spin_end()		do { } while (0)
#define spin_until_cond(cond)	do { while (!(cond)) cpu_relax(); } while (0)

#endif /* _RHT_SHIM_LINUX_PROCESSOR_H */
