/* SPDX-License-Identifier: MIT */
/*
 * nbc_algo.c: the nonblocking collectives as schedules (nbc.h), with the
 * blocking ones' algorithms where rounds suit them: dissemination
 * barrier (or triggered operations, nbc_trig.c), binomial broadcast and
 * reduce (small broadcasts and allreduces: triggered, nbc_tcoll.c) (operand order kept for non-commutative ops), allreduce =
 * reduce + broadcast, recursive-doubling scan and exscan; the collectives
 * that move blocks post every send and receive in one round (gather,
 * scatter, allgather, all-to-all, their v-variants); reduce-scatter =
 * reduce + scatterv.  Argument checks are the blocking calls'.
 */
#include <stdlib.h>
#include <string.h>
#include "nbc.h"

/* ---- the schedules ---- */

static void barrier_steps(struct nbc *s)
{
    int n = s->comm->size, r = s->comm->rank;

    for (int k = 1; k < n; k *= 2) {
        nbc_send(s, NULL, 0, MPI_BYTE, (r + k) % n);
        nbc_recv(s, NULL, 0, MPI_BYTE, (r - k + n) % n);
        nbc_round(s);
    }
}

/* Rebuild a triggered barrier that cannot be one as a software one. */
void nbc_build_barrier(struct nbc *s)
{
    barrier_steps(s);
}

