/* SPDX-License-Identifier: MIT */
/*
 * nbc_tcoll.c: MPI_Ibcast (up to TC_BCAST_MAX bytes) and MPI_Iallreduce
 * (up to TC_RED_MAX bytes, an op Portals atomics carry on the type) run
 * their whole tree on Portals triggered operations, so they complete
 * while every rank's CPU is elsewhere (on the nodes the kernel fires them
 * from the NIC interrupt; on Linux the progress thread does).
 *
 * Each call has its own counters (CT: the entry's arrivals, the MD's
 * ACKs), match entry (ME) and MD, both over a library buffer, and match
 * bits of its own (the communicator's context and its collective
 * number: every rank numbers them alike).  The counters, MD and buffer
 * of a completed call are kept for the next (a slot): its counts are
 * then exactly what that call expected, so the next one adds its
 * thresholds to them instead of resetting anything.  No
 * data is sent to an entry before its owner has announced it with a
 * zero-length "ready" put; a ready that arrives before its entry exists
 * waits on the catch-all overflow entry proto.c keeps on PT_ONE, and the
 * entry appended later counts it (PTL_ME_EVENT_CT_OVERFLOW).  The entry's
 * counter counts every arrival; each triggered operation's threshold
 * counts every arrival that can come before what it fires, and none that
 * cannot, so the order in which ranks enter, a change of root, calls
 * back to back and a parent far ahead need no agreement.  Completion is
 * the entry's final count plus an ACK for every put and atomic sent
 * (counted on the MD's own counter), so the buffer is not freed while a
 * put may still read it.
 *
 * Broadcast (binomial tree from the root, nc children): a rank's entry
 * counts nc readies and, below the root, the data; it sends its ready
 * to its parent at once and hangs its puts to the children at nc (+1
 * below the root: the data is in).
 *
 * Allreduce (binomial tree from rank 0): a rank's entry is two halves,
 * the sum so far (its operand at first) and the result.  It counts the
 * parent's ready, nc atomics from the children into the first half and
 * the parent's result into the second.  A rank sends its readies to its
 * children at once, hangs its atomic to the parent at 1 + nc (the
 * parent's entry is there and the subtree's sum is in: the result cannot
 * come before our own atomic has gone) and its result puts to the
 * children at nc + 2 (rank 0: at nc, from the first half).
 *
 * At most TC_LIVE of these calls are in flight per process (each holds
 * a slot and an entry; a node has 128 counters): the next
 * one waits inside the call until the oldest completes, the one place
 * these calls are not local.  The decision to trigger depends only on
 * the arguments, which every rank gives alike, never on resources.
 */
#include <stdlib.h>
#include <string.h>
#include "nbc.h"
#include "proto.h"

/* A call's counters, MD and buffer, kept for the next call when it is
 * done (a pool of at most TC_LIVE): the counters are never reset, a
 * call counts from where the last one left them (base). */
struct slot {
    struct slot *next;          /* in the pool */
    char *buf;                  /* TC_BUF bytes under the ME and MD */
    ptl_handle_ct_t ct, mdct;   /* the entry's arrivals, our ACKs */
    ptl_handle_md_t md;
    bool ct_made, mdct_made, md_made;
    ptl_size_t ct_base, md_base;    /* their counts when this use began */
};

struct tcoll {
    struct slot *sl;
    char *buf;                  /* sl->buf */
    size_t len;                 /* bytes of data */
    size_t res;                 /* where the result lies in buf */
    ptl_handle_ct_t ct, mdct;   /* sl's */
    ptl_handle_md_t md;
    ptl_handle_me_t me;
    bool me_made, failed, done;
    ptl_size_t want, acks;      /* arrivals and ACKs of this call */
    void *ubuf;                 /* the result goes here (NULL: root bcast) */
    int count;
    MPI_Datatype dt;
};

#define TC_BUF 4096             /* >= TC_BCAST_MAX, 2 * TC_RED_MAX */

static struct slot *pool;
static int live;                /* calls in flight in this process */
static int started;             /* MPIX_Tcoll_count */

int MPIX_Tcoll_count(void) { return started; }

/* ---- which calls ---- */

bool tcoll_bcast_ok(MPI_Comm c, int count, MPI_Datatype dt)
{
    size_t len = (size_t)count * (size_t)dt->size;

    return !c->inter && c->size > 1 && len > 0 && len <= TC_BCAST_MAX;
}

