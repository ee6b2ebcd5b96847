/* SPDX-License-Identifier: MIT */
/*
 * neighbor.c: neighbourhood collectives on Cartesian, graph and
 * distributed graph communicators: every rank sends block j to its j-th
 * out-neighbour and receives block i from its i-th in-neighbour
 * (topo_neighbors gives the order), all requests posted at once.  A
 * missing Cartesian neighbour (MPI_PROC_NULL) leaves its block alone.
 * Messages go in the collective context with their own tag, in list
 * order, so two edges between the same ranks pair up in order; on a
 * Cartesian grid the receives of each dimension go positive side first
 * (recv_slot), since a periodic dimension of 1 or 2 ranks has one
 * process on both sides, whose block sent in the negative direction is
 * the one we get from the positive side.  The
 * nonblocking forms (MPI_Ineighbor_*) are the same exchange as a
 * one-round schedule (nbc.h), under the collective's own tag.
 */
#include <stdlib.h>
#include "mpi_impl.h"
#include "coll.h"
#include "nbc.h"

/* One exchange: block j of the send side goes to out[j], block i of the
 * receive side comes from in[i]; where and how many are per block. */
struct side {
    const char *buf;
    const int *counts;          /* NULL: every block count[0] */
    const MPI_Aint *bytes;      /* byte displacements, or NULL */
    const int *displs;          /* displacements in extents, or NULL */
    const MPI_Datatype *types;  /* per block, or NULL: type */
    int count;
    MPI_Datatype type;
};

static MPI_Datatype type_of(const struct side *s, int i)
{
    return s->types ? s->types[i] : s->type;
}

static int count_of(const struct side *s, int i)
{
    return s->counts ? s->counts[i] : s->count;
}

/* Where block i starts: a byte or extent displacement, else block i of
 * equal blocks (allgather sends the same block to everyone: stride 0). */
static char *block(const struct side *s, int i, bool same)
{
    MPI_Datatype t = type_of(s, i);

    if (s->bytes)
        return (char *)s->buf + s->bytes[i];
    if (s->displs)
        return (char *)s->buf + (MPI_Aint)s->displs[i] * dt_extent(t);
    return same ? (char *)s->buf : coll_at((void *)s->buf, i, s->count, t);
}

/* The receive block the i-th receive posted goes to: in list order,
 * except that on a Cartesian grid each dimension's two swap.  A
 * neighbour sends its negative-direction block first, and when it is
 * our neighbour on both sides (a periodic dimension of 1 or 2 ranks)
 * that block comes from our positive side: block 2d+1 (MPI-3.1 7.6
 * orders blocks by direction; with distinct neighbours the order of
 * posting does not matter). */
static int recv_slot(MPI_Comm comm, int i)
{
    return comm->topo->kind == MPI_CART ? i ^ 1 : i;
}

