/* SPDX-License-Identifier: MIT */
/*
 * rel.c: the thin reliable, in-order layer per peer (PROTOCOL.md,
 * "Reliability"): messages, peers and framing.  Every sequenced frame
 * carries a cumulative ACK of what we received (receive.c takes frames
 * in, and beyond a gap the middle fragments it can land at once).  The
 * sender keeps a window of unacknowledged frames (which point into
 * application memory, never copies); recover.c decides what is lost and
 * how many may be in flight.  Messages to one peer are framed one after
 * another, except that a message of one frame may go between the frames
 * of a larger one (pick), so the receiver needs one reassembly context
 * per peer, and one on the stack for such a message (target.c).
 */
#include "ptl_internal.h"

/* ---- messages ---- */

/* An initiator operation leaves the last eighth of the message slots to
 * responses (ACKs, replies).  A response needs nothing else to complete,
 * so every endpoint can always answer; without the reserve, endpoints
 * whose own operations had filled every slot, each waiting for the
 * others' ACKs, refused each other's messages until the senders gave
 * them up as unreachable (PTL_MAX_MSGS=32 tools/ptlrun -n 3 mpi order).
 * An operation to this very process needs two slots of this pool: its
 * own, and at its target its response's, which is kept for it from the
 * start (self_owed).  Without that, hundreds of operations to oneself
 * took every slot but the reserve, their responses took the reserve,
 * and the requests behind them, refused for want of a slot, held up the
 * responses that would have freed them (in-order delivery): the process
 * gave itself up as unreachable. */
struct ptl_msg *ptl_msg_alloc(struct ptl_lib *lib, bool response, bool self)
{
    struct ptl_msg *m;

    if (!response && lib->msgs.nfree <= lib->p.max_msgs / 8 +
                                         lib->self_owed + (self ? 1 : 0))
        return NULL;
    if ((m = ptl_pool_get(&lib->msgs)) == NULL)
        return NULL;
    m->gen = ++lib->msg_gen & 0x7fff;
    m->state = PTL_M_SENT;
    m->owes_self = self;
    lib->self_owed += self;
    return m;
}

void ptl_msg_free(struct ptl_lib *lib, struct ptl_msg *m)
{
    if (m->owes_self)
        lib->self_owed--;
    m->owes_self = false;
    m->state = PTL_M_FREE;
    m->gen = 0;
    ptl_pool_put(&lib->msgs, m);
}

/* Our own request id took its response's slot here: the slot kept for
 * it is free for others again. */
void ptl_msg_self_answered(struct ptl_lib *lib, uint32_t id)
{
    struct ptl_msg *m = ptl_msg_lookup(lib, id);

    if (m != NULL && m->owes_self) {
        m->owes_self = false;
        lib->self_owed--;
    }
}

static uint32_t msg_id(struct ptl_lib *lib, struct ptl_msg *m)
{
    return (m->gen + 1) << 16 | ptl_pool_idx(&lib->msgs, m);
}

struct ptl_msg *ptl_msg_lookup(struct ptl_lib *lib, uint32_t id)
{
    struct ptl_msg *m = ptl_pool_at(&lib->msgs, id & 0xffff);

    if (m == NULL || m->state == PTL_M_FREE || (m->gen + 1) != id >> 16)
        return NULL;
    return m;
}

/* ---- peers ---- */

/* ---- transmit ---- */

static void hdr_common(struct ptl_lib *lib, struct ptl_peer *p,
                       struct ptl_whdr *h)
{
    h->src_nid = lib->p.nid;
    h->src_pid = lib->p.pid;
    h->dst_nid = p->nid;
    h->dst_pid = p->pid;
    h->epoch = lib->p.epoch;
    h->dst_epoch = p->epoch;
    h->ack = p->rx_next;
    /* Any frame carries the ACK, but only a LACK says RNR. */
    p->ack_owed = p->ack_rnr;
    p->ack_waited = false;
    p->unacked_rx = 0;
}

/* Checksum application bytes without copying them if the host lets us
 * read them in place; otherwise through a small bounce buffer. */
