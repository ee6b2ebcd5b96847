// SPDX-License-Identifier: MIT
// dbgcxx: dbgmpi.c in C++ (mpicxx --lwk, the Linux personality), for gdb
// on a rank (tests/qemu/suite-debug): rank 1 stops in Worker::work, the
// test prints n and local, steps a line, sets local to 1000 and detaches.
#include <mpi.h>
#include <iostream>
#include <vector>

struct Worker {
    int bias = 1;
    int work(int n)
    {
        int local = n * 3;
        int result = local + bias;      // the line after `next`
        return result;
    }
};

int main(int argc, char **argv)
{
    int rank, size;
    Worker w;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0 && size > 1)
        MPI_Send(&w.bias, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(&w.bias, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    std::vector<int> v{w.work(rank + 10)};
    std::cout << "rank " << rank << ": result " << v[0] << std::endl;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
