/* SPDX-License-Identifier: GPL-2.0 */
/* Shadow tools' asm/atomic.h: everything lives in <linux/atomic.h>. */
#include <linux/atomic.h>
