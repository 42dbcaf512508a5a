/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scope-based cleanup helpers (__free(), guard(), scoped_guard()) with the
 * kernel's spelling, built directly on __attribute__((cleanup)).
 */
#ifndef _RHT_SHIM_LINUX_CLEANUP_H
#define _RHT_SHIM_LINUX_CLEANUP_H

#include <linux/compiler.h>

#define DEFINE_FREE(_name, _type, _free)				\
	static inline void __free_##_name(void *p)			\
	{ _type _T = *(_type *)p; _free; }
#define __free(_name)		__cleanup(__free_##_name)
#define no_free_ptr(p)		({ __auto_type __nfp = (p); (p) = NULL; __nfp; })
#define return_ptr(p)		return no_free_ptr(p)
#define take_ptr(p)		no_free_ptr(p)

#define DEFINE_CLASS(_name, _type, _exit, _init, _init_args...)		\
typedef _type class_##_name##_t;					\
static inline void class_##_name##_destructor(_type *p)			\
{ _type _T = *p; _exit; }						\
static inline _type class_##_name##_constructor(_init_args)		\
{ _type t = _init; return t; }

#define CLASS(_name, var)						\
	class_##_name##_t var __cleanup(class_##_name##_destructor) =	\
		class_##_name##_constructor

#define DEFINE_GUARD(_name, _type, _lock, _unlock)			\
	DEFINE_CLASS(_name, _type, if (_T) { _unlock; },		\
		     ({ _lock; _T; }), _type _T)

#define guard(_name)		CLASS(_name, __UNIQUE_ID(guard))

#define __rht_scoped_guard(_name, _label, args...)			\
	for (CLASS(_name, scope)(args), *_label = NULL;			\
	     !_label; _label = (void *)1)
#define scoped_guard(_name, args...)					\
	__rht_scoped_guard(_name, __UNIQUE_ID(label), args)

/* Guards for locks that are not a single typed pointer. */
#define DEFINE_LOCK_GUARD_0(_name, _lock, _unlock, ...)			\
typedef struct { void *lock; __VA_ARGS__; } class_##_name##_t;		\
static inline void class_##_name##_destructor(class_##_name##_t *_T)	\
{ (void)_T; _unlock; }							\
static inline class_##_name##_t class_##_name##_constructor(void)	\
{									\
	class_##_name##_t _t = { .lock = (void *)1 };			\
	class_##_name##_t *_T __maybe_unused = &_t;			\
	_lock;								\
	return _t;							\
}

#define DEFINE_LOCK_GUARD_1(_name, _type, _lock, _unlock, ...)		\
typedef struct { _type *lock; __VA_ARGS__; } class_##_name##_t;		\
static inline void class_##_name##_destructor(class_##_name##_t *_T)	\
{ if (_T->lock) { _unlock; } }						\
static inline class_##_name##_t class_##_name##_constructor(_type *l)	\
{									\
	class_##_name##_t _t = { .lock = l };				\
	class_##_name##_t *_T = &_t;					\
	_lock;								\
	return _t;							\
}

#endif /* _RHT_SHIM_LINUX_CLEANUP_H */
