/* SPDX-License-Identifier: MIT */
/*
 * coll.c: collective operations on intracommunicators, over internal
 * point-to-point messages in the communicator's collective context
 * (ctx+1), so they never match user messages.  Here: dissemination
 * barrier; binomial-tree broadcast and reduce (relative to the root, any
 * size); allreduce = reduce + broadcast; reduce-scatter = reduce +
 * scatterv; recursive-doubling scan and exscan (order kept for
 * non-commutative ops); the local reduction.  The collectives that move
 * blocks (gather, scatter, all-to-all) are gather.c.
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"
#include "coll.h"

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
void *tmp_typed(int count, MPI_Datatype dt, void **base)
{
    MPI_Aint ext = dt_extent(dt);
    size_t n = (size_t)(count > 0 ? count : 1) * (size_t)(ext > 0 ? ext : 1);

    if ((*base = malloc(n + (size_t)dt->size)) == NULL)
        return NULL;
    return (char *)*base - dt->lb;
}

/* Copy count items of dt between typed buffers (via the packed form). */
int dt_copy(const void *src, void *dst, int count, MPI_Datatype dt)
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
int dt_copy2(const void *src, int scount, MPI_Datatype st, void *dst,
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

char *coll_at(void *buf, int i, int count, MPI_Datatype dt)
{
    return (char *)buf + (MPI_Aint)i * count * dt_extent(dt);
}

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

int coll_reduce(const void *sbuf, void *rbuf, int count,
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

static int coll_reduce_scatter_block(const void *sbuf, void *rbuf,
                                     int count, MPI_Datatype dt, MPI_Op op,
                                     MPI_Comm c)
{
    int *counts = malloc((size_t)c->size * sizeof(int)), rc;

    if (counts == NULL)
        return MPI_ERR_INTERN;
    for (int i = 0; i < c->size; i++)
        counts[i] = count;
    rc = coll_reduce_scatter(sbuf, rbuf, counts, dt, op, c);
    free(counts);
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

/* Exclusive scan, the same doubling: acc covers the 2^k ranks ending at
 * mine, excl the ranks before mine seen so far (none yet: unset).  Rank
 * 0's result is undefined; its buffer is left alone. */
static int coll_exscan(const void *sbuf, void *rbuf, int count,
                       MPI_Datatype dt, MPI_Op op, MPI_Comm c)
{
    int n = c->size, r = c->rank, rc;
    bool have = false;
    void *b1, *b2, *b3, *acc = tmp_typed(count, dt, &b1);
    void *in = tmp_typed(count, dt, &b2), *excl = tmp_typed(count, dt, &b3);

    rc = acc && in && excl ? MPI_SUCCESS : MPI_ERR_INTERN;
    if (rc == MPI_SUCCESS)
        rc = dt_copy(sbuf == MPI_IN_PLACE ? rbuf : sbuf, acc, count, dt);
    for (int mask = 1; mask < n && rc == MPI_SUCCESS; mask <<= 1) {
        int to = r + mask < n ? r + mask : MPI_PROC_NULL;
        int from = r - mask >= 0 ? r - mask : MPI_PROC_NULL;
        rc = coll_sendrecv(acc, count, dt, to, in, count, dt, from, c);
        if (rc != MPI_SUCCESS || from == MPI_PROC_NULL)
            continue;
        rc = have ? op_apply(op, in, excl, count, dt)
                  : dt_copy(in, excl, count, dt);
        have = true;
        if (rc == MPI_SUCCESS)
            rc = op_apply(op, in, acc, count, dt);
    }
    if (rc == MPI_SUCCESS && have)
        rc = dt_copy(excl, rbuf, count, dt);
    free(b1);
    free(b2);
    free(b3);
    return rc;
}

/* ---- the public entry points: check, then run ---- */

int check_coll(MPI_Comm c)
{
    int rc = comm_check(c);
    return rc ? rc : (c->inter ? MPI_ERR_COMM : MPI_SUCCESS);
}

int check_buf(MPI_Comm c, int count, MPI_Datatype dt)
{
    int rc = check_coll(c);

    if (rc == MPI_SUCCESS && count < 0)
        rc = MPI_ERR_COUNT;
    return rc ? rc : dt_check(dt);
}

int check_root(MPI_Comm c, int root)
{
    return root < 0 || root >= c->size ? MPI_ERR_ROOT : MPI_SUCCESS;
}

/* A reduction's arguments: buffer, count, type, and an op for it. */
static int check_red(MPI_Comm c, int count, MPI_Datatype dt, MPI_Op op)
{
    int rc = check_buf(c, count, dt);
    return rc ? rc : op_check(op, dt);
}

int MPI_Barrier(MPI_Comm comm)
{
    struct nbc *s;
    int rc;

    if (comm_inter(comm)) {
        rc = ic_barrier(comm, &s);
        return RET(comm, ic_wait(rc, s), "MPI_Barrier");
    }
    rc = check_coll(comm);
    if (rc == MPI_SUCCESS)
        rc = coll_barrier(comm);
    return RET(comm, rc, "MPI_Barrier");
}

int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    struct nbc *s;
    int rc;

    if (comm_inter(comm)) {
        rc = ic_bcast(buf, count, dt, root, comm, &s);
        return RET(comm, ic_wait(rc, s), "MPI_Bcast");
    }
    rc = check_buf(comm, count, dt);
    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS)
        rc = coll_bcast(buf, count, dt, root, comm);
    return RET(comm, rc, "MPI_Bcast");
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
               MPI_Op op, int root, MPI_Comm comm)
{
    struct nbc *s;
    int rc;

    if (comm_inter(comm)) {
        rc = ic_reduce(sbuf, rbuf, count, dt, op, root, comm, &s);
        return RET(comm, ic_wait(rc, s), "MPI_Reduce");
    }
    rc = check_red(comm, count, dt, op);
    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS)
        rc = coll_reduce(sbuf, rbuf, count, dt, op, root, comm);
    return RET(comm, rc, "MPI_Reduce");
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                  MPI_Op op, MPI_Comm comm)
{
    struct nbc *s;
    int rc;

    if (comm_inter(comm)) {
        rc = ic_allreduce(sbuf, rbuf, count, dt, op, comm, &s);
        return RET(comm, ic_wait(rc, s), "MPI_Allreduce");
    }
    rc = check_red(comm, count, dt, op);
    if (rc == MPI_SUCCESS)
        rc = coll_allreduce(sbuf, rbuf, count, dt, op, comm);
    return RET(comm, rc, "MPI_Allreduce");
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                       MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    struct nbc *s;
    int rc;

    if (comm_inter(comm)) {
        rc = ic_reduce_scatter(sbuf, rbuf, rcounts, 0, dt, op, comm, &s);
        return RET(comm, ic_wait(rc, s), "MPI_Reduce_scatter");
    }
    rc = check_red(comm, 0, dt, op);
    for (int i = 0; rc == MPI_SUCCESS && i < comm->size; i++)
        if (rcounts[i] < 0)
            rc = MPI_ERR_COUNT;
    if (rc == MPI_SUCCESS)
        rc = coll_reduce_scatter(sbuf, rbuf, rcounts, dt, op, comm);
    return RET(comm, rc, "MPI_Reduce_scatter");
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
             MPI_Op op, MPI_Comm comm)
{
    int rc = check_red(comm, count, dt, op);
    if (rc == MPI_SUCCESS)
        rc = coll_scan(sbuf, rbuf, count, dt, op, comm);
    return RET(comm, rc, "MPI_Scan");
}

