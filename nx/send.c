/* SPDX-License-Identifier: MIT */
/*
 * send.c: a send is one leg per destination (node -1: every other node).
 * A leg is a Put to the destination's data portal, ACK requested:
 *   eager (count <= NX_EAGER): the data goes with the header; done at the
 *     ACK (the ACK, not SEND, because a refused Put must be sent again),
 *     or at once from a copy if count <= NX_COPY;
 *   long: the buffer is exposed first as a use-once entry on the
 *     rendezvous portal (match bits: a cookie, only the destination may
 *     Get it), then the whole message is Put with the long bit, the
 *     cookie and the length.  If a receive was posted, the data lands in
 *     place and the ACK says so (its mlength is the whole length): done,
 *     the entry unlinked.  Else only the header is kept (the overflow
 *     list's zero-length entry for long messages, init.c), the ACK says
 *     0 bytes, and the receiver Gets the data when a receive matches:
 *     done when it says FIN (its Get's REPLY is in; the GET event is not
 *     enough: it comes when the request arrives, and the REPLY is read
 *     out of our buffer after that).  A receive too short for the data
 *     landing in place also says FIN.  Data that finds no receive crosses
 *     the link twice, and a ping-pong that posts its receive only once
 *     its send is done finds none (the target holds the ACK that ends
 *     our send to ride with its answer, which then arrives first): after
 *     a long message came unexpected (its ACK says: overflow list), the
 *     next ones to that peer go header only until NX_DATA_AFTER in a row
 *     found their receive posted (MPI does the same, mpi/send.c).
 * Legs leave through a queue per destination, in order, so flow control
 * (flow.c) can hold them and resend refused ones first: messages between
 * two nodes are never reordered.  At most nx.max_inflight Puts and Gets
 * are out at once (the initiator event queue is sized for that).  Puts
 * go from one MD over the whole address space (nx.all_md), never one per
 * message.  When Portals has no message slot free (PTL_NO_SPACE: another
 * library of the program holds them), the leg stays first in its queue
 * and progress tries again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nx_internal.h"

/* A long leg is listed from its start until its receiver has the data
 * (its FIN, or an ACK for all of it in place): a FIN may be handled before
 * the ACK of the Put it answers (they come through different queues). */
static void fin_list(struct nx_leg *leg)
{
    leg->fin_next = nx.fin_head;
    nx.fin_head = leg;
    leg->listed = 1;
}

static void fin_unlist(struct nx_leg *leg)
{
    struct nx_leg **pp = &nx.fin_head;

    while (*pp != NULL && *pp != leg)
        pp = &(*pp)->fin_next;
    if (*pp == leg)
        *pp = leg->fin_next;
    leg->listed = 0;
}

static void leg_finish(struct nx_leg *leg, int err, const char *why)
{
    struct nx_req *r = leg->req;

    if (leg->done)
        return;
    leg->done = 1;
    if (leg->listed)
        fin_unlist(leg);
    /* Still exposed after an error, or when the data landed in place
     * (whole, or cut short by the receive: nobody Gets it). */
    if (leg->has_me && PtlMEUnlink(leg->me) == PTL_OK)
        leg->has_me = 0;
    if (err && !r->err) {
        r->err = err;
        snprintf(r->errmsg, sizeof(r->errmsg), "%s", why);
    }
    nx.legs_pending--;
    if (--r->legs_left > 0)
        return;
    r->done = 1;
    if (!r->detached)
        return;
    /* Nobody waits for a copied message: its failure ends the job. */
    if (r->err) {
        nx.err_peer = r->err_peer;
        nx_fatal("NX: node %d: a message could not be delivered: %s",
                 nx.me, r->errmsg);
    }
    free(r->bounce);
    nx_req_free(r);
}

