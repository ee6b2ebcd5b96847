/* SPDX-License-Identifier: MIT */
/*
 * commx.c: the MPI-2/3 communicator calls: MPI_Comm_split_type (the
 * ranks of one node), MPI_Comm_dup_with_info, MPI_Comm_create_group
 * (collective over the group only), info and names.
 *
 * A node is what shares memory: on the compute nodes the ranks of a nid
 * that map each other (virtual-node mode puts several ranks on a node,
 * and its PCT groups them: shm.c), on Linux the host (every process
 * ptlrun starts runs on it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mpi_impl.h"
#include "shm.h"

#define NODE_NAME 64

/* This process's node, as a name every rank of the node shares.  A
 * rank of a node whose ranks do not map each other is a node of its own. */
static void node_name(char *out)
{
    memset(out, 0, NODE_NAME);
#ifdef __lwk__
    if (shm_grouped())
        snprintf(out, NODE_NAME, "nid %ld", proto_nid());
    else
        snprintf(out, NODE_NAME, "nid %ld rank %d", proto_nid(),
                 proto_world_rank());
#else
    if (gethostname(out, NODE_NAME - 1) != 0)
        strcpy(out, "localhost");
#endif
}

/* The color of a node: the lowest rank on it. */
static int node_color(MPI_Comm comm, int *color)
{
    char mine[NODE_NAME], *all = malloc((size_t)comm->size * NODE_NAME);
    int rc = all ? MPI_SUCCESS : MPI_ERR_NO_MEM;

    node_name(mine);
    if (rc == MPI_SUCCESS)
        rc = coll_allgather(mine, NODE_NAME, MPI_CHAR, all, NODE_NAME,
                            MPI_CHAR, comm);
    for (int r = 0; rc == MPI_SUCCESS && r < comm->size; r++)
        if (memcmp(all + (size_t)r * NODE_NAME, mine, NODE_NAME) == 0) {
            *color = r;
            break;
        }
    free(all);
    return rc;
}