static void csum_app(struct ptl_lib *lib, struct ptl_csum *c,
                     const uint8_t *app, size_t len)
{
    const void *direct = NULL;
    uint8_t buf[256];

    if (lib->ops->map_app)
        direct = lib->ops->map_app(lib->ctx, app, len);
    if (direct != NULL) {
        ptl_csum_add(c, direct, len);
        return;
    }
    while (len > 0) {
        size_t n = len < sizeof(buf) ? len : sizeof(buf);
        lib->ops->copy_in(lib->ctx, buf, app, n);
        ptl_csum_add(c, buf, n);
        app += n;
        len -= n;
    }
}

/* Send one frame; false if the host could not take it (its loop queue or
 * ring is full): the frame stays in the window, to go again soon. */
static bool frame_out(struct ptl_lib *lib, struct ptl_whdr *h,
                      const uint8_t *data, bool app)
{
    uint8_t *f = lib->frame_hdr;
    struct ptl_iov iov[2];
    struct ptl_csum c;
    uint32_t sum;
    size_t hl;

    /* Signed, then checksummed: the checksum covers the MAC too, so a
     * damaged frame is counted as damaged, not forged. */
    if (lib->p.auth)
        ptl_wire_encode_auth(f, h, lib->p.auth_key, lib->p.born);
    else
        ptl_wire_encode(f, h, 0);
    hl = ptl_wire_hlen(h->flags);
    ptl_csum_init(&c, hl - PTL_ETH_HLEN + (uint64_t)h->frag_len);
    ptl_csum_add(&c, f + PTL_ETH_HLEN, hl - PTL_ETH_HLEN);
    if (app)
        csum_app(lib, &c, data, h->frag_len);
    else
        ptl_csum_add(&c, data, h->frag_len);
    sum = ptl_csum_final(&c);
    for (int i = 0; i < 4; i++)
        f[PTL_ETH_HLEN + 4 + i] = (uint8_t)(sum >> (8 * i));
    iov[0] = (struct ptl_iov){ f, hl, 0 };
    iov[1] = (struct ptl_iov){ data, h->frag_len, app };
    if (lib->ops->tx(lib->ctx, iov, h->frag_len ? 2 : 1) != 0) {
        lib->st.tx_busy++;
        return false;
    }
    lib->st.tx_frames++;
    return true;
}

static void stalled(struct ptl_lib *lib, struct ptl_peer *p)
{
    p->tx_stalled = true;
    if (p->stalled_since == 0)
        p->stalled_since = ptl_now(lib);
}

/* Send a window slot's frame.  One the host cannot take now stops the
 * peer's sending until the next progress (tx_stalled): it is resent
 * from tx_resend, and the timeouts meanwhile blame nobody. */
static bool slot_out(struct ptl_lib *lib, struct ptl_peer *p,
                     struct ptl_txslot *s)
{
    struct ptl_msg *m = s->msg;
    struct ptl_whdr h = m->hdr;

    hdr_common(lib, p, &h);
    h.flags |= PTL_WF_SEQ;
    h.seq = s->seq;
    h.msg_id = m->is_response ? m->hdr.msg_id : msg_id(lib, m);
    h.frag_off = s->off;
    h.frag_len = s->len;
    if (s->resp != NULL) {
        const struct ptl_whdr *a = &s->resp->hdr;
        h.flags |= PTL_WF_RESP;
        h.resp = (struct ptl_wresp){ a->msg_id, a->fail_type, a->ptl_list,
                                     a->ack_req, a->mlength,
                                     a->remote_offset };
    }
    s->order = ++p->tx_order;
    if (frame_out(lib, &h, m->data + s->off, m->data_app)) {
        p->stalled_since = 0;
        return true;
    }
    stalled(lib, p);
    if ((int32_t)(s->seq - p->tx_resend) < 0)
        p->tx_resend = s->seq;
    return false;
}

void ptl_rel_resend(struct ptl_lib *lib, struct ptl_peer *p,
                    struct ptl_txslot *s)
{
    if (slot_out(lib, p, s))
        lib->st.rtx_frames++;
    s->sent = PTL_SENT_AGAIN;
}

/* A bare link ACK: cumulative, with the SACK bitmap of what was taken
 * beyond a gap, GAP if a new frame beyond one made it go at once. */
