/* SPDX-License-Identifier: MIT */
/*
 * topo.c: Cartesian and graph topologies.  A topology is a description
 * attached to a new communicator of the first N ranks (no reordering:
 * every node is alike here).  Coordinates are row-major.
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"

void topo_free(struct topo *t)
{
    if (t == NULL)
        return;
    free(t->dims);
    free(t->periods);
    free(t->index);
    free(t->edges);
    free(t->in);
    free(t->out);
    free(t->inw);
    free(t->outw);
    free(t);
}

int *copy_ints(const int *a, int n)
{
    int *b = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));

    if (b != NULL && n > 0)
        memcpy(b, a, (size_t)n * sizeof(int));
    return b;
}

/* The first n ranks of comm form the new communicator (others get NULL)
 * with topology t, which it owns from now on (freed if no rank got it). */
static int first_n(MPI_Comm comm, int n, struct topo *t, MPI_Comm *newc)
{
    int rc = MPI_Comm_split(comm, comm->rank < n ? 0 : MPI_UNDEFINED,
                            comm->rank, newc);

    if (rc == MPI_SUCCESS && *newc != MPI_COMM_NULL)
        (*newc)->topo = t;
    else
        topo_free(t);
    return rc;
}

/* A new communicator is MPI_COMM_NULL until the call succeeds. */
static int out_null(MPI_Comm *newc)
{
    if (newc == NULL)
        return MPI_ERR_ARG;
    *newc = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* A topology holding what t holds (its arrays copies already), or NULL
 * if memory ran out (t's arrays freed). */
static struct topo *topo_keep(struct topo t)
{
    struct topo *n = calloc(1, sizeof(*n));
    bool ok = t.kind == MPI_CART ? t.dims && t.periods : t.index && t.edges;

    if (n != NULL)
        *n = t;
    if (n == NULL || !ok) {
        free(n);
        free(t.dims), free(t.periods), free(t.index), free(t.edges);
        return NULL;
    }
    return n;
}

/* A copy of periods as 0 and 1 (any nonzero is true). */
static int *copy_periods(const int *periods, int ndims)
{
    int *p = copy_ints(periods, ndims);

    for (int i = 0; p != NULL && i < ndims; i++)
        p[i] = periods[i] != 0;
    return p;
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int *dims,
                    const int *periods, int reorder, MPI_Comm *newc)
{
    struct topo *t = NULL;
    long n = 1;
    int rc = comm_check(comm);

    (void)reorder;
    if (rc == MPI_SUCCESS)
        rc = out_null(newc);
    if (rc == MPI_SUCCESS && (comm->inter || ndims < 0))
        rc = comm->inter ? MPI_ERR_COMM : MPI_ERR_DIMS;
    if (rc == MPI_SUCCESS && ndims > 0 && (dims == NULL || periods == NULL))
        rc = MPI_ERR_ARG;
    for (int i = 0; rc == MPI_SUCCESS && i < ndims; i++) {
        if (dims[i] <= 0)
            rc = MPI_ERR_DIMS;
        else if ((n *= dims[i]) > comm->size)
            rc = MPI_ERR_DIMS;          /* more grid points than ranks */
    }
    if (rc == MPI_SUCCESS &&
        (t = topo_keep((struct topo){
             .kind = MPI_CART, .ndims = ndims, .dims = copy_ints(dims, ndims),
             .periods = copy_periods(periods, ndims) })) == NULL)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = first_n(comm, (int)n, t, newc);
    return rc ? mpi_err(comm, rc, "MPI_Cart_create") : MPI_SUCCESS;
}

/* The best split of n into k factors f[0] >= ... >= f[k-1]: the one
 * whose largest and smallest factors are closest (then the smallest
 * largest one).  A search over n's divisors (divs, largest first;
 * fewer than 1600 below 2^31), the largest factor chosen first. */
struct split {
    int k, ndivs, best_gap, best_max;
    bool found;
    int cur[32], best[32];
    int divs[1600];
};

static void split_search(struct split *sp, int n, int i, int top)
{
    if (i == sp->k - 1) {               /* the last factor is what is left */
        int gap = (i ? sp->cur[0] : n) - n;
        if (n > top)
            return;
        sp->cur[i] = n;
        if (!sp->found || gap < sp->best_gap ||
            (gap == sp->best_gap && sp->cur[0] < sp->best_max)) {
            sp->found = true;
            sp->best_gap = gap;
            sp->best_max = sp->cur[0];
            memcpy(sp->best, sp->cur, (size_t)sp->k * sizeof(int));
        }
        return;
    }
    for (int d = 0; d < sp->ndivs; d++) {
        int f = sp->divs[d];
        long pow = 1;                   /* f^(factors left) must reach n */
        if (f > top || f > n || n % f)
            continue;
        for (int j = i; j < sp->k && pow < n; j++)
            pow *= f;
        if (pow < n)
            return;                     /* a smaller f cannot either */
        if (i > 0 && sp->found && sp->cur[0] - f > sp->best_gap)
            return;                     /* ... and is further off */
        sp->cur[i] = f;
        split_search(sp, n / f, i + 1, f);
    }
}

/* n's divisors, largest first. */
static void divisors(struct split *sp, int n)
{
    int lo = 0, hi = 0, small[800], large[800];

    for (int q = 1; (long)q * q <= n; q++)
        if (n % q == 0) {
            small[lo++] = q;
            if (q != n / q)
                large[hi++] = n / q;
        }
    sp->ndivs = 0;
    for (int i = 0; i < hi; i++)
        sp->divs[sp->ndivs++] = large[i];
    for (int i = lo - 1; i >= 0; i--)
        sp->divs[sp->ndivs++] = small[i];
}

/* Split nnodes into ndims factors as close to each other as possible
 * (MPI-3.1 7.5.2), keeping the nonzero entries; the ones chosen go in
 * non-increasing order. */
int MPI_Dims_create(int nnodes, int ndims, int *dims)
{
    int rest = nnodes, free_dims = 0;
    struct split *sp;

    if (nnodes <= 0 || ndims < 0 || (ndims > 0 && dims == NULL))
        return mpi_err(MPI_COMM_WORLD, nnodes <= 0 || ndims < 0
                       ? MPI_ERR_DIMS : MPI_ERR_ARG, "MPI_Dims_create");
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0 || (dims[i] > 0 && rest % dims[i]))
            return mpi_err(MPI_COMM_WORLD, MPI_ERR_DIMS, "MPI_Dims_create");
        if (dims[i] > 0)
            rest /= dims[i];
        else
            free_dims++;
    }
    if (free_dims == 0)
        return rest == 1 ? MPI_SUCCESS
                         : mpi_err(MPI_COMM_WORLD, MPI_ERR_DIMS,
                                   "MPI_Dims_create");
    if ((sp = calloc(1, sizeof(*sp))) == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Dims_create");
    /* n has at most 30 prime factors: past 31 free dimensions the rest
     * are 1 whatever the split */
    sp->k = free_dims < 31 ? free_dims : 31;
    divisors(sp, rest);
    split_search(sp, rest, 0, rest);
    for (int i = 0, k = 0; i < ndims; i++)
        if (dims[i] == 0) {
            dims[i] = k < sp->k ? sp->best[k] : 1;
            k++;
        }
    free(sp);
    return MPI_SUCCESS;
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int *index,
                     const int *edges, int reorder, MPI_Comm *newc)
{
    struct topo *t = NULL;
    int rc = comm_check(comm), nedges;

    (void)reorder;
    if (rc == MPI_SUCCESS)
        rc = out_null(newc);
    if (rc == MPI_SUCCESS && (comm->inter || nnodes < 0 ||
                              nnodes > comm->size))
        rc = comm->inter ? MPI_ERR_COMM : MPI_ERR_ARG;
    if (rc == MPI_SUCCESS && nnodes > 0 && (index == NULL || edges == NULL))
        rc = MPI_ERR_ARG;
    for (int i = 0; rc == MPI_SUCCESS && i < nnodes; i++)
        if (index[i] < (i ? index[i - 1] : 0))
            rc = MPI_ERR_ARG;           /* index counts up */
    nedges = rc == MPI_SUCCESS && nnodes > 0 ? index[nnodes - 1] : 0;
    for (int i = 0; rc == MPI_SUCCESS && i < nedges; i++)
        if (edges[i] < 0 || edges[i] >= nnodes)
            rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS &&
        (t = topo_keep((struct topo){
             .kind = MPI_GRAPH, .nnodes = nnodes,
             .index = copy_ints(index, nnodes),
             .edges = copy_ints(edges, nedges) })) == NULL)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = first_n(comm, nnodes, t, newc);
    return rc ? mpi_err(comm, rc, "MPI_Graph_create") : MPI_SUCCESS;
}

