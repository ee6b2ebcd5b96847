/* SPDX-License-Identifier: MIT */
/* The profiling interface: this program's own MPI_Send and MPI_Barrier
 * replace the library's (weak) ones and reach it through PMPI_.  Also
 * starts with MPI_Init_thread (single-threaded is what is provided). */
#include "mpitest.h"

static int sends, barriers;

int MPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
             MPI_Comm comm)
{
    sends++;
    return PMPI_Send(buf, count, dt, dest, tag, comm);
}

int MPI_Barrier(MPI_Comm comm)
{
    barriers++;
    return PMPI_Barrier(comm);
}

int main(int argc, char **argv)
{
    int v = 3, r = 0;

    int prov = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &prov);
    MPI_Comm_rank(MPI_COMM_WORLD, &t_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t_size);
    t_prog = "profile";
    CHECK(prov == MPI_THREAD_FUNNELED);     /* init.c: the most it gives */
    MPI_Send(&v, 1, MPI_INT, t_rank, 1, MPI_COMM_WORLD);
    MPI_Recv(&r, 1, MPI_INT, t_rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(sends == 1 && barriers == 1 && r == 3);
    t_report("pmpi-wrappers");
    return t_finish();
}
