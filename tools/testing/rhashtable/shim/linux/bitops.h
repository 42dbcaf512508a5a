/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/include's bitops.h with test_bit() made a relaxed atomic load:
 * bucket lock bits are read while other threads set them.
 */
#ifndef _RHT_SHIM_LINUX_BITOPS_H
#define _RHT_SHIM_LINUX_BITOPS_H

#include_next <linux/bitops.h>

/* test_bit() is a plain load in tools/; make it a relaxed atomic one. */
#undef test_bit
#define test_bit(nr, addr)	rht_test_bit_relaxed(nr, addr)

#endif /* _RHT_SHIM_LINUX_BITOPS_H */