static int need(MPI_Comm comm, int kind, const char *name)
{
    if (comm_check(comm))
        return mpi_err(comm, MPI_ERR_COMM, name);
    if (comm->topo == NULL || (kind && comm->topo->kind != kind))
        return mpi_err(comm, MPI_ERR_TOPOLOGY, name);
    return MPI_SUCCESS;
}

int MPI_Topo_test(MPI_Comm comm, int *status)
{
    if (comm_check(comm))
        return mpi_err(comm, MPI_ERR_COMM, "MPI_Topo_test");
    *status = comm->topo ? comm->topo->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    int rc = need(comm, MPI_GRAPH, "MPI_Graphdims_get");

    if (rc == MPI_SUCCESS) {
        *nnodes = comm->topo->nnodes;
        *nedges = comm->topo->nnodes ? comm->topo->index[*nnodes - 1] : 0;
    }
    return rc;
}

int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int *index,
                  int *edges)
{
    int rc = need(comm, MPI_GRAPH, "MPI_Graph_get");
    struct topo *t = comm->topo;

    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < t->nnodes && i < maxindex; i++)
        index[i] = t->index[i];
    for (int i = 0; t->nnodes && i < t->index[t->nnodes - 1] && i < maxedges;
         i++)
        edges[i] = t->edges[i];
    return MPI_SUCCESS;
}

int MPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    int rc = need(comm, MPI_CART, "MPI_Cartdim_get");

    if (rc == MPI_SUCCESS)
        *ndims = comm->topo->ndims;
    return rc;
}

static void coords_of(const struct topo *t, int rank, int *coords)
{
    for (int i = t->ndims - 1; i >= 0; i--) {
        coords[i] = rank % t->dims[i];
        rank /= t->dims[i];
    }
}

int MPI_Cart_get(MPI_Comm comm, int maxdims, int *dims, int *periods,
                 int *coords)
{
    int rc = need(comm, MPI_CART, "MPI_Cart_get");
    struct topo *t = comm->topo;

    if (rc != MPI_SUCCESS)
        return rc;
    int c[t->ndims + 1];
    coords_of(t, comm->rank, c);
    for (int i = 0; i < t->ndims && i < maxdims; i++) {
        dims[i] = t->dims[i];
        periods[i] = t->periods[i];
        coords[i] = c[i];
    }
    return MPI_SUCCESS;
}

/* Rank of coords, wrapping periodic dimensions; -1 if outside. */
static int rank_of(const struct topo *t, const int *coords)
{
    int r = 0;

    for (int i = 0; i < t->ndims; i++) {
        int c = coords[i], d = t->dims[i];
        if (t->periods[i])
            c = ((c % d) + d) % d;
        else if (c < 0 || c >= d)
            return -1;
        r = r * d + c;
    }
    return r;
}

int MPI_Cart_rank(MPI_Comm comm, const int *coords, int *rank)
{
    int rc = need(comm, MPI_CART, "MPI_Cart_rank");

    if (rc != MPI_SUCCESS)
        return rc;
    if ((*rank = rank_of(comm->topo, coords)) < 0)
        return mpi_err(comm, MPI_ERR_ARG, "MPI_Cart_rank");
    return MPI_SUCCESS;
}

int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int *coords)
{
    int rc = need(comm, MPI_CART, "MPI_Cart_coords");

    if (rc != MPI_SUCCESS)
        return rc;
    if (rank < 0 || rank >= comm->size || maxdims < comm->topo->ndims)
        return mpi_err(comm, rank < 0 || rank >= comm->size ? MPI_ERR_RANK
                                                           : MPI_ERR_ARG,
                       "MPI_Cart_coords");
    coords_of(comm->topo, rank, coords);
    return MPI_SUCCESS;
}

int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *n)
{
    int rc = need(comm, MPI_GRAPH, "MPI_Graph_neighbors_count");
    struct topo *t = comm->topo;

    if (rc != MPI_SUCCESS)
        return rc;
    if (rank < 0 || rank >= t->nnodes)
        return mpi_err(comm, MPI_ERR_RANK, "MPI_Graph_neighbors_count");
    *n = t->index[rank] - (rank ? t->index[rank - 1] : 0);
    return MPI_SUCCESS;
}

int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxn, int *nb)
{
    int rc = need(comm, MPI_GRAPH, "MPI_Graph_neighbors");
    struct topo *t = comm->topo;

    if (rc != MPI_SUCCESS)
        return rc;
    if (rank < 0 || rank >= t->nnodes)
        return mpi_err(comm, MPI_ERR_RANK, "MPI_Graph_neighbors");
    for (int i = rank ? t->index[rank - 1] : 0, k = 0;
         i < t->index[rank] && k < maxn; i++)
        nb[k++] = t->edges[i];
    return MPI_SUCCESS;
}

