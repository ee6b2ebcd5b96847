/* SPDX-License-Identifier: MIT */
/*
 * p2p.c: the point-to-point API: argument checks, requests for every
 * mode (standard, synchronous, buffered, ready; blocking, nonblocking,
 * persistent) and send-receive.  Probe and counts are probe.c, the
 * buffered-send buffer bsend.c.  The wire protocol is proto.c;
 * non-contiguous data is packed into a temporary buffer first (and
 * unpacked when a receive completes).
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"

#define TAG_UB 0xfffffff

/* ---- argument checks (the MPI error classes) ---- */

/* count items of dt at buf: a count, a committed type, and a buffer.  A
 * NULL buffer (MPI_BOTTOM) is refused unless the datatype holds absolute
 * addresses: copying from address 0 would kill the program. */
int buf_check(const void *buf, int count, MPI_Datatype dt)
{
    int rc;

    if (count < 0)
        return MPI_ERR_COUNT;
    if ((rc = dt_check(dt)) != MPI_SUCCESS)
        return rc;
    return dt_null_buffer(buf, count, dt) ? MPI_ERR_BUFFER : MPI_SUCCESS;
}

static int check_common(MPI_Comm comm, const void *buf, int count,
                        MPI_Datatype dt)
{
    int rc = comm_check(comm);

    return rc ? rc : buf_check(buf, count, dt);
}

int p2p_check_send(MPI_Comm comm, const void *buf, int count,
                   MPI_Datatype dt, int dest, int tag)
{
    int rc = check_common(comm, buf, count, dt);

    if (rc != MPI_SUCCESS)
        return rc;
    if (tag < 0 || tag > TAG_UB)
        return MPI_ERR_TAG;
    if (dest != MPI_PROC_NULL && (dest < 0 || dest >= comm->remote->size))
        return MPI_ERR_RANK;
    return MPI_SUCCESS;
}

int p2p_check_recv(MPI_Comm comm, const void *buf, int count,
                   MPI_Datatype dt, int src, int tag)
{
    int rc = check_common(comm, buf, count, dt);

    if (rc != MPI_SUCCESS)
        return rc;
    if (tag != MPI_ANY_TAG && (tag < 0 || tag > TAG_UB))
        return MPI_ERR_TAG;
    if (src != MPI_PROC_NULL && src != MPI_ANY_SOURCE &&
        (src < 0 || src >= comm->remote->size))
        return MPI_ERR_RANK;
    return MPI_SUCCESS;
}

/* ---- building and starting requests ---- */

MPI_Request p2p_make(enum req_kind kind, void *buf, int count,
                     MPI_Datatype dt, int peer, int tag, MPI_Comm comm,
                     uint32_t ctx, enum send_mode mode)
{
    MPI_Request r = req_new(kind);

    if (r == NULL)
        return NULL;
    r->buf = buf;
    r->count = count;
    r->dt = dt;
    dt_retain(dt);
    r->peer = peer;
    r->tag = tag;
    r->comm = comm;
    r->ctx = ctx;
    r->mode = mode;
    return r;
}

static void proc_null_done(MPI_Request r)
{
    r->status.MPI_SOURCE = MPI_PROC_NULL;
    r->status.MPI_TAG = MPI_ANY_TAG;
    r->status.MPI_ERROR = MPI_SUCCESS;
    r->status.mpi_bytes = 0;
    r->state = RS_ACTIVE;
    req_complete(r);
}

/* Point r->data at the bytes to move: the user's buffer if contiguous,
 * else a temporary (packed now for a send). */
int p2p_stage(MPI_Request r)
{
    MPI_Aint off;

    r->len = (size_t)r->count * (size_t)r->dt->size;
    if (dt_contig(r->dt, r->count, &off)) {
        r->data = (char *)r->buf + off;
        return MPI_SUCCESS;
    }
    if ((r->tmp = malloc(r->len ? r->len : 1)) == NULL)
        return MPI_ERR_INTERN;
    if (r->kind == RQ_SEND)
        dt_pack(r->buf, r->count, r->dt, r->tmp);
    r->data = r->tmp;
    return MPI_SUCCESS;
}

