/* SPDX-License-Identifier: MIT */
/*
 * rma.c: the moves every one-sided operation is made of (rma.h describes
 * windows): puts, gets and atomics to a target's window memory or state
 * area, counted to completion, and the flush that waits for them.
 *
 * A move to oneself goes through Portals like any other, on the nodes
 * (the kernel loops frames back) and on Linux (libportals' loopback
 * queue): other processes' atomics are applied at any time (by the
 * node's interrupt, by libportals' progress thread), so plain memory
 * operations on one's own window would race with them.
 */
#include <stdlib.h>
#include <string.h>
#include "rma.h"

/* Operations on the shared counter in flight at once: enough to fill
 * the link, few enough to leave the message slots to others. */
#define INFLIGHT_MAX 64

/* What every window's origin side shares: an MD over all memory whose
 * counter counts the ACKs and REPLYs of every window's operations, and a
 * counter of arrivals at any window's state area.  Two counters and an
 * MD per window allowed 64 windows on a node (128 counters); shared,
 * windows take only match entries.  A flush of one window waits for all
 * that was issued on any: more than it must, never less (nothing waits
 * on a target's CPU).  A refusal is reported by the flush that sees it. */
static struct {
    int users;                  /* windows */
    ptl_handle_ct_t ct, state_ct;
    ptl_handle_md_t md;
    uint64_t issued;            /* operations counted on ct */
    uint64_t failed;            /* ... of which refused, reported */
} org;

int rma_up(void)
{
    ptl_md_t d = { 0 };

    if (org.users++ > 0)
        return MPI_SUCCESS;
    org.ct = org.state_ct = PTL_INVALID_HANDLE;
    org.md = PTL_INVALID_HANDLE;
    org.issued = org.failed = 0;
    d.start = PTL_JOB_MD_START;
    d.length = PTL_JOB_MD_LENGTH;
    d.options = PTL_MD_EVENT_CT_ACK | PTL_MD_EVENT_CT_REPLY |
                PTL_MD_EVENT_SUCCESS_DISABLE | PTL_MD_EVENT_SEND_DISABLE;
    d.eq_handle = PTL_EQ_NONE;
    if (PtlCTAlloc(job.ni, &org.ct) == PTL_OK &&
        PtlCTAlloc(job.ni, &org.state_ct) == PTL_OK &&
        (d.ct_handle = org.ct, PtlMDBind(job.ni, &d, &org.md) == PTL_OK))
        return MPI_SUCCESS;
    rma_down();
    return ERRC_NO_CTS;
}

void rma_down(void)
{
    if (--org.users > 0)
        return;
    if (org.md != PTL_INVALID_HANDLE)
        PtlMDRelease(org.md);
    if (org.ct != PTL_INVALID_HANDLE)
        PtlCTFree(org.ct);
    if (org.state_ct != PTL_INVALID_HANDLE)
        PtlCTFree(org.state_ct);
}

ptl_handle_ct_t rma_state_ct(void)
{
    return org.state_ct;
}

int win_check(MPI_Win w)
{
    return w == MPI_WIN_NULL || w->refs <= 0 ? MPI_ERR_WIN : MPI_SUCCESS;
}

int win_err(MPI_Win w, int rc, const char *name)
{
    if (rc == MPI_SUCCESS)
        return rc;
    if (win_check(w) != MPI_SUCCESS)    /* no window: no handler of its own */
        return mpi_err(MPI_COMM_WORLD, rc, name);
    return mpi_err_handler(w->errh, &w, rc, name);
}

static ptl_process_t target_of(MPI_Win w, int t)
{
    return rank_id(w->comm->local->world[t]);
}

/* ---- where an access lands ---- */

static const struct region *region_of(const struct dyn_table *tb,
                                      MPI_Aint addr, size_t len)
{
    for (int64_t i = 0; tb != NULL && i < tb->n; i++)
        if (addr >= tb->r[i].base &&
            (uint64_t)(addr - tb->r[i].base) + len <= (uint64_t)tb->r[i].size)
            return &tb->r[i];
    return NULL;
}


