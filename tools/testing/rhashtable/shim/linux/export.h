/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RHT_SHIM_LINUX_EXPORT_H
#define _RHT_SHIM_LINUX_EXPORT_H

#include_next <linux/export.h>

#ifndef EXPORT_SYMBOL_NS
#define EXPORT_SYMBOL_NS(sym, ns)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)
#endif
#ifndef EXPORT_SYMBOL_GPL_FOR_MODULES
#define EXPORT_SYMBOL_GPL_FOR_MODULES(sym, mods)
#endif
#define THIS_MODULE	((void *)0)

#endif /* _RHT_SHIM_LINUX_EXPORT_H */
