/* SPDX-License-Identifier: MIT */
/*
 * intercomm.c: making intercommunicators (MPI-3.1 6.6): from two groups'
 * leaders (MPI_Intercomm_create), back into one group
 * (MPI_Intercomm_merge), and from an intercommunicator by MPI_Comm_split
 * and MPI_Comm_create (6.4.2), which pair each group's part with the
 * other's.  An intercommunicator has two contexts: its own, and its
 * local_comm's (an intracommunicator over its local group, which its
 * collectives use, inter_coll.c), agreed by both groups.
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"

#define CERR(c, rc, name) mpi_err(c, rc, name)

static int intra_check(MPI_Comm c)
{
    int rc = comm_check(c);
    return rc ? rc : (c->inter ? MPI_ERR_COMM : MPI_SUCCESS);
}

/* An intercommunicator over local and remote groups with contexts
 * ctx[0] (its own) and ctx[1] (its local_comm's); on failure both are
 * given back. */
static int inter_new(MPI_Group local, MPI_Group remote, const uint32_t *ctx,
                     MPI_Comm *out)
{
    MPI_Comm c = MPI_COMM_NULL;
    int rc = comm_new(local, remote, ctx[0], &c);

    if (rc != MPI_SUCCESS) {
        ctx_release(ctx[0]);
        ctx_release(ctx[1]);
        return rc;
    }
    if ((rc = comm_new(local, local, ctx[1], &c->local_comm)) != 0) {
        ctx_release(ctx[1]);
        comm_destroy(c);
        return rc;
    }
    *out = c;
    return MPI_SUCCESS;
}

/* The leaders swap what their groups have free (the AND over the group)
 * and their sizes, then their groups' world ranks, over the peer
 * communicator; each broadcasts what it learnt in its group, and both
 * groups take the same two pairs: the intercommunicator's and its local
 * communicator's. */
static int leaders_swap(MPI_Comm local, int lleader, MPI_Comm peer,
                        int rleader, int tag, uint32_t *ctx, int **rw,
                        int *rn)
{
    struct ctx_mask m;
    uint64_t all[CTX_WORDS + 1], theirs[CTX_WORDS + 1];   /* + the size */
    MPI_Status st;
    int rc;

    ctx_offer(&m);
    rc = coll_allreduce(m.w, all, CTX_WORDS, MPI_UINT64_T, MPI_BAND, local);
    all[CTX_WORDS] = (uint64_t)local->size;
    if (rc == MPI_SUCCESS && local->rank == lleader) {
        rc = MPI_Sendrecv(all, CTX_WORDS + 1, MPI_UINT64_T, rleader, tag,
                          theirs, CTX_WORDS + 1, MPI_UINT64_T, rleader, tag,
                          peer, &st);
        for (int i = 0; i < CTX_WORDS; i++)
            all[i] &= theirs[i];
        all[CTX_WORDS] = theirs[CTX_WORDS];
    }
    if (rc == MPI_SUCCESS)
        rc = coll_bcast(all, CTX_WORDS + 1, MPI_UINT64_T, lleader, local);
    if (rc != MPI_SUCCESS)
        return ctx_settle(rc, NULL, 2, ctx);
    *rn = (int)all[CTX_WORDS];
    if ((*rw = malloc((size_t)*rn * sizeof(int) + 1)) == NULL)
        return ctx_settle(MPI_ERR_INTERN, NULL, 2, ctx);
    if (local->rank == lleader)
        rc = MPI_Sendrecv(local->local->world, local->size, MPI_INT, rleader,
                          tag, *rw, *rn, MPI_INT, rleader, tag, peer, &st);
    if (rc == MPI_SUCCESS)
        rc = coll_bcast(*rw, *rn, MPI_INT, lleader, local);
    memcpy(m.w, all, sizeof(m.w));
    return ctx_settle(rc, &m, 2, ctx);
}

