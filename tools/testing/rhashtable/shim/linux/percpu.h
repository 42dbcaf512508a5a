/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU memory and CPU ids.
 *
 * Every thread gets its own CPU id on first use (smp_processor_id()),
 * recycled when the thread exits; there are nr_cpu_ids of them
 * (RHT_NR_CPUS by default, environment RHT_NR_CPU_IDS to lower it).  A
 * thread therefore "is" one CPU for its whole life and never migrates,
 * so this_cpu_*() operations may be plain read-modify-write sequences,
 * just like on a real CPU.  They use relaxed atomic loads and stores so
 * remote readers (percpu_counter_sum() etc.) are not data races.
 *
 * alloc_percpu() memory lives in a reserved region made of RHT_NR_CPUS
 * units of RHT_PCPU_UNIT bytes; a percpu pointer is the address of CPU
 * 0's copy and CPU n's copy sits n units further on, as with the kernel's
 * first chunk.  Statically defined per-CPU variables (DEFINE_PER_CPU) are
 * not supported.
 */
#ifndef _RHT_SHIM_LINUX_PERCPU_H
#define _RHT_SHIM_LINUX_PERCPU_H

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/gfp.h>
#include <linux/preempt.h>
#include "../rht_shim.h"

#define RHT_PCPU_UNIT		BIT(20)

extern unsigned int nr_cpu_ids;

void __percpu *rht_alloc_percpu(size_t size, size_t align, gfp_t gfp);
void rht_free_percpu(void __percpu *p);

#define __alloc_percpu_gfp(s, a, g)	rht_alloc_percpu((s), (a), (g))
#define __alloc_percpu(s, a)		rht_alloc_percpu((s), (a), GFP_KERNEL)
#define alloc_percpu_gfp(type, g)					\
	((__typeof__(type) __percpu *)rht_alloc_percpu(sizeof(type),	\
					__alignof__(type), (g)))
#define alloc_percpu(...)		alloc_percpu_gfp(__VA_ARGS__, GFP_KERNEL)
#define alloc_percpu_noprof(...)	alloc_percpu(__VA_ARGS__)
#define free_percpu(p)			rht_free_percpu(p)

#define DEFINE_PER_CPU(...)						\
	static_assert(0, "static per-CPU variables are not supported "	\
		      "by the rhashtable shims, use alloc_percpu()")
#define DECLARE_PER_CPU			DEFINE_PER_CPU

static inline int smp_processor_id(void)
{
	int cpu = rht_ctx.cpu;

	return likely(cpu >= 0) ? cpu : rht_shim_cpu_id();
}

#define raw_smp_processor_id()	smp_processor_id()
#define get_cpu()		({ preempt_disable(); smp_processor_id(); })
#define put_cpu()		preempt_enable()

static inline int cpu_to_node(int cpu)
{
	return 0;
}

#define numa_node_id()		0
#define numa_mem_id()		0

#define num_possible_cpus()	(nr_cpu_ids)
#define num_online_cpus()	(nr_cpu_ids)
#define num_present_cpus()	(nr_cpu_ids)
#define cpu_online(cpu)		((unsigned int)(cpu) < nr_cpu_ids)
#define cpu_possible(cpu)	cpu_online(cpu)
#define for_each_possible_cpu(cpu)					\
	for (int __rht_cpu = 0; ((cpu) = __rht_cpu) < (int)nr_cpu_ids;	\
	     __rht_cpu++)
#define for_each_online_cpu(cpu)	for_each_possible_cpu(cpu)
#define for_each_present_cpu(cpu)	for_each_possible_cpu(cpu)

#define per_cpu_ptr(ptr, cpu)						\
	((__typeof__(ptr))((char *)(ptr) +				\
			   (unsigned long)(cpu) * RHT_PCPU_UNIT))
#define raw_cpu_ptr(ptr)	per_cpu_ptr(ptr, smp_processor_id())
#define this_cpu_ptr(ptr)	raw_cpu_ptr(ptr)
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), cpu))

#define __rht_pcpu_load(p)	__atomic_load_n((p), __ATOMIC_RELAXED)
#define __rht_pcpu_store(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELAXED)

