/* SPDX-License-Identifier: MIT */
/*
 * rel.c: the thin reliable, in-order layer per peer (PROTOCOL.md,
 * "Reliability"): messages, peers, framing and the receiver.  Every
 * sequenced frame carries a cumulative ACK of what we received; the
 * receiver takes the next expected sequence number, and beyond a gap
 * only a middle fragment of the message being reassembled (it lands at
 * its offset, zero copy), which its LACK's SACK bitmap reports.  The
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
 * them up as unreachable (PTL_MAX_MSGS=32 tools/ptlrun -n 3 mpi order). */
struct ptl_msg *ptl_msg_alloc(struct ptl_lib *lib, bool response)
{
    struct ptl_msg *m;

    if (!response && lib->msgs.nfree <= lib->p.max_msgs / 8)
        return NULL;
    if ((m = ptl_pool_get(&lib->msgs)) == NULL)
        return NULL;
    m->gen = ++lib->msg_gen & 0x7fff;
    m->state = PTL_M_SENT;
    return m;
}

void ptl_msg_free(struct ptl_lib *lib, struct ptl_msg *m)
{
    m->state = PTL_M_FREE;
    m->gen = 0;
    ptl_pool_put(&lib->msgs, m);
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

static uint32_t peer_hash(struct ptl_lib *lib, uint32_t nid, uint32_t pid)
{
    return (nid * 2654435761u ^ pid * 40503u) % lib->phash_size;
}

void ptl_rel_peer_reset(struct ptl_lib *lib, struct ptl_peer *p)
{
    p->tx_next = p->tx_acked = p->tx_resend = p->rx_next = 0;
    p->high_sack = p->recover = p->nsacked = 0;
    p->tx_order = p->delivered_order = 0;
    p->cwnd = p->ssthresh = lib->p.window;
    p->cwnd_acc = p->dupacks = 0;
    p->ack_owed = p->dead = p->ack_gap = p->interleaved = false;
    p->rx_sack = 0;
    p->unacked_rx = p->retries = 0;
    p->rto = p->rto_base = lib->p.rto_ns;
    p->srtt = p->rttvar = 0;
    p->deadline = 0;
    p->held = p->held_tail = NULL;
}

struct ptl_peer *ptl_peer_find(struct ptl_lib *lib, uint32_t nid,
                               uint32_t pid, bool create)
{
    uint32_t hv = peer_hash(lib, nid, pid);
    struct ptl_peer *p;

    for (p = lib->phash[hv]; p != NULL; p = p->hnext)
        if (p->nid == nid && p->pid == pid)
            return p;
    if (!create || (p = ptl_pool_get(&lib->peers)) == NULL)
        return NULL;
    p->used = true;
    p->nid = nid;
    p->pid = pid;
    p->win = lib->wins + (size_t)ptl_pool_idx(&lib->peers, p) * lib->p.window;
    ptl_memzero(p->win, sizeof(*p->win) * lib->p.window);
    ptl_rel_peer_reset(lib, p);
    p->hnext = lib->phash[hv];
    lib->phash[hv] = p;
    p->lnext = lib->peer_list;
    lib->peer_list = p;
    return p;
}

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
    p->ack_owed = false;
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

static void frame_out(struct ptl_lib *lib, const struct ptl_whdr *h,
                      const uint8_t *data, bool app)
{
    uint8_t *f = lib->frame_hdr;
    size_t hl = ptl_wire_hlen(h->flags);
    struct ptl_iov iov[2];
    struct ptl_csum c;
    uint32_t sum;

    ptl_wire_encode(f, h, 0);
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
    lib->ops->tx(lib->ctx, iov, h->frag_len ? 2 : 1);
    lib->st.tx_frames++;
}

static void slot_out(struct ptl_lib *lib, struct ptl_peer *p,
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
                                     a->mlength, a->remote_offset };
    }
    s->order = ++p->tx_order;
    frame_out(lib, &h, m->data + s->off, m->data_app);
}

