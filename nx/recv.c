/* SPDX-License-Identifier: MIT */
/*
 * recv.c: receives and probes.  A receive is a use-once entry on the
 * priority list of the data portal, matching (type or any, source node or
 * any, source ptype or any, our ptype); Portals does the matching, in
 * arrival order, against messages that already wait in the overflow
 * buffer (PUT_OVERFLOW: copy out of the block) or that come later (PUT:
 * the data landed in place).  A long message found waiting, or sent
 * header only, is a header: we Get the data from the sender (send.c).
 * Receives and probes ignore the long bit.  A message longer than the buffer fills the buffer and
 * fails the receive with EMSGSIZE (NX treats it as an error).
 *
 * Messages a node sends itself never touch the network: they are matched
 * here against the posted receives (in posting order), else queued.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nx_internal.h"

static int sel_matches(uint64_t bits, int node, uint64_t want,
                       uint64_t ignore, int nodesel)
{
    return ((bits ^ want) & ~ignore) == 0 && (nodesel < 0 || nodesel == node);
}

void nx_posted_remove(struct nx_req *r)
{
    struct nx_req **pp = &nx.posted_head;

    while (*pp != NULL && *pp != r)
        pp = &(*pp)->posted_next;
    if (*pp == r)
        *pp = r->posted_next;
    r->posted_next = NULL;
    r->linked = 0;
}

static void set_info(struct nx_req *r, uint64_t bits, long len, long node)
{
    r->info.type = (long)(bits & NX_MB_TYPE_MASK);
    r->info.ptype = (long)((bits >> NX_MB_SPTYPE) & NX_MB_PTYPE_MASK);
    r->info.count = len;
    r->info.node = node;
}

static void too_long(struct nx_req *r)
{
    r->err = EMSGSIZE;
    snprintf(r->errmsg, sizeof(r->errmsg),
             "message of %ld bytes (type %ld from node %ld) is longer than "
             "the receive buffer (%ld bytes)", r->info.count, r->info.type,
             r->info.node, r->rcount);
}

/* ---- self messages ---- */

static void deliver_copy(struct nx_req *r, uint64_t bits, const void *buf,
                         long len)
{
    set_info(r, bits, len, nx.me);
    if (len > 0 && r->rcount > 0)
        memcpy(r->rbuf, buf, (size_t)(len < r->rcount ? len : r->rcount));
    if (len > r->rcount)
        too_long(r);
    r->done = 1;
}

/* A send to ourselves: the first posted receive that matches and whose
 * entry we can still take back gets it; else it waits in our queue. */
int nx_self_deliver(uint64_t bits, const void *buf, long len)
{
    struct nx_selfmsg *m;

    /* Handle pending matches first: a receive still on the posted list
     * afterwards is really linked (or landing: MEUnlink refuses it), so
     * its handle cannot name a recycled entry. */
    nx_progress(0);
    for (struct nx_req *r = nx.posted_head; r != NULL; r = r->posted_next)
        if (sel_matches(bits, nx.me, r->rbits, r->ignore, r->nodesel) &&
            PtlMEUnlink(r->me) == PTL_OK) {
            nx_posted_remove(r);
            deliver_copy(r, bits, buf, len);
            return 0;
        }
    if ((m = malloc(sizeof(*m) + (size_t)len)) == NULL)
        return nx_error(ENOMEM, "out of memory for a message to self");
    m->next = NULL;
    m->bits = bits;
    m->len = len;
    if (len > 0)
        memcpy(m->data, buf, (size_t)len);
    if (nx.self_tail == NULL)
        nx.self_head = m;
    else
        nx.self_tail->next = m;
    nx.self_tail = m;
    return 0;
}

static struct nx_selfmsg **self_find(uint64_t bits, uint64_t ignore,
                                     long nodesel)
{
    struct nx_selfmsg **pp = &nx.self_head;

    for (; *pp != NULL; pp = &(*pp)->next)
        if (sel_matches((*pp)->bits, nx.me, bits, ignore, (int)nodesel))
            return pp;
    return NULL;
}