int p2p_start(MPI_Request r)
{
    int rc;

    memset(&r->status, 0, sizeof(r->status));
    r->cancelled = false;
    if (r->peer == MPI_PROC_NULL) {
        proc_null_done(r);
        return MPI_SUCCESS;
    }
    if (r->kind == RQ_SEND && r->mode == M_BUF)
        return bsend_start(r);
    if ((rc = p2p_stage(r)) != MPI_SUCCESS)
        return rc;
    r->state = RS_ACTIVE;
    rc = r->kind == RQ_SEND ? proto_send(r) : proto_recv(r);
    if (rc != MPI_SUCCESS) {        /* nothing started: Portals is full */
        r->state = RS_INACTIVE;
        free(r->tmp);
        r->tmp = NULL;
    }
    return rc;
}

int p2p_isend(const void *buf, int count, MPI_Datatype dt, int dest,
              int tag, MPI_Comm comm, uint32_t ctx, enum send_mode mode,
              MPI_Request *out)
{
    MPI_Request r = p2p_make(RQ_SEND, (void *)buf, count, dt, dest, tag,
                             comm, ctx, mode);
    int rc;

    if (r == NULL)
        return MPI_ERR_INTERN;
    if ((rc = p2p_start(r)) != MPI_SUCCESS) {
        req_free(r);
        return rc;
    }
    *out = r;
    return MPI_SUCCESS;
}

int p2p_irecv(void *buf, int count, MPI_Datatype dt, int src, int tag,
              MPI_Comm comm, uint32_t ctx, MPI_Request *out)
{
    MPI_Request r = p2p_make(RQ_RECV, buf, count, dt, src, tag, comm, ctx,
                             M_STD);
    int rc;

    if (r == NULL)
        return MPI_ERR_INTERN;
    if ((rc = p2p_start(r)) != MPI_SUCCESS) {
        req_free(r);
        return rc;
    }
    *out = r;
    return MPI_SUCCESS;
}

/* ---- the public send family ---- */

static int isend_api(const void *buf, int count, MPI_Datatype dt, int dest,
                     int tag, MPI_Comm comm, enum send_mode mode,
                     MPI_Request *req, const char *name)
{
    int rc = p2p_check_send(comm, buf, count, dt, dest, tag);

    if (rc == MPI_SUCCESS && req == NULL)
        rc = MPI_ERR_REQUEST;
    else if (req != NULL)
        *req = MPI_REQUEST_NULL;        /* if the call fails */
    if (rc == MPI_SUCCESS)
        rc = p2p_isend(buf, count, dt, dest, tag, comm, comm->ctx, mode,
                       req);
    return rc ? mpi_err(comm, rc, name) : MPI_SUCCESS;
}

/* A blocking standard or ready send of contiguous data may go as a copy
 * without a request (proto_send_copy). */
static bool send_copied(const void *buf, int count, MPI_Datatype dt, int dest,
                        int tag, MPI_Comm comm, enum send_mode mode)
{
    MPI_Aint off;

    return (mode == M_STD || mode == M_READY) && dest != MPI_PROC_NULL &&
           dt_contig(dt, count, &off) &&
           proto_send_copy((const char *)buf + off, (size_t)count * dt->size,
                           dest, tag, comm, comm->ctx);
}

static int send_api(const void *buf, int count, MPI_Datatype dt, int dest,
                    int tag, MPI_Comm comm, enum send_mode mode,
                    const char *name)
{
    MPI_Request r;
    int rc = p2p_check_send(comm, buf, count, dt, dest, tag);

    if (rc == MPI_SUCCESS && send_copied(buf, count, dt, dest, tag, comm,
                                         mode))
        return MPI_SUCCESS;
    if (rc == MPI_SUCCESS)
        rc = p2p_isend(buf, count, dt, dest, tag, comm, comm->ctx, mode, &r);
    if (rc == MPI_SUCCESS)
        rc = p2p_wait(&r, MPI_STATUS_IGNORE);
    return rc ? mpi_err(comm, rc, name) : MPI_SUCCESS;
}

int MPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
             MPI_Comm comm)
{
    return send_api(buf, count, dt, dest, tag, comm, M_STD, "MPI_Send");
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
              MPI_Comm comm)
{
    return send_api(buf, count, dt, dest, tag, comm, M_BUF, "MPI_Bsend");
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
              MPI_Comm comm)
{
    return send_api(buf, count, dt, dest, tag, comm, M_SYNC, "MPI_Ssend");
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
              MPI_Comm comm)
{
    return send_api(buf, count, dt, dest, tag, comm, M_READY, "MPI_Rsend");
}

int MPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
              MPI_Comm comm, MPI_Request *req)
{
    return isend_api(buf, count, dt, dest, tag, comm, M_STD, req,
                     "MPI_Isend");
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
               MPI_Comm comm, MPI_Request *req)
{
    return isend_api(buf, count, dt, dest, tag, comm, M_BUF, req,
                     "MPI_Ibsend");
}

int MPI_Issend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
               MPI_Comm comm, MPI_Request *req)
{
    return isend_api(buf, count, dt, dest, tag, comm, M_SYNC, req,
                     "MPI_Issend");
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
               MPI_Comm comm, MPI_Request *req)
{
    return isend_api(buf, count, dt, dest, tag, comm, M_READY, req,
                     "MPI_Irsend");
}

/* ---- receive ---- */

int MPI_Irecv(void *buf, int count, MPI_Datatype dt, int src, int tag,
              MPI_Comm comm, MPI_Request *req)
{
    int rc = p2p_check_recv(comm, buf, count, dt, src, tag);

    if (rc == MPI_SUCCESS && req == NULL)
        rc = MPI_ERR_REQUEST;
    else if (req != NULL)
        *req = MPI_REQUEST_NULL;
    if (rc == MPI_SUCCESS)
        rc = p2p_irecv(buf, count, dt, src, tag, comm, comm->ctx, req);
    return rc ? mpi_err(comm, rc, "MPI_Irecv") : MPI_SUCCESS;
}

int MPI_Recv(void *buf, int count, MPI_Datatype dt, int src, int tag,
             MPI_Comm comm, MPI_Status *status)
{
    MPI_Request r;
    int rc = p2p_check_recv(comm, buf, count, dt, src, tag);

    if (rc == MPI_SUCCESS)
        rc = p2p_irecv(buf, count, dt, src, tag, comm, comm->ctx, &r);
    if (rc == MPI_SUCCESS)
        rc = p2p_wait(&r, status);
    return rc ? mpi_err(comm, rc, "MPI_Recv") : MPI_SUCCESS;
}

/* ---- persistent requests ---- */

static int init_api(enum req_kind kind, const void *buf, int count,
                    MPI_Datatype dt, int peer, int tag, MPI_Comm comm,
                    enum send_mode mode, MPI_Request *req, const char *name)
{
    int rc = kind == RQ_SEND ? p2p_check_send(comm, buf, count, dt, peer, tag)
                             : p2p_check_recv(comm, buf, count, dt, peer,
                                              tag);
    MPI_Request r;

