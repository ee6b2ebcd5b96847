/* SPDX-License-Identifier: MIT */
/*
 * pthread.h: POSIX threads on a compute node (libc/pthread.c).
 *
 * A thread runs on a CPU of its own, given to the job by the PCT (yod
 * -threads, or the module word mode=threads): one thread per CPU, never
 * time-sliced, so creating more threads than the job has CPUs fails with
 * EAGAIN.  The main thread alone makes threads and uses Portals (MPI, I/O
 * to yod).  Waiting (join, mutex, condition variable, barrier) spins on
 * memory: each thread has its CPU to itself.  The C library's stdio and
 * errno are the process's, not the thread's: print from the main thread.
 *
 * The types are newlib's (sys/_pthreadtypes.h): a mutex is one word
 * (0 free), a condition variable a sequence word, a thread its index.
 */
#ifndef _LWK_PTHREAD_H
#define _LWK_PTHREAD_H

#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTHREAD_THREADS_MAX             64
#define PTHREAD_KEYS_MAX                64
#define PTHREAD_STACK_MIN               16384
#define PTHREAD_MUTEX_INITIALIZER       ((pthread_mutex_t)0)
#define PTHREAD_COND_INITIALIZER        ((pthread_cond_t)0)
#define PTHREAD_ONCE_INIT               { 1, 0 }
#define PTHREAD_BARRIER_SERIAL_THREAD   (-1)

typedef struct {
    volatile unsigned count, total, gen;
} pthread_barrier_t;
typedef struct {
    int is_initialized;
} pthread_barrierattr_t;

int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                   void *(*start)(void *), void *arg);
int pthread_join(pthread_t thread, void **ret);
int pthread_detach(pthread_t thread);
void pthread_exit(void *ret) __attribute__((noreturn));
pthread_t pthread_self(void);
int pthread_equal(pthread_t a, pthread_t b);

int pthread_attr_init(pthread_attr_t *attr);
int pthread_attr_destroy(pthread_attr_t *attr);
int pthread_attr_setstacksize(pthread_attr_t *attr, size_t size);
int pthread_attr_getstacksize(const pthread_attr_t *attr, size_t *size);
int pthread_attr_setdetachstate(pthread_attr_t *attr, int state);
int pthread_attr_getdetachstate(const pthread_attr_t *attr, int *state);

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr);
int pthread_mutex_destroy(pthread_mutex_t *m);
int pthread_mutex_lock(pthread_mutex_t *m);
int pthread_mutex_trylock(pthread_mutex_t *m);
int pthread_mutex_unlock(pthread_mutex_t *m);

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr);
int pthread_cond_destroy(pthread_cond_t *c);
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                           const struct timespec *abstime);
int pthread_cond_signal(pthread_cond_t *c);
int pthread_cond_broadcast(pthread_cond_t *c);

int pthread_barrier_init(pthread_barrier_t *b,
                         const pthread_barrierattr_t *attr, unsigned count);
int pthread_barrier_destroy(pthread_barrier_t *b);
int pthread_barrier_wait(pthread_barrier_t *b);

int pthread_once(pthread_once_t *once, void (*fn)(void));

int pthread_key_create(pthread_key_t *key, void (*destructor)(void *));
int pthread_key_delete(pthread_key_t key);
void *pthread_getspecific(pthread_key_t key);
int pthread_setspecific(pthread_key_t key, const void *value);

/* The rest of what libraries call (libc/locks.c, spawn.c, signal.c,
   sched.c).  A mutex is one word with no owner or count: NORMAL, DEFAULT
   and ERRORCHECK (checked no more than NORMAL) can be had, RECURSIVE is
   refused (ENOTSUP) rather than deadlock its second lock.  Read-write
   and spin locks spin, as the mutexes.  pthread_atfork has nothing to
   do (no process forks), a thread cannot be cancelled or signalled by
   another (ENOSYS), and the affinity and name calls are not there. */
#define PTHREAD_MUTEX_NORMAL            0
#define PTHREAD_MUTEX_RECURSIVE         1
#define PTHREAD_MUTEX_ERRORCHECK        2
#define PTHREAD_MUTEX_DEFAULT           3
int pthread_mutexattr_init(pthread_mutexattr_t *attr);
int pthread_mutexattr_destroy(pthread_mutexattr_t *attr);
int pthread_mutexattr_settype(pthread_mutexattr_t *attr, int type);
int pthread_mutexattr_gettype(const pthread_mutexattr_t *attr, int *type);

typedef struct {
    volatile int state;         /* readers in it, or -1: a writer */
} pthread_rwlock_t;
typedef struct {
    int is_initialized;
} pthread_rwlockattr_t;
#define PTHREAD_RWLOCK_INITIALIZER      { 0 }
int pthread_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *attr);
int pthread_rwlock_destroy(pthread_rwlock_t *l);
int pthread_rwlock_rdlock(pthread_rwlock_t *l);
int pthread_rwlock_tryrdlock(pthread_rwlock_t *l);
int pthread_rwlock_wrlock(pthread_rwlock_t *l);
int pthread_rwlock_trywrlock(pthread_rwlock_t *l);
int pthread_rwlock_unlock(pthread_rwlock_t *l);

typedef pthread_mutex_t pthread_spinlock_t;   /* a mutex already spins */
#define PTHREAD_PROCESS_PRIVATE         0
#define PTHREAD_PROCESS_SHARED          1
int pthread_spin_init(pthread_spinlock_t *l, int pshared);
int pthread_spin_destroy(pthread_spinlock_t *l);
int pthread_spin_lock(pthread_spinlock_t *l);
int pthread_spin_trylock(pthread_spinlock_t *l);
int pthread_spin_unlock(pthread_spinlock_t *l);

int pthread_atfork(void (*prepare)(void), void (*parent)(void),
                   void (*child)(void));
int pthread_kill(pthread_t thread, int sig);
int pthread_cancel(pthread_t thread);
int pthread_yield(void);

#ifdef __cplusplus
}
#endif
#endif