static int side_check(const struct side *s, int n)
{
    for (int i = 0; i < n; i++) {
        int rc = count_of(s, i) < 0 ? MPI_ERR_COUNT : dt_check(type_of(s, i));
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* The exchange as one round of a schedule, started as *req. */
static int schedule(MPI_Comm comm, const struct side *snd, bool same,
                    const struct side *rcv, const int *in, int nin,
                    const int *out, int nout, MPI_Request *req)
{
    struct nbc *s = nbc_new(comm);

    for (int k = 0; s != NULL && k < nin; k++) {
        int i = recv_slot(comm, k);
        if (in[i] != MPI_PROC_NULL)
            nbc_recv(s, block(rcv, i, false), count_of(rcv, i),
                     type_of(rcv, i), in[i]);
    }
    for (int j = 0; s != NULL && j < nout; j++)
        if (out[j] != MPI_PROC_NULL)
            nbc_send(s, block(snd, j, same), count_of(snd, j),
                     type_of(snd, j), out[j]);
    if (s != NULL)
        nbc_round(s);
    return nbc_start(s, req);
}

/* The exchange, waited for (req NULL) or started as *req. */
static int exchange(MPI_Comm comm, const struct side *snd, bool same,
                    const struct side *rcv, MPI_Request *req,
                    const char *name)
{
    int *in, *out, nin, nout, rc = check_coll(comm);
    MPI_Request *q = NULL;

    if (rc == MPI_SUCCESS)
        rc = topo_neighbors(comm, &in, &nin, &out, &nout);
    if (rc != MPI_SUCCESS)
        return mpi_err(comm, rc, name);
    if ((rc = side_check(rcv, nin)) == MPI_SUCCESS)
        rc = side_check(snd, same ? (nout > 0) : nout);
    if (req != NULL) {
        if (rc == MPI_SUCCESS)
            rc = schedule(comm, snd, same, rcv, in, nin, out, nout, req);
        free(in);
        free(out);
        return rc ? mpi_err(comm, rc, name) : MPI_SUCCESS;
    }
    if (rc == MPI_SUCCESS &&
        (q = calloc((size_t)(nin + nout) + 1, sizeof(*q))) == NULL)
        rc = MPI_ERR_NO_MEM;
    for (int k = 0; rc == MPI_SUCCESS && k < nin; k++) {
        int i = recv_slot(comm, k);
        if (in[i] != MPI_PROC_NULL)
            rc = p2p_irecv(block(rcv, i, false), count_of(rcv, i),
                           type_of(rcv, i), in[i], TAG_NEIGHBOR, comm,
                           comm->ctx + 1, &q[k]);
    }
    for (int j = 0; rc == MPI_SUCCESS && j < nout; j++)
        if (out[j] != MPI_PROC_NULL)
            rc = p2p_isend(block(snd, j, same), count_of(snd, j),
                           type_of(snd, j), out[j], TAG_NEIGHBOR, comm,
                           comm->ctx + 1, M_STD, &q[nin + j]);
    for (int i = 0; q != NULL && i < nin + nout; i++) {
        int rc2 = p2p_wait(&q[i], MPI_STATUS_IGNORE);
        rc = rc ? rc : rc2;
    }
    free(q);
    free(in);
    free(out);
    return rc ? mpi_err(comm, rc, name) : MPI_SUCCESS;
}

int MPI_Neighbor_allgather(const void *sbuf, int scount, MPI_Datatype st,
                           void *rbuf, int rcount, MPI_Datatype rt,
                           MPI_Comm comm)
{
    struct side s = { .buf = sbuf, .count = scount, .type = st };
    struct side r = { .buf = rbuf, .count = rcount, .type = rt };

    return exchange(comm, &s, true, &r, NULL, "MPI_Neighbor_allgather");
}

int MPI_Neighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype st,
                            void *rbuf, const int *rcounts,
                            const int *displs, MPI_Datatype rt,
                            MPI_Comm comm)
{
    struct side s = { .buf = sbuf, .count = scount, .type = st };
    struct side r = { .buf = rbuf, .counts = rcounts, .displs = displs,
                      .type = rt };

    return exchange(comm, &s, true, &r, NULL, "MPI_Neighbor_allgatherv");
}

int MPI_Neighbor_alltoall(const void *sbuf, int scount, MPI_Datatype st,
                          void *rbuf, int rcount, MPI_Datatype rt,
                          MPI_Comm comm)
{
    struct side s = { .buf = sbuf, .count = scount, .type = st };
    struct side r = { .buf = rbuf, .count = rcount, .type = rt };

    return exchange(comm, &s, false, &r, NULL, "MPI_Neighbor_alltoall");
}

int MPI_Neighbor_alltoallv(const void *sbuf, const int *scounts,
                           const int *sdispls, MPI_Datatype st, void *rbuf,
                           const int *rcounts, const int *rdispls,
                           MPI_Datatype rt, MPI_Comm comm)
{
    struct side s = { .buf = sbuf, .counts = scounts, .displs = sdispls,
                      .type = st };
    struct side r = { .buf = rbuf, .counts = rcounts, .displs = rdispls,
                      .type = rt };

    return exchange(comm, &s, false, &r, NULL, "MPI_Neighbor_alltoallv");
}

int MPI_Neighbor_alltoallw(const void *sbuf, const int *scounts,
                           const MPI_Aint *sdispls, const MPI_Datatype *st,
                           void *rbuf, const int *rcounts,
                           const MPI_Aint *rdispls, const MPI_Datatype *rt,
                           MPI_Comm comm)
{
    struct side s = { .buf = sbuf, .counts = scounts, .bytes = sdispls,
                      .types = st };
    struct side r = { .buf = rbuf, .counts = rcounts, .bytes = rdispls,
                      .types = rt };

    return exchange(comm, &s, false, &r, NULL, "MPI_Neighbor_alltoallw");
}

/* ---- the nonblocking forms ---- */

/* A missing request handle is the caller's error, like the others'; the
 * request is MPI_REQUEST_NULL until the exchange has started. */
static int iexchange(MPI_Comm comm, const struct side *snd, bool same,
                     const struct side *rcv, MPI_Request *req,
                     const char *name)
{
    if (req == NULL)
        return mpi_err(comm, MPI_ERR_REQUEST, name);
    *req = MPI_REQUEST_NULL;
    return exchange(comm, snd, same, rcv, req, name);
}

int MPI_Ineighbor_allgather(const void *sbuf, int scount, MPI_Datatype st,
                            void *rbuf, int rcount, MPI_Datatype rt,
                            MPI_Comm comm, MPI_Request *req)
{
    struct side s = { .buf = sbuf, .count = scount, .type = st };
    struct side r = { .buf = rbuf, .count = rcount, .type = rt };

    return iexchange(comm, &s, true, &r, req, "MPI_Ineighbor_allgather");
}

int MPI_Ineighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype st,
                             void *rbuf, const int *rcounts,
                             const int *displs, MPI_Datatype rt,
                             MPI_Comm comm, MPI_Request *req)
{
    struct side s = { .buf = sbuf, .count = scount, .type = st };
    struct side r = { .buf = rbuf, .counts = rcounts, .displs = displs,
                      .type = rt };

    return iexchange(comm, &s, true, &r, req, "MPI_Ineighbor_allgatherv");
}

