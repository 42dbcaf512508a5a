/* SPDX-License-Identifier: GPL-2.0 */
/* Shadow tools' asm/bug.h: everything lives in <linux/bug.h>. */
#include <linux/bug.h>
