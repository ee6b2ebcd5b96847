/* SPDX-License-Identifier: MIT */
/*
 * pthread_sync.c: mutexes, condition variables, barriers, once and keys.
 *
 * Every thread has a CPU of its own (one thread per CPU, no time-slicing:
 * see <pthread.h>), so a waiter spins on memory with `pause` instead of
 * sleeping: nobody else wants its CPU, and the wakeup costs no system
 * call.  A mutex is a word, 0 when free; a condition variable is a
 * sequence word that signal and broadcast bump (a waiter may wake without
 * being signalled, as POSIX allows); a barrier counts arrivals and bumps
 * its generation when the last one comes.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "libc_internal.h"

#define pause() __builtin_ia32_pause()
#define LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)

/* ---- mutexes --------------------------------------------------------- */

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
    (void)attr;
    *m = 0;
    return 0;
}

int pthread_mutex_destroy(pthread_mutex_t *m)
{
    return LOAD(m) ? EBUSY : 0;
}

int pthread_mutex_trylock(pthread_mutex_t *m)
{
    return __atomic_exchange_n(m, 1, __ATOMIC_ACQUIRE) ? EBUSY : 0;
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
    while (__atomic_exchange_n(m, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(m, __ATOMIC_RELAXED))
            pause();
    return 0;
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
    __atomic_store_n(m, 0, __ATOMIC_RELEASE);
    return 0;
}

/* ---- condition variables --------------------------------------------- */

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr)
{
    (void)attr;
    *c = 0;
    return 0;
}

int pthread_cond_destroy(pthread_cond_t *c)
{
    (void)c;
    return 0;
}

static int passed(const struct timespec *t)
{
    struct timespec now;

    clock_gettime(CLOCK_REALTIME, &now);
    return now.tv_sec > t->tv_sec ||
           (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                           const struct timespec *abstime)
{
    pthread_cond_t seen = LOAD(c);
    int rc = 0;

    pthread_mutex_unlock(m);
    while (LOAD(c) == seen && !rc) {
        pause();
        if (abstime && passed(abstime))
            rc = ETIMEDOUT;
    }
    pthread_mutex_lock(m);
    return rc;
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
    return pthread_cond_timedwait(c, m, NULL);
}

int pthread_cond_signal(pthread_cond_t *c)
{
    __atomic_add_fetch(c, 1, __ATOMIC_RELEASE);
    return 0;
}

int pthread_cond_broadcast(pthread_cond_t *c)
{
    __atomic_add_fetch(c, 1, __ATOMIC_RELEASE);
    return 0;
}

/* ---- barriers -------------------------------------------------------- */

int pthread_barrier_init(pthread_barrier_t *b,
                         const pthread_barrierattr_t *attr, unsigned count)
{
    (void)attr;
    if (count == 0)
        return EINVAL;
    b->count = 0;
    b->total = count;
    b->gen = 0;
    return 0;
}

int pthread_barrier_destroy(pthread_barrier_t *b)
{
    return LOAD(&b->count) ? EBUSY : 0;
}

int pthread_barrier_wait(pthread_barrier_t *b)
{
    unsigned gen = LOAD(&b->gen);

    if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == b->total) {
        b->count = 0;
        __atomic_store_n(&b->gen, gen + 1, __ATOMIC_RELEASE);
        return PTHREAD_BARRIER_SERIAL_THREAD;
    }
    while (LOAD(&b->gen) == gen)
        pause();
    return 0;
}

/* ---- once ------------------------------------------------------------ */

/* init_executed: 0 not run, 1 running, 2 done. */
int pthread_once(pthread_once_t *once, void (*fn)(void))
{
    int idle = 0;

    if (LOAD(&once->init_executed) == 2)
        return 0;
    if (__atomic_compare_exchange_n(&once->init_executed, &idle, 1, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        fn();
        __atomic_store_n(&once->init_executed, 2, __ATOMIC_RELEASE);
        return 0;
    }
    while (LOAD(&once->init_executed) != 2)
        pause();
    return 0;
}

/* ---- keys ------------------------------------------------------------ */

static struct {
    int used;
    void (*destructor)(void *);
} keys[LWK_KEYS_MAX];

int pthread_key_create(pthread_key_t *key, void (*destructor)(void *))
{
    for (int k = 0; k < LWK_KEYS_MAX; k++) {
        int idle = 0;
        if (__atomic_compare_exchange_n(&keys[k].used, &idle, 1, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
            keys[k].destructor = destructor;
            *key = (pthread_key_t)k;
            return 0;
        }
    }
    return EAGAIN;
}

int pthread_key_delete(pthread_key_t key)
{
    if (key >= LWK_KEYS_MAX || !keys[key].used)
        return EINVAL;
    keys[key].destructor = NULL;
    __atomic_store_n(&keys[key].used, 0, __ATOMIC_RELEASE);
    return 0;
}

void *pthread_getspecific(pthread_key_t key)
{
    struct lwk_thread *t = lwk_thread_self();

    return key < LWK_KEYS_MAX && t->keys ? (void *)t->keys[key] : NULL;
}

/* A thread's values are allocated when it first sets one. */
int pthread_setspecific(pthread_key_t key, const void *value)
{
    struct lwk_thread *t = lwk_thread_self();

    if (key >= LWK_KEYS_MAX || !keys[key].used)
        return EINVAL;
    if (!t->keys && !(t->keys = calloc(LWK_KEYS_MAX, sizeof(*t->keys))))
        return ENOMEM;
    t->keys[key] = value;
    return 0;
}

void lwk_keys_destroy(struct lwk_thread *t)
{
    for (int k = 0; t->keys && k < LWK_KEYS_MAX; k++) {
        const void *v = t->keys[k];
        if (v && keys[k].used && keys[k].destructor) {
            t->keys[k] = NULL;
            keys[k].destructor((void *)v);
        }
    }
}
