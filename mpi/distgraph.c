/* SPDX-License-Identifier: MIT */
/*
 * distgraph.c: distributed graph topologies (MPI_Dist_graph_create and
 * _adjacent, each process knowing only its own edges) and the neighbour
 * lists of every topology that the neighbourhood collectives use.
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"

/* A new communicator of comm's ranks, in order, with topology t. */
static int attach(MPI_Comm comm, struct topo *t, MPI_Comm *newc)
{
    int rc = MPI_Comm_split(comm, 0, comm->rank, newc);

    if (rc == MPI_SUCCESS)
        (*newc)->topo = t;
    else
        topo_free(t);
    return rc;
}

static int weights_ok(const int *w)
{
    return w != MPI_UNWEIGHTED && w != MPI_WEIGHTS_EMPTY;
}

static int ranks_ok(MPI_Comm comm, int n, const int *r)
{
    for (int i = 0; i < n; i++)
        if (r[i] < 0 || r[i] >= comm->size)
            return MPI_ERR_RANK;
    return MPI_SUCCESS;
}

/* A weight array: a copy of w, or all 1 when unweighted. */
static int *weights(const int *w, int n)
{
    int *c = malloc(((size_t)n + 1) * sizeof(int));

    for (int i = 0; c != NULL && i < n; i++)
        c[i] = weights_ok(w) ? w[i] : 1;
    return c;
}

static struct topo *dist_topo(int indeg, const int *in, const int *inw,
                              int outdeg, const int *out, const int *outw,
                              bool weighted)
{
    struct topo *t = calloc(1, sizeof(*t));

    if (t == NULL)
        return NULL;
    t->kind = MPI_DIST_GRAPH;
    t->indeg = indeg;
    t->outdeg = outdeg;
    t->in = copy_ints(in, indeg);
    t->out = copy_ints(out, outdeg);
    t->inw = weights(inw, indeg);
    t->outw = weights(outw, outdeg);
    t->weighted = weighted;
    if (!t->in || !t->out || !t->inw || !t->outw) {
        topo_free(t);
        return NULL;
    }
    return t;
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indeg, const int *in,
                                   const int *inw, int outdeg,
                                   const int *out, const int *outw,
                                   MPI_Info info, int reorder,
                                   MPI_Comm *newc)
{
    struct topo *t = NULL;
    int rc = comm_check(comm);

    (void)info, (void)reorder;
    if (newc != NULL)
        *newc = MPI_COMM_NULL;          /* if the call fails */
    if (rc == MPI_SUCCESS && comm->inter)
        rc = MPI_ERR_COMM;
    if (rc == MPI_SUCCESS && (indeg < 0 || outdeg < 0 || newc == NULL))
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS)
        rc = ranks_ok(comm, indeg, in);
    if (rc == MPI_SUCCESS)
        rc = ranks_ok(comm, outdeg, out);
    if (rc == MPI_SUCCESS &&
        !(t = dist_topo(indeg, in, inw, outdeg, out, outw,
                        inw != MPI_UNWEIGHTED)))
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = attach(comm, t, newc);
    return rc ? mpi_err(comm, rc, "MPI_Dist_graph_create_adjacent") : 0;
}

/* ---- the general form: any process may name any edge ---- */

/* Every edge this process names, as (source, destination, weight). */
static int *my_edges(int n, const int *src, const int *deg, const int *dst,
                     const int *w, int *nedges)
{
    int m = 0, *e;

    for (int i = 0; i < n; i++)
        m += deg[i];
    if ((e = malloc(((size_t)m + 1) * 3 * sizeof(int))) == NULL)
        return NULL;
    for (int i = 0, k = 0; i < n; i++)
        for (int j = 0; j < deg[i]; j++, k++) {
            e[3 * k] = src[i];
            e[3 * k + 1] = dst[k];
            e[3 * k + 2] = weights_ok(w) ? w[k] : 1;
        }
    *nedges = m;
    return e;
}

