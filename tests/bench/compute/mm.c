/*
 * mm: the compute kernel of the Linux-personality figure (run): a
 * 200x200 double matrix multiply, 5 times, each timed with
 * clock_gettime(CLOCK_MONOTONIC).  The same static binary (gcc -static)
 * runs on a node and in the Linux guest, both under QEMU -icount, where
 * time is the guest's instruction count.  Prints "mm,c,REP,MS" lines.
 */
#include <stdio.h>
#include <time.h>

#define N 200
static double a[N][N], b[N][N], c[N][N];

int main(void)
{
    struct timespec t0, t1;
    double check = 0;

    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = i + 0.5 * j;
            b[i][j] = i - 0.25 * j;
        }
    for (int rep = 0; rep < 5; rep++) {
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                double s = 0;
                for (int k = 0; k < N; k++)
                    s += a[i][k] * b[k][j];
                c[i][j] = s;
            }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        check += c[rep][N - 1 - rep];
        printf("mm,c,%d,%.3f\n", rep,
               (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
    }
    printf("mm: check %.6e\n", check);
    return 0;
}