static void bcast_steps(struct nbc *s, void *buf, int count, MPI_Datatype dt,
                        int root)
{
    int n = s->comm->size, vr = (s->comm->rank - root + n) % n, mask = 1;

    while (mask < n) {
        if (vr & mask) {
            nbc_recv(s, buf, count, dt, (vr - mask + root) % n);
            nbc_round(s);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n)
            nbc_send(s, buf, count, dt, (vr + mask + root) % n);
    nbc_round(s);
}

/* Binomial reduce towards tree root 0 of vr = rank - root: each node
 * combines a child's [vr+mask, ...) on the right of its own; the result
 * ends in the returned buffer at vr 0.  Two temps alternate. */
static void *reduce_steps(struct nbc *s, const void *sbuf, int count,
                          MPI_Datatype dt, MPI_Op op, int root)
{
    int n = s->comm->size, vr = (s->comm->rank - root + n) % n;
    void *acc = nbc_tmp(s, count, dt), *in = nbc_tmp(s, count, dt), *t;

    nbc_copy(s, sbuf, acc, count, dt);
    for (int mask = 1; mask < n; mask <<= 1) {
        if (vr & mask) {
            nbc_send(s, acc, count, dt, (vr - mask + root) % n);
            nbc_round(s);
            break;
        }
        if (vr + mask >= n)
            continue;
        nbc_recv(s, in, count, dt, (vr + mask + root) % n);
        nbc_round(s);
        nbc_op(s, acc, in, count, dt, op);      /* in = acc op in */
        t = acc, acc = in, in = t;
    }
    return acc;
}

/* Reduce to root: non-commutative ops reduce towards rank 0 (operand
 * order), which forwards the result. */
static void reduce_to(struct nbc *s, const void *sbuf, void *rbuf, int count,
                      MPI_Datatype dt, MPI_Op op, int root)
{
    int tr = op->commute ? root : 0, me = s->comm->rank;
    void *acc = reduce_steps(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, count,
                             dt, op, tr);

    if (me == tr && tr == root)
        nbc_copy(s, acc, rbuf, count, dt);
    else if (me == tr)
        nbc_send(s, acc, count, dt, root);
    else if (me == root)
        nbc_recv(s, rbuf, count, dt, tr);
    nbc_round(s);
}

/* Inclusive (excl false) or exclusive scan by recursive doubling, as the
 * blocking ones: acc holds the 2^k ranks ending at mine. */
static void scan_steps(struct nbc *s, const void *sbuf, void *rbuf,
                       int count, MPI_Datatype dt, MPI_Op op, bool excl)
{
    int n = s->comm->size, r = s->comm->rank;
    void *acc = nbc_tmp(s, count, dt), *in = nbc_tmp(s, count, dt);
    const void *src = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    bool have = false;

    nbc_copy(s, src, acc, count, dt);
    if (!excl && sbuf != MPI_IN_PLACE)
        nbc_copy(s, sbuf, rbuf, count, dt);
    for (int mask = 1; mask < n; mask <<= 1) {
        if (r + mask < n)
            nbc_send(s, acc, count, dt, r + mask);
        if (r - mask >= 0)
            nbc_recv(s, in, count, dt, r - mask);
        nbc_round(s);
        if (r - mask < 0)
            continue;
        if (excl && !have)
            nbc_copy(s, in, rbuf, count, dt);   /* the first from below */
        else
            nbc_op(s, in, rbuf, count, dt, op);
        have = true;
        nbc_op(s, in, acc, count, dt, op);
    }
}

/* Root receives every block (its own from itself: the send and receive
 * types may differ), in one round. */
static void gatherv_steps(struct nbc *s, const void *sbuf, int scount,
                          MPI_Datatype st, void *rbuf, const int *rcounts,
                          const int *displs, int rcount, MPI_Datatype rt,
                          int root)
{
    MPI_Comm c = s->comm;

    if (c->rank != root) {
        nbc_send(s, sbuf, scount, st, root);
        nbc_round(s);
        return;
    }
    for (int i = 0; i < c->size; i++) {
        int cnt = rcounts ? rcounts[i] : rcount;
        char *dst = rcounts ? (char *)rbuf + (MPI_Aint)displs[i] *
                                             dt_extent(rt)
                            : coll_at(rbuf, i, rcount, rt);
        if (i == root && sbuf == MPI_IN_PLACE)
            continue;
        nbc_recv(s, dst, cnt, rt, i);
        if (i == root)
            nbc_send(s, sbuf, scount, st, root);
    }
    nbc_round(s);
}

static void scatterv_steps(struct nbc *s, const void *sbuf,
                           const int *scounts, const int *displs, int scount,
                           MPI_Datatype st, void *rbuf, int rcount,
                           MPI_Datatype rt, int root)
{
    MPI_Comm c = s->comm;

    if (c->rank != root) {
        nbc_recv(s, rbuf, rcount, rt, root);
        nbc_round(s);
        return;
    }
    for (int i = 0; i < c->size; i++) {
        int cnt = scounts ? scounts[i] : scount;
        const char *src = scounts ? (const char *)sbuf + (MPI_Aint)displs[i] *
                                                        dt_extent(st)
                                  : coll_at((void *)sbuf, i, scount, st);
        if (i == root && rbuf == MPI_IN_PLACE)
            continue;
        nbc_send(s, src, cnt, st, i);
        if (i == root)
            nbc_recv(s, rbuf, rcount, rt, root);
    }
    nbc_round(s);
}

/* Everyone sends block to_i to rank i and receives block from_i from it
 * (itself too: the types may differ), in one round; `same` sends one
 * block to all (allgather). */
static void exchange_steps(struct nbc *s, const void *sbuf,
                           const int *scounts, const int *sdispls, int scount,
                           MPI_Datatype st, void *rbuf, const int *rcounts,
                           const int *rdispls, int rcount, MPI_Datatype rt,
                           bool same)
{
    MPI_Comm c = s->comm;

    for (int i = 0; i < c->size; i++) {
        int sc = scounts ? scounts[i] : scount;
        int rc = rcounts ? rcounts[i] : rcount;
        const char *src = same ? sbuf :
            scounts ? (const char *)sbuf + (MPI_Aint)sdispls[i] *
                                           dt_extent(st)
                    : coll_at((void *)sbuf, i, scount, st);
        char *dst = rcounts ? (char *)rbuf + (MPI_Aint)rdispls[i] *
                                             dt_extent(rt)
                            : coll_at(rbuf, i, rcount, rt);
        if (i == c->rank && src == MPI_IN_PLACE)
            continue;
        nbc_recv(s, dst, rc, rt, i);
        if (src != MPI_IN_PLACE)
            nbc_send(s, src, sc, st, i);
        else    /* allgather in place: my block is already in rbuf */
            nbc_send(s, coll_at(rbuf, c->rank, rcount, rt), rc, rt, i);
    }
    nbc_round(s);
}

/* reduce-scatter: reduce all of it to rank 0, which scatters blocks */
static void reduce_scatter_steps(struct nbc *s, const void *sbuf, void *rbuf,
                                 const int *rcounts, MPI_Datatype dt,
                                 MPI_Op op)
{
    int n = s->comm->size, total = 0;
    int *displs = nbc_tmp(s, n, MPI_INT);
    void *all;

    for (int i = 0; displs != NULL && i < n; i++) {
        displs[i] = total;
        total += rcounts[i];
    }
    all = nbc_tmp(s, total, dt);
    if (all == NULL || displs == NULL)
        return;
    reduce_to(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, all, total, dt, op, 0);
    scatterv_steps(s, all, rcounts, displs, 0, dt, rbuf, rcounts[s->comm->rank],
                   dt, 0);
}

void nbc_build_allreduce(struct nbc *s, const void *sbuf, void *rbuf,
                         int count, MPI_Datatype dt, MPI_Op op)
{
    reduce_to(s, sbuf, rbuf, count, dt, op, 0);
    bcast_steps(s, rbuf, count, dt, 0);
}

/* ---- the calls ---- */

#define START(s, req, comm, name) RET(comm, nbc_start(s, req), name)

/* The argument checks' verdict, a missing request handle last; the
 * request is MPI_REQUEST_NULL until the call has started. */
static int checked(int rc, MPI_Request *req)
{
    if (req == NULL)
        return rc ? rc : MPI_ERR_REQUEST;
    *req = MPI_REQUEST_NULL;
    return rc;
}

static int check_red(MPI_Comm c, int count, MPI_Datatype dt, MPI_Op op)
{
    int rc = check_buf(c, count, dt);
    return rc ? rc : op_check(op, dt);
}

/* A triggered call that could not start (resources): nothing of it
 * stays, the error goes to the communicator's handler. */
static int tc_failed(struct nbc *s, MPI_Comm comm, int rc, const char *name)
{
    if (s != NULL)
        nbc_free(s);
    return mpi_err(comm, rc, name);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
    int rc = check_coll(comm);
    struct nbc *s;

    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Ibarrier");
    if ((s = trig_ibarrier(comm)) == NULL && (s = nbc_new(comm)) != NULL)
        barrier_steps(s);
    return START(s, req, comm, "MPI_Ibarrier");
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype dt, int root,
               MPI_Comm comm, MPI_Request *req)
{
    int rc = check_buf(comm, count, dt);
    struct nbc *s;

    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Ibcast");
    if (tcoll_bcast_ok(comm, count, dt)) {
        if ((rc = tcoll_ibcast(buf, count, dt, root, comm, &s)) != 0)
            return tc_failed(s, comm, rc, "MPI_Ibcast");
    } else if ((s = nbc_new(comm)) != NULL) {
        bcast_steps(s, buf, count, dt, root);
    }
    return START(s, req, comm, "MPI_Ibcast");
}

int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                MPI_Op op, int root, MPI_Comm comm, MPI_Request *req)
{
    int rc = check_red(comm, count, dt, op);
    struct nbc *s;

    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Ireduce");
    if ((s = nbc_new(comm)) != NULL)
        reduce_to(s, sbuf, rbuf, count, dt, op, root);
    return START(s, req, comm, "MPI_Ireduce");
}

