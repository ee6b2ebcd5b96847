/* SPDX-License-Identifier: MIT */
/*
 * request.c: requests and their completion: MPI_Wait/Test and the
 * any/all/some variants, MPI_Request_free, MPI_Test_cancelled.  A request
 * is DONE when the protocol says so (req_complete); waiting drives
 * progress; finishing copies the status out and frees a non-persistent
 * request (a persistent one goes back to INACTIVE).
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"

/* Freed requests are kept for reuse: with calloc and free, a request
 * cost ~450 instructions, and a small message takes two or three (the
 * caller's, the receiver's, a copied send's): a sixth of rank 0's work in
 * a ping-pong round trip (callgrind, mpi-bench over the host libportals). */
#define REQ_CACHE   64

static MPI_Request req_cache[REQ_CACHE];
static int req_cached;

MPI_Request req_new(enum req_kind kind)
{
    MPI_Request r;

    if (req_cached > 0) {
        r = req_cache[--req_cached];
        memset(r, 0, sizeof(*r));
    } else if ((r = calloc(1, sizeof(*r))) == NULL) {
        return NULL;
    }
    r->tag_kind = UP_REQ;
    r->kind = kind;
    r->state = RS_INACTIVE;
    return r;
}

/* The request's own buffer: a packed copy, or a copied send's (proto.c
 * keeps those for reuse too). */
static void tmp_release(MPI_Request r)
{
    if (r->tmp == NULL)
        return;
    if (r->copied)
        proto_copy_release(r->tmp);
    else
        free(r->tmp);
    r->tmp = NULL;
}

void req_free(MPI_Request r)
{
    if (r->greq != NULL)
        greq_release(r);
    if (r->dt != MPI_DATATYPE_NULL)
        dt_release(r->dt);
    tmp_release(r);
    if (req_cached < REQ_CACHE)
        req_cache[req_cached++] = r;
    else
        free(r);
}

void status_empty(MPI_Status *st)
{
    if (st == MPI_STATUS_IGNORE)
        return;
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    st->MPI_ERROR = MPI_SUCCESS;
    st->mpi_cancelled = 0;
    st->mpi_bytes = 0;
}

/* The protocol finished with r: unpack, release buffers, mark DONE. */
void req_complete(MPI_Request r)
{
    if (r->kind == RQ_RECV && r->tmp != NULL && !r->cancelled)
        dt_unpack(r->tmp, r->status.mpi_bytes, r->buf, r->count, r->dt);
    tmp_release(r);
    if (r->bsend_seg != NULL)
        bsend_done(r);
    r->state = RS_DONE;
    if (r->freed)
        req_free(r);
}

/* A request for something already done (nonblocking file calls). */
MPI_Request req_done(MPI_Comm comm, const MPI_Status *st)
{
    MPI_Request r = req_new(RQ_COLL);

    if (r == NULL)
        return NULL;
    r->comm = comm;
    r->status = *st;
    r->state = RS_DONE;
    return r;
}

/* Copy out the status and retire a DONE request; returns its error. */
int req_finish(MPI_Request *rp, MPI_Status *st)
{
    MPI_Request r = *rp;
    int err;

    if (r->greq != NULL)
        greq_query(r);
    err = r->status.MPI_ERROR;
    if (st != MPI_STATUS_IGNORE) {
        *st = r->status;
        if (r->kind == RQ_SEND) {   /* senders see no source/tag/count */
            st->MPI_SOURCE = MPI_ANY_SOURCE;
            st->MPI_TAG = MPI_ANY_TAG;
        }
    }
    if (r->persistent) {
        r->state = RS_INACTIVE;
    } else {
        req_free(r);
        *rp = MPI_REQUEST_NULL;
    }
    return err;
}

static bool inactive(MPI_Request r)
{
    return r == MPI_REQUEST_NULL || r->state == RS_INACTIVE;
}

static MPI_Comm req_comm(MPI_Request r)
{
    return r ? r->comm : MPI_COMM_WORLD;
}

int p2p_wait(MPI_Request *rp, MPI_Status *st)
{
    if (inactive(*rp)) {
        status_empty(st);
        return MPI_SUCCESS;
    }
    while ((*rp)->state != RS_DONE) {
        if ((*rp)->kind == RQ_FILE)
            io_async_wait(*rp);     /* its news comes through libc */
        else
            proto_progress(true);
    }
    return req_finish(rp, st);
}

