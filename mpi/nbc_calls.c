/* SPDX-License-Identifier: MIT */
/*
 * nbc_calls.c: the nonblocking collective calls (MPI_Ibarrier ...
 * MPI_Iexscan, MPI_Ialltoallw): their arguments checked as the blocking
 * calls' (coll.h), then the schedule of their algorithm (nbc_algo.c, or
 * inter_coll.c on an intercommunicator) started as the request.
 */
#include <stdlib.h>
#include <string.h>
#include "nbc.h"

#define START(s, req, comm, name) RET(comm, nbc_start(s, req), name)

/* The argument checks' verdict, a missing request handle last; the
 * request is MPI_REQUEST_NULL until the call has started. */
static int checked(int rc, MPI_Request *req)
{
    if (req == NULL)
        return rc ? rc : MPI_ERR_REQUEST;
    *req = MPI_REQUEST_NULL;
    return rc;
}

static int check_red(MPI_Comm c, int count, MPI_Datatype dt, MPI_Op op)
{
    int rc = check_buf(c, count, dt);
    return rc ? rc : op_check(op, dt);
}

/* A triggered call that could not start (resources): nothing of it
 * stays, the error goes to the communicator's handler. */
static int tc_failed(struct nbc *s, MPI_Comm comm, int rc, const char *name)
{
    if (s != NULL)
        nbc_free(s);
    return mpi_err(comm, rc, name);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
    int rc;
    struct nbc *s;

    if (comm_inter(comm)) {
        rc = ic_barrier(comm, &s);
        return mpi_err(comm, ic_start(rc, s, req), "MPI_Ibarrier");
    }
    rc = check_coll(comm);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Ibarrier");
    if ((s = trig_ibarrier(comm)) == NULL && (s = nbc_new(comm)) != NULL)
        nbc_barrier_steps(s);
    return START(s, req, comm, "MPI_Ibarrier");
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype dt, int root,
               MPI_Comm comm, MPI_Request *req)
{
    int rc;
    struct nbc *s;

    if (comm_inter(comm)) {
        rc = ic_bcast(buf, count, dt, root, comm, &s);
        return mpi_err(comm, ic_start(rc, s, req), "MPI_Ibcast");
    }
    rc = check_buf(comm, count, dt);
    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Ibcast");
    if (tcoll_bcast_ok(comm, count, dt)) {
        if ((rc = tcoll_ibcast(buf, count, dt, root, comm, &s)) != 0)
            return tc_failed(s, comm, rc, "MPI_Ibcast");
    } else if ((s = nbc_new(comm)) != NULL) {
        nbc_bcast_steps(s, buf, count, dt, root);
    }
    return START(s, req, comm, "MPI_Ibcast");
}

int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                MPI_Op op, int root, MPI_Comm comm, MPI_Request *req)
{
    int rc;
    struct nbc *s;

    if (comm_inter(comm)) {
        rc = ic_reduce(sbuf, rbuf, count, dt, op, root, comm, &s);
        return mpi_err(comm, ic_start(rc, s, req), "MPI_Ireduce");
    }
    rc = check_red(comm, count, dt, op);
    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Ireduce");
    if ((s = nbc_new(comm)) != NULL)
        nbc_reduce_to(s, sbuf, rbuf, count, dt, op, root);
    return START(s, req, comm, "MPI_Ireduce");
}

int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                   MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    int rc;
    struct nbc *s;

    if (comm_inter(comm)) {
        rc = ic_allreduce(sbuf, rbuf, count, dt, op, comm, &s);
        return mpi_err(comm, ic_start(rc, s, req), "MPI_Iallreduce");
    }
    rc = check_red(comm, count, dt, op);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Iallreduce");
    if (tcoll_allreduce_ok(comm, count, dt, op)) {
        rc = tcoll_iallreduce(sbuf, rbuf, count, dt, op, comm, &s);
        if (rc != MPI_SUCCESS)
            return tc_failed(s, comm, rc, "MPI_Iallreduce");
    } else if ((s = nbc_new(comm)) != NULL) {
        nbc_build_allreduce(s, sbuf, rbuf, count, dt, op);
    }
    return START(s, req, comm, "MPI_Iallreduce");
}