/* Expose a long message's buffer for the destination's Get. */
static int expose(struct nx_leg *leg)
{
    struct nx_req *r = leg->req;
    ptl_me_t me = {
        .start = (void *)r->sbuf, .length = (ptl_size_t)r->count,
        .ct_handle = PTL_CT_NONE, .uid = PTL_UID_ANY,
        .options = PTL_ME_OP_GET | PTL_ME_USE_ONCE |
                   PTL_ME_EVENT_LINK_DISABLE | PTL_ME_EVENT_UNLINK_DISABLE,
        .match_id = { .rank = (ptl_rank_t)leg->dst },
        .match_bits = leg->cookie, .ignore_bits = 0,
    };

    if (PtlMEAppend(nx.job.ni, NX_PT_RNDV, &me, PTL_PRIORITY_LIST, leg,
                    &leg->me) != PTL_OK)
        return -1;
    leg->has_me = 1;
    return 0;
}

/* Returns 0 when the Put is out (or the leg failed), 1 when Portals has
 * no room for it now. */
static int issue(struct nx_leg *leg)
{
    struct nx_req *r = leg->req;
    ptl_process_t to = { .rank = (ptl_rank_t)leg->dst };
    ptl_size_t len = (ptl_size_t)r->count;
    uint64_t hd = (uint64_t)r->count & NX_HD_LEN_MASK, bits = r->bits;
    int rc;

    if (r->rndv) {
        hd |= NX_HD_RNDV | (uint64_t)leg->cookie << NX_HD_COOKIE;
        bits |= NX_MB_LONG;
        leg->with_data = nx.peers[leg->dst].hdr_only == 0;
        if (leg->with_data)
            hd |= NX_HD_DATA;
        else
            len = 0;
    }
    rc = PtlPut(nx.all_md, ptl_job_md_off(r->sbuf, len), len, PTL_ACK_REQ,
                to, NX_PT_DATA, bits, 0, leg, hd);
    if (rc == PTL_NO_SPACE)
        return 1;
    if (rc != PTL_OK) {
        leg_finish(leg, EIO, "PtlPut failed");
        return 0;
    }
    leg->issued = 1;
    nx.peers[leg->dst].inflight++;
    nx.inflight++;
    return 0;
}

/* Issue what the destination's queue holds, while it is not paused and
 * the in-flight limit allows. */
void nx_pump(int dst)
{
    struct nx_peer *p = &nx.peers[dst];
    struct nx_leg *leg;

    while (!p->paused && p->q_head != NULL &&
           nx.inflight < nx.max_inflight) {
        leg = p->q_head;
        if (issue(leg)) {
            nx.starved = 1;         /* stays first; progress retries */
            return;
        }
        p->q_head = leg->next;
        if (p->q_head == NULL)
            p->q_tail = NULL;
        leg->next = NULL;
    }
}

void nx_pump_all(void)
{
    for (int i = 0; i < nx.n && nx.inflight < nx.max_inflight; i++)
        if (nx.peers[i].q_head != NULL)
            nx_pump(i);
    nx_pump_gets();
}

static void enqueue(struct nx_leg *leg)
{
    struct nx_peer *p = &nx.peers[leg->dst];

    if (p->q_tail == NULL)
        p->q_head = leg;
    else
        p->q_tail->next = leg;
    p->q_tail = leg;
}

static int start_leg(struct nx_req *r, struct nx_leg *leg, int dst)
{
    leg->req = r;
    leg->dst = dst;
    leg->cookie = nx.next_cookie++ & NX_HD_COOKIE_MASK;
    nx.legs_pending++;
    if (r->rndv && expose(leg) != 0) {
        leg_finish(leg, ENOMEM, "out of Portals match entries");
        return -1;
    }
    if (r->rndv)
        fin_list(leg);
    enqueue(leg);
    nx_pump(dst);
    return 0;
}

/* A short message is sent from a copy, so the caller's send completes at
 * once (its buffer is free) instead of a round trip later at the ACK: the
 * copy, in a request of libnx's own, lives until every leg is ACKed (a
 * refused Put is resent from it).  Returns that request. */
static struct nx_req *detach(struct nx_req *r)
{
    struct nx_req *d = nx_req_new(NX_REQ_SEND);

