/* SPDX-License-Identifier: MIT */
/*
 * lock.c: the locks around what a process's threads share: newlib's
 * (stdio's streams, malloc, atexit, the environment; newlib is built with
 * retargetable locking, libc/newlib.mk, and its default lock.o taken out
 * of its libc.a) and the C library's own (yodio.c: the channel to yod).
 *
 * A thread has a CPU of its own (docs/SMP.md), so a waiter spins.  Every
 * lock is recursive, held by one thread (its index + 1 in `owner`):
 * newlib takes some again from inside (malloc from stdio), and a plain
 * lock is never taken twice by one thread, so treating it the same costs
 * nothing.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/lock.h>

#include "libc_internal.h"

/* newlib's static locks (newlib/libc/misc/lock.c names them). */
struct __lock __lock___sinit_recursive_mutex, __lock___sfp_recursive_mutex,
    __lock___atexit_recursive_mutex, __lock___at_quick_exit_mutex,
    __lock___malloc_recursive_mutex, __lock___env_recursive_mutex,
    __lock___tz_mutex, __lock___dd_hash_mutex, __lock___arc4random_mutex;

int lwk_lock_try(struct __lock *l)
{
    int me = (int)pthread_self() + 1, free_ = 0;

    if (!l)
        return 1;               /* a lock newlib could not allocate */
    if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) == me) {
        l->depth++;
        return 1;
    }
    if (!__atomic_compare_exchange_n(&l->owner, &free_, me, 0,
                                     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return 0;
    l->depth = 1;
    return 1;
}

void lwk_lock(struct __lock *l)
{
    while (!lwk_lock_try(l))
        __builtin_ia32_pause();
}

void lwk_unlock(struct __lock *l)
{
    if (l && --l->depth == 0)
        __atomic_store_n(&l->owner, 0, __ATOMIC_RELEASE);
}

/* ---- newlib's retargetable locking (sys/lock.h) -------------------------- */

void __retarget_lock_init(_LOCK_T *l)
{
    *l = calloc(1, sizeof(**l));
}

void __retarget_lock_init_recursive(_LOCK_T *l)
{
    __retarget_lock_init(l);
}

void __retarget_lock_close(_LOCK_T l)
{
    free(l);
}

void __retarget_lock_close_recursive(_LOCK_T l)
{
    free(l);
}

void __retarget_lock_acquire(_LOCK_T l)
{
    lwk_lock(l);
}

void __retarget_lock_acquire_recursive(_LOCK_T l)
{
    lwk_lock(l);
}

int __retarget_lock_try_acquire(_LOCK_T l)
{
    return lwk_lock_try(l);
}

int __retarget_lock_try_acquire_recursive(_LOCK_T l)
{
    return lwk_lock_try(l);
}

void __retarget_lock_release(_LOCK_T l)
{
    lwk_unlock(l);
}

void __retarget_lock_release_recursive(_LOCK_T l)
{
    lwk_unlock(l);
}
