/* SPDX-License-Identifier: MIT */
/*
 * target.c: what happens when a request (put, get, atomic) arrives: find
 * the portal table entry, match the priority then the overflow list, land
 * the data straight in the matched buffer fragment by fragment, then post
 * the events and send the ACK or REPLY.  Flow control lives here too: a
 * PTL_PT_FLOWCTRL entry that runs out of resources is disabled, not lossy.
 */
#include "ptl_internal.h"

ptl_process_t ptl_initiator_of(const struct ptl_lib *lib,
                               const struct ptl_ni *ni,
                               const struct ptl_whdr *h)
{
    ptl_process_t p;

    (void)lib;
    if (ni->options & PTL_NI_LOGICAL) {
        p.phys.pid = 0;
        p.rank = h->src_rank;
    } else {
        p.phys.nid = h->src_nid;
        p.phys.pid = h->src_pid;
    }
    return p;
}

static bool is_comm(ptl_event_kind_t k)
{
    return k == PTL_EVENT_PUT || k == PTL_EVENT_GET ||
           k == PTL_EVENT_ATOMIC || k == PTL_EVENT_FETCH_ATOMIC;
}

static bool is_overflow(ptl_event_kind_t k)
{
    return k == PTL_EVENT_PUT_OVERFLOW || k == PTL_EVENT_GET_OVERFLOW ||
           k == PTL_EVENT_ATOMIC_OVERFLOW ||
           k == PTL_EVENT_FETCH_ATOMIC_OVERFLOW;
}

static void target_count(struct ptl_lib *lib, struct ptl_me *me,
                         ptl_event_kind_t kind, const ptl_event_t *ev)
{
    unsigned o = me->me.options;
    bool on = (is_comm(kind) && (o & PTL_ME_EVENT_CT_COMM)) ||
              (is_overflow(kind) && (o & PTL_ME_EVENT_CT_OVERFLOW)) ||
              me->searching;
    uint64_t n = (o & PTL_ME_EVENT_CT_BYTES) ? ev->mlength : 1;

    if (!on || me->ct == NULL)
        return;
    if (ev->ni_fail_type == PTL_NI_OK)
        ptl_ct_add(lib, me->ct, n, 0);
    else
        ptl_ct_add(lib, me->ct, 0, 1);
}

static bool event_suppressed(unsigned o, ptl_event_kind_t kind, bool ok)
{
    if (ok && (o & PTL_ME_EVENT_SUCCESS_DISABLE))
        return true;
    if (is_comm(kind))
        return o & PTL_ME_EVENT_COMM_DISABLE;
    if (is_overflow(kind))
        return o & PTL_ME_EVENT_OVER_DISABLE;
    if (kind == PTL_EVENT_AUTO_UNLINK || kind == PTL_EVENT_AUTO_FREE)
        return o & PTL_ME_EVENT_UNLINK_DISABLE;
    return false;
}

/* Count, then post to the PT's EQ unless the entry's options say not to. */
void ptl_target_event(struct ptl_lib *lib, struct ptl_pt *pt,
                      struct ptl_me *me, ptl_event_kind_t kind,
                      const ptl_event_t *tmpl)
{
    ptl_event_t ev = *tmpl;

    ev.type = kind;
    ev.pt_index = me->pt;
    target_count(lib, me, kind, &ev);
    if (event_suppressed(me->me.options, kind,
                         ev.ni_fail_type == PTL_NI_OK))
        return;
    ptl_eq_post(lib, pt->eq, &ev);
}

/* ---- matching ---- */

static uint8_t op_check(const struct ptl_me *me, uint8_t wtype)
{
    unsigned o = me->me.options;
    bool put = o & PTL_ME_OP_PUT, get = o & PTL_ME_OP_GET;

    switch (wtype) {
    case PTL_W_GET: return get ? PTL_NI_OK : PTL_NI_OP_VIOLATION;
    case PTL_W_FETCH:
    case PTL_W_SWAP: return put && get ? PTL_NI_OK : PTL_NI_OP_VIOLATION;
    default: return put ? PTL_NI_OK : PTL_NI_OP_VIOLATION;
    }
}

struct match {
    struct ptl_me *me;
    uint8_t list;
    uint8_t fail;          /* best reason if nothing matched */
    uint64_t offset, mlength;
};

