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
            dt_pack(coll_at((void *)sbuf, (i + root) % n, scount, st),
                    scount, st, buf + blk * (size_t)i);
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
 * count of types[i] at bdispls[i] bytes) of a temporary returned as
 * *src; *mem is what to free (the standard ignores the send arguments
 * then: the receive ones say what goes where, both ways). */
int coll_inplace_srcw(const void *rbuf, int n, const int *counts,
                      const MPI_Aint *bdispls, const MPI_Datatype *types,
                      const void **src, void **mem)
{
    MPI_Aint lo = 0, hi = 0;
    int rc = MPI_SUCCESS;
    bool first = true;
    char *tmp;

    for (int i = 0; i < n; i++) {           /* the bytes the blocks span */
        MPI_Datatype t = types[i];
        MPI_Aint run = (MPI_Aint)(counts[i] - 1) * dt_extent(t);
        if (counts[i] <= 0 || t->size == 0)
            continue;
        MPI_Aint b = bdispls[i] + t->true_lb + (run < 0 ? run : 0);
        MPI_Aint e = bdispls[i] + t->true_ub + (run > 0 ? run : 0);
        if (first || b < lo)
            lo = b;
        if (first || e > hi)
            hi = e;
        first = false;
    }
    if ((*mem = malloc((size_t)(hi - lo) + 1)) == NULL)
        return MPI_ERR_NO_MEM;
    tmp = (char *)*mem - lo;                /* so block i is at bdispls[i] */
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        if (counts[i] > 0)
            rc = dt_copy((const char *)rbuf + bdispls[i], tmp + bdispls[i],
                         counts[i], types[i]);
    *src = tmp;
    return rc;
}

/* The same for blocks of one type at displacements in its extents. */
int coll_inplace_src(const void *rbuf, int n, const int *counts,
                     const int *displs, MPI_Datatype rt, const void **src,
                     void **mem)
{
    MPI_Aint *bd = malloc((size_t)(n ? n : 1) * sizeof(MPI_Aint));
    MPI_Datatype *ts = malloc((size_t)(n ? n : 1) * sizeof(MPI_Datatype));
    int rc = bd && ts ? MPI_SUCCESS : MPI_ERR_NO_MEM;

    *mem = NULL;
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        bd[i] = (MPI_Aint)displs[i] * dt_extent(rt);
        ts[i] = rt;
    }
    if (rc == MPI_SUCCESS)
        rc = coll_inplace_srcw(rbuf, n, counts, bd, ts, src, mem);
    free(bd);
    free(ts);
    return rc;
}

/* Block i of sbuf (scounts[i] of stypes[i] at sdispls[i] bytes) to rank
 * i, block i of rbuf from it: n-1 pairwise exchanges after one's own. */
static int coll_alltoallw(const void *sbuf, const int *scounts,
                          const MPI_Aint *sdispls, const MPI_Datatype *st,
                          void *rbuf, const int *rcounts,
                          const MPI_Aint *rdispls, const MPI_Datatype *rt,
                          MPI_Comm c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;
    void *mem = NULL;

    if (sbuf == MPI_IN_PLACE) {
        rc = coll_inplace_srcw(rbuf, n, rcounts, rdispls, rt, &sbuf, &mem);
        scounts = rcounts, sdispls = rdispls, st = rt;
    }
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        int to = (r + i) % n, from = (r - i + n) % n;
        const char *sp = (const char *)sbuf + sdispls[to];
        char *rp = (char *)rbuf + rdispls[from];
        if (i == 0)
            rc = dt_copy2(sp, scounts[to], st[to], rp, rcounts[from],
                          rt[from]);
        else
            rc = coll_sendrecv(sp, scounts[to], st[to], to, rp,
                               rcounts[from], rt[from], from, c);
    }
    free(mem);
    return rc;
}