int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                   MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    int rc = check_red(comm, count, dt, op);
    struct nbc *s;

    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Iallreduce");
    if (tcoll_allreduce_ok(comm, count, dt, op)) {
        rc = tcoll_iallreduce(sbuf, rbuf, count, dt, op, comm, &s);
        if (rc != MPI_SUCCESS)
            return tc_failed(s, comm, rc, "MPI_Iallreduce");
    } else if ((s = nbc_new(comm)) != NULL) {
        nbc_build_allreduce(s, sbuf, rbuf, count, dt, op);
    }
    return START(s, req, comm, "MPI_Iallreduce");
}

int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
              MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    int rc = check_red(comm, count, dt, op);
    struct nbc *s;

    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Iscan");
    if ((s = nbc_new(comm)) != NULL)
        scan_steps(s, sbuf, rbuf, count, dt, op, false);
    return START(s, req, comm, "MPI_Iscan");
}

int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    int rc = check_red(comm, count, dt, op);
    struct nbc *s;

    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Iexscan");
    if ((s = nbc_new(comm)) != NULL)
        scan_steps(s, sbuf, rbuf, count, dt, op, true);
    return START(s, req, comm, "MPI_Iexscan");
}

int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                 const int *rcounts, const int *displs, MPI_Datatype rt,
                 int root, MPI_Comm comm, MPI_Request *req)
{
    int rc = check_coll(comm);
    struct nbc *s;

    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, st);
    if (rc == MPI_SUCCESS && comm->rank == root)
        rc = check_buf(comm, 0, rt);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Igatherv");
    if ((s = nbc_new(comm)) != NULL)
        gatherv_steps(s, sbuf, scount, st, rbuf, rcounts, displs, 0, rt,
                      root);
    return START(s, req, comm, "MPI_Igatherv");
}

