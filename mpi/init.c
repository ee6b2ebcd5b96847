/* SPDX-License-Identifier: MIT */
/*
 * init.c: the MPI environment: MPI_Init/Finalize (the job NI from
 * ptl_job.h, then the protocol's portals), MPI_Abort, timers, the
 * processor name, versions and threading level, memory for RMA
 * (MPI_Alloc_mem), address arithmetic.
 *
 * Threads: MPI_THREAD_FUNNELED at most.  The library keeps no locks (any
 * thread may use Portals, libc/README.md, but MPI's state is one
 * thread's), which is FUNNELED's rule: other threads compute, the main
 * one calls MPI.  Asking for SERIALIZED or MULTIPLE gets FUNNELED, as the
 * standard allows, so a program can see it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "mpi_impl.h"
#include "ptl_job.h"

int mpi_state;
static int thread_level = MPI_THREAD_SINGLE;
static pthread_t main_thread;

int MPI_Init(int *argc, char ***argv)
{
    int rc;

    (void)argc, (void)argv;
    if (mpi_state != 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Init called twice");
    /* MPI_COMM_WORLD's handler is MPI_ERRORS_ARE_FATAL from the start
       (MPI-3.1 8.3): a process that cannot join ends here, saying why,
       rather than returning into calls on communicators that do not
       exist. */
    if ((rc = proto_init()) != MPI_SUCCESS)
        mpi_fatal("MPI_Init: cannot join the job: %s",
                  rc == MPI_ERR_INTERN ? "out of memory for the peer table"
                                       : ptl_job_why());
    main_thread = pthread_self();
    comm_init_builtin(proto_world_rank(), proto_world_size());
    char host[MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Get_processor_name(host, &len);
    info_env_init(host, thread_level == MPI_THREAD_FUNNELED
                        ? "MPI_THREAD_FUNNELED" : "MPI_THREAD_SINGLE");
    mpi_state = 1;
    return MPI_SUCCESS;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    thread_level = required >= MPI_THREAD_FUNNELED ? MPI_THREAD_FUNNELED
                                                   : MPI_THREAD_SINGLE;
    if (provided != NULL)
        *provided = thread_level;
    return MPI_Init(argc, argv);
}

/* Any thread may ask (the standard says so). */
int MPI_Is_thread_main(int *flag)
{
    *flag = pthread_equal(pthread_self(), main_thread) != 0;
    return MPI_SUCCESS;
}

int MPI_Query_thread(int *provided)
{
    *provided = thread_level;
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

int MPI_Finalized(int *flag)
{
    *flag = mpi_state == 2;
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

/* The version, and what this library cannot do (mpi/README.md,
 * Limits), so that a program or its user can tell. */
int MPI_Get_library_version(char *version, int *resultlen)
{
    if (version == NULL || resultlen == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG,
                       "MPI_Get_library_version");
    snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
             "Q-Kernel MPI over Portals 4, MPI %d.%d (%s).  Limited: "
             "threads up to MPI_THREAD_FUNNELED; no dynamic processes "
             "(MPI_Comm_spawn: MPI_ERR_SPAWN; ports, names, join: fail); "
             "shared-memory windows within one process%s; MPI-IO in "
             "\"native\" only, collective calls independent, atomic mode "
             "not enforced; topologies not reordered",
             MPI_VERSION, MPI_SUBVERSION,
#ifdef __lwk__
             "compute node", ""
#else
             "Linux", " or one host"
#endif
             );
    *resultlen = (int)strlen(version);
    return MPI_SUCCESS;
}

/* Memory for windows: plain heap memory (every byte of a process is
 * reachable by Portals through the one MD), so malloc's. */
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    void *p;

    (void)info;
    if (size < 0 || baseptr == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Alloc_mem");
    if ((p = malloc(size ? (size_t)size : 1)) == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Alloc_mem");
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

int MPI_Free_mem(void *base)
{
    free(base);
    return MPI_SUCCESS;
}

MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
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
PMPI(MPI_Is_thread_main)
PMPI(MPI_Finalized)
PMPI(MPI_Get_library_version)
PMPI(MPI_Alloc_mem)
PMPI(MPI_Free_mem)
PMPI(MPI_Aint_add)
PMPI(MPI_Aint_diff)