static int cmp_edge(const void *a, const void *b)
{
    const int *x = a, *y = b;

    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* The processes an edge goes to: its two ends, or one for a loop. */
static int ends(const int *x)
{
    return x[0] == x[1] ? 1 : 2;
}

/* Send each edge to its ends; each process gets the edges it touches,
 * sorted, so both ends list the edges between them in one order. */
static int spread(MPI_Comm comm, int *e, int m, int **got, int *ngot)
{
    int n = comm->size, *sc = calloc((size_t)n * 4, sizeof(int)), rc;
    int *sd = sc + n, *rcnt = sc + 2 * n, *rd = sc + 3 * n, *buf;

    if (sc == NULL)
        return MPI_ERR_NO_MEM;
    for (int k = 0; k < m; k++)
        for (int end = 0; end < ends(e + 3 * k); end++)
            sc[e[3 * k + end]] += 3;
    rc = MPI_Alltoall(sc, 1, MPI_INT, rcnt, 1, MPI_INT, comm);
    for (int i = 1; i < n; i++) {
        sd[i] = sd[i - 1] + sc[i - 1];
        rd[i] = rd[i - 1] + rcnt[i - 1];
    }
    *ngot = (rd[n - 1] + rcnt[n - 1]) / 3;
    buf = malloc(((size_t)2 * m + 1) * 3 * sizeof(int));
    *got = malloc(((size_t)*ngot + 1) * 3 * sizeof(int));
    if (rc == MPI_SUCCESS && (buf == NULL || *got == NULL))
        rc = MPI_ERR_NO_MEM;
    int *at = calloc((size_t)n, sizeof(int));
    for (int k = 0; rc == MPI_SUCCESS && at != NULL && k < m; k++)
        for (int end = 0; end < ends(e + 3 * k); end++) {
            int p = e[3 * k + end];
            memcpy(buf + sd[p] + at[p], e + 3 * k, 3 * sizeof(int));
            at[p] += 3;
        }
    if (rc == MPI_SUCCESS)
        rc = at ? MPI_Alltoallv(buf, sc, sd, MPI_INT, *got, rcnt, rd,
                                MPI_INT, comm) : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        qsort(*got, (size_t)*ngot, 3 * sizeof(int), cmp_edge);
    free(at);
    free(buf);
    free(sc);
    return rc;
}

/* This process's in- and out-edges among the edges it was sent. */
static struct topo *own_edges(int me, const int *g, int ng, bool weighted)
{
    size_t sz = ((size_t)ng + 1) * sizeof(int);
    int *in = malloc(sz), *inw = malloc(sz), *out = malloc(sz);
    int *outw = malloc(sz), ni = 0, no = 0;
    struct topo *t = NULL;

    for (int k = 0; in && inw && out && outw && k < ng; k++) {
        const int *x = g + 3 * k;
        if (x[1] == me) {
            in[ni] = x[0];
            inw[ni++] = x[2];
        }
        if (x[0] == me) {
            out[no] = x[1];
            outw[no++] = x[2];
        }
    }
    if (in && inw && out && outw)
        t = dist_topo(ni, in, inw, no, out, outw, weighted);
    free(in), free(inw), free(out), free(outw);
    return t;
}

int MPI_Dist_graph_create(MPI_Comm comm, int n, const int *src,
                          const int *deg, const int *dst, const int *w,
                          MPI_Info info, int reorder, MPI_Comm *newc)
{
    int rc = comm_check(comm), m = 0, ng = 0, *e = NULL, *g = NULL;
    struct topo *t = NULL;

    (void)info, (void)reorder;
    if (newc != NULL)
        *newc = MPI_COMM_NULL;          /* if the call fails */
    if (rc == MPI_SUCCESS && (comm->inter || n < 0 || newc == NULL))
        rc = comm->inter ? MPI_ERR_COMM : MPI_ERR_ARG;
    if (rc == MPI_SUCCESS)
        rc = ranks_ok(comm, n, src);
    if (rc == MPI_SUCCESS && !(e = my_edges(n, src, deg, dst, w, &m)))
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = ranks_ok(comm, m, dst);
    if (rc == MPI_SUCCESS)
        rc = spread(comm, e, m, &g, &ng);
    if (rc == MPI_SUCCESS &&
        !(t = own_edges(comm->rank, g, ng, w != MPI_UNWEIGHTED)))
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = attach(comm, t, newc);
    free(e);
    free(g);
    return rc ? mpi_err(comm, rc, "MPI_Dist_graph_create") : MPI_SUCCESS;
}

static int need_dist(MPI_Comm comm, const char *name)
{
    int rc = comm_check(comm);

    if (rc == MPI_SUCCESS && (comm->topo == NULL ||
                              comm->topo->kind != MPI_DIST_GRAPH))
        rc = MPI_ERR_TOPOLOGY;
    return rc ? mpi_err(comm, rc, name) : MPI_SUCCESS;
}

int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indeg, int *outdeg,
                                   int *weighted)
{
    int rc = need_dist(comm, "MPI_Dist_graph_neighbors_count");

    if (rc == MPI_SUCCESS) {
        *indeg = comm->topo->indeg;
        *outdeg = comm->topo->outdeg;
        *weighted = comm->topo->weighted;
    }
    return rc;
}