    if (d == NULL || (r->count > 0 && (d->bounce = malloc((size_t)r->count))
                                      == NULL)) {
        if (d != NULL)
            nx_req_free(d);
        return NULL;
    }
    if (r->count > 0)
        memcpy(d->bounce, r->sbuf, (size_t)r->count);
    d->sbuf = d->bounce;
    d->count = r->count;
    d->bits = r->bits;
    d->detached = 1;
    r->done = 1;
    return d;
}

/* Start a send to node (or every other node, -1); self sends are copied
 * and matched here (recv.c).  The request completes in progress. */
int nx_send_start(struct nx_req *r, const void *buf, long count, long node,
                  uint64_t bits)
{
    int n = node < 0 ? nx.n - 1 : (node == nx.me ? 0 : 1), k = 0;

    r->sbuf = buf;
    r->count = count;
    r->bits = bits;
    r->rndv = count > nx.eager;
    if (node == nx.me) {
        r->done = 1;
        return nx_self_deliver(bits, buf, count);
    }
    if (n == 0) {                   /* broadcast in a one-node job */
        r->done = 1;
        return 0;
    }
    if (!r->rndv && count <= nx.copy && (r = detach(r)) == NULL)
        return nx_error(ENOMEM, "out of memory for a message copy");
    if ((r->legs = calloc((size_t)n, sizeof(*r->legs))) == NULL)
        return nx_error(ENOMEM, "out of memory");
    r->nlegs = r->legs_left = n;
    for (int d = 0; d < nx.n; d++) {
        if ((node >= 0 && d != node) || (node < 0 && d == nx.me))
            continue;
        start_leg(r, &r->legs[k++], d);
    }
    return 0;
}

/* What a long Put's ACK teaches: whether its receive was posted (the
 * priority list), and whether the data landed whole (nobody Gets it). */
static void long_acked(struct nx_leg *leg, const ptl_event_t *ev)
{
    struct nx_peer *p = &nx.peers[leg->dst];

    if (ev->ptl_list == PTL_OVERFLOW_LIST)
        p->hdr_only = NX_DATA_AFTER;
    else if (p->hdr_only > 0)
        p->hdr_only--;
    if (leg->with_data && ev->mlength == (ptl_size_t)leg->req->count)
        leg->got = 1;
}

void nx_on_ack(struct nx_leg *leg, const ptl_event_t *ev)
{
    int dst = leg->dst;

    leg->issued = 0;
    nx.peers[dst].inflight--;
    nx.inflight--;
    if (ev->ni_fail_type == PTL_NI_PT_DISABLED) {
        nx_flow_nacked(leg);
    } else if (ev->ni_fail_type != PTL_NI_OK) {
        char why[96];
        if (ev->ni_fail_type == PTL_NI_UNDELIVERABLE && !leg->req->err)
            leg->req->err_peer = dst + 1;
        snprintf(why, sizeof(why), ev->ni_fail_type == PTL_NI_UNDELIVERABLE
                 ? "node %d unreachable" : "node %d refused the message "
                 "(Portals failure %d)", dst, ev->ni_fail_type);
        leg_finish(leg, EIO, why);
    } else {
        leg->acked = 1;
        if (leg->req->rndv)
            long_acked(leg, ev);
        if (!leg->req->rndv || leg->got)
            leg_finish(leg, 0, NULL);
    }
    nx_flow_try_ready(dst);
    nx_pump_all();
}

void nx_on_get(struct nx_leg *leg)
{
    leg->has_me = 0;                /* use-once: gone; FIN follows */
}

void nx_on_fin(int from, uint32_t cookie)
{
    struct nx_leg **pp = &nx.fin_head, *leg;

    while (*pp != NULL && ((*pp)->dst != from || (*pp)->cookie != cookie))
        pp = &(*pp)->fin_next;
    if ((leg = *pp) == NULL)
        nx_fatal("NX: node %d: FIN from node %d for no message", nx.me, from);
    *pp = leg->fin_next;
    leg->listed = 0;
    leg->got = 1;
    if (leg->acked)
        leg_finish(leg, 0, NULL);
}