/* alltoallv and alltoall: the same with one type each way. */
static int coll_alltoallv(const void *sbuf, const int *scounts,
                          const int *sdispls, MPI_Datatype st, void *rbuf,
                          const int *rcounts, const int *rdispls,
                          MPI_Datatype rt, MPI_Comm c)
{
    int n = c->size, rc;
    MPI_Aint *bd = malloc(2 * (size_t)n * sizeof(MPI_Aint));
    MPI_Datatype *ts = malloc(2 * (size_t)n * sizeof(MPI_Datatype));

    if (bd == NULL || ts == NULL) {
        free(bd);
        free(ts);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < n; i++) {
        bd[i] = sbuf == MPI_IN_PLACE ? 0 : sdispls[i] * dt_extent(st);
        bd[n + i] = (MPI_Aint)rdispls[i] * dt_extent(rt);
        ts[i] = st, ts[n + i] = rt;
    }
    rc = coll_alltoallw(sbuf, scounts, bd, ts, rbuf, rcounts, bd + n, ts + n,
                        c);
    free(bd);
    free(ts);
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

/* ---- the public entry points (intercommunicators: inter_coll.c) ---- */

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
               int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    struct nbc *s;
    int rc;

    if (comm_inter(comm)) {
        rc = ic_gatherv(sbuf, scount, stype, rbuf, NULL, NULL, rcount, rtype,
                        root, comm, &s);
        return RET(comm, ic_wait(rc, s), "MPI_Gather");
    }
    rc = check_coll(comm);
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

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                const int *rcounts, const int *displs, MPI_Datatype rtype,
                int root, MPI_Comm comm)
{
    struct nbc *s;
    int rc;

    if (comm_inter(comm)) {
        rc = ic_gatherv(sbuf, scount, stype, rbuf, rcounts, displs, 0, rtype,
                        root, comm, &s);
        return RET(comm, ic_wait(rc, s), "MPI_Gatherv");
    }
    rc = check_coll(comm);
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

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    struct nbc *s;
    int rc;

    if (comm_inter(comm)) {
        rc = ic_scatterv(sbuf, NULL, NULL, scount, stype, rbuf, rcount, rtype,
                         root, comm, &s);
        return RET(comm, ic_wait(rc, s), "MPI_Scatter");
    }
    rc = check_coll(comm);
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

int MPI_Scatterv(const void *sbuf, const int *scounts, const int *displs,
                 MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm)
{
    struct nbc *s;
    int rc;

    if (comm_inter(comm)) {
        rc = ic_scatterv(sbuf, scounts, displs, 0, stype, rbuf, rcount, rtype,
                         root, comm, &s);
        return RET(comm, ic_wait(rc, s), "MPI_Scatterv");
    }
    rc = check_coll(comm);
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

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                  int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    struct nbc *s;
    int rc;

    if (comm_inter(comm)) {
        rc = ic_exchange(sbuf, NULL, NULL, scount, stype, rbuf, NULL, NULL,
                         rcount, rtype, true, comm, &s);
        return RET(comm, ic_wait(rc, s), "MPI_Allgather");
    }
    rc = check_buf(comm, rcount, rtype);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, stype);
    if (rc == MPI_SUCCESS)
        rc = coll_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    return RET(comm, rc, "MPI_Allgather");
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, const int *rcounts, const int *displs,
                   MPI_Datatype rtype, MPI_Comm comm)
{
    struct nbc *s;
    int rc;

    if (comm_inter(comm)) {
        rc = ic_exchange(sbuf, NULL, NULL, scount, stype, rbuf, rcounts,
                         displs, 0, rtype, true, comm, &s);
        return RET(comm, ic_wait(rc, s), "MPI_Allgatherv");
    }
    rc = check_buf(comm, 0, rtype);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, stype);
    if (rc == MPI_SUCCESS)
        rc = coll_allgatherv(sbuf, scount, stype, rbuf, rcounts, displs,
                             rtype, comm);
    return RET(comm, rc, "MPI_Allgatherv");
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    struct nbc *s;
    int rc;

    if (comm_inter(comm)) {
        rc = ic_exchange(sbuf, NULL, NULL, scount, stype, rbuf, NULL, NULL,
                         rcount, rtype, false, comm, &s);
        return RET(comm, ic_wait(rc, s), "MPI_Alltoall");
    }
    rc = check_buf(comm, rcount, rtype);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, stype);
    if (rc == MPI_SUCCESS)
        rc = coll_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    return RET(comm, rc, "MPI_Alltoall");
}

/* Every type of an all-to-all-w: those of the blocks that move. */
static int check_types(MPI_Comm c, int n, const int *counts,
                       const MPI_Datatype *types)
{
    int rc = MPI_SUCCESS;

    for (int i = 0; rc == MPI_SUCCESS && i < n; i++)
        rc = counts[i] < 0 ? MPI_ERR_COUNT : check_buf(c, 0, types[i]);
    return rc;
}

int MPI_Alltoallw(const void *sbuf, const int *scounts, const int *sdispls,
                  const MPI_Datatype *stypes, void *rbuf,
                  const int *rcounts, const int *rdispls,
                  const MPI_Datatype *rtypes, MPI_Comm comm)
{
    struct nbc *s;
    int rc;

    if (comm_inter(comm)) {
        rc = ic_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts,
                          rdispls, rtypes, comm, &s);
        return RET(comm, ic_wait(rc, s), "MPI_Alltoallw");
    }
    rc = check_coll(comm);
    MPI_Aint *bd = NULL;

    if (rc == MPI_SUCCESS)
        rc = check_types(comm, comm->size, rcounts, rtypes);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_types(comm, comm->size, scounts, stypes);
    if (rc == MPI_SUCCESS &&
        (bd = malloc(2 * (size_t)comm->size * sizeof(MPI_Aint))) == NULL)
        rc = MPI_ERR_NO_MEM;
    for (int i = 0; rc == MPI_SUCCESS && i < comm->size; i++) {
        bd[i] = sbuf == MPI_IN_PLACE ? 0 : sdispls[i];
        bd[comm->size + i] = rdispls[i];
    }
    if (rc == MPI_SUCCESS)
        rc = coll_alltoallw(sbuf, scounts, bd, stypes, rbuf, rcounts,
                            bd + comm->size, rtypes, comm);
    free(bd);
    return RET(comm, rc, "MPI_Alltoallw");
}

int MPI_Alltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                  MPI_Datatype stype, void *rbuf, const int *rcounts,
                  const int *rdispls, MPI_Datatype rtype, MPI_Comm comm)
{
    struct nbc *s;
    int rc;

    if (comm_inter(comm)) {
        rc = ic_exchange(sbuf, scounts, sdispls, 0, stype, rbuf, rcounts,
                         rdispls, 0, rtype, false, comm, &s);
        return RET(comm, ic_wait(rc, s), "MPI_Alltoallv");
    }
    rc = check_buf(comm, 0, rtype);
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
PMPI(MPI_Alltoallw)
