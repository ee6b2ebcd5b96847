/* SPDX-License-Identifier: MIT */
/*
 * pthread.c: threads (see <pthread.h>).  A thread is one malloc'd block:
 * its stack, then its TLS block and TCB (tls.c).  The kernel starts it on
 * a CPU of the job's (thread_start) and sets `done` once it is off its
 * stack (thread_exit), so join can free the block.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <lwk/syscall.h>

#include "libc_internal.h"

#define DEFAULT_STACK   (256 * 1024)

/* ---- attributes --------------------------------------------------------- */

int pthread_attr_init(pthread_attr_t *a)
{
    memset(a, 0, sizeof(*a));
    a->is_initialized = 1;
    a->stacksize = DEFAULT_STACK;
    a->detachstate = PTHREAD_CREATE_JOINABLE;
    return 0;
}

int pthread_attr_destroy(pthread_attr_t *a)
{
    a->is_initialized = 0;
    return 0;
}

int pthread_attr_setstacksize(pthread_attr_t *a, size_t size)
{
    if (size < PTHREAD_STACK_MIN || size > (1u << 30))
        return EINVAL;
    a->stacksize = (int)size;
    return 0;
}

int pthread_attr_getstacksize(const pthread_attr_t *a, size_t *size)
{
    *size = (size_t)a->stacksize;
    return 0;
}

int pthread_attr_setdetachstate(pthread_attr_t *a, int state)
{
    if (state != PTHREAD_CREATE_JOINABLE && state != PTHREAD_CREATE_DETACHED)
        return EINVAL;
    a->detachstate = state;
    return 0;
}

int pthread_attr_getdetachstate(const pthread_attr_t *a, int *state)
{
    *state = a->detachstate;
    return 0;
}

/* ---- life and death ------------------------------------------------------ */

static void reap(struct lwk_thread *t)
{
    free(t->keys);
    free(t->mem);
    memset(t, 0, sizeof(*t));
}

/* Detached threads that have ended give their memory back here. */
static struct lwk_thread *free_slot(void)
{
    struct lwk_thread *slot = NULL;

    for (int i = 1; i < PTHREAD_THREADS_MAX; i++) {
        struct lwk_thread *t = &lwk_threads[i];
        if (t->used && t->detached && __atomic_load_n(&t->done, __ATOMIC_ACQUIRE))
            reap(t);
        if (!t->used && !slot)
            slot = t;
    }
    return slot;
}

static __attribute__((noreturn)) void thread_main(struct lwk_thread *t)
{
    pthread_exit(t->fn(t->arg));
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                   void *(*start)(void *), void *arg)
{
    size_t stack = attr ? (size_t)attr->stacksize : DEFAULT_STACK;
    struct lwk_thread *t = free_slot();
    uintptr_t top;
    long cpu;

    if (!t)
        return EAGAIN;
    if (!(t->mem = malloc(stack + lwk_tls_bytes())))
        return EAGAIN;
    t->used = 1;
    t->fn = start;
    t->arg = arg;
    t->detached = attr && attr->detachstate == PTHREAD_CREATE_DETACHED;
    t->tcb = lwk_tls_make((char *)t->mem + stack, t);
    /* Entered as if called: rsp + 8 16-byte aligned, a null return address. */
    top = ((uintptr_t)t->mem + stack) & ~(uintptr_t)15;
    *(uint64_t *)(top - 8) = 0;
    cpu = lwk_sys_thread_start((long)thread_main, (long)(top - 8), (long)t,
                               (long)t->tcb);
    if (cpu < 0) {
        reap(t);
        return cpu == -EAGAIN ? EAGAIN : (int)-cpu;
    }
    t->cpu = (int)cpu;
    *thread = (pthread_t)(t - lwk_threads);
    return 0;
}

int pthread_join(pthread_t thread, void **ret)
{
    struct lwk_thread *t = &lwk_threads[thread];

    if (thread == 0 || thread >= PTHREAD_THREADS_MAX || !t->used)
        return ESRCH;
    if (t->detached)
        return EINVAL;
    if (t == lwk_thread_self())
        return EDEADLK;
    while (!__atomic_load_n(&t->done, __ATOMIC_ACQUIRE))
        __builtin_ia32_pause();
    if (ret)
        *ret = t->ret;
    reap(t);
    return 0;
}

int pthread_detach(pthread_t thread)
{
    struct lwk_thread *t = &lwk_threads[thread];

    if (thread == 0 || thread >= PTHREAD_THREADS_MAX || !t->used)
        return ESRCH;
    t->detached = 1;
    return 0;
}

/* The main thread's pthread_exit waits for the others, then the process
   exits 0; another thread's ends that thread only. */
void pthread_exit(void *ret)
{
    struct lwk_thread *t = lwk_thread_self();

    lwk_keys_destroy(t);
    t->ret = ret;
    if (t == &lwk_threads[0]) {
        for (int i = 1; i < PTHREAD_THREADS_MAX; i++)
            while (lwk_threads[i].used &&
                   !__atomic_load_n(&lwk_threads[i].done, __ATOMIC_ACQUIRE))
                __builtin_ia32_pause();
        exit(0);
    }
    lwk_sys_thread_exit((long)&t->done);
    __builtin_unreachable();
}

