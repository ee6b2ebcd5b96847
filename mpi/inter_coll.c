/* SPDX-License-Identifier: MIT */
/*
 * inter_coll.c: collective operations on intercommunicators (MPI-3.1
 * 5.2.2): every process of one group gets what the other group sent.
 * Each is a schedule (nbc.h) that moves between the local group (the
 * intercommunicator's local_comm) and the remote one; the blocking call
 * runs it to completion, the nonblocking one returns it as the request
 * (ic_wait, ic_start).  Rooted ones: the root passes MPI_ROOT, the rest
 * of its group MPI_PROC_NULL, the other group the root's rank.
 *   barrier         local barrier, the leaders (local rank 0) swap a
 *                   message, local broadcast
 *   bcast           root -> remote leader -> its local broadcast
 *   gather(v), scatter(v)   the root talks to each remote process
 *   allgather(v), alltoall(v,w)   each process with each remote one
 *   reduce          local reduce to the leader, which sends to the root
 *   allreduce       local reduces, the leaders swap, local broadcasts
 *   reduce_scatter(_block)  local reduces, the leaders swap the vectors,
 *                   local scatters
 * Scans have no intercommunicator form (MPI_ERR_COMM, coll.c).
 */
#include <stdlib.h>
#include "nbc.h"

/* ---- running a schedule ---- */

int ic_wait(int rc, struct nbc *s)
{
    MPI_Request r;

    if (rc != MPI_SUCCESS) {
        if (s != NULL)
            nbc_free(s);
        return rc;
    }
    if ((rc = nbc_start(s, &r)) != MPI_SUCCESS)
        return rc;
    return p2p_wait(&r, MPI_STATUS_IGNORE);
}

int ic_start(int rc, struct nbc *s, MPI_Request *req)
{
    if (rc == MPI_SUCCESS && req == NULL)
        rc = MPI_ERR_REQUEST;
    if (req != NULL)
        *req = MPI_REQUEST_NULL;
    if (rc != MPI_SUCCESS) {
        if (s != NULL)
            nbc_free(s);
        return rc;
    }
    return nbc_start(s, req);
}

/* ---- argument checks ---- */

static int counted(int count, MPI_Datatype dt)
{
    return count < 0 ? MPI_ERR_COUNT : dt_check(dt);
}

/* MPI_ROOT, MPI_PROC_NULL, or a rank of the remote group. */
static int ic_root(MPI_Comm c, int root)
{
    return root == MPI_ROOT || root == MPI_PROC_NULL ||
           (root >= 0 && root < c->remote->size) ? MPI_SUCCESS
                                                  : MPI_ERR_ROOT;
}

/* The schedule, or MPI_ERR_NO_MEM. */
static int fresh(MPI_Comm c, struct nbc **out)
{
    *out = nbc_new(c);
    return *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

static bool leader(MPI_Comm c)
{
    return c->local_comm->rank == 0;
}

/* ---- the schedules ---- */

int ic_barrier(MPI_Comm c, struct nbc **out)
{
    int rc = fresh(c, out);
    struct nbc *s = *out;

    if (rc != MPI_SUCCESS)
        return rc;
    nbc_on(s, c->local_comm);
    nbc_barrier_steps(s);
    nbc_on(s, c);
    if (leader(c)) {
        nbc_send(s, NULL, 0, MPI_BYTE, 0);
        nbc_recv(s, NULL, 0, MPI_BYTE, 0);
    }
    nbc_round(s);
    nbc_on(s, c->local_comm);
    nbc_bcast_steps(s, NULL, 0, MPI_BYTE, 0);
    return MPI_SUCCESS;
}

int ic_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm c,
             struct nbc **out)
{
    int rc = ic_root(c, root);
    struct nbc *s;

    *out = NULL;
    if (rc == MPI_SUCCESS && root != MPI_PROC_NULL)
        rc = counted(count, dt);
    if (rc != MPI_SUCCESS || (rc = fresh(c, out)) != MPI_SUCCESS)
        return rc;
    s = *out;
    if (root == MPI_ROOT) {
        nbc_send(s, buf, count, dt, 0);
        nbc_round(s);
    } else if (root != MPI_PROC_NULL) {
        if (leader(c))
            nbc_recv(s, buf, count, dt, root);
        nbc_round(s);
        nbc_on(s, c->local_comm);
        nbc_bcast_steps(s, buf, count, dt, 0);
    }
    return MPI_SUCCESS;
}