int MPI_Igather(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                int rcount, MPI_Datatype rt, int root, MPI_Comm comm,
                MPI_Request *req)
{
    int rc = check_coll(comm);
    struct nbc *s;

    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, st);
    if (rc == MPI_SUCCESS && comm->rank == root)
        rc = check_buf(comm, rcount, rt);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Igather");
    if ((s = nbc_new(comm)) != NULL)
        gatherv_steps(s, sbuf, scount, st, rbuf, NULL, NULL, rcount, rt,
                      root);
    return START(s, req, comm, "MPI_Igather");
}

int MPI_Iscatterv(const void *sbuf, const int *scounts, const int *displs,
                  MPI_Datatype st, void *rbuf, int rcount, MPI_Datatype rt,
                  int root, MPI_Comm comm, MPI_Request *req)
{
    int rc = check_coll(comm);
    struct nbc *s;

    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS && comm->rank == root)
        rc = check_buf(comm, 0, st);
    if (rc == MPI_SUCCESS && rbuf != MPI_IN_PLACE)
        rc = check_buf(comm, rcount, rt);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Iscatterv");
    if ((s = nbc_new(comm)) != NULL)
        scatterv_steps(s, sbuf, scounts, displs, 0, st, rbuf, rcount, rt,
                       root);
    return START(s, req, comm, "MPI_Iscatterv");
}

int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                 int rcount, MPI_Datatype rt, int root, MPI_Comm comm,
                 MPI_Request *req)
{
    int rc = check_coll(comm);
    struct nbc *s;

    if (rc == MPI_SUCCESS)
        rc = check_root(comm, root);
    if (rc == MPI_SUCCESS && comm->rank == root)
        rc = check_buf(comm, scount, st);
    if (rc == MPI_SUCCESS && rbuf != MPI_IN_PLACE)
        rc = check_buf(comm, rcount, rt);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Iscatter");
    if ((s = nbc_new(comm)) != NULL)
        scatterv_steps(s, sbuf, NULL, NULL, scount, st, rbuf, rcount, rt,
                       root);
    return START(s, req, comm, "MPI_Iscatter");
}

int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype st,
                   void *rbuf, int rcount, MPI_Datatype rt, MPI_Comm comm,
                   MPI_Request *req)
{
    int rc = check_buf(comm, rcount, rt);
    struct nbc *s;

    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, st);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Iallgather");
    if ((s = nbc_new(comm)) != NULL)
        exchange_steps(s, sbuf, NULL, NULL, scount, st, rbuf, NULL, NULL,
                       rcount, rt, true);
    return START(s, req, comm, "MPI_Iallgather");
}

int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype st,
                    void *rbuf, const int *rcounts, const int *displs,
                    MPI_Datatype rt, MPI_Comm comm, MPI_Request *req)
{
    int rc = check_buf(comm, 0, rt);
    struct nbc *s;

    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, st);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Iallgatherv");
    if ((s = nbc_new(comm)) != NULL) {
        /* in place: my block is rbuf's block at displs[me] */
        if (sbuf == MPI_IN_PLACE) {
            sbuf = (char *)rbuf + (MPI_Aint)displs[comm->rank] *
                                  dt_extent(rt);
            scount = rcounts[comm->rank];
            st = rt;
        }
        exchange_steps(s, sbuf, NULL, NULL, scount, st, rbuf, rcounts,
                       displs, 0, rt, true);
    }
    return START(s, req, comm, "MPI_Iallgatherv");
}

/* An all-to-all whose send side is MPI_IN_PLACE sends from a copy of
 * the receive buffer's blocks, made now (the blocking one's way); the
 * other send arguments are ignored. */