bool tcoll_allreduce_ok(MPI_Comm c, int count, MPI_Datatype dt, MPI_Op op)
{
    size_t len = (size_t)count * (size_t)dt->size;
    int pt = ptl_type_of(dt->base), po = ptl_op_of(op);
    bool integer = pt >= 0 && pt <= PTL_UINT64_T;

    if (c->inter || c->size < 2 || len == 0 || len > TC_RED_MAX || pt < 0)
        return false;
    switch (po) {
    case PTL_SUM: case PTL_MIN: case PTL_MAX: case PTL_PROD:
        return true;
    case PTL_BAND: case PTL_BOR: case PTL_BXOR:
    case PTL_LAND: case PTL_LOR: case PTL_LXOR:
        return integer;
    default:
        return false;
    }
}

/* ---- the Portals objects of one call ---- */

static void slot_free(struct slot *sl)
{
    if (sl->md_made)
        PtlMDRelease(sl->md);
    if (sl->ct_made)
        PtlCTFree(sl->ct);
    if (sl->mdct_made)
        PtlCTFree(sl->mdct);
    free(sl->buf);
    free(sl);
}

/* A slot from the pool, or a new one (two counters, an MD). */
static int slot_get(struct slot **out)
{
    struct slot *sl = pool;
    ptl_md_t d = { 0 };

    if (sl != NULL) {
        pool = sl->next;
        *out = sl;
        return MPI_SUCCESS;
    }
    if ((*out = sl = calloc(1, sizeof(*sl))) == NULL)
        return MPI_ERR_NO_MEM;
    if ((sl->buf = calloc(1, TC_BUF)) == NULL)
        return MPI_ERR_NO_MEM;
    if (PtlCTAlloc(job.ni, &sl->ct) != PTL_OK)
        return ERRC_NO_CTS;
    sl->ct_made = true;
    if (PtlCTAlloc(job.ni, &sl->mdct) != PTL_OK)
        return ERRC_NO_CTS;
    sl->mdct_made = true;
    d.start = sl->buf;
    d.length = TC_BUF;
    d.options = PTL_MD_EVENT_CT_ACK | PTL_MD_EVENT_SUCCESS_DISABLE |
                PTL_MD_EVENT_SEND_DISABLE;
    d.eq_handle = PTL_EQ_NONE;
    d.ct_handle = sl->mdct;
    if (PtlMDBind(job.ni, &d, &sl->md) != PTL_OK)
        return ERRC_NO_CTS;
    sl->md_made = true;
    return MPI_SUCCESS;
}

/* The call is over: its slot goes back to the pool with the counts it
 * reached, unless the call failed or never completed (an operation of
 * it may still be hung on the counter): then it is freed. */
static void tc_release(struct tcoll *t, bool complete)
{
    struct slot *sl = t->sl;

    if (t->me_made)
        PtlMEUnlink(t->me);
    if (sl != NULL && complete && !t->failed) {
        sl->ct_base += t->want;
        sl->md_base += t->acks;
        sl->next = pool;
        pool = sl;
    } else if (sl != NULL) {
        slot_free(sl);
    }
    free(t);
    live--;
}

/* The call's state and its slot. */
static int tc_make(struct tcoll **out)
{
    struct tcoll *t = calloc(1, sizeof(*t));
    int rc;

    if (t == NULL)
        return MPI_ERR_NO_MEM;
    live++;
    *out = t;
    if ((rc = slot_get(&t->sl)) != MPI_SUCCESS)
        return rc;
    t->buf = t->sl->buf;
    t->ct = t->sl->ct;
    t->mdct = t->sl->mdct;
    t->md = t->sl->md;
    return MPI_SUCCESS;
}

/* The entry over the whole buffer, counting arrivals and the readies
 * that came before it. */
