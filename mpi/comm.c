/* SPDX-License-Identifier: MIT */
/*
 * comm.c: communicators.  A communicator is a local group, a remote group
 * (the same for an intracommunicator) and a context: an even number ctx,
 * with ctx used by point-to-point traffic and ctx+1 by collectives, so the
 * two never match each other.  Contexts are agreed collectively by the
 * new communicator's members and given back when it is freed
 * (context.c).
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"

struct mpi_comm_s mpi_comm_world_, mpi_comm_self_;

int comm_check(MPI_Comm c)
{
    if (c == MPI_COMM_NULL || c->refs <= 0)
        return MPI_ERR_COMM;
    return MPI_SUCCESS;
}

int comm_new(MPI_Group local, MPI_Group remote, uint32_t ctx, MPI_Comm *out)
{
    MPI_Comm c = calloc(1, sizeof(*c));

    if (c == NULL)
        return MPI_ERR_INTERN;
    c->refs = 1;
    c->ctx = ctx;
    c->local = local;
    c->remote = remote;
    group_retain(local);
    group_retain(remote);
    c->inter = local != remote;
    c->rank = local->myrank;
    c->size = local->size;
    c->errh = MPI_ERRORS_ARE_FATAL;
    *out = c;
    return MPI_SUCCESS;
}

static void init_one(MPI_Comm c, MPI_Group g, uint32_t ctx)
{
    memset(c, 0, sizeof(*c));
    c->refs = 1;
    c->builtin = true;
    c->ctx = ctx;
    c->local = c->remote = g;
    c->rank = g->myrank;
    c->size = g->size;
    c->errh = MPI_ERRORS_ARE_FATAL;
}

void comm_init_builtin(int rank, int size)
{
    int *w = malloc((size_t)size * sizeof(int));
    MPI_Group world, self;

    if (w == NULL)
        mpi_fatal("out of memory in MPI_Init");
    for (int i = 0; i < size; i++)
        w[i] = i;
    world = group_new(size, w);
    self = group_new(1, &rank);
    free(w);
    if (world == NULL || self == NULL)
        mpi_fatal("out of memory in MPI_Init");
    init_one(MPI_COMM_WORLD, world, 0);
    init_one(MPI_COMM_SELF, self, 2);
}

#define CERR(c, rc, name) mpi_err(c, rc, name)

int MPI_Comm_size(MPI_Comm comm, int *size)
{
    if (comm_check(comm))
        return CERR(comm, MPI_ERR_COMM, "MPI_Comm_size");
    *size = comm->size;
    return MPI_SUCCESS;
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    if (comm_check(comm))
        return CERR(comm, MPI_ERR_COMM, "MPI_Comm_rank");
    *rank = comm->rank;
    return MPI_SUCCESS;
}

int MPI_Comm_group(MPI_Comm comm, MPI_Group *g)
{
    if (g == NULL)
        return CERR(comm, MPI_ERR_ARG, "MPI_Comm_group");
    *g = MPI_GROUP_NULL;
    if (comm_check(comm))
        return CERR(comm, MPI_ERR_COMM, "MPI_Comm_group");
    group_retain(comm->local);
    *g = comm->local;
    return MPI_SUCCESS;
}

int MPI_Comm_compare(MPI_Comm c1, MPI_Comm c2, int *result)
{
    int g, r = MPI_IDENT;

    if (comm_check(c1) || comm_check(c2))
        return CERR(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_compare");
    if (c1 == c2) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (c1->inter != c2->inter) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    MPI_Group_compare(c1->local, c2->local, &g);
    if (c1->inter) {
        MPI_Group_compare(c1->remote, c2->remote, &r);
        g = g > r ? g : r;
    }
    *result = g == MPI_IDENT ? MPI_CONGRUENT : g;
    return MPI_SUCCESS;
}

static int dup_topo(MPI_Comm from, MPI_Comm to);


/* The duplicate of comm on the contexts its members agreed (ctx[1]: an
 * intercommunicator's local_comm's): its groups, error handler,
 * attributes (through their copy callbacks) and topology.  On failure
 * nothing of it stays and the contexts are given back. */
