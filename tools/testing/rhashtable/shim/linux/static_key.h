/* SPDX-License-Identifier: GPL-2.0 */
#include <linux/jump_label.h>