int MPI_Ineighbor_alltoall(const void *sbuf, int scount, MPI_Datatype st,
                           void *rbuf, int rcount, MPI_Datatype rt,
                           MPI_Comm comm, MPI_Request *req)
{
    struct side s = { .buf = sbuf, .count = scount, .type = st };
    struct side r = { .buf = rbuf, .count = rcount, .type = rt };

    return iexchange(comm, &s, false, &r, req, "MPI_Ineighbor_alltoall");
}

int MPI_Ineighbor_alltoallv(const void *sbuf, const int *scounts,
                            const int *sdispls, MPI_Datatype st, void *rbuf,
                            const int *rcounts, const int *rdispls,
                            MPI_Datatype rt, MPI_Comm comm, MPI_Request *req)
{
    struct side s = { .buf = sbuf, .counts = scounts, .displs = sdispls,
                      .type = st };
    struct side r = { .buf = rbuf, .counts = rcounts, .displs = rdispls,
                      .type = rt };

    return iexchange(comm, &s, false, &r, req, "MPI_Ineighbor_alltoallv");
}

int MPI_Ineighbor_alltoallw(const void *sbuf, const int *scounts,
                            const MPI_Aint *sdispls, const MPI_Datatype *st,
                            void *rbuf, const int *rcounts,
                            const MPI_Aint *rdispls, const MPI_Datatype *rt,
                            MPI_Comm comm, MPI_Request *req)
{
    struct side s = { .buf = sbuf, .counts = scounts, .bytes = sdispls,
                      .types = st };
    struct side r = { .buf = rbuf, .counts = rcounts, .bytes = rdispls,
                      .types = rt };

    return iexchange(comm, &s, false, &r, req, "MPI_Ineighbor_alltoallw");
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Neighbor_allgather)
PMPI(MPI_Neighbor_allgatherv)
PMPI(MPI_Neighbor_alltoall)
PMPI(MPI_Neighbor_alltoallv)
PMPI(MPI_Neighbor_alltoallw)
PMPI(MPI_Ineighbor_allgather)
PMPI(MPI_Ineighbor_allgatherv)
PMPI(MPI_Ineighbor_alltoall)
PMPI(MPI_Ineighbor_alltoallv)
PMPI(MPI_Ineighbor_alltoallw)