/* Are all of comm's processes on one node (collective)? */
int comm_one_node(MPI_Comm comm, bool *one)
{
    int color = 0, top = 0, rc = node_color(comm, &color);

    if (rc == MPI_SUCCESS)
        rc = coll_allreduce(&color, &top, 1, MPI_INT, MPI_MAX, comm);
    *one = rc == MPI_SUCCESS && top == 0;
    return rc;
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key,
                        MPI_Info info, MPI_Comm *newc)
{
    int color = MPI_UNDEFINED, rc = comm_check(comm);

    (void)info;
    if (rc == MPI_SUCCESS && comm->inter)
        rc = MPI_ERR_COMM;
    if (rc == MPI_SUCCESS && newc == NULL)
        rc = MPI_ERR_ARG;
    else if (newc != NULL)
        *newc = MPI_COMM_NULL;
    if (rc == MPI_SUCCESS && split_type != MPI_COMM_TYPE_SHARED &&
        split_type != MPI_UNDEFINED)
        rc = MPI_ERR_ARG;
    /* every rank takes part in the exchange, MPI_UNDEFINED ones too */
    if (rc == MPI_SUCCESS)
        rc = node_color(comm, &color);
    if (split_type == MPI_UNDEFINED)
        color = MPI_UNDEFINED;
    if (rc != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Comm_split_type");
    return MPI_Comm_split(comm, color, key, newc);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newc)
{
    int rc = MPI_Comm_dup(comm, newc);

    if (rc == MPI_SUCCESS && (rc = MPI_Comm_set_info(*newc, info)) != 0)
        MPI_Comm_free(newc);    /* MPI_COMM_NULL, as for any failure */
    return rc;
}

/* ---- MPI_Comm_create_group: only the group's members call it ---- */

/* The tag, within the parent's collective context, of this call's
 * messages (blocking collectives use tag 0, nonblocking ones below
 * 2^27): tags that differ only in bit 27 and above share it. */
#define CG_TAG(t) ((1 << 27) | ((t) & ((1 << 27) - 1)))

/* Group rank i's rank in comm. */
static int comm_rank_of(MPI_Comm comm, MPI_Group g, int i)
{
    return group_rank_of_world(comm->local, g->world[i]);
}

/* The members agree on a context pair: each sends what it has free to
 * the group's rank 0, which sends back the AND of them all. */
static int group_ctx(MPI_Comm comm, MPI_Group g, int tag, uint32_t *ctx)
{
    struct ctx_mask mine, got;
    uint32_t c1 = comm->ctx + 1;
    int root = comm_rank_of(comm, g, 0), rc = MPI_SUCCESS;
    MPI_Request q;

    ctx_offer(&mine);
    if (g->myrank != 0) {
        rc = p2p_isend(mine.w, CTX_WORDS, MPI_UINT64_T, root, tag, comm, c1,
                       M_STD, &q);
        if (rc == MPI_SUCCESS)
            rc = p2p_wait(&q, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = p2p_irecv(mine.w, CTX_WORDS, MPI_UINT64_T, root, tag, comm,
                           c1, &q);
        if (rc == MPI_SUCCESS)
            rc = p2p_wait(&q, MPI_STATUS_IGNORE);
        return ctx_settle(rc, &mine, 1, ctx);
    }
    for (int i = 1; i < g->size && rc == MPI_SUCCESS; i++) {
        rc = p2p_irecv(got.w, CTX_WORDS, MPI_UINT64_T,
                       comm_rank_of(comm, g, i), tag, comm, c1, &q);
        if (rc == MPI_SUCCESS)
            rc = p2p_wait(&q, MPI_STATUS_IGNORE);
        ctx_and(&mine, &got);
    }
    for (int i = 1; i < g->size && rc == MPI_SUCCESS; i++) {
        rc = p2p_isend(mine.w, CTX_WORDS, MPI_UINT64_T,
                       comm_rank_of(comm, g, i), tag, comm, c1, M_STD, &q);
        if (rc == MPI_SUCCESS)
            rc = p2p_wait(&q, MPI_STATUS_IGNORE);
    }
    return ctx_settle(rc, &mine, 1, ctx);
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group g, int tag,
                          MPI_Comm *newc)
{
    uint32_t ctx;
    int rc = comm_check(comm);

    if (rc == MPI_SUCCESS && comm->inter)
        rc = MPI_ERR_COMM;
    if (rc == MPI_SUCCESS && (g == MPI_GROUP_NULL || g->refs <= 0))
        rc = MPI_ERR_GROUP;
    if (rc == MPI_SUCCESS && (tag < 0 || newc == NULL))
        rc = tag < 0 ? MPI_ERR_TAG : MPI_ERR_ARG;
    if (newc != NULL)
        *newc = MPI_COMM_NULL;  /* also what callers outside the group get */
    for (int i = 0; rc == MPI_SUCCESS && i < g->size; i++)
        if (comm_rank_of(comm, g, i) == MPI_UNDEFINED)
            rc = MPI_ERR_GROUP;         /* not a subgroup of comm */
    if (rc == MPI_SUCCESS && g->myrank == MPI_UNDEFINED)
        return MPI_SUCCESS;
    if (rc == MPI_SUCCESS)
        rc = group_ctx(comm, g, CG_TAG(tag), &ctx);
    if (rc == MPI_SUCCESS && (rc = comm_new(g, g, ctx, newc)) != 0)
        ctx_release(ctx);
    return rc ? mpi_err(comm, rc, "MPI_Comm_create_group") : MPI_SUCCESS;
}

/* ---- info and names ---- */

int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    MPI_Info copy;
    int rc = comm_check(comm);

    if (rc == MPI_SUCCESS)
        rc = info_copy(info, &copy);
    if (rc != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Comm_set_info");
    info_free(comm->info);
    comm->info = copy;
    return MPI_SUCCESS;
}

int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info)
{
    int rc = comm_check(comm);

    if (rc != MPI_SUCCESS && info != NULL)
        *info = MPI_INFO_NULL;
    if (rc == MPI_SUCCESS)
        rc = info_give(comm->info, info);
    return rc ? mpi_err(comm, rc, "MPI_Comm_get_info") : MPI_SUCCESS;
}

int MPI_Comm_set_name(MPI_Comm comm, const char *name)
{
    int rc = comm_check(comm);

    if (rc == MPI_SUCCESS)
        rc = name_set(&comm->name, name);
    return rc ? mpi_err(comm, rc, "MPI_Comm_set_name") : MPI_SUCCESS;
}

int MPI_Comm_get_name(MPI_Comm comm, char *name, int *len)
{
    int rc = comm_check(comm);
    const char *n = rc ? NULL : comm->name;

    if (n == NULL && comm == MPI_COMM_WORLD)
        n = "MPI_COMM_WORLD";
    else if (n == NULL && comm == MPI_COMM_SELF)
        n = "MPI_COMM_SELF";
    if (rc == MPI_SUCCESS)
        rc = name_get(n, name, len);
    return rc ? mpi_err(comm, rc, "MPI_Comm_get_name") : MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Comm_split_type)
PMPI(MPI_Comm_dup_with_info)
PMPI(MPI_Comm_create_group)
PMPI(MPI_Comm_set_info)
PMPI(MPI_Comm_get_info)
PMPI(MPI_Comm_set_name)
PMPI(MPI_Comm_get_name)