int MPI_Cart_shift(MPI_Comm comm, int dir, int disp, int *src, int *dst)
{
    int rc = need(comm, MPI_CART, "MPI_Cart_shift");
    struct topo *t = comm->topo;

    if (rc != MPI_SUCCESS)
        return rc;
    if (dir < 0 || dir >= t->ndims)
        return mpi_err(comm, MPI_ERR_DIMS, "MPI_Cart_shift");
    int c[t->ndims + 1], r;
    coords_of(t, comm->rank, c);
    c[dir] += disp;
    *dst = (r = rank_of(t, c)) < 0 ? MPI_PROC_NULL : r;
    c[dir] -= 2 * disp;
    *src = (r = rank_of(t, c)) < 0 ? MPI_PROC_NULL : r;
    return MPI_SUCCESS;
}

/* Ranks with equal coordinates in the dropped dimensions form a group,
 * ordered by their coordinates in the kept ones. */
int MPI_Cart_sub(MPI_Comm comm, const int *remain, MPI_Comm *newc)
{
    int rc = out_null(newc);
    struct topo *t, *nt;
    int color = 0, key = 0, nd = 0;

    if (rc != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Cart_sub");
    if ((rc = need(comm, MPI_CART, "MPI_Cart_sub")) != MPI_SUCCESS)
        return rc;
    t = comm->topo;
    if (t->ndims > 0 && remain == NULL)
        return mpi_err(comm, MPI_ERR_ARG, "MPI_Cart_sub");
    int c[t->ndims + 1];
    coords_of(t, comm->rank, c);
    for (int i = 0; i < t->ndims; i++) {
        if (remain[i]) {
            key = key * t->dims[i] + c[i];
            nd++;
        } else {
            color = color * t->dims[i] + c[i];
        }
    }
    int *d = malloc((size_t)(nd + 1) * sizeof(int));
    int *p = malloc((size_t)(nd + 1) * sizeof(int));
    for (int i = 0, k = 0; d && p && i < t->ndims; i++)
        if (remain[i]) {
            d[k] = t->dims[i];
            p[k++] = t->periods[i];
        }
    nt = topo_keep((struct topo){ .kind = MPI_CART, .ndims = nd, .dims = d,
                                  .periods = p });
    if (nt == NULL)
        return mpi_err(comm, MPI_ERR_NO_MEM, "MPI_Cart_sub");
    if ((rc = MPI_Comm_split(comm, color, key, newc)) != MPI_SUCCESS) {
        topo_free(nt);
        return rc;
    }
    (*newc)->topo = nt;
    return MPI_SUCCESS;
}

int MPI_Cart_map(MPI_Comm comm, int ndims, const int *dims, const int *periods,
                 int *newrank)
{
    long n = 1;

    (void)periods;
    if (comm_check(comm))
        return mpi_err(comm, MPI_ERR_COMM, "MPI_Cart_map");
    for (int i = 0; i < ndims && n <= comm->size; i++)
        n = dims[i] > 0 ? n * dims[i] : comm->size + 1;
    if (n > comm->size || ndims < 0)
        return mpi_err(comm, MPI_ERR_DIMS, "MPI_Cart_map");
    *newrank = comm->rank < n ? comm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int MPI_Graph_map(MPI_Comm comm, int nnodes, const int *index,
                  const int *edges, int *newrank)
{
    (void)index, (void)edges;
    if (comm_check(comm))
        return mpi_err(comm, MPI_ERR_COMM, "MPI_Graph_map");
    if (nnodes > comm->size || nnodes < 0)
        return mpi_err(comm, MPI_ERR_ARG, "MPI_Graph_map");
    *newrank = comm->rank < nnodes ? comm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Cart_create)
PMPI(MPI_Dims_create)
PMPI(MPI_Graph_create)
PMPI(MPI_Topo_test)
PMPI(MPI_Graphdims_get)
PMPI(MPI_Graph_get)
PMPI(MPI_Cartdim_get)
PMPI(MPI_Cart_get)
PMPI(MPI_Cart_rank)
PMPI(MPI_Cart_coords)
PMPI(MPI_Graph_neighbors_count)
PMPI(MPI_Graph_neighbors)
PMPI(MPI_Cart_shift)
PMPI(MPI_Cart_sub)
PMPI(MPI_Cart_map)
PMPI(MPI_Graph_map)
