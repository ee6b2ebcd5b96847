/* SPDX-License-Identifier: MIT */
/*
 * median.h: the median of a benchmark's per-round times, for the
 * ping-pong programs (Portals, MPI, NX) that print it beside the mean.
 * On a shared host a burst of stolen CPU time moves the mean of a whole
 * run; it moves the median only if it lasts through half the rounds.
 */
#ifndef BENCH_MEDIAN_H
#define BENCH_MEDIAN_H

#include <stdlib.h>

static int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* The median of v[0..n-1], n > 0 (sorts v). */
static inline double bench_median(double *v, long n)
{
    qsort(v, (size_t)n, sizeof(*v), bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