static int tc_append(struct tcoll *t, MPI_Comm c, uint32_t seq, size_t bytes)
{
    ptl_me_t me = me_make(t->buf, bytes, PTL_ME_OP_PUT | PTL_ME_NO_TRUNCATE |
                          PTL_ME_EVENT_CT_COMM | PTL_ME_EVENT_CT_OVERFLOW |
                          PTL_ME_EVENT_COMM_DISABLE |
                          PTL_ME_EVENT_OVER_DISABLE |
                          PTL_ME_EVENT_LINK_DISABLE |
                          PTL_ME_EVENT_UNLINK_DISABLE, PTL_RANK_ANY,
                          TC_BITS(c->ctx, seq), 0);
    int rc;

    me.ct_handle = t->ct;
    rc = entry_rc(PtlMEAppend(job.ni, PT_ONE, &me, PTL_PRIORITY_LIST, NULL,
                              &t->me), "PtlMEAppend (triggered collective)");
    t->me_made = rc == MPI_SUCCESS;
    return rc;
}

static ptl_process_t id_of(MPI_Comm c, int rank)
{
    return rank_id(c->local->world[rank]);
}

/* A zero-length put (ready) or a put of len bytes at off, now or when
 * the entry's counter reaches at (at 0: now).  Portals' message slots
 * all in use: progress and try again. */
static void tc_put(struct tcoll *t, MPI_Comm c, int to, uint32_t seq,
                   size_t off, size_t len, size_t roff, ptl_size_t at)
{
    int rc;

    do {
        if (at == 0)
            rc = PtlPut(t->md, off, len, PTL_ACK_REQ, id_of(c, to), PT_ONE,
                        TC_BITS(c->ctx, seq), roff, NULL, 0);
        else
            rc = PtlTriggeredPut(t->md, off, len, PTL_ACK_REQ, id_of(c, to),
                                 PT_ONE, TC_BITS(c->ctx, seq), roff, NULL, 0,
                                 t->ct, t->sl->ct_base + at);
        if (rc == PTL_NO_SPACE)
            proto_progress(false);
    } while (rc == PTL_NO_SPACE);
    check(rc, "PtlPut (triggered collective)");
    t->acks++;
}

/* ---- the trees ---- */

/* Binomial tree over virtual ranks vr = rank - root: the parent clears
 * vr's lowest set bit; the children add each lower power of two. */
static int tree_parent(int vr)
{
    return vr & (vr - 1);
}

static int tree_children(int vr, int n, int *kids)
{
    int nc = 0, top = vr & -vr;

    if (vr == 0)                /* the root: every power of two below n */
        for (top = 1; top < n; top <<= 1)
            ;
    for (int m = top >> 1; m > 0; m >>= 1)
        if (vr + m < n)
            kids[nc++] = vr + m;
    return nc;
}

static void bcast_tree(struct tcoll *t, MPI_Comm c, uint32_t seq, int root)
{
    int n = c->size, vr = (c->rank - root + n) % n, kids[32];
    int nc = tree_children(vr, n, kids);
    ptl_size_t at = (ptl_size_t)nc + (vr ? 1 : 0);

    for (int i = 0; i < nc; i++)
        tc_put(t, c, (kids[i] + root) % n, seq, 0, t->len, 0, at);
    t->want = at;
}

static int allreduce_tree(struct tcoll *t, MPI_Comm c, uint32_t seq,
                          MPI_Datatype dt, MPI_Op op)
{
    int n = c->size, vr = c->rank, kids[32], rc;
    int nc = tree_children(vr, n, kids);
    ptl_size_t done = (ptl_size_t)nc + (vr ? 2 : 0);

    t->res = vr ? t->len : 0;
    if (vr) {
        do {
            rc = PtlTriggeredAtomic(t->md, 0, t->len, PTL_ACK_REQ,
                                    id_of(c, tree_parent(vr)), PT_ONE,
                                    TC_BITS(c->ctx, seq), 0, NULL, 0,
                                    (ptl_op_t)ptl_op_of(op),
                                    (ptl_datatype_t)ptl_type_of(dt->base),
                                    t->ct, t->sl->ct_base + nc + 1);
            if (rc == PTL_NO_SPACE)
                proto_progress(false);
        } while (rc == PTL_NO_SPACE);
        check(rc, "PtlTriggeredAtomic (allreduce)");
        t->acks++;
    }
    for (int i = 0; i < nc; i++)
        tc_put(t, c, kids[i], seq, t->res, t->len, t->len, done);
    if ((rc = tc_append(t, c, seq, 2 * t->len)) != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < nc; i++)        /* our first half is ready */
        tc_put(t, c, kids[i], seq, 0, 0, 0, 0);
    t->want = done;
    return MPI_SUCCESS;
}