/* Does me accept this message?  Fills offset and mlength. */
static bool try_entry(struct ptl_lib *lib, struct ptl_ni *ni,
                      struct ptl_me *me, const struct ptl_whdr *h,
                      ptl_process_t init, struct match *m)
{
    uint64_t off, avail, want = h->rlength;
    uint8_t f;

    if (!ptl_me_matches(lib, ni, me, h, init))
        return false;
    if (me->me.uid != PTL_UID_ANY && me->me.uid != h->uid) {
        m->fail = PTL_NI_PERM_VIOLATION;
        return false;
    }
    if ((f = op_check(me, h->type)) != PTL_NI_OK) {
        m->fail = f;
        return false;
    }
    off = (me->me.options & PTL_ME_MANAGE_LOCAL) ? me->local_offset
                                                  : h->remote_offset;
    avail = off <= me->me.length ? me->me.length - off : 0;
    if (want > avail && (me->me.options & PTL_ME_NO_TRUNCATE))
        return false;
    m->me = me;
    m->offset = off;
    m->mlength = want < avail ? want : avail;
    return true;
}

static bool search_list(struct ptl_lib *lib, struct ptl_ni *ni,
                        struct ptl_me *head, const struct ptl_whdr *h,
                        ptl_process_t init, struct match *m)
{
    for (struct ptl_me *me = head; me != NULL; me = me->next)
        if (try_entry(lib, ni, me, h, init, m))
            return true;
    return false;
}

static bool find_match(struct ptl_lib *lib, struct ptl_ni *ni,
                       struct ptl_pt *pt, const struct ptl_whdr *h,
                       struct match *m)
{
    ptl_process_t init = ptl_initiator_of(lib, ni, h);

    m->fail = PTL_NI_DROPPED;
    m->list = PTL_PRIORITY_LIST;
    if (search_list(lib, ni, pt->prio, h, init, m))
        return true;
    m->list = PTL_OVERFLOW_LIST;
    return search_list(lib, ni, pt->over, h, init, m);
}

/* ---- flow control ---- */

static void pt_disable(struct ptl_lib *lib, struct ptl_pt *pt,
                       ptl_pt_index_t idx, const struct ptl_whdr *h)
{
    ptl_event_t ev;

    pt->enabled = false;
    ptl_memzero(&ev, sizeof(ev));
    ev.type = PTL_EVENT_PT_DISABLED;
    ev.pt_index = idx;
    ev.match_bits = h->match_bits;
    ev.ni_fail_type = PTL_NI_PT_DISABLED;
    ptl_eq_post_reserved(lib, pt->eq, &ev);
}

/* Resources a matched message will need: two events and, on the overflow
 * list, an unexpected header. */
static bool resources_ok(struct ptl_lib *lib, struct ptl_pt *pt,
                         const struct match *m)
{
    if (pt->eq != NULL && ptl_eq_space(pt->eq) < 2)
        return false;
    if (m->list == PTL_OVERFLOW_LIST &&
        !(m->me->me.options & PTL_ME_UNEXPECTED_HDR_DISABLE) &&
        !ptl_uh_room(lib, m->me->ni))
        return false;
    return true;
}

/* ---- message start ---- */

static bool needs_response(const struct ptl_whdr *h)
{
    return h->type == PTL_W_GET || h->type == PTL_W_FETCH ||
           h->type == PTL_W_SWAP || h->ack_req != PTL_NO_ACK_REQ;
}

/* Commit a match: the entry is reserved and unlinked now, so the next
 * message (maybe already in the next frame) sees the updated list. */
static void commit(struct ptl_lib *lib, struct ptl_pt *pt,
                   struct ptl_rxmsg *rx, const struct match *m)
{
    struct ptl_me *me = m->me;
    unsigned o = me->me.options;

    me->busy++;
    rx->me = me;
    rx->list = m->list;
    rx->offset = m->offset;
    rx->mlength = m->mlength;
    rx->ack_disabled = (o & PTL_ME_ACK_DISABLE) != 0;
    /* An offset past the end matches with zero bytes (spec); keep the
     * address inside the entry all the same (found by the fuzzer). */
    rx->dst = me->me.start == NULL ? NULL
            : (uint8_t *)me->me.start +
              (m->offset <= me->me.length ? m->offset : me->me.length);
    if (o & PTL_ME_MANAGE_LOCAL)
        me->local_offset += m->mlength;
    if ((o & PTL_ME_USE_ONCE) ||
        ((o & PTL_ME_MANAGE_LOCAL) &&
         me->me.length - me->local_offset < me->me.min_free)) {
        me->unlink_pending = true;
        ptl_me_unlink(lib, pt, me);
    }
}