/* Get len bytes of target t's table of regions into tb, waited for. */
static int fetch_table(MPI_Win w, int t, struct dyn_table *tb, size_t len)
{
    int rc;

    org.issued++;
    do
        rc = PtlGet(org.md, ptl_job_md_off(tb, len), len, target_of(w, t),
                    PT_ONE, RMA_BITS(w->comm->ctx, RMA_TABLE), 0, NULL);
    while (rc == PTL_NO_SPACE && (proto_progress(false), true));
    check(rc, "PtlGet (RMA regions)");
    return rma_complete(w);
}

/* Fetch target t's table of regions: its length first, then as many
 * regions (again if it grew meanwhile).  Into the heap: Portals writes
 * where an integer offset says, which the compiler does not see. */
static int refresh(MPI_Win w, int t)
{
    int64_t room = 0;
    struct dyn_table *tb;
    int rc;

    for (;;) {
        if ((tb = realloc(w->known[t], TABLE_BYTES(room))) == NULL)
            return MPI_ERR_NO_MEM;
        w->known[t] = tb;
        tb->n = 0;
        if ((rc = fetch_table(w, t, tb, TABLE_BYTES(room))) != 0)
            return rc;
        if (tb->n <= room)
            return MPI_SUCCESS;
        room = tb->n;                   /* the length, or it grew since */
    }
}

int rma_where(MPI_Win w, int t, MPI_Aint disp, size_t len, struct where *at)
{
    const struct region *r;

    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        at->bits = RMA_BITS(w->comm->ctx, RMA_MEM);
        at->off = (uint64_t)disp;
        return MPI_SUCCESS;
    }
    if ((r = region_of(w->known[t], disp, len)) == NULL &&
        refresh(w, t) == MPI_SUCCESS)
        r = region_of(w->known[t], disp, len);  /* attached since */
    if (r == NULL)
        return MPI_ERR_RMA_RANGE;       /* in no region it attached */
    at->bits = RMA_BITS(w->comm->ctx, RMA_REGION(r->id));
    at->off = (uint64_t)(disp - r->base);
    return MPI_SUCCESS;
}

/* ---- counting completions ---- */

static ptl_ct_event_t count_now(void)
{
    ptl_ct_event_t c;

    check(PtlCTGet(org.ct, &c), "PtlCTGet (windows)");
    return c;
}

static uint64_t done_count(void)
{
    ptl_ct_event_t c = count_now();

    return c.success + c.failure;
}

/* Wait until at least `count` operations completed, keeping the rest of
 * MPI answering (flow control, FINs) while we do; *c is the counter as
 * last read (one read when they already had).  False if it did not
 * have to wait. */
static bool wait_count(uint64_t count, ptl_ct_event_t *c)
{
    ptl_size_t test = count;
    unsigned which;
    bool waited = false;

    for (*c = count_now(); c->success + c->failure < count;
         *c = count_now()) {
        waited = true;
        if (PtlCTPoll(&org.ct, &test, 1, 1, c, &which) == PTL_OK)
            break;
        proto_progress(false);
    }
    return waited;
}

/* Room for one more: at most INFLIGHT_MAX in flight. */
static void room(void)
{
    ptl_ct_event_t c;

    if (org.issued >= INFLIGHT_MAX)
        wait_count(org.issued - INFLIGHT_MAX + 1, &c);
}

/* Portals had no message slot free: let some of ours finish. */
static bool breathe(void)
{
    uint64_t done = done_count();
    ptl_ct_event_t c;

    if (org.issued > done)
        wait_count(done + 1, &c);
    else
        proto_progress(false);
    return true;
}

/* Wait until everything issued is complete at its target; the buffers
 * held for it stay (an operation under way may still use its own). */
int rma_complete(MPI_Win w)
{
    ptl_ct_event_t c;

    /* the counter is read once when all is done already (the common
       flush after one operation): a read costs a Portals call on Linux */
    if (!wait_count(org.issued, &c))
        proto_poll();   /* nothing out, but others may wait on us */
    if (w->rq_pending > 0) {
        while (w->rq_pending > 0)
            proto_progress(true);
        c = count_now();
    }
    /* a target refused an access: a region detached (ranges are checked
     * here before anything goes) */
    if (c.failure > org.failed) {
        org.failed = c.failure;
        return MPI_ERR_RMA_RANGE;
    }
    return MPI_SUCCESS;
}

