/* SPDX-License-Identifier: GPL-2.0 */
/* Not in tools/include: prefetch(), a hint that never faults. */
#ifndef _RHT_SHIM_LINUX_PREFETCH_H
#define _RHT_SHIM_LINUX_PREFETCH_H

#define prefetch(x)		__builtin_prefetch(x)

#endif
