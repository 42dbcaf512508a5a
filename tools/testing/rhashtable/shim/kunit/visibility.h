/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunit/visibility.h for the harness: everything lib/rhashtable.c makes
 * visible to its KUnit suites is visible to the harness's programs too.
 */
#ifndef _RHT_SHIM_KUNIT_VISIBILITY_H
#define _RHT_SHIM_KUNIT_VISIBILITY_H

#define VISIBLE_IF_KUNIT
#define EXPORT_SYMBOL_IF_KUNIT		__rht_kunit_export
#define __rht_kunit_export(symbol)	extern int __rht_kunit_exported_##symbol

#endif