int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
              MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    int rc = check_red(comm, count, dt, op);
    struct nbc *s;

    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Iscan");
    if ((s = nbc_new(comm)) != NULL)
        nbc_scan_steps(s, sbuf, rbuf, count, dt, op, false);
    return START(s, req, comm, "MPI_Iscan");
}

int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    int rc = check_red(comm, count, dt, op);
    struct nbc *s;

    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Iexscan");
    if ((s = nbc_new(comm)) != NULL)
        nbc_scan_steps(s, sbuf, rbuf, count, dt, op, true);
    return START(s, req, comm, "MPI_Iexscan");
}

int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                 const int *rcounts, const int *displs, MPI_Datatype rt,
                 int root, MPI_Comm comm, MPI_Request *req)
{
    int rc;
    struct nbc *s;

    if (comm_inter(comm)) {
        rc = ic_gatherv(sbuf, scount, st, rbuf, rcounts, displs, 0, rt, root,
                        comm, &s);
        return mpi_err(comm, ic_start(rc, s, req), "MPI_Igatherv");
    }
    rc = check_coll(comm);
    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, st);
    if (rc == MPI_SUCCESS && comm->rank == root)
        rc = check_buf(comm, 0, rt);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Igatherv");
    if ((s = nbc_new(comm)) != NULL)
        nbc_gatherv_steps(s, sbuf, scount, st, rbuf, rcounts, displs, 0, rt,
                      root);
    return START(s, req, comm, "MPI_Igatherv");
}

int MPI_Igather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                int rcount, MPI_Datatype rt, int root, MPI_Comm comm,
                MPI_Request *req)
{
    int rc;
    struct nbc *s;

    if (comm_inter(comm)) {
        rc = ic_gatherv(sbuf, scount, st, rbuf, NULL, NULL, rcount, rt, root,
                        comm, &s);
        return mpi_err(comm, ic_start(rc, s, req), "MPI_Igather");
    }
    rc = check_coll(comm);
    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, st);
    if (rc == MPI_SUCCESS && comm->rank == root)
        rc = check_buf(comm, rcount, rt);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Igather");
    if ((s = nbc_new(comm)) != NULL)
        nbc_gatherv_steps(s, sbuf, scount, st, rbuf, NULL, NULL, rcount, rt,
                      root);
    return START(s, req, comm, "MPI_Igather");
}

int MPI_Iscatterv(const void *sbuf, const int *scounts, const int *displs,
                  MPI_Datatype st, void *rbuf, int rcount, MPI_Datatype rt,
                  int root, MPI_Comm comm, MPI_Request *req)
{
    int rc;
    struct nbc *s;

    if (comm_inter(comm)) {
        rc = ic_scatterv(sbuf, scounts, displs, 0, st, rbuf, rcount, rt, root,
                         comm, &s);
        return mpi_err(comm, ic_start(rc, s, req), "MPI_Iscatterv");
    }
    rc = check_coll(comm);
    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS && comm->rank == root)
        rc = check_buf(comm, 0, st);
    if (rc == MPI_SUCCESS && rbuf != MPI_IN_PLACE)
        rc = check_buf(comm, rcount, rt);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Iscatterv");
    if ((s = nbc_new(comm)) != NULL)
        nbc_scatterv_steps(s, sbuf, scounts, displs, 0, st, rbuf, rcount, rt,
                       root);
    return START(s, req, comm, "MPI_Iscatterv");
}

int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                 int rcount, MPI_Datatype rt, int root, MPI_Comm comm,
                 MPI_Request *req)
{
    int rc;
    struct nbc *s;

    if (comm_inter(comm)) {
        rc = ic_scatterv(sbuf, NULL, NULL, scount, st, rbuf, rcount, rt, root,
                         comm, &s);
        return mpi_err(comm, ic_start(rc, s, req), "MPI_Iscatter");
    }
    rc = check_coll(comm);
    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS && comm->rank == root)
        rc = check_buf(comm, scount, st);
    if (rc == MPI_SUCCESS && rbuf != MPI_IN_PLACE)
        rc = check_buf(comm, rcount, rt);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Iscatter");
    if ((s = nbc_new(comm)) != NULL)
        nbc_scatterv_steps(s, sbuf, NULL, NULL, scount, st, rbuf, rcount, rt,
                       root);
    return START(s, req, comm, "MPI_Iscatter");
}