int MPI_Intercomm_create(MPI_Comm local, int lleader, MPI_Comm peer,
                         int rleader, int tag, MPI_Comm *newc)
{
    uint32_t ctx[2] = { 0, 0 };
    int *rw = NULL, rn = 0, rc = intra_check(local);
    MPI_Group rg;
    MPI_Comm c = MPI_COMM_NULL;

    if (rc == MPI_SUCCESS && newc == NULL)
        rc = MPI_ERR_ARG;
    else if (newc != NULL)
        *newc = MPI_COMM_NULL;
    if (rc == MPI_SUCCESS && (lleader < 0 || lleader >= local->size))
        rc = MPI_ERR_RANK;
    if (rc == MPI_SUCCESS && local->rank == lleader && comm_check(peer))
        rc = MPI_ERR_COMM;
    if (rc == MPI_SUCCESS)
        rc = leaders_swap(local, lleader, peer, rleader, tag, ctx, &rw, &rn);
    if (rc == MPI_SUCCESS) {
        rg = group_new(rn, rw);
        rc = rg ? inter_new(local->local, rg, ctx, &c) : MPI_ERR_INTERN;
        group_release(rg);
    }
    free(rw);
    if (rc != MPI_SUCCESS)
        return CERR(local, rc, "MPI_Intercomm_create");
    *newc = c;
    return MPI_SUCCESS;
}

int MPI_Intercomm_merge(MPI_Comm inter, int high, MPI_Comm *newc)
{
    int mine = high ? 1 : 0, theirs = 0, rc = comm_check(inter), n, *w;
    uint32_t ctx;
    bool first;
    MPI_Group g;

    if (rc == MPI_SUCCESS && !inter->inter)
        rc = MPI_ERR_COMM;
    if (rc == MPI_SUCCESS && newc == NULL)
        rc = MPI_ERR_ARG;
    else if (newc != NULL)
        *newc = MPI_COMM_NULL;
    if (rc == MPI_SUCCESS && inter->local_comm->rank == 0)
        rc = coll_sendrecv(&mine, 1, MPI_INT, 0, &theirs, 1, MPI_INT, 0,
                           inter);
    if (rc == MPI_SUCCESS)
        rc = coll_bcast(&theirs, 1, MPI_INT, 0, inter->local_comm);
    if (rc == MPI_SUCCESS)
        rc = ctx_agree_inter(inter, 1, &ctx);
    if (rc != MPI_SUCCESS)
        return CERR(inter, rc, "MPI_Intercomm_merge");
    /* low group first; on a tie, the group holding world rank of the
     * lower leader goes first */
    first = mine != theirs ? !mine
                           : inter->local->world[0] < inter->remote->world[0];
    n = inter->local->size + inter->remote->size;
    if ((w = malloc((size_t)n * sizeof(int))) == NULL)
        return CERR(inter, MPI_ERR_INTERN, "MPI_Intercomm_merge");
    MPI_Group a = first ? inter->local : inter->remote;
    MPI_Group b = first ? inter->remote : inter->local;
    memcpy(w, a->world, (size_t)a->size * sizeof(int));
    memcpy(w + a->size, b->world, (size_t)b->size * sizeof(int));
    g = group_new(n, w);
    free(w);
    rc = g ? comm_new(g, g, ctx, newc) : MPI_ERR_INTERN;
    group_release(g);
    if (rc != MPI_SUCCESS)
        ctx_release(ctx);
    return rc ? CERR(inter, rc, "MPI_Intercomm_merge") : MPI_SUCCESS;
}

/* ---- MPI_Comm_split and MPI_Comm_create on an intercommunicator ---- */

/* What every member of the other group gave (n ints each): each group
 * gathers its members', the leaders swap them, each tells its group. */
static int swap_all(MPI_Comm inter, const int *mine, int n, int **theirs)
{
    MPI_Comm lc = inter->local_comm;
    int *ours = malloc((size_t)lc->size * (size_t)n * sizeof(int) + 1);
    int rn = inter->remote->size * n, rc;

    *theirs = malloc((size_t)rn * sizeof(int) + 1);
    rc = ours && *theirs ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = coll_allgather(mine, n, MPI_INT, ours, n, MPI_INT, lc);
    if (rc == MPI_SUCCESS && lc->rank == 0)
        rc = coll_sendrecv(ours, lc->size * n, MPI_INT, 0, *theirs, rn,
                           MPI_INT, 0, inter);
    if (rc == MPI_SUCCESS)
        rc = coll_bcast(*theirs, rn, MPI_INT, 0, lc);
    free(ours);
    return rc;
}

