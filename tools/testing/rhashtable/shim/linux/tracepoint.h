/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints compile to nothing: every TRACE_EVENT()/DEFINE_EVENT()
 * becomes an empty inline trace_<name>() (arguments still type-checked)
 * and trace_<name>_enabled() is false.
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

#define DECLARE_TRACE(name, proto, args)	__RHT_DECLARE_TRACE(name, PARAMS(proto))
#define DECLARE_TRACE_CONDITION(name, proto, args, cond)		\
	__RHT_DECLARE_TRACE(name, PARAMS(proto))
#define DEFINE_TRACE(name, proto, args)
#define TRACE_EVENT(name, proto, args, struct, assign, print)		\
	__RHT_DECLARE_TRACE(name, PARAMS(proto))
#define TRACE_EVENT_CONDITION(name, proto, args, cond, struct, assign, print) \
	__RHT_DECLARE_TRACE(name, PARAMS(proto))
#define TRACE_EVENT_FN(name, proto, args, struct, assign, print, reg, unreg) \
	__RHT_DECLARE_TRACE(name, PARAMS(proto))
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)
#define DEFINE_EVENT(template, name, proto, args)			\
	__RHT_DECLARE_TRACE(name, PARAMS(proto))
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)		\
	__RHT_DECLARE_TRACE(name, PARAMS(proto))
#define DEFINE_EVENT_CONDITION(template, name, proto, args, cond)	\
	__RHT_DECLARE_TRACE(name, PARAMS(proto))
#define TRACE_DEFINE_ENUM(x)
#define TRACE_DEFINE_SIZEOF(x)

#endif /* _RHT_SHIM_LINUX_TRACEPOINT_H */