void ptl_rel_send_lack(struct ptl_lib *lib, struct ptl_peer *p)
{
    struct ptl_whdr h;

    ptl_memzero(&h, sizeof(h));
    h.type = PTL_W_LACK;
    h.sack = p->rx_sack;
    h.flags = (p->ack_gap ? PTL_WF_GAP : 0) | (p->ack_rnr ? PTL_WF_RNR : 0);
    p->ack_gap = p->ack_rnr = false;
    hdr_common(lib, p, &h);
    if (!frame_out(lib, &h, NULL, false)) {
        /* Owed still, and said the next time. */
        stalled(lib, p);
        p->ack_owed = true;
        p->ack_rnr = (h.flags & PTL_WF_RNR) != 0;
        p->ack_gap = (h.flags & PTL_WF_GAP) != 0;
        return;
    }
    p->stalled_since = 0;
    lib->st.acks_sent++;
}

/* New frames may go out when nothing awaits resending, the congestion
 * window has room (frames the receiver SACKed are no longer in flight)
 * and so do the window's slots. */
static bool window_open(struct ptl_lib *lib, struct ptl_peer *p)
{
    uint32_t out = p->tx_next - p->tx_acked;

    return p->tx_resend == p->tx_next && out - p->nsacked < p->cwnd &&
           out < lib->p.window;
}

/* The peer refused a request for want of a slot (RNR): until its pause
 * is over, only what needs no slot there goes: responses, and the rest
 * of a message it has started to take. */
static bool may_frame(struct ptl_lib *lib, struct ptl_peer *p)
{
    const struct ptl_msg *m = p->sq;

    if (p->rnr_until == 0 || m->is_response || m->queued != 0)
        return true;
    if (ptl_now(lib) < p->rnr_until)
        return false;
    p->rnr_until = 0;
    return true;
}

/* The oldest held ACK, to ride in a new frame (NULL if none). */
static struct ptl_msg *take_held(struct ptl_lib *lib, struct ptl_peer *p)
{
    struct ptl_msg *r = p->held;

    if (r == NULL)
        return NULL;
    if ((p->held = r->next) == NULL)
        p->held_tail = NULL;
    r->next = NULL;
    r->state = PTL_M_SENT;
    lib->st.acks_carried++;
    return r;
}

/* Payload bytes a frame carries (with a response record riding in it,
 * or not); a signed frame carries its trailer too. */
static uint64_t frame_room(const struct ptl_lib *lib, bool resp)
{
    return lib->p.mtu - PTL_WIRE_HLEN - (resp ? PTL_WIRE_RLEN : 0) -
           (lib->p.auth ? PTL_WIRE_ALEN : 0);
}

/* Does m fit one frame, whatever rides along? */
static bool one_frame(const struct ptl_lib *lib, const struct ptl_msg *m)
{
    return m->len <= frame_room(lib, true);
}

/* May n go between the frames of m?  Everything sent to one portal
 * table entry (NI and index) stays in the order of sending: matching,
 * data and events (MPI's and NX's non-overtaking rules, and consumers of
 * overflow events, rest on it).  A response (ACK, REPLY) is matched by
 * nobody, and neither is a message of another portal index against m's. */
static bool may_interleave(const struct ptl_msg *m, const struct ptl_msg *n)
{
    unsigned ni = PTL_WF_NI_MASK;

    return m->is_response || n->is_response ||
           (m->hdr.flags & ni) != (n->hdr.flags & ni) ||
           m->hdr.pt_index != n->hdr.pt_index;
}

/* May n pass every message queued from m up to it? */
static bool passes_all(const struct ptl_msg *m, const struct ptl_msg *n)
{
    for (const struct ptl_msg *x = m; x != n; x = x->next)
        if (!may_interleave(x, n))
            return false;
    return true;
}

/* The message to frame next, and the one before it in the queue (NULL:
 * it is the head).  While the head is part-framed, every other frame
 * goes to the first of the next few messages that fits one frame and may
 * pass those before it: a small put is not stuck behind a 4 MiB one
 * (PROTOCOL.md, section 5). */
static struct ptl_msg *pick(struct ptl_lib *lib, struct ptl_peer *p,
                            struct ptl_msg **prev)
{
    struct ptl_msg *m = p->sq, *before = m, *n;
    int looked = 0;

    *prev = NULL;
    if (m->queued != 0 && !p->interleaved)
        for (n = m->next; n != NULL && looked < 8;
             before = n, n = n->next, looked++)
            if (one_frame(lib, n) && passes_all(m, n)) {
                p->interleaved = true;
                lib->st.tx_interleaved++;
                *prev = before;
                return n;
            }
    p->interleaved = false;
    return m;
}

