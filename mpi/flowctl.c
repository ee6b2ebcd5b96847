/* SPDX-License-Identifier: MIT */
/*
 * flowctl.c: holding sends back, in order.
 *
 * Initiator limits: PTL_NO_SPACE means every Portals message slot is in
 * flight; a put, get or control message that cannot start now waits (in
 * order) and is retried from progress ("stalled").  Data puts and gets
 * also stall at ops_max in flight, a quarter of the NI's slots (taken as
 * its MD count: both are 256 on a node, 1024 on Linux): a target needs a
 * slot for every ACK or REPLY, and two processes whose slots were all
 * taken by operations to each other could answer neither (mpi/README.md,
 * "For the Portals core").  A quarter leaves room for libnx's share.
 *
 * Flow control (proto.c's header describes the protocol): the receiver
 * whose DATA portal was disabled drains its unexpected messages into the
 * library's queue and runs PAUSE / PAUSE_ACK / UNPAUSE with every peer;
 * a sender holds refused and new messages for that peer in a queue
 * ordered by a per-peer sequence number and re-sends them on UNPAUSE.
 */
#include <stdlib.h>
#include <string.h>
#include "proto.h"

static struct tagged drain_tag = { UP_DRAIN };
static struct ctrlq *ctrl_head, **ctrl_tail = &ctrl_head;
static MPI_Request get_head;    /* long receives waiting to PtlGet */
static bool stalled;
static int ops_inflight, ops_max = 8;   /* data puts and gets */

void fc_init(void)
{
    if (job.limits.max_mds / 4 > ops_max)
        ops_max = job.limits.max_mds / 4;
}
static struct {
    bool active;                /* our DATA portal is being recovered */
    int acks;
    int recoveries;
} fc;

int MPIX_Flowctl_count(void) { return fc.recoveries; }
bool fc_state(void) { return fc.active; }

/* Long or synchronous messages this rank fetched with PtlGet: those that
 * arrived before their receive (tests/mpi/long.c asserts that one whose
 * receive was posted first is not fetched). */
static int fetches;
int MPIX_Fetch_count(void) { return fetches; }

static bool get_try(MPI_Request r);

/* A peer's queue of held sends, in send order (seq).  Sends are mostly
 * queued in order, so the tail is checked first. */
static void queue_add(struct peer *p, MPI_Request r)
{
    MPI_Request *pp = &p->resend;

    if (p->qtail != NULL && p->qtail->seq < r->seq)
        pp = &p->qtail->qnext;
    while (*pp != NULL && (*pp)->seq < r->seq)
        pp = &(*pp)->qnext;
    r->qnext = *pp;
    *pp = r;
    if (r->qnext == NULL)
        p->qtail = r;
}

static MPI_Request queue_pop(struct peer *p)
{
    MPI_Request r = p->resend;

    if ((p->resend = r->qnext) == NULL)
        p->qtail = NULL;
    r->qnext = NULL;
    return r;
}

struct ctrlq {
    struct ctrlq *next;
    int world;
    uint64_t hdr;
};

static int ctrl_try(int world, uint64_t hdr)
{
    return PtlPut(md, 0, 0, PTL_NO_ACK_REQ, rank_id(world), PT_CTRL, 0, 0,
                  NULL, hdr);
}

void ctrl_send(int world, uint64_t hdr)
{
    struct ctrlq *c;
    int rc = ctrl_head ? PTL_NO_SPACE : ctrl_try(world, hdr);

    if (rc != PTL_NO_SPACE) {
        check(rc, "PtlPut (control)");
        return;
    }
    if ((c = malloc(sizeof(*c))) == NULL)
        mpi_fatal("out of memory queueing a control message");
    c->next = NULL;
    c->world = world;
    c->hdr = hdr;
    *ctrl_tail = c;
    ctrl_tail = &c->next;
    stalled = true;
}

static bool put_try(MPI_Request r)
{
    int rc = ops_inflight >= ops_max ? PTL_NO_SPACE :
             PtlPut(md, ptl_job_md_off(r->data, r->len),
                    (r->bits & MB_LONG) && !(r->hdr & H_DATA) ? 0 : r->len,
                    PTL_ACK_REQ, rank_id(r->world), PT_DATA, r->bits,
                    (uint64_t)(uintptr_t)r->shm, r, r->hdr);

    if (rc == PTL_NO_SPACE)
        return false;
    check(rc, "PtlPut (data)");
    r->put_out = true;
    peers[r->world].inflight++;
    ops_inflight++;
    return true;
}

/* Sends to a peer leave in order: behind a paused peer's or a stalled
 * queue, a message waits its turn. */
void data_put(MPI_Request r)
{
    struct peer *p = &peers[r->world];

    if (p->paused || p->resend != NULL || !put_try(r)) {
        queue_add(p, r);
        if (!p->paused)
            stalled = true;
    }
}

static void flush_peer(int w)
{
    struct peer *p = &peers[w];

    while (!p->paused && p->resend != NULL) {
        if (!put_try(p->resend)) {
            stalled = true;
            return;
        }
        queue_pop(p);
    }
}

static bool get_try(MPI_Request r)
{
    size_t n = r->fetch;
    int rc = ops_inflight >= ops_max ? PTL_NO_SPACE :
             PtlGet(md, ptl_job_md_off(r->data, n), n, rank_id(r->world),
                    PT_READ, r->key, 0, r);

    if (rc == PTL_NO_SPACE)
        return false;
    check(rc, "PtlGet (long message)");
    ops_inflight++;
    fetches++;
    return true;
}

