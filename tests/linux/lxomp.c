/*
 * lxomp: an OpenMP reduction built with the host's gcc -static -fopenmp
 * (libgomp, glibc's threads): every CPU the node gave the job runs a
 * thread (yod -threads), and the sum is exact.  Also a plain pthread
 * created and joined, then 200 more each created right after the last
 * one's join.
 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *nothing(void *arg)
{
    return arg;
}

static void *worker(void *arg)
{
    long *x = arg;
    *x *= 3;
    return x;
}

int main(void)
{
    long n = 2000000, sum = 0, x = 14;
    int threads = 0;
    pthread_t t;
    void *ret;

    if (pthread_create(&t, NULL, worker, &x) != 0 ||
        pthread_join(t, &ret) != 0 || ret != &x || x != 42) {
        printf("lxomp: pthread failed (x = %ld)\n", x);
        return 1;
    }
    /* A create right after a join gets the joined thread's CPU, though
       the join may return before that thread has left it. */
    for (int round = 0; round < 200; round++)
        if (pthread_create(&t, NULL, nothing, NULL) != 0 ||
            pthread_join(t, NULL) != 0) {
            printf("lxomp: create after join failed in round %d\n", round);
            return 1;
        }
#pragma omp parallel reduction(+ : sum)
    {
#pragma omp single
        threads = omp_get_num_threads();
#pragma omp for
        for (long i = 1; i <= n; i++)
            sum += i;
    }
    printf("lxomp: %d threads, sum %ld (%s)\n", threads, sum,
           sum == n * (n + 1) / 2 ? "right" : "WRONG");
    return sum == n * (n + 1) / 2 ? 0 : 1;
}
