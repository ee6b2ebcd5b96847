/* SPDX-License-Identifier: MIT */
/*
 * semaphore.c: POSIX unnamed semaphores between a process's threads.  As
 * the mutexes (pthread_sync.c), a waiter spins with `pause`: every thread
 * has a CPU of its own.  A semaphore is its count; sem_wait takes one
 * when the count is above 0.  Named semaphores are between processes,
 * and a node process shares nothing with another: ENOSYS.
 */
#include <errno.h>
#include <semaphore.h>
#include <time.h>

#include "libc_internal.h"

int sem_init(sem_t *s, int pshared, unsigned value)
{
    if (value > SEM_VALUE_MAX)
        return lwk_fail(EINVAL);
    if (pshared)                /* no other process to share it with */
        return lwk_fail(ENOSYS);
    s->value = value;
    return 0;
}

int sem_destroy(sem_t *s)
{
    (void)s;
    return 0;
}

int sem_trywait(sem_t *s)
{
    unsigned v = __atomic_load_n(&s->value, __ATOMIC_RELAXED);

    while (v)
        if (__atomic_compare_exchange_n(&s->value, &v, v - 1, 0,
                                        __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return 0;
    return lwk_fail(EAGAIN);
}

int sem_wait(sem_t *s)
{
    while (sem_trywait(s) < 0)
        __builtin_ia32_pause();
    return 0;
}

static int passed(const struct timespec *t)
{
    struct timespec now;

    clock_gettime(CLOCK_REALTIME, &now);
    return now.tv_sec > t->tv_sec ||
           (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

int sem_timedwait(sem_t *s, const struct timespec *abstime)
{
    if (abstime->tv_nsec < 0 || abstime->tv_nsec >= 1000000000L)
        return lwk_fail(EINVAL);
    while (sem_trywait(s) < 0) {
        if (passed(abstime))
            return lwk_fail(ETIMEDOUT);
        __builtin_ia32_pause();
    }
    return 0;
}

int sem_post(sem_t *s)
{
    unsigned v = __atomic_load_n(&s->value, __ATOMIC_RELAXED);

    do {
        if (v >= SEM_VALUE_MAX)
            return lwk_fail(EOVERFLOW);
    } while (!__atomic_compare_exchange_n(&s->value, &v, v + 1, 0,
                                          __ATOMIC_RELEASE, __ATOMIC_RELAXED));
    return 0;
}

int sem_getvalue(sem_t *s, int *value)
{
    *value = (int)__atomic_load_n(&s->value, __ATOMIC_RELAXED);
    return 0;
}

sem_t *sem_open(const char *name, int oflag, ...)
{
    (void)name, (void)oflag;
    errno = ENOSYS;
    return SEM_FAILED;
}

int sem_close(sem_t *s)
{
    (void)s;
    return lwk_fail(ENOSYS);
}

int sem_unlink(const char *name)
{
    (void)name;
    return lwk_fail(ENOSYS);
}