int rma_flush(MPI_Win w)
{
    int rc = rma_complete(w);

    for (struct held *h = w->held; h != NULL; h = w->held) {
        if (h->ubuf != NULL)
            dt_unpack(h->mem, (size_t)h->ucount * (size_t)h->utype->size,
                      h->ubuf, h->ucount, h->utype);
        if (h->utype != MPI_DATATYPE_NULL)
            dt_release(h->utype);
        w->held = h->next;
        free(h->mem);
        free(h);
    }
    return rc;
}

void rma_hold(MPI_Win w, void *mem, void *ubuf, int ucount,
              MPI_Datatype utype)
{
    struct held *h = malloc(sizeof(*h));

    if (h == NULL)
        mpi_fatal("out of memory keeping an RMA buffer");
    *h = (struct held){ w->held, mem, ubuf, ucount, utype };
    if (utype != MPI_DATATYPE_NULL)
        dt_retain(utype);
    w->held = h;
}

/* ---- the moves ---- */

/* Which MD an operation uses: the window's, counting on its counter, or
 * for a request the MPI one, whose events complete the request. */
static ptl_handle_md_t md_for(MPI_Win w, MPI_Request rq)
{
    if (rq == NULL) {
        room();
        org.issued++;
        return org.md;
    }
    rq->wait++;
    w->rq_pending++;
    return md;
}

static void issued(int rc, const char *what)
{
    check(rc, what);
}

int rma_put(MPI_Win w, int t, const void *src, size_t len,
            const struct where *at, MPI_Request rq)
{
    int rc;

    ptl_handle_md_t m = md_for(w, rq);
    do
        rc = PtlPut(m, ptl_job_md_off(src, len), len,
                    rq ? PTL_ACK_REQ : PTL_CT_ACK_REQ, target_of(w, t),
                    PT_ONE, at->bits, at->off, rq, 0);
    while (rc == PTL_NO_SPACE && breathe());
    issued(rc, "PtlPut (RMA)");
    return MPI_SUCCESS;
}

int rma_get(MPI_Win w, int t, void *dst, size_t len, const struct where *at,
            MPI_Request rq)
{
    int rc;

    ptl_handle_md_t m = md_for(w, rq);
    do
        rc = PtlGet(m, ptl_job_md_off(dst, len), len, target_of(w, t),
                    PT_ONE, at->bits, at->off, rq);
    while (rc == PTL_NO_SPACE && breathe());
    issued(rc, "PtlGet (RMA)");
    return MPI_SUCCESS;
}

int rma_atomic(MPI_Win w, int t, const void *src, size_t len,
               const struct where *at, ptl_op_t op, ptl_datatype_t pt,
               MPI_Request rq)
{
    int rc;
    ptl_handle_md_t m = md_for(w, rq);

    do
        rc = PtlAtomic(m, ptl_job_md_off(src, len), len,
                       rq ? PTL_ACK_REQ : PTL_CT_ACK_REQ, target_of(w, t),
                       PT_ONE, at->bits, at->off, rq, 0, op, pt);
    while (rc == PTL_NO_SPACE && breathe());
    issued(rc, "PtlAtomic (RMA)");
    return MPI_SUCCESS;
}

int rma_fetch(MPI_Win w, int t, void *res, const void *src, size_t len,
              const struct where *at, ptl_op_t op, ptl_datatype_t pt,
              MPI_Request rq)
{
    int rc;
    ptl_handle_md_t m = md_for(w, rq);

    do
        rc = PtlFetchAtomic(m, ptl_job_md_off(res, len), m,
                            ptl_job_md_off(src, len), len, target_of(w, t),
                            PT_ONE, at->bits, at->off, rq, 0, op, pt);
    while (rc == PTL_NO_SPACE && breathe());
    issued(rc, "PtlFetchAtomic (RMA)");
    return MPI_SUCCESS;
}

