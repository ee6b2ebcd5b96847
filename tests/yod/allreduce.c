/* SPDX-License-Identifier: MIT */
/*
 * allreduce: an MPI job over every node of a big cluster
 * (tests/qemu/suite-scale).
 *
 *   allreduce [ROUNDS]
 *
 * Each round every rank contributes its rank, 1, and a vector whose
 * element i is rank * i; MPI_Allreduce sums them (and takes the max of
 * the ranks) and every rank checks every element against the closed
 * form.  A rank that finds a wrong value says so and exits 1; rank 0
 * prints "allreduce: N ranks, R rounds, sum S, max M: right" at the end.
 */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#define VEC 64

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 3, rank, size, bad = 0;
    long mine[2 + VEC], sum[2 + VEC], top[1];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int k = 0; k < rounds && !bad; k++) {
        long tri = (long)size * (size - 1) / 2;
        mine[0] = rank;
        mine[1] = 1;
        for (int i = 0; i < VEC; i++)
            mine[2 + i] = (long)rank * (i + k);
        MPI_Allreduce(mine, sum, 2 + VEC, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(&mine[0], top, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
        bad = sum[0] != tri || sum[1] != size || top[0] != size - 1;
        for (int i = 0; i < VEC && !bad; i++)
            bad = sum[2 + i] != tri * (i + k);
        if (bad)
            printf("allreduce: rank %d, round %d: sum %ld, count %ld, max "
                   "%ld, want %ld, %d, %d\n", rank, k, sum[0], sum[1],
                   top[0], tri, size, size - 1);
    }
    if (rank == 0 && !bad)
        printf("allreduce: %d ranks, %d rounds, sum %ld, max %ld: right\n",
               size, rounds, sum[0], top[0]);
    MPI_Finalize();
    return bad;
}