/* gather and gatherv: rcounts NULL means rcount from everyone. */
int ic_gatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
               const int *rcounts, const int *displs, int rcount,
               MPI_Datatype rt, int root, MPI_Comm c, struct nbc **out)
{
    int rc = ic_root(c, root);
    struct nbc *s;

    *out = NULL;
    for (int i = 0; rc == MPI_SUCCESS && root == MPI_ROOT &&
                    i < c->remote->size; i++)
        rc = counted(rcounts ? rcounts[i] : rcount, rt);
    if (rc == MPI_SUCCESS && root >= 0)
        rc = counted(scount, st);
    if (rc != MPI_SUCCESS || (rc = fresh(c, out)) != MPI_SUCCESS)
        return rc;
    s = *out;
    if (root == MPI_ROOT)
        for (int i = 0; i < c->remote->size; i++)
            nbc_recv(s, rcounts ? (char *)rbuf + (MPI_Aint)displs[i] *
                                                dt_extent(rt)
                                : coll_at(rbuf, i, rcount, rt),
                     rcounts ? rcounts[i] : rcount, rt, i);
    else if (root >= 0)
        nbc_send(s, sbuf, scount, st, root);
    nbc_round(s);
    return MPI_SUCCESS;
}

int ic_scatterv(const void *sbuf, const int *scounts, const int *displs,
                int scount, MPI_Datatype st, void *rbuf, int rcount,
                MPI_Datatype rt, int root, MPI_Comm c, struct nbc **out)
{
    int rc = ic_root(c, root);
    struct nbc *s;

    *out = NULL;
    for (int i = 0; rc == MPI_SUCCESS && root == MPI_ROOT &&
                    i < c->remote->size; i++)
        rc = counted(scounts ? scounts[i] : scount, st);
    if (rc == MPI_SUCCESS && root >= 0)
        rc = counted(rcount, rt);
    if (rc != MPI_SUCCESS || (rc = fresh(c, out)) != MPI_SUCCESS)
        return rc;
    s = *out;
    if (root == MPI_ROOT)
        for (int i = 0; i < c->remote->size; i++)
            nbc_send(s, scounts ? (const char *)sbuf + (MPI_Aint)displs[i] *
                                                      dt_extent(st)
                                : coll_at((void *)sbuf, i, scount, st),
                     scounts ? scounts[i] : scount, st, i);
    else if (root >= 0)
        nbc_recv(s, rbuf, rcount, rt, root);
    nbc_round(s);
    return MPI_SUCCESS;
}

/* Every block to and from each remote process: allgather(v) (same: one
 * block sent to all) and alltoall(v); counts NULL: scount, rcount. */
int ic_exchange(const void *sbuf, const int *scounts, const int *sdispls,
                int scount, MPI_Datatype st, void *rbuf, const int *rcounts,
                const int *rdispls, int rcount, MPI_Datatype rt, bool same,
                MPI_Comm c, struct nbc **out)
{
    int rc = sbuf == MPI_IN_PLACE ? MPI_ERR_ARG : MPI_SUCCESS;

    *out = NULL;
    for (int i = 0; rc == MPI_SUCCESS && i < c->remote->size; i++) {
        rc = counted(rcounts ? rcounts[i] : rcount, rt);
        if (rc == MPI_SUCCESS)
            rc = counted(scounts ? scounts[i] : scount, st);
    }
    if (rc != MPI_SUCCESS || (rc = fresh(c, out)) != MPI_SUCCESS)
        return rc;
    nbc_exchange_steps(*out, sbuf, scounts, sdispls, scount, st, rbuf,
                       rcounts, rdispls, rcount, rt, same);
    return MPI_SUCCESS;
}

int ic_alltoallw(const void *sbuf, const int *scounts, const int *sdispls,
                 const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                 const int *rdispls, const MPI_Datatype *rtypes, MPI_Comm c,
                 struct nbc **out)
{
    int rc = sbuf == MPI_IN_PLACE ? MPI_ERR_ARG : MPI_SUCCESS;

