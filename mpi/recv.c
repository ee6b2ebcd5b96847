/* SPDX-License-Identifier: MIT */
/*
 * recv.c: the receiving side of the protocol (proto.c describes it):
 * posting receives, messages that land in place or arrived before their
 * receive, fetching long and synchronous messages (and forgetting those
 * whose sender cancelled them), messages to oneself, probe and cancel.
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"
#include "proto.h"
#include "shm.h"

struct probe {
    int kind;                   /* UP_PROBE */
    bool done, found;
    ptl_event_t ev;
};

MPI_Request posted;             /* receives with an ME, in post order */

/* Eager messages copied out of an overflow block: those that arrived
 * before their receive (the benchmarks report it beside their times). */
static int copied_out;
int MPIX_Unexpected_count(void) { return copied_out; }

/* The length of the message an arrival event announces: a long one's
 * header comes without its data. */
size_t proto_msg_len(const ptl_event_t *ev)
{
    return (ev->match_bits & MB_LONG) ? HLEN(ev->hdr_data)
                                      : (size_t)ev->rlength;
}

/* A message a receive takes: counted (tool.c). */
static void got(size_t len, bool unexpected)
{
    pvc.received++;
    pvc.received_bytes += len;
    if (unexpected)
        pvc.unexp_out++;
}