/* Frame the next piece of a queued message into the window. */
static void frame_next(struct ptl_lib *lib, struct ptl_peer *p)
{
    struct ptl_msg *prev, *m = pick(lib, p, &prev);
    struct ptl_txslot *s = &p->win[p->tx_next % lib->p.window];
    uint64_t room, n = m->len - m->queued;

    s->resp = take_held(lib, p);
    room = frame_room(lib, s->resp != NULL);
    if (n > room)
        n = room;
    s->seq = p->tx_next++;
    p->tx_resend = p->tx_next;
    s->off = m->queued;
    s->len = (uint32_t)n;
    s->msg = m;
    s->sent = ptl_now(lib);
    s->sacked = false;
    s->acks = p->rx_next;
    m->queued += n;
    m->frames_unacked++;
    if (m->queued == m->len) {
        if (prev == NULL)
            p->sq = m->next;
        else
            prev->next = m->next;
        if (p->sq_tail == m)
            p->sq_tail = prev;
        m->state = PTL_M_SENT;
    }
    if (p->tx_next - p->tx_acked == 1)
        ptl_rel_arm(lib, p);
    slot_out(lib, p, s);
}

/* Resend presumed-lost frames (never what the receiver SACKed), then
 * frame new data, within cwnd. */
void ptl_rel_push(struct ptl_lib *lib, struct ptl_peer *p)
{
    while (!p->dead && !p->tx_stalled && p->tx_resend != p->tx_next &&
           p->tx_resend - p->tx_acked < p->cwnd) {
        struct ptl_txslot *s = &p->win[p->tx_resend % lib->p.window];
        if (s->msg != NULL && !s->sacked)
            ptl_rel_resend(lib, p, s);
        if (!p->tx_stalled)
            p->tx_resend++;
    }
    while (p->sq != NULL && !p->dead && !p->tx_stalled &&
           window_open(lib, p) && may_frame(lib, p))
        frame_next(lib, p);
}

/* A queue of messages, head and tail. */
struct mlist {
    struct ptl_msg *head, *tail;
};

static void ml_add(struct mlist *l, struct ptl_msg *m)
{
    m->state = PTL_M_QUEUED;
    m->next = NULL;
    if (l->tail != NULL)
        l->tail->next = m;
    else
        l->head = m;
    l->tail = m;
}

static void ml_cat(struct mlist *l, const struct mlist *more)
{
    if (more->head == NULL)
        return;
    if (l->tail != NULL)
        l->tail->next = more->head;
    else
        l->head = more->head;
    l->tail = more->tail;
}

void ptl_rel_unframe(struct ptl_lib *lib, struct ptl_peer *p)
{
    struct mlist resps = { NULL, NULL }, reqs = { NULL, NULL };
    struct mlist rest = { p->sq, p->sq_tail };

    for (uint32_t seq = p->tx_acked; seq != p->tx_next; seq++) {
        struct ptl_txslot *s = &p->win[seq % lib->p.window];
        struct ptl_msg *m = s->msg, *r = s->resp;

        /* The refused frame's riding ACK was taken before it was
         * refused; those of the frames after it were not. */
        if (r != NULL && seq == p->tx_acked) {
            ptl_msg_sent(lib, r);
        } else if (r != NULL) {
            r->queued = 0;
            ml_add(&resps, r);
        }
        s->resp = s->msg = NULL;
        if (m == NULL)
            continue;
        m->frames_unacked--;
        if (s->off < m->queued)         /* its first frame from here on */
            m->queued = s->off;
        if (m->state == PTL_M_SENT)     /* all framed: off the queue */
            ml_add(m->is_response ? &resps : &reqs, m);
    }
    /* In the order they were framed, responses first (they may pass
     * requests), then what was never framed. */
    ml_cat(&resps, &reqs);
    ml_cat(&resps, &rest);
    p->sq = resps.head;
    p->sq_tail = resps.tail;
    p->tx_next = p->tx_resend = p->high_sack = p->recover = p->tx_acked;
    p->interleaved = false;
    lib->st.tx_unframed++;
}

