/* SPDX-License-Identifier: MIT */
/*
 * coll.c: collective operations on intracommunicators, over internal
 * point-to-point messages in the communicator's collective context
 * (ctx+1), so they never match user messages.  Algorithms: dissemination
 * barrier; binomial-tree broadcast, reduce, gather and scatter (relative
 * to the root, any size); allreduce = reduce + broadcast; allgather =
 * gather + broadcast; recursive-doubling scan (order kept for
 * non-commutative ops); pairwise-exchange all-to-all.  The v-variants
 * have per-rank counts only the root knows, so the root exchanges with
 * each rank directly (nonblocking, all at once).
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"

/* ---- internal point to point ---- */

int coll_send(const void *buf, int count, MPI_Datatype dt, int dest,
              MPI_Comm comm)
{
    MPI_Request r;
    int rc = p2p_isend(buf, count, dt, dest, 0, comm, comm->ctx + 1, M_STD,
                       &r);
    return rc ? rc : p2p_wait(&r, MPI_STATUS_IGNORE);
}

int coll_recv(void *buf, int count, MPI_Datatype dt, int src, MPI_Comm comm)
{
    MPI_Request r;
    int rc = p2p_irecv(buf, count, dt, src, 0, comm, comm->ctx + 1, &r);
    return rc ? rc : p2p_wait(&r, MPI_STATUS_IGNORE);
}

int coll_sendrecv(const void *sbuf, int scount, MPI_Datatype st, int dest,
                  void *rbuf, int rcount, MPI_Datatype rt, int src,
                  MPI_Comm comm)
{
    MPI_Request rr, sr;
    int rc = p2p_irecv(rbuf, rcount, rt, src, 0, comm, comm->ctx + 1, &rr);

    if (rc != MPI_SUCCESS)
        return rc;
    rc = p2p_isend(sbuf, scount, st, dest, 0, comm, comm->ctx + 1, M_STD,
                   &sr);
    if (rc == MPI_SUCCESS)
        rc = p2p_wait(&sr, MPI_STATUS_IGNORE);
    int rc2 = p2p_wait(&rr, MPI_STATUS_IGNORE);
    return rc ? rc : rc2;
}

/* ---- typed temporaries ---- */

/* A buffer for count items of dt, returned so that item 0 starts at
 * the type's lower bound; *base is what to free. */
static void *tmp_typed(int count, MPI_Datatype dt, void **base)
{
    MPI_Aint ext = dt_extent(dt);
    size_t n = (size_t)(count > 0 ? count : 1) * (size_t)(ext > 0 ? ext : 1);

    if ((*base = malloc(n + (size_t)dt->size)) == NULL)
        return NULL;
    return (char *)*base - dt->lb;
}

/* Copy count items of dt between typed buffers (via the packed form). */
static int dt_copy(const void *src, void *dst, int count, MPI_Datatype dt)
{
    size_t n = (size_t)count * (size_t)dt->size;
    void *p;

    if (src == dst || n == 0)
        return MPI_SUCCESS;
    if ((p = malloc(n)) == NULL)
        return MPI_ERR_INTERN;
    dt_pack(src, count, dt, p);
    dt_unpack(p, n, dst, count, dt);
    free(p);
    return MPI_SUCCESS;
}

/* Copy between differently typed buffers (send type -> receive type). */
static int dt_copy2(const void *src, int scount, MPI_Datatype st, void *dst,
                    int rcount, MPI_Datatype rt)
{
    size_t n = (size_t)scount * (size_t)st->size;
    size_t room = (size_t)rcount * (size_t)rt->size;
    void *p;

    if (n > room)
        return MPI_ERR_TRUNCATE;
    if (n == 0)
        return MPI_SUCCESS;
    if ((p = malloc(n)) == NULL)
        return MPI_ERR_INTERN;
    dt_pack(src, scount, st, p);
    dt_unpack(p, n, dst, rcount, rt);
    free(p);
    return MPI_SUCCESS;
}