int MPI_Wait(MPI_Request *rp, MPI_Status *st)
{
    MPI_Comm c;
    int rc;

    if (rp == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Wait");
    c = req_comm(*rp);
    rc = p2p_wait(rp, st);
    return rc ? mpi_err(c, rc, "MPI_Wait") : MPI_SUCCESS;
}

int MPI_Test(MPI_Request *rp, int *flag, MPI_Status *st)
{
    MPI_Comm c;
    int rc;

    if (rp == NULL || flag == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Test");
    *flag = 1;
    if (inactive(*rp)) {
        status_empty(st);
        return MPI_SUCCESS;
    }
    proto_progress(false);
    if ((*rp)->state != RS_DONE) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    c = req_comm(*rp);
    rc = req_finish(rp, st);
    return rc ? mpi_err(c, rc, "MPI_Test") : MPI_SUCCESS;
}

/* Index of a DONE request, MPI_UNDEFINED if all are inactive, or -2 if
 * some are still active. */
static int find_done(int n, MPI_Request *reqs)
{
    bool any_active = false;

    for (int i = 0; i < n; i++) {
        if (inactive(reqs[i]))
            continue;
        if (reqs[i]->state == RS_DONE)
            return i;
        any_active = true;
    }
    return any_active ? -2 : MPI_UNDEFINED;
}

static int finish_one(MPI_Request *reqs, int i, int *index, MPI_Status *st,
                      const char *name)
{
    MPI_Comm c;
    int rc;

    *index = i;
    if (i == MPI_UNDEFINED) {
        status_empty(st);
        return MPI_SUCCESS;
    }
    c = req_comm(reqs[i]);
    rc = req_finish(&reqs[i], st);
    return rc ? mpi_err(c, rc, name) : MPI_SUCCESS;
}

int MPI_Waitany(int n, MPI_Request *reqs, int *index, MPI_Status *st)
{
    int i;

    if (n < 0 || (n > 0 && reqs == NULL) || index == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Waitany");
    proto_progress(false);
    while ((i = find_done(n, reqs)) == -2)
        proto_progress(true);
    return finish_one(reqs, i, index, st, "MPI_Waitany");
}

int MPI_Testany(int n, MPI_Request *reqs, int *index, int *flag,
                MPI_Status *st)
{
    int i;

    if (n < 0 || (n > 0 && reqs == NULL) || index == NULL || flag == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Testany");
    proto_progress(false);
    i = find_done(n, reqs);
    *flag = i != -2;
    if (i == -2) {
        *index = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    return finish_one(reqs, i, index, st, "MPI_Testany");
}

/* Finish every DONE request; error codes go into the statuses. */
static int finish_all(int n, MPI_Request *reqs, MPI_Status *sts,
                      const char *name)
{
    int err = MPI_SUCCESS;
    MPI_Comm c = MPI_COMM_WORLD;

    for (int i = 0; i < n; i++) {
        MPI_Status tmp, *st = sts == MPI_STATUSES_IGNORE ? &tmp : &sts[i];
        if (inactive(reqs[i])) {
            status_empty(st);
            continue;
        }
        c = req_comm(reqs[i]);
        if (req_finish(&reqs[i], st) != MPI_SUCCESS)
            err = MPI_ERR_IN_STATUS;
    }
    return err ? mpi_err(c, err, name) : MPI_SUCCESS;
}

static bool all_done(int n, MPI_Request *reqs)
{
    for (int i = 0; i < n; i++)
        if (!inactive(reqs[i]) && reqs[i]->state != RS_DONE)
            return false;
    return true;
}

int MPI_Waitall(int n, MPI_Request *reqs, MPI_Status *sts)
{
    if (n < 0 || (n > 0 && reqs == NULL))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Waitall");
    proto_progress(false);
    while (!all_done(n, reqs))
        proto_progress(true);
    return finish_all(n, reqs, sts, "MPI_Waitall");
}

int MPI_Testall(int n, MPI_Request *reqs, int *flag, MPI_Status *sts)
{
    if (n < 0 || (n > 0 && reqs == NULL) || flag == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Testall");
    proto_progress(false);
    *flag = all_done(n, reqs);
    return *flag ? finish_all(n, reqs, sts, "MPI_Testall") : MPI_SUCCESS;
}

static int some(int n, MPI_Request *reqs, int *outcount, int *indices,
                MPI_Status *sts, bool block, const char *name)
{
    int k = 0, err = MPI_SUCCESS, active;
    MPI_Comm c = MPI_COMM_WORLD;

    if (n < 0 || (n > 0 && reqs == NULL) || outcount == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, name);
    proto_progress(false);
    for (;;) {
        active = 0;
        for (int i = 0; i < n; i++) {
            if (inactive(reqs[i]))
                continue;
            active++;
            if (reqs[i]->state != RS_DONE)
                continue;
            MPI_Status tmp, *st = sts == MPI_STATUSES_IGNORE ? &tmp : &sts[k];
            c = req_comm(reqs[i]);
            indices[k++] = i;
            if (req_finish(&reqs[i], st) != MPI_SUCCESS)
                err = MPI_ERR_IN_STATUS;
        }
        if (active == 0) {
            *outcount = MPI_UNDEFINED;
            return MPI_SUCCESS;
        }
        if (k > 0 || !block)
            break;
        proto_progress(true);
    }
    *outcount = k;
    return err ? mpi_err(c, err, name) : MPI_SUCCESS;
}

int MPI_Waitsome(int n, MPI_Request *reqs, int *outcount, int *indices,
                 MPI_Status *sts)
{
    return some(n, reqs, outcount, indices, sts, true, "MPI_Waitsome");
}

int MPI_Testsome(int n, MPI_Request *reqs, int *outcount, int *indices,
                 MPI_Status *sts)
{
    return some(n, reqs, outcount, indices, sts, false, "MPI_Testsome");
}

int MPI_Request_free(MPI_Request *rp)
{
    MPI_Request r;

    if (rp == NULL || *rp == MPI_REQUEST_NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Request_free");
    r = *rp;
    *rp = MPI_REQUEST_NULL;
    if (r->state == RS_ACTIVE)
        r->freed = true;        /* freed when the operation completes */
    else
        req_free(r);
    return MPI_SUCCESS;
}

int MPI_Cancel(MPI_Request *rp)
{
    MPI_Request r;

    if (rp == NULL || *rp == MPI_REQUEST_NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Cancel");
    r = *rp;
    /* A receive not yet matched is withdrawn; so is a send no receive has
     * matched yet, if it can be taken back (send.c).  Otherwise the
     * request completes as it would have (the standard's other outcome).
     * Either way MPI_Wait on it returns without the peer's help. */
    if (r->greq != NULL) {
        greq_cancel(r);                 /* the user's to do, done or not */
        return MPI_SUCCESS;
    }
    if (r->state != RS_ACTIVE)
        return MPI_SUCCESS;
    if (r->kind == RQ_RECV && proto_cancel_recv(r)) {
        r->cancelled = true;
        r->status.mpi_cancelled = 1;
        r->status.MPI_SOURCE = MPI_ANY_SOURCE;
        r->status.MPI_TAG = MPI_ANY_TAG;
        r->status.mpi_bytes = 0;
        req_complete(r);
    } else if (r->kind == RQ_SEND) {
        proto_cancel_send(r);           /* done once its ACK is in */
    }
    return MPI_SUCCESS;
}

/* The status of a request, without freeing it or making it inactive
 * (MPI-3.1 3.7.3). */
int MPI_Request_get_status(MPI_Request r, int *flag, MPI_Status *st)
{
    if (flag == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG,
                       "MPI_Request_get_status");
    *flag = 1;
    if (inactive(r)) {
        status_empty(st);
        return MPI_SUCCESS;
    }
    proto_progress(false);
    if (r->state != RS_DONE) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    if (r->greq != NULL)
        greq_query(r);
    if (st != MPI_STATUS_IGNORE) {
        *st = r->status;
        if (r->kind == RQ_SEND) {
            st->MPI_SOURCE = MPI_ANY_SOURCE;
            st->MPI_TAG = MPI_ANY_TAG;
        }
    }
    return MPI_SUCCESS;
}

int MPI_Test_cancelled(const MPI_Status *st, int *flag)
{
    if (st == NULL || flag == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Test_cancelled");
    *flag = st->mpi_cancelled;
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Wait)
PMPI(MPI_Test)
PMPI(MPI_Waitany)
PMPI(MPI_Testany)
PMPI(MPI_Waitall)
PMPI(MPI_Testall)
PMPI(MPI_Waitsome)
PMPI(MPI_Testsome)
PMPI(MPI_Request_free)
PMPI(MPI_Cancel)
PMPI(MPI_Test_cancelled)
PMPI(MPI_Request_get_status)
