/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Not in tools/include as the kernel spells it: printk(), pr_*() and the
 * KERN_ levels on stdio; quiet unless rht_shim_verbose.
 */
#ifndef _RHT_SHIM_LINUX_PRINTK_H
#define _RHT_SHIM_LINUX_PRINTK_H

#include <stdio.h>

#define KERN_EMERG	""
#define KERN_ALERT	""
#define KERN_CRIT	""
#define KERN_ERR	""
#define KERN_WARNING	""
#define KERN_NOTICE	""
#define KERN_INFO	""
#define KERN_DEBUG	""
#define KERN_CONT	""

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

extern int rht_shim_verbose;

/* No log levels (KERN_* are empty): everything goes to stderr. */
#define rht_printk(fmt, ...)	fprintf(stderr, fmt, ##__VA_ARGS__)
#define printk			rht_printk
#define pr_emerg(fmt, ...)	fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)	fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...)						\
	do { if (rht_shim_verbose) fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__); } while (0)
#define pr_info(fmt, ...)						\
	do { if (rht_shim_verbose) fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__); } while (0)
#define pr_debug(fmt, ...)						\
	do { if (rht_shim_verbose > 1) fprintf(stderr, pr_fmt(fmt), ##__VA_ARGS__); } while (0)
#define pr_cont			rht_printk
#define pr_warn_once		pr_warn
#define pr_err_once		pr_err
#define pr_info_once		pr_info
#define pr_warn_ratelimited	pr_warn
#define pr_err_ratelimited	pr_err
#define no_printk(...)		do { } while (0)

#endif /* _RHT_SHIM_LINUX_PRINTK_H */
