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

/* The first n ranks of comm form the new communicator (others get NULL). */
static int first_n(MPI_Comm comm, int n, MPI_Comm *newc)
{
    int rc = MPI_Comm_split(comm, comm->rank < n ? 0 : MPI_UNDEFINED,
                            comm->rank, newc);
    return rc;
}

int MPI_Cart_create(MPI_Comm comm, int ndims, int *dims, int *periods,
                    int reorder, MPI_Comm *newc)
{
    struct topo *t;
    int n = 1, rc = comm_check(comm);

    (void)reorder;
    if (rc == MPI_SUCCESS && (comm->inter || ndims < 0))
        rc = comm->inter ? MPI_ERR_COMM : MPI_ERR_DIMS;
    for (int i = 0; rc == MPI_SUCCESS && i < ndims; i++) {
        if (dims[i] <= 0)
            rc = MPI_ERR_DIMS;
        n *= dims[i];
    }
    if (rc == MPI_SUCCESS && n > comm->size)
        rc = MPI_ERR_DIMS;
    if (rc != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Cart_create");
    if ((rc = first_n(comm, n, newc)) != MPI_SUCCESS ||
        *newc == MPI_COMM_NULL)
        return rc;
    if ((t = calloc(1, sizeof(*t))) == NULL)
        return mpi_err(comm, MPI_ERR_INTERN, "MPI_Cart_create");
    t->kind = MPI_CART;
    t->ndims = ndims;
    t->dims = copy_ints(dims, ndims);
    t->periods = copy_ints(periods, ndims);
    (*newc)->topo = t;
    return MPI_SUCCESS;
}

/* Split n into ndims factors as even as possible, respecting fixed
 * (nonzero) entries; largest first. */
int MPI_Dims_create(int nnodes, int ndims, int *dims)
{
    int rest = nnodes, free_dims = 0;

    if (nnodes <= 0 || ndims < 0)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_DIMS, "MPI_Dims_create");
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return mpi_err(MPI_COMM_WORLD, MPI_ERR_DIMS, "MPI_Dims_create");
        if (dims[i] > 0) {
            if (rest % dims[i])
                return mpi_err(MPI_COMM_WORLD, MPI_ERR_DIMS,
                               "MPI_Dims_create");
            rest /= dims[i];
        } else {
            free_dims++;
        }
    }
    if (free_dims == 0)
        return rest == 1 ? MPI_SUCCESS
                         : mpi_err(MPI_COMM_WORLD, MPI_ERR_DIMS,
                                   "MPI_Dims_create");
    int f[free_dims];
    for (int i = 0; i < free_dims; i++)
        f[i] = 1;
    /* prime factors, largest first, each to the smallest dimension */
    int pf[32], np = 0;
    for (int q = 2, p = rest; p > 1;) {
        if (p % q) {
            q++;
            continue;
        }
        pf[np++] = q;
        p /= q;
    }
    for (int k = np - 1; k >= 0; k--) {
        int m = 0;
        for (int i = 1; i < free_dims; i++)
            if (f[i] < f[m])
                m = i;
        f[m] *= pf[k];
    }
    for (int i = 0; i < free_dims; i++)       /* descending */
        for (int j = i + 1; j < free_dims; j++)
            if (f[j] > f[i]) {
                int t = f[i];
                f[i] = f[j];
                f[j] = t;
            }
    for (int i = 0, k = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = f[k++];
    return MPI_SUCCESS;
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, int *index, int *edges,
                     int reorder, MPI_Comm *newc)
{
    struct topo *t;
    int rc = comm_check(comm);

    (void)reorder;
    if (rc == MPI_SUCCESS && (comm->inter || nnodes < 0 ||
                              nnodes > comm->size))
        rc = comm->inter ? MPI_ERR_COMM : MPI_ERR_ARG;
    for (int i = 0; rc == MPI_SUCCESS && nnodes > 0 &&
                    i < index[nnodes - 1]; i++)
        if (edges[i] < 0 || edges[i] >= nnodes)
            rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Graph_create");
    if ((rc = first_n(comm, nnodes, newc)) != MPI_SUCCESS ||
        *newc == MPI_COMM_NULL)
        return rc;
    if ((t = calloc(1, sizeof(*t))) == NULL)
        return mpi_err(comm, MPI_ERR_INTERN, "MPI_Graph_create");
    t->kind = MPI_GRAPH;
    t->nnodes = nnodes;
    t->index = copy_ints(index, nnodes);
    t->edges = copy_ints(edges, nnodes ? index[nnodes - 1] : 0);
    (*newc)->topo = t;
    return MPI_SUCCESS;
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

int MPI_Cart_rank(MPI_Comm comm, int *coords, int *rank)
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
int MPI_Cart_sub(MPI_Comm comm, int *remain, MPI_Comm *newc)
{
    int rc = need(comm, MPI_CART, "MPI_Cart_sub");
    struct topo *t = comm->topo, *nt;
    int color = 0, key = 0, nd = 0;

    if (rc != MPI_SUCCESS)
        return rc;
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
    if ((rc = MPI_Comm_split(comm, color, key, newc)) != MPI_SUCCESS)
        return rc;
    if ((nt = calloc(1, sizeof(*nt))) == NULL)
        return mpi_err(comm, MPI_ERR_INTERN, "MPI_Cart_sub");
    nt->kind = MPI_CART;
    nt->ndims = nd;
    nt->dims = malloc((size_t)(nd ? nd : 1) * sizeof(int));
    nt->periods = malloc((size_t)(nd ? nd : 1) * sizeof(int));
    for (int i = 0, k = 0; i < t->ndims; i++)
        if (remain[i]) {
            nt->dims[k] = t->dims[i];
            nt->periods[k++] = t->periods[i];
        }
    (*newc)->topo = nt;
    return MPI_SUCCESS;
}

int MPI_Cart_map(MPI_Comm comm, int ndims, int *dims, int *periods,
                 int *newrank)
{
    int n = 1;

    (void)periods;
    if (comm_check(comm))
        return mpi_err(comm, MPI_ERR_COMM, "MPI_Cart_map");
    for (int i = 0; i < ndims; i++)
        n *= dims[i];
    if (n > comm->size || ndims < 0)
        return mpi_err(comm, MPI_ERR_DIMS, "MPI_Cart_map");
    *newrank = comm->rank < n ? comm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int MPI_Graph_map(MPI_Comm comm, int nnodes, int *index, int *edges,
                  int *newrank)
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
