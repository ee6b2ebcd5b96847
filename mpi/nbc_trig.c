/* SPDX-License-Identifier: MIT */
/*
 * nbc_trig.c: MPI_Ibarrier carried by Portals triggered operations, so
 * it completes without the CPU of any rank (on the nodes the kernel fires
 * the puts from the NIC interrupt; on Linux inside any Portals call).
 *
 * The dissemination barrier's round k is a zero-length put to rank
 * r + 2^k; the ranks receive round k on an entry of its own whose
 * counter counts arrivals.  Barrier number i (on this communicator)
 * puts round 0 at once and hangs round k's put on round k-1's counter
 * reaching i: each round's sender sends one message per barrier, in
 * order, so the count i means barrier i's message is in.  It is done
 * when every round's counter reaches i: the last one alone can be
 * reached by a message that left before our own first round's came
 * (three ranks: rank 2 answers rank 1's round 0 before rank 0 has even
 * entered).  The counters and entries are
 * made at the first MPI_Ibarrier on a communicator, which is a software
 * allreduce of "I have them" (counters are few: 128 on a node); the
 * triggered ones start only after it, so every rank's entries exist
 * before any put comes, and every rank agrees which way to go.
 */
#include <stdlib.h>
#include "nbc.h"
#include "proto.h"

#define TRIG_BITS(ctx, k) ((1ull << 63) | MB_CTX(ctx) | (uint64_t)(k))
#define MAX_ROUNDS 24

enum { T_AGREE, T_ON, T_OFF };

struct tbar {
    int state;
    int rounds;
    ptl_handle_ct_t ct[MAX_ROUNDS];
    ptl_handle_me_t me[MAX_ROUNDS];
    int made;                   /* rounds with an entry and a counter */
    int ok, all;                /* I have them; all have (agreement) */
    uint64_t started;           /* triggered barriers started */
};

struct tbar_wait {
    struct tbar *tb;
    uint64_t instance;          /* 0 until started */
    int next;                   /* the next round's put to hang */
};

static void resources_free(struct tbar *tb)
{
    for (int k = 0; k < tb->made; k++) {
        PtlMEUnlink(tb->me[k]);
        PtlCTFree(tb->ct[k]);
    }
    tb->made = 0;
}

/* An entry and a counter per round; false if Portals has too few. */
static bool resources_make(MPI_Comm comm, struct tbar *tb)
{
    for (int k = 0; (1 << k) < comm->size; k++) {
        ptl_me_t me = me_make(NULL, 0, PTL_ME_OP_PUT | PTL_ME_EVENT_CT_COMM |
                              PTL_ME_EVENT_COMM_DISABLE |
                              PTL_ME_EVENT_LINK_DISABLE |
                              PTL_ME_EVENT_UNLINK_DISABLE, PTL_RANK_ANY,
                              TRIG_BITS(comm->ctx, k), 0);
        if (k == MAX_ROUNDS || PtlCTAlloc(job.ni, &tb->ct[k]) != PTL_OK)
            return false;
        me.ct_handle = tb->ct[k];
        if (PtlMEAppend(job.ni, PT_ONE, &me, PTL_PRIORITY_LIST, NULL,
                        &tb->me[k]) != PTL_OK) {
            PtlCTFree(tb->ct[k]);
            return false;
        }
        tb->made = ++tb->rounds;
    }
    return true;
}

/* The agreement is in: triggered from now on, or never. */
static void agreed(struct nbc *s)
{
    struct tbar *tb = s->comm->tbar;

    tb->state = tb->all ? T_ON : T_OFF;
    if (tb->state == T_OFF)
        resources_free(tb);
}

struct nbc *trig_ibarrier(MPI_Comm comm)
{
    struct tbar *tb = comm->tbar;
    struct nbc *s;

    if (tb == NULL) {
        if ((tb = calloc(1, sizeof(*tb))) == NULL)
            return NULL;
        comm->tbar = tb;
        tb->ok = resources_make(comm, tb);
        if ((s = nbc_new(comm)) != NULL) {
            nbc_build_allreduce(s, &tb->ok, &tb->all, 1, MPI_INT, MPI_MIN);
            s->done = agreed;
        }
        return s;
    }
    if (tb->state == T_OFF || (s = nbc_new(comm)) == NULL)
        return NULL;
    if ((s->trig = calloc(1, sizeof(*s->trig))) == NULL) {
        nbc_free(s);
        return NULL;
    }
    s->trig->tb = tb;
    return s;
}

/* Hang the puts of every round not hung yet; false if Portals has no
 * room now (tried again from progress). */
static bool hang(struct nbc *s)
{
    struct tbar_wait *w = s->trig;
    MPI_Comm c = s->comm;

    for (; w->next < w->tb->rounds; w->next++) {
        int k = w->next, rc;
        ptl_process_t to = rank_id(c->local->world[(c->rank + (1 << k)) %
                                                   c->size]);
        if (k == 0)
            rc = PtlPut(md, 0, 0, PTL_NO_ACK_REQ, to, PT_ONE,
                        TRIG_BITS(c->ctx, 0), 0, NULL, 0);
        else
            rc = PtlTriggeredPut(md, 0, 0, PTL_NO_ACK_REQ, to, PT_ONE,
                                 TRIG_BITS(c->ctx, k), 0, NULL, 0,
                                 w->tb->ct[k - 1], w->instance);
        if (rc == PTL_NO_SPACE)
            return false;
        check(rc, "PtlTriggeredPut (barrier)");
    }
    return true;
}

bool trig_ready(struct nbc *s)
{
    struct tbar_wait *w = s->trig;

    if (w->tb->state == T_AGREE)
        return false;
    if (w->tb->state == T_OFF) {        /* a software barrier after all */
        free(s->trig);
        s->trig = NULL;
        nbc_barrier_steps(s);
        return true;
    }
    if (w->instance == 0)
        w->instance = ++w->tb->started;
    return hang(s);
}

/* The first round whose message for this barrier has not come, or
 * rounds if every one has. */
static int first_missing(const struct tbar_wait *w)
{
    ptl_ct_event_t c;

    for (int k = 0; k < w->tb->rounds; k++) {
        check(PtlCTGet(w->tb->ct[k], &c), "PtlCTGet (barrier)");
        if (c.success < w->instance)
            return k;
    }
    return w->tb->rounds;
}

bool trig_done(struct nbc *s)
{
    struct tbar_wait *w = s->trig;

    if (w->instance == 0 || w->next < w->tb->rounds)
        return false;
    return first_missing(w) == w->tb->rounds;
}

void trig_wait(struct nbc *s)
{
    struct tbar_wait *w = s->trig;
    ptl_ct_event_t c;
    ptl_size_t test = w->instance;
    unsigned which;
    int k = w->instance ? first_missing(w) : w->tb->rounds;

    if (k == w->tb->rounds) {
        proto_poll();
        return;
    }
    PtlCTPoll(&w->tb->ct[k], &test, 1, 1, &c, &which);
}

void trig_comm_free(MPI_Comm comm)
{
    if (comm->tbar == NULL)
        return;
    resources_free(comm->tbar);
    free(comm->tbar);
    comm->tbar = NULL;
}
