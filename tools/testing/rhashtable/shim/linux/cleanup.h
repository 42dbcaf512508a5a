/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scope-based cleanup helpers (__free(), guard(), scoped_guard()) with the
 * kernel's spelling, built directly on __attribute__((cleanup)).  A class
 * variable is declared with __auto_type: its type is whatever the class
 * constructor returns, so classes need no typedef.  Destructors take a
 * void pointer, because clang checks a cleanup function's parameter
 * against the variable's type before it deduces that type.
 */
#ifndef _RHT_SHIM_LINUX_CLEANUP_H
#define _RHT_SHIM_LINUX_CLEANUP_H

#include <linux/compiler.h>

#define DEFINE_FREE(_name, type, _free)					\
	static inline void __free_##_name(void *p)			\
	{								\
		type _T = *(type *)p;					\
									\
		_free;							\
	}
#define __free(_name)		__cleanup(__free_##_name)
#define no_free_ptr(p) ({						\
	__auto_type __nfp_p = &(p);					\
	__auto_type __nfp = *__nfp_p;					\
									\
	*__nfp_p = NULL;						\
	__nfp;								\
})
#define take_ptr(p)		no_free_ptr(p)

#define DEFINE_CLASS(_name, type, _exit, _init, _init_args...)		\
static inline void class_##_name##_destructor(void *p)			\
{									\
	type _T = *(type *)p;						\
									\
	_exit;								\
}									\
static inline type class_##_name##_constructor(_init_args)		\
{									\
	type t = _init;							\
									\
	return t;							\
}

/* A guard is only there for its destructor: clang calls it unused. */
#define CLASS(_name, var)						\
	__auto_type var __maybe_unused					\
		__cleanup(class_##_name##_destructor) =			\
		class_##_name##_constructor

#define DEFINE_GUARD(_name, type, _lock, _unlock)			\
	DEFINE_CLASS(_name, type, if (_T) _unlock, ({ _lock; _T; }),	\
		     type _T)

#define guard(_name)		CLASS(_name, __UNIQUE_ID(guard))

/* The body runs once, in the scope of the guard; break leaves it. */
#define scoped_guard(_name, args...)					\
	for (__typeof__(class_##_name##_constructor(args))		\
	     scope __cleanup(class_##_name##_destructor) =		\
	     class_##_name##_constructor(args), *__rht_sg_done = NULL;	\
	     !__rht_sg_done; __rht_sg_done = (void *)1)

/* Guards for locks that are not a single typed pointer. */
#define DEFINE_LOCK_GUARD_0(_name, _lock, _unlock, ...)			\
struct class_##_name {							\
	void *lock;							\
	__VA_ARGS__;							\
};									\
static inline void class_##_name##_destructor(void *p)			\
{									\
	struct class_##_name *_T __maybe_unused = p;			\
									\
	_unlock;							\
}									\
static inline struct class_##_name class_##_name##_constructor(void)	\
{									\
	struct class_##_name _t = { .lock = (void *)1 };		\
	struct class_##_name *_T __maybe_unused = &_t;			\
									\
	_lock;								\
	return _t;							\
}

#define DEFINE_LOCK_GUARD_1(_name, type, _lock, _unlock, ...)		\
struct class_##_name {							\
	type *lock;							\
	__VA_ARGS__;							\
};									\
static inline void class_##_name##_destructor(void *p)			\
{									\
	struct class_##_name *_T = p;					\
									\
	if (_T->lock)							\
		_unlock;						\
}									\
static inline struct class_##_name class_##_name##_constructor(type *l)	\
{									\
	struct class_##_name _t = { .lock = l };			\
	struct class_##_name *_T = &_t;					\
									\
	_lock;								\
	return _t;							\
}

#endif /* _RHT_SHIM_LINUX_CLEANUP_H */