#define this_cpu_read(pcp)	__rht_pcpu_load(this_cpu_ptr(&(pcp)))
#define this_cpu_write(pcp, v)						\
do {									\
	__typeof__(pcp) __pw_v = (v);					\
	__rht_pcpu_store(this_cpu_ptr(&(pcp)), __pw_v);			\
} while (0)
/* this_cpu_<op>(): load, op(), store; @op is one of the helpers below. */
#define __rht_pcpu_rmw(pcp, op, v) ({					\
	__auto_type __pr_p = this_cpu_ptr(&(pcp));			\
	__typeof__(*__pr_p) __pr_n = op(__rht_pcpu_load(__pr_p), (v));	\
									\
	__rht_pcpu_store(__pr_p, __pr_n);				\
	__pr_n;								\
})
#define __rht_pcpu_add(a, b)		((a) + (b))
#define __rht_pcpu_sub(a, b)		((a) - (b))
#define __rht_pcpu_and(a, b)		((a) & (b))
#define __rht_pcpu_or(a, b)		((a) | (b))
#define this_cpu_add(pcp, v)	((void)__rht_pcpu_rmw(pcp, __rht_pcpu_add, v))
#define this_cpu_sub(pcp, v)	((void)__rht_pcpu_rmw(pcp, __rht_pcpu_sub, v))
#define this_cpu_inc(pcp)		this_cpu_add(pcp, 1)
#define this_cpu_dec(pcp)		this_cpu_sub(pcp, 1)
#define this_cpu_and(pcp, v)	((void)__rht_pcpu_rmw(pcp, __rht_pcpu_and, v))
#define this_cpu_or(pcp, v)	((void)__rht_pcpu_rmw(pcp, __rht_pcpu_or, v))
#define this_cpu_add_return(pcp, v)	__rht_pcpu_rmw(pcp, __rht_pcpu_add, v)
#define this_cpu_sub_return(pcp, v)	__rht_pcpu_rmw(pcp, __rht_pcpu_sub, v)
#define this_cpu_inc_return(pcp)	this_cpu_add_return(pcp, 1)
#define this_cpu_dec_return(pcp)	this_cpu_sub_return(pcp, 1)
#define this_cpu_xchg(pcp, v) ({					\
	__typeof__(pcp) __px_v = (v);					\
	__atomic_exchange_n(this_cpu_ptr(&(pcp)), __px_v, __ATOMIC_RELAXED); \
})
#define this_cpu_cmpxchg(pcp, o, n) ({					\
	__typeof__(pcp) __pc_o = (o), __pc_n = (n);			\
	__atomic_compare_exchange_n(this_cpu_ptr(&(pcp)), &__pc_o,	\
				    __pc_n, false, __ATOMIC_RELAXED,	\
				    __ATOMIC_RELAXED);			\
	__pc_o;								\
})
#define this_cpu_try_cmpxchg(pcp, po, n) ({				\
	__typeof__(pcp) __pt_n = (n);					\
	__atomic_compare_exchange_n(this_cpu_ptr(&(pcp)), (po), __pt_n,	\
				    false, __ATOMIC_RELAXED,		\
				    __ATOMIC_RELAXED);			\
})

#define __this_cpu_read		this_cpu_read
#define __this_cpu_write	this_cpu_write
#define __this_cpu_add		this_cpu_add
#define __this_cpu_sub		this_cpu_sub
#define __this_cpu_inc		this_cpu_inc
#define __this_cpu_dec		this_cpu_dec
#define __this_cpu_add_return	this_cpu_add_return
#define __this_cpu_inc_return	this_cpu_inc_return
#define __this_cpu_dec_return	this_cpu_dec_return
#define raw_cpu_read		this_cpu_read
#define raw_cpu_write		this_cpu_write
#define raw_cpu_add		this_cpu_add
#define raw_cpu_sub		this_cpu_sub
#define raw_cpu_inc		this_cpu_inc
#define raw_cpu_dec		this_cpu_dec

#endif /* _RHT_SHIM_LINUX_PERCPU_H */