static void alltoall_steps(struct nbc *s, const void *sbuf,
                           const int *scounts, const int *sdispls,
                           MPI_Datatype st, void *rbuf, const int *rcounts,
                           const int *rdispls, MPI_Datatype rt)
{
    void *mem = NULL;

    if (sbuf == MPI_IN_PLACE) {
        if (coll_inplace_src(rbuf, s->comm->size, rcounts, rdispls, rt,
                             &sbuf, &mem) != MPI_SUCCESS) {
            free(mem);
            s->ok = false;
            return;
        }
        nbc_own(s, mem);
        scounts = rcounts, sdispls = rdispls, st = rt;
    }
    exchange_steps(s, sbuf, scounts, sdispls, 0, st, rbuf, rcounts, rdispls,
                   0, rt, false);
}

int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
                  int rcount, MPI_Datatype rt, MPI_Comm comm,
                  MPI_Request *req)
{
    int rc = check_buf(comm, rcount, rt), *v;
    struct nbc *s;

    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, scount, st);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Ialltoall");
    if ((s = nbc_new(comm)) != NULL &&
        (v = nbc_tmp(s, 4 * comm->size, MPI_INT)) != NULL) {
        int n = comm->size;
        for (int i = 0; i < n; i++) {   /* equal blocks, one after another */
            v[i] = scount, v[n + i] = i * scount;
            v[2 * n + i] = rcount, v[3 * n + i] = i * rcount;
        }
        alltoall_steps(s, sbuf, v, v + n, st, rbuf, v + 2 * n, v + 3 * n,
                       rt);
    }
    return START(s, req, comm, "MPI_Ialltoall");
}

int MPI_Ialltoallv(const void *sbuf, const int *scounts, const int *sdispls,
                   MPI_Datatype st, void *rbuf, const int *rcounts,
                   const int *rdispls, MPI_Datatype rt, MPI_Comm comm,
                   MPI_Request *req)
{
    int rc = check_buf(comm, 0, rt);
    struct nbc *s;

    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        rc = check_buf(comm, 0, st);
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Ialltoallv");
    if ((s = nbc_new(comm)) != NULL)
        alltoall_steps(s, sbuf, scounts, sdispls, st, rbuf, rcounts, rdispls,
                       rt);
    return START(s, req, comm, "MPI_Ialltoallv");
}

int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                        MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                        MPI_Request *req)
{
    int rc = check_red(comm, 0, dt, op);
    struct nbc *s;

    for (int i = 0; rc == MPI_SUCCESS && i < comm->size; i++)
        if (rcounts[i] < 0)
            rc = MPI_ERR_COUNT;
    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Ireduce_scatter");
    if ((s = nbc_new(comm)) != NULL)
        reduce_scatter_steps(s, sbuf, rbuf, rcounts, dt, op);
    return START(s, req, comm, "MPI_Ireduce_scatter");
}

int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int count,
                              MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                              MPI_Request *req)
{
    int rc = check_red(comm, count, dt, op);
    struct nbc *s;
    int *counts;

    if ((rc = checked(rc, req)) != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Ireduce_scatter_block");
    if ((s = nbc_new(comm)) != NULL &&
        (counts = nbc_tmp(s, comm->size, MPI_INT)) != NULL) {
        for (int i = 0; i < comm->size; i++)
            counts[i] = count;
        reduce_scatter_steps(s, sbuf, rbuf, counts, dt, op);
    }
    return START(s, req, comm, "MPI_Ireduce_scatter_block");
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Ibarrier)
PMPI(MPI_Ibcast)
PMPI(MPI_Ireduce)
PMPI(MPI_Iallreduce)
PMPI(MPI_Iscan)
PMPI(MPI_Iexscan)
PMPI(MPI_Igatherv)
PMPI(MPI_Igather)
PMPI(MPI_Iscatterv)
PMPI(MPI_Iscatter)
PMPI(MPI_Iallgather)
PMPI(MPI_Iallgatherv)
PMPI(MPI_Ialltoall)
PMPI(MPI_Ialltoallv)
PMPI(MPI_Ireduce_scatter)
PMPI(MPI_Ireduce_scatter_block)
