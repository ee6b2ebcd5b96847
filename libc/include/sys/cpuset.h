/* SPDX-License-Identifier: MIT */
/*
 * sys/cpuset.h: cpu_set_t and the CPU_* macros, as glibc's <sched.h>
 * gives them (with _GNU_SOURCE): a set of CPU_SETSIZE bits, and the _S
 * forms for sets of any size (CPU_ALLOC).  <sched.h> includes it; newlib
 * then declares sched_getaffinity and sched_setaffinity (libc/sched.c).
 */
#ifndef _SYS_CPUSET_H_
#define _SYS_CPUSET_H_

#include <stddef.h>

void *calloc(size_t n, size_t size);    /* for CPU_ALLOC, as <stdlib.h> */
void free(void *p);

#define CPU_SETSIZE     1024
#define __CPU_BITS      (8 * sizeof(unsigned long))
typedef struct {
    unsigned long __bits[CPU_SETSIZE / __CPU_BITS];
} cpu_set_t;

#define CPU_ALLOC_SIZE(n) \
    ((((size_t)(n) + __CPU_BITS - 1) / __CPU_BITS) * sizeof(unsigned long))
#define CPU_ALLOC(n)    ((cpu_set_t *)calloc(1, CPU_ALLOC_SIZE(n)))
#define CPU_FREE(set)   free(set)

#define CPU_ZERO_S(sz, set)     ((void)__builtin_memset((set), 0, (sz)))
#define CPU_SET_S(c, sz, set)   ((size_t)(c) < 8 * (sz) ? \
    ((set)->__bits[(c) / __CPU_BITS] |= 1UL << ((c) % __CPU_BITS)) : 0)
#define CPU_CLR_S(c, sz, set)   ((size_t)(c) < 8 * (sz) ? \
    ((set)->__bits[(c) / __CPU_BITS] &= ~(1UL << ((c) % __CPU_BITS))) : 0)
#define CPU_ISSET_S(c, sz, set) ((size_t)(c) < 8 * (sz) && \
    ((set)->__bits[(c) / __CPU_BITS] >> ((c) % __CPU_BITS) & 1))
#define CPU_COUNT_S(sz, set)    __lwk_cpu_count((sz), (set))
#define CPU_EQUAL_S(sz, a, b)   (__builtin_memcmp((a), (b), (sz)) == 0)

#define CPU_ZERO(set)           CPU_ZERO_S(sizeof(cpu_set_t), set)
#define CPU_SET(c, set)         CPU_SET_S(c, sizeof(cpu_set_t), set)
#define CPU_CLR(c, set)         CPU_CLR_S(c, sizeof(cpu_set_t), set)
#define CPU_ISSET(c, set)       CPU_ISSET_S(c, sizeof(cpu_set_t), set)
#define CPU_COUNT(set)          CPU_COUNT_S(sizeof(cpu_set_t), set)
#define CPU_EQUAL(a, b)         CPU_EQUAL_S(sizeof(cpu_set_t), a, b)

static inline int __lwk_cpu_count(size_t sz, const cpu_set_t *set)
{
    int n = 0;

    for (size_t i = 0; i < sz / sizeof(unsigned long); i++)
        n += __builtin_popcountl(set->__bits[i]);
    return n;
}

#endif
