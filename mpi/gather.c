/* SPDX-License-Identifier: MIT */
/*
 * gather.c: the collectives that move blocks between ranks: gather and
 * scatter (binomial trees of packed blocks, relative to the root),
 * allgather (gather + broadcast), their v-variants (the root talks to
 * each rank directly, all requests posted at once: only the root knows
 * the counts), and all-to-all (n-1 pairwise exchanges).
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"
#include "coll.h"

static int lowbit(int v) { return v & -v; }

/* ---- gather and scatter (binomial, packed blocks in vr order) ---- */

static int coll_gather(const void *sbuf, int scount, MPI_Datatype st,
                       void *rbuf, int rcount, MPI_Datatype rt, int root,
                       MPI_Comm c)
{
    int n = c->size, vr = (c->rank - root + n) % n, rc = MPI_SUCCESS;
    size_t blk = c->rank == root ? (size_t)rcount * (size_t)rt->size
                                 : (size_t)scount * (size_t)st->size;
    int have = 1, span = vr ? lowbit(vr) : n;
    char *buf = malloc(blk * (size_t)(span < n - vr ? span : n - vr) + 1);

    if (buf == NULL)
        return MPI_ERR_INTERN;
    if (sbuf == MPI_IN_PLACE)
        dt_pack(coll_at(rbuf, root, rcount, rt), rcount, rt, buf);
    else if ((size_t)scount * (size_t)st->size > blk)
        rc = MPI_ERR_TRUNCATE;
    else
        dt_pack(sbuf, scount, st, buf);
    for (int mask = 1; mask < n && rc == MPI_SUCCESS; mask <<= 1) {
        if (vr & mask) {
            rc = coll_send(buf, (int)(blk * (size_t)have), MPI_BYTE,
                           (vr - mask + root) % n, c);
            break;
        }
        if (vr + mask >= n)
            continue;
        int cnt = mask < n - vr - mask ? mask : n - vr - mask;
        rc = coll_recv(buf + blk * (size_t)mask, (int)(blk * (size_t)cnt),
                       MPI_BYTE, (vr + mask + root) % n, c);
        have = mask + cnt;
    }
    if (rc == MPI_SUCCESS && vr == 0)
        for (int i = 0; i < n; i++)
            dt_unpack(buf + blk * (size_t)i, blk,
                      coll_at(rbuf, (i + root) % n, rcount, rt), rcount, rt);
    free(buf);
    return rc;
}

static int coll_scatter(const void *sbuf, int scount, MPI_Datatype st,
                        void *rbuf, int rcount, MPI_Datatype rt, int root,
                        MPI_Comm c)
{
    int n = c->size, vr = (c->rank - root + n) % n, rc = MPI_SUCCESS;
    size_t blk = c->rank == root ? (size_t)scount * (size_t)st->size
                                 : (size_t)rcount * (size_t)rt->size;
    int top = 1, span;
    char *buf;

    while (top < n)
        top <<= 1;
    span = vr ? lowbit(vr) : top;
    span = span < n - vr ? span : n - vr;
    if ((buf = malloc(blk * (size_t)span + 1)) == NULL)
        return MPI_ERR_INTERN;
    if (vr == 0) {
        for (int i = 0; i < n; i++)
            dt_pack(coll_at((void *)sbuf, (i + root) % n, scount, st), scount, st,
                    buf + blk * (size_t)i);
    } else {
        rc = coll_recv(buf, (int)(blk * (size_t)span), MPI_BYTE,
                       (vr - lowbit(vr) + root) % n, c);
    }
    for (int mask = (vr ? lowbit(vr) : top) >> 1; mask > 0 && rc == 0;
         mask >>= 1) {
        if (vr + mask >= n)
            continue;
        int cnt = mask < n - vr - mask ? mask : n - vr - mask;
        rc = coll_send(buf + blk * (size_t)mask, (int)(blk * (size_t)cnt),
                       MPI_BYTE, (vr + mask + root) % n, c);
    }
    if (rc == MPI_SUCCESS && rbuf != MPI_IN_PLACE) {
        if (blk > (size_t)rcount * (size_t)rt->size)
            rc = MPI_ERR_TRUNCATE;
        else
            dt_unpack(buf, blk, rbuf, rcount, rt);
    }
    free(buf);
    return rc;
}

int coll_allgather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                   int rcount, MPI_Datatype rt, MPI_Comm comm)
{
    int rc;

    if (sbuf == MPI_IN_PLACE && comm->rank != 0) {
        sbuf = coll_at(rbuf, comm->rank, rcount, rt);
        scount = rcount;
        st = rt;
    }
    rc = coll_gather(sbuf, scount, st, rbuf, rcount, rt, 0, comm);
    return rc ? rc : coll_bcast(rbuf, rcount * comm->size, rt, 0, comm);
}

/* ---- v-variants: the root talks to each rank ---- */