/* A message matched an overflow entry: record its header now, not when
 * it has landed, so that a receive appended meanwhile finds it (and a
 * later message cannot overtake it into that receive). */
static void record_unexpected(struct ptl_lib *lib, struct ptl_ni *ni,
                              struct ptl_rxmsg *rx, const struct ptl_whdr *h)
{
    struct ptl_pt *pt = rx->pt;
    struct ptl_uh *uh;

    if (rx->me->me.options & PTL_ME_UNEXPECTED_HDR_DISABLE)
        return;
    if ((uh = ptl_uh_get(lib, rx->me->ni)) == NULL) {
        lib->st.drops++;    /* header lost: the late receive won't see it */
        return;
    }
    uh->me = rx->me;
    rx->me->uh_refs++;
    uh->wtype = h->type;
    uh->atomic_op = h->atomic_op;
    uh->atomic_type = h->atomic_type;
    uh->initiator = ptl_initiator_of(lib, ni, h);
    uh->uid = h->uid;
    uh->match_bits = h->match_bits;
    uh->hdr_data = h->hdr_data;
    uh->rlength = h->rlength;
    uh->mlength = rx->mlength;
    uh->remote_offset = rx->offset;
    uh->start = rx->dst;
    uh->pending = true;
    if (pt->uh == NULL)
        pt->uh = uh;
    else
        pt->uh_tail->next = uh;
    pt->uh_tail = uh;
    rx->uh = uh;
}

static void match_request(struct ptl_lib *lib, struct ptl_ni *ni,
                          const struct ptl_whdr *h, struct ptl_rxmsg *rx)
{
    struct ptl_pt *pt;
    struct match m = { 0 };

    if (!ni->used || h->pt_index > lib->p.max_pt_index ||
        !ni->pts[h->pt_index].used) {
        rx->fail = PTL_NI_TARGET_INVALID;
        return;
    }
    pt = &ni->pts[h->pt_index];
    rx->pt = pt;
    if (!pt->enabled) {
        rx->fail = PTL_NI_PT_DISABLED;
        return;
    }
    if (!find_match(lib, ni, pt, h, &m) ||
        ((pt->options & PTL_PT_FLOWCTRL) && !resources_ok(lib, pt, &m))) {
        rx->fail = m.me ? PTL_NI_PT_DISABLED : m.fail;
        if (pt->options & PTL_PT_FLOWCTRL) {
            pt_disable(lib, pt, h->pt_index, h);
            rx->fail = PTL_NI_PT_DISABLED;
        }
        return;
    }
    /* Without flow control a message the overflow list would take with
     * no unexpected header left for it is dropped, and its initiator
     * told (PTL_NI_DROPPED): landed without one, a receive posted later
     * would never find it. */
    if (m.list == PTL_OVERFLOW_LIST &&
        !(m.me->me.options & PTL_ME_UNEXPECTED_HDR_DISABLE) &&
        !ptl_uh_room(lib, m.me->ni)) {
        rx->fail = PTL_NI_DROPPED;
        return;
    }
    commit(lib, pt, rx, &m);
    if (m.list == PTL_OVERFLOW_LIST)
        record_unexpected(lib, ni, rx, h);
}

static void count_failure(struct ptl_lib *lib, uint8_t fail)
{
    if (fail == PTL_NI_PERM_VIOLATION)
        lib->st.perm_violations++;
    else if (fail == PTL_NI_OP_VIOLATION)
        lib->st.op_violations++;
    lib->st.drops++;
}