int comm_dup_make(MPI_Comm comm, const uint32_t *ctx, MPI_Comm *out)
{
    MPI_Comm c = MPI_COMM_NULL;
    int rc = comm_new(comm->local, comm->remote, ctx[0], &c);

    if (rc != MPI_SUCCESS) {
        ctx_release(ctx[0]);
        if (comm->inter)
            ctx_release(ctx[1]);
        return rc;
    }
    if (comm->inter &&
        (rc = comm_new(comm->local, comm->local, ctx[1], &c->local_comm)))
        ctx_release(ctx[1]);
    if (rc == MPI_SUCCESS) {
        errh_release(c->errh);
        c->errh = comm->errh;
        errh_retain(c->errh);
        rc = attr_copy_all(comm, c);
    }
    if (rc == MPI_SUCCESS)
        rc = dup_topo(comm, c);
    if (rc != MPI_SUCCESS) {
        /* e.g. a copy callback failed: the attributes copied so far are
         * deleted with the communicator that never was */
        attr_delete_all(c);
        comm_destroy(c);
        return rc;
    }
    *out = c;
    return MPI_SUCCESS;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newc)
{
    uint32_t ctx[2];
    int rc = comm_check(comm);

    if (rc == MPI_SUCCESS && newc == NULL)
        rc = MPI_ERR_ARG;
    else if (newc != NULL)
        *newc = MPI_COMM_NULL;  /* what it stays if the call fails */
    if (rc == MPI_SUCCESS)      /* an intercommunicator's local one too */
        rc = comm->inter ? ctx_agree_inter(comm, 2, ctx)
                         : ctx_agree(comm, 1, ctx);
    if (rc == MPI_SUCCESS)
        rc = comm_dup_make(comm, ctx, newc);
    return rc ? CERR(comm, rc, "MPI_Comm_dup") : MPI_SUCCESS;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group g, MPI_Comm *newc)
{
    uint32_t ctx;
    int rc = comm_check(comm);

    if (rc == MPI_SUCCESS && comm->inter)
        return CERR(comm, inter_create(comm, g, newc), "MPI_Comm_create");

    if (rc == MPI_SUCCESS && newc == NULL)
        rc = MPI_ERR_ARG;
    else if (newc != NULL)
        *newc = MPI_COMM_NULL;
    if (rc == MPI_SUCCESS && (g == MPI_GROUP_NULL || g->refs <= 0))
        rc = MPI_ERR_GROUP;
    if (rc == MPI_SUCCESS)
        rc = ctx_agree(comm, 1, &ctx);
    if (rc == MPI_SUCCESS && (g->myrank == MPI_UNDEFINED ||
                              (rc = comm_new(g, g, ctx, newc)) != 0))
        ctx_release(ctx);       /* not a member: not ours to keep */
    return rc ? CERR(comm, rc, "MPI_Comm_create") : MPI_SUCCESS;
}

/* The members of group g of my color, ordered by (key, rank in g); ck
 * holds every member's (color, key). */
int split_group(MPI_Group g, const int *ck, int color, MPI_Group *out)
{
    int n = 0, *idx = malloc((size_t)g->size * sizeof(int) + 1), *w;

    if (idx == NULL)
        return MPI_ERR_INTERN;
    for (int i = 0; i < g->size; i++)
        if (ck[2 * i] == color)
            idx[n++] = i;
    for (int i = 1; i < n; i++)       /* insertion sort: stable by rank */
        for (int j = i; j > 0 && ck[2 * idx[j] + 1] < ck[2 * idx[j - 1] + 1];
             j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    w = idx;
    for (int i = 0; i < n; i++)
        w[i] = g->world[idx[i]];
    *out = group_new(n, w);
    free(idx);
    return *out ? MPI_SUCCESS : MPI_ERR_INTERN;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newc)
{
    int mine[2] = { color, key }, *all = NULL, rc = comm_check(comm);
    uint32_t ctx;
    MPI_Group g = NULL;

    if (rc == MPI_SUCCESS && comm->inter)
        return CERR(comm, inter_split(comm, color, key, newc),
                    "MPI_Comm_split");

    if (rc == MPI_SUCCESS && newc == NULL)
        rc = MPI_ERR_ARG;
    else if (newc != NULL)
        *newc = MPI_COMM_NULL;
    if (rc == MPI_SUCCESS && color < 0 && color != MPI_UNDEFINED)
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS &&
        (all = malloc(2 * (size_t)comm->size * sizeof(int))) == NULL)
        rc = MPI_ERR_INTERN;
    if (rc == MPI_SUCCESS)
        rc = coll_allgather(mine, 2, MPI_INT, all, 2, MPI_INT, comm);
    if (rc == MPI_SUCCESS)
        rc = ctx_agree(comm, 1, &ctx);
    if (rc == MPI_SUCCESS && color != MPI_UNDEFINED)
        rc = split_group(comm->local, all, color, &g);
    if (rc == MPI_SUCCESS && g != NULL) {
        rc = comm_new(g, g, ctx, newc);
        group_release(g);
    }
    if (rc == MPI_SUCCESS && *newc == MPI_COMM_NULL)
        ctx_release(ctx);
    free(all);
    return rc ? CERR(comm, rc, "MPI_Comm_split") : MPI_SUCCESS;
}