int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxin, int *in, int *inw,
                             int maxout, int *out, int *outw)
{
    int rc = need_dist(comm, "MPI_Dist_graph_neighbors");
    struct topo *t = rc ? NULL : comm->topo;

    for (int i = 0; t && i < t->indeg && i < maxin; i++) {
        in[i] = t->in[i];
        if (t->weighted && weights_ok(inw))
            inw[i] = t->inw[i];
    }
    for (int i = 0; t && i < t->outdeg && i < maxout; i++) {
        out[i] = t->out[i];
        if (t->weighted && weights_ok(outw))
            outw[i] = t->outw[i];
    }
    return rc;
}

/* ---- neighbour lists of every topology ---- */

static int cart_neighbors(MPI_Comm comm, int *l)
{
    for (int d = 0; d < comm->topo->ndims; d++) {
        int rc = MPI_Cart_shift(comm, d, 1, &l[2 * d], &l[2 * d + 1]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int topo_neighbors(MPI_Comm comm, int **in, int *nin, int **out, int *nout)
{
    struct topo *t = comm->topo;
    int first, rc = MPI_SUCCESS;

    *in = *out = NULL;
    if (t == NULL)
        return MPI_ERR_TOPOLOGY;
    switch (t->kind) {
    case MPI_CART:      /* each dimension: -1 then +1, both ways */
        *nin = *nout = 2 * t->ndims;
        *in = calloc((size_t)*nin + 1, sizeof(int));
        rc = *in ? cart_neighbors(comm, *in) : MPI_ERR_NO_MEM;
        *out = *in ? copy_ints(*in, *nin) : NULL;
        break;
    case MPI_GRAPH:     /* its edges, both ways */
        first = comm->rank ? t->index[comm->rank - 1] : 0;
        *nin = *nout = t->index[comm->rank] - first;
        *in = copy_ints(t->edges + first, *nin);
        *out = copy_ints(t->edges + first, *nin);
        break;
    default:
        *nin = t->indeg;
        *nout = t->outdeg;
        *in = copy_ints(t->in, t->indeg);
        *out = copy_ints(t->out, t->outdeg);
    }
    if (rc == MPI_SUCCESS && (*in == NULL || *out == NULL))
        rc = MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) {
        free(*in);
        free(*out);
    }
    return rc;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Dist_graph_create_adjacent)
PMPI(MPI_Dist_graph_create)
PMPI(MPI_Dist_graph_neighbors_count)
PMPI(MPI_Dist_graph_neighbors)