static bool start_request(struct ptl_lib *lib, struct ptl_rxmsg *rx,
                          const struct ptl_whdr *h)
{
    struct ptl_msg *resp = NULL;

    /* Reserve the response first: if we cannot answer, refuse the frame
     * (not acknowledged, so the initiator retransmits it later). */
    if (needs_response(h) &&
        (resp = ptl_msg_alloc(lib, true, false)) == NULL)
        return false;
    if (h->src_nid == lib->p.nid && h->src_pid == lib->p.pid)
        ptl_msg_self_answered(lib, h->msg_id);
    ptl_memzero(rx, sizeof(*rx));
    rx->active = true;
    rx->wtype = h->type;
    rx->first = *h;
    rx->resp = resp;
    rx->fail = PTL_NI_OK;
    match_request(lib, &lib->ni[h->flags & PTL_WF_NI_MASK], h, rx);
    if (rx->fail != PTL_NI_OK)
        count_failure(lib, rx->fail);
    return true;
}

/* ---- data ---- */

static void land_put(struct ptl_lib *lib, struct ptl_rxmsg *rx,
                     const struct ptl_whdr *h, const uint8_t *data)
{
    uint64_t n;

    if (rx->me == NULL || h->frag_off >= rx->mlength)
        return;
    n = rx->mlength - h->frag_off;
    if (n > h->frag_len)
        n = h->frag_len;
    lib->ops->copy_out(lib->ctx, rx->dst + h->frag_off, data, n);
}

/* Atomics are one frame: apply on whole elements of the matched length,
 * keeping the old bytes for the REPLY of fetch/swap. */
static void do_atomic(struct ptl_lib *lib, struct ptl_rxmsg *rx,
                      const uint8_t *data)
{
    const struct ptl_whdr *h = &rx->first;
    size_t es = ptl_atomic_dtsize(h->atomic_type);
    uint8_t cur[PTL_INLINE_MAX];
    uint64_t n;

    uint64_t need = h->rlength + (h->type == PTL_W_SWAP ? 32 : 0);

    if (es == 0 || h->total != need || h->frag_len != need ||
        h->rlength > PTL_INLINE_MAX ||
        !ptl_atomic_valid(h->atomic_op, h->atomic_type, h->rlength,
                          h->type == PTL_W_SWAP)) {
        rx->fail = PTL_NI_OP_VIOLATION;
        return;
    }
    n = rx->mlength - rx->mlength % es;
    rx->mlength = n;
    lib->ops->copy_in(lib->ctx, cur, rx->dst, n);
    if (rx->resp != NULL)
        ptl_memcopy(rx->resp->inline_data, cur, n);
    ptl_atomic_apply(h->atomic_op, h->atomic_type, cur, data,
                     h->type == PTL_W_SWAP ? data + h->rlength : NULL, n);
    lib->ops->copy_out(lib->ctx, rx->dst, cur, n);
}

/* ---- message end ---- */

static ptl_event_kind_t comm_kind(uint8_t wtype)
{
    switch (wtype) {
    case PTL_W_GET: return PTL_EVENT_GET;
    case PTL_W_ATOMIC: return PTL_EVENT_ATOMIC;
    case PTL_W_FETCH:
    case PTL_W_SWAP: return PTL_EVENT_FETCH_ATOMIC;
    default: return PTL_EVENT_PUT;
    }
}

static void fill_event(struct ptl_lib *lib, const struct ptl_rxmsg *rx,
                       ptl_event_t *ev)
{
    const struct ptl_whdr *h = &rx->first;
    struct ptl_ni *ni = &lib->ni[h->flags & PTL_WF_NI_MASK];

    ptl_memzero(ev, sizeof(*ev));
    ev->start = rx->dst;
    ev->user_ptr = rx->me->user_ptr;
    ev->hdr_data = h->hdr_data;
    ev->match_bits = h->match_bits;
    ev->rlength = h->rlength;
    ev->mlength = rx->mlength;
    ev->remote_offset = rx->offset;
    ev->uid = h->uid;
    ev->initiator = ptl_initiator_of(lib, ni, h);
    ev->ptl_list = rx->list;
    ev->ni_fail_type = rx->fail;
    ev->atomic_operation = h->atomic_op;
    ev->atomic_type = h->atomic_type;
}

