/*
 * Benchmark (not a test): a blocked dense matrix multiply C = A x B split
 * by rows over T workers, the main thread and T-1 POSIX threads, each on
 * a CPU of its own (threads mode).  Prints the best of R runs and a
 * checksum that must not depend on T.
 *
 *   matmul T [N] [R]      T workers (1..64), N x N doubles (default 384),
 *                         R runs (default 3)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BLK 32

static int n, nworkers;
static double *a, *b, *c;
static pthread_barrier_t start, done;

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Rows [lo, hi) of C, in BLK x BLK blocks so A's and B's blocks stay in
   the cache. */
static void rows(int lo, int hi)
{
    for (int i = lo; i < hi; i++)
        for (int j = 0; j < n; j++)
            c[i * n + j] = 0;
    for (int kk = 0; kk < n; kk += BLK)
        for (int jj = 0; jj < n; jj += BLK)
            for (int i = lo; i < hi; i++)
                for (int k = kk; k < kk + BLK && k < n; k++) {
                    double aik = a[i * n + k];
                    for (int j = jj; j < jj + BLK && j < n; j++)
                        c[i * n + j] += aik * b[k * n + j];
                }
}

static void share(int w)
{
    rows(n * w / nworkers, n * (w + 1) / nworkers);
}

static void *worker(void *arg)
{
    for (;;) {
        pthread_barrier_wait(&start);
        share((int)(long)arg);
        pthread_barrier_wait(&done);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int runs = argc > 3 ? atoi(argv[3]) : 3;
    double best = 1e30, sum = 0;

    nworkers = argc > 1 ? atoi(argv[1]) : 1;
    n = argc > 2 ? atoi(argv[2]) : 384;
    if (nworkers < 1 || nworkers > 64 || n < BLK || runs < 1) {
        fprintf(stderr, "usage: matmul T [N] [R]\n");
        return 2;
    }
    a = malloc(sizeof(double) * n * n);
    b = malloc(sizeof(double) * n * n);
    c = malloc(sizeof(double) * n * n);
    if (!a || !b || !c)
        return 1;
    for (int i = 0; i < n * n; i++) {
        a[i] = (i % 7) - 3;
        b[i] = (i % 5) - 2;
    }
    pthread_barrier_init(&start, NULL, nworkers);
    pthread_barrier_init(&done, NULL, nworkers);
    for (int w = 1; w < nworkers; w++) {
        pthread_t t;
        if (pthread_create(&t, NULL, worker, (void *)(long)w) != 0) {
            printf("matmul: thread %d: no CPU (run in threads mode on %d "
                   "CPUs)\n", w, nworkers);
            return 1;
        }
    }
    for (int r = 0; r < runs; r++) {
        double t0 = now_ms(), t;
        if (nworkers > 1)
            pthread_barrier_wait(&start);
        share(0);
        if (nworkers > 1)
            pthread_barrier_wait(&done);
        t = now_ms() - t0;
        best = t < best ? t : best;
    }
    for (int i = 0; i < n * n; i++)
        sum += c[i];
    printf("matmul: n=%d threads=%d best_ms=%.3f checksum=%.0f\n", n,
           nworkers, best, sum);
    exit(0);                    /* the workers are stopped with us */
}