void comm_destroy(MPI_Comm c)
{
    if (c->local_comm != NULL)
        comm_destroy(c->local_comm);
    ctx_release(c->ctx);
    group_release(c->local);
    if (c->remote != c->local)
        group_release(c->remote);
    topo_free(c->topo);
    errh_release(c->errh);
    trig_comm_free(c);
    free(c->name);
    info_free(c->info);
    c->refs = 0;
    free(c);
}

int MPI_Comm_free(MPI_Comm *comm)
{
    int rc;

    if (comm == NULL || comm_check(*comm) || (*comm)->builtin)
        return CERR(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_free");
    if ((rc = attr_delete_all(*comm)) != MPI_SUCCESS)
        return CERR(*comm, rc, "MPI_Comm_free");
    comm_destroy(*comm);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int MPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    if (comm_check(comm))
        return CERR(comm, MPI_ERR_COMM, "MPI_Comm_test_inter");
    *flag = comm->inter;
    return MPI_SUCCESS;
}

int MPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    if (comm_check(comm) || !comm->inter)
        return CERR(comm, MPI_ERR_COMM, "MPI_Comm_remote_size");
    *size = comm->remote->size;
    return MPI_SUCCESS;
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *g)
{
    if (g == NULL)
        return CERR(comm, MPI_ERR_ARG, "MPI_Comm_remote_group");
    *g = MPI_GROUP_NULL;
    if (comm_check(comm) || !comm->inter)
        return CERR(comm, MPI_ERR_COMM, "MPI_Comm_remote_group");
    group_retain(comm->remote);
    *g = comm->remote;
    return MPI_SUCCESS;
}

/* ---- topology copy for MPI_Comm_dup ---- */

static int dup_topo(MPI_Comm from, MPI_Comm to)
{
    struct topo *t = from->topo, *n;

    if (t == NULL)
        return MPI_SUCCESS;
    if ((n = calloc(1, sizeof(*n))) == NULL)
        return MPI_ERR_INTERN;
    *n = *t;
    n->dims = copy_ints(t->dims, t->ndims);
    n->periods = copy_ints(t->periods, t->ndims);
    n->index = copy_ints(t->index, t->nnodes);
    n->edges = copy_ints(t->edges, t->nnodes ? t->index[t->nnodes - 1] : 0);
    n->in = copy_ints(t->in, t->indeg);
    n->out = copy_ints(t->out, t->outdeg);
    n->inw = copy_ints(t->inw, t->indeg);
    n->outw = copy_ints(t->outw, t->outdeg);
    to->topo = n;
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Comm_size)
PMPI(MPI_Comm_rank)
PMPI(MPI_Comm_group)
PMPI(MPI_Comm_compare)
PMPI(MPI_Comm_dup)
PMPI(MPI_Comm_create)
PMPI(MPI_Comm_split)
PMPI(MPI_Comm_free)
PMPI(MPI_Comm_test_inter)
PMPI(MPI_Comm_remote_size)
PMPI(MPI_Comm_remote_group)