static void unlink_events(struct ptl_lib *lib, struct ptl_rxmsg *rx)
{
    struct ptl_me *me = rx->me;
    ptl_event_t ev;

    me->unlink_pending = false;
    ptl_memzero(&ev, sizeof(ev));
    ev.user_ptr = me->user_ptr;
    ev.ptl_list = rx->list;
    ptl_target_event(lib, rx->pt, me, PTL_EVENT_AUTO_UNLINK, &ev);
    if (rx->list != PTL_OVERFLOW_LIST)
        return;
    if (me->uh_refs == 0)
        ptl_target_event(lib, rx->pt, me, PTL_EVENT_AUTO_FREE, &ev);
    else
        me->auto_unlinked = true;   /* AUTO_FREE when the last UH goes */
}

static void finish_target(struct ptl_lib *lib, struct ptl_rxmsg *rx)
{
    struct ptl_me *me = rx->me;
    ptl_event_t ev;

    fill_event(lib, rx, &ev);
    ptl_target_event(lib, rx->pt, me, comm_kind(rx->wtype), &ev);
    if (rx->uh != NULL)
        ptl_uh_landed(lib, rx->pt, rx->uh, rx->mlength, rx->fail);
    rx->uh = NULL;
    me->busy--;
    if (me->unlink_pending)
        unlink_events(lib, rx);
    ptl_me_release(lib, me);
}

static void send_response(struct ptl_lib *lib, struct ptl_peer *peer,
                          struct ptl_rxmsg *rx)
{
    struct ptl_msg *m = rx->resp;
    const struct ptl_whdr *h = &rx->first;
    bool reply = h->type == PTL_W_GET || h->type == PTL_W_FETCH ||
                 h->type == PTL_W_SWAP;
    uint64_t n = rx->fail == PTL_NI_OK ? rx->mlength : 0;

    m->is_response = true;
    m->peer = peer;
    m->hdr.type = reply ? PTL_W_REPLY : PTL_W_ACK;
    m->hdr.flags = h->flags & PTL_WF_NI_MASK;
    m->hdr.msg_id = h->msg_id;
    m->hdr.pt_index = h->pt_index;
    m->hdr.match_bits = h->match_bits;
    m->hdr.rlength = h->rlength;
    m->hdr.mlength = n;
    m->hdr.remote_offset = rx->offset;
    m->hdr.fail_type = rx->fail;
    m->hdr.ptl_list = rx->list;
    /* The link still acknowledges the put; this ACK only tells the
     * initiator that no Portals ACK will come (it waits for one).  A
     * failure is reported all the same. */
    if (!reply && rx->ack_disabled && rx->fail == PTL_NI_OK)
        m->hdr.ack_req = PTL_WACK_DISABLED;
    m->len = reply ? n : 0;
    m->hdr.total = (uint32_t)m->len;
    m->data_app = h->type == PTL_W_GET;
    m->data = m->data_app ? rx->dst : m->inline_data;
    ptl_rel_send(lib, m);
}

static void finish_request(struct ptl_lib *lib, struct ptl_peer *peer,
                           struct ptl_rxmsg *rx, const uint8_t *data)
{
    bool atomic = rx->wtype == PTL_W_ATOMIC || rx->wtype == PTL_W_FETCH ||
                  rx->wtype == PTL_W_SWAP;

    if (rx->me != NULL && atomic)
        do_atomic(lib, rx, data);
    if (rx->me != NULL)
        finish_target(lib, rx);
    if (rx->resp != NULL)
        send_response(lib, peer, rx);
    rx->active = false;
}

/* One in-order request frame.  Returns false only if it was refused for
 * lack of resources (it will come again). */
bool ptl_tgt_rx(struct ptl_lib *lib, struct ptl_peer *peer,
                const struct ptl_whdr *h, const uint8_t *data)
{
    struct ptl_rxmsg one, *rx = &peer->rx;

    /* A message of one frame may come between the frames of a larger one
     * from the same peer (rel.c pick): it starts and ends here, in a
     * context of its own, leaving the larger one's alone. */
    if (h->frag_off == 0 && h->frag_len == h->total && rx->active)
        rx = &one;
    if (h->frag_off == 0 && !start_request(lib, rx, h))
        return false;
    if (!rx->active || rx->first.msg_id != h->msg_id ||
        rx->first.type != h->type)
        return true;        /* stray fragment: nothing to land it in */
    if (h->type == PTL_W_PUT)
        land_put(lib, rx, h, data);
    if (h->frag_off + h->frag_len == h->total)
        finish_request(lib, peer, rx, data);
    return true;
}
