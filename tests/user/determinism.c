/*
 * determinism: the same dense matrix multiply twice in one process; with
 * every page present from load to exit the two runs take the same time
 * (seed 000: under OSF/1 the first run paid for paging).  Prints both
 * times and their ratio; fails if they differ by more than argv[1] percent
 * (default 10).  suite-user runs it under QEMU -icount, where time is the
 * instruction count: both runs then take exactly the same time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 160

static double a[N][N], b[N][N], c[N][N];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double run(void)
{
    double t0 = now();
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < N; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
    return now() - t0;
}

int main(int argc, char **argv)
{
    double limit = argc > 1 ? atof(argv[1]) : 10, t1, t2, diff;

    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = i + j;
            b[i][j] = i - j;
        }
    t1 = run();
    t2 = run();
    diff = 100 * (t2 > t1 ? t2 - t1 : t1 - t2) / t1;
    printf("determinism: first %.3f ms, second %.3f ms, difference %.2f%%\n",
           t1 * 1e3, t2 * 1e3, diff);
    printf("determinism: c[7][9] = %.0f\n", c[7][9]);
    if (diff > limit) {
        printf("determinism: FAIL (more than %g%%)\n", limit);
        return 1;
    }
    puts("determinism: OK");
    return 0;
}
