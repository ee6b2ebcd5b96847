/*
 * Benchmark (not a test): OS noise.  The same fixed piece of work, timed
 * with rdtsc, Q times in a row: on a quiet CPU every quantum takes as long
 * as the fastest; an interrupt or anything else the OS does in between
 * makes one longer.  Prints min, median, p99 and max in TSC ticks and
 * max/min.  With `threads`, a second copy runs in a thread on CPU 1
 * (threads mode) at the same time and reports the same for its CPU.
 *
 *   noise [Q] [threads]        Q quanta (default 2000)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORK    20000           /* loop turns per quantum */

struct run {
    int q;
    unsigned long long *t;
    const char *who;
};

static inline unsigned long long rdtsc(void)
{
    unsigned lo, hi;

    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((unsigned long long)hi << 32) | lo;
}

static int cmp(const void *a, const void *b)
{
    unsigned long long x = *(const unsigned long long *)a,
                       y = *(const unsigned long long *)b;
    return x < y ? -1 : x > y;
}

static void *measure(void *arg)
{
    struct run *r = arg;
    volatile unsigned long x = 1;

    for (int i = 0; i < r->q; i++) {
        unsigned long long t0 = rdtsc();
        for (int k = 0; k < WORK; k++)
            x = x * 6364136223846793005UL + 1442695040888963407UL;
        r->t[i] = rdtsc() - t0;
    }
    return NULL;
}

static void report(struct run *r)
{
    qsort(r->t, r->q, sizeof(r->t[0]), cmp);
    printf("noise: %s quanta=%d min=%llu median=%llu p99=%llu max=%llu "
           "max/min=%.4f p99/min=%.4f\n", r->who, r->q, r->t[0],
           r->t[r->q / 2], r->t[r->q * 99 / 100], r->t[r->q - 1],
           (double)r->t[r->q - 1] / r->t[0],
           (double)r->t[r->q * 99 / 100] / r->t[0]);
}

int main(int argc, char **argv)
{
    int q = argc > 1 ? atoi(argv[1]) : 2000;
    int threads = argc > 2 && !strcmp(argv[2], "threads");
    struct run main_run = { q, malloc(q * sizeof(unsigned long long)), "cpu0" };
    struct run thr_run = { q, malloc(q * sizeof(unsigned long long)), "cpu1" };
    pthread_t t;

    if (q < 100 || !main_run.t || !thr_run.t)
        return 2;
    if (threads && pthread_create(&t, NULL, measure, &thr_run) != 0) {
        printf("noise: no CPU for the thread (threads mode on 2 CPUs)\n");
        return 1;
    }
    measure(&main_run);
    if (threads)
        pthread_join(t, NULL);
    report(&main_run);
    if (threads)
        report(&thr_run);
    return 0;
}