static char *at(void *buf, int i, int count, MPI_Datatype dt)
{
    return (char *)buf + (MPI_Aint)i * count * dt_extent(dt);
}

static int lowbit(int v) { return v & -v; }

/* ---- barrier and broadcast ---- */

int coll_barrier(MPI_Comm comm)
{
    int n = comm->size, r = comm->rank, rc = MPI_SUCCESS;

    for (int k = 1; k < n && rc == MPI_SUCCESS; k *= 2)
        rc = coll_sendrecv(NULL, 0, MPI_BYTE, (r + k) % n, NULL, 0, MPI_BYTE,
                           (r - k + n) % n, comm);
    return rc;
}

int coll_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm c)
{
    int n = c->size, vr = (c->rank - root + n) % n, mask = 1, rc;

    while (mask < n) {
        if (vr & mask) {
            rc = coll_recv(buf, count, dt, (vr - mask + root) % n, c);
            if (rc != MPI_SUCCESS)
                return rc;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n &&
            (rc = coll_send(buf, count, dt, (vr + mask + root) % n, c)) != 0)
            return rc;
    return MPI_SUCCESS;
}

/* ---- reduce ---- */

/* Binomial reduce of ranks in order vr = (rank - root) mod n: each node
 * holds [vr, vr+mask) and combines the child's [vr+mask, ...) on its
 * right, so a non-commutative op sees operands in rank order when root 0.
 * The result is left in *acc at vr 0. */
static int reduce_tree(const void *sbuf, int count, MPI_Datatype dt,
                       MPI_Op op, int root, MPI_Comm c, void **accp,
                       void **accbase)
{
    int n = c->size, vr = (c->rank - root + n) % n, rc = MPI_SUCCESS;
    void *b1, *b2, *acc = tmp_typed(count, dt, &b1);
    void *in = tmp_typed(count, dt, &b2);

    if (acc == NULL || in == NULL) {
        free(b1);
        free(b2);
        return MPI_ERR_INTERN;
    }
    rc = dt_copy(sbuf, acc, count, dt);
    for (int mask = 1; mask < n && rc == MPI_SUCCESS; mask <<= 1) {
        if (vr & mask) {
            rc = coll_send(acc, count, dt, (vr - mask + root) % n, c);
            break;
        }
        if (vr + mask >= n)
            continue;
        rc = coll_recv(in, count, dt, (vr + mask + root) % n, c);
        if (rc == MPI_SUCCESS)
            rc = op_apply(op, acc, in, count, dt);   /* in = acc op in */
        void *t = acc, *tb = b1;
        acc = in, b1 = b2;
        in = t, b2 = tb;
    }
    free(b2);
    *accp = acc;
    *accbase = b1;
    return rc;
}

static int coll_reduce(const void *sbuf, void *rbuf, int count,
                       MPI_Datatype dt, MPI_Op op, int root, MPI_Comm c)
{
    int tree_root = op->commute ? root : 0, rc;
    void *acc = NULL, *base = NULL;

    if (sbuf == MPI_IN_PLACE)
        sbuf = rbuf;
    rc = reduce_tree(sbuf, count, dt, op, tree_root, c, &acc, &base);
    if (rc == MPI_SUCCESS && c->rank == tree_root) {
        if (tree_root == root)
            rc = dt_copy(acc, rbuf, count, dt);
        else
            rc = coll_send(acc, count, dt, root, c);
    } else if (rc == MPI_SUCCESS && c->rank == root) {
        rc = coll_recv(rbuf, count, dt, tree_root, c);
    }
    free(base);
    return rc;
}

int coll_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                   MPI_Op op, MPI_Comm comm)
{
    int rc = coll_reduce(sbuf == MPI_IN_PLACE ? rbuf : sbuf, rbuf, count, dt,
                         op, 0, comm);
    return rc ? rc : coll_bcast(rbuf, count, dt, 0, comm);
}

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
        dt_pack(at(rbuf, root, rcount, rt), rcount, rt, buf);
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
                      at(rbuf, (i + root) % n, rcount, rt), rcount, rt);
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
            dt_pack(at((void *)sbuf, (i + root) % n, scount, st), scount, st,
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
        sbuf = at(rbuf, comm->rank, rcount, rt);
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

static int coll_scatterv(const void *sbuf, const int *scounts,
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

static int coll_alltoallv(const void *sbuf, const int *scounts,
                          const int *sdispls, MPI_Datatype st, void *rbuf,
                          const int *rcounts, const int *rdispls,
                          MPI_Datatype rt, MPI_Comm c)
{
    int n = c->size, r = c->rank, rc = MPI_SUCCESS;

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

/* ---- reduce-scatter and scan ---- */

static int coll_reduce_scatter(const void *sbuf, void *rbuf,
                               const int *rcounts, MPI_Datatype dt,
                               MPI_Op op, MPI_Comm c)
{
    int n = c->size, total = 0, *displs = malloc((size_t)n * sizeof(int));
    void *base = NULL, *all;
    int rc;

    if (displs == NULL)
        return MPI_ERR_INTERN;
    for (int i = 0; i < n; i++) {
        displs[i] = total;
        total += rcounts[i];
    }
    all = tmp_typed(total, dt, &base);
    rc = all ? MPI_SUCCESS : MPI_ERR_INTERN;
    if (rc == MPI_SUCCESS)
        rc = coll_reduce(sbuf == MPI_IN_PLACE ? rbuf : sbuf, all, total, dt,
                         op, 0, c);
    if (rc == MPI_SUCCESS)
        rc = coll_scatterv(all, rcounts, displs, dt, rbuf, rcounts[c->rank],
                           dt, 0, c);
    free(base);
    free(displs);
    return rc;
}

/* Inclusive scan by recursive doubling: after step k, acc holds the
 * reduction of the 2^k ranks ending at mine; lower ranks come in on the
 * left of each combination. */
static int coll_scan(const void *sbuf, void *rbuf, int count,
                     MPI_Datatype dt, MPI_Op op, MPI_Comm c)
{
    int n = c->size, r = c->rank, rc;
    void *b1, *b2, *acc = tmp_typed(count, dt, &b1);
    void *in = tmp_typed(count, dt, &b2);

    rc = acc && in ? MPI_SUCCESS : MPI_ERR_INTERN;
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = dt_copy(sbuf, rbuf, count, dt);
    if (rc == MPI_SUCCESS)
        rc = dt_copy(rbuf, acc, count, dt);
    for (int mask = 1; mask < n && rc == MPI_SUCCESS; mask <<= 1) {
        int to = r + mask < n ? r + mask : MPI_PROC_NULL;
        int from = r - mask >= 0 ? r - mask : MPI_PROC_NULL;
        rc = coll_sendrecv(acc, count, dt, to, in, count, dt, from, c);
        if (rc != MPI_SUCCESS || from == MPI_PROC_NULL)
            continue;
        rc = op_apply(op, in, rbuf, count, dt);
        if (rc == MPI_SUCCESS)
            rc = op_apply(op, in, acc, count, dt);
    }
    free(b1);
    free(b2);
    return rc;
}

/* ---- the public entry points: check, then run ---- */

static int check_coll(MPI_Comm c)
{
    int rc = comm_check(c);
    return rc ? rc : (c->inter ? MPI_ERR_COMM : MPI_SUCCESS);
}

static int check_buf(MPI_Comm c, int count, MPI_Datatype dt)
{
    int rc = check_coll(c);

    if (rc == MPI_SUCCESS && count < 0)
        rc = MPI_ERR_COUNT;
    return rc ? rc : dt_check(dt);
}

static int check_root(MPI_Comm c, int root)
{
    return root < 0 || root >= c->size ? MPI_ERR_ROOT : MPI_SUCCESS;
}

#define RET(c, rc, name) ((rc) ? mpi_err(c, rc, name) : MPI_SUCCESS)

int MPI_Barrier(MPI_Comm comm)
{
    int rc = check_coll(comm);
    if (rc == MPI_SUCCESS)
        rc = coll_barrier(comm);
    return RET(comm, rc, "MPI_Barrier");
}

int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    int rc = check_buf(comm, count, dt);
    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS)
        rc = coll_bcast(buf, count, dt, root, comm);
    return RET(comm, rc, "MPI_Bcast");
}

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
    int rc = check_buf(comm, scount, stype);
    if (rc == MPI_SUCCESS)
        rc = check_buf(comm, rcount, rtype);
    if (rc == MPI_SUCCESS)
        rc = coll_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    return RET(comm, rc, "MPI_Alltoall");
}

