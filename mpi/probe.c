/* SPDX-License-Identifier: MIT */
/*
 * probe.c: the point-to-point calls that look without receiving: probe
 * (the search itself is proto_iprobe, recv.c) and the counts a status
 * gives (MPI_Get_count, MPI_Get_elements).
 */
#include "mpi_impl.h"

/* ---- probe ---- */

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
               MPI_Status *status)
{
    int rc = p2p_check_recv(comm, NULL, 0, MPI_BYTE, source, tag);

    if (rc == MPI_SUCCESS && flag == NULL)
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Iprobe");
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        status_empty(status);
        if (status != MPI_STATUS_IGNORE)
            status->MPI_SOURCE = MPI_PROC_NULL;
        return MPI_SUCCESS;
    }
    return proto_iprobe(comm->ctx, source, tag, comm, flag, status);
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    int flag = 0, rc;

    for (;;) {
        unsigned long seen = proto_events;

        if ((rc = MPI_Iprobe(source, tag, comm, &flag, status)) != 0)
            return rc;
        if (flag)
            return MPI_SUCCESS;
        /* The probe waits for its search's answer and handles every
         * event queued meanwhile, the arrival of the message probed for
         * among them (posted after the search looked): sleeping now would
         * wait for an event already taken -- for ever.  Sleep only if the
         * answer was all the probe took in. */
        if (proto_events - seen > 1)
            continue;
        proto_progress(true);
    }
}

int MPI_Get_count(const MPI_Status *st, MPI_Datatype dt, int *count)
{
    int rc = dt_check(dt);

    if (rc != MPI_SUCCESS || st == NULL || count == NULL)
        return mpi_err(MPI_COMM_WORLD, rc ? rc : MPI_ERR_ARG,
                       "MPI_Get_count");
    *count = (int)status_count(st, dt);
    return MPI_SUCCESS;
}

/* Items of dt a status's message holds; MPI_UNDEFINED if not whole. */
MPI_Count status_count(const MPI_Status *st, MPI_Datatype dt)
{
    if (dt->size == 0)
        return st->mpi_bytes == 0 ? 0 : MPI_UNDEFINED;
    if (st->mpi_bytes % (size_t)dt->size)
        return MPI_UNDEFINED;
    return (MPI_Count)(st->mpi_bytes / (size_t)dt->size);
}

int MPI_Get_elements(const MPI_Status *st, MPI_Datatype dt, int *count)
{
    int rc = dt_check(dt);

    if (rc != MPI_SUCCESS || st == NULL || count == NULL)
        return mpi_err(MPI_COMM_WORLD, rc ? rc : MPI_ERR_ARG,
                       "MPI_Get_elements");
    *count = (int)dt_elements(dt, st->mpi_bytes);
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Iprobe)
PMPI(MPI_Probe)
PMPI(MPI_Get_count)
PMPI(MPI_Get_elements)
