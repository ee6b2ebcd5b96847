/* SPDX-License-Identifier: MIT */
/*
 * grequest.c: generalized requests (MPI-3.1 12.2): operations the
 * program carries out itself and completes with MPI_Grequest_complete,
 * waited for and tested like any request; their status is what the
 * program's query function says, and MPI_Status_set_elements/_cancelled
 * are how it says it.  MPI_Wait on one that no one will complete waits
 * for ever, as the standard allows: a single-threaded program completes
 * it before it waits.
 */
#include <stdlib.h>
#include "mpi_impl.h"

struct greq {
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free_fn;
    MPI_Grequest_cancel_function *cancel;
    void *extra;
};

int MPI_Grequest_start(MPI_Grequest_query_function *query,
                       MPI_Grequest_free_function *free_fn,
                       MPI_Grequest_cancel_function *cancel, void *extra,
                       MPI_Request *req)
{
    MPI_Request r;
    struct greq *g;

    if (req == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Grequest_start");
    *req = MPI_REQUEST_NULL;
    if ((g = malloc(sizeof(*g))) == NULL || (r = req_new(RQ_GREQ)) == NULL) {
        free(g);
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Grequest_start");
    }
    *g = (struct greq){ query, free_fn, cancel, extra };
    r->greq = g;
    r->comm = MPI_COMM_WORLD;
    r->state = RS_ACTIVE;
    *req = r;
    return MPI_SUCCESS;
}

int MPI_Grequest_complete(MPI_Request r)
{
    if (r == MPI_REQUEST_NULL || r->greq == NULL || r->state != RS_ACTIVE)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                       "MPI_Grequest_complete");
    req_complete(r);            /* frees it if MPI_Request_free came first */
    return MPI_SUCCESS;
}

/* The status the query function gives; its error, if it fails, is the
 * status's (what MPI_Wait returns, or MPI_ERR_IN_STATUS says). */
void greq_query(MPI_Request r)
{
    struct greq *g = r->greq;
    int rc;

    status_empty(&r->status);
    if (g->query != NULL &&
        (rc = g->query(g->extra, &r->status)) != MPI_SUCCESS)
        r->status.MPI_ERROR = rc;
}

void greq_cancel(MPI_Request r)
{
    struct greq *g = r->greq;

    if (g->cancel != NULL)
        g->cancel(g->extra, r->state == RS_DONE);
}

/* The request is going: the program's free function, once. */
void greq_release(MPI_Request r)
{
    struct greq *g = r->greq;

    r->greq = NULL;
    if (g->free_fn != NULL)
        g->free_fn(g->extra);
    free(g);
}

/* ---- what a query function fills in ---- */

int MPI_Status_set_elements_x(MPI_Status *st, MPI_Datatype dt,
                              MPI_Count count)
{
    int rc = dt_check(dt);

    if (rc == MPI_SUCCESS && (st == NULL || st == MPI_STATUS_IGNORE))
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS && count < 0)
        rc = MPI_ERR_COUNT;
    if (rc != MPI_SUCCESS)
        return mpi_err(MPI_COMM_WORLD, rc, "MPI_Status_set_elements_x");
    st->mpi_bytes = dt_elements_bytes(dt, count);
    return MPI_SUCCESS;
}

int MPI_Status_set_elements(MPI_Status *st, MPI_Datatype dt, int count)
{
    return MPI_Status_set_elements_x(st, dt, count);
}

int MPI_Status_set_cancelled(MPI_Status *st, int flag)
{
    if (st == NULL || st == MPI_STATUS_IGNORE)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG,
                       "MPI_Status_set_cancelled");
    st->mpi_cancelled = flag != 0;
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Grequest_start)
PMPI(MPI_Grequest_complete)
PMPI(MPI_Status_set_elements_x)
PMPI(MPI_Status_set_elements)
PMPI(MPI_Status_set_cancelled)