int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype st,
                   void *rbuf, int rcount, MPI_Datatype rt, MPI_Comm comm,
                   MPI_Request *req)
{
    int rc;
    struct nbc *s;

    if (comm_inter(comm)) {
        rc = ic_exchange(sbuf, NULL, NULL, scount, st, rbuf, NULL, NULL,
                         rcount, rt, true, comm, &s);
        return mpi_err(comm, ic_start(rc, s, req), "MPI_Iallgather");
    }
    rc = check_buf(comm, rcount, rt);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, st);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Iallgather");
    if ((s = nbc_new(comm)) != NULL)
        nbc_exchange_steps(s, sbuf, NULL, NULL, scount, st, rbuf, NULL, NULL,
                       rcount, rt, true);
    return START(s, req, comm, "MPI_Iallgather");
}

int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype st,
                    void *rbuf, const int *rcounts, const int *displs,
                    MPI_Datatype rt, MPI_Comm comm, MPI_Request *req)
{
    int rc;
    struct nbc *s;

    if (comm_inter(comm)) {
        rc = ic_exchange(sbuf, NULL, NULL, scount, st, rbuf, rcounts, displs,
                         0, rt, true, comm, &s);
        return mpi_err(comm, ic_start(rc, s, req), "MPI_Iallgatherv");
    }
    rc = check_buf(comm, 0, rt);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, st);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Iallgatherv");
    if ((s = nbc_new(comm)) != NULL) {
        /* in place: my block is rbuf's block at displs[me] */
        if (sbuf == MPI_IN_PLACE) {
            sbuf = (char *)rbuf + (MPI_Aint)displs[comm->rank] *
                                  dt_extent(rt);
            scount = rcounts[comm->rank];
            st = rt;
        }
        nbc_exchange_steps(s, sbuf, NULL, NULL, scount, st, rbuf, rcounts,
                       displs, 0, rt, true);
    }
    return START(s, req, comm, "MPI_Iallgatherv");
}

int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                  int rcount, MPI_Datatype rt, MPI_Comm comm,
                  MPI_Request *req)
{
    int rc, *v;
    struct nbc *s;

    if (comm_inter(comm)) {
        rc = ic_exchange(sbuf, NULL, NULL, scount, st, rbuf, NULL, NULL,
                         rcount, rt, false, comm, &s);
        return mpi_err(comm, ic_start(rc, s, req), "MPI_Ialltoall");
    }
    rc = check_buf(comm, rcount, rt);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, st);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Ialltoall");
    if ((s = nbc_new(comm)) != NULL &&
        (v = nbc_tmp(s, 4 * comm->size, MPI_INT)) != NULL) {
        int n = comm->size;
        for (int i = 0; i < n; i++) {   /* equal blocks, one after another */
            v[i] = scount, v[n + i] = i * scount;
            v[2 * n + i] = rcount, v[3 * n + i] = i * rcount;
        }
        nbc_alltoall_steps(s, sbuf, v, v + n, st, rbuf, v + 2 * n, v + 3 * n,
                       rt);
    }
    return START(s, req, comm, "MPI_Ialltoall");
}

int MPI_Ialltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                   MPI_Datatype st, void *rbuf, const int *rcounts,
                   const int *rdispls, MPI_Datatype rt, MPI_Comm comm,
                   MPI_Request *req)
{
    int rc;
    struct nbc *s;

    if (comm_inter(comm)) {
        rc = ic_exchange(sbuf, scounts, sdispls, 0, st, rbuf, rcounts, rdispls,
                         0, rt, false, comm, &s);
        return mpi_err(comm, ic_start(rc, s, req), "MPI_Ialltoallv");
    }
    rc = check_buf(comm, 0, rt);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, 0, st);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Ialltoallv");
    if ((s = nbc_new(comm)) != NULL) nbc_alltoall_steps(s, sbuf, scounts,
        sdispls, st, rbuf, rcounts, rdispls, rt);
    return START(s, req, comm, "MPI_Ialltoallv");
}

