/* SPDX-License-Identifier: MIT */
/*
 * coll_bench.c: time of MPI_Barrier and MPI_Allreduce (one double, and
 * 1024 doubles, MPI_SUM) on MPI_COMM_WORLD.  A few warm-up calls, then
 * ITERS calls of each, a barrier between the kinds; rank 0 prints
 * "SIZE,barrier_us,allreduce8_us,allreduce8k_us" (mean microseconds per
 * call) and checks the sums.  Usage (under tools/ptlrun -n N):
 * coll-bench [ITERS]
 */
#include <stdio.h>
#include <stdlib.h>
#include "mpi.h"

#define BIG 1024

static double per_call(double t0, int iters)
{
    return (MPI_Wtime() - t0) / iters * 1e6;
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 200, bad = 0;
    static double in[BIG], out[BIG];
    double t0, tb, t1, tk;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < BIG; i++)
        in[i] = rank + i;
    for (int i = 0; i < 10; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    tb = per_call(t0, iters);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        MPI_Allreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        bad += out[0] != size * (size - 1) / 2.0;
    }
    t1 = per_call(t0, iters);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int i = 0; i < iters / 4 + 1; i++) {
        MPI_Allreduce(in, out, BIG, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        bad += out[BIG - 1] != size * (size - 1) / 2.0 + (double)size * (BIG - 1);
    }
    tk = per_call(t0, iters / 4 + 1);
    if (bad)
        fprintf(stderr, "rank %d: %d wrong sums\n", rank, bad);
    if (rank == 0)
        printf("%d,%.1f,%.1f,%.1f\n", size, tb, t1, tk);
    MPI_Finalize();
    return bad != 0;
}