void ptl_rel_resend(struct ptl_lib *lib, struct ptl_peer *p,
                    struct ptl_txslot *s)
{
    slot_out(lib, p, s);
    s->sent = PTL_SENT_AGAIN;
    lib->st.rtx_frames++;
}

/* A bare link ACK: cumulative, with the SACK bitmap of what was taken
 * beyond a gap, GAP if a new frame beyond one made it go at once. */
void ptl_rel_send_lack(struct ptl_lib *lib, struct ptl_peer *p)
{
    struct ptl_whdr h;

    ptl_memzero(&h, sizeof(h));
    h.type = PTL_W_LACK;
    h.sack = p->rx_sack;
    h.flags = p->ack_gap ? PTL_WF_GAP : 0;
    p->ack_gap = false;
    hdr_common(lib, p, &h);
    frame_out(lib, &h, NULL, false);
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

/* Does m fit one frame, whatever rides along? */
static bool one_frame(const struct ptl_lib *lib, const struct ptl_msg *m)
{
    return m->len <= lib->p.mtu - PTL_WIRE_HLEN - PTL_WIRE_RLEN;
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
    room = lib->p.mtu - PTL_WIRE_HLEN - (s->resp ? PTL_WIRE_RLEN : 0);
    if (n > room)
        n = room;
    s->seq = p->tx_next++;
    p->tx_resend = p->tx_next;
    s->off = m->queued;
    s->len = (uint32_t)n;
    s->msg = m;
    s->sent = ptl_now(lib);
    s->sacked = false;
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
        p->deadline = ptl_now(lib) + p->rto;
    slot_out(lib, p, s);
}

/* Resend presumed-lost frames (never what the receiver SACKed), then
 * frame new data, within cwnd. */
void ptl_rel_push(struct ptl_lib *lib, struct ptl_peer *p)
{
    while (!p->dead && p->tx_resend != p->tx_next &&
           p->tx_resend - p->tx_acked < p->cwnd) {
        struct ptl_txslot *s = &p->win[p->tx_resend % lib->p.window];
        if (s->msg != NULL && !s->sacked)
            ptl_rel_resend(lib, p, s);
        p->tx_resend++;
    }
    while (p->sq != NULL && !p->dead && window_open(lib, p))
        frame_next(lib, p);
}

/* A Portals ACK need not cost a frame of its own: the target usually
 * answers soon (a ping-pong's pong, an RPC's reply), so the ACK waits,
 * like the link-level ack, to ride in the next frame to that peer as a
 * 24-byte record.  It goes alone when the process waits (ptl_lib_flush),
 * when ack_delay passes, or behind queued messages (never overtaking
 * them: only an idle peer holds ACKs). */
static bool hold_ack(struct ptl_lib *lib, struct ptl_peer *p,
                     struct ptl_msg *m)
{
    if (!lib->p.hold_acks || !m->is_response || m->hdr.type != PTL_W_ACK ||
        p->sq != NULL)
        return false;
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
 * after ack_delay). */
bool ptl_lib_flush(struct ptl_lib *lib)
{
    bool sent = false;

    for (struct ptl_peer *p = lib->peer_list; p != NULL; p = p->lnext) {
        sent |= ptl_rel_release_held(lib, p);
        if (p->ack_owed) {
            ptl_rel_send_lack(lib, p);
            sent = true;
        }
    }
    return sent;
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
    if (p->sq == NULL)
        p->sq = m;
    else
        p->sq_tail->next = m;
    p->sq_tail = m;
    ptl_rel_push(lib, p);
}

/* ---- receive ---- */

/* A frame from a new incarnation of the peer: forget the old one. */
static void check_epoch(struct ptl_lib *lib, struct ptl_peer *p,
                        const struct ptl_whdr *h)
{
    if (p->epoch == h->epoch)
        return;
    if (p->epoch != 0) {
        ptl_rel_drop_peer_msgs(lib, p);
        ptl_rel_peer_reset(lib, p);
    }
    p->epoch = h->epoch;
}

static void ack_soon(struct ptl_lib *lib, struct ptl_peer *p, uint64_t delay)
{
    uint64_t due = ptl_now(lib) + delay;

    if (!p->ack_owed || due < p->ack_due)
        p->ack_due = due;
    p->ack_owed = true;
}

static void rx_carried_ack(struct ptl_lib *lib, struct ptl_peer *p,
                           const struct ptl_wresp *r)
{
    struct ptl_whdr a;

    ptl_memzero(&a, sizeof(a));
    a.type = PTL_W_ACK;
    a.msg_id = r->msg_id;
    a.fail_type = r->fail_type;
    a.ptl_list = r->ptl_list;
    a.mlength = r->mlength;
    a.remote_offset = r->remote_offset;
    ptl_ini_rx(lib, p, &a, NULL);
}

static bool deliver(struct ptl_lib *lib, struct ptl_peer *p,
                    const struct ptl_whdr *h, const uint8_t *data)
{
    if (h->type == PTL_W_ACK || h->type == PTL_W_REPLY)
        return ptl_ini_rx(lib, p, h, data);
    return ptl_tgt_rx(lib, p, h, data);
}

/* May a frame beyond a gap be taken now?  Only a middle fragment of the
 * PUT this peer is streaming to us (its first fragment matched already)
 * or of a REPLY: all it does is land its bytes at their offset, which
 * the frames in front of it neither change nor depend on.  A first or
 * last fragment, a frame carrying an ACK or another message's frame
 * waits to be resent in order. */
static bool early_ok(const struct ptl_peer *p, const struct ptl_whdr *h)
{
    if ((h->flags & PTL_WF_RESP) || h->frag_off == 0 ||
        h->frag_off + h->frag_len >= h->total)
        return false;
    if (h->type == PTL_W_REPLY)
        return true;
    return h->type == PTL_W_PUT && p->rx.active &&
           p->rx.first.msg_id == h->msg_id && p->rx.first.type == PTL_W_PUT;
}

/* A frame d sequence numbers beyond the next expected one: take it if
 * early_ok (the SACK bitmap says so), and answer at once with a GAP LACK
 * (a loss signal: recover.c).  A frame taken already is a duplicate. */
static void rx_beyond_gap(struct ptl_lib *lib, struct ptl_peer *p,
                          const struct ptl_whdr *h, const uint8_t *data,
                          uint32_t d)
{
    ack_soon(lib, p, 0);
    if (d < 64 && (p->rx_sack >> d & 1)) {
        lib->st.rx_dup++;
        return;
    }
    lib->st.rx_ooo++;
    p->ack_gap = true;
    if (d >= 64 || !early_ok(p, h) || !deliver(lib, p, h, data))
        return;
    p->rx_sack |= 1ull << d;
    lib->st.rx_early++;
}

static void rx_sequenced(struct ptl_lib *lib, struct ptl_peer *p,
                         const struct ptl_whdr *h, const uint8_t *data)
{
    int32_t d = (int32_t)(h->seq - p->rx_next);
    uint64_t sack = p->rx_sack;

    if (d < 0) {
        /* A duplicate: tell the sender where we are (no GAP: nothing new
         * was lost). */
        lib->st.rx_dup++;
        ack_soon(lib, p, 0);
        return;
    }
    if (d > 0) {
        rx_beyond_gap(lib, p, h, data, (uint32_t)d);
        return;
    }
    /* Delay the ACK a little: a reply usually carries it for free. */
    ack_soon(lib, p, lib->p.ack_delay_ns);
    /* An ACK riding along was sent before this frame's own message: it
     * comes first.  If the message is refused below, the frame comes
     * again and so does the ACK: ptl_ini_rx ignores a second one. */
    if (h->flags & PTL_WF_RESP)
        rx_carried_ack(lib, p, &h->resp);
    /* Count it received before handling, so a response it triggers
     * already acknowledges it (the initiator then sees SEND first). */
    p->rx_next++;
    p->rx_sack >>= 1;
    if (!deliver(lib, p, h, data)) {
        p->rx_next--;
        p->rx_sack = sack;
        lib->st.rx_notready++;
        return;
    }
    /* The gap is filled: skip what was taken beyond it, and say so now
     * (the sender is recovering). */
    if (p->rx_sack & 1) {
        while (p->rx_sack & 1) {
            p->rx_next++;
            p->rx_sack >>= 1;
        }
        ack_soon(lib, p, 0);
    }
    /* Ack at least every quarter window even while frames keep coming.
     * Holding ACKs, wait for half: a peer whose ACK went alone sends two
     * frames per message (ACK, then its message), and acking every two
     * frames (VDE's window of 8) would send ours alone in turn, for ever. */
    if (++p->unacked_rx >= lib->p.window / (p->held ? 2 : 4)) {
        ptl_rel_release_held(lib, p);
        if (p->ack_owed)
            ptl_rel_send_lack(lib, p);
    }
}

/* A frame for an earlier incarnation of ours: tell its sender that one is
 * gone, so it stops resending (PROTOCOL.md, "Incarnations"). */
static void send_reset(struct ptl_lib *lib, const struct ptl_whdr *h)
{
    uint8_t f[PTL_FRAME_HLEN];
    struct ptl_iov iov = { f, ptl_wire_reset(h, f), false };

    if (iov.len == 0)
        return;
    lib->ops->tx(lib->ctx, &iov, 1);
    lib->st.tx_resets++;
}

/* The incarnation of the peer we knew is gone: what we still had for it
 * fails at once (PTL_NI_UNDELIVERABLE) instead of after max_retries
 * timeouts, and the peer starts afresh, its next incarnation unknown.  A
 * RESET about another incarnation than the one we know is stale. */
static void rx_reset(struct ptl_lib *lib, const struct ptl_whdr *h)
{
    struct ptl_peer *p = ptl_peer_find(lib, h->src_nid, h->src_pid, false);

    if (p == NULL || p->epoch != h->epoch)
        return;
    lib->st.rx_resets++;
    ptl_rel_drop_peer_msgs(lib, p);
    ptl_rel_peer_reset(lib, p);
    p->epoch = 0;
}

void ptl_lib_rx(struct ptl_lib *lib, const void *frame, size_t len)
{
    struct ptl_whdr h;
    const uint8_t *data;

    switch (ptl_wire_parse(frame, len, &h, &data, 1)) {
    case 0:
        break;
    case PTL_WIRE_EVERSION:
        lib->st.rx_version++;   /* the host names it (kernel, host.c) */
        return;
    default:
        lib->st.rx_bad++;
        return;
    }
    ptl_lib_rx_parsed(lib, frame, len, &h, data);
}

void ptl_lib_rx_parsed(struct ptl_lib *lib, const void *frame, size_t len,
                       const struct ptl_whdr *h, const uint8_t *data)
{
    struct ptl_peer *p;

    if (!lib->p.no_checksum && ptl_wire_check_csum(frame, len, h) != 0) {
        lib->st.rx_bad++;
        return;
    }
    if (h->dst_nid != lib->p.nid || h->dst_pid != lib->p.pid ||
        h->epoch == 0) {
        lib->st.rx_misaddressed++;
        return;
    }
    if (h->dst_epoch != 0 && h->dst_epoch != lib->p.epoch) {
        lib->st.rx_misaddressed++;
        send_reset(lib, h);
        return;
    }
    if (h->type == PTL_W_RESET) {
        rx_reset(lib, h);
        return;
    }
    if ((p = ptl_peer_find(lib, h->src_nid, h->src_pid, true)) == NULL) {
        lib->st.drops++;
        return;
    }
    lib->st.rx_frames++;
    check_epoch(lib, p, h);
    ptl_rel_ack(lib, p, h);
    if (h->flags & PTL_WF_SEQ)
        rx_sequenced(lib, p, h, data);
}
