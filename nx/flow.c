/* SPDX-License-Identifier: MIT */
/*
 * flow.c: recovery when our data portal runs out of room for unexpected
 * messages (no block left, no unexpected-header slot, or a full event
 * queue).  The portal is created with PTL_PT_FLOWCTRL, so Portals then
 * disables it and refuses every message (the sender's ACK says
 * PTL_NI_PT_DISABLED) instead of dropping one.  Nothing may be lost or
 * reordered, so re-enabling is a handshake:
 *
 *   target (disabled)                    each other node (a sender)
 *   PT_DISABLED event
 *   DISABLED(e) to every node  ------>   pause: issue nothing more to it;
 *                                        once every Put to it has its ACK
 *                               <------  READY(e)
 *   all READY: make room (grow the
 *   buffer if no block is free),
 *   PtlPTEnable, RESUME(e)     ------>   resend the refused Puts first, in
 *                                        their order, then the queue
 *
 * Why it is enough: between two nodes Portals delivers in order, and a
 * disabled portal refuses everything after the first refusal, so the
 * refused Puts of a sender are the tail of what it sent; the portal is
 * enabled only when no sender has anything in flight, and each resends
 * that tail before anything newer.  A node that exits says BYE and counts
 * as ready from then on.
 */
#include <stdlib.h>

#include "nx_internal.h"

static int ctl_put(int to, ptl_hdr_data_t hdr)
{
    ptl_process_t p = { .rank = (ptl_rank_t)to };
    int rc = PtlPut(nx.ctl_md, 0, 0, PTL_NO_ACK_REQ, p, NX_PT_CTL, 0, 0,
                    NULL, hdr);

    if (rc != PTL_OK && rc != PTL_NO_SPACE)
        nx_fatal("NX: node %d: cannot send a control message to node %d "
                 "(Portals error %d)", nx.me, to, rc);
    return rc;
}

/* Control messages go out in order; one Portals has no message slot for
 * (PTL_NO_SPACE) waits, with those after it, for nx_ctl_flush. */
void nx_ctl_send(int to, enum nx_ctl op, uint32_t epoch)
{
    ptl_hdr_data_t hdr = (ptl_hdr_data_t)op << 32 | epoch;
    struct nx_ctlmsg *c;

    if (nx.ctl_head == NULL && ctl_put(to, hdr) == PTL_OK)
        return;
    if ((c = malloc(sizeof(*c))) == NULL)
        nx_fatal("NX: node %d: out of memory", nx.me);
    *c = (struct nx_ctlmsg){ .to = to, .hdr = hdr };
    if (nx.ctl_tail == NULL)
        nx.ctl_head = c;
    else
        nx.ctl_tail->next = c;
    nx.ctl_tail = c;
    nx.starved = 1;
}

void nx_ctl_flush(void)
{
    struct nx_ctlmsg *c;

    while ((c = nx.ctl_head) != NULL) {
        if (ctl_put(c->to, c->hdr) != PTL_OK) {
            nx.starved = 1;
            return;
        }
        nx.ctl_head = c->next;
        if (nx.ctl_head == NULL)
            nx.ctl_tail = NULL;
        free(c);
    }
}

/* ---- as the target ---- */

void nx_flow_disabled(void)
{
    if (nx.fc_active)
        return;
    nx.fc_active = 1;
    nx.fc_epoch++;
    nx.fc_waiting = 0;
    nx.stats.recoveries++;
    for (int r = 0; r < nx.n; r++) {
        if (r == nx.me || nx.peers[r].gone)
            continue;
        nx.peers[r].readied = 0;
        nx.fc_waiting++;
        nx_ctl_send(r, NX_CTL_DISABLED, nx.fc_epoch);
    }
}

static void count_ready(int from)
{
    if (nx.fc_active && !nx.peers[from].readied) {
        nx.peers[from].readied = 1;
        nx.fc_waiting--;
    }
}

/* Called after each drain of the event queues (so the target queue is
 * empty): once every node is READY, enable and tell them. */
void nx_flow_poll(void)
{
    if (!nx.fc_active || nx.fc_waiting > 0)
        return;
    /* With no block linked, the first unexpected message would disable
     * the portal again, and a receive waiting for a message queued behind
     * it would wait forever: grow the buffer (up to NX_BUFFER_MAX). */
    if (nx.blocks_linked == 0 && nx_block_add() == 0)
        nx.stats.blocks_added++;
    if (PtlPTEnable(nx.job.ni, NX_PT_DATA) != PTL_OK)
        nx_fatal("NX: node %d: PtlPTEnable failed", nx.me);
    nx.fc_active = 0;
    for (int r = 0; r < nx.n; r++)
        if (r != nx.me && !nx.peers[r].gone)
            nx_ctl_send(r, NX_CTL_RESUME, nx.fc_epoch);
}

/* ---- as a sender ---- */

void nx_flow_nacked(struct nx_leg *leg)
{
    struct nx_peer *p = &nx.peers[leg->dst];

    nx.stats.nacks++;
    p->paused = 1;
    leg->next = NULL;
    if (p->nack_tail == NULL)
        p->nack_head = leg;
    else
        p->nack_tail->next = leg;
    p->nack_tail = leg;
}

void nx_flow_try_ready(int dst)
{
    struct nx_peer *p = &nx.peers[dst];

    if (p->ready_owed && p->inflight == 0) {
        p->ready_owed = 0;
        nx_ctl_send(dst, NX_CTL_READY, p->ready_epoch);
    }
}

static void resume(int from)
{
    struct nx_peer *p = &nx.peers[from];

    p->paused = 0;
    if (p->nack_head != NULL) {
        p->nack_tail->next = p->q_head;
        p->q_head = p->nack_head;
        if (p->q_tail == NULL)
            p->q_tail = p->nack_tail;
        p->nack_head = p->nack_tail = NULL;
    }
    nx_pump(from);
}

void nx_flow_ctl(const ptl_event_t *ev)
{
    int from = (int)ev->initiator.rank;
    enum nx_ctl op = (enum nx_ctl)(ev->hdr_data >> 32);
    uint32_t epoch = (uint32_t)ev->hdr_data;
    struct nx_peer *p = &nx.peers[from];

    switch (op) {
    case NX_CTL_DISABLED:
        p->paused = 1;
        p->ready_owed = 1;
        p->ready_epoch = epoch;
        nx_flow_try_ready(from);
        break;
    case NX_CTL_READY:
        if (epoch == nx.fc_epoch)
            count_ready(from);
        break;
    case NX_CTL_RESUME:
        resume(from);
        break;
    case NX_CTL_FIN:
        nx_on_fin(from, epoch);
        break;
    case NX_CTL_BYE:
        p->gone = 1;
        count_ready(from);
        break;
    default:
        nx_fatal("NX: bad control message %d from node %d", op, from);
    }
}

/* At exit: we send nothing more; nobody should wait for our READY.  Not
 * to a node that said BYE itself: it may be gone already, and a frame
 * nobody acknowledges holds our PtlNIFini until the peer is given up
 * (on a node, seconds in which its PCT cannot answer yod). */
void nx_flow_bye(void)
{
    for (int r = 0; r < nx.n; r++)
        if (r != nx.me && !nx.peers[r].gone)
            nx_ctl_send(r, NX_CTL_BYE, 0);
}
