/*
 * lxomp: an OpenMP reduction built with the host's gcc -static -fopenmp
 * (libgomp, glibc's threads): every CPU the node gave the job runs a
 * thread (yod -threads), and the sum is exact.  Also a plain pthread
 * created and joined.
 */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

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