void fc_got(void)
{
    ops_inflight--;
    stalled = true;             /* a held put or get may go now */
}

/* Retry what PTL_NO_SPACE held back, oldest first. */
void unstall(void)
{
    if (!stalled)
        return;
    stalled = false;
    while (ctrl_head != NULL) {
        struct ctrlq *c = ctrl_head;
        int rc = ctrl_try(c->world, c->hdr);
        if (rc == PTL_NO_SPACE) {
            stalled = true;
            return;
        }
        check(rc, "PtlPut (control)");
        if ((ctrl_head = c->next) == NULL)
            ctrl_tail = &ctrl_head;
        free(c);
    }
    while (get_head != NULL) {
        MPI_Request r = get_head;
        if (!get_try(r)) {
            stalled = true;
            return;
        }
        get_head = r->next;
        r->next = NULL;
    }
    for (int w = 0; w < job.size; w++)
        flush_peer(w);
}

static void maybe_pause_ack(int world)
{
    struct peer *p = &peers[world];

    if (p->pause_req && p->inflight == 0) {
        p->pause_req = false;
        ctrl_send(world, CTRL(C_PAUSE_ACK, 0));
    }
}

/* A drained unexpected message moves into our own queue. */
/* An unexpected message's header (and an eager one's data) as the
 * library holds it. */
struct uq *uq_from_event(const ptl_event_t *ev)
{
    struct uq *u = calloc(1, sizeof(*u));

    if (u == NULL)
        mpi_fatal("out of memory draining unexpected messages");
    u->bits = ev->match_bits & ~MB_LONG;
    u->hdr = ev->hdr_data;
    u->roff = ev->remote_offset;
    u->len = proto_msg_len(ev);
    u->world = (int)ev->initiator.rank;
    if (!(ev->match_bits & MB_LONG)) {
        if ((u->data = malloc(ev->mlength ? ev->mlength : 1)) == NULL)
            mpi_fatal("out of memory draining unexpected messages");
        memcpy(u->data, ev->start, ev->mlength);
    }
    return u;
}

void hold_drained(const ptl_event_t *ev)
{
    uq_push(uq_from_event(ev));
}

static void fc_enable(void)
{
    check(PtlPTEnable(job.ni, PT_DATA), "PtlPTEnable");
    fc.active = false;
    for (int w = 0; w < job.size; w++)
        if (w != job.rank)
            ctrl_send(w, CTRL(C_UNPAUSE, 0));
}

void fc_begin(void)
{
    ptl_me_t all = { 0 };

    fc.active = true;
    fc.recoveries++;
    fc.acks = 0;
    all.ct_handle = PTL_CT_NONE;
    all.uid = PTL_UID_ANY;
    all.options = PTL_ME_OP_PUT;
    all.match_id = rank_id(PTL_RANK_ANY);
    all.ignore_bits = ~0ull;
    check(PtlMESearch(job.ni, PT_DATA, &all, PTL_SEARCH_DELETE, &drain_tag),
          "PtlMESearch (drain)");
    for (int w = 0; w < job.size; w++)
        if (w != job.rank)
            ctrl_send(w, CTRL(C_PAUSE, 0));
    if (job.size == 1)
        fc_enable();
}

static void on_unpause(int world)
{
    peers[world].paused = false;
    flush_peer(world);      /* refused and held sends, in order */
}

void get_start(MPI_Request r)
{
    if (get_head != NULL || !get_try(r)) {
        MPI_Request *pp = &get_head;
        while (*pp != NULL)
            pp = &(*pp)->next;
        r->next = NULL;
        *pp = r;
        stalled = true;
    }
}

void fc_acked(int world)
{
    peers[world].inflight--;
    ops_inflight--;
    stalled = true;
    maybe_pause_ack(world);
}

/* A put refused by a disabled portal: held and re-sent on UNPAUSE, unless
 * it was cancelled meanwhile (proto_cancel_send). */
void fc_refused(MPI_Request r)
{
    peers[r->world].inflight--;
    ops_inflight--;
    peers[r->world].paused = true;
    if (!r->cancelled)
        queue_add(&peers[r->world], r);
    maybe_pause_ack(r->world);
}

/* Take r out of its peer's queue of held sends; false if not there. */
bool fc_withdraw(MPI_Request r)
{
    struct peer *p = &peers[r->world];
    MPI_Request prev = NULL;

    for (MPI_Request q = p->resend; q != NULL; prev = q, q = q->qnext) {
        if (q != r)
            continue;
        if (prev == NULL)
            p->resend = r->qnext;
        else
            prev->qnext = r->qnext;
        if (p->qtail == r)
            p->qtail = prev;
        r->qnext = NULL;
        return true;
    }
    return false;
}

void fc_ctrl(int type, int from)
{
    switch (type) {
    case C_PAUSE:
        peers[from].paused = true;
        peers[from].pause_req = true;
        maybe_pause_ack(from);
        return;
    case C_PAUSE_ACK:
        if (++fc.acks == job.size - 1)
            fc_enable();
        return;
    case C_UNPAUSE:
        on_unpause(from);
        return;
    }
}

/* Anything of ours still to be delivered or answered? */
bool fc_busy(void)
{
    if (fc.active || stalled)
        return true;
    for (int w = 0; w < job.size; w++)
        if (peers[w].inflight || peers[w].resend || peers[w].paused)
            return true;
    return false;
}
