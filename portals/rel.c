/* SPDX-License-Identifier: MIT */
/*
 * rel.c: the thin reliable, in-order layer per peer (PROTOCOL.md,
 * "Reliability").  Go-back-N: every sequenced frame carries a cumulative
 * ACK of what we received; the receiver accepts only the next expected
 * sequence number; the sender keeps a window of unacknowledged frames
 * (which point into application memory, never copies) and resends all of
 * them when the oldest times out, doubling the timeout each time.
 * Messages to one peer are framed strictly one after another, so the
 * receiver needs one reassembly context per peer.
 */
#include "ptl_internal.h"

static bool seq_lt(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }

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

static void peer_reset(struct ptl_lib *lib, struct ptl_peer *p)
{
    p->tx_next = p->tx_acked = p->tx_resend = p->rx_next = 0;
    p->cwnd = lib->p.window;
    p->ack_owed = p->dead = false;
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
    peer_reset(lib, p);
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
                     const struct ptl_txslot *s)
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
    frame_out(lib, &h, m->data + s->off, m->data_app);
}

static void send_lack(struct ptl_lib *lib, struct ptl_peer *p)
{
    struct ptl_whdr h;

    ptl_memzero(&h, sizeof(h));
    h.type = PTL_W_LACK;
    hdr_common(lib, p, &h);
    frame_out(lib, &h, NULL, false);
    lib->st.acks_sent++;
}

/* New frames may go out when nothing awaits resending and the
 * congestion window has room. */