static int coll_gatherv(const void *sbuf, int scount, MPI_Datatype st,
                        void *rbuf, const int *rcounts, const int *displs,
                        MPI_Datatype rt, int root, MPI_Comm c)
{
    MPI_Request *reqs;
    int n = c->size, rc = MPI_SUCCESS;

    if (c->rank != root)
        return coll_send(sbuf, scount, st, root, c);
    if ((reqs = calloc((size_t)n, sizeof(*reqs))) == NULL)
        return MPI_ERR_INTERN;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        char *dst = (char *)rbuf + (MPI_Aint)displs[i] * dt_extent(rt);
        if (i == root)
            rc = sbuf == MPI_IN_PLACE ? MPI_SUCCESS
                 : dt_copy2(sbuf, scount, st, dst, rcounts[i], rt);
        else
            rc = p2p_irecv(dst, rcounts[i], rt, i, 0, c, c->ctx + 1,
                           &reqs[i]);
    }
    for (int i = 0; i < n; i++) {
        int rc2 = p2p_wait(&reqs[i], MPI_STATUS_IGNORE);
        rc = rc ? rc : rc2;
    }
    free(reqs);
    return rc;
}

int coll_scatterv(const void *sbuf, const int *scounts,
                         const int *displs, MPI_Datatype st, void *rbuf,
                         int rcount, MPI_Datatype rt, int root, MPI_Comm c)
{
    MPI_Request *reqs;
    int n = c->size, rc = MPI_SUCCESS;

    if (c->rank != root)
        return coll_recv(rbuf, rcount, rt, root, c);
    if ((reqs = calloc((size_t)n, sizeof(*reqs))) == NULL)
        return MPI_ERR_INTERN;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        const char *src = (const char *)sbuf +
                          (MPI_Aint)displs[i] * dt_extent(st);
        if (i == root)
            rc = rbuf == MPI_IN_PLACE ? MPI_SUCCESS
                 : dt_copy2(src, scounts[i], st, rbuf, rcount, rt);
        else
            rc = p2p_isend(src, scounts[i], st, i, 0, c, c->ctx + 1, M_STD,
                           &reqs[i]);
    }
    for (int i = 0; i < n; i++) {
        int rc2 = p2p_wait(&reqs[i], MPI_STATUS_IGNORE);
        rc = rc ? rc : rc2;
    }
    free(reqs);
    return rc;
}

static int coll_allgatherv(const void *sbuf, int scount, MPI_Datatype st,
                           void *rbuf, const int *rcounts, const int *displs,
                           MPI_Datatype rt, MPI_Comm c)
{
    MPI_Datatype all;
    int rc;

    if (sbuf == MPI_IN_PLACE && c->rank != 0) {
        sbuf = (char *)rbuf + (MPI_Aint)displs[c->rank] * dt_extent(rt);
        scount = rcounts[c->rank];
        st = rt;
    }
    rc = coll_gatherv(sbuf, scount, st, rbuf, rcounts, displs, rt, 0, c);
    if (rc != MPI_SUCCESS)
        return rc;
    /* one indexed type covers every block: a single broadcast */
    if ((rc = MPI_Type_indexed(c->size, (int *)rcounts, (int *)displs, rt,
                               &all)) != MPI_SUCCESS)
        return rc;
    MPI_Type_commit(&all);
    rc = coll_bcast(rbuf, 1, all, 0, c);
    MPI_Type_free(&all);
    return rc;
}

/* ---- all to all: n-1 pairwise exchanges ---- */

/* MPI_IN_PLACE all-to-all: the blocks to send are the ones that will be
 * received over, so they are copied first, each to the same place (its
 * count of rt at displs[i] extents) of a temporary returned as *src;
 * *mem is what to free (the standard ignores the send arguments then:
 * the receive ones say what goes where, both ways). */
int coll_inplace_src(const void *rbuf, int n, const int *counts,
                     const int *displs, MPI_Datatype rt, const void **src,
                     void **mem)
{
    MPI_Aint ext = dt_extent(rt);
    int lo = 0, hi = 0, rc = MPI_SUCCESS;
    char *tmp;

    for (int i = 0, first = 1; i < n; i++) {
        if (counts[i] <= 0)
            continue;
        if (first || displs[i] < lo)
            lo = displs[i];
        if (first || displs[i] + counts[i] > hi)
            hi = displs[i] + counts[i];
        first = 0;
    }
    if ((tmp = tmp_typed(hi - lo, rt, mem)) == NULL)
        return MPI_ERR_NO_MEM;
    tmp -= (MPI_Aint)lo * ext;          /* so block i is at displs[i] */
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        if (counts[i] > 0)
            rc = dt_copy((const char *)rbuf + (MPI_Aint)displs[i] * ext,
                         tmp + (MPI_Aint)displs[i] * ext, counts[i], rt);
    *src = tmp;
    return rc;
}

