/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints compile to nothing: every TRACE_EVENT()/DEFINE_EVENT()
 * becomes an empty inline trace_<name>() (arguments still type-checked)
 * and trace_<name>_enabled() is false.  The record layout, assignment and
 * print format arguments are dropped unseen.
 */
#ifndef _RHT_SHIM_LINUX_TRACEPOINT_H
#define _RHT_SHIM_LINUX_TRACEPOINT_H

#include <linux/types.h>

#define PARAMS(args...)		args
#define TP_PROTO(args...)	args
#define TP_ARGS(args...)	args
#define TP_CONDITION(args...)	args

#define __RHT_DECLARE_TRACE(name, proto)				\
	static inline void trace_##name(proto) { }			\
	static inline bool trace_##name##_enabled(void) { return false; }

#define DECLARE_TRACE(name, proto, ...)	__RHT_DECLARE_TRACE(name, PARAMS(proto))
#define DECLARE_TRACE_CONDITION(name, proto, ...)			\
	__RHT_DECLARE_TRACE(name, PARAMS(proto))
#define DEFINE_TRACE(...)
#define TRACE_EVENT(name, proto, ...)					\
	__RHT_DECLARE_TRACE(name, PARAMS(proto))
#define TRACE_EVENT_CONDITION(name, proto, ...)				\
	__RHT_DECLARE_TRACE(name, PARAMS(proto))
#define TRACE_EVENT_FN(name, proto, ...)				\
	__RHT_DECLARE_TRACE(name, PARAMS(proto))

/*
 * An event class is an empty probe with the class's prototype; the events
 * of the class call it, which checks that their arguments fit.
 */
#define DECLARE_EVENT_CLASS(name, proto, ...)				\
	static inline void __rht_trace_class_##name(proto) { }
#define DEFINE_EVENT(template, name, proto, args)			\
	static inline void trace_##name(proto)				\
	{								\
		__rht_trace_class_##template(args);			\
	}								\
	static inline bool trace_##name##_enabled(void) { return false; }
#define DEFINE_EVENT_PRINT(template, name, proto, args, ...)		\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))
#define DEFINE_EVENT_CONDITION(template, name, proto, args, ...)	\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))
#define TRACE_DEFINE_ENUM(...)
#define TRACE_DEFINE_SIZEOF(...)

#endif /* _RHT_SHIM_LINUX_TRACEPOINT_H */
