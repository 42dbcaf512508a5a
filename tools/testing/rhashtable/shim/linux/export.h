/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/include's export.h plus the namespaced and module-limited
 * exports, and THIS_MODULE: a program exports nothing.
 */
#ifndef _RHT_SHIM_LINUX_EXPORT_H
#define _RHT_SHIM_LINUX_EXPORT_H

#include_next <linux/export.h>

/* A program exports nothing: the namespaced variants are empty too. */
#ifndef EXPORT_SYMBOL_NS
#define EXPORT_SYMBOL_NS(...)
#define EXPORT_SYMBOL_NS_GPL	EXPORT_SYMBOL_NS
#endif
#ifndef EXPORT_SYMBOL_GPL_FOR_MODULES
#define EXPORT_SYMBOL_GPL_FOR_MODULES(...)
#endif
#define THIS_MODULE	((void *)0)

#endif /* _RHT_SHIM_LINUX_EXPORT_H */
