/* SPDX-License-Identifier: MIT */
/*
 * progress.c: everything libnx does in the background happens here, when
 * a call waits: drain the three event queues (target side of the data
 * portal; rendezvous Gets and control messages; our own Puts and Gets)
 * and act on each event.
 */
#include <stdio.h>

#include "nx_internal.h"

static void on_target(const ptl_event_t *ev)
{
    struct nx_block *b;

    switch (ev->type) {
    case PTL_EVENT_PUT:
        nx.arrivals++;
        if (ev->ptl_list == PTL_PRIORITY_LIST)
            nx_on_match(ev->user_ptr, ev);    /* landed in a posted buffer */
        break;                          /* overflow: waits for a receive */
    case PTL_EVENT_PUT_OVERFLOW:
        nx_on_match(ev->user_ptr, ev);  /* a new receive found it waiting */
        break;
    case PTL_EVENT_AUTO_UNLINK:
        b = ev->user_ptr;
        b->linked = 0;
        nx.blocks_linked--;
        break;
    case PTL_EVENT_AUTO_FREE:
        nx_block_repost(ev->user_ptr);  /* every message in it received */
        break;
    case PTL_EVENT_SEARCH:
        nx.probe_done = 1;
        nx.probe_found = ev->ni_fail_type == PTL_NI_OK;
        if (nx.probe_found) {
            nx.probe_info.type = (long)(ev->match_bits & NX_MB_TYPE_MASK);
            nx.probe_info.ptype =
                (long)((ev->match_bits >> NX_MB_SPTYPE) & NX_MB_PTYPE_MASK);
            nx.probe_info.node = (long)ev->initiator.rank;
            nx.probe_info.count = (long)(ev->hdr_data & NX_HD_LEN_MASK);
        }
        break;
    case PTL_EVENT_PT_DISABLED:
        nx_flow_disabled();
        break;
    default:
        nx_fatal("NX: unexpected event %d on the data portal", ev->type);
    }
}

static void on_control(const ptl_event_t *ev)
{
    if (ev->type == PTL_EVENT_GET && ev->pt_index == NX_PT_RNDV)
        nx_on_get(ev->user_ptr);
    else if (ev->type == PTL_EVENT_PUT && ev->pt_index == NX_PT_CTL)
        nx_flow_ctl(ev);
    else
        nx_fatal("NX: unexpected event %d on portal %u", ev->type,
                 ev->pt_index);
}

static void on_initiator(const ptl_event_t *ev)
{
    if (ev->type == PTL_EVENT_ACK)
        nx_on_ack(ev->user_ptr, ev);
    else if (ev->type == PTL_EVENT_REPLY)
        nx_on_reply(ev->user_ptr, ev);
    else
        nx_fatal("NX: unexpected initiator event %d", ev->type);
}

/* Handle every event already queued; with wait, first sleep until one
 * comes (at most 100 ms, so callers re-check their own conditions; 1 ms
 * while something waits for Portals resources another library holds,
 * which no event of ours announces). */
void nx_progress(int wait)
{
    ptl_handle_eq_t eqs[3] = { nx.tgt_eq, nx.ctl_eq, nx.ini_eq };
    ptl_event_t ev;
    unsigned which;
    int rc = PtlEQPoll(eqs, 3, wait ? (nx.starved ? 1 : 100) : 0, &ev,
                       &which);

    while (rc == PTL_OK) {
        if (which == 0)
            on_target(&ev);
        else if (which == 1)
            on_control(&ev);
        else
            on_initiator(&ev);
        rc = PtlEQPoll(eqs, 3, 0, &ev, &which);
    }
    if (rc == PTL_EQ_DROPPED)
        nx_fatal("NX: node %d: an event queue overflowed (event lost)",
                 nx.me);
    if (rc != PTL_EQ_EMPTY)
        nx_fatal("NX: node %d: PtlEQPoll failed (%d)", nx.me, rc);
    if (nx.starved) {
        nx.starved = 0;             /* set again if still no room */
        nx_ctl_flush();
        nx_pump_all();
    }
    nx_flow_poll();
}

/* Wait for a request; returns 0 or -1 with its error recorded. */
int nx_wait_req(struct nx_req *r)
{
    while (!r->done)
        nx_progress(1);
    if (r->err)
        return nx_error(r->err, "%s", r->errmsg);
    return 0;
}
