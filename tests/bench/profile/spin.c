/* SPDX-License-Identifier: MIT */
/*
 * The cost of yod -profile (tests/bench/profile/run): a fixed amount of
 * work (a loop of dependent floating-point adds over 4 functions, so the
 * histogram has more than one hot bin), timed by the node's monotonic
 * clock; under -icount that clock counts the guest's instructions, so
 * what the profiling ticks take shows as time the work did not get.
 *   spin N     N million iterations; prints "spin: N M ns"
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double sink;

static double a(double x) { return x * 0.999999 + 1.0; }
static double b(double x) { return x * 0.999998 + 2.0; }
static double c(double x) { return x * 0.999997 + 3.0; }
static double d(double x) { return x * 0.999996 + 4.0; }

static long long now_ns(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
    long n = (argc > 1 ? atol(argv[1]) : 10) * 1000000L;
    double x = 0;
    long long t0 = now_ns();

    for (long i = 0; i < n; i += 4)
        x = d(c(b(a(x))));
    sink = x;
    printf("spin: %ld M %lld ns\n", n / 1000000L, now_ns() - t0);
    return 0;
}
