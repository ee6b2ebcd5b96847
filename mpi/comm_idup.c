/* SPDX-License-Identifier: MIT */
/*
 * comm_idup.c: MPI_Comm_idup (MPI-3.1 6.4.2), a duplicate made by a
 * nonblocking collective: the members agree on a context pair as
 * MPI_Comm_dup does (the AND of what each has free, context.c), but as
 * a schedule (nbc.h) that moves on while the program does other things,
 * other communicators' creation among them.  So a pair free when this
 * process gave its mask may be taken by the time the agreement is in:
 * each member then takes the agreed pairs if it still has them free, and
 * a second agreement (every member took them?) confirms; if one could
 * not, those who took them give them back, and it starts over with
 * masks taken now.  Every member runs the same steps: the schedule's
 * tags keep its messages apart from every other collective's.
 */
#include <stdlib.h>
#include <string.h>
#include "nbc.h"

struct idup {
    MPI_Comm comm;
    void (*made)(MPI_Comm c, void *arg);    /* where the new one goes */
    void *arg;
    int n;                      /* pairs: 1, or 2 for an intercomm */
    uint32_t ctx[2];
    struct ctx_mask mine, all, theirs;
    uint64_t took, took_all, took_theirs;   /* ~0: took them, 0: not */
};

/* AND of words over every member of s->comm into all: an allreduce, or
 * on an intercommunicator each group's, swapped by the leaders. */
static void and_steps(struct nbc *s, uint64_t *mine, uint64_t *all,
                      uint64_t *theirs, int n)
{
    MPI_Comm c = s->comm;

    if (!c->inter) {
        nbc_build_allreduce(s, mine, all, n, MPI_UINT64_T, MPI_BAND);
        return;
    }
    nbc_on(s, c->local_comm);
    nbc_reduce_to(s, mine, all, n, MPI_UINT64_T, MPI_BAND, 0);
    nbc_on(s, c);
    if (c->local_comm->rank == 0) {
        nbc_send(s, all, n, MPI_UINT64_T, 0);
        nbc_recv(s, theirs, n, MPI_UINT64_T, 0);
        nbc_round(s);
        nbc_op(s, theirs, all, n, MPI_UINT64_T, MPI_BAND);
    }
    nbc_on(s, c->local_comm);
    nbc_bcast_steps(s, all, n, MPI_UINT64_T, 0);
    nbc_on(s, c);
}

static void agree(struct nbc *s);

/* The agreed pairs, taken if this process still has them all free
 * (and no blocking agreement, which offered them too, is under way:
 * progress inside it runs this). */
static void take(struct nbc *s)
{
    struct idup *d = s->arg;
    int got = 0;

    for (int i = 0; i < CTX_WORDS && got < d->n; i++)
        for (uint64_t w = d->all.w[i]; w != 0 && got < d->n; w &= w - 1)
            d->ctx[got++] = 2 * (uint32_t)(64 * i + __builtin_ctzll(w));
    d->took = 0;
    if (got < d->n || ctx_agreeing())
        return;                 /* none left, or not now: it fails */
    for (int k = 0; k < d->n; k++)
        if (!ctx_free_here(d->ctx[k]))
            return;
    if (ctx_take(&d->all, d->n, d->ctx) == MPI_SUCCESS)
        d->took = ~(uint64_t)0;
}

/* Did everyone take them?  Make the communicator, or try again. */
static void confirm(struct nbc *s)
{
    struct idup *d = s->arg;
    int rc;

    if (d->took_all) {
        MPI_Comm c = MPI_COMM_NULL;
        rc = comm_dup_make(d->comm, d->ctx, &c);
        if (rc != MPI_SUCCESS)
            s->req->status.MPI_ERROR = rc;
        d->made(c, d->arg);
        return;
    }
    if (d->took)
        for (int k = 0; k < d->n; k++)
            ctx_untake(d->ctx[k]);
    for (int i = 0; i < CTX_WORDS; i++)     /* no pair left anywhere */
        if (d->all.w[i] != 0) {
            agree(s);
            return;
        }
    s->req->status.MPI_ERROR = ERRC_NO_CTX;
}

/* One round of agreement, with this process's mask as it is now. */
static void agree(struct nbc *s)
{
    struct idup *d = s->arg;

    ctx_mine(&d->mine);
    and_steps(s, d->mine.w, d->all.w, d->theirs.w, CTX_WORDS);
    nbc_call(s, take);
    and_steps(s, &d->took, &d->took_all, &d->took_theirs, 1);
    nbc_call(s, confirm);
}

/* The duplicate is made when the request completes: made(c, arg) puts
 * it where its caller wants it (C: into *newc; Fortran: its index). */
int comm_idup_then(MPI_Comm comm, void (*made)(MPI_Comm c, void *arg),
                   void *arg, MPI_Request *req)
{
    struct idup *d;
    struct nbc *s = NULL;

    if ((d = calloc(1, sizeof(*d))) == NULL || (s = nbc_new(comm)) == NULL) {
        free(d);
        return MPI_ERR_NO_MEM;
    }
    *d = (struct idup){ .comm = comm, .made = made, .arg = arg,
                        .n = comm->inter ? 2 : 1 };
    nbc_own(s, d);
    s->arg = d;
    agree(s);
    return nbc_start(s, req);
}

static void into(MPI_Comm c, void *newc)
{
    *(MPI_Comm *)newc = c;
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newc, MPI_Request *req)
{
    int rc = comm_check(comm);

    if (rc == MPI_SUCCESS && (newc == NULL || req == NULL))
        rc = newc == NULL ? MPI_ERR_ARG : MPI_ERR_REQUEST;
    if (newc != NULL)
        *newc = MPI_COMM_NULL;  /* till the request completes */
    if (req != NULL)
        *req = MPI_REQUEST_NULL;
    if (rc == MPI_SUCCESS)
        rc = comm_idup_then(comm, into, newc, req);
    return mpi_err(comm, rc, "MPI_Comm_idup");
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Comm_idup)
