/*
 * lxmpiabort: MPI_Abort from a Linux program on the nodes (built with
 * mpicc --linux-node, run by tests/qemu/suite-linux on 4 nodes): rank 1
 * aborts with code 17 while the others wait in a barrier that would
 * never end; yod must end the job with 17 and name rank 1, as for a
 * newlib program (tests/qemu/suite-jobs).
 */
#include <stdio.h>

#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d waiting\n", rank);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Abort(MPI_COMM_WORLD, 17);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: should never get here\n", rank);
    MPI_Finalize();
    return 0;
}
