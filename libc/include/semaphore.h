/* SPDX-License-Identifier: MIT */
/*
 * semaphore.h: POSIX unnamed semaphores (XBD <semaphore.h>) between a
 * process's threads (threads mode: docs/SMP.md).  A wait spins, as the
 * node's mutexes do: each thread has a CPU of its own.  Named semaphores
 * (sem_open) would be shared between processes, and a node process shares
 * nothing: ENOSYS (libc/semaphore.c).
 */
#ifndef LWK_SEMAPHORE_H
#define LWK_SEMAPHORE_H

#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    volatile unsigned value;
} sem_t;

#define SEM_FAILED      ((sem_t *)0)
#define SEM_VALUE_MAX   0x7fffffff

int sem_init(sem_t *sem, int pshared, unsigned value);
int sem_destroy(sem_t *sem);
int sem_wait(sem_t *sem);
int sem_trywait(sem_t *sem);
int sem_timedwait(sem_t *sem, const struct timespec *abstime);
int sem_post(sem_t *sem);
int sem_getvalue(sem_t *sem, int *value);
sem_t *sem_open(const char *name, int oflag, ...);
int sem_close(sem_t *sem);
int sem_unlink(const char *name);

#ifdef __cplusplus
}
#endif

#endif