/* A Portals ACK need not cost a frame of its own: the target usually
 * answers soon (a ping-pong's pong, an RPC's reply), so the ACK waits,
 * like the link-level ack, to ride in the next frame to that peer as a
 * 24-byte record.  It goes alone when the process waits (ptl_lib_flush),
 * when ack_delay passes, or behind queued messages (never overtaking
 * them: only an idle peer holds ACKs).  Not the ACK of a put of more
 * than one frame: its sender usually waits for it before it posts the
 * receive for our answer (MPI's and NX's long and eager sends complete
 * at the ACK), so a held one arrived with the answer's first frame, which
 * found no receive posted and was dropped or copied; one small frame more
 * is nothing beside such a put.  ACKs held before it go first. */
static bool hold_ack(struct ptl_lib *lib, struct ptl_peer *p,
                     struct ptl_msg *m)
{
    if (!lib->p.hold_acks || !m->is_response || m->hdr.type != PTL_W_ACK ||
        p->sq != NULL)
        return false;
    if (m->hdr.rlength > frame_room(lib, false)) {
        ptl_rel_release_held(lib, p);
        return false;
    }
    if (p->held == NULL) {
        p->held = m;
        p->held_due = ptl_now(lib) + lib->p.ack_delay_ns;
    } else {
        p->held_tail->next = m;
    }
    p->held_tail = m;
    return true;
}

/* Send held ACKs now, in frames of their own if nothing else goes. */
bool ptl_rel_release_held(struct ptl_lib *lib, struct ptl_peer *p)
{
    if (p->held == NULL)
        return false;
    p->held_tail->next = p->sq;
    if (p->sq == NULL)
        p->sq_tail = p->held_tail;
    p->sq = p->held;
    p->held = p->held_tail = NULL;
    ptl_rel_push(lib, p);
    return true;
}

/* The process waits: nothing it sends could carry what we owe, so held
 * ACKs go now, and so does a bare link ACK for frames nothing carried (a
 * peer that sent one-way, to a process that answers someone else or
 * nobody, gets its SEND event a round trip after the data instead of
 * after ack_delay).  Not for frames that carried only a Portals ACK:
 * nobody waits on their link ACK, which rides in our next frame or goes
 * after ack_delay.  A blocking send's ACK arrives just before the answer
 * it waits for, so its link ACK alone was a frame more per message, into
 * the peer while it sends that answer. */
static bool flush(struct ptl_lib *lib, bool all)
{
    bool sent = false;

    for (struct ptl_peer *p = lib->peer_list; p != NULL; p = p->lnext) {
        sent |= ptl_rel_release_held(lib, p);
        if (p->ack_owed && (p->ack_waited || all)) {
            ptl_rel_send_lack(lib, p);
            sent = true;
        }
    }
    return sent;
}

bool ptl_lib_flush(struct ptl_lib *lib)
{
    return flush(lib, false);
}

bool ptl_lib_flush_all(struct ptl_lib *lib)
{
    return flush(lib, true);
}

/* Queue m to its peer.  A response (ACK, REPLY) goes ahead of the
 * requests not yet started, after the responses queued before it: the
 * peer's operation waits for it and frees its message slot with it,
 * while a request may need a response slot here that only answered
 * requests give back.  Behind requests, a process with hundreds of
 * operations to itself (or two processes flooding each other) had every
 * slot taken by requests waiting for responses queued behind requests
 * that could not be answered: the peer, alive, was given up after
 * max_retries (PTL_NI_UNDELIVERABLE).  Responses may pass requests
 * (PROTOCOL.md, section 5: the order kept). */
static void enqueue(struct ptl_peer *p, struct ptl_msg *m)
{
    struct ptl_msg **pp = &p->sq, *prev = NULL;

    if (m->is_response)
        while (*pp != NULL && ((*pp)->is_response || (*pp)->queued != 0)) {
            prev = *pp;
            pp = &prev->next;
        }
    else if (p->sq != NULL) {
        prev = p->sq_tail;
        pp = &prev->next;
    }
    m->next = *pp;
    *pp = m;
    if (m->next == NULL)
        p->sq_tail = m;
}

void ptl_rel_send(struct ptl_lib *lib, struct ptl_msg *m)
{
    struct ptl_peer *p = m->peer;

    m->state = PTL_M_QUEUED;
    m->queued = 0;
    m->next = NULL;
    if (p->dead) {
        ptl_msg_fail(lib, m, PTL_NI_UNDELIVERABLE);
        return;
    }
    if (hold_ack(lib, p, m))
        return;
    enqueue(p, m);
    ptl_rel_push(lib, p);
}
