/* SPDX-License-Identifier: MIT */
/*
 * pthread_locks.c: the lock kinds beside pthread_sync.c's mutexes: read-write
 * locks, spin locks, and the mutex attributes.  Every waiter spins with
 * `pause`, as the mutexes' do: each thread has a CPU of its own.  A
 * read-write lock is a count of readers, or -1 while a writer holds it;
 * a spin lock is a mutex.  A mutex is one word with no owner or count
 * (<pthread.h>), so the attributes give the kinds that need neither and
 * refuse a recursive mutex (ENOTSUP) rather than let its second lock
 * deadlock.
 */
#include <errno.h>
#include <pthread.h>

#define pause() __builtin_ia32_pause()

/* ---- mutex attributes (newlib's struct: `recursive` holds the type) --- */

int pthread_mutexattr_init(pthread_mutexattr_t *a)
{
    a->is_initialized = 1;
    a->recursive = PTHREAD_MUTEX_DEFAULT;
    return 0;
}

int pthread_mutexattr_destroy(pthread_mutexattr_t *a)
{
    a->is_initialized = 0;
    return 0;
}

int pthread_mutexattr_settype(pthread_mutexattr_t *a, int type)
{
    if (type == PTHREAD_MUTEX_RECURSIVE)
        return ENOTSUP;
    if (type != PTHREAD_MUTEX_NORMAL && type != PTHREAD_MUTEX_ERRORCHECK &&
        type != PTHREAD_MUTEX_DEFAULT)
        return EINVAL;
    a->recursive = type;
    return 0;
}

int pthread_mutexattr_gettype(const pthread_mutexattr_t *a, int *type)
{
    *type = a->recursive;
    return 0;
}

/* ---- read-write locks ------------------------------------------------- */

int pthread_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *attr)
{
    (void)attr;
    l->state = 0;
    return 0;
}

int pthread_rwlock_destroy(pthread_rwlock_t *l)
{
    return __atomic_load_n(&l->state, __ATOMIC_ACQUIRE) ? EBUSY : 0;
}

int pthread_rwlock_tryrdlock(pthread_rwlock_t *l)
{
    int n = __atomic_load_n(&l->state, __ATOMIC_RELAXED);

    while (n >= 0)
        if (__atomic_compare_exchange_n(&l->state, &n, n + 1, 0,
                                        __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return 0;
    return EBUSY;
}

int pthread_rwlock_trywrlock(pthread_rwlock_t *l)
{
    int free = 0;

    return __atomic_compare_exchange_n(&l->state, &free, -1, 0,
                                       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)
               ? 0 : EBUSY;
}

int pthread_rwlock_rdlock(pthread_rwlock_t *l)
{
    while (pthread_rwlock_tryrdlock(l))
        pause();
    return 0;
}

int pthread_rwlock_wrlock(pthread_rwlock_t *l)
{
    while (pthread_rwlock_trywrlock(l))
        pause();
    return 0;
}

/* A writer leaves it free; a reader takes one off the count. */
int pthread_rwlock_unlock(pthread_rwlock_t *l)
{
    int n = __atomic_load_n(&l->state, __ATOMIC_RELAXED);

    if (n == 0)
        return EPERM;
    if (n < 0) {
        __atomic_store_n(&l->state, 0, __ATOMIC_RELEASE);
        return 0;
    }
    __atomic_fetch_sub(&l->state, 1, __ATOMIC_RELEASE);
    return 0;
}

/* ---- spin locks: the mutexes already spin ---------------------------- */

/* Shared between processes: a node process shares memory with none. */
int pthread_spin_init(pthread_spinlock_t *l, int pshared)
{
    return pshared == PTHREAD_PROCESS_PRIVATE ? pthread_mutex_init(l, NULL)
                                              : ENOSYS;
}

int pthread_spin_destroy(pthread_spinlock_t *l)
{
    return pthread_mutex_destroy(l);
}

int pthread_spin_trylock(pthread_spinlock_t *l)
{
    return pthread_mutex_trylock(l);
}

int pthread_spin_lock(pthread_spinlock_t *l)
{
    return pthread_mutex_lock(l);
}

int pthread_spin_unlock(pthread_spinlock_t *l)
{
    return pthread_mutex_unlock(l);
}