    if (rc == MPI_SUCCESS && req == NULL)
        rc = MPI_ERR_REQUEST;
    else if (req != NULL)
        *req = MPI_REQUEST_NULL;
    if (rc != MPI_SUCCESS)
        return mpi_err(comm, rc, name);
    if ((r = p2p_make(kind, (void *)buf, count, dt, peer, tag, comm,
                      comm->ctx, mode))
            == NULL)
        return mpi_err(comm, MPI_ERR_INTERN, name);
    r->persistent = true;
    *req = r;
    return MPI_SUCCESS;
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype dt, int dest,
                  int tag, MPI_Comm comm, MPI_Request *req)
{
    return init_api(RQ_SEND, buf, count, dt, dest, tag, comm, M_STD, req,
                    "MPI_Send_init");
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype dt, int dest,
                   int tag, MPI_Comm comm, MPI_Request *req)
{
    return init_api(RQ_SEND, buf, count, dt, dest, tag, comm, M_BUF, req,
                    "MPI_Bsend_init");
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype dt, int dest,
                   int tag, MPI_Comm comm, MPI_Request *req)
{
    return init_api(RQ_SEND, buf, count, dt, dest, tag, comm, M_SYNC, req,
                    "MPI_Ssend_init");
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype dt, int dest,
                   int tag, MPI_Comm comm, MPI_Request *req)
{
    return init_api(RQ_SEND, buf, count, dt, dest, tag, comm, M_READY, req,
                    "MPI_Rsend_init");
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype dt, int src, int tag,
                  MPI_Comm comm, MPI_Request *req)
{
    return init_api(RQ_RECV, buf, count, dt, src, tag, comm, M_STD, req,
                    "MPI_Recv_init");
}

int MPI_Start(MPI_Request *req)
{
    int rc;

    if (req == NULL || *req == MPI_REQUEST_NULL || !(*req)->persistent ||
        (*req)->state == RS_ACTIVE)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Start");
    rc = p2p_start(*req);
    return rc ? mpi_err((*req)->comm, rc, "MPI_Start") : MPI_SUCCESS;
}

int MPI_Startall(int count, MPI_Request *reqs)
{
    for (int i = 0; i < count; i++) {
        int rc = MPI_Start(&reqs[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* ---- send-receive ---- */

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                 int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                 int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Request rr, sr;
    int rc = p2p_check_send(comm, sbuf, scount, stype, dest, stag);

    if (rc == MPI_SUCCESS)
        rc = p2p_check_recv(comm, rbuf, rcount, rtype, source, rtag);
    if (rc == MPI_SUCCESS)
        rc = p2p_irecv(rbuf, rcount, rtype, source, rtag, comm, comm->ctx,
                       &rr);
    if (rc == MPI_SUCCESS) {
        rc = p2p_isend(sbuf, scount, stype, dest, stag, comm, comm->ctx,
                       M_STD, &sr);
        if (rc == MPI_SUCCESS)
            rc = p2p_wait(&sr, MPI_STATUS_IGNORE);
        int rc2 = p2p_wait(&rr, status);
        rc = rc ? rc : rc2;
    }
    return rc ? mpi_err(comm, rc, "MPI_Sendrecv") : MPI_SUCCESS;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest,
                         int stag, int source, int rtag, MPI_Comm comm,
                         MPI_Status *status)
{
    void *tmp;
    int rc = p2p_check_send(comm, buf, count, dt, dest, stag);

    if (rc == MPI_SUCCESS)
        rc = p2p_check_recv(comm, buf, count, dt, source, rtag);
    if (rc != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Sendrecv_replace");
    if ((tmp = malloc((size_t)count * (size_t)dt->size + 1)) == NULL)
        return mpi_err(comm, MPI_ERR_INTERN, "MPI_Sendrecv_replace");
    dt_pack(buf, count, dt, tmp);
    rc = MPI_Sendrecv(tmp, count * (int)dt->size, MPI_BYTE, dest, stag, buf,
                      count, dt, source, rtag, comm, status);
    free(tmp);
    return rc;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Send)
PMPI(MPI_Bsend)
PMPI(MPI_Ssend)
PMPI(MPI_Rsend)
PMPI(MPI_Isend)
PMPI(MPI_Ibsend)
PMPI(MPI_Issend)
PMPI(MPI_Irsend)
PMPI(MPI_Irecv)
PMPI(MPI_Recv)
PMPI(MPI_Send_init)
PMPI(MPI_Bsend_init)
PMPI(MPI_Ssend_init)
PMPI(MPI_Rsend_init)
PMPI(MPI_Recv_init)
PMPI(MPI_Start)
PMPI(MPI_Startall)
PMPI(MPI_Sendrecv)
PMPI(MPI_Sendrecv_replace)