static int self_take(struct nx_req *r)
{
    struct nx_selfmsg **pp = self_find(r->rbits, r->ignore, r->nodesel), *m;

    if (pp == NULL)
        return 0;
    m = *pp;
    *pp = m->next;
    if (nx.self_tail == m) {
        nx.self_tail = NULL;
        for (struct nx_selfmsg *t = nx.self_head; t != NULL; t = t->next)
            nx.self_tail = t;
    }
    deliver_copy(r, m->bits, m->data, m->len);
    free(m);
    return 1;
}

/* ---- receives ---- */

int nx_recv_start(struct nx_req *r, void *buf, long count, long nodesel,
                  uint64_t bits, uint64_t ignore)
{
    ptl_me_t me = {
        .start = buf, .length = (ptl_size_t)count,
        .ct_handle = PTL_CT_NONE, .uid = PTL_UID_ANY,
        .options = PTL_ME_OP_PUT | PTL_ME_USE_ONCE |
                   PTL_ME_EVENT_LINK_DISABLE | PTL_ME_EVENT_UNLINK_DISABLE,
        .match_id = { .rank = nodesel < 0 ? PTL_RANK_ANY
                                          : (ptl_rank_t)nodesel },
        .match_bits = bits, .ignore_bits = ignore | NX_MB_LONG,
    };
    struct nx_req **pp = &nx.posted_head;

    r->rbuf = buf;
    r->rcount = count;
    r->nodesel = (int)nodesel;
    r->rbits = bits;
    r->ignore = ignore;
    if ((nodesel < 0 || nodesel == nx.me) && self_take(r))
        return 0;
    /* An empty target queue has room for the event a waiting message
     * produces right now (PUT_OVERFLOW). */
    nx_progress(0);
    while (*pp != NULL)
        pp = &(*pp)->posted_next;
    *pp = r;
    r->linked = 1;
    if (PtlMEAppend(nx.job.ni, NX_PT_DATA, &me, PTL_PRIORITY_LIST, r,
                    &r->me) != PTL_OK) {
        nx_posted_remove(r);
        return nx_error(ENOMEM, "too many receives posted (out of Portals "
                        "match entries)");
    }
    return 0;
}

static void get_enqueue(struct nx_req *r)
{
    r->get_next = NULL;
    if (nx.get_tail == NULL)
        nx.get_head = r;
    else
        nx.get_tail->get_next = r;
    nx.get_tail = r;
    nx_pump_gets();
}

/* Returns 0 when the Get is out (or failed: r is done with the error),
 * 1 when Portals has no message slot free now. */
static int issue_get(struct nx_req *r)
{
    ptl_process_t from = { .rank = (ptl_rank_t)r->get_src };
    ptl_size_t len = (ptl_size_t)r->get_len;
    int rc = PtlGet(nx.all_md, ptl_job_md_off(r->rbuf, len), len, from,
                    NX_PT_RNDV, r->get_cookie, 0, r);

    if (rc == PTL_NO_SPACE)
        return 1;
    if (rc != PTL_OK) {
        r->err = EIO;
        snprintf(r->errmsg, sizeof(r->errmsg), "cannot fetch a long "
                 "message from node %d (Portals error %d)", r->get_src, rc);
        r->done = 1;
        return 0;
    }
    nx.inflight++;
    return 0;
}

void nx_pump_gets(void)
{
    struct nx_req *r;

    while (nx.get_head != NULL && nx.inflight < nx.max_inflight) {
        r = nx.get_head;
        if (issue_get(r)) {
            nx.starved = 1;         /* stays first; progress retries */
            return;
        }
        nx.get_head = r->get_next;
        if (nx.get_head == NULL)
            nx.get_tail = NULL;
    }
}

/* Our posted entry took a message: in place (PUT) or out of the overflow
 * buffer (PUT_OVERFLOW, ev->start points into the block). */
