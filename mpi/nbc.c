/* SPDX-License-Identifier: MIT */
/*
 * nbc.c: the engine of the nonblocking collectives (nbc.h describes
 * schedules): building a schedule, starting it as a request, and moving
 * every active schedule on from the library's progress (each MPI call
 * that makes progress, MPI_Test and MPI_Wait among them).  Triggered
 * barriers, broadcasts and allreduces (nbc_trig.c, nbc_tcoll.c) move on
 * without the CPU; the engine only sees when they are done.
 */
#include <stdlib.h>
#include <string.h>
#include "nbc.h"

static struct nbc *active, **active_tail = &active;
static bool advancing;

/* ---- building ---- */

struct nbc *nbc_new(MPI_Comm comm)
{
    struct nbc *s = calloc(1, sizeof(*s));

    if (s == NULL)
        return NULL;
    s->comm = comm;
    s->on = comm;
    s->ok = true;
    /* every rank numbers a communicator's collectives alike */
    s->tag = TAG_NBC + (int)(comm->nbc_seq++ % ((1u << 27) - TAG_NBC));
    return s;
}

static struct step *add(struct nbc *s, int kind)
{
    struct step *n;

    if (s->nsteps == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        if ((n = realloc(s->steps, (size_t)cap * sizeof(*n))) == NULL) {
            s->ok = false;
            return NULL;
        }
        s->steps = n;
        s->cap = cap;
    }
    n = &s->steps[s->nsteps++];
    memset(n, 0, sizeof(*n));
    n->kind = kind;
    return n;
}

static void comm_step(struct nbc *s, int kind, const void *src, void *dst,
                      int count, MPI_Datatype dt, int peer)
{
    struct step *t = add(s, kind);

    if (t != NULL)
        *t = (struct step){ kind, s->on, src, dst, count, dt, peer,
                            MPI_OP_NULL, NULL };
}

void nbc_send(struct nbc *s, const void *buf, int count, MPI_Datatype dt,
              int peer)
{
    comm_step(s, ST_SEND, buf, NULL, count, dt, peer);
}

void nbc_recv(struct nbc *s, void *buf, int count, MPI_Datatype dt,
              int peer)
{
    comm_step(s, ST_RECV, NULL, buf, count, dt, peer);
}

void nbc_op(struct nbc *s, const void *in, void *inout, int count,
            MPI_Datatype dt, MPI_Op op)
{
    struct step *t = add(s, ST_OP);

    if (t != NULL)
        *t = (struct step){ ST_OP, s->on, in, inout, count, dt, 0, op,
                            NULL };
}

void nbc_copy(struct nbc *s, const void *src, void *dst, int count,
              MPI_Datatype dt)
{
    comm_step(s, ST_COPY, src, dst, count, dt, 0);
}

void nbc_round(struct nbc *s)
{
    add(s, ST_ROUND);
}

void nbc_on(struct nbc *s, MPI_Comm c)
{
    s->on = c;
}

void nbc_call(struct nbc *s, void (*fn)(struct nbc *s))
{
    struct step *t = add(s, ST_CALL);

    if (t != NULL)
        t->fn = fn;
}

void nbc_own(struct nbc *s, void *mem)
{
    if (s->ntmp == s->tmpcap) {
        int cap = s->tmpcap ? 2 * s->tmpcap : 8;
        void **n = realloc(s->tmp, (size_t)cap * sizeof(*n));
        if (n == NULL) {
            free(mem);
            s->ok = false;
            return;
        }
        s->tmp = n;
        s->tmpcap = cap;
    }
    s->tmp[s->ntmp++] = mem;
}

void *nbc_tmp(struct nbc *s, int count, MPI_Datatype dt)
{
    void *base, *p = tmp_typed(count, dt, &base);

    if (p == NULL) {
        s->ok = false;
        return NULL;
    }
    nbc_own(s, base);
    return s->ok ? p : NULL;
}

void nbc_free(struct nbc *s)
{
    for (int i = 0; i < s->nlive; i++)
        if (s->live[i] != MPI_REQUEST_NULL)
            req_free(s->live[i]);
    for (int i = 0; i < s->ntmp; i++)
        free(s->tmp[i]);
    free(s->tmp);
    free(s->live);
    free(s->steps);
    free(s->trig);
    tcoll_free(s->tc);
    free(s);
}

/* ---- running ---- */

