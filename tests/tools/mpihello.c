/* SPDX-License-Identifier: MIT */
/*
 * mpihello: the MPI program of tests/tools/wrappers and install-job.
 * Every rank prints "rank R of N sum S", S the sum of 1..N from an
 * allreduce, so one line shows the job ran and the ranks talked.
 */
#include <stdio.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, sum, one;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    one = rank + 1;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d of %d sum %d\n", rank, size, sum);
    MPI_Finalize();
    return 0;
}