/* Each group splits by color and key as an intracommunicator would;
 * the parts of one color in both groups make an intercommunicator; a
 * color one group lacks makes none (MPI-3.1 6.4.2). */
int inter_split(MPI_Comm comm, int color, int key, MPI_Comm *newc)
{
    int mine[2] = { color, key }, *local = NULL, *remote = NULL, rc;
    MPI_Group lg = NULL, rg = NULL;
    MPI_Comm lc = comm->local_comm;
    uint32_t ctx[2];

    if (newc == NULL)
        return MPI_ERR_ARG;
    *newc = MPI_COMM_NULL;
    if (color < 0 && color != MPI_UNDEFINED)
        return MPI_ERR_ARG;
    local = malloc(2 * (size_t)lc->size * sizeof(int));
    rc = local ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = coll_allgather(mine, 2, MPI_INT, local, 2, MPI_INT, lc);
    if (rc == MPI_SUCCESS)
        rc = swap_all(comm, mine, 2, &remote);
    if (rc == MPI_SUCCESS)
        rc = ctx_agree_inter(comm, 2, ctx);
    if (rc == MPI_SUCCESS && color != MPI_UNDEFINED &&
        (rc = split_group(comm->local, local, color, &lg)) == MPI_SUCCESS)
        rc = split_group(comm->remote, remote, color, &rg);
    if (rc == MPI_SUCCESS && lg != NULL && rg != NULL && rg->size > 0)
        rc = inter_new(lg, rg, ctx, newc);
    else if (rc == MPI_SUCCESS)
        ctx_release(ctx[0]), ctx_release(ctx[1]);
    if (lg != NULL)
        group_release(lg);
    if (rg != NULL)
        group_release(rg);
    free(local);
    free(remote);
    return rc;
}

/* g: the part of my local group that takes part (every member of the
 * group gives the same); the other group gives its part: the new
 * intercommunicator joins them, in each part's order, for the members
 * of g (MPI-3.1 6.4.2). */
int inter_create(MPI_Comm comm, MPI_Group g, MPI_Comm *newc)
{
    int *pos = NULL, *w = NULL, rn = 0, rc = MPI_SUCCESS, me;
    MPI_Group rg = NULL;
    uint32_t ctx[2];

    if (newc == NULL)
        return MPI_ERR_ARG;
    *newc = MPI_COMM_NULL;
    if (g == MPI_GROUP_NULL || g->refs <= 0)
        return MPI_ERR_GROUP;
    for (int i = 0; i < g->size; i++)   /* a part of my group */
        if (group_rank_of_world(comm->local, g->world[i]) == MPI_UNDEFINED)
            return MPI_ERR_GROUP;
    /* each member's place in its group's part (or -1), the other's too */
    me = g->myrank == MPI_UNDEFINED ? -1 : g->myrank;
    rc = swap_all(comm, &me, 1, &pos);
    if (rc == MPI_SUCCESS)
        rc = ctx_agree_inter(comm, 2, ctx);
    if (rc == MPI_SUCCESS &&
        (w = malloc((size_t)comm->remote->size * sizeof(int) + 1)) == NULL)
        rc = MPI_ERR_NO_MEM;
    for (int i = 0; rc == MPI_SUCCESS && i < comm->remote->size; i++)
        if (pos[i] >= 0) {
            w[pos[i]] = comm->remote->world[i];
            rn++;
        }
    if (rc == MPI_SUCCESS && me >= 0 && rn > 0 &&
        (rg = group_new(rn, w)) == NULL)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && rg != NULL)
        rc = inter_new(g, rg, ctx, newc);
    else if (rc == MPI_SUCCESS)
        ctx_release(ctx[0]), ctx_release(ctx[1]);
    if (rg != NULL)
        group_release(rg);
    free(pos);
    free(w);
    return rc;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Intercomm_create)
PMPI(MPI_Intercomm_merge)
