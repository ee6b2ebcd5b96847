/* SPDX-License-Identifier: MIT */
/*
 * mpinids: an MPI program for tests/qemu/suite-slurm and
 * tests/bench/slurm/run: where did each rank run?
 *
 *   mpinids [CODE [SECS]]
 *
 * Every rank sends its processor name ("nid N") to rank 0, which prints
 * "started" at once, then "rank R of S on nid N" for every rank, in
 * rank order, and after an MPI_Allreduce of the ranks (so every rank took
 * part) "sum S"; each rank then waits SECS seconds (default 0) and exits
 * CODE (default 0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <mpi.h>

static void wait_s(double secs)
{
    double end = MPI_Wtime() + secs;

    while (MPI_Wtime() < end)
        ;
}

int main(int argc, char **argv)
{
    char name[MPI_MAX_PROCESSOR_NAME];
    int rank, size, len, sum;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        printf("started\n");
        fflush(stdout);
    }
    MPI_Get_processor_name(name, &len);
    if (rank) {
        MPI_Send(name, len + 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    } else {
        printf("rank 0 of %d on %s\n", size, name);
        for (int r = 1; r < size; r++) {
            MPI_Recv(name, sizeof(name), MPI_CHAR, r, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            printf("rank %d of %d on %s\n", r, size, name);
        }
    }
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("sum %d\n", sum);
    fflush(stdout);
    wait_s(argc > 2 ? atof(argv[2]) : 0);
    MPI_Finalize();
    return argc > 1 ? atoi(argv[1]) : 0;
}
