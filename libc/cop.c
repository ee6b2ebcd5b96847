/* SPDX-License-Identifier: MIT */
/*
 * cop.c: Cougar's COP call on top of the threads (<lwk/cop.h>): run a
 * routine on another CPU of the job; globals are shared; a flag says when
 * it has returned.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <lwk/cop.h>

struct cop_job {
    void (*fn)(void *);
    void *args;
    volatile int *done;
};

static void *cop_main(void *arg)
{
    struct cop_job j = *(struct cop_job *)arg;

    free(arg);
    j.fn(j.args);
    __atomic_store_n(j.done, 1, __ATOMIC_RELEASE);
    return NULL;
}

int cop(void (*fn)(void *), void *args, volatile int *done)
{
    struct cop_job *j = malloc(sizeof(*j));
    pthread_attr_t a;
    pthread_t t;
    int rc;

    if (!j)
        return ENOMEM;
    *j = (struct cop_job){ fn, args, done };
    *done = 0;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if ((rc = pthread_create(&t, &a, cop_main, j)) != 0)
        free(j);
    return rc;
}