    *out = NULL;
    for (int i = 0; rc == MPI_SUCCESS && i < c->remote->size; i++) {
        rc = counted(rcounts[i], rtypes[i]);
        if (rc == MPI_SUCCESS)
            rc = counted(scounts[i], stypes[i]);
    }
    if (rc != MPI_SUCCESS || (rc = fresh(c, out)) != MPI_SUCCESS)
        return rc;
    nbc_alltoallw_steps(*out, sbuf, scounts, sdispls, stypes, rbuf, rcounts,
                        rdispls, rtypes);
    return MPI_SUCCESS;
}

/* A reduction's arguments, and the local group's reduction of sbuf at
 * its leader, in *acc (a temporary the schedule owns). */
static int local_reduce(const void *sbuf, int count, MPI_Datatype dt,
                        MPI_Op op, MPI_Comm c, struct nbc **out, void **acc)
{
    int rc = sbuf == MPI_IN_PLACE ? MPI_ERR_ARG : counted(count, dt);

    *out = NULL;
    if (rc == MPI_SUCCESS)
        rc = op_check(op, dt);
    if (rc != MPI_SUCCESS || (rc = fresh(c, out)) != MPI_SUCCESS)
        return rc;
    if ((*acc = nbc_tmp(*out, count, dt)) == NULL)
        return MPI_ERR_NO_MEM;
    nbc_on(*out, c->local_comm);
    nbc_reduce_to(*out, sbuf, *acc, count, dt, op, 0);
    nbc_on(*out, c);
    return MPI_SUCCESS;
}

int ic_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
              MPI_Op op, int root, MPI_Comm c, struct nbc **out)
{
    int rc = ic_root(c, root);
    void *acc;

    *out = NULL;
    if (rc == MPI_SUCCESS && root == MPI_ROOT)
        rc = counted(count, dt);
    if (rc == MPI_SUCCESS && root == MPI_ROOT) {
        if ((rc = fresh(c, out)) == MPI_SUCCESS) {
            nbc_recv(*out, rbuf, count, dt, 0);
            nbc_round(*out);
        }
        return rc;
    }
    if (rc != MPI_SUCCESS || root == MPI_PROC_NULL)
        return rc ? rc : fresh(c, out);
    if ((rc = local_reduce(sbuf, count, dt, op, c, out, &acc)) != 0)
        return rc;
    if (leader(c))
        nbc_send(*out, acc, count, dt, root);
    nbc_round(*out);
    return MPI_SUCCESS;
}

int ic_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                 MPI_Op op, MPI_Comm c, struct nbc **out)
{
    void *acc;
    int rc = local_reduce(sbuf, count, dt, op, c, out, &acc);

    if (rc != MPI_SUCCESS)
        return rc;
    if (leader(c)) {
        nbc_send(*out, acc, count, dt, 0);
        nbc_recv(*out, rbuf, count, dt, 0);
    }
    nbc_round(*out);
    nbc_on(*out, c->local_comm);
    nbc_bcast_steps(*out, rbuf, count, dt, 0);
    return MPI_SUCCESS;
}

/* The other group's reduction of vectors of sum(rcounts) elements
 * (the same sum in both groups), scattered here by rcounts; rcounts
 * NULL: rcount each. */
int ic_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                      int rcount, MPI_Datatype dt, MPI_Op op, MPI_Comm c,
                      struct nbc **out)
{
    int n = c->local->size, total = 0, *counts, *displs;
    void *acc, *theirs;
    struct nbc *s;
    int rc;

    for (int i = 0; i < n; i++) {
        if ((rcounts ? rcounts[i] : rcount) < 0) {
            *out = NULL;
            return MPI_ERR_COUNT;
        }
        total += rcounts ? rcounts[i] : rcount;
    }
    if ((rc = local_reduce(sbuf, total, dt, op, c, out, &acc)) != 0)
        return rc;
    s = *out;
    theirs = nbc_tmp(s, total, dt);
    counts = nbc_tmp(s, n, MPI_INT);
    displs = nbc_tmp(s, n, MPI_INT);
    if (theirs == NULL || counts == NULL || displs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0, at = 0; i < n; at += counts[i++]) {
        counts[i] = rcounts ? rcounts[i] : rcount;
        displs[i] = at;
    }
    if (leader(c)) {
        nbc_send(s, acc, total, dt, 0);
        nbc_recv(s, theirs, total, dt, 0);
    }
    nbc_round(s);
    nbc_on(s, c->local_comm);
    nbc_scatterv_steps(s, theirs, counts, displs, 0, dt, rbuf,
                       counts[c->local_comm->rank], dt, 0);
    return MPI_SUCCESS;
}
