/* SPDX-License-Identifier: MIT */
/*
 * nbc_algo.c: the nonblocking collectives' algorithms as schedules
 * (nbc.h), the blocking ones' where rounds suit them: dissemination
 * barrier (or triggered operations, nbc_trig.c); binomial broadcast and
 * reduce, operand order kept for non-commutative ops (small broadcasts
 * and allreduces: triggered, nbc_tcoll.c); allreduce = reduce +
 * broadcast; recursive-doubling scan and exscan; the collectives that
 * move blocks post every send and receive in one round (gather,
 * scatter, allgather, all-to-all, their v- and w-variants; on an
 * intercommunicator to and from the remote group's ranks);
 * reduce-scatter = reduce + scatterv.  The calls are nbc_calls.c, the
 * intercommunicators' schedules inter_coll.c.
 */
#include <stdlib.h>
#include <string.h>
#include "nbc.h"

/* ---- the schedules ---- */

void nbc_barrier_steps(struct nbc *s)
{
    int n = s->on->size, r = s->on->rank;

    for (int k = 1; k < n; k *= 2) {
        nbc_send(s, NULL, 0, MPI_BYTE, (r + k) % n);
        nbc_recv(s, NULL, 0, MPI_BYTE, (r - k + n) % n);
        nbc_round(s);
    }
}

void nbc_bcast_steps(struct nbc *s, void *buf, int count, MPI_Datatype dt,
                        int root)
{
    int n = s->on->size, vr = (s->on->rank - root + n) % n, mask = 1;

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
    int n = s->on->size, vr = (s->on->rank - root + n) % n;
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
void nbc_reduce_to(struct nbc *s, const void *sbuf, void *rbuf, int count,
                      MPI_Datatype dt, MPI_Op op, int root)
{
    int tr = op->commute ? root : 0, me = s->on->rank;
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
void nbc_scan_steps(struct nbc *s, const void *sbuf, void *rbuf,
                       int count, MPI_Datatype dt, MPI_Op op, bool excl)
{
    int n = s->on->size, r = s->on->rank;
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
void nbc_gatherv_steps(struct nbc *s, const void *sbuf, int scount,
                          MPI_Datatype st, void *rbuf, const int *rcounts,
                          const int *displs, int rcount, MPI_Datatype rt,
                          int root)
{
    MPI_Comm c = s->on;

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

void nbc_scatterv_steps(struct nbc *s, const void *sbuf,
                           const int *scounts, const int *displs, int scount,
                           MPI_Datatype st, void *rbuf, int rcount,
                           MPI_Datatype rt, int root)
{
    MPI_Comm c = s->on;

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
 * block to all (allgather).  On an intercommunicator the ranks are the
 * remote group's. */
void nbc_exchange_steps(struct nbc *s, const void *sbuf,
                           const int *scounts, const int *sdispls, int scount,
                           MPI_Datatype st, void *rbuf, const int *rcounts,
                           const int *rdispls, int rcount, MPI_Datatype rt,
                           bool same)
{
    MPI_Comm c = s->on;

    for (int i = 0; i < c->remote->size; i++) {
        int sc = scounts ? scounts[i] : scount;
        int rc = rcounts ? rcounts[i] : rcount;
        const char *src = same ? sbuf :
            scounts ? (const char *)sbuf + (MPI_Aint)sdispls[i] *
                                           dt_extent(st)
                    : coll_at((void *)sbuf, i, scount, st);
        char *dst = rcounts ? (char *)rbuf + (MPI_Aint)rdispls[i] *
                                             dt_extent(rt)
                            : coll_at(rbuf, i, rcount, rt);
        if (!c->inter && i == c->rank && src == MPI_IN_PLACE)
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
void nbc_reduce_scatter_steps(struct nbc *s, const void *sbuf, void *rbuf,
                                 const int *rcounts, MPI_Datatype dt,
                                 MPI_Op op)
{
    int n = s->on->size, total = 0;
    int *displs = nbc_tmp(s, n, MPI_INT);
    void *all;

    for (int i = 0; displs != NULL && i < n; i++) {
        displs[i] = total;
        total += rcounts[i];
    }
    all = nbc_tmp(s, total, dt);
    if (all == NULL || displs == NULL)
        return;
    nbc_reduce_to(s, sbuf == MPI_IN_PLACE ? rbuf : sbuf, all, total, dt, op,
                  0);
    nbc_scatterv_steps(s, all, rcounts, displs, 0, dt, rbuf,
                       rcounts[s->on->rank], dt, 0);
}

void nbc_build_allreduce(struct nbc *s, const void *sbuf, void *rbuf,
                         int count, MPI_Datatype dt, MPI_Op op)
{
    nbc_reduce_to(s, sbuf, rbuf, count, dt, op, 0);
    nbc_bcast_steps(s, rbuf, count, dt, 0);
}

/* An all-to-all whose send side is MPI_IN_PLACE sends from a copy of
 * the receive buffer's blocks, made now (the blocking one's way); the
 * other send arguments are ignored. */
void nbc_alltoall_steps(struct nbc *s, const void *sbuf,
                           const int *scounts, const int *sdispls,
                           MPI_Datatype st, void *rbuf, const int *rcounts,
                           const int *rdispls, MPI_Datatype rt)
{
    void *mem = NULL;

    if (sbuf == MPI_IN_PLACE) {
        if (coll_inplace_src(rbuf, s->on->size, rcounts, rdispls, rt,
                             &sbuf, &mem) != MPI_SUCCESS) {
            free(mem);
            s->ok = false;
            return;
        }
        nbc_own(s, mem);
        scounts = rcounts, sdispls = rdispls, st = rt;
    }
    nbc_exchange_steps(s, sbuf, scounts, sdispls, 0, st, rbuf, rcounts,
                       rdispls, 0, rt, false);
}

void nbc_alltoallw_steps(struct nbc *s, const void *sbuf,
                         const int *scounts, const int *sdispls,
                         const MPI_Datatype *stypes, void *rbuf,
                         const int *rcounts, const int *rdispls,
                         const MPI_Datatype *rtypes)
{
    int n = s->on->remote->size;
    MPI_Aint *sd = nbc_tmp(s, n, MPI_AINT), *rd = nbc_tmp(s, n, MPI_AINT);
    void *mem = NULL;

    if (sd == NULL || rd == NULL)
        return;
    for (int i = 0; i < n; i++) {
        sd[i] = sbuf == MPI_IN_PLACE ? 0 : sdispls[i];
        rd[i] = rdispls[i];
    }
    if (sbuf == MPI_IN_PLACE) {         /* the blocking one's way */
        if (coll_inplace_srcw(rbuf, n, rcounts, rd, rtypes, &sbuf,
                              &mem) != MPI_SUCCESS) {
            free(mem);
            s->ok = false;
            return;
        }
        nbc_own(s, mem);
        scounts = rcounts, stypes = rtypes, sd = rd;
    }
    for (int i = 0; i < n; i++) {
        nbc_recv(s, (char *)rbuf + rd[i], rcounts[i], rtypes[i], i);
        nbc_send(s, (const char *)sbuf + sd[i], scounts[i], stypes[i], i);
    }
    nbc_round(s);
}
