/* SPDX-License-Identifier: MIT */
/*
 * mprobe.c: matched probes (MPI-3.1 3.8.2-3.8.3).  MPI_Improbe and
 * MPI_Mprobe take the message they find off the matching queues
 * (proto_match, recv.c), so that only MPI_Mrecv or MPI_Imrecv of the
 * MPI_Message they return receives it: threads, or libraries sharing a
 * communicator, cannot steal it between the probe and the receive.
 */
#include <stdlib.h>
#include "mpi_impl.h"
#include "proto.h"

/* MPI_MESSAGE_NO_PROC: what a probe of MPI_PROC_NULL finds. */
struct mpi_msg_s mpi_message_no_proc_;

static void proc_null_status(MPI_Status *st)
{
    status_empty(st);
    if (st != MPI_STATUS_IGNORE)
        st->MPI_SOURCE = MPI_PROC_NULL;
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
                MPI_Message *message, MPI_Status *status)
{
    int rc = p2p_check_recv(comm, NULL, 0, MPI_BYTE, source, tag);
    struct mpi_msg_s *m;
    struct uq *u;

    if (rc == MPI_SUCCESS && (flag == NULL || message == NULL))
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Improbe");
    *flag = 1;
    if (source == MPI_PROC_NULL) {
        *message = MPI_MESSAGE_NO_PROC;
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    if ((m = malloc(sizeof(*m))) == NULL)
        return mpi_err(comm, MPI_ERR_NO_MEM, "MPI_Improbe");
    if ((u = proto_match(comm->ctx, source, tag)) == NULL) {
        free(m);
        *flag = 0;
        return MPI_SUCCESS;
    }
    *m = (struct mpi_msg_s){ u, comm, comm->ctx };
    *message = m;
    if (status != MPI_STATUS_IGNORE) {
        status_empty(status);
        status->MPI_SOURCE = MB_GETSRC(u->bits);
        status->MPI_TAG = MB_GETTAG(u->bits);
        status->mpi_bytes = u->len;
    }
    return MPI_SUCCESS;
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
               MPI_Status *status)
{
    int flag = 0, rc;

    for (;;) {
        unsigned long seen = proto_events;

        rc = MPI_Improbe(source, tag, comm, &flag, message, status);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        /* as MPI_Probe (probe.c): sleep only if the search's answer was
         * all the attempt took in */
        if (proto_events - seen > 1)
            continue;
        proto_progress(true);
    }
}

/* Start a receive of *message into r (its arguments set): the message
 * handle is used up. */
static int mrecv_start(void *buf, int count, MPI_Datatype dt,
                       MPI_Message *message, MPI_Request *out)
{
    struct mpi_msg_s *m = *message;
    MPI_Request r;
    int rc;

    r = p2p_make(RQ_RECV, buf, count, dt, MB_GETSRC(m->u->bits),
                 MB_GETTAG(m->u->bits), m->comm, m->ctx, M_STD);
    if (r == NULL)
        return MPI_ERR_NO_MEM;
    if ((rc = p2p_stage(r)) != MPI_SUCCESS) {
        req_free(r);
        return rc;
    }
    proto_recv_held(r, m->u);
    free(m);
    *message = MPI_MESSAGE_NULL;
    *out = r;
    return MPI_SUCCESS;
}

/* The checks both receives make; *comm: whose handler hears of it. */
static int mrecv_check(void *buf, int count, MPI_Datatype dt,
                       MPI_Message *message, MPI_Comm *comm)
{
    *comm = MPI_COMM_WORLD;
    if (message == NULL || *message == MPI_MESSAGE_NULL)
        return MPI_ERR_REQUEST;
    if (*message != MPI_MESSAGE_NO_PROC)
        *comm = (*message)->comm;
    return buf_check(buf, count, dt);
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *message,
              MPI_Status *status)
{
    MPI_Comm comm;
    MPI_Request r;
    int rc = mrecv_check(buf, count, dt, message, &comm);

    if (rc == MPI_SUCCESS && *message == MPI_MESSAGE_NO_PROC) {
        *message = MPI_MESSAGE_NULL;
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    if (rc == MPI_SUCCESS)
        rc = mrecv_start(buf, count, dt, message, &r);
    if (rc == MPI_SUCCESS)
        rc = p2p_wait(&r, status);
    return rc ? mpi_err(comm, rc, "MPI_Mrecv") : MPI_SUCCESS;
}

int MPI_Imrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *message,
               MPI_Request *req)
{
    MPI_Comm comm;
    int rc = mrecv_check(buf, count, dt, message, &comm);

    if (rc == MPI_SUCCESS && req == NULL)
        rc = MPI_ERR_REQUEST;
    else if (req != NULL)
        *req = MPI_REQUEST_NULL;
    if (rc == MPI_SUCCESS && *message == MPI_MESSAGE_NO_PROC) {
        MPI_Status st;
        proc_null_status(&st);
        *message = MPI_MESSAGE_NULL;
        if ((*req = req_done(comm, &st)) == NULL)
            rc = MPI_ERR_NO_MEM;
        return rc ? mpi_err(comm, rc, "MPI_Imrecv") : MPI_SUCCESS;
    }
    if (rc == MPI_SUCCESS)
        rc = mrecv_start(buf, count, dt, message, req);
    return rc ? mpi_err(comm, rc, "MPI_Imrecv") : MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Improbe)
PMPI(MPI_Mprobe)
PMPI(MPI_Mrecv)
PMPI(MPI_Imrecv)