/* A swap on one element (or PTL_SWAP on several): bits names the entry. */
static int swap_on(MPI_Win w, int t, uint64_t bits, void *res,
                   const void *src, const void *cmp, size_t len,
                   uint64_t off, ptl_op_t op, ptl_datatype_t pt,
                   MPI_Request rq)
{
    int rc;
    ptl_handle_md_t m = md_for(w, rq);

    do
        rc = PtlSwap(m, ptl_job_md_off(res, len), m,
                     ptl_job_md_off(src, len), len, target_of(w, t), PT_ONE,
                     bits, off, rq, 0, cmp, op, pt);
    while (rc == PTL_NO_SPACE && breathe());
    issued(rc, "PtlSwap (RMA)");
    return MPI_SUCCESS;
}

int rma_swap(MPI_Win w, int t, void *res, const void *src, const void *cmp,
             size_t len, const struct where *at, ptl_op_t op,
             ptl_datatype_t pt, MPI_Request rq)
{
    return swap_on(w, t, at->bits, res, src, cmp, len, at->off, op, pt, rq);
}

/* ---- the state area: lock words and PSCW notices ---- */

/* The operands of the state atomics live in the window, not on the
 * stack: Portals is given their addresses as MD offsets, integers the
 * compiler does not see as pointers, so it would take a local whose
 * address only went that way for unused and never read it back. */
int rma_state_add(MPI_Win w, int t, int word, int64_t v)
{
    int rc;

    w->io.operand = v;          /* read when the frame leaves: flushed */
    room();
    org.issued++;
    do
        rc = PtlAtomic(org.md, ptl_job_md_off(&w->io.operand, 8), 8,
                       PTL_CT_ACK_REQ,
                       target_of(w, t), PT_ONE, w->states[t].bits,
                       w->states[t].off + (uint64_t)word * 8, NULL, 0,
                       PTL_SUM, PTL_INT64_T);
    while (rc == PTL_NO_SPACE && breathe());
    issued(rc, "PtlAtomic (RMA state)");
    return rma_complete(w);
}

/* A swap (PTL_SWAP, PTL_CSWAP against cmp) or, for PTL_SUM, a fetching
 * add on target t's state word; returns the word's old value. */
int64_t rma_state_swap(MPI_Win w, int t, int word, int64_t cmp, int64_t v,
                       ptl_op_t op)
{
    w->io.old = 0;
    w->io.operand = v;
    w->io.cmp = cmp;
    if (op == PTL_SUM) {
        room();
        org.issued++;
        int rc;
        do
            rc = PtlFetchAtomic(org.md, ptl_job_md_off(&w->io.old, 8), org.md,
                                ptl_job_md_off(&w->io.operand, 8), 8,
                                target_of(w, t), PT_ONE, w->states[t].bits,
                                w->states[t].off + (uint64_t)word * 8, NULL,
                                0, PTL_SUM, PTL_INT64_T);
        while (rc == PTL_NO_SPACE && breathe());
        issued(rc, "PtlFetchAtomic (RMA state)");
    } else {
        swap_on(w, t, w->states[t].bits, &w->io.old, &w->io.operand,
                &w->io.cmp, 8, w->states[t].off + (uint64_t)word * 8, op,
                PTL_INT64_T, NULL);
    }
    rma_complete(w);
    return w->io.old;
}

/* Until something arrives at our state area, keep MPI going. */
void rma_wait_state(MPI_Win w)
{
    ptl_ct_event_t c, now;
    ptl_size_t test;
    unsigned which;

    (void)w;                    /* (the counter counts every window's) */
    check(PtlCTGet(org.state_ct, &c), "PtlCTGet (window state)");
    test = c.success + c.failure + 1;
    if (PtlCTPoll(&org.state_ct, &test, 1, 1, &now, &which) != PTL_OK)
        proto_progress(false);
}

/* A request's operation finished (its ACK or REPLY event). */
void rma_event(MPI_Request r, const ptl_event_t *ev)
{
    if (ev->ni_fail_type != PTL_NI_OK)
        r->status.MPI_ERROR = MPI_ERR_RMA_RANGE;
    r->win->rq_pending--;
    if (--r->wait == 0)
        req_complete(r);
}
