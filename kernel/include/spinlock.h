/*
 * Spin locks.  The kernel runs with interrupts off (it enables them only
 * to halt while idle), so a lock never needs to mask them, and a CPU never
 * takes a lock it holds.  One lock per shared structure, named for it;
 * docs/SMP.md lists them.
 */
#ifndef SPINLOCK_H
#define SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include "x86.h"

typedef struct {
    uint32_t locked;
} spinlock_t;

static inline bool spin_trylock(spinlock_t *l)
{
    return !__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE);
}

static inline void spin_lock(spinlock_t *l)
{
    while (!spin_trylock(l))
        while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
            cpu_relax();
}

static inline void spin_unlock(spinlock_t *l)
{
    __atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

#endif
