/* SPDX-License-Identifier: MIT */
/* MPI_Abort: the last rank aborts with code 3 while the others wait in a
 * receive that never completes; the launcher must end the whole job with
 * that status (tests/mpi/run checks it: this program prints nothing). */
#include "mpitest.h"

int main(int argc, char **argv)
{
    int v;

    t_init(&argc, &argv, "abort");
    if (t_rank == t_size - 1)
        MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    return t_finish();
}