/* ---- the calls ---- */

/* At most TC_LIVE in flight: wait for the oldest to complete. */
static void room(void)
{
    while (live >= TC_LIVE)
        proto_progress(true);
}

static void tc_finish(struct nbc *s)
{
    struct tcoll *t = s->tc;

    if (t->ubuf != NULL)
        dt_unpack(t->buf + t->res, t->len, t->ubuf, t->count, t->dt);
}

static struct nbc *tc_nbc(MPI_Comm c, uint32_t *seq)
{
    struct nbc *s;

    room();
    *seq = c->nbc_seq;
    if ((s = nbc_new(c)) != NULL)
        s->done = tc_finish;
    return s;
}

int tcoll_ibcast(void *buf, int count, MPI_Datatype dt, int root,
                 MPI_Comm c, struct nbc **out)
{
    uint32_t seq;
    struct nbc *s = tc_nbc(c, &seq);
    struct tcoll *t;
    int rc, n = c->size, vr = (c->rank - root + n) % n;

    if ((*out = s) == NULL)
        return MPI_ERR_NO_MEM;
    rc = tc_make(&s->tc);
    if ((t = s->tc) != NULL)
        t->len = (size_t)count * (size_t)dt->size;
    if (rc != MPI_SUCCESS)
        return rc;
    if (vr == 0)
        dt_pack(buf, count, dt, t->buf);
    else
        t->ubuf = buf, t->count = count, t->dt = dt;
    bcast_tree(t, c, seq, root);
    if ((rc = tc_append(t, c, seq, t->len)) != MPI_SUCCESS)
        return rc;
    if (vr != 0)
        tc_put(t, c, (tree_parent(vr) + root) % n, seq, 0, 0, 0, 0);
    started++;
    return MPI_SUCCESS;
}

int tcoll_iallreduce(const void *sbuf, void *rbuf, int count,
                     MPI_Datatype dt, MPI_Op op, MPI_Comm c,
                     struct nbc **out)
{
    uint32_t seq;
    struct nbc *s = tc_nbc(c, &seq);
    struct tcoll *t;
    size_t len = (size_t)count * (size_t)dt->size;
    int rc;

    if ((*out = s) == NULL)
        return MPI_ERR_NO_MEM;
    rc = tc_make(&s->tc);
    if ((t = s->tc) != NULL)
        t->len = len;
    if (rc != MPI_SUCCESS)
        return rc;
    dt_pack(sbuf == MPI_IN_PLACE ? rbuf : sbuf, count, dt, t->buf);
    t->ubuf = rbuf, t->count = count, t->dt = dt;
    if ((rc = allreduce_tree(t, c, seq, dt, op)) != MPI_SUCCESS)
        return rc;
    started++;
    return MPI_SUCCESS;
}

/* Every arrival in and every ACK back?  A failed ACK (a peer gone) ends
 * it with an error rather than never. */
bool tcoll_done(struct nbc *s)
{
    struct tcoll *t = s->tc;
    ptl_ct_event_t a, b;

    check(PtlCTGet(t->ct, &a), "PtlCTGet (triggered collective)");
    check(PtlCTGet(t->mdct, &b), "PtlCTGet (triggered collective)");
    if (b.failure != 0 || a.failure != 0) {
        s->req->status.MPI_ERROR = MPI_ERR_OTHER;
        t->failed = true;
        return true;
    }
    if (a.success < t->sl->ct_base + t->want ||
        b.success < t->sl->md_base + t->acks)
        return false;
    t->done = true;
    return true;
}

/* Sleep until its counters move (or 1 ms). */
void tcoll_wait(struct nbc *s)
{
    struct tcoll *t = s->tc;
    ptl_ct_event_t a, got;
    ptl_size_t test = t->sl->ct_base + t->want;
    ptl_handle_ct_t ct = t->ct;
    unsigned which;

    check(PtlCTGet(t->ct, &a), "PtlCTGet (triggered collective)");
    if (a.success >= test) {
        ct = t->mdct;
        test = t->sl->md_base + t->acks;
    }
    PtlCTPoll(&ct, &test, 1, 1, &got, &which);
}

void tcoll_free(struct tcoll *t)
{
    if (t != NULL)
        tc_release(t, t->done);
}
