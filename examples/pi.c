/* SPDX-License-Identifier: MIT */
/*
 * pi: the classic MPI example, unchanged from what one would run on any
 * MPI machine.  Each rank integrates 4/(1+x^2) over its share of [0,1]
 * by the midpoint rule; MPI_Reduce sums the shares on rank 0.
 *
 *   tools/mpicc --lwk -O2 -o build/demo/pi examples/pi.c
 *   build/bin/yod -sz 4 build/demo/pi [intervals]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, len;
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    double h, part = 0, pi = 0, t0;
    char name[MPI_MAX_PROCESSOR_NAME];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &len);
    t0 = MPI_Wtime();
    h = 1.0 / (double)n;
    for (long i = rank; i < n; i += size) {
        double x = h * ((double)i + 0.5);
        part += 4.0 / (1.0 + x * x);
    }
    part *= h;
    printf("rank %d of %d on %s: its share %.12f\n", rank, size, name, part);
    MPI_Reduce(&part, &pi, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("pi ~ %.12f (error %.1e, %ld intervals, %.3f s)\n", pi,
               fabs(pi - 3.14159265358979323846), n, MPI_Wtime() - t0);
    MPI_Finalize();
    return 0;
}