void fill_status(MPI_Request r, uint64_t bits, size_t got, size_t sent)
{
    r->status.MPI_SOURCE = MB_GETSRC(bits);
    r->status.MPI_TAG = MB_GETTAG(bits);
    r->status.mpi_bytes = got;
    r->status.MPI_ERROR = sent > got ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

static void recv_bits(MPI_Request r)
{
    r->bits = MB_CTX(r->ctx) |
              (r->peer == MPI_ANY_SOURCE ? 0 : MB_SRC(r->peer)) |
              (r->tag == MPI_ANY_TAG ? 0 : MB_TAG(r->tag));
    r->ignore = MB_LONG | (r->peer == MPI_ANY_SOURCE ? MB_SRCMASK : 0) |
                (r->tag == MPI_ANY_TAG ? MB_TAGMASK : 0);
}

static int post(MPI_Request r);
static void forget_cancelled(MPI_Request r);

/* Fetch a long or synchronous message from the sender's READ entry.
 * When the REPLY is in, a FIN tells the sender its buffer is free: its
 * own GET event comes when the request arrives, before the reply data
 * has left the buffer.  A single-copy one (H_SHM) is copied from the
 * sender's memory at once (shm.c), the put's remote offset naming it. */
static void get_long(MPI_Request r, int world, uint64_t hdr, uint64_t roff)
{
    if (hdr & H_SHM) {
        if (!shm_recv_take(r, world, HKEY(hdr), roff))
            forget_cancelled(r);
        return;
    }
    r->wait = 1;
    r->world = world;
    r->key = HKEY(hdr);
    r->fetch = r->status.mpi_bytes;
    get_start(r);
}

/* A receive matched a message held in our own queue. */
static void take_held(MPI_Request r, struct uq *u)
{
    size_t n = u->len < r->len ? u->len : r->len;

    got(u->len, true);
    fill_status(r, u->bits, n, u->len);
    if (u->data == NULL) {
        get_long(r, u->world, u->hdr, u->roff);
        free(u);
        return;
    }
    if (n)
        memcpy(r->data, u->data, n);
    if (u->sreq != NULL)
        req_complete(u->sreq);          /* self synchronous send */
    free(u->data);
    free(u);
    req_complete(r);
}

/* Match r against the held queue, else append its ME.  No events are
 * handled here, so it may run inside event handling. */
static int post(MPI_Request r)
{
    struct uq *u;
    ptl_me_t me;
    int rc;

    recv_bits(r);
    if ((u = uq_find(r->bits, r->ignore, NULL, true)) != NULL) {
        take_held(r, u);
        return MPI_SUCCESS;
    }
    me = me_make(r->data, r->len, PTL_ME_OP_PUT | ME_ONCE, PTL_RANK_ANY,
                 r->bits, r->ignore);
    rc = entry_rc(PtlMEAppend(job.ni, PT_DATA, &me, PTL_PRIORITY_LIST, r,
                              &r->me), "PtlMEAppend (receive)");
    if (rc != MPI_SUCCESS)
        return rc;
    r->me_linked = true;
    list_add(&posted, r);
    return MPI_SUCCESS;
}

int proto_recv(MPI_Request r)
{
    int rc = post(r);

    /* If an unexpected header satisfied it at once, the event is queued:
     * handle it now so r->me is never used after the entry is gone. */
    if (rc == MPI_SUCCESS && r->me_linked)
        drain();
    return rc;
}

void on_put(MPI_Request r, const ptl_event_t *ev)
{
    r->me_linked = false;
    list_del(&posted, r);
    if (ev->ni_fail_type != PTL_NI_OK)
        mpi_fatal("receive failed (Portals ni_fail %d)",
                  (int)ev->ni_fail_type);
    got(proto_msg_len(ev), ev->type == PTL_EVENT_PUT_OVERFLOW);
    if (ev->type == PTL_EVENT_PUT &&    /* landed in place, long or not */
        (!(ev->match_bits & MB_LONG) || (ev->hdr_data & H_DATA))) {
        fill_status(r, ev->match_bits, ev->mlength, proto_msg_len(ev));
        req_complete(r);                /* a long one's ACK tells its sender */
        return;
    }
    if (ev->match_bits & MB_LONG) {     /* only its header came, or stayed */
        size_t sent = proto_msg_len(ev);
        fill_status(r, ev->match_bits, sent < r->len ? sent : r->len, sent);
        get_long(r, (int)ev->initiator.rank, ev->hdr_data,
                 ev->remote_offset);
        return;
    }
    /* PUT_OVERFLOW: it had arrived before this receive was posted */
    copied_out++;
    size_t n = ev->mlength < r->len ? ev->mlength : r->len;
    fill_status(r, ev->match_bits, n, ev->rlength);
    if (n)
        memcpy(r->data, ev->start, n);
    req_complete(r);
}

/* The sender withdrew the message we matched (MPI_Cancel unlinked its
 * READ entry): as if it had never come, the receive matches the next
 * one.  It goes behind receives posted after it; only a message that
 * both would match could tell. */
static void forget_cancelled(MPI_Request r)
{
    memset(&r->status, 0, sizeof(r->status));
    if (post(r) != MPI_SUCCESS)
        mpi_fatal("a receive whose message was cancelled cannot be posted "
                  "again: %s", "out of Portals match entries");
}

void on_reply(MPI_Request r, const ptl_event_t *ev)
{
    fc_got();
    if (ev->ni_fail_type == PTL_NI_DROPPED) {
        forget_cancelled(r);
        return;
    }
    if (ev->ni_fail_type != PTL_NI_OK)
        mpi_fatal_peer(r->world, "fetching a long message from rank %d "
                       "failed (ni_fail %d)", r->world,
                       (int)ev->ni_fail_type);
    ctrl_send(r->world, CTRL(C_FIN, r->key));
    if (--r->wait == 0)
        req_complete(r);
}

/* ---- messages to self ---- */

void self_send(MPI_Request r)
{
    struct uq *u;

    drain();    /* posted receives already matched must leave the list */
    for (MPI_Request q = posted; q != NULL; q = q->next) {
        if (((q->bits ^ r->bits) & ~q->ignore) != 0)
            continue;
        if (PtlMEUnlink(q->me) != PTL_OK)
            continue;           /* a remote message is landing in it */
        q->me_linked = false;
        list_del(&posted, q);
        got(r->len, false);
        size_t n = r->len < q->len ? r->len : q->len;
        fill_status(q, r->bits, n, r->len);
        if (n)
            memcpy(q->data, r->data, n);
        req_complete(q);
        req_complete(r);
        return;
    }
    if ((u = calloc(1, sizeof(*u))) == NULL ||
        (r->len && (u->data = malloc(r->len)) == NULL))
        mpi_fatal("out of memory holding a %zu-byte message to self", r->len);
    if (u->data == NULL)
        u->data = malloc(1);
    u->bits = r->bits & ~MB_LONG;
    u->len = r->len;
    u->world = job.rank;
    if (r->len)
        memcpy(u->data, r->data, r->len);
    uq_push(u);
    pvc.unexp_in++;             /* waits for its receive */
    if (r->mode == M_SYNC)
        u->sreq = r;            /* completes when a receive takes it */
    else
        req_complete(r);
}

/* ---- probe and cancel ---- */

void on_probe(struct tagged *t, const ptl_event_t *ev)
{
    struct probe *p = (struct probe *)t;

    p->done = true;
    p->found = ev->ni_fail_type == PTL_NI_OK;
    p->ev = *ev;
}

int proto_iprobe(uint32_t ctx, int src, int tag, MPI_Comm comm, int *flag,
                 MPI_Status *st)
{
    struct mpi_req_s q = { 0 };
    struct probe pr = { .kind = UP_PROBE };
    ptl_me_t me;
    struct uq *u;
    int rc;

    (void)comm;
    q.ctx = ctx;
    q.peer = src;
    q.tag = tag;
    recv_bits(&q);
    drain();
    *flag = 0;
    if ((u = uq_find(q.bits, q.ignore, NULL, false)) != NULL) {
        fill_status(&q, u->bits, u->len, u->len);
    } else {
        /* USE_ONCE: exactly one SEARCH event, the first match (or none);
         * without it every match is an event, all aimed at pr. */
        me = me_make(NULL, 0, PTL_ME_OP_PUT | PTL_ME_USE_ONCE, PTL_RANK_ANY,
                     q.bits, q.ignore);
        /* PTL_NO_SPACE: the EQ had no room for the answer and the search
         * did nothing; take events and ask again. */
        while ((rc = PtlMESearch(job.ni, PT_DATA, &me, PTL_SEARCH_ONLY,
                                 &pr)) == PTL_NO_SPACE)
            proto_progress(false);
        check(rc, "PtlMESearch (probe)");
        /* The search's event is queued at once; the pass also reads the
         * link, so a loop of probes sees new arrivals (proto_progress). */
        while (!pr.done)
            proto_progress(false);
        if (!pr.found)
            return MPI_SUCCESS;
        size_t len = proto_msg_len(&pr.ev);
        fill_status(&q, pr.ev.match_bits, len, len);
    }
    *flag = 1;
    if (st != MPI_STATUS_IGNORE)
        *st = q.status;
    return MPI_SUCCESS;
}

/* ---- matched probes: a message taken off the queues for one receive ---- */

struct msearch {
    struct hook h;              /* UP_HOOK */
    bool done;
    struct uq *u;               /* what it took, or NULL */
};

static void on_msearch(struct hook *h, const ptl_event_t *ev)
{
    struct msearch *m = (struct msearch *)h;

    m->done = true;
    if (ev->type == PTL_EVENT_PUT_OVERFLOW)
        m->u = uq_from_event(ev);
}

/* The first message matching (ctx, src, tag), taken off the library's
 * queue or Portals' unexpected list (an eager one's data copied out of
 * its overflow block, which may be reused once its header is gone), so
 * no other receive can match it; NULL if none has come. */
struct uq *proto_match(uint32_t ctx, int src, int tag)
{
    struct mpi_req_s q = { 0 };
    struct msearch m = { { UP_HOOK, on_msearch }, false, NULL };
    struct uq *u;
    ptl_me_t me;
    int rc;

    q.ctx = ctx;
    q.peer = src;
    q.tag = tag;
    recv_bits(&q);
    drain();
    if ((u = uq_find(q.bits, q.ignore, NULL, true)) != NULL)
        return u;
    /* USE_ONCE: only the first match is taken (one overflow event), or
     * a SEARCH event says there was none */
    me = me_make(NULL, 0, PTL_ME_OP_PUT | PTL_ME_USE_ONCE, PTL_RANK_ANY,
                 q.bits, q.ignore);
    while ((rc = PtlMESearch(job.ni, PT_DATA, &me, PTL_SEARCH_DELETE,
                             &m.h)) == PTL_NO_SPACE)
        proto_progress(false);
    check(rc, "PtlMESearch (matched probe)");
    while (!m.done)
        proto_progress(false);
    return m.u;
}

/* A receive of the message a matched probe took: as if it had just
 * matched it. */
void proto_recv_held(MPI_Request r, struct uq *u)
{
    r->state = RS_ACTIVE;
    take_held(r, u);
}

int posted_count(void)
{
    int n = 0;

    for (MPI_Request q = posted; q != NULL; q = q->next)
        n++;
    return n;
}

bool proto_cancel_recv(MPI_Request r)
{
    drain();
    if (!r->me_linked || PtlMEUnlink(r->me) != PTL_OK)
        return false;
    r->me_linked = false;
    list_del(&posted, r);
    return true;
}