int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
               MPI_Op op, MPI_Comm comm)
{
    int rc = check_red(comm, count, dt, op);
    if (rc == MPI_SUCCESS)
        rc = coll_exscan(sbuf, rbuf, count, dt, op, comm);
    return RET(comm, rc, "MPI_Exscan");
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int count,
                             MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    struct nbc *s;
    int rc;

    if (comm_inter(comm)) {
        rc = ic_reduce_scatter(sbuf, rbuf, NULL, count, dt, op, comm, &s);
        return RET(comm, ic_wait(rc, s), "MPI_Reduce_scatter_block");
    }
    rc = check_red(comm, count, dt, op);
    if (rc == MPI_SUCCESS)
        rc = coll_reduce_scatter_block(sbuf, rbuf, count, dt, op, comm);
    return RET(comm, rc, "MPI_Reduce_scatter_block");
}

/* inout = in op inout, here, on count items. */
int MPI_Reduce_local(const void *in, void *inout, int count, MPI_Datatype dt,
                     MPI_Op op)
{
    int rc = count < 0 ? MPI_ERR_COUNT : op_check(op, dt);

    if (rc == MPI_SUCCESS && count > 0 && (dt_null_buffer(in, count, dt) ||
                                           dt_null_buffer(inout, count, dt)))
        rc = MPI_ERR_BUFFER;
    if (rc == MPI_SUCCESS)
        rc = op_apply(op, in, inout, count, dt);
    return RET(MPI_COMM_WORLD, rc, "MPI_Reduce_local");
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Barrier)
PMPI(MPI_Bcast)
PMPI(MPI_Reduce)
PMPI(MPI_Allreduce)
PMPI(MPI_Reduce_scatter)
PMPI(MPI_Scan)
PMPI(MPI_Exscan)
PMPI(MPI_Reduce_scatter_block)
PMPI(MPI_Reduce_local)
