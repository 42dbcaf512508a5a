/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RHT_SHIM_LINUX_INIT_H
#define _RHT_SHIM_LINUX_INIT_H

#define __init
#define __exit
#define __initdata
#define __exitdata
#define __ref
#define __refdata
#define __init_or_module

/* Initcalls become constructors, so they still run (before main()). */
#define __rht_initcall(fn)						\
	static void __attribute__((constructor)) __rht_init_##fn(void)	\
	{ (void)fn(); }
#define early_initcall(fn)	__rht_initcall(fn)
#define core_initcall(fn)	__rht_initcall(fn)
#define postcore_initcall(fn)	__rht_initcall(fn)
#define arch_initcall(fn)	__rht_initcall(fn)
#define subsys_initcall(fn)	__rht_initcall(fn)
#define fs_initcall(fn)		__rht_initcall(fn)
#define device_initcall(fn)	__rht_initcall(fn)
#define late_initcall(fn)	__rht_initcall(fn)
/* Command line parameters: there is no kernel command line. */
#define __setup(...)
#define early_param(...)

#endif /* _RHT_SHIM_LINUX_INIT_H */