static int coll_alltoallv(const void *sbuf, const int *scounts,
                          const int *sdispls, MPI_Datatype st, void *rbuf,
                          const int *rcounts, const int *rdispls,
                          MPI_Datatype rt, MPI_Comm c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    void *mem = NULL;

    if (sbuf == MPI_IN_PLACE) {
        rc = coll_inplace_src(rbuf, n, rcounts, rdispls, rt, &sbuf, &mem);
        scounts = rcounts, sdispls = rdispls, st = rt;
    }
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        int to = (r + i) % n, from = (r - i + n) % n;
        const char *s = (const char *)sbuf +
                        (MPI_Aint)sdispls[to] * dt_extent(st);
        char *d = (char *)rbuf + (MPI_Aint)rdispls[from] * dt_extent(rt);
        if (i == 0)
            rc = dt_copy2(s, scounts[to], st, d, rcounts[from], rt);
        else
            rc = coll_sendrecv(s, scounts[to], st, to, d, rcounts[from], rt,
                               from, c);
    }
    free(mem);
    return rc;
}

static int coll_alltoall(const void *sbuf, int scount, MPI_Datatype st,
                         void *rbuf, int rcount, MPI_Datatype rt, MPI_Comm c)
{
    int n = c->size, *v = malloc(4 * (size_t)n * sizeof(int)), rc;

    if (v == NULL)
        return MPI_ERR_INTERN;
    for (int i = 0; i < n; i++) {
        v[i] = scount;
        v[n + i] = i * scount;
        v[2 * n + i] = rcount;
        v[3 * n + i] = i * rcount;
    }
    rc = coll_alltoallv(sbuf, v, v + n, st, rbuf, v + 2 * n, v + 3 * n, rt,
                        c);
    free(v);
    return rc;
}

/* ---- the public entry points ---- */

int MPI_Gather(void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
               int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    int rc = check_coll(comm);
    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, stype);
    if (rc == MPI_SUCCESS && comm->rank == root)
        rc = check_buf(comm, rcount, rtype);
    if (rc == MPI_SUCCESS)
        rc = coll_gather(sbuf, scount, stype, rbuf, rcount, rtype, root,
                         comm);
    return RET(comm, rc, "MPI_Gather");
}

int MPI_Gatherv(void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int *rcounts, int *displs, MPI_Datatype rtype, int root,
                MPI_Comm comm)
{
    int rc = check_coll(comm);
    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, stype);
    if (rc == MPI_SUCCESS && comm->rank == root)
        rc = check_buf(comm, 0, rtype);
    if (rc == MPI_SUCCESS)
        rc = coll_gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                          root, comm);
    return RET(comm, rc, "MPI_Gatherv");
}

int MPI_Scatter(void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    int rc = check_coll(comm);
    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS && comm->rank == root)
        rc = check_buf(comm, scount, stype);
    if (rc == MPI_SUCCESS && rbuf != MPI_IN_PLACE)
        rc = check_buf(comm, rcount, rtype);
    if (rc == MPI_SUCCESS)
        rc = coll_scatter(sbuf, scount, stype, rbuf, rcount, rtype, root,
                          comm);
    return RET(comm, rc, "MPI_Scatter");
}

int MPI_Scatterv(void *sbuf, int *scounts, int *displs, MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, int root,
                 MPI_Comm comm)
{
    int rc = check_coll(comm);
    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS && comm->rank == root)
        rc = check_buf(comm, 0, stype);
    if (rc == MPI_SUCCESS && rbuf != MPI_IN_PLACE)
        rc = check_buf(comm, rcount, rtype);
    if (rc == MPI_SUCCESS)
        rc = coll_scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype,
                           root, comm);
    return RET(comm, rc, "MPI_Scatterv");
}

int MPI_Allgather(void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                  int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    int rc = check_buf(comm, rcount, rtype);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, stype);
    if (rc == MPI_SUCCESS)
        rc = coll_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    return RET(comm, rc, "MPI_Allgather");
}

int MPI_Allgatherv(void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   int *rcounts, int *displs, MPI_Datatype rtype,
                   MPI_Comm comm)
{
    int rc = check_buf(comm, 0, rtype);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, stype);
    if (rc == MPI_SUCCESS)
        rc = coll_allgatherv(sbuf, scount, stype, rbuf, rcounts, displs,
                             rtype, comm);
    return RET(comm, rc, "MPI_Allgatherv");
}

int MPI_Alltoall(void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    int rc = check_buf(comm, rcount, rtype);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, stype);
    if (rc == MPI_SUCCESS)
        rc = coll_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    return RET(comm, rc, "MPI_Alltoall");
}

int MPI_Alltoallv(void *sbuf, int *scounts, int *sdispls, MPI_Datatype stype,
                  void *rbuf, int *rcounts, int *rdispls, MPI_Datatype rtype,
                  MPI_Comm comm)
{
    int rc = check_buf(comm, 0, rtype);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, 0, stype);
    if (rc == MPI_SUCCESS)
        rc = coll_alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts,
                            rdispls, rtype, comm);
    return RET(comm, rc, "MPI_Alltoallv");
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Gather)
PMPI(MPI_Gatherv)
PMPI(MPI_Scatter)
PMPI(MPI_Scatterv)
PMPI(MPI_Allgather)
PMPI(MPI_Allgatherv)
PMPI(MPI_Alltoall)
PMPI(MPI_Alltoallv)
