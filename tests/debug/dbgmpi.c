/* SPDX-License-Identifier: MIT */
/*
 * dbgmpi: a small MPI program for gdb on a rank (tests/qemu/suite-debug):
 * each rank computes work(rank + 10) and prints it; the test stops rank 1
 * in work, prints n and local, steps a line, sets local to 1000 and
 * detaches: rank 1 must then print 1000 + the bias rank 0 sent it.
 * With argument "spin", rank 1 first waits in spin() until a debugger
 * that attached to it (yod -attach, or Ctrl-C) sets `go`.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int bias;
static volatile int go;

void spin(void)
{
    while (!go)
        ;
}

int work(int n)
{
    int local = n * 3;
    int result = local + bias;          /* the line after `next` */

    return result;
}

int main(int argc, char **argv)
{
    int rank, size, v;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    bias = 1;
    if (rank == 0 && size > 1)
        MPI_Send(&bias, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(&bias, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 1 && argc > 1 && !strcmp(argv[1], "spin")) {
        printf("rank 1: spinning\n");
        fflush(stdout);
        spin();
    }
    v = work(rank + 10);
    printf("rank %d: result %d\n", rank, v);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
