/* SPDX-License-Identifier: MIT */
/*
 * dynamic.c: process creation and management (MPI-3.1 chapter 10), as
 * far as this system has it.  A job's ranks are the ones yod started on
 * the nodes it was given, and jobs do not talk to each other, so:
 * MPI_Comm_spawn(_multiple) fail with MPI_ERR_SPAWN (every process's
 * error codes say so too), there are no ports (MPI_Open_port:
 * MPI_ERR_UNSUPPORTED_OPERATION; accepting, connecting or closing a
 * port: MPI_ERR_PORT) and no name service (publishing:
 * MPI_ERR_UNSUPPORTED_OPERATION; a lookup finds nothing, MPI_ERR_NAME;
 * unpublishing, MPI_ERR_SERVICE), nor MPI_Comm_join's sockets.  What a
 * job started by yod can rely on works: it has no parent
 * (MPI_Comm_get_parent), and MPI_Comm_disconnect frees any communicator
 * once every member is done with it.  mpi/README.md says so.
 */
#include <string.h>
#include "mpi_impl.h"
#include "coll.h"

/* A spawn that cannot be: every code MPI_ERR_SPAWN, no intercomm.  The
 * root's count says how many codes (every process learns it). */
static int no_spawn(int root, MPI_Comm comm, int nprocs, MPI_Comm *inter,
                    int *errcodes, const char *name)
{
    int rc = check_coll(comm);

    if (inter != NULL)
        *inter = MPI_COMM_NULL;
    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS && inter == NULL)
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS)
        rc = coll_bcast(&nprocs, 1, MPI_INT, root, comm);
    for (int i = 0; rc == MPI_SUCCESS && errcodes != MPI_ERRCODES_IGNORE &&
                    i < nprocs; i++)
        errcodes[i] = MPI_ERR_SPAWN;
    return mpi_err(comm, rc ? rc : ERRC_NO_SPAWN, name);
}

int MPI_Comm_spawn(const char *command, char **argv, int maxprocs,
                   MPI_Info info, int root, MPI_Comm comm,
                   MPI_Comm *intercomm, int *errcodes)
{
    (void)command, (void)argv, (void)info;
    return no_spawn(root, comm, maxprocs, intercomm, errcodes,
                    "MPI_Comm_spawn");
}

int MPI_Comm_spawn_multiple(int count, char **commands, char ***argvs,
                            const int *maxprocs, const MPI_Info *infos,
                            int root, MPI_Comm comm, MPI_Comm *intercomm,
                            int *errcodes)
{
    int n = 0;

    (void)commands, (void)argvs, (void)infos;
    if (comm_check(comm) == MPI_SUCCESS && comm->rank == root)
        for (int i = 0; i < count && maxprocs != NULL; i++)
            n += maxprocs[i];
    return no_spawn(root, comm, n, intercomm, errcodes,
                    "MPI_Comm_spawn_multiple");
}

int MPI_Comm_get_parent(MPI_Comm *parent)
{
    if (parent == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Comm_get_parent");
    *parent = MPI_COMM_NULL;    /* started by yod, not spawned */
    return MPI_SUCCESS;
}

int MPI_Open_port(MPI_Info info, char *port_name)
{
    (void)info;
    if (port_name != NULL)
        port_name[0] = '\0';
    return mpi_err(MPI_COMM_WORLD, ERRC_NO_OPEN_PORT, "MPI_Open_port");
}

int MPI_Close_port(const char *port_name)
{
    (void)port_name;
    return mpi_err(MPI_COMM_WORLD, ERRC_NO_PORTS, "MPI_Close_port");
}

static int no_port(MPI_Comm comm, MPI_Comm *newc, const char *name)
{
    if (newc != NULL)
        *newc = MPI_COMM_NULL;
    if (comm_check(comm) != MPI_SUCCESS)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COMM, name);
    return mpi_err(comm, newc ? ERRC_NO_PORTS : MPI_ERR_ARG, name);
}

int MPI_Comm_accept(const char *port_name, MPI_Info info, int root,
                    MPI_Comm comm, MPI_Comm *newc)
{
    (void)port_name, (void)info, (void)root;
    return no_port(comm, newc, "MPI_Comm_accept");
}

int MPI_Comm_connect(const char *port_name, MPI_Info info, int root,
                     MPI_Comm comm, MPI_Comm *newc)
{
    (void)port_name, (void)info, (void)root;
    return no_port(comm, newc, "MPI_Comm_connect");
}

int MPI_Publish_name(const char *service_name, MPI_Info info,
                     const char *port_name)
{
    (void)service_name, (void)info, (void)port_name;
    return mpi_err(MPI_COMM_WORLD, ERRC_NO_PUBLISH, "MPI_Publish_name");
}

int MPI_Unpublish_name(const char *service_name, MPI_Info info,
                       const char *port_name)
{
    (void)service_name, (void)info, (void)port_name;
    return mpi_err(MPI_COMM_WORLD, ERRC_NO_SERVICE, "MPI_Unpublish_name");
}

int MPI_Lookup_name(const char *service_name, MPI_Info info,
                    char *port_name)
{
    (void)service_name, (void)info;
    if (port_name != NULL)
        port_name[0] = '\0';
    return mpi_err(MPI_COMM_WORLD, ERRC_NO_NAME, "MPI_Lookup_name");
}

int MPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    (void)fd;
    if (intercomm != NULL)
        *intercomm = MPI_COMM_NULL;
    return mpi_err(MPI_COMM_WORLD, ERRC_NO_JOIN, "MPI_Comm_join");
}

/* Collective: once every member has come (a barrier, on either kind of
 * communicator), no message of it is still on its way here. */
int MPI_Comm_disconnect(MPI_Comm *comm)
{
    struct nbc *s;
    int rc;

    if (comm == NULL || comm_check(*comm) || (*comm)->builtin)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_disconnect");
    if ((*comm)->inter) {
        rc = ic_barrier(*comm, &s);
        rc = ic_wait(rc, s);
    } else {
        rc = coll_barrier(*comm);
    }
    if (rc != MPI_SUCCESS)
        return mpi_err(*comm, rc, "MPI_Comm_disconnect");
    return MPI_Comm_free(comm);
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Comm_spawn)
PMPI(MPI_Comm_spawn_multiple)
PMPI(MPI_Comm_get_parent)
PMPI(MPI_Open_port)
PMPI(MPI_Close_port)
PMPI(MPI_Comm_accept)
PMPI(MPI_Comm_connect)
PMPI(MPI_Publish_name)
PMPI(MPI_Unpublish_name)
PMPI(MPI_Lookup_name)
PMPI(MPI_Comm_join)
PMPI(MPI_Comm_disconnect)