int MPI_Alltoallv(void *sbuf, int *scounts, int *sdispls, MPI_Datatype stype,
                  void *rbuf, int *rcounts, int *rdispls, MPI_Datatype rtype,
                  MPI_Comm comm)
{
    int rc = check_buf(comm, 0, stype);
    if (rc == MPI_SUCCESS)
        rc = check_buf(comm, 0, rtype);
    if (rc == MPI_SUCCESS)
        rc = coll_alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts,
                            rdispls, rtype, comm);
    return RET(comm, rc, "MPI_Alltoallv");
}

int MPI_Reduce(void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
               int root, MPI_Comm comm)
{
    int rc = check_buf(comm, count, dt);
    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS)
        rc = op_check(op, dt);
    if (rc == MPI_SUCCESS)
        rc = coll_reduce(sbuf, rbuf, count, dt, op, root, comm);
    return RET(comm, rc, "MPI_Reduce");
}

int MPI_Allreduce(void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                  MPI_Op op, MPI_Comm comm)
{
    int rc = check_buf(comm, count, dt);
    if (rc == MPI_SUCCESS)
        rc = op_check(op, dt);
    if (rc == MPI_SUCCESS)
        rc = coll_allreduce(sbuf, rbuf, count, dt, op, comm);
    return RET(comm, rc, "MPI_Allreduce");
}