int MPI_Ialltoallw(const void *sbuf, const int *scounts, const int *sdispls,
                   const MPI_Datatype *stypes, void *rbuf,
                   const int *rcounts, const int *rdispls,
                   const MPI_Datatype *rtypes, MPI_Comm comm,
                   MPI_Request *req)
{
    int rc;
    struct nbc *s;

    if (comm_inter(comm)) {
        rc = ic_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts,
                          rdispls, rtypes, comm, &s);
        return mpi_err(comm, ic_start(rc, s, req), "MPI_Ialltoallw");
    }
    rc = check_coll(comm);
    for (int i = 0; rc == MPI_SUCCESS && i < comm->size; i++) {
        rc = rcounts[i] < 0 ? MPI_ERR_COUNT : check_buf(comm, 0, rtypes[i]);
        if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
            rc = scounts[i] < 0 ? MPI_ERR_COUNT
                                : check_buf(comm, 0, stypes[i]);
    }
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Ialltoallw");
    if ((s = nbc_new(comm)) != NULL)
        nbc_alltoallw_steps(s, sbuf, scounts, sdispls, stypes, rbuf, rcounts,
                            rdispls, rtypes);
    return START(s, req, comm, "MPI_Ialltoallw");
}

int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                        MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                        MPI_Request *req)
{
    int rc;
    struct nbc *s;

    if (comm_inter(comm)) {
        rc = ic_reduce_scatter(sbuf, rbuf, rcounts, 0, dt, op, comm, &s);
        return mpi_err(comm, ic_start(rc, s, req), "MPI_Ireduce_scatter");
    }
    rc = check_red(comm, 0, dt, op);
    for (int i = 0; rc == MPI_SUCCESS && i < comm->size; i++)
        if (rcounts[i] < 0)
            rc = MPI_ERR_COUNT;
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Ireduce_scatter");
    if ((s = nbc_new(comm)) != NULL)
        nbc_reduce_scatter_steps(s, sbuf, rbuf, rcounts, dt, op);
    return START(s, req, comm, "MPI_Ireduce_scatter");
}

int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int count,
                              MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                              MPI_Request *req)
{
    int rc;
    struct nbc *s;
    int *counts;

    if (comm_inter(comm)) {
        rc = ic_reduce_scatter(sbuf, rbuf, NULL, count, dt, op, comm, &s);
        return mpi_err(comm, ic_start(rc, s, req),
                       "MPI_Ireduce_scatter_block");
    }
    rc = check_red(comm, count, dt, op);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Ireduce_scatter_block");
    if ((s = nbc_new(comm)) != NULL &&
        (counts = nbc_tmp(s, comm->size, MPI_INT)) != NULL) {
        for (int i = 0; i < comm->size; i++)
            counts[i] = count;
        nbc_reduce_scatter_steps(s, sbuf, rbuf, counts, dt, op);
    }
    return START(s, req, comm, "MPI_Ireduce_scatter_block");
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Ibarrier)
PMPI(MPI_Ibcast)
PMPI(MPI_Ireduce)
PMPI(MPI_Iallreduce)
PMPI(MPI_Iscan)
PMPI(MPI_Iexscan)
PMPI(MPI_Igatherv)
PMPI(MPI_Igather)
PMPI(MPI_Iscatterv)
PMPI(MPI_Iscatter)
PMPI(MPI_Iallgather)
PMPI(MPI_Iallgatherv)
PMPI(MPI_Ialltoall)
PMPI(MPI_Ialltoallv)
PMPI(MPI_Ialltoallw)
PMPI(MPI_Ireduce_scatter)
PMPI(MPI_Ireduce_scatter_block)
