/* SPDX-License-Identifier: MIT */
/*
 * context.c: communicator contexts.  A context pair (ctx even: point to
 * point; ctx+1: collectives) names a communicator in the 15 context bits
 * of the match bits (proto.h), so there are CTX_PAIRS of them; the pairs
 * of MPI_COMM_WORLD (0) and MPI_COMM_SELF (2) are taken for good.
 *
 * Each process keeps which pairs it has free.  The members of a new
 * communicator agree on pairs free at every one of them: the bitwise AND
 * of their masks, then the lowest bits of it (every member computes the
 * same).  A freed communicator's pair is free again after the next
 * QUARANTINE pairs this process frees (a message of a collective still
 * in flight when it was freed, as MPI_Comm_free allows, has long
 * arrived by then), and is taken again only when every member of the
 * next communicator has it free; so contexts are recycled for ever
 * (10,000 splits and dups in a loop), and CTX_PAIRS - 2 - QUARANTINE
 * communicators (windows and files hold one each) can be alive at once.
 */
#include <string.h>
#include "mpi_impl.h"

#define QUARANTINE 64

static struct ctx_mask mine;      /* bit p: pair p (ctx 2p) is free */
static bool agreeing;             /* a blocking agreement is under way */
static uint32_t freed[QUARANTINE];      /* the last pairs freed, a ring */
static int nfreed, oldest;
static bool ready;

/* Every pair free but WORLD's and SELF's (0 and 1). */
static void init(void)
{
    for (int i = 0; i < CTX_WORDS; i++)
        mine.w[i] = ~(uint64_t)0;
    mine.w[0] &= ~(uint64_t)3;
    ready = true;
}

void ctx_mine(struct ctx_mask *m)
{
    if (!ready)
        init();
    *m = mine;
}

int ctx_take(const struct ctx_mask *agreed, int n, uint32_t *ctx)
{
    int got = 0;

    if (!ready)
        init();
    for (int i = 0; i < CTX_WORDS && got < n; i++)
        for (uint64_t w = agreed->w[i]; w != 0 && got < n; w &= w - 1)
            ctx[got++] = 2 * (uint32_t)(64 * i + __builtin_ctzll(w));
    if (got < n)
        return ERRC_NO_CTX;
    for (int k = 0; k < n; k++)
        mine.w[ctx[k] / 128] &= ~((uint64_t)1 << (ctx[k] / 2 % 64));
    return MPI_SUCCESS;
}

static void set_free(uint32_t ctx)
{
    mine.w[ctx / 128] |= (uint64_t)1 << (ctx / 2 % 64);
}

void ctx_release(uint32_t ctx)
{
    if (ctx < 4 || ctx / 2 >= CTX_PAIRS)
        return;                 /* WORLD's and SELF's are for good */
    if (nfreed == QUARANTINE) {         /* the oldest comes out */
        set_free(freed[oldest]);
        freed[oldest] = ctx;
        oldest = (oldest + 1) % QUARANTINE;
        return;
    }
    freed[(oldest + nfreed++) % QUARANTINE] = ctx;
}

/* A pair taken for a communicator that was not made after all (its
 * members did not all agree, MPI_Comm_idup): no message used it. */
void ctx_untake(uint32_t ctx)
{
    set_free(ctx);
}

bool ctx_free_here(uint32_t ctx)
{
    if (!ready)
        init();
    return (mine.w[ctx / 128] >> (ctx / 2 % 64)) & 1;
}

void ctx_and(struct ctx_mask *into, const struct ctx_mask *m)
{
    for (int i = 0; i < CTX_WORDS; i++)
        into->w[i] &= m->w[i];
}

/* A blocking agreement: what this process offers (its free pairs),
 * then what it takes of the agreed ones.  Progress in between may run a
 * nonblocking agreement's steps (MPI_Comm_idup), which must not take a
 * pair this one offered and will take: it tries again instead. */
void ctx_offer(struct ctx_mask *m)
{
    ctx_mine(m);
    agreeing = true;
}

int ctx_settle(int rc, const struct ctx_mask *agreed, int n, uint32_t *ctx)
{
    agreeing = false;
    return rc ? rc : ctx_take(agreed, n, ctx);
}

bool ctx_agreeing(void)
{
    return agreeing;
}

int ctx_agree(MPI_Comm parent, int n, uint32_t *ctx)
{
    struct ctx_mask m, all;
    int rc;

    ctx_offer(&m);
    rc = coll_allreduce(m.w, all.w, CTX_WORDS, MPI_UINT64_T, MPI_BAND,
                        parent);
    return ctx_settle(rc, &all, n, ctx);
}

/* Over an intercommunicator: each group agrees, the leaders swap what
 * their group has free, and each tells its group the AND. */
int ctx_agree_inter(MPI_Comm inter, int n, uint32_t *ctx)
{
    struct ctx_mask m, all, theirs;
    MPI_Comm lc = inter->local_comm;
    int rc;

    ctx_offer(&m);
    rc = coll_allreduce(m.w, all.w, CTX_WORDS, MPI_UINT64_T, MPI_BAND, lc);
    if (rc == MPI_SUCCESS && lc->rank == 0) {
        rc = coll_sendrecv(all.w, CTX_WORDS, MPI_UINT64_T, 0, theirs.w,
                           CTX_WORDS, MPI_UINT64_T, 0, inter);
        ctx_and(&all, &theirs);
    }
    if (rc == MPI_SUCCESS)
        rc = coll_bcast(all.w, CTX_WORDS, MPI_UINT64_T, 0, lc);
    return ctx_settle(rc, &all, n, ctx);
}