void nx_on_match(struct nx_req *r, const ptl_event_t *ev)
{
    long len = (long)(ev->hdr_data & NX_HD_LEN_MASK);
    long n = len < r->rcount ? len : r->rcount;

    nx_posted_remove(r);
    set_info(r, ev->match_bits, len, (long)ev->initiator.rank);
    if (len > r->rcount)
        too_long(r);
    if (ev->hdr_data & NX_HD_RNDV) {
        r->get_src = (int)ev->initiator.rank;
        r->get_cookie = (uint32_t)((ev->hdr_data >> NX_HD_COOKIE) &
                                   NX_HD_COOKIE_MASK);
        if (ev->type == PTL_EVENT_PUT && (ev->hdr_data & NX_HD_DATA)) {
            /* In place; if cut short by our buffer, the sender (told
             * mlength < length by its ACK) waits for this FIN. */
            nx.stats.long_in_place++;
            if (ev->mlength < (ptl_size_t)len)
                nx_ctl_send(r->get_src, NX_CTL_FIN, r->get_cookie);
            r->done = 1;
            return;
        }
        nx.stats.long_fetched++;
        r->get_len = n;     /* a short Get still releases the sender */
        get_enqueue(r);
        return;
    }
    if (ev->type == PTL_EVENT_PUT_OVERFLOW && n > 0)
        memcpy(r->rbuf, ev->start, (size_t)n);
    r->done = 1;
}

void nx_on_reply(struct nx_req *r, const ptl_event_t *ev)
{
    nx.inflight--;
    if (ev->ni_fail_type != PTL_NI_OK && !r->err) {
        r->err = EIO;
        r->err_peer = r->get_src + 1;
        snprintf(r->errmsg, sizeof(r->errmsg), "fetching a long message "
                 "from node %d failed (Portals failure %d)", r->get_src,
                 ev->ni_fail_type);
    }
    /* The sender may reuse its buffer only now. */
    nx_ctl_send(r->get_src, NX_CTL_FIN, r->get_cookie);
    r->done = 1;
    nx_pump_all();
}

/* Take back a posted receive.  1: cancelled; 0: it already matched (let
 * it complete). */
int nx_recv_cancel(struct nx_req *r)
{
    if (!r->linked)
        return 0;
    nx_progress(0);                 /* a match may be in the queue */
    if (!r->linked || PtlMEUnlink(r->me) != PTL_OK)
        return 0;
    nx_posted_remove(r);
    return 1;
}

/* ---- probes ---- */

/* Is a message matching (bits, ignore, nodesel) waiting?  Looks at our
 * self messages, then asks Portals to search the unexpected headers. */
int nx_probe(uint64_t bits, uint64_t ignore, long nodesel,
             struct nx_info *info)
{
    /* USE_ONCE: the search reports the first match only (without it,
     * every match is a SEARCH event, and a probe wants one answer). */
    ptl_me_t me = { .ct_handle = PTL_CT_NONE, .uid = PTL_UID_ANY,
                    .options = PTL_ME_OP_PUT | PTL_ME_USE_ONCE,
                    .match_id = { .rank = nodesel < 0 ? PTL_RANK_ANY
                                                      : (ptl_rank_t)nodesel },
                    .match_bits = bits, .ignore_bits = ignore | NX_MB_LONG };
    struct nx_selfmsg **pp = self_find(bits, ignore, nodesel);
    int rc;

    if (pp != NULL) {
        info->type = (long)((*pp)->bits & NX_MB_TYPE_MASK);
        info->ptype = (long)(((*pp)->bits >> NX_MB_SPTYPE) & NX_MB_PTYPE_MASK);
        info->count = (*pp)->len;
        info->node = nx.me;
        return 1;
    }
    nx_progress(0);
    nx.probe_done = 0;
    /* PTL_NO_SPACE: no room in the EQ for the answer; take events, ask
     * again (the search did nothing). */
    while ((rc = PtlMESearch(nx.job.ni, NX_PT_DATA, &me, PTL_SEARCH_ONLY,
                             &nx)) == PTL_NO_SPACE)
        nx_progress(0);
    if (rc != PTL_OK)
        nx_fatal("NX: PtlMESearch failed (%d)", rc);
    while (!nx.probe_done)
        nx_progress(0);
    if (nx.probe_found)
        *info = nx.probe_info;
    return nx.probe_found;
}
