/* SPDX-License-Identifier: MIT */
/*
 * bigcount.c: the MPI_Count ("_c", and MPI-3's "_x") forms of the common
 * calls.  A message here is at most Portals' 4 GiB, so a count past
 * INT_MAX is refused (MPI_ERR_COUNT) and the rest is the int call.
 */
#include <limits.h>
#include "mpi_impl.h"

static int fits(MPI_Count count)
{
    return count >= 0 && count <= INT_MAX;
}

#define TOO_BIG(comm, name) mpi_err(comm, MPI_ERR_COUNT, name)

/* A request that was never made: MPI_REQUEST_NULL, then the error. */
static int no_request(MPI_Comm comm, MPI_Request *req, const char *name)
{
    if (req != NULL)
        *req = MPI_REQUEST_NULL;
    return TOO_BIG(comm, name);
}

int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
               int tag, MPI_Comm comm)
{
    return fits(count) ? MPI_Send((void *)buf, (int)count, dt, dest, tag,
                                  comm) : TOO_BIG(comm, "MPI_Send_c");
}

int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype dt, int source,
               int tag, MPI_Comm comm, MPI_Status *status)
{
    return fits(count) ? MPI_Recv(buf, (int)count, dt, source, tag, comm,
                                  status) : TOO_BIG(comm, "MPI_Recv_c");
}

int MPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, MPI_Request *req)
{
    return fits(count) ? MPI_Isend((void *)buf, (int)count, dt, dest, tag,
                                   comm, req)
                         : no_request(comm, req, "MPI_Isend_c");
}

int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype dt, int source,
                int tag, MPI_Comm comm, MPI_Request *req)
{
    return fits(count) ? MPI_Irecv(buf, (int)count, dt, source, tag, comm,
                                   req)
                         : no_request(comm, req, "MPI_Irecv_c");
}

int MPI_Bcast_c(void *buf, MPI_Count count, MPI_Datatype dt, int root,
                MPI_Comm comm)
{
    return fits(count) ? MPI_Bcast(buf, (int)count, dt, root, comm)
                       : TOO_BIG(comm, "MPI_Bcast_c");
}

int MPI_Allreduce_c(const void *sbuf, void *rbuf, MPI_Count count,
                    MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    return fits(count) ? MPI_Allreduce((void *)sbuf, rbuf, (int)count, dt, op,
                                       comm)
                       : TOO_BIG(comm, "MPI_Allreduce_c");
}

int MPI_Reduce_c(const void *sbuf, void *rbuf, MPI_Count count,
                 MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
    return fits(count) ? MPI_Reduce((void *)sbuf, rbuf, (int)count, dt, op,
                                    root, comm)
                       : TOO_BIG(comm, "MPI_Reduce_c");
}

int MPI_Get_count_c(const MPI_Status *st, MPI_Datatype dt, MPI_Count *count)
{
    int rc = dt_check(dt);

    if (rc != MPI_SUCCESS || st == NULL || count == NULL)
        return mpi_err(MPI_COMM_WORLD, rc ? rc : MPI_ERR_ARG,
                       "MPI_Get_count_c");
    *count = status_count(st, dt);
    return MPI_SUCCESS;
}

int MPI_Type_size_c(MPI_Datatype dt, MPI_Count *size)
{
    int rc = dt_check_any(dt);

    if (rc == MPI_SUCCESS && size == NULL)
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return mpi_err(MPI_COMM_WORLD, rc, "MPI_Type_size_c");
    *size = dt->size;
    return MPI_SUCCESS;
}

int MPI_Type_size_x(MPI_Datatype dt, MPI_Count *size)
{
    return MPI_Type_size_c(dt, size);
}

int MPI_Type_get_extent_c(MPI_Datatype dt, MPI_Count *lb, MPI_Count *extent)
{
    int rc = dt_check_any(dt);

    if (rc == MPI_SUCCESS && (lb == NULL || extent == NULL))
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return mpi_err(MPI_COMM_WORLD, rc, "MPI_Type_get_extent_c");
    *lb = dt->lb;
    *extent = dt_extent(dt);
    return MPI_SUCCESS;
}

int MPI_Type_get_extent_x(MPI_Datatype dt, MPI_Count *lb, MPI_Count *extent)
{
    return MPI_Type_get_extent_c(dt, lb, extent);
}

int MPI_Type_get_true_extent_x(MPI_Datatype dt, MPI_Count *lb,
                               MPI_Count *extent)
{
    int rc = dt_check_any(dt);

    if (rc == MPI_SUCCESS && (lb == NULL || extent == NULL))
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return mpi_err(MPI_COMM_WORLD, rc, "MPI_Type_get_true_extent_x");
    *lb = dt->true_lb;
    *extent = dt->true_ub - dt->true_lb;
    return MPI_SUCCESS;
}

int MPI_Get_elements_x(const MPI_Status *st, MPI_Datatype dt,
                       MPI_Count *count)
{
    int rc = dt_check(dt);

    if (rc != MPI_SUCCESS || st == NULL || count == NULL)
        return mpi_err(MPI_COMM_WORLD, rc ? rc : MPI_ERR_ARG,
                       "MPI_Get_elements_x");
    *count = dt_elements(dt, st->mpi_bytes);
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Send_c)
PMPI(MPI_Recv_c)
PMPI(MPI_Isend_c)
PMPI(MPI_Irecv_c)
PMPI(MPI_Bcast_c)
PMPI(MPI_Allreduce_c)
PMPI(MPI_Reduce_c)
PMPI(MPI_Get_count_c)
PMPI(MPI_Type_size_c)
PMPI(MPI_Type_size_x)
PMPI(MPI_Type_get_extent_c)
PMPI(MPI_Type_get_extent_x)
PMPI(MPI_Type_get_true_extent_x)
PMPI(MPI_Get_elements_x)