int MPI_Reduce_scatter(void *sbuf, void *rbuf, int *rcounts, MPI_Datatype dt,
                       MPI_Op op, MPI_Comm comm)
{
    int rc = check_buf(comm, 0, dt);
    if (rc == MPI_SUCCESS)
        rc = op_check(op, dt);
    for (int i = 0; rc == MPI_SUCCESS && i < comm->size; i++)
        if (rcounts[i] < 0)
            rc = MPI_ERR_COUNT;
    if (rc == MPI_SUCCESS)
        rc = coll_reduce_scatter(sbuf, rbuf, rcounts, dt, op, comm);
    return RET(comm, rc, "MPI_Reduce_scatter");
}

int MPI_Scan(void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
             MPI_Comm comm)
{
    int rc = check_buf(comm, count, dt);
    if (rc == MPI_SUCCESS)
        rc = op_check(op, dt);
    if (rc == MPI_SUCCESS)
        rc = coll_scan(sbuf, rbuf, count, dt, op, comm);
    return RET(comm, rc, "MPI_Scan");
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Barrier)
PMPI(MPI_Bcast)
PMPI(MPI_Gather)
PMPI(MPI_Gatherv)
PMPI(MPI_Scatter)
PMPI(MPI_Scatterv)
PMPI(MPI_Allgather)
PMPI(MPI_Allgatherv)
PMPI(MPI_Alltoall)
PMPI(MPI_Alltoallv)
PMPI(MPI_Reduce)
PMPI(MPI_Allreduce)
PMPI(MPI_Reduce_scatter)
PMPI(MPI_Scan)