static int start_comm(struct nbc *s, const struct step *t)
{
    MPI_Request r, *n;
    uint32_t ctx = t->comm->ctx + 1;
    int rc;

    if (s->nlive == s->livecap) {
        int cap = s->livecap ? 2 * s->livecap : 8;
        if ((n = realloc(s->live, (size_t)cap * sizeof(*n))) == NULL)
            return MPI_ERR_NO_MEM;
        s->live = n;
        s->livecap = cap;
    }
    if (t->kind == ST_SEND)
        rc = p2p_isend(t->src, t->count, t->dt, t->peer, s->tag, t->comm,
                       ctx, M_STD, &r);
    else
        rc = p2p_irecv(t->dst, t->count, t->dt, t->peer, s->tag, t->comm,
                       ctx, &r);
    if (rc == MPI_SUCCESS)
        s->live[s->nlive++] = r;
    return rc;
}

/* Every request of the round done?  Their errors go to the user's. */
static bool round_done(struct nbc *s)
{
    for (int i = 0; i < s->nlive; i++) {
        MPI_Request r = s->live[i];
        if (r == MPI_REQUEST_NULL)
            continue;
        if (r->state != RS_DONE)
            return false;
        int err = req_finish(&s->live[i], MPI_STATUS_IGNORE);
        if (err != MPI_SUCCESS)
            s->req->status.MPI_ERROR = err;
    }
    s->nlive = 0;
    return true;
}

/* Run steps from s->at to the end of the next round; true when the
 * whole schedule is done. */
static bool run_round(struct nbc *s)
{
    int rc = MPI_SUCCESS;

    for (; s->at < s->nsteps && rc == MPI_SUCCESS; s->at++) {
        const struct step *t = &s->steps[s->at];
        switch (t->kind) {
        case ST_ROUND:
            s->at++;
            return false;
        case ST_CALL:           /* (t may move: steps it adds realloc) */
            t->fn(s);
            rc = s->ok ? MPI_SUCCESS : MPI_ERR_NO_MEM;
            break;
        case ST_OP:
            rc = op_apply(t->op, t->src, t->dst, t->count, t->dt);
            break;
        case ST_COPY:
            rc = dt_copy(t->src, t->dst, t->count, t->dt);
            break;
        default:
            rc = start_comm(s, t);
        }
    }
    if (rc != MPI_SUCCESS) {
        s->req->status.MPI_ERROR = rc;
        s->at = s->nsteps;      /* give up what is left, finish cleanly */
    }
    return s->nlive == 0 && s->at >= s->nsteps;
}

/* Move s on as far as it goes now; true when it is done. */
static bool advance(struct nbc *s)
{
    if (s->tc != NULL)
        return tcoll_done(s);
    if (s->trig != NULL) {
        if (!trig_ready(s))
            return false;
        if (s->trig != NULL)
            return trig_done(s);
    }
    while (round_done(s))
        if (s->at >= s->nsteps || run_round(s))
            return round_done(s);
    return false;
}

static void finish(struct nbc *s)
{
    MPI_Request r = s->req;

    r->status.MPI_SOURCE = MPI_ANY_SOURCE;
    r->status.MPI_TAG = MPI_ANY_TAG;
    if (s->done != NULL)
        s->done(s);
    nbc_free(s);
    req_complete(r);
}

/* From progress: every active schedule as far as it goes; true if one
 * completed (its waiter must look before anyone sleeps). */
bool nbc_progress(void)
{
    bool completed = false;

    if (advancing || active == NULL)
        return false;
    advancing = true;       /* starting requests makes progress too */
    for (struct nbc **pp = &active; *pp != NULL;) {
        struct nbc *s = *pp;
        if (!advance(s)) {
            pp = &s->next;
            continue;
        }
        *pp = s->next;
        if (active_tail == &s->next)
            active_tail = pp;
        finish(s);
        completed = true;
    }
    advancing = false;
    return completed;
}

/* A triggered barrier completes without an event: a blocking wait
 * sleeps on the first one's counter instead (for at most 1 ms, then
 * looks at the event queue again).  false if there is none. */
bool nbc_block(void)
{
    for (struct nbc *s = active; s != NULL; s = s->next)
        if (s->trig != NULL) {
            trig_wait(s);
            return true;
        } else if (s->tc != NULL) {
            tcoll_wait(s);
            return true;
        }
    return false;
}

int nbc_start(struct nbc *s, MPI_Request *out)
{
    MPI_Request r;

    if (s == NULL || !s->ok || (r = req_new(RQ_COLL)) == NULL) {
        if (s != NULL)
            nbc_free(s);
        return MPI_ERR_NO_MEM;
    }
    r->comm = s->comm;
    r->state = RS_ACTIVE;
    s->req = r;
    s->next = NULL;
    *active_tail = s;
    active_tail = &s->next;
    *out = r;
    nbc_progress();         /* the first round starts now */
    return MPI_SUCCESS;
}
