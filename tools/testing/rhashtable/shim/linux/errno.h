/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's error numbers beyond libc's, which tools/include does not
 * define.
 */
#ifndef _RHT_SHIM_LINUX_ERRNO_H
#define _RHT_SHIM_LINUX_ERRNO_H

#include <errno.h>

/* Kernel-internal error numbers that userspace never sees. */
#define ERESTARTSYS	512
#define ERESTARTNOINTR	513
#define EPROBE_DEFER	517

#endif /* _RHT_SHIM_LINUX_ERRNO_H */
