/* SPDX-License-Identifier: GPL-2.0 */
/* Sleeping and spinning delays, on usleep(); the sleeping ones may sleep. */
#ifndef _RHT_SHIM_LINUX_DELAY_H
#define _RHT_SHIM_LINUX_DELAY_H

#include <unistd.h>
#include "../rht_shim.h"

static inline void msleep(unsigned int ms)
{
	rht_shim_check_sleep(__FILE__, __LINE__, __func__);
	usleep(ms * 1000);
}

static inline void usleep_range(unsigned long min, unsigned long max)
{
	rht_shim_check_sleep(__FILE__, __LINE__, __func__);
	usleep(min);
}

static inline void udelay(unsigned long us)
{
	usleep(us);
}

#endif /* _RHT_SHIM_LINUX_DELAY_H */
