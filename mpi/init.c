/* SPDX-License-Identifier: MIT */
/*
 * init.c: the MPI environment: MPI_Init/Finalize (the job NI from
 * ptl_job.h, then the protocol's portals), MPI_Abort, timers, the
 * processor name, versions and threading level (single-threaded).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "mpi_impl.h"
#include "ptl_job.h"

int mpi_state;

int MPI_Init(int *argc, char ***argv)
{
    int rc;

    (void)argc, (void)argv;
    if (mpi_state != 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Init called twice");
    if ((rc = proto_init()) != MPI_SUCCESS) {
        fprintf(stderr, "MPI_Init: cannot join the job (run the program "
                "under tools/ptlrun, or yod on the nodes)\n");
        return rc;
    }
    comm_init_builtin(proto_world_rank(), proto_world_size());
    mpi_state = 1;
    return MPI_SUCCESS;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)required;
    *provided = MPI_THREAD_SINGLE;
    return MPI_Init(argc, argv);
}

int MPI_Query_thread(int *provided)
{
    *provided = MPI_THREAD_SINGLE;
    return MPI_SUCCESS;
}

int MPI_Finalize(void)
{
    int rc;

    if (mpi_state != 1)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Finalize");
    /* An MPI barrier first: while in it, this rank still answers the
     * protocol (flow-control handshakes, synchronous acks). */
    if ((rc = coll_barrier(MPI_COMM_WORLD)) != MPI_SUCCESS)
        return mpi_err(MPI_COMM_WORLD, rc, "MPI_Finalize");
    proto_fini();
    mpi_state = 2;
    return MPI_SUCCESS;
}

int MPI_Initialized(int *flag)
{
    *flag = mpi_state != 0;
    return MPI_SUCCESS;
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
    char why[64];

    (void)comm;
    snprintf(why, sizeof(why), "MPI_Abort with error code %d", errorcode);
    ptl_job_abort(errorcode ? errorcode : 1, why);
}

double MPI_Wtime(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double MPI_Wtick(void)
{
    struct timespec ts;

    if (clock_getres(CLOCK_MONOTONIC, &ts) != 0)
        return 1e-9;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "HOST nid N" on Linux, "nid N" on a compute node (which has no host
 * name: its Portals nid is its name). */
int MPI_Get_processor_name(char *name, int *resultlen)
{
    char host[MPI_MAX_PROCESSOR_NAME] = "";

#ifndef __lwk__
    if (gethostname(host, sizeof(host) - 2) != 0)
        host[0] = 0;
    host[sizeof(host) - 2] = 0;
    if (host[0])
        strcat(host, " ");
#endif
    snprintf(name, MPI_MAX_PROCESSOR_NAME, "%snid %ld", host, proto_nid());
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}

int MPI_Get_version(int *version, int *subversion)
{
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int MPI_Pcontrol(const int level, ...)
{
    (void)level;        /* no profiling layer to control */
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Init)
PMPI(MPI_Init_thread)
PMPI(MPI_Query_thread)
PMPI(MPI_Finalize)
PMPI(MPI_Initialized)
PMPI(MPI_Abort)
PMPI(MPI_Wtime)
PMPI(MPI_Wtick)
PMPI(MPI_Get_processor_name)
PMPI(MPI_Get_version)
PMPI(MPI_Pcontrol)