static bool window_open(struct ptl_lib *lib, struct ptl_peer *p)
{
    (void)lib;
    return p->tx_resend == p->tx_next && p->tx_next - p->tx_acked < p->cwnd;
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

/* Frame the next piece of the head message into the window. */
static void frame_next(struct ptl_lib *lib, struct ptl_peer *p)
{
    struct ptl_msg *m = p->sq;
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
    m->queued += n;
    m->frames_unacked++;
    if (m->queued == m->len) {
        p->sq = m->next;
        if (p->sq == NULL)
            p->sq_tail = NULL;
        m->state = PTL_M_SENT;
    }
    if (p->tx_next - p->tx_acked == 1)
        p->deadline = ptl_now(lib) + p->rto;
    slot_out(lib, p, s);
}

/* Resend presumed-lost frames, then frame new data, within cwnd. */
static void push(struct ptl_lib *lib, struct ptl_peer *p)
{
    while (!p->dead && p->tx_resend != p->tx_next &&
           p->tx_resend - p->tx_acked < p->cwnd) {
        struct ptl_txslot *s = &p->win[p->tx_resend % lib->p.window];
        if (s->msg != NULL) {
            slot_out(lib, p, s);
            s->sent = PTL_SENT_AGAIN;
            lib->st.rtx_frames++;
        }
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
static bool release_held(struct ptl_lib *lib, struct ptl_peer *p)
{
    if (p->held == NULL)
        return false;
    p->held_tail->next = p->sq;
    if (p->sq == NULL)
        p->sq_tail = p->held_tail;
    p->sq = p->held;
    p->held = p->held_tail = NULL;
    push(lib, p);
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
        sent |= release_held(lib, p);
        if (p->ack_owed) {
            send_lack(lib, p);
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
    push(lib, p);
}

/* ---- acknowledgements and timers ---- */

/* Go back to the oldest unacknowledged frame; resend from there at
 * most cwnd frames at a time (a switch port that just dropped a burst
 * would drop a full-window resend too). */
static void go_back(struct ptl_lib *lib, struct ptl_peer *p, uint32_t cwnd)
{
    p->tx_resend = p->tx_acked;
    p->cwnd = cwnd < 1 ? 1 : cwnd;
    push(lib, p);
}

/* Fast retransmit: the receiver repeats its ACK when it sees a gap, so
 * two acks that move nothing while frames are outstanding mean a loss;
 * resend now instead of waiting for the timer (once per window). */
static void dup_ack(struct ptl_lib *lib, struct ptl_peer *p)
{
    if (p->tx_acked == p->tx_next || seq_lt(p->tx_acked, p->recover))
        return;
    if (++p->dupacks < 2)
        return;
    p->dupacks = 0;
    p->recover = p->tx_next;
    go_back(lib, p, p->cwnd / 2);
}

/* A round-trip sample r (ns).  A fixed 20 ms timeout is shorter than the
 * round trip to a node whose host deschedules it for tens of ms (or that
 * is simply far), and then nearly every retransmission is spurious and
 * every one is a duplicate at the receiver.  Jacobson/Karels: srtt +=
 * (r - srtt) / 8, rttvar += (|r - srtt| - rttvar) / 4, RTO = srtt + 4
 * rttvar, never below the configured initial RTO (a fast link keeps the
 * timer it had) nor above rto_max. */
static void rtt_sample(struct ptl_lib *lib, struct ptl_peer *p, uint64_t r)
{
    uint64_t err, rto;

    if (p->srtt == 0) {
        p->srtt = r ? r : 1;
        p->rttvar = r / 2;
    } else {
        err = r > p->srtt ? r - p->srtt : p->srtt - r;
        p->rttvar = p->rttvar - p->rttvar / 4 + err / 4;
        p->srtt = p->srtt - p->srtt / 8 + r / 8;
    }
    rto = p->srtt + 4 * p->rttvar;
    if (rto < lib->p.rto_ns)
        rto = lib->p.rto_ns;
    if (rto > lib->p.rto_max_ns)
        rto = lib->p.rto_max_ns;
    p->rto_base = rto;
}

static void handle_ack(struct ptl_lib *lib, struct ptl_peer *p, uint32_t ack,
                       bool pure)
{
    uint64_t sent = PTL_SENT_AGAIN;
    uint32_t moved = 0;

    /* Valid acks lie in [tx_acked, tx_next]; anything else is stale or
     * forged (a fuzzer found that a far-away ack must not walk the
     * window round). */
    if (ack - p->tx_acked > p->tx_next - p->tx_acked)
        return;
    if (ack == p->tx_acked) {
        if (pure)           /* only bare ACKs signal a gap */
            dup_ack(lib, p);
        return;
    }
    while (seq_lt(p->tx_acked, ack)) {
        struct ptl_txslot *s = &p->win[p->tx_acked % lib->p.window];
        struct ptl_msg *m = s->msg;
        /* Every frame's first send is timed (Karn: never a resent one),
         * and the newest frame sent once that this ACK covers gives the
         * sample: a round whose oldest frames timed out can still teach
         * us, where timing one frame per round (TCP without timestamps)
         * never learns once every round times out. */
        if (m != NULL && s->sent != PTL_SENT_AGAIN)
            sent = s->sent;
        s->msg = NULL;
        if (s->resp != NULL) {
            ptl_msg_sent(lib, s->resp);
            s->resp = NULL;
        }
        p->tx_acked++;
        moved++;
        if (m != NULL && --m->frames_unacked == 0 && m->state == PTL_M_SENT)
            ptl_msg_sent(lib, m);
    }
    if (moved == 0)
        return;
    if (sent != PTL_SENT_AGAIN)
        rtt_sample(lib, p, ptl_now(lib) - sent);
    if (seq_lt(p->tx_resend, p->tx_acked))
        p->tx_resend = p->tx_acked;
    /* Grow back by what was acknowledged (doubles per round trip). */
    p->cwnd = p->cwnd + moved < lib->p.window ? p->cwnd + moved
                                               : lib->p.window;
    p->dupacks = 0;
    p->retries = 0;
    p->rto = p->rto_base;
    p->deadline = p->tx_acked != p->tx_next ? ptl_now(lib) + p->rto : 0;
    push(lib, p);
}

/* Fail everything bound for or waiting on p (unreachable or restarted). */
void ptl_rel_drop_peer_msgs(struct ptl_lib *lib, struct ptl_peer *p)
{
    for (uint32_t s = p->tx_acked; s != p->tx_next; s++) {
        p->win[s % lib->p.window].msg = NULL;
        p->win[s % lib->p.window].resp = NULL;
    }
    p->held = p->held_tail = NULL;      /* failed with the rest below */
    p->tx_acked = p->tx_resend = p->tx_next;
    for (uint32_t i = 0; i < lib->msgs.count; i++) {
        struct ptl_msg *m = ptl_pool_at(&lib->msgs, i);
        if (m->state != PTL_M_FREE && m->peer == p)
            ptl_msg_fail(lib, m, PTL_NI_UNDELIVERABLE);
    }
    p->sq = p->sq_tail = NULL;
    if (p->rx.active && p->rx.uh != NULL)
        ptl_uh_abort(lib, p->rx.pt, p->rx.uh);
    if (p->rx.active && p->rx.me != NULL) {
        p->rx.me->busy--;
        ptl_me_release(lib, p->rx.me);
    }
    if (p->rx.active && p->rx.resp != NULL && p->rx.resp->state != PTL_M_FREE)
        ptl_msg_free(lib, p->rx.resp);
    p->rx.active = false;
}

static void retransmit(struct ptl_lib *lib, struct ptl_peer *p, uint64_t now)
{
    if (++p->retries > lib->p.max_retries) {
        ptl_rel_drop_peer_msgs(lib, p);
        p->dead = true;
        p->deadline = 0;
        return;
    }
    p->recover = p->tx_next;
    go_back(lib, p, 2);
    p->rto = p->rto * 2 < lib->p.rto_max_ns ? p->rto * 2 : lib->p.rto_max_ns;
    p->deadline = now + p->rto;
}

void ptl_lib_progress(struct ptl_lib *lib)
{
    uint64_t now = ptl_now(lib);

    ptl_trig_retry(lib);            /* ct.c: fired, waiting for a slot */
    for (struct ptl_peer *p = lib->peer_list; p != NULL; p = p->lnext) {
        if (p->tx_acked != p->tx_next && now >= p->deadline)
            retransmit(lib, p, now);
        if (p->held != NULL && now >= p->held_due)
            release_held(lib, p);
        if (p->ack_owed && now >= p->ack_due)
            send_lack(lib, p);
        push(lib, p);
    }
}

uint64_t ptl_lib_deadline(struct ptl_lib *lib)
{
    uint64_t d = UINT64_MAX;

    for (struct ptl_peer *p = lib->peer_list; p != NULL; p = p->lnext) {
        if (p->ack_owed && p->ack_due < d)
            d = p->ack_due;
        if (p->held != NULL && p->held_due < d)
            d = p->held_due;
        if (p->tx_acked != p->tx_next && p->deadline < d)
            d = p->deadline;
    }
    return d;
}

/* The longest retransmission timeout a peer of ours has settled on (our
 * estimate of its round trip stands for its estimate of ours). */
uint64_t ptl_rel_max_rto(struct ptl_lib *lib)
{
    uint64_t rto = lib->p.rto_ns;

    for (struct ptl_peer *p = lib->peer_list; p != NULL; p = p->lnext) {
        if (!p->dead && p->rto_base > rto)
            rto = p->rto_base;
    }
    return rto;
}

bool ptl_lib_busy(struct ptl_lib *lib)
{
    for (struct ptl_peer *p = lib->peer_list; p != NULL; p = p->lnext) {
        if (!p->dead &&
            (p->sq || p->held || p->tx_acked != p->tx_next || p->ack_owed))
            return true;
    }
    return false;
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
        peer_reset(lib, p);
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

static void rx_sequenced(struct ptl_lib *lib, struct ptl_peer *p,
                         const struct ptl_whdr *h, const uint8_t *data)
{
    int32_t d = (int32_t)(h->seq - p->rx_next);
    bool ok;

    if (d != 0) {
        /* A duplicate or a gap: tell the sender where we are now. */
        if (d < 0)
            lib->st.rx_dup++;
        else
            lib->st.rx_ooo++;
        ack_soon(lib, p, 0);
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
    if (h->type == PTL_W_ACK || h->type == PTL_W_REPLY)
        ok = ptl_ini_rx(lib, p, h, data);
    else
        ok = ptl_tgt_rx(lib, p, h, data);
    if (!ok) {
        p->rx_next--;
        lib->st.rx_notready++;
        return;
    }
    /* Ack at least every quarter window even while frames keep coming.
     * Holding ACKs, wait for half: a peer whose ACK went alone sends two
     * frames per message (ACK, then its message), and acking every two
     * frames (VDE's window of 8) would send ours alone in turn, for ever. */
    if (++p->unacked_rx >= lib->p.window / (p->held ? 2 : 4)) {
        release_held(lib, p);
        if (p->ack_owed)
            send_lack(lib, p);
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
    peer_reset(lib, p);
    p->epoch = 0;
}

void ptl_lib_rx(struct ptl_lib *lib, const void *frame, size_t len)
{
    struct ptl_whdr h;
    const uint8_t *data;

    if (ptl_wire_parse(frame, len, &h, &data, 1) != 0) {
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
    handle_ack(lib, p, h->ack, h->type == PTL_W_LACK);
    if (h->flags & PTL_WF_SEQ)
        rx_sequenced(lib, p, h, data);
}
